/**
 * The ownership-tree and registration people rules (api/ownership.ts;
 * document 3 §3, §4 "Registration", §5 "Shareholders" and "Registration", §9): a table with valid and
 * invalid rows for every rule, the exact arithmetic, the changes (lowering a share, removing a
 * shareholder, removing unused persons), the views' helpers, and the example of issue 17's e2e.
 * Property tests over random trees are in ownership-rules-property.test.ts.
 */
import { describe, expect, it } from 'vitest';
import {
  canSubmit,
  effectiveShares,
  flattenTree,
  formatPercent,
  levelTotal,
  ownershipRuleIds,
  ownershipRules,
  percent,
  removeShareholder,
  removeUnused,
  removeUnusedPersons,
  sectionFlags,
  setShare,
  shareHundredths,
  ultimateBeneficialOwners,
  validateOwnership,
  type OwnershipData,
  type OwnershipIssue,
  type OwnershipOptions,
  type OwnershipRuleId,
  type Person,
  type ShareholderNode,
} from '../../api/ownership.ts';

const person = (id: string, over: Partial<Person> = {}): Person => ({ id, firstName: `First ${id}`, lastName: `Last ${id}`, ...over });
const sof = [{ sourceId: 1, details: 'Sales of the family business' }];
const P = (personId: string, share: number): ShareholderNode => ({ type: 1, personId, share, shareholders: [] });
const C = (companyId: string, share: number, shareholders: ShareholderNode[] = []): ShareholderNode => ({ type: 2, companyId, share, shareholders });

/**
 * Issue 17's e2e company: two directors (Dana, Dan); Dana holds 40 % directly, the corporate
 * shareholder Holdco 60 %, whose own shareholder Paula holds 50 % of it (30 % of the company); Dana
 * is the user with full rights, Uma an authorised user with right 3.
 */
const base = (): OwnershipData => ({
  directors: ['dana', 'dan'],
  ultimateBeneficiaryOwners: ['dana', 'paula'],
  shareholders: [P('dana', 40), C('holdco', 60, [P('paula', 50)])],
  users: ['dana', 'uma'],
  personList: [
    person('dana', { isUser: true, accessRights: 2, sourcesOfFunds: sof }),
    person('dan'),
    person('hector'), // Holdco's director
    person('paula', { sourcesOfFunds: sof }),
    person('uma', { isUser: true, accessRights: 3 }),
  ],
  companyList: [{ id: 'holdco', name: 'Holdco Ltd', directors: ['hector'] }],
});
const withSow: OwnershipOptions = { sourceOfWealth: true };

type Row = {
  rule: OwnershipRuleId;
  name: string;
  change?: (d: OwnershipData) => void;
  options?: Partial<OwnershipOptions>;
  issues: OwnershipIssue[];
};

const personOf = (d: OwnershipData, id: string) => d.personList.find((p) => p.id === id)!;

const rows: Row[] = [
  // shareInRange
  { rule: 'shareInRange', name: 'shares of 40, 60 and 50 are fine', issues: [] },
  { rule: 'shareInRange', name: '100 is allowed', change: (d) => void (d.shareholders = [C('holdco', 100, [P('paula', 100)])]), issues: [] },
  { rule: 'shareInRange', name: '0.01 (the smallest share) is allowed', change: (d) => void (d.shareholders[0]!.share = 0.01), issues: [] },
  { rule: 'shareInRange', name: '0 is refused', change: (d) => void (d.shareholders[0]!.share = 0), issues: [{ section: 'shareholders', path: [0], code: 'shareOutOfRange' }] },
  {
    rule: 'shareInRange',
    name: 'a negative share is refused',
    change: (d) => void (d.shareholders[1]!.shareholders[0]!.share = -5),
    issues: [{ section: 'shareholders', path: [1, 0], code: 'shareOutOfRange' }],
  },
  {
    rule: 'shareInRange',
    name: '100.01 is refused',
    change: (d) => void (d.shareholders[0]!.share = 100.01),
    issues: [{ section: 'shareholders', path: [0], code: 'shareOutOfRange' }],
  },
  {
    rule: 'shareInRange',
    name: 'NaN is refused',
    change: (d) => void (d.shareholders[0]!.share = Number.NaN),
    issues: [{ section: 'shareholders', path: [0], code: 'shareOutOfRange' }],
  },
  {
    rule: 'shareInRange',
    name: 'three decimals are refused',
    change: (d) => void (d.shareholders[0]!.share = 33.333),
    issues: [{ section: 'shareholders', path: [0], code: 'shareTooPrecise' }],
  },
  // levelTotalInRange
  { rule: 'levelTotalInRange', name: 'levels of 100 and 50', issues: [] },
  {
    rule: 'levelTotalInRange',
    name: '33.33 + 33.33 + 33.34 is exactly 100',
    change: (d) => void (d.shareholders = [P('dana', 33.33), P('dan', 33.33), C('holdco', 33.34, [P('paula', 50)])]),
    issues: [],
  },
  { rule: 'levelTotalInRange', name: 'a level of exactly 10', change: (d) => void (d.shareholders[1]!.shareholders[0]!.share = 10), issues: [] },
  {
    rule: 'levelTotalInRange',
    name: 'a nested level of 9.99 is refused',
    change: (d) => void (d.shareholders[1]!.shareholders[0]!.share = 9.99),
    issues: [{ section: 'shareholders', path: [1], code: 'levelTotalOutOfRange', params: { total: '9.99' } }],
  },
  {
    rule: 'levelTotalInRange',
    name: 'a root level of 100.01 is refused',
    change: (d) => void (d.shareholders[0]!.share = 40.01),
    issues: [{ section: 'shareholders', path: [], code: 'levelTotalOutOfRange', params: { total: '100.01' } }],
  },
  {
    rule: 'levelTotalInRange',
    name: 'an empty root level totals 0',
    change: (d) => void (d.shareholders = []),
    issues: [{ section: 'shareholders', path: [], code: 'levelTotalOutOfRange', params: { total: '0' } }],
  },
  { rule: 'levelTotalInRange', name: 'a company shareholder without shareholders has no level to check', change: (d) => void (d.shareholders[1]!.shareholders = []), issues: [] },
  // shareholderReferences
  { rule: 'shareholderReferences', name: 'every node names a listed person or company', issues: [] },
  {
    rule: 'shareholderReferences',
    name: 'a person node without a person',
    change: (d) => void (d.shareholders[0]!.personId = null),
    issues: [{ section: 'shareholders', path: [0], code: 'shareholderWithoutReference' }],
  },
  {
    rule: 'shareholderReferences',
    name: 'an unknown person',
    change: (d) => void (d.shareholders[1]!.shareholders[0]!.personId = 'ghost'),
    issues: [{ section: 'shareholders', path: [1, 0], code: 'unknownPerson', params: { id: 'ghost' } }],
  },
  {
    rule: 'shareholderReferences',
    name: 'an unknown company',
    change: (d) => void (d.shareholders[1]!.companyId = 7),
    issues: [{ section: 'shareholders', path: [1], code: 'unknownCompany', params: { id: '7' } }],
  },
  {
    rule: 'shareholderReferences',
    name: 'a person with shareholders of their own',
    change: (d) => void (d.shareholders[0]!.shareholders = [P('dan', 50)]),
    issues: [{ section: 'shareholders', path: [0], code: 'personWithShareholders' }],
  },
  // companyShareholderHasDirector
  { rule: 'companyShareholderHasDirector', name: 'Holdco has a director', issues: [] },
  {
    rule: 'companyShareholderHasDirector',
    name: 'a company shareholder without a director',
    change: (d) => void (d.companyList[0]!.directors = []),
    issues: [{ section: 'shareholders', path: [1], code: 'companyWithoutDirector' }],
  },
  // uboHasSourceOfFunds
  { rule: 'uboHasSourceOfFunds', name: 'both UBOs (40 % and 30 %) gave their source of funds', issues: [] },
  {
    rule: 'uboHasSourceOfFunds',
    name: 'a 30 % owner through a company without a source of funds',
    change: (d) => void (personOf(d, 'paula').sourcesOfFunds = []),
    issues: [{ section: 'persons', path: ['paula'], code: 'uboSourceOfFundsMissing' }],
  },
  {
    rule: 'uboHasSourceOfFunds',
    name: 'a chosen source without details',
    change: (d) =>
      void (personOf(d, 'dana').sourcesOfFunds = [
        { sourceId: 1, details: 'Salary' },
        { sourceId: 3, details: '   ' },
      ]),
    issues: [{ section: 'persons', path: ['dana', 3], code: 'uboSourceOfFundsDetailsMissing' }],
  },
  {
    rule: 'uboHasSourceOfFunds',
    name: 'exactly 25 % is a UBO',
    change: (d) => {
      d.shareholders[1]!.share = 50; // 50 % of 50 % = 25 %
      personOf(d, 'paula').sourcesOfFunds = null;
    },
    issues: [{ section: 'persons', path: ['paula'], code: 'uboSourceOfFundsMissing' }],
  },
  {
    rule: 'uboHasSourceOfFunds',
    name: '24.99 % is not',
    change: (d) => {
      d.shareholders[1]!.shareholders[0]!.share = 41.65; // 60 % of 41.65 % = 24.99 %
      personOf(d, 'paula').sourcesOfFunds = null;
    },
    issues: [],
  },
  {
    rule: 'uboHasSourceOfFunds',
    name: 'two paths of 15 % each sum to 30 %',
    change: (d) => {
      // Dan 15 % + 25 % of 60 % = 30 %; Paula 75 % of 60 % = 45 % (she gave hers); Dana 25 %
      d.shareholders = [P('dan', 15), C('holdco', 60, [P('dan', 25), P('paula', 75)]), P('dana', 25)];
      personOf(d, 'dana').sourcesOfFunds = null;
    },
    issues: [
      { section: 'persons', path: ['dan'], code: 'uboSourceOfFundsMissing' },
      { section: 'persons', path: ['dana'], code: 'uboSourceOfFundsMissing' },
    ],
  },
  {
    rule: 'uboHasSourceOfFunds',
    name: 'not asked when source-of-wealth is off',
    change: (d) => void (personOf(d, 'paula').sourcesOfFunds = []),
    options: { sourceOfWealth: false },
    issues: [],
  },
  // personNamed
  { rule: 'personNamed', name: 'every person has a name', issues: [] },
  {
    rule: 'personNamed',
    name: 'a blank last name',
    change: (d) => void (personOf(d, 'dan').lastName = '  '),
    issues: [{ section: 'persons', path: ['dan'], code: 'personNameMissing' }],
  },
  // ownersKnown
  { rule: 'ownersKnown', name: 'the owners are listed persons', issues: [] },
  { rule: 'ownersKnown', name: 'an unknown owner', change: (d) => void d.ultimateBeneficiaryOwners.push(9), issues: [{ section: 'persons', path: ['9'], code: 'unknownOwner' }] },
  // companyValid
  { rule: 'companyValid', name: 'Holdco is complete', issues: [] },
  {
    rule: 'companyValid',
    name: 'a company without a name, directors or with an unknown director',
    change: (d) => d.companyList.push({ id: 'x', name: ' ', directors: [] }, { id: 'y', name: 'Y', directors: ['ghost'] }),
    issues: [
      { section: 'companies', path: ['x'], code: 'companyNameMissing' },
      { section: 'companies', path: ['x'], code: 'companyWithoutDirector' },
      { section: 'companies', path: ['y'], code: 'unknownDirector', params: { id: 'ghost' } },
    ],
  },
  // hasDirector
  { rule: 'hasDirector', name: 'two directors', issues: [] },
  { rule: 'hasDirector', name: 'no director', change: (d) => void (d.directors = []), issues: [{ section: 'directors', path: [], code: 'noDirector' }] },
  {
    rule: 'hasDirector',
    name: 'an unknown director',
    change: (d) => void d.directors.push('ghost'),
    issues: [{ section: 'directors', path: [2], code: 'unknownDirector', params: { id: 'ghost' } }],
  },
  // usersHaveRights
  { rule: 'usersHaveRights', name: 'rights 2 and 3', issues: [] },
  {
    rule: 'usersHaveRights',
    name: 'a user without rights',
    change: (d) => void (personOf(d, 'uma').accessRights = null),
    issues: [{ section: 'users', path: ['uma'], code: 'userWithoutRights' }],
  },
  {
    rule: 'usersHaveRights',
    name: 'rights 0 is no rights',
    change: (d) => void (personOf(d, 'uma').accessRights = 0),
    issues: [{ section: 'users', path: ['uma'], code: 'userWithoutRights' }],
  },
  {
    rule: 'usersHaveRights',
    name: 'rights 5 is not a choice',
    change: (d) => void (personOf(d, 'uma').accessRights = 5),
    issues: [{ section: 'users', path: ['uma'], code: 'userRightsInvalid', params: { rights: '5' } }],
  },
  {
    rule: 'usersHaveRights',
    name: 'a person marked isUser is a user',
    change: (d) => void (personOf(d, 'dan').isUser = true),
    issues: [{ section: 'users', path: ['dan'], code: 'userWithoutRights' }],
  },
  { rule: 'usersHaveRights', name: 'an unknown user', change: (d) => void d.users.push('ghost'), issues: [{ section: 'users', path: ['ghost'], code: 'unknownUser' }] },
  // hasFullRightsUser
  { rule: 'hasFullRightsUser', name: 'Dana has full rights', issues: [] },
  {
    rule: 'hasFullRightsUser',
    name: 'nobody with rights 2',
    change: (d) => void (personOf(d, 'dana').accessRights = 3),
    issues: [{ section: 'users', path: [], code: 'noFullRightsUser' }],
  },
  {
    rule: 'hasFullRightsUser',
    name: 'rights 2 on a person who is not a user does not count',
    change: (d) => {
      d.users = ['uma'];
      personOf(d, 'dana').isUser = false;
      personOf(d, 'dan').accessRights = 2;
    },
    issues: [{ section: 'users', path: [], code: 'noFullRightsUser' }],
  },
  // userEmailsChecked
  { rule: 'userEmailsChecked', name: 'skipped when the caller passes no states', issues: [] },
  { rule: 'userEmailsChecked', name: 'free (0) and existing employee (3) pass', options: { emailStates: { dana: 0, uma: 3 } }, issues: [] },
  { rule: 'userEmailsChecked', name: 'a failed check (-1) does not block (§5 lists 1, 2 and unchecked)', options: { emailStates: { dana: 0, uma: -1 } }, issues: [] },
  {
    rule: 'userEmailsChecked',
    name: 'exists (1), checking (2) and unchecked block',
    change: (d) => void (personOf(d, 'dan').isUser = true),
    options: { emailStates: { dana: 1, uma: 2 } },
    issues: [
      { section: 'users', path: ['dana'], code: 'userEmailExists' },
      { section: 'users', path: ['uma'], code: 'userEmailChecking' },
      { section: 'users', path: ['dan'], code: 'userEmailUnchecked' },
    ],
  },
];

describe('the ownership rules, one table', () => {
  it('has a valid and an invalid row for every rule', () => {
    for (const id of ownershipRuleIds) {
      expect(rows.some((r) => r.rule === id && r.issues.length === 0)).toBe(true);
      expect(
        rows.some((r) => r.rule === id && r.issues.length > 0),
        id,
      ).toBe(true);
    }
  });
  it.each(rows.map((r) => [`${r.rule}: ${r.name}`, r] as const))('%s', (_, row) => {
    const data = base();
    row.change?.(data);
    const options = { ...withSow, ...row.options };
    expect(ownershipRules[row.rule](data, options)).toEqual(row.issues);
    // the whole validation holds the row's issues, and the sections they name are not valid
    const all = validateOwnership(data, options);
    for (const issue of row.issues) expect(all).toContainEqual(issue);
    const flags = sectionFlags(data, { ...options, rootValid: true });
    for (const issue of row.issues) expect(flags[issue.section]).toBe(false);
  });
});

describe('the base company of the e2e', () => {
  it('is valid in every section and may be submitted', () => {
    expect(validateOwnership(base(), withSow)).toEqual([]);
    expect(sectionFlags(base(), { ...withSow, rootValid: true })).toEqual({ root: true, persons: true, companies: true, directors: true, shareholders: true, users: true });
    expect(canSubmit(base(), { ...withSow, rootValid: true })).toBe(true);
  });
  it('may not be submitted while the root forms are invalid or any section has an issue', () => {
    expect(canSubmit(base(), { ...withSow, rootValid: false })).toBe(false);
    const d = base();
    d.directors = [];
    expect(canSubmit(d, { ...withSow, rootValid: true })).toBe(false);
    expect(sectionFlags(d, { ...withSow, rootValid: true })).toMatchObject({ directors: false, shareholders: true, persons: true });
  });
});

describe('issue 17 e2e: a corporate shareholder owning 60 % whose own shareholder owns 50 %', () => {
  it('makes that person a 30 % UBO who is asked for the source of funds; lowering 50 to 40 gives 24 %, no UBO, source of funds cleared', () => {
    const d = base();
    personOf(d, 'paula').sourcesOfFunds = [];
    expect(formatPercent(effectiveShares(d.shareholders).get('paula')!)).toBe('30');
    expect(ultimateBeneficialOwners(d).map((u) => [u.personId, u.effectiveShare])).toEqual([
      ['dana', '40'],
      ['paula', '30'],
    ]);
    expect(ownershipRules.uboHasSourceOfFunds(d, withSow)).toEqual([{ section: 'persons', path: ['paula'], code: 'uboSourceOfFundsMissing' }]);

    personOf(d, 'paula').sourcesOfFunds = sof;
    expect(canSubmit(d, { ...withSow, rootValid: true })).toBe(true);

    const lowered = setShare(d, [1, 0], 40);
    expect(formatPercent(effectiveShares(lowered.shareholders).get('paula')!)).toBe('24');
    expect(ultimateBeneficialOwners(lowered).map((u) => u.personId)).toEqual(['dana']);
    expect(personOf(lowered, 'paula').sourcesOfFunds).toEqual([]);
    expect(personOf(lowered, 'dana').sourcesOfFunds).toEqual(sof); // not below the lowered node
    expect(ownershipRules.uboHasSourceOfFunds(lowered, withSow)).toEqual([]);
    // the draft given in is untouched
    expect(personOf(d, 'paula').sourcesOfFunds).toEqual(sof);
    expect(d.shareholders[1]!.shareholders[0]!.share).toBe(50);
  });
});

describe('lowering and raising a share', () => {
  it('lowering to exactly 25 % clears the source of funds (§4 "25 percent or below"), and the person, still a UBO (§5 "25 percent or more"), is asked again', () => {
    const lowered = setShare(base(), [1], 50); // Holdco 60 -> 50: Paula 25 %
    expect(formatPercent(effectiveShares(lowered.shareholders).get('paula')!)).toBe('25');
    expect(personOf(lowered, 'paula').sourcesOfFunds).toEqual([]);
    expect(ownershipRules.uboHasSourceOfFunds(lowered, withSow)).toEqual([{ section: 'persons', path: ['paula'], code: 'uboSourceOfFundsMissing' }]);
  });
  it('lowering that leaves the person above 25 % keeps the data', () => {
    const lowered = setShare(base(), [1], 55); // Paula 27.5 %
    expect(personOf(lowered, 'paula').sourcesOfFunds).toEqual(sof);
  });
  it('raising a share clears nothing, even a person at 25 % or below', () => {
    const d = base();
    d.shareholders[1]!.shareholders = [P('paula', 20)]; // 12 %
    const raised = setShare(d, [1, 0], 30); // 18 %
    expect(personOf(raised, 'paula').sourcesOfFunds).toEqual(sof);
    expect(raised.personList).toBe(d.personList);
  });
  it('a person reached by two paths is cleared only when their sum is 25 % or below', () => {
    const d = base();
    d.shareholders = [P('paula', 20), C('holdco', 60, [P('paula', 50)])]; // 20 + 30 = 50 %
    expect(personOf(setShare(d, [1, 0], 10), 'paula').sourcesOfFunds).toEqual(sof); // 20 + 6 = 26 %
    expect(personOf(setShare(d, [1, 0], 5), 'paula').sourcesOfFunds).toEqual([]); // 20 + 3 = 23 %
  });
  it('removing a shareholder clears those it held at 25 % or below and removes persons nobody uses', () => {
    const d = base();
    d.ultimateBeneficiaryOwners = ['dana'];
    const removed = removeShareholder(d, [1]);
    expect(removed.shareholders).toEqual([P('dana', 40)]);
    expect(removed.companyList).toEqual([]);
    expect(removed.personList.map((p) => p.id)).toEqual(['dana', 'dan', 'uma']); // Hector (Holdco's director) and Paula gone
  });
  it('a person kept by another list (a declared owner) loses the source of funds when the shareholder holding them is removed', () => {
    const removed = removeShareholder(base(), [1]); // Paula is still in ultimateBeneficiaryOwners
    expect(removed.personList.map((p) => p.id)).toEqual(['dana', 'dan', 'paula', 'uma']);
    expect(personOf(removed, 'paula').sourcesOfFunds).toEqual([]);
    expect(personOf(removed, 'dana').sourcesOfFunds).toEqual(sof);
  });
});

describe('removing persons no list uses (§4)', () => {
  it('keeps directors, owners, shareholders at any depth, directors of held companies and users; removes the rest', () => {
    const d = base();
    d.personList.push(person('stray'), person('invited', { isUser: true, accessRights: 1 }));
    expect(removeUnused(d).personList.map((p) => p.id)).toEqual(['dana', 'dan', 'hector', 'paula', 'uma', 'invited']);
  });
  it('a company no longer held is removed with its director', () => {
    const d = base();
    d.shareholders = [P('dana', 100)];
    d.ultimateBeneficiaryOwners = ['dana'];
    expect(removeUnusedPersons(d).personList.map((p) => p.id)).toContain('hector'); // still Holdco's director
    const pruned = removeUnused(d);
    expect(pruned.companyList).toEqual([]);
    expect(pruned.personList.map((p) => p.id)).toEqual(['dana', 'dan', 'uma']);
  });
  it('returns the same draft when nothing is unused', () => {
    const d = base();
    expect(removeUnused(d)).toBe(d);
  });
});

describe('exact arithmetic', () => {
  it('reads shares into hundredths without float drift', () => {
    expect(shareHundredths(33.33)).toBe(3333);
    expect(shareHundredths(0.1 + 0.2)).toBe(30);
    expect(shareHundredths(33.333)).toBeNull();
    expect(shareHundredths('12,5')).toBe(1250);
    expect(shareHundredths('12.345')).toBeNull();
    expect(shareHundredths(Number.POSITIVE_INFINITY)).toBeNull();
    expect(levelTotal([P('a', 33.33), P('b', 33.33), P('c', 33.34)])).toBe('100');
  });
  it('multiplies and sums effective shares exactly', () => {
    const tree = [C('a', 33.33, [C('b', 33.33, [P('x', 33.33)]), P('x', 0.01)])];
    // 33.33 % of 33.33 % of 33.33 % = 3.7025927037 %, plus 33.33 % of 0.01 % = 0.003333 %
    expect(formatPercent(effectiveShares(tree).get('x')!)).toBe('3.7059257037');
    expect(formatPercent(percent.of(percent.from(33.33), percent.from(33.33)))).toBe('11.108889');
    expect(formatPercent(percent.from('33.33'), 1)).toBe('33.3');
    expect(formatPercent({ units: 24995n, scale: 3 }, 2)).toBe('25'); // rounded half up
    expect(formatPercent({ units: 24994n, scale: 3 }, 2)).toBe('24.99');
    expect(() => percent.from(24.995)).toThrow();
  });
});

describe('helpers for the views', () => {
  it('flattens the tree for drawing with names, shares and effective shares', () => {
    expect(flattenTree(base())).toEqual([
      { path: [0], depth: 0, type: 1, id: 'dana', name: 'First dana Last dana', share: '40', effectiveShare: '40', personTotalShare: '40', isUbo: true },
      { path: [1], depth: 0, type: 2, id: 'holdco', name: 'Holdco Ltd', share: '60', effectiveShare: '60', isUbo: false },
      { path: [1, 0], depth: 1, type: 1, id: 'paula', name: 'First paula Last paula', share: '50', effectiveShare: '30', personTotalShare: '30', isUbo: true },
    ]);
  });
});
