/**
 * Business registration wizard (document 3 §2 /register/business and the wizard's forms, §3
 * registration payload, §4 "Registration", §5 "Shareholders" and "Registration", §9 draft version;
 * document 1 §4 e-mail existence states; issue 17 items 1-3).
 *
 * ```
 * loadingDictionaries ─ok─▶ loadingDraft ─(local draft of version 3.54 restored | other version discarded | none)─▶ editing
 *    └─failed─▶ dictionariesFailed ─RETRY─▶ loadingDictionaries
 *
 * editing (parallel)
 *   form:   generalForm ─GENERAL.SAVE (valid)─▶ financialInfoForm ─▶ dueDilligenceForm ─▶ legalForm ─▶ directorsHub
 *           directorsHub | shareholdersHub | ownersHub | usersHub: list ⇄ personForm (shareholdersHub also ⇄ companyForm)
 *           GO (any section) from anywhere; REVIEW ─(every check passes)─▶ review ─SUBMIT (password)─▶ submitting
 *   dialog: closed ─CLEAR─▶ confirmingClear ─CLEAR.CANCEL─▶ closed
 *                                          └─CLEAR.CONFIRM─▶ clearing ─▶ editing (an empty draft)
 *   saving: idle ─draft.changed─▶ waiting ─after draftSaveDebounce─▶ saving ─▶ idle (or waiting: changed meanwhile)
 *   emailCheck: idle ─(a user's e-mail has no answer)─▶ checking ─▶ idle          (one e-mail at a time)
 *   platformDraft: idle ─(the registrant's e-mail is known and not yet asked for)─▶ loading ─▶ idle
 *
 * submitting ─ok─▶ done (the draft is deleted; the page says to check the e-mail)
 *            └─VF─▶ editing.form.review (each refusal named by section and field) | other refusal ─▶ review with its code
 * ```
 *
 * Every accepted change (a form saved, a person or company saved or removed) bumps the draft's
 * revision and raises `draft.changed`; the saving region saves the draft after a pause, locally
 * and on the platform: a failed platform save is not fatal (draftSave 'deviceOnly'). Guards read
 * api/ownership.ts (the platform's own rules) and business-registration.rules.ts (the forms).
 * The password is held only while it is sent. No strings, no I/O: the actors are provided by
 * src/features/business-registration/actors.ts (tests provide their own).
 */
import { assign, fromPromise, raise, setup } from 'xstate';
import {
  ShareholderType,
  canSubmit,
  clearSourcesOfFunds,
  nodeAt,
  removeUnused,
  sectionFlags,
  setShare,
  ultimateBeneficialOwners,
  userIds,
  type Company,
  type EmailCheckState,
  type Person,
  type SectionFlags,
  type ShareholderNode,
} from '../../api/ownership.ts';
import {
  BUSINESS_DRAFT_VERSION,
  REGISTRANT_ID,
  businessRequest,
  emptyDraft,
  hasErrors,
  isDraftData,
  nextEmailToCheck,
  passwordValid,
  personOf,
  personsFormsValid,
  registrantEmail,
  rootValid,
  shareNumber,
  userEmailStates,
  validateCompany,
  validateDueDiligence,
  validateFinancial,
  validateGeneral,
  validateLegal,
  validatePerson,
  withRegistrant,
  type BusinessDictionaries,
  type BusinessDraftData,
  type BusinessRequest,
  type CompanyValues,
  type DueDiligenceValues,
  type FieldErrors,
  type FinancialValues,
  type GeneralValues,
  type LegalValues,
  type PersonRole,
  type PersonValues,
  type ServerFieldError,
  type WizardSection,
} from './business-registration.rules.ts';

export type HubId = 'directorsHub' | 'shareholdersHub' | 'ownersHub' | 'usersHub';
export type SubmitErrorCode = 'closed' | 'network' | 'unknown' | 'emailTaken';

export type LoadDictionariesResult = { ok: true; dictionaries: BusinessDictionaries } | { ok: false; code: 'network' | 'unknown' };
/** A draft as read back (local storage or the platform): any version; the machine decides. */
export interface StoredDraft {
  version: string;
  data: unknown;
  savedAt: string | null;
}
export type LoadDraftResult = StoredDraft | null;
export interface SaveDraftInput {
  /** the registrant's e-mail (the platform's key), null while unknown: saved on this device only */
  email: string | null;
  draft: { version: string; data: BusinessDraftData };
}
export type SaveDraftResult = { local: boolean; platform: 'saved' | 'failed' | 'skipped'; savedAt: string };
export type EmailCheckResult = { ok: true; state: 0 | 1 | 3 } | { ok: false; code: 'network' | 'unknown' };
export type CreateBusinessResult = { ok: true } | { ok: false; code: 'fields'; errors: ServerFieldError[] } | { ok: false; code: SubmitErrorCode };

/** Where the open person or company form writes. */
export interface Editing {
  /** the person or company edited; null: a new one */
  personId: string | null;
  companyId: string | null;
  /** the shareholder node edited (shareholders hub) */
  path: number[] | null;
  /** where a new shareholder goes: [] the company's own level, else a corporate shareholder's path */
  parentPath: number[] | null;
}

export type BusinessRegistrationEvent =
  | { type: 'RETRY' }
  | { type: 'GO'; section: WizardSection }
  | { type: 'REVIEW' }
  | { type: 'GENERAL.SAVE'; values: GeneralValues }
  | { type: 'FINANCIAL.SAVE'; values: FinancialValues }
  | { type: 'DUE_DILIGENCE.SAVE'; values: DueDiligenceValues }
  | { type: 'LEGAL.SAVE'; values: LegalValues }
  | { type: 'PERSON.ADD' }
  | { type: 'PERSON.EDIT'; personId: string }
  | { type: 'PERSON.SAVE'; values: PersonValues }
  | { type: 'COMPANY.SAVE'; values: CompanyValues }
  | { type: 'FORM.CANCEL' }
  | { type: 'DIRECTOR.CHOOSE'; personId: string }
  | { type: 'DIRECTOR.REMOVE'; personId: string }
  | { type: 'OWNER.REMOVE'; personId: string }
  | { type: 'USER.REMOVE'; personId: string }
  | { type: 'SHAREHOLDER.ADD_PERSON'; parentPath: number[] }
  | { type: 'SHAREHOLDER.ADD_COMPANY'; parentPath: number[] }
  | { type: 'SHAREHOLDER.EDIT'; path: number[] }
  | { type: 'SHAREHOLDER.REMOVE'; path: number[] }
  | { type: 'SUBMIT'; password: string }
  | { type: 'CLEAR' }
  | { type: 'CLEAR.CONFIRM' }
  | { type: 'CLEAR.CANCEL' }
  /** internal: an accepted change (raised by the machine itself, never sent by a view) */
  | { type: 'draft.changed' };

export interface BusinessRegistrationInput {
  /** source-of-wealth is enabled: ultimate beneficial owners give their sources of funds (§5) */
  sourceOfWealth: boolean;
}

export interface FormErrors {
  general: FieldErrors;
  financial: FieldErrors;
  dueDiligence: FieldErrors;
  legal: FieldErrors;
  person: FieldErrors;
  company: FieldErrors;
}

export interface BusinessRegistrationContext {
  sourceOfWealth: boolean;
  dictionaries: BusinessDictionaries | null;
  dictionariesError: 'network' | 'unknown' | null;
  data: BusinessDraftData;
  errors: FormErrors;
  editing: Editing | null;
  /** document 1 §4 answers, keyed by e-mail: 0 free, 1 exists, 3 exists as employee, -1 failed */
  emailChecks: Record<string, EmailCheckState>;
  /** the e-mail being checked (state 2) */
  checkingEmail: string | null;
  /** bumped by every accepted change */
  revision: number;
  /** the revision the running save writes */
  savingRevision: number;
  /** how the last save went: 'saved' everywhere, 'deviceOnly' (the platform's failed or no e-mail yet), 'failed' */
  draftSave: 'none' | 'saved' | 'deviceOnly' | 'failed';
  savedAt: string | null;
  /** where the draft shown came from */
  restored: 'none' | 'device' | 'platform' | 'discarded';
  /** the e-mail the platform was last asked for a draft */
  platformAskedFor: string | null;
  /** the e-mail whose drafts the clearing deletes */
  clearingEmail: string | null;
  /** REVIEW was asked while a check fails: the sections show their issues */
  showIssues: boolean;
  passwordError: boolean;
  /** the request being sent (holds the password: dropped when the call ends) */
  request: BusinessRequest | null;
  serverErrors: ServerFieldError[];
  submitError: SubmitErrorCode | null;
  sentTo: string | null;
}

/** Wait this long after the last accepted change before saving the draft. */
export const DRAFT_SAVE_DEBOUNCE_MS = 1500;

const noErrors = (): FormErrors => ({ general: {}, financial: {}, dueDiligence: {}, legal: {}, person: {}, company: {} });

/** The section flags of the draft (§4), the forms' own checks included: guards and the selector read these. */
export function wizardFlags(c: Pick<BusinessRegistrationContext, 'data' | 'dictionaries' | 'sourceOfWealth' | 'emailChecks' | 'checkingEmail'>): SectionFlags {
  const emailStates = userEmailStates(c.data, c.emailChecks, c.checkingEmail);
  const flags = sectionFlags(c.data, { sourceOfWealth: c.sourceOfWealth, emailStates, rootValid: c.dictionaries !== null && rootValid(c.data, c.dictionaries) });
  return { ...flags, persons: flags.persons && personsFormsValid(c.data) };
}

/** Submit is allowed only when every check passes (§4, §5). */
export function wizardCanSubmit(c: Pick<BusinessRegistrationContext, 'data' | 'dictionaries' | 'sourceOfWealth' | 'emailChecks' | 'checkingEmail'>): boolean {
  const emailStates = userEmailStates(c.data, c.emailChecks, c.checkingEmail);
  return c.dictionaries !== null && canSubmit(c.data, { sourceOfWealth: c.sourceOfWealth, emailStates, rootValid: rootValid(c.data, c.dictionaries) }) && personsFormsValid(c.data);
}

const findPerson = (data: BusinessDraftData, id: string | null): Person | undefined => (id === null ? undefined : data.personList.find((p) => String(p.id) === id));

/** What the person form asks in this hub for the person edited (the view shows the same fields). */
export function personRole(c: Pick<BusinessRegistrationContext, 'data' | 'editing' | 'sourceOfWealth'>, hub: HubId): PersonRole {
  const id = c.editing?.personId ?? null;
  const person = findPerson(c.data, id);
  const isUbo = id !== null && ultimateBeneficialOwners(c.data).some((u) => u.personId === id);
  const declared = id !== null && c.data.ultimateBeneficiaryOwners.map(String).includes(id);
  return {
    user: hub === 'usersHub' || (id !== null && userIds(c.data).has(id)) || person?.isUser === true,
    share: hub === 'shareholdersHub',
    ubo: c.sourceOfWealth && (hub === 'ownersHub' || isUbo || declared),
  };
}

const insertNode = (nodes: readonly ShareholderNode[], parentPath: readonly number[], node: ShareholderNode): ShareholderNode[] => {
  if (parentPath.length === 0) return [...nodes, node];
  const [head, ...rest] = parentPath;
  return nodes.map((n, i) => (i === head ? { ...n, shareholders: insertNode(n.shareholders ?? [], rest, node) } : n));
};

/** The draft after the person form was saved in `hub`. */
export function savePerson(c: Pick<BusinessRegistrationContext, 'data' | 'editing' | 'sourceOfWealth'>, hub: HubId, values: PersonValues): BusinessDraftData {
  const data = c.data;
  const editing = c.editing ?? { personId: null, companyId: null, path: null, parentPath: [] };
  const isNew = editing.personId === null;
  const id = editing.personId ?? `p${data.nextId}`;
  const role = personRole(c, hub);
  const existing = findPerson(data, id);
  const person: Person = { ...(existing ?? {}), ...personOf(id, values, role.user) };
  if (id === REGISTRANT_ID) Object.assign(person, { isUser: true, accessRights: 2 });
  let next: BusinessDraftData = {
    ...data,
    nextId: isNew ? data.nextId + 1 : data.nextId,
    personList: existing ? data.personList.map((p) => (String(p.id) === id ? person : p)) : [...data.personList, person],
  };
  if (id === REGISTRANT_ID) {
    const email = typeof person.email === 'string' ? person.email : '';
    const birthday = typeof person.birthday === 'string' ? person.birthday : '';
    next = { ...next, general: { ...next.general, repFirstName: person.firstName, repLastName: person.lastName, repEmail: email, repBirthday: birthday } };
  }
  if (isNew && hub === 'directorsHub') next = { ...next, directors: [...next.directors, id] };
  if (isNew && hub === 'ownersHub') next = { ...next, ultimateBeneficiaryOwners: [...next.ultimateBeneficiaryOwners, id] };
  if (isNew && hub === 'usersHub') next = { ...next, users: [...next.users, id] };
  if (hub === 'shareholdersHub') {
    if (isNew)
      next = {
        ...next,
        shareholders: insertNode(next.shareholders, editing.parentPath ?? [], { type: ShareholderType.person, share: shareNumber(values.share), personId: id, shareholders: [] }),
      };
    else if (editing.path) next = setShare(next, editing.path, shareNumber(values.share));
  }
  return next;
}

/** The draft after the company form was saved (shareholders hub). */
export function saveCompany(c: Pick<BusinessRegistrationContext, 'data' | 'editing'>, values: CompanyValues): BusinessDraftData {
  const data = c.data;
  const editing = c.editing ?? { personId: null, companyId: null, path: null, parentPath: [] };
  const id = editing.companyId ?? `c${data.nextId}`;
  const company: Company = {
    id,
    name: values.name.trim().replace(/\s+/g, ' '),
    registrationNumber: values.registrationNumber.trim(),
    registrationCountryCode: values.registrationCountryCode,
    directors: [...values.directorIds],
  };
  if (editing.companyId === null) {
    return {
      ...data,
      nextId: data.nextId + 1,
      companyList: [...data.companyList, company],
      shareholders: insertNode(data.shareholders, editing.parentPath ?? [], { type: ShareholderType.company, share: shareNumber(values.share), companyId: id, shareholders: [] }),
    };
  }
  let next: BusinessDraftData = { ...data, companyList: data.companyList.map((x) => (String(x.id) === id ? { ...x, ...company } : x)) };
  if (editing.path) next = setShare(next, editing.path, shareNumber(values.share));
  return removeUnused(next);
}

const without = (ids: readonly (string | number)[], id: string) => ids.filter((x) => String(x) !== id);

const isEmpty = (d: BusinessDraftData) => JSON.stringify(d) === JSON.stringify(emptyDraft());

export const businessRegistrationMachine = setup({
  types: {
    context: {} as BusinessRegistrationContext,
    events: {} as BusinessRegistrationEvent,
    input: {} as BusinessRegistrationInput,
  },
  actors: {
    loadDictionaries: fromPromise<LoadDictionariesResult>(async () => {
      throw new Error('loadDictionaries is provided by the app');
    }),
    loadLocalDraft: fromPromise<LoadDraftResult>(async () => {
      throw new Error('loadLocalDraft is provided by the app');
    }),
    loadPlatformDraft: fromPromise<LoadDraftResult, { email: string }>(async () => {
      throw new Error('loadPlatformDraft is provided by the app');
    }),
    saveDraft: fromPromise<SaveDraftResult, SaveDraftInput>(async () => {
      throw new Error('saveDraft is provided by the app');
    }),
    deleteDraft: fromPromise<void, { email: string | null }>(async () => {
      throw new Error('deleteDraft is provided by the app');
    }),
    checkEmail: fromPromise<EmailCheckResult, { email: string }>(async () => {
      throw new Error('checkEmail is provided by the app');
    }),
    createBusiness: fromPromise<CreateBusinessResult, { request: BusinessRequest }>(async () => {
      throw new Error('createBusiness is provided by the app');
    }),
  },
  delays: {
    draftSaveDebounce: DRAFT_SAVE_DEBOUNCE_MS,
  },
  actions: {
    storeDictionaries: assign((_, dictionaries: BusinessDictionaries) => ({ dictionaries, dictionariesError: null })),
    storeDictionariesError: assign((_, code: 'network' | 'unknown') => ({ dictionariesError: code })),
    restoreDraft: assign(({ context }, p: { draft: StoredDraft; from: 'device' | 'platform' }) => ({
      data: withRegistrant(p.draft.data as BusinessDraftData),
      savedAt: p.draft.savedAt,
      restored: p.from,
      errors: noErrors(),
      editing: context.editing === null ? null : context.editing,
    })),
    markDiscarded: assign({ restored: 'discarded' as const }),
    /** an accepted change: the draft's revision moves on */
    markChanged: assign(({ context }) => ({ revision: context.revision + 1, serverErrors: [], submitError: null })),
    announceChange: raise({ type: 'draft.changed' as const }),
    storeGeneral: assign(({ context }, values: GeneralValues) => ({
      data: withRegistrant({ ...context.data, general: values }),
      errors: { ...context.errors, general: validateGeneral(values) },
    })),
    storeFinancial: assign(({ context }, values: FinancialValues) => ({
      data: { ...context.data, financial: values },
      errors: { ...context.errors, financial: validateFinancial(values, context.dictionaries?.questions ?? []) },
    })),
    storeDueDiligence: assign(({ context }, values: DueDiligenceValues) => ({
      data: { ...context.data, dueDiligence: values },
      errors: { ...context.errors, dueDiligence: validateDueDiligence(values) },
    })),
    storeLegal: assign(({ context }, values: LegalValues) => ({
      data: { ...context.data, legal: values },
      errors: { ...context.errors, legal: validateLegal(values, context.dictionaries?.agreements ?? []) },
    })),
    openForm: assign(({ context }, editing: Editing) => ({ editing, errors: { ...context.errors, person: {}, company: {} } })),
    closeForm: assign(({ context }) => ({ editing: null, errors: { ...context.errors, person: {}, company: {} } })),
    storePerson: assign(({ context }, p: { hub: HubId; values: PersonValues }) => ({
      data: savePerson(context, p.hub, p.values),
      editing: null,
      errors: { ...context.errors, person: {} },
    })),
    storePersonErrors: assign(({ context }, p: { hub: HubId; values: PersonValues }) => ({
      errors: { ...context.errors, person: validatePerson(p.values, personRole(context, p.hub)) },
    })),
    storeCompany: assign(({ context }, values: CompanyValues) => ({ data: saveCompany(context, values), editing: null, errors: { ...context.errors, company: {} } })),
    storeCompanyErrors: assign(({ context }, values: CompanyValues) => ({ errors: { ...context.errors, company: validateCompany(values) } })),
    chooseDirector: assign(({ context }, id: string) => ({
      data: context.data.directors.map(String).includes(id) ? context.data : { ...context.data, directors: [...context.data.directors, id] },
    })),
    removeDirector: assign(({ context }, id: string) => ({ data: removeUnused({ ...context.data, directors: without(context.data.directors, id) }) })),
    removeOwner: assign(({ context }, id: string) => ({ data: removeUnused({ ...context.data, ultimateBeneficiaryOwners: without(context.data.ultimateBeneficiaryOwners, id) }) })),
    removeUser: assign(({ context }, id: string) => ({
      data: removeUnused({
        ...context.data,
        users: without(context.data.users, id),
        personList: context.data.personList.map((p) => (String(p.id) === id ? { ...p, isUser: false, accessRights: null } : p)),
      }),
    })),
    removeShareholder: assign(({ context }, path: number[]) => {
      const old = nodeAt(context.data.shareholders, path);
      if (!old || path.length === 0) return {};
      const parentPath = path.slice(0, -1);
      const index = path[path.length - 1]!;
      const drop = (nodes: ShareholderNode[]): ShareholderNode[] => nodes.filter((_, i) => i !== index);
      const update = (nodes: ShareholderNode[], p: number[]): ShareholderNode[] =>
        p.length === 0 ? drop(nodes) : nodes.map((n, i) => (i === p[0] ? { ...n, shareholders: update(n.shareholders ?? [], p.slice(1)) } : n));
      const below = new Set<string>();
      const collect = (n: ShareholderNode) => {
        if (n.type === ShareholderType.person && n.personId !== null && n.personId !== undefined) below.add(String(n.personId));
        (n.shareholders ?? []).forEach(collect);
      };
      collect(old);
      return { data: removeUnused(clearSourcesOfFunds({ ...context.data, shareholders: update(context.data.shareholders, parentPath) }, below)) };
    }),
    clearShowIssues: assign({ showIssues: false }),
    markShowIssues: assign({ showIssues: true }),
    markPasswordError: assign({ passwordError: true }),
    storeRequest: assign(({ context }, password: string) => ({
      request: businessRequest(context.data, password, context.dictionaries!),
      passwordError: false,
      serverErrors: [],
      submitError: null,
    })),
    forgetRequest: assign({ request: null }),
    storeServerErrors: assign((_, errors: ServerFieldError[]) => ({ serverErrors: errors, submitError: null })),
    storeSubmitError: assign((_, code: SubmitErrorCode) => ({ submitError: code })),
    markSent: assign(({ context }) => ({ sentTo: context.request?.email ?? registrantEmail(context.data) })),
    startSave: assign(({ context }) => ({ savingRevision: context.revision })),
    storeSaveResult: assign((_, r: SaveDraftResult) => ({
      draftSave: r.platform === 'saved' ? ('saved' as const) : r.local ? ('deviceOnly' as const) : ('failed' as const),
      savedAt: r.savedAt,
    })),
    markSaveFailed: assign({ draftSave: 'failed' as const }),
    /** after the registration: the sent draft was deleted ('none') or could not be ('failed') */
    storeDraftGone: assign((_, draftSave: 'none' | 'failed') => ({ draftSave })),
    startEmailCheck: assign(({ context }) => ({ checkingEmail: nextEmailToCheck(context.data, context.emailChecks) })),
    storeEmailCheck: assign(({ context }, state: EmailCheckState) => ({
      emailChecks: context.checkingEmail === null ? context.emailChecks : { ...context.emailChecks, [context.checkingEmail]: state },
      checkingEmail: null,
    })),
    startPlatformLook: assign(({ context }) => ({ platformAskedFor: registrantEmail(context.data) })),
    /** the confirmed clearing: everything typed goes; the old e-mail's drafts are deleted */
    resetDraft: assign(({ context }) => ({
      clearingEmail: registrantEmail(context.data),
      data: emptyDraft(),
      errors: noErrors(),
      editing: null,
      revision: 0,
      savingRevision: 0,
      draftSave: 'none' as const,
      savedAt: null,
      restored: 'none' as const,
      platformAskedFor: null,
      showIssues: false,
      serverErrors: [],
      submitError: null,
    })),
  },
  guards: {
    answered: (_, r: { ok: boolean }) => r.ok,
    /** §9: a draft of another version is discarded */
    sameVersion: (_, d: LoadDraftResult) => d !== null && d.version === BUSINESS_DRAFT_VERSION && isDraftData(d.data),
    isSomeDraft: (_, d: LoadDraftResult) => d !== null,
    /** the platform's draft is taken when it is of this version and newer than the one shown (or nothing was typed yet) */
    platformDraftNewer: ({ context }, d: LoadDraftResult) =>
      d !== null &&
      d.version === BUSINESS_DRAFT_VERSION &&
      isDraftData(d.data) &&
      (context.savedAt === null || (d.savedAt !== null && d.savedAt > context.savedAt) || isEmpty(context.data)),
    generalValid: (_, values: GeneralValues) => !hasErrors(validateGeneral(values)),
    financialValid: ({ context }, values: FinancialValues) => !hasErrors(validateFinancial(values, context.dictionaries?.questions ?? [])),
    dueDiligenceValid: (_, values: DueDiligenceValues) => !hasErrors(validateDueDiligence(values)),
    legalValid: ({ context }, values: LegalValues) => !hasErrors(validateLegal(values, context.dictionaries?.agreements ?? [])),
    personValid: ({ context }, p: { hub: HubId; values: PersonValues }) => !hasErrors(validatePerson(p.values, personRole(context, p.hub))),
    companyValid: (_, values: CompanyValues) => !hasErrors(validateCompany(values)),
    isSection: (_, p: { wanted: WizardSection; section: WizardSection }) => p.wanted === p.section,
    isPersonNode: ({ context }, path: number[]) => nodeAt(context.data.shareholders, path)?.type === ShareholderType.person,
    isCompanyNode: ({ context }, path: number[]) => nodeAt(context.data.shareholders, path)?.type === ShareholderType.company,
    allChecksPass: ({ context }) => wizardCanSubmit(context),
    passwordOk: (_, password: string) => passwordValid(password),
    changedSinceSave: ({ context }) => context.revision !== context.savingRevision,
    emailToCheck: ({ context }) => nextEmailToCheck(context.data, context.emailChecks) !== null,
    platformDraftToAsk: ({ context }) => {
      const email = registrantEmail(context.data);
      return email !== null && email !== context.platformAskedFor;
    },
    isFieldAnswer: (_, r: CreateBusinessResult) => !r.ok && r.code === 'fields',
  },
}).createMachine({
  id: 'businessRegistration',
  description:
    'Business registration wizard: the dictionaries load, then the saved draft; the customer fills in the company, its finances, due diligence, the terms, its directors, shareholders, owners and users in any order, the draft is saved as they go, and the registration is sent when every check passes.',
  meta: { spec: ['document 3 §2', 'document 3 §3', 'document 3 §4', 'document 3 §5'] },
  context: ({ input }) => ({
    sourceOfWealth: input.sourceOfWealth,
    dictionaries: null,
    dictionariesError: null,
    data: emptyDraft(),
    errors: noErrors(),
    editing: null,
    emailChecks: {},
    checkingEmail: null,
    revision: 0,
    savingRevision: 0,
    draftSave: 'none',
    savedAt: null,
    restored: 'none',
    platformAskedFor: null,
    clearingEmail: null,
    showIssues: false,
    passwordError: false,
    request: null,
    serverErrors: [],
    submitError: null,
    sentTo: null,
  }),
  initial: 'loadingDictionaries',
  states: {
    loadingDictionaries: {
      description: 'The dictionaries the forms offer are loading: business purposes, sources of funds, industries, additional questions, persons’ sources of funds and the terms.',
      tags: ['busy'],
      invoke: {
        id: 'loadDictionaries',
        src: 'loadDictionaries',
        onDone: [
          {
            description: 'The dictionaries arrived: the saved draft is read next.',
            guard: { type: 'answered', params: ({ event }) => event.output },
            target: 'loadingDraft',
            actions: { type: 'storeDictionaries', params: ({ event }) => (event.output.ok ? event.output.dictionaries : null!) },
          },
          {
            description: 'The dictionaries could not be loaded: the customer may try again.',
            target: 'dictionariesFailed',
            actions: { type: 'storeDictionariesError', params: ({ event }) => (event.output.ok ? 'unknown' : event.output.code) },
          },
        ],
        onError: {
          description: 'Loading the dictionaries failed unexpectedly: the customer may try again.',
          target: 'dictionariesFailed',
          actions: { type: 'storeDictionariesError', params: 'unknown' },
        },
      },
    },
    dictionariesFailed: {
      description: 'The dictionaries could not be loaded; nothing can be filled in without them.',
      on: { RETRY: { description: 'The customer tries loading the dictionaries again.', target: 'loadingDictionaries' } },
    },
    loadingDraft: {
      description: 'The draft saved on this device is read (document 3 §4: kept locally, discarded when of another version).',
      tags: ['busy'],
      invoke: {
        id: 'loadLocalDraft',
        src: 'loadLocalDraft',
        onDone: [
          {
            description: 'A draft of this version was saved on this device: the wizard goes on from it.',
            guard: { type: 'sameVersion', params: ({ event }) => event.output },
            target: 'editing',
            actions: { type: 'restoreDraft', params: ({ event }) => ({ draft: event.output!, from: 'device' as const }) },
          },
          {
            description: 'The draft on this device is of another version (or unreadable): it is discarded and the wizard starts empty.',
            guard: { type: 'isSomeDraft', params: ({ event }) => event.output },
            target: 'editing',
            actions: 'markDiscarded',
          },
          { description: 'No draft is saved on this device: the wizard starts empty.', target: 'editing' },
        ],
        onError: { description: 'The device’s draft could not be read: the wizard starts empty.', target: 'editing' },
      },
    },
    editing: {
      description: 'The customer fills in the wizard; beside the forms, the draft is saved, users’ e-mails are checked and the platform is asked for a saved draft.',
      type: 'parallel',
      states: {
        form: {
          description: 'The section shown: a form, a hub with its person or company form, or the review.',
          initial: 'generalForm',
          on: {
            GO: [
              ...(['generalForm', 'financialInfoForm', 'dueDilligenceForm', 'legalForm', 'directorsHub', 'shareholdersHub', 'ownersHub', 'usersHub'] as const).map((section) => ({
                description: `The customer opens the ${section} section (any section may be opened at any time).`,
                guard: { type: 'isSection' as const, params: ({ event }: { event: { section: WizardSection } }) => ({ wanted: event.section, section }) },
                target: `.${section}`,
                actions: 'closeForm' as const,
              })),
            ],
            REVIEW: [
              {
                description: 'Every check passes (the root forms, persons, companies, directors, shareholders and users): the review shows what will be sent.',
                guard: 'allChecksPass',
                target: '.review',
                actions: ['closeForm', 'clearShowIssues'],
              },
              {
                description: 'Some check fails: the review is not offered and the sections show what is missing.',
                actions: 'markShowIssues',
              },
            ],
          },
          states: {
            generalForm: {
              description: 'The general form: the company, its address and contact, and the person registering it.',
              on: {
                'GENERAL.SAVE': [
                  {
                    description: 'The general form is valid: it is kept and the financial form follows.',
                    guard: { type: 'generalValid', params: ({ event }) => event.values },
                    target: 'financialInfoForm',
                    actions: [{ type: 'storeGeneral', params: ({ event }) => event.values }, 'markChanged', 'announceChange'],
                  },
                  {
                    description: 'The general form has errors: it is kept as typed and its fields say what is wrong.',
                    actions: [{ type: 'storeGeneral', params: ({ event }) => event.values }, 'markChanged', 'announceChange'],
                  },
                ],
              },
            },
            financialInfoForm: {
              description: 'The financial information: monthly amounts, currency, sources of funds, purposes, industry and the additional questions.',
              on: {
                'FINANCIAL.SAVE': [
                  {
                    description: 'The financial form is valid: it is kept and the due-diligence form follows.',
                    guard: { type: 'financialValid', params: ({ event }) => event.values },
                    target: 'dueDilligenceForm',
                    actions: [{ type: 'storeFinancial', params: ({ event }) => event.values }, 'markChanged', 'announceChange'],
                  },
                  {
                    description: 'The financial form has errors: it is kept as typed and its fields say what is wrong.',
                    actions: [{ type: 'storeFinancial', params: ({ event }) => event.values }, 'markChanged', 'announceChange'],
                  },
                ],
              },
            },
            dueDilligenceForm: {
              description: 'Due diligence: public office, lawsuits (with details when either is yes) and US tax payers.',
              on: {
                'DUE_DILIGENCE.SAVE': [
                  {
                    description: 'The due-diligence form is valid: it is kept and the legal form follows.',
                    guard: { type: 'dueDiligenceValid', params: ({ event }) => event.values },
                    target: 'legalForm',
                    actions: [{ type: 'storeDueDiligence', params: ({ event }) => event.values }, 'markChanged', 'announceChange'],
                  },
                  {
                    description: 'The due-diligence form has errors: it is kept as answered and its fields say what is missing.',
                    actions: [{ type: 'storeDueDiligence', params: ({ event }) => event.values }, 'markChanged', 'announceChange'],
                  },
                ],
              },
            },
            legalForm: {
              description: 'The legal form: each term accepted.',
              on: {
                'LEGAL.SAVE': [
                  {
                    description: 'Every term is accepted: the directors follow.',
                    guard: { type: 'legalValid', params: ({ event }) => event.values },
                    target: 'directorsHub',
                    actions: [{ type: 'storeLegal', params: ({ event }) => event.values }, 'markChanged', 'announceChange'],
                  },
                  {
                    description: 'A term is not accepted: the choices are kept and the form says which term is missing.',
                    actions: [{ type: 'storeLegal', params: ({ event }) => event.values }, 'markChanged', 'announceChange'],
                  },
                ],
              },
            },
            directorsHub: {
              description: 'The company’s directors: at least one (§5).',
              initial: 'list',
              states: {
                list: {
                  description: 'The directors listed, with add, edit and remove, and a choice of persons already named.',
                  on: {
                    'PERSON.ADD': {
                      description: 'The customer adds a new director: the person form opens.',
                      target: 'personForm',
                      actions: { type: 'openForm', params: { personId: null, companyId: null, path: null, parentPath: null } },
                    },
                    'PERSON.EDIT': {
                      description: 'The customer edits a director: the person form opens with their details.',
                      target: 'personForm',
                      actions: { type: 'openForm', params: ({ event }) => ({ personId: event.personId, companyId: null, path: null, parentPath: null }) },
                    },
                    'DIRECTOR.CHOOSE': {
                      description: 'A person already named (the registrant, a shareholder…) becomes a director.',
                      actions: [{ type: 'chooseDirector', params: ({ event }) => event.personId }, 'markChanged', 'announceChange'],
                    },
                    'DIRECTOR.REMOVE': {
                      description: 'A director is removed; a person no list uses any more is removed with them (unless a user).',
                      actions: [{ type: 'removeDirector', params: ({ event }) => event.personId }, 'markChanged', 'announceChange'],
                    },
                  },
                },
                personForm: personFormState('directorsHub'),
              },
            },
            shareholdersHub: {
              description: 'The shareholder tree: persons and companies with their shares, companies with shareholders of their own.',
              initial: 'list',
              states: {
                list: {
                  description: 'The tree drawn with each share and each person’s effective share; shareholders are added at any level, edited and removed.',
                  on: {
                    'SHAREHOLDER.ADD_PERSON': {
                      description: 'The customer adds a person shareholder (to the company or to a corporate shareholder): the person form opens.',
                      target: 'personForm',
                      actions: { type: 'openForm', params: ({ event }) => ({ personId: null, companyId: null, path: null, parentPath: event.parentPath }) },
                    },
                    'SHAREHOLDER.ADD_COMPANY': {
                      description: 'The customer adds a corporate shareholder: the company form opens.',
                      target: 'companyForm',
                      actions: { type: 'openForm', params: ({ event }) => ({ personId: null, companyId: null, path: null, parentPath: event.parentPath }) },
                    },
                    'SHAREHOLDER.EDIT': [
                      {
                        description: 'The customer edits a person shareholder: the person form opens with their details and share.',
                        guard: { type: 'isPersonNode', params: ({ event }) => event.path },
                        target: 'personForm',
                        actions: {
                          type: 'openForm',
                          params: ({ context, event }) => ({
                            personId: String(nodeAt(context.data.shareholders, event.path)?.personId),
                            companyId: null,
                            path: event.path,
                            parentPath: null,
                          }),
                        },
                      },
                      {
                        description: 'The customer edits a corporate shareholder: the company form opens with its details and share.',
                        guard: { type: 'isCompanyNode', params: ({ event }) => event.path },
                        target: 'companyForm',
                        actions: {
                          type: 'openForm',
                          params: ({ context, event }) => ({
                            personId: null,
                            companyId: String(nodeAt(context.data.shareholders, event.path)?.companyId),
                            path: event.path,
                            parentPath: null,
                          }),
                        },
                      },
                    ],
                    'SHAREHOLDER.REMOVE': {
                      description:
                        'A shareholder is removed with everything below it; persons and companies no list uses are removed and lowered owners lose their source of funds.',
                      actions: [{ type: 'removeShareholder', params: ({ event }) => event.path }, 'markChanged', 'announceChange'],
                    },
                  },
                },
                personForm: personFormState('shareholdersHub'),
                companyForm: {
                  description: 'The company form: a corporate shareholder’s name, registration, share and directors (at least one).',
                  on: {
                    'COMPANY.SAVE': [
                      {
                        description: 'The company is valid: it is kept in the tree and the hub shows it.',
                        guard: { type: 'companyValid', params: ({ event }) => event.values },
                        target: 'list',
                        actions: [{ type: 'storeCompany', params: ({ event }) => event.values }, 'markChanged', 'announceChange'],
                      },
                      {
                        description: 'The company form has errors: its fields say what is wrong.',
                        actions: { type: 'storeCompanyErrors', params: ({ event }) => event.values },
                      },
                    ],
                    'FORM.CANCEL': { description: 'The customer leaves the company form without saving.', target: 'list', actions: 'closeForm' },
                  },
                },
              },
            },
            ownersHub: {
              description: 'The ultimate beneficial owners: those the tree makes (25 % or more) and those declared; their sources of funds.',
              initial: 'list',
              states: {
                list: {
                  description: 'The owners listed with their effective shares and whether their source of funds is given.',
                  on: {
                    'PERSON.ADD': {
                      description: 'The customer declares another owner: the person form opens.',
                      target: 'personForm',
                      actions: { type: 'openForm', params: { personId: null, companyId: null, path: null, parentPath: null } },
                    },
                    'PERSON.EDIT': {
                      description: 'The customer edits an owner (their source of funds): the person form opens.',
                      target: 'personForm',
                      actions: { type: 'openForm', params: ({ event }) => ({ personId: event.personId, companyId: null, path: null, parentPath: null }) },
                    },
                    'OWNER.REMOVE': {
                      description: 'A declared owner is removed; a person no list uses any more is removed with them (unless a user).',
                      actions: [{ type: 'removeOwner', params: ({ event }) => event.personId }, 'markChanged', 'announceChange'],
                    },
                  },
                },
                personForm: personFormState('ownersHub'),
              },
            },
            usersHub: {
              description: 'The company’s users with their rights: at least one with full rights (2), each e-mail checked.',
              initial: 'list',
              states: {
                list: {
                  description: 'The users listed with their rights and the state of their e-mail’s check.',
                  on: {
                    'PERSON.ADD': {
                      description: 'The customer adds a user: the person form opens, asking for the e-mail and the rights.',
                      target: 'personForm',
                      actions: { type: 'openForm', params: { personId: null, companyId: null, path: null, parentPath: null } },
                    },
                    'PERSON.EDIT': {
                      description: 'The customer edits a user: the person form opens.',
                      target: 'personForm',
                      actions: { type: 'openForm', params: ({ event }) => ({ personId: event.personId, companyId: null, path: null, parentPath: null }) },
                    },
                    'USER.REMOVE': {
                      description: 'A user loses access; the person goes too when no list uses them.',
                      actions: [{ type: 'removeUser', params: ({ event }) => event.personId }, 'markChanged', 'announceChange'],
                    },
                  },
                },
                personForm: personFormState('usersHub'),
              },
            },
            review: {
              description: 'Every check passes: what will be sent is listed and the customer chooses a password and sends the registration.',
              on: {
                SUBMIT: [
                  {
                    description: 'The password meets the rules: the registration is sent.',
                    guard: { type: 'passwordOk', params: ({ event }) => event.password },
                    target: '#businessRegistration.submitting',
                    actions: { type: 'storeRequest', params: ({ event }) => event.password },
                  },
                  { description: 'The password does not meet the rules: the field says so and nothing is sent.', actions: 'markPasswordError' },
                ],
              },
            },
          },
        },
        dialog: {
          description: 'The confirmation that clearing the draft asks for (document 3 §4).',
          initial: 'closed',
          states: {
            closed: {
              description: 'No confirmation is asked.',
              on: { CLEAR: { description: 'The customer asks to clear the draft: a confirmation is asked first.', target: 'confirmingClear' } },
            },
            confirmingClear: {
              description: 'The customer is asked whether to clear everything typed.',
              on: {
                'CLEAR.CANCEL': { description: 'The customer keeps the draft.', target: 'closed' },
                'CLEAR.CONFIRM': {
                  description: 'The customer confirms: the draft is cleared here and on the platform.',
                  target: '#businessRegistration.clearing',
                  actions: 'resetDraft',
                },
              },
            },
          },
        },
        saving: {
          description: 'The draft is saved after each accepted change, after a pause, locally and on the platform.',
          initial: 'idle',
          states: {
            idle: {
              description: 'Nothing waits to be saved; the last save’s outcome is shown.',
              on: { 'draft.changed': { description: 'An accepted change: the draft is saved after a pause.', target: 'waiting' } },
            },
            waiting: {
              description: 'A change waits for a pause before the draft is saved.',
              on: { 'draft.changed': { description: 'Another change: the pause starts again.', target: 'waiting', reenter: true } },
              after: { draftSaveDebounce: { description: 'The pause is over: the draft is saved.', target: 'saving' } },
            },
            saving: {
              description: 'The draft is being saved on this device and on the platform.',
              entry: 'startSave',
              invoke: {
                id: 'saveDraft',
                src: 'saveDraft',
                input: ({ context }) => ({ email: registrantEmail(context.data), draft: { version: BUSINESS_DRAFT_VERSION, data: context.data } }),
                onDone: [
                  {
                    description: 'Saved; something changed meanwhile: it is saved again after a pause.',
                    guard: 'changedSinceSave',
                    target: 'waiting',
                    actions: { type: 'storeSaveResult', params: ({ event }) => event.output },
                  },
                  {
                    description: 'Saved: everywhere, or on this device only when the platform failed (not fatal).',
                    target: 'idle',
                    actions: { type: 'storeSaveResult', params: ({ event }) => event.output },
                  },
                ],
                onError: { description: 'The draft could not be saved anywhere: the customer is told; the next change tries again.', target: 'idle', actions: 'markSaveFailed' },
              },
            },
          },
        },
        emailCheck: {
          description: 'Users’ e-mails are checked for existing accounts (document 1 §4), one at a time.',
          initial: 'idle',
          states: {
            idle: {
              description: 'Every user’s e-mail has an answer (or none is well formed).',
              always: { description: 'A user’s e-mail has no answer yet: it is checked.', guard: 'emailToCheck', target: 'checking' },
            },
            checking: {
              description: 'The platform is checking one user’s e-mail (state 2 meanwhile).',
              entry: 'startEmailCheck',
              invoke: {
                id: 'checkEmail',
                src: 'checkEmail',
                input: ({ context }) => ({ email: context.checkingEmail ?? '' }),
                onDone: [
                  {
                    description: 'The platform answered: free (0), exists (1) or exists as employee (3).',
                    guard: { type: 'answered', params: ({ event }) => event.output },
                    target: 'idle',
                    actions: { type: 'storeEmailCheck', params: ({ event }) => (event.output.ok ? event.output.state : -1) },
                  },
                  { description: 'The check failed (-1): the customer may go on (the platform checks again).', target: 'idle', actions: { type: 'storeEmailCheck', params: -1 } },
                ],
                onError: { description: 'The check failed unexpectedly (-1).', target: 'idle', actions: { type: 'storeEmailCheck', params: -1 } },
              },
            },
          },
        },
        platformDraft: {
          description: 'Once the registrant’s e-mail is known, the platform is asked for the draft saved for it on this device.',
          initial: 'idle',
          states: {
            idle: {
              description: 'The platform was asked for the current e-mail (or none is known yet).',
              always: { description: 'The registrant’s e-mail is new: the platform is asked for its draft.', guard: 'platformDraftToAsk', target: 'loading' },
            },
            loading: {
              description: 'The platform’s draft for this e-mail and device is being read.',
              entry: 'startPlatformLook',
              invoke: {
                id: 'loadPlatformDraft',
                src: 'loadPlatformDraft',
                input: ({ context }) => ({ email: context.platformAskedFor ?? '' }),
                onDone: [
                  {
                    description: 'The platform keeps a newer draft of this version: the wizard goes on from it.',
                    guard: { type: 'platformDraftNewer', params: ({ event }) => event.output },
                    target: 'idle',
                    actions: { type: 'restoreDraft', params: ({ event }) => ({ draft: event.output!, from: 'platform' as const }) },
                  },
                  { description: 'The platform keeps no newer draft: the one shown stays.', target: 'idle' },
                ],
                onError: { description: 'The platform could not be asked: the draft shown stays.', target: 'idle' },
              },
            },
          },
        },
      },
    },
    clearing: {
      description: 'The draft is being deleted on this device and on the platform.',
      tags: ['busy'],
      invoke: {
        id: 'deleteDraft',
        src: 'deleteDraft',
        input: ({ context }) => ({ email: context.clearingEmail }),
        onDone: { description: 'The draft is deleted: the wizard starts empty.', target: 'editing' },
        onError: { description: 'Deleting failed (the platform’s copy expires by itself): the wizard starts empty.', target: 'editing' },
      },
    },
    submitting: {
      description: 'The registration is being sent (accountCreate with the company).',
      tags: ['busy'],
      invoke: {
        id: 'createBusiness',
        src: 'createBusiness',
        input: ({ context }) => ({ request: context.request! }),
        onDone: [
          {
            description: 'The company is registered: the activation code was sent to the registrant’s e-mail.',
            guard: { type: 'answered', params: ({ event }) => event.output },
            target: 'done',
            actions: ['markSent', 'forgetRequest'],
          },
          {
            description: 'The platform refused some entries: the review names each by its section and field.',
            guard: { type: 'isFieldAnswer', params: ({ event }) => event.output },
            target: '#businessRegistration.editing.form.review',
            actions: [{ type: 'storeServerErrors', params: ({ event }) => (!event.output.ok && event.output.code === 'fields' ? event.output.errors : []) }, 'forgetRequest'],
          },
          {
            description: 'The registration failed (closed, e-mail taken, network, other): the review says why.',
            target: '#businessRegistration.editing.form.review',
            actions: [{ type: 'storeSubmitError', params: ({ event }) => (!event.output.ok && event.output.code !== 'fields' ? event.output.code : 'unknown') }, 'forgetRequest'],
          },
        ],
        onError: {
          description: 'The registration failed unexpectedly: the review says so.',
          target: '#businessRegistration.editing.form.review',
          actions: [{ type: 'storeSubmitError', params: 'unknown' }, 'forgetRequest'],
        },
      },
    },
    done: {
      description: 'The company is registered: the customer is told to check the e-mail for the activation code; the draft is deleted.',
      invoke: {
        id: 'deleteSentDraft',
        src: 'deleteDraft',
        input: ({ context }) => ({ email: context.sentTo }),
        onDone: { description: 'The sent draft is deleted.', actions: { type: 'storeDraftGone', params: 'none' } },
        onError: { description: 'Deleting the sent draft failed (the platform’s copy expires by itself).', actions: { type: 'storeDraftGone', params: 'failed' } },
      },
    },
  },
});

/** A hub's person form: saved back to the hub that opened it, or left. */
function personFormState(hub: HubId) {
  return {
    description: `The person form opened from ${hub}: names, birthday, contact, and what the hub asks (a share, a user’s e-mail and rights, an owner’s sources of funds).`,
    on: {
      'PERSON.SAVE': [
        {
          description: 'The person is valid: they are kept and the hub that opened the form shows them.',
          guard: { type: 'personValid' as const, params: ({ event }: { event: { values: PersonValues } }) => ({ hub, values: event.values }) },
          target: 'list',
          actions: [
            { type: 'storePerson' as const, params: ({ event }: { event: { values: PersonValues } }) => ({ hub, values: event.values }) },
            'markChanged' as const,
            'announceChange' as const,
          ],
        },
        {
          description: 'The person form has errors: its fields say what is wrong.',
          actions: { type: 'storePersonErrors' as const, params: ({ event }: { event: { values: PersonValues } }) => ({ hub, values: event.values }) },
        },
      ],
      'FORM.CANCEL': { description: 'The customer leaves the person form without saving.', target: 'list', actions: 'closeForm' as const },
    },
  };
}

export type BusinessRegistrationMachine = typeof businessRegistrationMachine;
