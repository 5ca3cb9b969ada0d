/**
 * The ownership tree of a business registration and the registration's people rules (document 3
 * §3 "Registration payload", §4 "Registration", §5 "Shareholders" and "Registration", §9 constants;
 * issue 17 item 2).
 *
 * One pure module used by the wizard statechart's guards and by the platform: no React, no I/O, no
 * user-visible strings. Every rule is a named function in `ownershipRules` returning issues, each a
 * code with the section and path it belongs to (the views and the platform turn codes into words).
 *
 * Exact arithmetic. Shares are percentages with at most two decimals; they are read once into whole
 * hundredths of a percent (`33.33` -> 3333) and never added as floats, so 33.33 + 33.33 + 33.34 totals
 * exactly 100. Effective shares (the product of the shares down a path, summed over every path that
 * reaches the person) are kept as `Percent` values: a bigint of units of 10^-scale percent. Each share
 * has a power-of-ten denominator, so every product and sum is a finite decimal and is shown exactly
 * (`formatPercent`: 60 % of 50 % -> "30", 33.33 % of 33.33 % -> "11.108889").
 *
 * Decisions where the spec is silent or asymmetric (each pinned by the table test):
 * - Exactly 25 %: a person with an effective share of 25 % or more is an ultimate beneficial owner
 *   (§5 "25 percent or more"), and lowering a share so that the person's effective share becomes 25 %
 *   or below clears their source-of-funds data (§4 "to 25 percent or below"). Taken literally, a person
 *   lowered to exactly 25 % has their source of funds cleared and is still a UBO, so they are asked
 *   for it again (`uboSourceOfFundsMissing`). Only persons below the lowered node are cleared.
 * - Levels: the root level (the company's own shareholders) is always checked, so an empty root
 *   totals 0 and is out of range; a company shareholder with no shareholders of its own has no
 *   level to check.
 * - A UBO needs at least one chosen source of funds and details for each chosen source (when
 *   source-of-wealth is enabled).
 * - A user has rights when `accessRights` is one of 1-4 (0 is "no access"; 5, the authorised-user
 *   marker, is hidden from the choice); a person is a user when `isUser` is set or their id is in
 *   `users`.
 * - "Used by a list": the company's directors, its ultimate beneficial owners, the shareholder tree
 *   at any depth, and the directors of the companies the tree holds. Companies no node holds are
 *   removed first (`removeUnusedCompanies`), so their directors count only while the company is held.
 */

/** Share threshold for an ultimate beneficial owner, in percent (§9). */
export const UBO_THRESHOLD = 25;
/** The shares of one level total at least this (§9). */
export const LEVEL_TOTAL_MIN = 10;
/** Upper bound of a share and of a level's total (§9). */
export const SHARE_MAX = 100;
/** Access right "full access" (document 3 §3 Access rights): at least one user needs it. */
export const FULL_RIGHTS = 2;
/** Rights a registration user may be given: 1 read, 2 full access, 3 initiate, 4 confirmed. */
export const USER_RIGHTS: readonly number[] = [1, 2, 3, 4];

/** Shareholder node type (§3). */
export const ShareholderType = { person: 1, company: 2 } as const;
export type ShareholderTypeValue = (typeof ShareholderType)[keyof typeof ShareholderType];

/** A person's or company's id in the draft (the wizard's local ids may be strings; the platform's are numbers). */
export type EntityId = string | number;

/** One node of the shareholder tree (§3 "shareholders: a tree"). */
export interface ShareholderNode {
  /** 1 a person, 2 a company */
  type: ShareholderTypeValue;
  /** percent of the parent (the registering company at the root) this shareholder holds: above 0, at most 100, at most two decimals */
  share: number;
  /** the person in `personList` (type 1) */
  personId?: EntityId | null;
  /** the company in `companyList` (type 2) */
  companyId?: EntityId | null;
  /** the company's own shareholders (type 2 only; a person has none) */
  shareholders: ShareholderNode[];
}

/** One chosen source of funds of a person, with its details (§5 "details for every chosen source"). */
export interface SourceOfFunds {
  /** id from the sources-of-funds dictionary */
  sourceId: number;
  /** the person's explanation of this source */
  details?: string | null;
}

/** A person of the registration (§3 personList; only the fields these rules read are required). */
export interface Person {
  id: EntityId;
  firstName: string;
  lastName: string;
  /** the person is one of the company's users (gets a login) */
  isUser?: boolean;
  /** the user's access right (document 3 §3 Access rights) */
  accessRights?: number | null;
  /** chosen sources of funds; asked of ultimate beneficial owners when source-of-wealth is enabled */
  sourcesOfFunds?: SourceOfFunds[] | null;
  /** the remaining personList fields (birthday, contact, address, taxId, …) pass through untouched */
  [field: string]: unknown;
}

/** A company of the registration that is, or owns, a shareholder (§3 companyList). */
export interface Company {
  id: EntityId;
  name: string;
  /** the company's directors: ids in `personList`; a company shareholder needs at least one */
  directors: EntityId[];
  /** the remaining companyList fields pass through untouched */
  [field: string]: unknown;
}

/** The part of the registration payload (§3) these rules read; the rest of a draft passes through. */
export interface OwnershipData {
  /** the registering company's directors: ids in `personList` */
  directors: EntityId[];
  /** the declared ultimate beneficial owners: ids in `personList` */
  ultimateBeneficiaryOwners: EntityId[];
  /** the registering company's shareholders (the root level of the tree) */
  shareholders: ShareholderNode[];
  /** the company's users: ids in `personList` (a person with `isUser` is a user as well) */
  users: EntityId[];
  personList: Person[];
  companyList: Company[];
}

/** The sections of the wizard with a validity flag (§4 "Registration"). */
export type Section = 'root' | 'persons' | 'companies' | 'directors' | 'shareholders' | 'users';

export type OwnershipCode =
  // shareholders: path = indices down the tree ([] = the root level)
  | 'shareOutOfRange'
  | 'shareTooPrecise'
  | 'levelTotalOutOfRange'
  | 'companyWithoutDirector'
  | 'shareholderWithoutReference'
  | 'unknownPerson'
  | 'unknownCompany'
  | 'personWithShareholders'
  // persons: path = [personId] or [personId, sourceId]
  | 'personNameMissing'
  | 'uboSourceOfFundsMissing'
  | 'uboSourceOfFundsDetailsMissing'
  | 'unknownOwner'
  // companies: path = [companyId]
  | 'companyNameMissing'
  | 'unknownDirector'
  // directors: path = [] or [index]
  | 'noDirector'
  // users: path = [] or [personId]
  | 'noFullRightsUser'
  | 'userWithoutRights'
  | 'userRightsInvalid'
  | 'userEmailExists'
  | 'userEmailChecking'
  | 'userEmailUnchecked'
  | 'unknownUser';

export interface OwnershipIssue {
  section: Exclude<Section, 'root'>;
  /** where: tree indices for `shareholders`, ids for persons, companies and users, list index for directors */
  path: (string | number)[];
  code: OwnershipCode;
  /** values for the message, e.g. { total: '110' } */
  params?: Record<string, string>;
}

/** E-mail existence check states (§4): 0 free, 1 exists, 2 checking, 3 exists as employee, -1 failed. */
export type EmailCheckState = 0 | 1 | 2 | 3 | -1;

export interface OwnershipOptions {
  /** source-of-wealth is enabled: ultimate beneficial owners need source-of-funds details (§5) */
  sourceOfWealth: boolean;
  /**
   * The e-mail check state of each user, keyed by person id, when the caller checks e-mails: 1, 2
   * or unchecked (absent) block (§5). Leave out to skip the check (the platform checks itself).
   */
  emailStates?: Record<string, EmailCheckState | undefined>;
}

// ---------------------------------------------------------------------------------------------------
// Exact percentages

/** An exact percentage: `units` × 10^-`scale` percent. */
export interface Percent {
  units: bigint;
  scale: number;
}

const ZERO: Percent = { units: 0n, scale: 0 };
const pow10 = (n: number) => 10n ** BigInt(n);

function normalise(p: Percent): Percent {
  let { units, scale } = p;
  while (scale > 0 && units % 10n === 0n) {
    units /= 10n;
    scale -= 1;
  }
  return { units, scale };
}

const align = (a: Percent, b: Percent): [bigint, bigint] => {
  const scale = Math.max(a.scale, b.scale);
  return [a.units * pow10(scale - a.scale), b.units * pow10(scale - b.scale)];
};

export const percent = {
  zero: ZERO,
  /** a whole or decimal number of percent with at most two decimals, e.g. 25 or '33.33' */
  from: (value: number | string): Percent => {
    const h = shareHundredths(value);
    if (h === null) throw new Error(`not a percentage with at most two decimals: ${value}`);
    return normalise({ units: BigInt(h), scale: 2 });
  },
  add: (a: Percent, b: Percent): Percent => {
    const [x, y] = align(a, b);
    return normalise({ units: x + y, scale: Math.max(a.scale, b.scale) });
  },
  /** a % of b % (60 % of 50 % = 30 %) */
  of: (a: Percent, b: Percent): Percent => normalise({ units: a.units * b.units, scale: a.scale + b.scale + 2 }),
  compare: (a: Percent, b: Percent): -1 | 0 | 1 => {
    const [x, y] = align(a, b);
    return x < y ? -1 : x > y ? 1 : 0;
  },
};

/** The exact decimal string of a percentage ("30", "33.33", "11.108889"); with `decimals`, rounded half up to at most that many. */
export function formatPercent(p: Percent, decimals?: number): string {
  let { units, scale } = normalise(p);
  if (decimals !== undefined && scale > decimals) {
    const drop = pow10(scale - decimals);
    units = (units + drop / 2n) / drop;
    ({ units, scale } = normalise({ units, scale: decimals }));
  }
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(scale + 1, '0');
  const whole = digits.slice(0, digits.length - scale);
  const fraction = digits.slice(digits.length - scale);
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

/**
 * A share in whole hundredths of a percent (33.33 -> 3333), or null when it is not a finite number
 * with at most two decimals. Numbers are read with a tolerance far below a hundredth (a float that
 * prints as 33.33 is 33.33); decimal strings are read exactly.
 */
export function shareHundredths(share: number | string): number | null {
  if (typeof share === 'string') {
    const m = /^\s*(-?)(\d+)(?:[.,](\d{1,2}))?\s*$/.exec(share);
    if (!m) return null;
    const h = Number(m[2]) * 100 + Number((m[3] ?? '').padEnd(2, '0'));
    return m[1] ? -h : h;
  }
  if (!Number.isFinite(share)) return null;
  const scaled = share * 100;
  const rounded = Math.round(scaled);
  return Math.abs(scaled - rounded) < 1e-6 ? rounded : null;
}

/** A share read as an exact percentage (an unreadable share counts as 0). */
const sharePercent = (share: number): Percent => {
  const h = shareHundredths(share);
  return h === null ? ZERO : normalise({ units: BigInt(h), scale: 2 });
};

/** The exact total of one level's shares, as a decimal string ("100" for 33.33 + 33.33 + 33.34). */
export function levelTotal(nodes: readonly ShareholderNode[]): string {
  return formatPercent(nodes.reduce((sum, n) => percent.add(sum, sharePercent(n.share)), ZERO));
}

// ---------------------------------------------------------------------------------------------------
// Walking the tree

const key = (id: EntityId | null | undefined): string | null => (id === null || id === undefined || id === '' ? null : String(id));

export interface TreeVisit {
  node: ShareholderNode;
  /** indices down the tree */
  path: number[];
  /** 0 for the registering company's own shareholders */
  depth: number;
  /** the product of the shares from the root down to this node */
  effective: Percent;
}

/** Every node of the tree, parents before children, with its path and effective share. */
export function walkTree(shareholders: readonly ShareholderNode[]): TreeVisit[] {
  const out: TreeVisit[] = [];
  const visit = (nodes: readonly ShareholderNode[], parentPath: number[], parentEffective: Percent | null) => {
    nodes.forEach((node, i) => {
      const path = [...parentPath, i];
      const own = sharePercent(node.share);
      const effective = parentEffective === null ? own : percent.of(parentEffective, own);
      out.push({ node, path, depth: parentPath.length, effective });
      visit(node.shareholders ?? [], path, effective);
    });
  };
  visit(shareholders, [], null);
  return out;
}

/** The node at a path, or undefined. */
export function nodeAt(shareholders: readonly ShareholderNode[], path: readonly number[]): ShareholderNode | undefined {
  let nodes = shareholders;
  let node: ShareholderNode | undefined;
  for (const i of path) {
    node = nodes[i];
    if (!node) return undefined;
    nodes = node.shareholders ?? [];
  }
  return node;
}

/**
 * The effective share of every person in the tree, keyed by person id (as a string): the product of
 * the shares down each path that reaches them, summed over the paths (§5 "nested shares multiplied
 * together").
 */
export function effectiveShares(shareholders: readonly ShareholderNode[]): Map<string, Percent> {
  const out = new Map<string, Percent>();
  for (const { node, effective } of walkTree(shareholders)) {
    const id = node.type === ShareholderType.person ? key(node.personId) : null;
    if (id !== null) out.set(id, percent.add(out.get(id) ?? ZERO, effective));
  }
  return out;
}

const THRESHOLD = percent.from(UBO_THRESHOLD);

/** An effective share of 25 % or more makes an ultimate beneficial owner (§5). */
export const isUboShare = (p: Percent) => percent.compare(p, THRESHOLD) >= 0;
/** Lowering to 25 % or below clears the source of funds (§4). */
export const clearsSourceOfFunds = (p: Percent) => percent.compare(p, THRESHOLD) <= 0;

export interface Ubo {
  personId: string;
  person: Person | undefined;
  effective: Percent;
  /** exact decimal string, e.g. "30" */
  effectiveShare: string;
}

/** The ultimate beneficial owners (effective share ≥ 25 %), largest first, then by id. */
export function ultimateBeneficialOwners(data: Pick<OwnershipData, 'shareholders' | 'personList'>): Ubo[] {
  const persons = personsById(data.personList);
  return [...effectiveShares(data.shareholders)]
    .filter(([, p]) => isUboShare(p))
    .map(([personId, effective]) => ({ personId, person: persons.get(personId), effective, effectiveShare: formatPercent(effective) }))
    .sort((a, b) => percent.compare(b.effective, a.effective) || a.personId.localeCompare(b.personId));
}

export interface FlatNode {
  path: number[];
  depth: number;
  type: ShareholderTypeValue;
  id: string | null;
  /** the person's full name or the company's name (data, not a translated string); empty when unknown */
  name: string;
  /** the node's own share, exact ("33.33") */
  share: string;
  /** this node's share of the registering company, exact */
  effectiveShare: string;
  /** for a person: their total effective share over every path, exact */
  personTotalShare?: string;
  /** a person whose total effective share makes them an ultimate beneficial owner */
  isUbo: boolean;
}

/** The tree flattened for drawing, parents before children (depth, name, share, effective share). */
export function flattenTree(data: Pick<OwnershipData, 'shareholders' | 'personList' | 'companyList'>): FlatNode[] {
  const persons = personsById(data.personList);
  const companies = companiesById(data.companyList);
  const totals = effectiveShares(data.shareholders);
  return walkTree(data.shareholders).map(({ node, path, depth, effective }) => {
    const isPerson = node.type === ShareholderType.person;
    const id = key(isPerson ? node.personId : node.companyId);
    const person = isPerson && id !== null ? persons.get(id) : undefined;
    const company = !isPerson && id !== null ? companies.get(id) : undefined;
    const total = isPerson && id !== null ? totals.get(id) : undefined;
    const h = shareHundredths(node.share);
    return {
      path,
      depth,
      type: node.type,
      id,
      name: person ? fullName(person) : (company?.name ?? '').trim(),
      share: h === null ? String(node.share) : formatPercent({ units: BigInt(h), scale: 2 }),
      effectiveShare: formatPercent(effective),
      ...(total ? { personTotalShare: formatPercent(total) } : {}),
      isUbo: total !== undefined && isUboShare(total),
    };
  });
}

const fullName = (p: Person) => `${p.firstName ?? ''} ${p.lastName ?? ''}`.replace(/\s+/g, ' ').trim();

function personsById(list: readonly Person[]): Map<string, Person> {
  const out = new Map<string, Person>();
  for (const p of list) out.set(String(p.id), p);
  return out;
}

function companiesById(list: readonly Company[]): Map<string, Company> {
  const out = new Map<string, Company>();
  for (const c of list) out.set(String(c.id), c);
  return out;
}

/** The ids (as strings) of the company's users: listed in `users` or marked `isUser`. */
export function userIds(data: Pick<OwnershipData, 'users' | 'personList'>): Set<string> {
  const out = new Set(data.users.map(String));
  for (const p of data.personList) if (p.isUser) out.add(String(p.id));
  return out;
}

// ---------------------------------------------------------------------------------------------------
// The rules

const MAX_HUNDREDTHS = SHARE_MAX * 100;
const MIN_LEVEL_HUNDREDTHS = LEVEL_TOTAL_MIN * 100;

/** Each rule returns its issues; an empty list means the rule holds. */
export const ownershipRules = {
  /** §5: each share above 0 and at most 100, with at most two decimals */
  shareInRange: (data: OwnershipData): OwnershipIssue[] =>
    walkTree(data.shareholders).flatMap(({ node, path }): OwnershipIssue[] => {
      const h = shareHundredths(node.share);
      if (h === null) {
        return typeof node.share === 'number' && Number.isFinite(node.share) && node.share > 0 && node.share <= SHARE_MAX
          ? [{ section: 'shareholders', path, code: 'shareTooPrecise' }]
          : [{ section: 'shareholders', path, code: 'shareOutOfRange' }];
      }
      return h <= 0 || h > MAX_HUNDREDTHS ? [{ section: 'shareholders', path, code: 'shareOutOfRange' }] : [];
    }),

  /** §5: the shares of one level total between 10 and 100 inclusive (the root level always; a company's level when it has shareholders) */
  levelTotalInRange: (data: OwnershipData): OwnershipIssue[] => {
    const levels: { path: number[]; nodes: readonly ShareholderNode[] }[] = [{ path: [], nodes: data.shareholders }];
    for (const { node, path } of walkTree(data.shareholders)) if ((node.shareholders ?? []).length > 0) levels.push({ path, nodes: node.shareholders });
    return levels.flatMap(({ path, nodes }): OwnershipIssue[] => {
      const total = nodes.reduce((sum, n) => sum + Math.max(0, shareHundredths(n.share) ?? 0), 0);
      return total < MIN_LEVEL_HUNDREDTHS || total > MAX_HUNDREDTHS
        ? [{ section: 'shareholders', path, code: 'levelTotalOutOfRange', params: { total: formatPercent({ units: BigInt(total), scale: 2 }) } }]
        : [];
    });
  },

  /** every node names a person (type 1, no shareholders of its own) or a company (type 2) of the lists */
  shareholderReferences: (data: OwnershipData): OwnershipIssue[] => {
    const persons = personsById(data.personList);
    const companies = companiesById(data.companyList);
    return walkTree(data.shareholders).flatMap(({ node, path }): OwnershipIssue[] => {
      const issues: OwnershipIssue[] = [];
      if (node.type === ShareholderType.person) {
        const id = key(node.personId);
        if (id === null) issues.push({ section: 'shareholders', path, code: 'shareholderWithoutReference' });
        else if (!persons.has(id)) issues.push({ section: 'shareholders', path, code: 'unknownPerson', params: { id } });
        if ((node.shareholders ?? []).length > 0) issues.push({ section: 'shareholders', path, code: 'personWithShareholders' });
      } else if (node.type === ShareholderType.company) {
        const id = key(node.companyId);
        if (id === null) issues.push({ section: 'shareholders', path, code: 'shareholderWithoutReference' });
        else if (!companies.has(id)) issues.push({ section: 'shareholders', path, code: 'unknownCompany', params: { id } });
      } else {
        issues.push({ section: 'shareholders', path, code: 'shareholderWithoutReference' });
      }
      return issues;
    });
  },

  /** §5: a company shareholder needs at least one director */
  companyShareholderHasDirector: (data: OwnershipData): OwnershipIssue[] => {
    const companies = companiesById(data.companyList);
    return walkTree(data.shareholders).flatMap(({ node, path }): OwnershipIssue[] => {
      if (node.type !== ShareholderType.company) return [];
      const id = key(node.companyId);
      const company = id === null ? undefined : companies.get(id);
      return company && company.directors.length === 0 ? [{ section: 'shareholders', path, code: 'companyWithoutDirector' }] : [];
    });
  },

  /** §5: an ultimate beneficial owner (effective share ≥ 25 %) gives source-of-funds details for every chosen source, when source-of-wealth is enabled */
  uboHasSourceOfFunds: (data: OwnershipData, options: OwnershipOptions): OwnershipIssue[] => {
    if (!options.sourceOfWealth) return [];
    return ultimateBeneficialOwners(data).flatMap(({ personId, person }): OwnershipIssue[] => {
      if (!person) return []; // reported by shareholderReferences
      const sources = person.sourcesOfFunds ?? [];
      if (sources.length === 0) return [{ section: 'persons', path: [personId], code: 'uboSourceOfFundsMissing' }];
      return sources
        .filter((s) => !(s.details ?? '').trim())
        .map((s): OwnershipIssue => ({ section: 'persons', path: [personId, s.sourceId], code: 'uboSourceOfFundsDetailsMissing' }));
    });
  },

  /** §5 "every person must be valid": the parts the ownership rules read (a name) */
  personNamed: (data: OwnershipData): OwnershipIssue[] =>
    data.personList
      .filter((p) => !(p.firstName ?? '').trim() || !(p.lastName ?? '').trim())
      .map((p): OwnershipIssue => ({ section: 'persons', path: [String(p.id)], code: 'personNameMissing' })),

  /** §5 "every company needs a valid screen": a name, at least one director, directors among the persons */
  companyValid: (data: OwnershipData): OwnershipIssue[] => {
    const persons = personsById(data.personList);
    return data.companyList.flatMap((c): OwnershipIssue[] => {
      const path = [String(c.id)];
      const issues: OwnershipIssue[] = [];
      if (!(c.name ?? '').trim()) issues.push({ section: 'companies', path, code: 'companyNameMissing' });
      if (c.directors.length === 0) issues.push({ section: 'companies', path, code: 'companyWithoutDirector' });
      for (const d of c.directors) if (!persons.has(String(d))) issues.push({ section: 'companies', path, code: 'unknownDirector', params: { id: String(d) } });
      return issues;
    });
  },

  /** §5: at least one director; directors are persons of the list */
  hasDirector: (data: OwnershipData): OwnershipIssue[] => {
    const persons = personsById(data.personList);
    const issues: OwnershipIssue[] = [];
    if (data.directors.length === 0) issues.push({ section: 'directors', path: [], code: 'noDirector' });
    data.directors.forEach((d, i) => {
      if (!persons.has(String(d))) issues.push({ section: 'directors', path: [i], code: 'unknownDirector', params: { id: String(d) } });
    });
    return issues;
  },

  /** the declared ultimate beneficial owners are persons of the list */
  ownersKnown: (data: OwnershipData): OwnershipIssue[] => {
    const persons = personsById(data.personList);
    return data.ultimateBeneficiaryOwners.filter((o) => !persons.has(String(o))).map((o): OwnershipIssue => ({ section: 'persons', path: [String(o)], code: 'unknownOwner' }));
  },

  /** §5: each user has access rights (1-4) */
  usersHaveRights: (data: OwnershipData): OwnershipIssue[] => {
    const persons = personsById(data.personList);
    return [...userIds(data)].flatMap((id): OwnershipIssue[] => {
      const person = persons.get(id);
      if (!person) return [{ section: 'users', path: [id], code: 'unknownUser' }];
      const rights = person.accessRights;
      if (rights === null || rights === undefined || rights === 0) return [{ section: 'users', path: [id], code: 'userWithoutRights' }];
      return USER_RIGHTS.includes(rights) ? [] : [{ section: 'users', path: [id], code: 'userRightsInvalid', params: { rights: String(rights) } }];
    });
  },

  /** §5: at least one user has rights value 2 */
  hasFullRightsUser: (data: OwnershipData): OwnershipIssue[] => {
    const ids = userIds(data);
    return data.personList.some((p) => ids.has(String(p.id)) && p.accessRights === FULL_RIGHTS) ? [] : [{ section: 'users', path: [], code: 'noFullRightsUser' }];
  },

  /** §5: a user's e-mail check state of 1 (exists), 2 (checking) or none (unchecked) blocks submission (only when the caller passes the states) */
  userEmailsChecked: (data: OwnershipData, options: OwnershipOptions): OwnershipIssue[] => {
    const states = options.emailStates;
    if (!states) return [];
    return [...userIds(data)].flatMap((id): OwnershipIssue[] => {
      const state = states[id];
      if (state === undefined || state === null) return [{ section: 'users', path: [id], code: 'userEmailUnchecked' }];
      if (state === 1) return [{ section: 'users', path: [id], code: 'userEmailExists' }];
      if (state === 2) return [{ section: 'users', path: [id], code: 'userEmailChecking' }];
      return [];
    });
  },
} as const satisfies Record<string, (data: OwnershipData, options: OwnershipOptions) => OwnershipIssue[]>;

export type OwnershipRuleId = keyof typeof ownershipRules;
export const ownershipRuleIds = Object.keys(ownershipRules) as OwnershipRuleId[];

/** Every issue of every rule, in rule order. */
export function validateOwnership(data: OwnershipData, options: OwnershipOptions): OwnershipIssue[] {
  return ownershipRuleIds.flatMap((id) => ownershipRules[id](data, options));
}

export type SectionFlags = Record<Section, boolean>;

/**
 * The section validity flags (§4). `root` is the validity of the general, financial, legal and due
 * diligence forms, which the wizard's forms decide; the others hold when their section has no issue.
 */
export function sectionFlags(data: OwnershipData, options: OwnershipOptions & { rootValid: boolean }): SectionFlags {
  const issues = validateOwnership(data, options);
  const clean = (s: OwnershipIssue['section']) => !issues.some((i) => i.section === s);
  return {
    root: options.rootValid,
    persons: clean('persons'),
    companies: clean('companies'),
    directors: clean('directors'),
    shareholders: clean('shareholders'),
    users: clean('users'),
  };
}

/** Submit is allowed only when every check passes (§4). */
export function canSubmit(data: OwnershipData, options: OwnershipOptions & { rootValid: boolean }): boolean {
  return Object.values(sectionFlags(data, options)).every(Boolean);
}

// ---------------------------------------------------------------------------------------------------
// Changes

/**
 * Sets the share of the node at `path`. When the share is lowered, every person below that node
 * (the node itself when it is a person) whose effective share is now 25 % or below loses their
 * source-of-funds data (§4). Returns a new draft; the old one is untouched.
 */
export function setShare<T extends OwnershipData>(data: T, path: readonly number[], share: number): T {
  const old = nodeAt(data.shareholders, path);
  if (!old) return data;
  const shareholders = replaceAt(data.shareholders, path, (n) => ({ ...n, share }));
  const next = { ...data, shareholders };
  const oldH = shareHundredths(old.share);
  const newH = shareHundredths(share);
  const lowered = oldH !== null && newH !== null ? newH < oldH : false;
  if (!lowered) return next;
  return clearSourcesOfFunds(next, personsBelow(old));
}

/**
 * Removes the node at `path` with everything below it; the persons it held whose remaining effective
 * share is 25 % or below lose their source-of-funds data (removal lowers their share), then persons
 * and companies no list uses are removed.
 */
export function removeShareholder<T extends OwnershipData>(data: T, path: readonly number[]): T {
  const old = nodeAt(data.shareholders, path);
  if (!old || path.length === 0) return data;
  const parentPath = path.slice(0, -1);
  const index = path[path.length - 1]!;
  const without = (nodes: readonly ShareholderNode[]) => nodes.filter((_, i) => i !== index);
  const shareholders = parentPath.length === 0 ? without(data.shareholders) : replaceAt(data.shareholders, parentPath, (n) => ({ ...n, shareholders: without(n.shareholders) }));
  return removeUnused(clearSourcesOfFunds({ ...data, shareholders }, personsBelow(old)));
}

/** The persons (ids as strings) of a node and everything below it. */
function personsBelow(node: ShareholderNode): Set<string> {
  const out = new Set<string>();
  for (const { node: n } of walkTree([node])) {
    const id = n.type === ShareholderType.person ? key(n.personId) : null;
    if (id !== null) out.add(id);
  }
  return out;
}

/** Clears the source of funds of those `candidates` whose effective share is 25 % or below (0 when no longer in the tree). */
export function clearSourcesOfFunds<T extends OwnershipData>(data: T, candidates: ReadonlySet<string>): T {
  const shares = effectiveShares(data.shareholders);
  let changed = false;
  const personList = data.personList.map((p) => {
    const id = String(p.id);
    if (!candidates.has(id) || !clearsSourceOfFunds(shares.get(id) ?? ZERO) || (p.sourcesOfFunds ?? []).length === 0) return p;
    changed = true;
    return { ...p, sourcesOfFunds: [] };
  });
  return changed ? { ...data, personList } : data;
}

function replaceAt(nodes: readonly ShareholderNode[], path: readonly number[], change: (n: ShareholderNode) => ShareholderNode): ShareholderNode[] {
  const [head, ...rest] = path;
  return nodes.map((n, i) => (i !== head ? n : rest.length === 0 ? change(n) : { ...n, shareholders: replaceAt(n.shareholders ?? [], rest, change) }));
}

/** The companies (ids as strings) some node of the tree holds. */
export function usedCompanyIds(data: Pick<OwnershipData, 'shareholders'>): Set<string> {
  const out = new Set<string>();
  for (const { node } of walkTree(data.shareholders)) {
    const id = node.type === ShareholderType.company ? key(node.companyId) : null;
    if (id !== null) out.add(id);
  }
  return out;
}

/** The persons (ids as strings) some list uses: directors, owners, the tree at any depth, directors of listed companies, users. */
export function usedPersonIds(data: OwnershipData): Set<string> {
  const out = new Set<string>([...data.directors.map(String), ...data.ultimateBeneficiaryOwners.map(String), ...userIds(data)]);
  for (const { node } of walkTree(data.shareholders)) {
    const id = node.type === ShareholderType.person ? key(node.personId) : null;
    if (id !== null) out.add(id);
  }
  for (const c of data.companyList) for (const d of c.directors) out.add(String(d));
  return out;
}

/** Removes the companies no node of the tree holds. */
export function removeUnusedCompanies<T extends OwnershipData>(data: T): T {
  const used = usedCompanyIds(data);
  const companyList = data.companyList.filter((c) => used.has(String(c.id)));
  return companyList.length === data.companyList.length ? data : { ...data, companyList };
}

/** Removes the persons no list uses, unless they are users (§4). */
export function removeUnusedPersons<T extends OwnershipData>(data: T): T {
  const used = usedPersonIds(data);
  const personList = data.personList.filter((p) => used.has(String(p.id)));
  return personList.length === data.personList.length ? data : { ...data, personList };
}

/** Removes unused companies, then the persons no list (including the remaining companies' directors) uses. */
export function removeUnused<T extends OwnershipData>(data: T): T {
  return removeUnusedPersons(removeUnusedCompanies(data));
}
