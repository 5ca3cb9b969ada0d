/**
 * A business registration (accountCreate with `company`; api/business-registration.ts, document 3
 * §3 "Registration payload", §4 "Registration", §5 "Shareholders" and "Registration"; issue 17
 * items 1-3): every check first, every refusal in one VF answer, then the company in the call's one
 * transaction.
 *
 * The checks. The ownership rules are the wizard's own (api/ownership.ts: one module for the statechart's guards and the platform); each of their codes
 * becomes a VF code on the payload path it is about (`shareholders.0.shareholders.1.share`,
 * `personList.2.sourcesOfFunds`, `directors`, `users`). Beside them: ids given twice, the tree's
 * depth, the registrant (a person of the list, a user with full rights, with an e-mail), every user's
 * e-mail (given, not twice, not already a login: document 1 §4 states 1 and 3 block), every term of
 * the agreements dictionary accepted, dictionary ids and countries known, due-diligence details
 * when an answer is yes, no date in the future.
 *
 * The store. Decisions where the spec is silent:
 * - Representatives follow the tree: every node is a row (a person or a company) whose parent is
 *   its parent node's row; position 6 for the company's own shareholders, 9 for a shareholder of a
 *   corporate shareholder (the tables' and api/business.ts's reading of "6 and 9 shareholder": 9 is
 *   nested, not "a company"); a corporate shareholder's directors are rows under it with position 2
 *   (merged into its shareholder row when the director holds shares of it too). The company's
 *   directors are root rows with 2, merged into the person's root shareholder row when there is one.
 * - A person's "primary" row is their first root row, else their first row in tree order. The
 *   owners (the declared ultimate beneficial owners and those the tree makes, effective share >= 25 %)
 *   get position 8 there; a user's login is linked there. A person who has no row yet (a user or a
 *   declared owner outside the tree) gets a root row (8, or 1 for an authorised user).
 * - An owner's sources of funds are kept on every row of that person (by source id: details).
 * - The registrant is the owner user (type 2, the company's own user, password hashed as personal
 *   registration does, not activated) with customer_access right 2; every other user gets a person
 *   customer and a user of type 3, not activated, with no password anyone knows until
 *   employeeAccountActivate sets one (the activationEmployee link goes out once the owner activates).
 * - The company gets its details, address, primary phone (unconfirmed), accepted terms, a EUR payment
 *   account (as a personal customer does) and its documents to upload (business_document_requirements).
 */
import { and, inArray, eq } from 'drizzle-orm';
import { MAX_TREE_DEPTH, type BusinessRegistration, type RegistrationAddress, type RegistrationPerson, type ShareholderNodeInput } from '../../../api/business-registration.ts';
import { PositionId } from '../../../api/business.ts';
import { AccessRight } from '../../../api/customer.ts';
import { describeVf, vf, VfCode, type CodedValidationError, type VfParamValue } from '../../../api/errors.ts';
import { EmailState } from '../../../api/registration.ts';
import { checkTaxNumberField } from '../../../api/tax-numbers.ts';
import { DocumentCategory } from '../../../api/verification.ts';
import {
  ShareholderType,
  ultimateBeneficialOwners,
  userIds as registrationUserIds,
  validateOwnership,
  walkTree,
  type OwnershipCode,
  type OwnershipData,
  type OwnershipIssue,
  type ShareholderNode,
} from '../../../api/ownership.ts';
import type { Db, Tx } from '../../db/types.ts';
import { accounts } from '../accounts/accounts.tables.ts';
import { dummyPasswordHash, hashPassword } from '../auth/crypto.ts';
import { businessCompanies, businessRepresentativeAddresses, businessRepresentatives } from '../business/business.tables.ts';
import { customerAccess, customers, phones, termsAcceptances, users } from '../customers/customers.tables.ts';
import { currentTerms } from '../customers/terms.service.ts';
import { dictionaryItems } from '../dictionaries/dictionaries.tables.ts';
import { readAgreements, readCurrencies, readIndustries, readNamed, readQuestions } from '../dictionaries/dictionaries.service.ts';
import { DictionaryKey } from '../dictionaries/data/types.ts';
import { MethodFailure } from '../method-types.ts';
import { customerAddresses } from '../profile/profile.tables.ts';
import { businessDocumentRequirements } from './business-registration.tables.ts';
import { newCustomerMoneyPermissions } from '../transfers/permissions.ts';

/** Nodes one shareholder tree may hold (a person or company may appear at several places). */
export const MAX_TREE_NODES = 200;
/** The account a new company gets, as a personal customer does: a EUR payment account at zero. */
const OPENING_ACCOUNT = { type: 1001, currency: 'EUR' } as const;

export interface BusinessCheckOptions {
  /** the variant's source-of-wealth switch (variants/schema.ts registration.sourceOfWealth) */
  sourceOfWealth: boolean;
  /** the variant hides the adult industry group */
  hideAdultIndustries: boolean;
  now: () => number;
}

/**
 * Every ownership code as the VF code the platform answers with. Typed over every code: a new rule's
 * code fails compilation here until it has one.
 */
export const OWNERSHIP_VF: { readonly [C in OwnershipCode]: VfCode } = {
  shareOutOfRange: VfCode.shareOutOfRange,
  shareTooPrecise: VfCode.shareTooPrecise,
  levelTotalOutOfRange: VfCode.levelTotalOutOfRange,
  companyWithoutDirector: VfCode.companyWithoutDirector,
  shareholderWithoutReference: VfCode.required,
  unknownPerson: VfCode.unknownReference,
  unknownCompany: VfCode.unknownReference,
  personWithShareholders: VfCode.personWithShareholders,
  personNameMissing: VfCode.required,
  uboSourceOfFundsMissing: VfCode.uboSourceOfFundsMissing,
  uboSourceOfFundsDetailsMissing: VfCode.uboSourceOfFundsDetailsMissing,
  unknownOwner: VfCode.unknownReference,
  companyNameMissing: VfCode.required,
  unknownDirector: VfCode.unknownReference,
  noDirector: VfCode.noDirector,
  noFullRightsUser: VfCode.noFullRightsUser,
  userWithoutRights: VfCode.userWithoutRights,
  userRightsInvalid: VfCode.notAllowed,
  unknownUser: VfCode.unknownReference,
  // The platform checks e-mails itself (below): the rules never see states from it.
  userEmailExists: VfCode.alreadyRegistered,
  userEmailChecking: VfCode.invalid,
  userEmailUnchecked: VfCode.invalid,
};

/** The payload's tree as the rules read it (every node with its list of shareholders). */
export function ownershipTree(nodes: readonly ShareholderNodeInput[]): ShareholderNode[] {
  return nodes.map((n) => ({
    type: n.type,
    share: n.share,
    personId: n.personId ?? null,
    companyId: n.companyId ?? null,
    shareholders: ownershipTree(n.shareholders ?? []),
  }));
}

export function ownershipData(reg: BusinessRegistration): OwnershipData {
  return {
    directors: reg.directors,
    ultimateBeneficiaryOwners: reg.ultimateBeneficiaryOwners,
    shareholders: ownershipTree(reg.shareholders),
    users: reg.users,
    personList: reg.personList,
    companyList: reg.companyList,
  };
}

const treePath = (path: readonly (string | number)[]) => ['shareholders', ...path.flatMap((i, k) => (k === 0 ? [String(i)] : ['shareholders', String(i)]))].join('.');

/** The payload path an ownership issue is about. */
export function issueParam(reg: BusinessRegistration, issue: OwnershipIssue): string {
  const personAt = (id: string | number) => reg.personList.findIndex((p) => p.id === String(id));
  const companyAt = (id: string | number) => reg.companyList.findIndex((c) => c.id === String(id));
  const [first, second] = issue.path;
  switch (issue.section) {
    case 'shareholders': {
      const base = treePath(issue.path);
      const node = walkTree(ownershipTree(reg.shareholders)).find((w) => w.path.join('.') === issue.path.join('.'))?.node;
      switch (issue.code) {
        case 'shareOutOfRange':
        case 'shareTooPrecise':
          return `${base}.share`;
        case 'levelTotalOutOfRange':
        case 'personWithShareholders':
          return issue.path.length === 0 ? 'shareholders' : `${base}.shareholders`;
        case 'unknownPerson':
          return `${base}.personId`;
        case 'unknownCompany':
          return `${base}.companyId`;
        case 'shareholderWithoutReference':
          return `${base}.${node?.type === ShareholderType.company ? 'companyId' : node?.type === ShareholderType.person ? 'personId' : 'type'}`;
        default:
          return base;
      }
    }
    case 'persons': {
      if (issue.code === 'unknownOwner') return `ultimateBeneficiaryOwners.${reg.ultimateBeneficiaryOwners.indexOf(String(first))}`;
      const i = personAt(first!);
      if (issue.code === 'uboSourceOfFundsMissing') return `personList.${i}.sourcesOfFunds`;
      if (issue.code === 'uboSourceOfFundsDetailsMissing') {
        const j = (reg.personList[i]?.sourcesOfFunds ?? []).findIndex((s) => s.sourceId === Number(second));
        return `personList.${i}.sourcesOfFunds.${j}.details`;
      }
      if (issue.code === 'personNameMissing') return `personList.${i}.firstName`;
      return `personList.${i}`;
    }
    case 'companies': {
      const i = companyAt(first!);
      if (issue.code === 'companyNameMissing') return `companyList.${i}.name`;
      if (issue.code === 'unknownDirector') return `companyList.${i}.directors.${reg.companyList[i]?.directors.indexOf(issue.params?.id ?? '') ?? -1}`;
      return `companyList.${i}.directors`;
    }
    case 'directors':
      return first === undefined ? 'directors' : `directors.${first}`;
    case 'users':
      if (first === undefined) return 'users';
      if (issue.code === 'unknownUser') return `users.${reg.users.indexOf(String(first))}`;
      return `personList.${personAt(first)}.accessRights`;
  }
}

/** One VF entry per path, the first found (as the endpoint's schema errors are). */
class Refusals {
  private readonly byParam = new Map<string, CodedValidationError>();
  add(error: CodedValidationError) {
    if (!this.byParam.has(error.param)) this.byParam.set(error.param, error);
  }
  get list(): CodedValidationError[] {
    return [...this.byParam.values()];
  }
}

/** A VF entry of a code chosen at run time (the ownership table's), with its parameters. */
function coded(param: string, code: VfCode, params: Record<string, VfParamValue>): CodedValidationError {
  return { param, description: describeVf(code, params), code, params };
}

const today = (nowMs: number) => new Date(nowMs).toISOString().slice(0, 10);

/** The ids (as strings) the platform accepts from a plain `{ id, name }` dictionary. */
async function namedIds(db: Db | Tx, key: DictionaryKey): Promise<Set<number>> {
  return new Set((await readNamed(db as Db, key, 'en')).map((r) => r.id));
}

/** The e-mail check state of each address (document 1 §4): 0 free, 1 exists, 3 exists as an authorised user. */
async function emailStates(db: Db | Tx, emails: readonly string[]): Promise<Map<string, number>> {
  if (emails.length === 0) return new Map();
  const rows = await db
    .select({ email: users.email, userType: users.userType })
    .from(users)
    .where(inArray(users.email, [...emails]));
  return new Map(rows.map((r) => [r.email, r.userType === 3 ? EmailState.employee : EmailState.exists]));
}

export interface CheckedRegistration {
  reg: BusinessRegistration;
  registrant: RegistrationPerson;
  /** person ids of the company's users */
  userIds: Set<string>;
  /** person ids of the owners: declared and made by the tree */
  ownerIds: Set<string>;
}

/** Every check of a business registration; throws VF with every refusal found, or answers what the store needs. */
export async function checkBusinessRegistration(db: Db | Tx, reg: BusinessRegistration, options: BusinessCheckOptions): Promise<CheckedRegistration> {
  const refusals = new Refusals();
  const personIndex = new Map<string, number>();
  reg.personList.forEach((p, i) => {
    if (personIndex.has(p.id)) refusals.add(vf(`personList.${i}.id`, VfCode.repeated));
    else personIndex.set(p.id, i);
  });
  const companyIds = new Set<string>();
  reg.companyList.forEach((c, i) => {
    if (companyIds.has(c.id)) refusals.add(vf(`companyList.${i}.id`, VfCode.repeated));
    companyIds.add(c.id);
  });

  // The tree's size and depth first: the rules walk it.
  const tree = ownershipTree(reg.shareholders);
  const visits = walkTree(tree);
  if (visits.length > MAX_TREE_NODES) refusals.add(vf('shareholders', VfCode.tooManyItems, { max: MAX_TREE_NODES }));
  for (const { path, depth } of visits) if (depth >= MAX_TREE_DEPTH) refusals.add(vf(treePath(path), VfCode.treeTooDeep, { max: MAX_TREE_DEPTH }));

  // The ownership rules (§5), each code on its path.
  const data = ownershipData(reg);
  for (const issue of validateOwnership(data, { sourceOfWealth: options.sourceOfWealth })) {
    const code = OWNERSHIP_VF[issue.code];
    const param = issueParam(reg, issue);
    refusals.add(coded(param, code, code === VfCode.levelTotalOutOfRange ? { total: issue.params?.total ?? '' } : {}));
  }

  // The registrant: a person of the list, a user with full rights (the first registration user gets 2), who signs in with their e-mail.
  const users = registrationUserIds(data);
  const registrantIndex = personIndex.get(reg.authorizedCompanyRepresentative.personId);
  const registrant = registrantIndex === undefined ? undefined : reg.personList[registrantIndex];
  if (!registrant) refusals.add(vf('authorizedCompanyRepresentative.personId', VfCode.unknownReference));
  else {
    if (!users.has(registrant.id) || registrant.accessRights !== AccessRight.full) refusals.add(vf('authorizedCompanyRepresentative.personId', VfCode.ownerRights));
    if (!registrant.email) refusals.add(vf(`personList.${registrantIndex}.email`, VfCode.required));
  }

  // Users' e-mails: given, not twice, not a login already (states 1 and 3 block; document 1 §4).
  const seen = new Map<string, number>();
  for (const id of users) {
    const i = personIndex.get(id);
    const person = i === undefined ? undefined : reg.personList[i];
    if (!person) continue; // unknownUser, above
    if (!person.email) refusals.add(vf(`personList.${i}.email`, VfCode.required));
    else if (seen.has(person.email)) refusals.add(vf(`personList.${i}.email`, VfCode.repeated));
    else seen.set(person.email, i!);
  }
  const states = await emailStates(db, [...seen.keys()]);
  for (const [email, i] of seen) {
    const state = states.get(email) ?? EmailState.free;
    if (state === EmailState.exists || state === EmailState.employee) refusals.add(vf(`personList.${i}.email`, VfCode.alreadyRegistered));
  }

  // The legal form: every term of the agreements dictionary accepted, nothing else.
  const agreements = await readAgreements(db as Db, 'en');
  const termIds = new Set(agreements.map((a) => String(a.id)));
  for (const a of agreements) if (reg.legalInformation[String(a.id)] !== true) refusals.add(vf(`legalInformation.${a.id}`, VfCode.mustAccept));
  for (const key of Object.keys(reg.legalInformation)) if (!termIds.has(key)) refusals.add(vf(`legalInformation.${key}`, VfCode.notAllowed));

  // Dictionary ids.
  const businessSources = await namedIds(db, DictionaryKey.businessSourceOfFunds);
  const purposes = await namedIds(db, DictionaryKey.businessPurposeOfAccount);
  const employeeSources = await namedIds(db, DictionaryKey.employeeSourceOfFunds);
  const industries = new Set((await readIndustries(db as Db, 'en', options.hideAdultIndustries)).flatMap((g) => g.industries.map((i) => i.id)));
  const currencies = new Set((await readCurrencies(db as Db, 'en')).filter((c) => !c.crypto).map((c) => c.code));
  const fd = reg.financialDetail;
  fd.sourceIds.forEach((id, i) => businessSources.has(id) || refusals.add(vf(`financialDetail.sourceIds.${i}`, VfCode.notAllowed)));
  fd.purposeIds.forEach((id, i) => purposes.has(id) || refusals.add(vf(`financialDetail.purposeIds.${i}`, VfCode.notAllowed)));
  if (!industries.has(fd.industry)) refusals.add(vf('financialDetail.industry', VfCode.notAllowed));
  if (!currencies.has(fd.currency)) refusals.add(vf('financialDetail.currency', VfCode.notAllowed));
  reg.personList.forEach((p, i) =>
    (p.sourcesOfFunds ?? []).forEach((s, j) => employeeSources.has(s.sourceId) || refusals.add(vf(`personList.${i}.sourcesOfFunds.${j}.sourceId`, VfCode.notAllowed))),
  );
  const questions = await readQuestions(db as Db, 'businessAdditionalQuestions', 'en');
  const questionIds = new Set(questions.flatMap((q) => [q.id, ...(q.followUp ? [q.followUp.id] : [])]));
  for (const key of Object.keys(reg.additionalQuestionAnswers ?? {})) if (!questionIds.has(key)) refusals.add(vf(`additionalQuestionAnswers.${key}`, VfCode.notAllowed));

  // Countries (one query for all of them).
  const countryFields: [string, string][] = [
    ['company.registrationCountryCode', reg.company.registrationCountryCode],
    ['company.address.countryCode', reg.company.address.countryCode],
    ...reg.personList.flatMap((p, i): [string, string][] => (p.address ? [[`personList.${i}.address.countryCode`, p.address.countryCode]] : [])),
    ...reg.companyList.map((c, i): [string, string] => [`companyList.${i}.registrationCountryCode`, c.registrationCountryCode]),
  ];
  const known = new Set(
    (
      await db
        .select({ code: dictionaryItems.itemKey })
        .from(dictionaryItems)
        .where(and(eq(dictionaryItems.dictionary, DictionaryKey.countries), inArray(dictionaryItems.itemKey, [...new Set(countryFields.map(([, c]) => c))])))
    ).map((r) => r.code),
  );
  for (const [param, code] of countryFields) if (!known.has(code)) refusals.add(vf(param, VfCode.notCountry));

  // Tax numbers in their country's format (document 3 §9, api/tax-numbers.ts): the company's
  // against its registration country (business), a person's against the country of the person's
  // address (personal); a person without an address has no country, so only the contract's
  // generic length check applies. Stored in the compact form the check answers.
  let businessTaxId = reg.company.businessTaxId;
  if (businessTaxId) {
    const checked = checkTaxNumberField('company.businessTaxId', reg.company.registrationCountryCode, 'business', businessTaxId);
    if (checked.ok) businessTaxId = checked.value;
    else refusals.add(checked.error);
  }
  const personList = reg.personList.map((p, i) => {
    if (!p.taxId || !p.address) return p;
    const checked = checkTaxNumberField(`personList.${i}.taxId`, p.address.countryCode, 'personal', p.taxId);
    if (!checked.ok) refusals.add(checked.error);
    return checked.ok ? { ...p, taxId: checked.value } : p;
  });
  const stored: BusinessRegistration = { ...reg, company: { ...reg.company, businessTaxId }, personList };

  // Due diligence: a yes needs its details (§3 dueDiligence).
  if ((reg.dueDiligence.government || reg.dueDiligence.lawsuits) && !reg.dueDiligence.details) refusals.add(vf('dueDiligence.details', VfCode.required));
  // No date in the future.
  const day = today(options.now());
  if (reg.company.registrationDate > day) refusals.add(vf('company.registrationDate', VfCode.notInFuture));
  reg.personList.forEach((p, i) => p.birthday > day && refusals.add(vf(`personList.${i}.birthday`, VfCode.notInFuture)));

  const errors = refusals.list;
  if (errors.length > 0 || !registrant) throw new MethodFailure('VF', 'Invalid request', errors);
  const ownerIds = new Set([...reg.ultimateBeneficiaryOwners, ...ultimateBeneficialOwners(data).map((u) => u.personId)]);
  return { reg: stored, registrant: stored.personList[registrantIndex!]!, userIds: users, ownerIds };
}

// ---------------------------------------------------------------------------------------------------
// The store

interface PlannedRow {
  key: number;
  parentKey: number | null;
  kind: 'person' | 'company';
  personId: string | null;
  companyId: string | null;
  positionIds: number[];
  shareHundredths: number | null;
}

/**
 * The representatives the payload makes, parents before children (see the header for the
 * decisions): rows keyed by their order, each person's primary row.
 */
export function planRepresentatives(checked: CheckedRegistration): { rows: PlannedRow[]; primary: Map<string, number> } {
  const { reg, ownerIds, userIds } = checked;
  const rows: PlannedRow[] = [];
  const companies = new Map(reg.companyList.map((c) => [c.id, c]));
  const add = (row: Omit<PlannedRow, 'key'>) => {
    const planned = { ...row, key: rows.length };
    rows.push(planned);
    return planned;
  };
  const hundredths = (share: number) => Math.round(share * 100);
  const visit = (nodes: readonly ShareholderNodeInput[], parent: PlannedRow | null) => {
    for (const node of nodes) {
      const isPerson = node.type === ShareholderType.person;
      const row = add({
        parentKey: parent?.key ?? null,
        kind: isPerson ? 'person' : 'company',
        personId: isPerson ? (node.personId ?? null) : null,
        companyId: isPerson ? null : (node.companyId ?? null),
        positionIds: [parent ? PositionId.nestedShareholder : PositionId.shareholder],
        shareHundredths: hundredths(node.share),
      });
      if (isPerson) continue;
      visit(node.shareholders ?? [], row);
      // The corporate shareholder's directors: merged into its own shareholder row of that person, else a row of their own.
      for (const director of companies.get(node.companyId ?? '')?.directors ?? []) {
        const holder = rows.find((r) => r.parentKey === row.key && r.personId === director && r.kind === 'person');
        if (holder) holder.positionIds.includes(PositionId.director) || holder.positionIds.push(PositionId.director);
        else add({ parentKey: row.key, kind: 'person', personId: director, companyId: null, positionIds: [PositionId.director], shareHundredths: null });
      }
    }
  };
  visit(reg.shareholders, null);
  for (const director of new Set(reg.directors)) {
    const holder = rows.find((r) => r.parentKey === null && r.personId === director);
    if (holder) holder.positionIds.unshift(PositionId.director);
    else add({ parentKey: null, kind: 'person', personId: director, companyId: null, positionIds: [PositionId.director], shareHundredths: null });
  }
  const primary = new Map<string, number>();
  const primaryOf = (personId: string) => rows.find((r) => r.parentKey === null && r.personId === personId) ?? rows.find((r) => r.personId === personId);
  for (const id of ownerIds) {
    const row = primaryOf(id);
    if (row) row.positionIds.includes(PositionId.owner) || row.positionIds.push(PositionId.owner);
    else add({ parentKey: null, kind: 'person', personId: id, companyId: null, positionIds: [PositionId.owner], shareHundredths: null });
  }
  for (const id of userIds)
    if (!primaryOf(id)) add({ parentKey: null, kind: 'person', personId: id, companyId: null, positionIds: [PositionId.authorisedUser], shareHundredths: null });
  for (const row of rows) if (row.personId !== null && !primary.has(row.personId)) primary.set(row.personId, primaryOf(row.personId)!.key);
  return { rows, primary };
}

/** The categories of the documents the company is asked for: the company's own, and per representative. */
export function documentRequirements(checked: CheckedRegistration, rows: readonly PlannedRow[], primary: ReadonlyMap<string, number>, sourceOfWealth: boolean) {
  const out: { repKey: number | null; categoryId: number }[] = [
    { repKey: null, categoryId: DocumentCategory.businessRegistration },
    { repKey: null, categoryId: DocumentCategory.businessAddress },
    { repKey: null, categoryId: DocumentCategory.control },
  ];
  // Every director of the company and every owner proves who they are; an owner their address and, with source-of-wealth, their wealth.
  const people = new Map<number, Set<number>>();
  const need = (key: number, category: number) => people.set(key, (people.get(key) ?? new Set()).add(category));
  for (const row of rows) if (row.parentKey === null && row.positionIds.includes(PositionId.director)) need(row.key, DocumentCategory.identity);
  for (const id of checked.ownerIds) {
    const key = primary.get(id);
    if (key === undefined) continue;
    need(key, DocumentCategory.identity);
    need(key, DocumentCategory.address);
    if (sourceOfWealth) need(key, DocumentCategory.sourceOfWealth);
  }
  // A corporate shareholder proves it is registered.
  for (const row of rows) if (row.kind === 'company') need(row.key, DocumentCategory.businessRegistration);
  for (const [repKey, categories] of people) for (const categoryId of categories) out.push({ repKey, categoryId });
  return out;
}

export interface StoredBusiness {
  customerId: number;
  ownerUserId: number;
  userIds: number[];
  representativeIds: number[];
}

/** Stores the checked registration in the caller's transaction. */
export async function storeBusiness(tx: Db | Tx, checked: CheckedRegistration, password: string, options: { now: () => number; sourceOfWealth: boolean }): Promise<StoredBusiness> {
  const { reg, registrant } = checked;
  const at = new Date(options.now());
  const company = reg.company;
  const passwordHash = await hashPassword(password);
  const [customer] = await tx
    .insert(customers)
    .values({
      customerType: 'business',
      firstName: registrant.firstName,
      lastName: registrant.lastName,
      businessName: company.name,
      residenceCountryCode: company.registrationCountryCode,
      taxId: company.businessTaxId || null,
    })
    .returning({ id: customers.id });
  if (!customer) throw new Error('business registration: no customer row');
  const customerId = customer.id;
  await tx.insert(businessCompanies).values({
    customerId,
    tradingName: company.tradingName || null,
    registrationNumber: company.registrationNumber,
    registrationDate: company.registrationDate,
    businessTaxId: company.businessTaxId || null,
    website: company.website || null,
    description: company.description || null,
    email: company.email,
    financialDetail: { ...reg.financialDetail },
    dueDiligence: { ...reg.dueDiligence },
    additionalQuestionAnswers: Object.fromEntries(Object.entries(reg.additionalQuestionAnswers ?? {}).map(([k, v]) => [k, String(v)])),
    updatedAt: at,
  });
  await tx.insert(phones).values({ customerId, phoneCountryCode: company.phoneCountryCode, phone: company.phone, status: 'primary', confirmed: false });
  await tx.insert(customerAddresses).values({ customerId, addressType: 'business', ...addressColumns(company.address) });

  // The representatives, parents before children.
  const { rows, primary } = planRepresentatives(checked);
  const persons = new Map(reg.personList.map((p) => [p.id, p]));
  const companies = new Map(reg.companyList.map((c) => [c.id, c]));
  const idOf = new Map<number, number>();
  const personRows = new Map<string, number[]>();
  for (const row of rows) {
    const person = row.personId === null ? undefined : persons.get(row.personId);
    const node = row.companyId === null ? undefined : companies.get(row.companyId);
    const isOwner = person !== undefined && checked.ownerIds.has(person.id);
    const [inserted] = await tx
      .insert(businessRepresentatives)
      .values({
        customerId,
        kind: row.kind,
        positionIds: row.positionIds,
        parentId: row.parentKey === null ? null : idOf.get(row.parentKey)!,
        shareHundredths: row.shareHundredths,
        ...(person
          ? {
              firstName: person.firstName,
              lastName: person.lastName,
              birthDay: person.birthday,
              email: person.email ?? null,
              phoneCountryCode: person.phone && person.phoneCountryCode ? person.phoneCountryCode : null,
              phone: person.phone && person.phoneCountryCode ? person.phone : null,
              taxId: person.taxId || null,
              sourceOfFunds: isOwner ? Object.fromEntries((person.sourcesOfFunds ?? []).map((s) => [String(s.sourceId), s.details ?? ''])) : {},
            }
          : {}),
        ...(node ? { companyName: node.name, registrationNumber: node.registrationNumber || null, countryCode: node.registrationCountryCode } : {}),
      })
      .returning({ id: businessRepresentatives.id });
    idOf.set(row.key, inserted!.id);
    if (person) personRows.set(person.id, [...(personRows.get(person.id) ?? []), inserted!.id]);
    if (person?.address) await tx.insert(businessRepresentativeAddresses).values({ representativeId: inserted!.id, ...addressColumns(person.address) });
  }

  // The users: the registrant owns the company; the others are authorised users waiting for their link.
  const userIdsOut: number[] = [];
  let ownerUserId = 0;
  for (const personId of [registrant.id, ...[...checked.userIds].filter((id) => id !== registrant.id)]) {
    const person = persons.get(personId)!;
    const isOwner = personId === registrant.id;
    const repKey = primary.get(personId)!;
    const positionIds = rows[repKey]!.positionIds;
    let userCustomerId = customerId;
    if (!isOwner) {
      // An authorised user has their own (business-type) customer holding their person, as invited users do.
      const [own] = await tx.insert(customers).values({ customerType: 'business', firstName: person.firstName, lastName: person.lastName }).returning({ id: customers.id });
      userCustomerId = own!.id;
    }
    const [user] = await tx
      .insert(users)
      .values({
        email: person.email!,
        // Nobody knows the authorised user's password until employeeAccountActivate sets it.
        passwordHash: isOwner ? passwordHash : await dummyPasswordHash(),
        login2faMode: 'no',
        userType: isOwner ? 2 : 3,
        customerId: userCustomerId,
        activated: false,
        // the owner user acts as the company itself: its flags are the user's
        ...(isOwner ? { moneyPermissions: newCustomerMoneyPermissions() } : {}),
      })
      .returning({ id: users.id });
    await tx.insert(customerAccess).values({
      userId: user!.id,
      customerId,
      accessRights: isOwner ? AccessRight.full : person.accessRights!,
      positionIds,
      moneyPermissions: newCustomerMoneyPermissions(),
    });
    await tx
      .update(businessRepresentatives)
      .set({ userId: user!.id })
      .where(eq(businessRepresentatives.id, idOf.get(repKey)!));
    if (isOwner) ownerUserId = user!.id;
    userIdsOut.push(user!.id);
  }

  const required = (await currentTerms(tx as Db)).filter((term) => term.required);
  if (required.length > 0) {
    await tx.insert(termsAcceptances).values(required.map((term) => ({ customerId, termId: term.id, version: term.version, userId: ownerUserId, acceptedAt: at })));
  }
  await tx.insert(accounts).values({ ...OPENING_ACCOUNT, customerId });
  const requirements = documentRequirements(checked, rows, primary, options.sourceOfWealth);
  await tx
    .insert(businessDocumentRequirements)
    .values(requirements.map((r) => ({ customerId, categoryId: r.categoryId, representativeId: r.repKey === null ? null : idOf.get(r.repKey)! })));
  return { customerId, ownerUserId, userIds: userIdsOut, representativeIds: [...idOf.values()] };
}

function addressColumns(a: RegistrationAddress) {
  return { address1: a.address1, address2: a.address2, city: a.city, postalCode: a.postalCode, countryCode: a.countryCode, stateName: a.stateName || null };
}
