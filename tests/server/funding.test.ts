/**
 * "Add money" calls (api/funding.ts) on the real platform: each open account's own IBAN (which
 * names the account again) or wallet address, the viewed marks per user, and refusals that change
 * nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateIBAN } from 'ibantools';
import { callMethod, createTestApp, signIn, type TestApp } from './harness.ts';
import { accountOfIban, DEFAULT_RECEIVING_BANK } from '../../server/modules/rails/receiving.ts';

let t: TestApp;
let token: string;

beforeAll(async () => {
  t = await createTestApp({ demoData: 'without-history' });
  token = (await signIn(t.app, 'rita')).accessToken;
}, 60_000);
afterAll(async () => t?.close());

const call = (name: string, body: Record<string, unknown> = {}) => callMethod(t.app, name, body, { token });

describe('payment instructions', () => {
  it("give each fiat account its own IBAN at the provider's bank, new until viewed", async () => {
    const accounts = (await call('balanceInquiry')).body as unknown as { accounts: { account: { accountId: number; currency: string }[] } };
    const answer = await call('paymentInstructions');
    expect(answer.body.responseCode).toBe('00');
    const instructions = answer.body.instructions as { instructionId: number; accountId: number; currency: string; iban: string | null; bic: string | null; scheme: string; viewed: boolean; beneficiaryName: string }[];
    const fiat = accounts.accounts.account.filter((a) => !['BTC', 'ETH'].includes(a.currency));
    expect(instructions.filter((i) => i.instructionId === 1).map((i) => i.accountId)).toEqual(fiat.map((a) => a.accountId));
    for (const i of instructions.filter((x) => x.instructionId === 1)) {
      expect(validateIBAN(i.iban!).valid).toBe(true);
      expect(accountOfIban(DEFAULT_RECEIVING_BANK, i.iban!)).toBe(i.accountId);
      expect(i.bic).toBe(DEFAULT_RECEIVING_BANK.bic);
      expect(i.scheme).toBe(i.currency === 'EUR' ? 'sepa' : 'swift');
      expect(i.viewed).toBe(false);
      expect(i.beneficiaryName).toMatch(/\S+ \S+/);
    }
  });

  it('mark one viewed for this user, once (a second mark changes nothing)', async () => {
    const [first] = (await call('paymentInstructions')).body.instructions as { instructionId: number; accountId: number }[];
    expect((await call('paymentInstructionMarkViewed', { instructionId: first!.instructionId, accountId: first!.accountId })).body.responseCode).toBe('00');
    expect((await call('paymentInstructionMarkViewed', { instructionId: first!.instructionId, accountId: first!.accountId })).body.responseCode).toBe('00');
    const one = await call('paymentInstructions', { accountId: first!.accountId });
    expect(one.body.instructions).toEqual([expect.objectContaining({ accountId: first!.accountId, viewed: true })]);
  });

  it("refuse another customer's account (ENOA) and an instruction the account does not have (VF), marking nothing", async () => {
    const boris = (await signIn(t.app, 'boris')).accessToken;
    const borisAccounts = (await callMethod(t.app, 'balanceInquiry', {}, { token: boris })).body as unknown as { accounts: { account: { accountId: number }[] } };
    const foreign = borisAccounts.accounts.account[0]!.accountId;
    expect((await call('paymentInstructions', { accountId: foreign })).body.responseCode).toBe('ENOA');
    expect((await call('paymentInstructionMarkViewed', { instructionId: 1, accountId: foreign })).body.responseCode).toBe('ENOA');
    const [mine] = ((await call('paymentInstructions')).body.instructions as { accountId: number; instructionId: number; viewed: boolean }[]).filter((i) => !i.viewed);
    const wrong = await call('paymentInstructionMarkViewed', { instructionId: 2, accountId: mine!.accountId });
    expect(wrong.body).toMatchObject({ responseCode: 'VF', validationErrors: [expect.objectContaining({ param: 'instructionId', code: 'notAllowed' })] });
    expect((await call('paymentInstructions', { accountId: mine!.accountId })).body.instructions).toEqual([expect.objectContaining({ viewed: false })]);
    expect((await callMethod(t.app, 'paymentInstructions', {})).body.responseCode).toBe('AU');
  });
});
