/**
 * Property tests of the ownership rules (api/ownership.ts) over
 * random registrations: random shareholder trees (persons and companies, up to four levels, shares
 * with two decimals biased to the edges 25, 50, 100, 33.33), random person and company lists, users,
 * rights, directors and owners. Effective shares are checked against an independent oracle (path
 * products as plain fractions over 10000^depth).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  effectiveShares,
  formatPercent,
  nodeAt,
  percent,
  removeUnused,
  sectionFlags,
  setShare,
  ultimateBeneficialOwners,
  validateOwnership,
  walkTree,
  type Company,
  type OwnershipData,
  type OwnershipIssue,
  type Percent,
  type Person,
  type ShareholderNode,
} from '../../api/ownership.ts';

const PERSONS = ['p0', 'p1', 'p2', 'p3', 'p4', 'p5'];
const COMPANIES = ['c0', 'c1', 'c2'];
const SEED = Number(process.env.OWNERSHIP_PROPERTY_SEED ?? 20261127);
const RUNS = { numRuns: 300, seed: SEED };

/** a node with a label, unique in its tree, so that a node can be followed when its siblings are reordered */
type Labelled = ShareholderNode & { label?: string };

const hundredths = fc.oneof(fc.integer({ min: 1, max: 10000 }), fc.constantFrom(2500, 5000, 10000, 3333, 3334, 6000, 4000, 1000, 4166, 4167));

const { node } = fc.letrec<{ node: ShareholderNode; person: ShareholderNode; company: ShareholderNode }>((tie) => ({
  node: fc.oneof({ maxDepth: 3, depthIdentifier: 'tree' }, tie('person'), tie('company')),
  person: fc.record({ type: fc.constant(1 as const), personId: fc.constantFrom(...PERSONS), share: hundredths.map((h) => h / 100), shareholders: fc.constant([]) }),
  company: fc.record({
    type: fc.constant(2 as const),
    companyId: fc.constantFrom(...COMPANIES),
    share: hundredths.map((h) => h / 100),
    shareholders: fc.array(tie('node'), { maxLength: 3, depthIdentifier: 'tree' }),
  }),
}));

/** labels every node in pre-order */
function label(nodes: ShareholderNode[], prefix = ''): Labelled[] {
  return nodes.map((n, i) => ({ ...n, label: `${prefix}${i}`, shareholders: label(n.shareholders, `${prefix}${i}.`) }));
}

/** caps every level's total at 100 % (scaling its shares down, each at least 0.01) */
function capLevels(nodes: ShareholderNode[]): ShareholderNode[] {
  const hs = nodes.map((n) => Math.round(n.share * 100));
  const sum = hs.reduce((a, b) => a + b, 0);
  let scaled = sum > 10000 ? hs.map((h) => Math.max(1, Math.floor((h * 10000) / sum))) : hs;
  while (scaled.reduce((a, b) => a + b, 0) > 10000) {
    const i = scaled.indexOf(Math.max(...scaled));
    scaled = scaled.map((h, j) => (j === i ? h - 1 : h));
  }
  return nodes.map((n, i) => ({ ...n, share: scaled[i]! / 100, shareholders: capLevels(n.shareholders) }));
}

const sources = fc.array(fc.record({ sourceId: fc.integer({ min: 1, max: 10 }), details: fc.constantFrom('Salary', '', '  ', null, 'Dividends') }), { maxLength: 2 });
const personArb = (id: string): fc.Arbitrary<Person> =>
  fc.record({
    id: fc.constant(id),
    firstName: fc.constantFrom('Ana', ' ', 'Ion'),
    lastName: fc.constantFrom('Pop', 'Rus', ''),
    isUser: fc.boolean(),
    accessRights: fc.constantFrom(null, 0, 1, 2, 2, 3, 4, 5),
    sourcesOfFunds: fc.oneof(fc.constant(null), sources),
  });
const companyArb = (id: string): fc.Arbitrary<Company> =>
  fc.record({ id: fc.constant(id), name: fc.constantFrom('Holdco', ''), directors: fc.subarray(PERSONS, { maxLength: 2 }) });

/** a random registration; `capped` keeps every level's total at most 100 % */
const registration = (capped: boolean) =>
  fc
    .record({
      tree: fc.array(node, { minLength: 0, maxLength: 4 }),
      personList: fc.oneof(fc.constant(PERSONS), fc.subarray(PERSONS)).chain((ids) => fc.tuple(...ids.map(personArb))),
      companyList: fc.subarray(COMPANIES).chain((ids) => fc.tuple(...ids.map(companyArb))),
      directors: fc.subarray(PERSONS, { maxLength: 3 }),
      ultimateBeneficiaryOwners: fc.subarray(PERSONS, { maxLength: 2 }),
      users: fc.subarray(PERSONS, { maxLength: 3 }),
      sourceOfWealth: fc.boolean(),
    })
    .map(({ tree, sourceOfWealth, ...rest }): { data: OwnershipData; sourceOfWealth: boolean } => ({
      data: { ...rest, personList: [...rest.personList], companyList: [...rest.companyList], shareholders: label(capped ? capLevels(tree) : tree) },
      sourceOfWealth,
    }));

/** the oracle: each person's effective share as a fraction num / 10000^maxDepth, from the hundredths along each path */
function oracle(tree: readonly ShareholderNode[]): Map<string, { num: bigint; den: bigint }> {
  const paths: { id: string; hs: bigint[] }[] = [];
  const go = (nodes: readonly ShareholderNode[], hs: bigint[]) => {
    for (const n of nodes) {
      const here = [...hs, BigInt(Math.round(n.share * 100))];
      if (n.type === 1) paths.push({ id: String(n.personId), hs: here });
      go(n.shareholders, here);
    }
  };
  go(tree, []);
  const depth = Math.max(1, ...paths.map((p) => p.hs.length));
  const den = 10000n ** BigInt(depth);
  const out = new Map<string, { num: bigint; den: bigint }>();
  for (const p of paths) {
    const num = p.hs.reduce((a, b) => a * b, 1n) * 10000n ** BigInt(depth - p.hs.length);
    out.set(p.id, { num: (out.get(p.id)?.num ?? 0n) + num, den });
  }
  return out;
}

/** the oracle's fraction (of 1) as an exact percent string */
function oracleString({ num, den }: { num: bigint; den: bigint }): string {
  const scale = den.toString().length - 1 - 2; // den = 10^k; percent = num / 10^(k-2)
  return formatPercent({ units: num, scale: Math.max(0, scale) });
}

/** a shareholder issue's path given as labels, so issues compare across reorderings */
const byLabel = (tree: readonly ShareholderNode[], issues: OwnershipIssue[]) =>
  issues
    .map((i) =>
      i.section !== 'shareholders' ? JSON.stringify(i) : JSON.stringify({ ...i, path: i.path.length === 0 ? 'root' : (nodeAt(tree, i.path as number[]) as Labelled).label }),
    )
    .sort();

/** shuffles every level of the tree by a list of numbers */
function reorder(nodes: readonly ShareholderNode[], keys: number[], at = { i: 0 }): ShareholderNode[] {
  const withKeys = nodes.map((n) => ({ n, k: keys[at.i++ % keys.length] ?? 0 }));
  withKeys.sort((a, b) => a.k - b.k);
  return withKeys.map(({ n }) => ({ ...n, shareholders: reorder(n.shareholders, keys, at) }));
}

const sumPercent = (ps: Iterable<Percent>) => [...ps].reduce((a, b) => percent.add(a, b), percent.zero);

describe('random ownership trees', () => {
  it('effective shares equal the oracle; with every level at most 100 %, all persons together hold at most the top level total (and at most 100 %)', () => {
    fc.assert(
      fc.property(registration(true), ({ data }) => {
        const shares = effectiveShares(data.shareholders);
        const expected = oracle(data.shareholders);
        expect(new Set(shares.keys())).toEqual(new Set(expected.keys()));
        for (const [id, p] of shares) expect(formatPercent(p)).toBe(oracleString(expected.get(id)!));
        const top = sumPercent(data.shareholders.map((n) => percent.from(n.share)));
        const persons = sumPercent(shares.values());
        expect(percent.compare(persons, top)).toBeLessThanOrEqual(0);
        expect(percent.compare(persons, percent.from(100))).toBeLessThanOrEqual(0);
      }),
      RUNS,
    );
  });

  it('the UBOs are exactly the persons whose effective share is 25 % or more', () => {
    const seen = { nestedUbo: 0, exactly25: 0, twoPaths: 0 };
    fc.assert(
      fc.property(registration(false), ({ data }) => {
        const expected = [...oracle(data.shareholders)].filter(([, { num, den }]) => num * 4n >= den).map(([id]) => id);
        const visits = walkTree(data.shareholders).filter((v) => v.node.type === 1);
        if (visits.some((v) => v.depth > 0 && expected.includes(String(v.node.personId)))) seen.nestedUbo++;
        if ([...oracle(data.shareholders).values()].some(({ num, den }) => num * 4n === den)) seen.exactly25++;
        if (new Set(visits.map((v) => v.node.personId)).size < visits.length) seen.twoPaths++;
        expect(
          ultimateBeneficialOwners(data)
            .map((u) => u.personId)
            .sort(),
        ).toEqual(expected.sort());
      }),
      RUNS,
    );
    // the trees reach the interesting cases: UBOs below a company, exactly 25 %, a person on two paths
    expect(seen.nestedUbo).toBeGreaterThan(20);
    expect(seen.exactly25).toBeGreaterThan(3);
    expect(seen.twoPaths).toBeGreaterThan(20);
  });

  it('validation is the same whatever the order of siblings', () => {
    fc.assert(
      fc.property(registration(false), fc.array(fc.integer(), { minLength: 1, maxLength: 20 }), fc.boolean(), ({ data, sourceOfWealth }, keys, rootValid) => {
        const shuffled = { ...data, shareholders: reorder(data.shareholders, keys) };
        const options = { sourceOfWealth, emailStates: {} };
        expect(byLabel(shuffled.shareholders, validateOwnership(shuffled, options))).toEqual(byLabel(data.shareholders, validateOwnership(data, options)));
        expect(sectionFlags(shuffled, { ...options, rootValid })).toEqual(sectionFlags(data, { ...options, rootValid }));
        expect(ultimateBeneficialOwners(shuffled).map((u) => [u.personId, u.effectiveShare])).toEqual(ultimateBeneficialOwners(data).map((u) => [u.personId, u.effectiveShare]));
      }),
      RUNS,
    );
  });

  it('removing unused persons is idempotent, never removes a user or anyone a list uses, and removes everyone else', () => {
    fc.assert(
      fc.property(registration(false), ({ data }) => {
        const once = removeUnused(data);
        expect(removeUnused(once)).toEqual(once);
        const held = new Set(walkTree(data.shareholders).flatMap(({ node: n }) => (n.type === 2 ? [String(n.companyId)] : [])));
        expect(once.companyList.map((c) => c.id)).toEqual(data.companyList.filter((c) => held.has(String(c.id))).map((c) => c.id));
        const used = new Set([
          ...data.directors,
          ...data.ultimateBeneficiaryOwners,
          ...data.users,
          ...data.personList.filter((p) => p.isUser).map((p) => p.id),
          ...walkTree(data.shareholders).flatMap(({ node: n }) => (n.type === 1 ? [n.personId] : [])),
          ...data.companyList.filter((c) => held.has(String(c.id))).flatMap((c) => c.directors),
        ]);
        expect(once.personList.map((p) => p.id)).toEqual(data.personList.filter((p) => used.has(p.id)).map((p) => p.id));
        // what is kept is kept as it was
        for (const p of once.personList) expect(p).toBe(data.personList.find((q) => q.id === p.id));
      }),
      RUNS,
    );
  });

  it('lowering a share clears the source of funds of exactly the persons below it now at 25 % or below; raising clears nothing', () => {
    const seen = { cleared: 0, keptAbove: 0 };
    fc.assert(
      // the new share: any share, or a fraction (1-99 %) of the old one (lowering more often)
      fc.property(
        registration(false),
        fc.nat(),
        fc.oneof(
          hundredths.map((h) => ({ h })),
          fc.integer({ min: 1, max: 99 }).map((pct) => ({ pct })),
        ),
        ({ data }, pick, change) => {
          const visits = walkTree(data.shareholders);
          fc.pre(visits.length > 0);
          const { path, node: old } = visits[pick % visits.length]!;
          const h = 'h' in change ? change.h : Math.max(1, Math.floor((Math.round(old.share * 100) * change.pct) / 100));
          const share = h / 100;
          const next = setShare(data, path, share);
          expect(nodeAt(next.shareholders, path)!.share).toBe(share);
          const lowered = h < Math.round(old.share * 100);
          const below = new Set(walkTree([old]).flatMap(({ node: n }) => (n.type === 1 ? [String(n.personId)] : [])));
          const after = oracle(next.shareholders);
          for (const p of data.personList) {
            const now = next.personList.find((q) => q.id === p.id)!;
            const frac = after.get(String(p.id));
            const atOrBelow25 = !frac || frac.num * 4n <= frac.den;
            if (lowered && below.has(String(p.id)) && atOrBelow25 && (p.sourcesOfFunds ?? []).length > 0) {
              expect(now.sourcesOfFunds).toEqual([]);
              expect({ ...now, sourcesOfFunds: p.sourcesOfFunds }).toEqual(p);
              seen.cleared++;
            } else {
              expect(now).toBe(p);
              if (lowered && below.has(String(p.id)) && !atOrBelow25 && (p.sourcesOfFunds ?? []).length > 0) seen.keptAbove++;
            }
          }
        },
      ),
      RUNS,
    );
    expect(seen.cleared).toBeGreaterThan(10);
    expect(seen.keptAbove).toBeGreaterThan(5);
  });
});
