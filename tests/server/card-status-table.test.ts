/**
 * The status table of document 2 §4 against the platform (issue 16 item 5): every card action the
 * platform exposes as a call, on a card in every status id of CardStatus. The card's status is set
 * directly in the database before each call; the call must succeed exactly where
 * CARD_ACTION_STATUSES allows the action and answer VF cardStatus everywhere else. The rules on
 * the card rather than its status are checked the same way: renaming a physical card answers
 * cardVirtualOnly, activating or upgrading the shipping of a virtual card cardPhysicalOnly, in
 * every status. One app and one database for the whole file: one virtual and one physical card of
 * one customer serve every case.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CARD_ACTION_STATUSES, CARD_STATUS_IDS, type CardAction, type CardStatusId } from '../../api/cards.ts';
import { accounts } from '../../server/modules/accounts/accounts.tables.ts';
import { cards } from '../../server/modules/cards/cards.tables.ts';
import { CARD_PRODUCTS } from '../../server/modules/cards/products.ts';
import { customerAddresses } from '../../server/modules/profile/profile.tables.ts';
import { demoUserByKey } from '../../server/db/demo-users.ts';
import { users } from '../../server/modules/customers/customers.tables.ts';
import { callMethod, createTestApp, signIn, type MethodAnswer, type TestApp } from './harness.ts';

let t: TestApp;
let token: string;
let virtualId: number;
let physicalId: number;
let physicalLast4: string;

const key = () => `k-${Math.random().toString(36).slice(2)}`;
const call = (name: string, body: Record<string, unknown>) => callMethod(t.app, name, body, { token, headers: { 'idempotency-key': key() } });
const typeOf = (kind: 'physical' | 'virtual') => CARD_PRODUCTS.find((p) => p.countryCode === 'IT' && p.kind === kind && p.currency === 'EUR')!.type;

beforeAll(async () => {
  t = await createTestApp({ demoData: 'without-history', cardQueue: null });
  token = (await signIn(t.app, 'rita')).accessToken;
  const [user] = await t.db.select({ customerId: users.customerId }).from(users).where(eq(users.email, demoUserByKey.rita.email));
  const [address] = await t.db
    .insert(customerAddresses)
    .values({ customerId: user!.customerId, address1: 'Via Roma 1', city: 'Roma', postalCode: '00100', countryCode: 'IT', status: 'confirmed' })
    .returning({ id: customerAddresses.id });
  const list = (await call('balanceInquiry', {})).body as unknown as { accounts: { account: { accountId: number; currency: string }[] } };
  const feeAccountId = list.accounts.account.find((a) => a.currency === 'EUR')!.accountId;
  const virtual = await call('cardApply', { type: typeOf('virtual'), feeAccountId });
  const physical = await call('cardApply', { type: typeOf('physical'), feeAccountId, addressId: address!.id, shippingOptionId: 1 });
  virtualId = virtual.body.accountId as number;
  physicalId = physical.body.accountId as number;
  const [card] = await t.db.select({ last4: cards.last4 }).from(cards).where(eq(cards.accountId, physicalId));
  physicalLast4 = card!.last4;
}, 60_000);
afterAll(async () => {
  await t?.close();
});

interface Case {
  action: CardAction;
  call: string;
  card: () => number;
  body: (accountId: number) => Record<string, unknown>;
}

/** Every action exposed as a call, on the card kind it applies to. */
const CASES: Case[] = [
  { action: 'pause', call: 'cardPause', card: () => virtualId, body: (accountId) => ({ accountId }) },
  { action: 'unpause', call: 'cardUnpause', card: () => virtualId, body: (accountId) => ({ accountId }) },
  { action: 'block', call: 'cardBlock', card: () => virtualId, body: (accountId) => ({ accountId }) },
  { action: 'editName', call: 'setAlias', card: () => virtualId, body: (accountId) => ({ accountId, cardAliasName: 'Travel' }) },
  { action: 'pin', call: 'changePin', card: () => physicalId, body: (accountId) => ({ accountId, confirm: true, pinCode: '7391', pinCodeRepeat: '7391' }) },
  { action: 'pin', call: 'showPin', card: () => physicalId, body: (accountId) => ({ accountId, reveal: 'pin' }) },
  { action: 'reveal', call: 'showPin', card: () => virtualId, body: (accountId) => ({ accountId, reveal: 'card' }) },
  { action: 'activate', call: 'cardActivate', card: () => physicalId, body: (accountId) => ({ accountId, extraParams: { cardLast4: physicalLast4 } }) },
  { action: 'upgradeShipping', call: 'upgradeShipping', card: () => physicalId, body: (accountId) => ({ accountId }) },
  { action: 'reissue', call: 'cardReissue', card: () => virtualId, body: (accountId) => ({ accountId, isExpressShipping: false }) },
];

async function prepare(accountId: number, status: CardStatusId): Promise<void> {
  await t.db.update(accounts).set({ status }).where(eq(accounts.accountId, accountId));
  // an upgrade allowed earlier must not hide the status rule: the card ships by standard again
  await t.db
    .update(cards)
    .set({ shipping: accountId === physicalId ? 'standard' : null })
    .where(eq(cards.accountId, accountId));
}

function outcome(res: MethodAnswer): string {
  if (res.body.responseCode === '00') return 'allowed';
  const errors = (res.body.validationErrors as { param: string; code: string }[] | undefined) ?? [];
  return `${res.body.responseCode} ${errors.map((e) => `${e.param}:${e.code}`).join(',')}`;
}

describe.each(CASES)('$call ($action)', (c) => {
  it.each(CARD_STATUS_IDS)('in status %i', async (status) => {
    await prepare(c.card(), status);
    const expected = (CARD_ACTION_STATUSES[c.action] as readonly number[]).includes(status) ? 'allowed' : 'VF accountId:cardStatus';
    expect(outcome(await call(c.call, c.body(c.card())))).toBe(expected);
  });
});

describe('rules on the card, in every status', () => {
  it.each(CARD_STATUS_IDS)('status %i: a physical card is never renamed, a virtual card never activated nor upgraded', async (status) => {
    await prepare(physicalId, status);
    await prepare(virtualId, status);
    expect(outcome(await call('setAlias', { accountId: physicalId, cardAliasName: 'Travel' }))).toBe('VF accountId:cardVirtualOnly');
    expect(outcome(await call('cardActivate', { accountId: virtualId, extraParams: { cardLast4: '1234' } }))).toBe('VF accountId:cardPhysicalOnly');
    expect(outcome(await call('upgradeShipping', { accountId: virtualId }))).toBe('VF accountId:cardPhysicalOnly');
  });
});
