/**
 * Document 1 §2 "Post-login start page decision (in order)" and "After access info is loaded":
 * every rule, and that an earlier rule wins over every later one. The machine's guards must be
 * these rules in this order (checked against the chart at the end).
 */
import { describe, expect, it } from 'vitest';
import {
  accessRuleOrder,
  decideAfterAccess,
  decideStart,
  startRuleOrder,
  type AccessFacts,
  type StartFacts,
} from '../../machines/start-page/start-page.rules.ts';
import { startPageMachine } from '../../machines/start-page/start-page.machine.ts';

const plain: StartFacts = {
  customer: {
    customerType: 'personal',
    isAdmin: false,
    isHaveRelatedAccounts: false,
    useOldWeb: false,
    oldWebUrl: null,
    isNeedPersonalInfoUpdate: false,
    isNeedKyc: false,
    isTaxSectionActionRequired: false,
  },
  hasCustomCustomerId: false,
  rememberedPath: null,
};

const facts = (customer: Partial<StartFacts['customer']>, rest: Partial<Omit<StartFacts, 'customer'>> = {}): StartFacts => ({
  ...plain,
  ...rest,
  customer: { ...plain.customer, ...customer },
});

/** For each rule, facts that make it (and only the rules before it, if any) hold. */
const startTable: [ReturnType<typeof decideStart>, StartFacts][] = [
  ['usesLegacyWeb', facts({ useOldWeb: true, oldWebUrl: 'https://old.example' })],
  ['isAdministrator', facts({ isAdmin: true })],
  ['isBusinessWithoutRelatedAccounts', facts({ customerType: 'business' })],
  ['isBusinessWithRelatedAccounts', facts({ customerType: 'business', isHaveRelatedAccounts: true })],
  ['needsPersonalInfoUpdate', facts({ isNeedPersonalInfoUpdate: true })],
  ['needsKyc', facts({ isNeedKyc: true })],
  ['needsTaxSectionAction', facts({ isTaxSectionActionRequired: true })],
  ['hasRememberedPath', facts({}, { rememberedPath: '/history' })],
  ['otherwise', plain],
];

/** Facts where every rule holds at once: the decision must be the first one. */
const everything = (from: number): StartFacts => {
  const all = facts(
    {
      useOldWeb: from <= 0,
      oldWebUrl: 'https://old.example',
      isAdmin: from <= 1,
      customerType: from <= 3 ? 'business' : 'personal',
      isHaveRelatedAccounts: from === 3,
      isNeedPersonalInfoUpdate: true,
      isNeedKyc: true,
      isTaxSectionActionRequired: true,
    },
    { rememberedPath: '/history' },
  );
  return all;
};

describe('start page: first decision', () => {
  it.each(startTable)('%s', (rule, f) => {
    expect(decideStart(f)).toBe(rule);
  });

  it('covers every rule in the table, in order', () => {
    expect(startTable.map(([rule]) => rule)).toEqual(startRuleOrder);
  });

  it.each(startRuleOrder.slice(0, -1).map((rule, i) => [rule, i] as const))(
    '%s wins over every later rule',
    (rule, i) => {
      // rule 3 and 4 exclude each other (with or without related accounts)
      const f = everything(i);
      if (i >= 4) {
        f.customer.useOldWeb = false;
        f.customer.isAdmin = false;
        f.customer.customerType = 'personal';
      }
      if (i >= 5) f.customer.isNeedPersonalInfoUpdate = false;
      if (i >= 6) f.customer.isNeedKyc = false;
      if (i >= 7) f.customer.isTaxSectionActionRequired = false;
      expect(decideStart(f)).toBe(rule);
    },
  );

  it('skips the legacy web when a custom customer id is set', () => {
    expect(decideStart(facts({ useOldWeb: true, oldWebUrl: 'https://old.example' }, { hasCustomCustomerId: true }))).toBe('otherwise');
  });

  it('needs a legacy URL to send anyone to the legacy web', () => {
    expect(decideStart(facts({ useOldWeb: true, oldWebUrl: null }))).toBe('otherwise');
  });
});

const access = (over: Partial<AccessFacts['accessInfo']> = {}, rememberedPath: string | null = null): AccessFacts => ({
  accessInfo: {
    isNeedKyc: false,
    businessRepresentativePositionIds: [],
    accessList: { balanceInfo: true },
    taxResidencySelfCertificationDocumentStatus: 'validated',
    ...over,
  },
  rememberedPath,
});

describe('start page: after access info is loaded', () => {
  const table: [ReturnType<typeof decideAfterAccess>, AccessFacts][] = [
    ['accessNeedsKyc', access({ isNeedKyc: true, businessRepresentativePositionIds: [2], accessList: { balanceInfo: false } }, '/x')],
    ['isRepresentativeWithoutBalanceInfo', access({ businessRepresentativePositionIds: [8], accessList: { balanceInfo: false } }, '/x')],
    ['hasRememberedPath', access({ taxResidencySelfCertificationDocumentStatus: 'none' }, '/history')],
    ['selfCertificationValidatedOrPending', access({ taxResidencySelfCertificationDocumentStatus: 'pending' })],
    ['otherwise', access({ taxResidencySelfCertificationDocumentStatus: 'rejected' })],
  ];
  it.each(table)('%s', (rule, f) => {
    expect(decideAfterAccess(f)).toBe(rule);
  });

  it('covers every rule in order', () => {
    expect(table.map(([rule]) => rule)).toEqual(accessRuleOrder);
  });

  it('treats an authorised user (no representative position) with no balance info as not a representative', () => {
    expect(decideAfterAccess(access({ businessRepresentativePositionIds: [5], accessList: { balanceInfo: false } }))).toBe(
      'selfCertificationValidatedOrPending',
    );
  });

  it.each(['validated', 'pending'] as const)('goes home when the self-certification is %s', (status) => {
    expect(decideAfterAccess(access({ taxResidencySelfCertificationDocumentStatus: status }))).toBe('selfCertificationValidatedOrPending');
  });
});

describe('the chart applies the rules in the same order', () => {
  const guardsOf = (state: 'deciding' | 'afterAccess') =>
    (startPageMachine.root.states[state]?.always ?? []).map((t) => {
      const g = t.guard as { type?: string } | string | undefined;
      return typeof g === 'string' ? g : (g?.type ?? 'otherwise');
    });
  it('deciding', () => expect(guardsOf('deciding')).toEqual(startRuleOrder));
  it('afterAccess', () => expect(guardsOf('afterAccess')).toEqual(accessRuleOrder));
});
