/** The network simulator (server/modules/rails/simulator.ts): chosen outcomes, the share of returns, and resubmission. */
import { describe, expect, it } from 'vitest';
import { RAIL_REASONS, reasonOf } from '../../server/modules/rails/reasons.ts';
import { adapterModulesFrom, RailConfigError, simulatorOptionsFrom } from '../../server/modules/rails/adapters.ts';
import { chosenCode, createSimulator, DEFAULT_SIMULATOR_OPTIONS, outcomeOf } from '../../server/modules/rails/simulator.ts';
import type { Instruction, Rail, StatusEvent } from '../../server/modules/rails/rails.ts';

const instruction = (rail: Rail, beneficiary: Record<string, string>, instructionId = 1): Instruction => ({
  instructionId,
  rail,
  direction: 'out',
  currency: 'EUR',
  amountMinor: 1_000n,
  beneficiary,
  reference: null,
});
const none = { ...DEFAULT_SIMULATOR_OPTIONS, returnBasisPoints: 0 };

describe('chosen outcomes', () => {
  it('read the last four digits of the account identifier, per rail', () => {
    expect(outcomeOf(instruction('wire', { iban: 'GB55WEST12345698760001' }), none)).toEqual({ kind: 'refused', code: 'AC01' });
    expect(outcomeOf(instruction('wire', { iban: 'GB71WEST12345698760004' }), none)).toEqual({ kind: 'returned', code: 'AC04' });
    expect(outcomeOf(instruction('eft', { accountNumber: '12340002' }), none)).toEqual({ kind: 'returned', code: 'R02' });
    expect(outcomeOf(instruction('oct', { cardLast4: '0054' }), none)).toEqual({ kind: 'refused', code: '54' });
    expect(outcomeOf(instruction('instant', { instantKey: '+5511900000005' }), none)).toEqual({ kind: 'returned', code: 'AB05' });
    expect(outcomeOf(instruction('wire', { iban: 'DE89370400440532013000' }), none)).toEqual({ kind: 'settled' });
  });

  it('read Interac contacts and the crypto screening list', () => {
    expect(chosenCode(instruction('interac', { email: 'please-decline@example.com' }), none)).toBe('DECLINED');
    expect(chosenCode(instruction('interac', { email: 'invalid@example.com' }), none)).toBe('INVALID_CONTACT');
    expect(chosenCode(instruction('interac', { phone: '+14165550000' }), none)).toBeNull();
    expect(outcomeOf(instruction('digital', { address: DEFAULT_SIMULATOR_OPTIONS.screenedAddresses[0]! }), none)).toEqual({ kind: 'refused', code: 'SANCTIONED_ADDRESS' });
  });

  it('use only codes the rail has, each described', () => {
    for (const [rail, reasons] of Object.entries(RAIL_REASONS)) {
      expect(reasons.length, rail).toBeGreaterThan(0);
      for (const r of reasons) expect(reasonOf(rail as Rail, r.code)).toBe(r);
    }
    expect(reasonOf('wire', 'ZZ99').description).toMatch(/ZZ99/);
  });
});

describe('the share of returns', () => {
  it('is about the configured share, with the rail return codes, and the same for the same instruction', () => {
    const options = { ...DEFAULT_SIMULATOR_OPTIONS, returnBasisPoints: 1_000 };
    const outcomes = Array.from({ length: 4_000 }, (_, i) => outcomeOf(instruction('eft', { accountNumber: '12347777' }, i + 1), options));
    const returned = outcomes.filter((o) => o.kind === 'returned');
    expect(returned.length / outcomes.length).toBeGreaterThan(0.08);
    expect(returned.length / outcomes.length).toBeLessThan(0.12);
    const returnCodes = RAIL_REASONS.eft.filter((r) => !r.atSubmit).map((r) => r.code);
    for (const o of returned) expect(returnCodes).toContain((o as { code: string }).code);
    expect(outcomeOf(instruction('eft', { accountNumber: '12347777' }, 17), options)).toEqual(outcomes[16]);
    // the rest settle
    expect(outcomes.filter((o) => o.kind !== 'returned').every((o) => o.kind === 'settled')).toBe(true);
  });
});

describe('the adapter', () => {
  it('accepts with a network id derived from the instruction, and emits sent then the ending at their delays', async () => {
    const events: [StatusEvent, number][] = [];
    const sim = createSimulator({ ...none, sentAfterMs: 100, settleAfterMs: { ...none.settleAfterMs, wire: 5_000 } });
    const answer = await sim.submit(instruction('wire', { iban: 'GB71WEST12345698760004' }, 42), async (e, after) => void events.push([e, after]));
    expect(answer).toEqual({ accepted: true, networkRef: 'SIM-WIRE-0000000042' });
    expect(events).toEqual([
      [{ instructionId: 42, type: 'sent' }, 100],
      [{ instructionId: 42, type: 'returned', reasonCode: 'AC04' }, 5_100],
    ]);
    expect(await sim.submit(instruction('wire', { iban: 'GB55WEST12345698760001' }, 43), async () => undefined)).toEqual({ accepted: false, reasonCode: 'AC01' });
  });
});

describe('configuration', () => {
  it('reads RAIL_ADAPTERS and the simulator settings, refusing what it cannot use', () => {
    expect([...adapterModulesFrom('wire=./a.js, oct = @acme/cards')]).toEqual([
      ['wire', './a.js'],
      ['oct', '@acme/cards'],
    ]);
    expect(() => adapterModulesFrom('ach=./a.js')).toThrow(RailConfigError);
    expect(() => adapterModulesFrom('wire')).toThrow(/rail=module/);
    expect(simulatorOptionsFrom({ RAIL_SIMULATOR_SETTLE_MS: '0', RAIL_SIMULATOR_RETURN_BP: '25' })).toMatchObject({ returnBasisPoints: 25, settleAfterMs: { wire: 0, funding: 0 } });
    expect(() => simulatorOptionsFrom({ RAIL_SIMULATOR_RETURN_BP: '10001' })).toThrow(RailConfigError);
    expect(() => simulatorOptionsFrom({ RAIL_SIMULATOR_SETTLE_MS: '-1' })).toThrow(RailConfigError);
  });
});
