/**
 * The built-in network simulator: the default adapter of every rail, so every path of a payout,
 * returns included, can be seen and tested on one machine (issue 15 §1).
 *
 * It accepts an instruction at once and then emits `sent` and, after the rail's delay, `settled`;
 * or refuses it at submission, or returns it after sending, with the rail's real reason codes
 * (reasons.ts). What happens is decided by the instruction alone, so a resubmission (a retried
 * job) gets the same answer and the same events, and tests and demos can choose an outcome:
 *
 * - chosen outcomes: the last four digits of the beneficiary's account identifier (the IBAN or
 *   account number, the instant key, the card's last four; the code table below), or, for Interac,
 *   the words "decline", "expire" or "invalid" in the contact; a crypto address on the screening
 *   list is refused;
 * - otherwise a realistic share of returns: `returnBasisPoints` of the instructions (by a hash of
 *   the instruction id and the seed) come back with one of the rail's return codes.
 */
import { createHash } from 'node:crypto';
import { RAIL_REASONS } from './reasons.ts';
import type { Emit, Instruction, Rail, RailAdapter, SubmitResult } from './rails.ts';

export interface SimulatorOptions {
  /** time from acceptance to `sent` */
  sentAfterMs: number;
  /** time from `sent` to `settled` (or to the return), per rail */
  settleAfterMs: Readonly<Record<Rail, number>>;
  /** share of instructions returned with a realistic reason, in basis points (150 = 1.5 %) */
  returnBasisPoints: number;
  /** varies which instructions fall in the share */
  seed: string;
  /** crypto addresses the sanctions screening refuses */
  screenedAddresses: readonly string[];
}

/**
 * Demo defaults: a few seconds to watch a payout go through its steps (a real wire takes a day or
 * more, an instant payment seconds). RAIL_SIMULATOR_SETTLE_MS sets one delay for every rail.
 */
export const DEFAULT_SIMULATOR_OPTIONS: SimulatorOptions = {
  sentAfterMs: 1_000,
  settleAfterMs: { wire: 20_000, eft: 15_000, oct: 5_000, digital: 10_000, instant: 2_000, interac: 10_000, funding: 2_000 },
  returnBasisPoints: 150,
  seed: 'simulator',
  // the address the demo uses to show a screened payout (a valid Bitcoin address nobody owns)
  screenedAddresses: ['bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq'],
};

/** Last four digits of the account identifier -> the code the simulator answers with. */
export const CHOSEN_OUTCOMES: Readonly<Partial<Record<Rail, Readonly<Record<string, string>>>>> = {
  wire: { '0001': 'AC01', '0002': 'RC01', '0004': 'AC04', '0006': 'AC06', '0009': 'BE01' },
  eft: { '0001': 'R04', '0002': 'R02', '0003': 'R03', '0016': 'R16' },
  oct: { '0014': '14', '0054': '54', '0057': '57', '0062': '62', '0005': '05' },
  instant: { '0001': 'AC03', '0004': 'AC04', '0005': 'AB05', '0009': 'BE01' },
};

/** The identifier whose last digits choose an outcome: the first of these the beneficiary has. */
const IDENTIFIER_FIELDS = ['iban', 'accountNumber', 'instantKey', 'cardLast4', 'email', 'phone', 'address'] as const;

function identifierOf(instruction: Instruction): string {
  for (const field of IDENTIFIER_FIELDS) {
    const value = instruction.beneficiary[field];
    if (value) return value;
  }
  return '';
}

/** The code chosen for an instruction, or null for the ordinary path (settled, or the share of returns). */
export function chosenCode(instruction: Instruction, options: Pick<SimulatorOptions, 'screenedAddresses'>): string | null {
  const id = identifierOf(instruction);
  if (instruction.rail === 'digital') return options.screenedAddresses.includes(id) ? 'SANCTIONED_ADDRESS' : null;
  if (instruction.rail === 'interac') {
    const contact = id.toLowerCase();
    if (contact.includes('invalid')) return 'INVALID_CONTACT';
    if (contact.includes('decline')) return 'DECLINED';
    if (contact.includes('expire')) return 'EXPIRED';
    return null;
  }
  const digits = id.replace(/\D/g, '');
  return CHOSEN_OUTCOMES[instruction.rail]?.[digits.slice(-4)] ?? null;
}

/** A number in [0, 10000) from the instruction id and the seed: which instructions are in the share. */
function draw(instructionId: number, seed: string, salt: string): number {
  return createHash('sha256').update(`${seed}:${salt}:${instructionId}`).digest().readUInt32BE(0) % 10_000;
}

/** What the simulator does with an instruction: refuse it, return it after sending, or settle it. */
export function outcomeOf(instruction: Instruction, options: SimulatorOptions): { kind: 'refused' | 'returned'; code: string } | { kind: 'settled' } {
  const chosen = chosenCode(instruction, options);
  const reasons = RAIL_REASONS[instruction.rail];
  if (chosen !== null) {
    const reason = reasons.find((r) => r.code === chosen);
    return { kind: reason?.atSubmit ? 'refused' : 'returned', code: chosen };
  }
  if (draw(instruction.instructionId, options.seed, 'share') < options.returnBasisPoints) {
    const returns = reasons.filter((r) => !r.atSubmit);
    const reason = returns[draw(instruction.instructionId, options.seed, 'code') % returns.length];
    if (reason) return { kind: 'returned', code: reason.code };
  }
  return { kind: 'settled' };
}

export function createSimulator(options: SimulatorOptions = DEFAULT_SIMULATOR_OPTIONS): RailAdapter {
  return {
    name: 'simulator',
    async submit(instruction: Instruction, emit: Emit): Promise<SubmitResult> {
      const outcome = outcomeOf(instruction, options);
      if (outcome.kind === 'refused') return { accepted: false, reasonCode: outcome.code };
      const { instructionId } = instruction;
      const settleAfterMs = options.settleAfterMs[instruction.rail];
      await emit({ instructionId, type: 'sent' }, options.sentAfterMs);
      await emit(
        outcome.kind === 'returned' ? { instructionId, type: 'returned', reasonCode: outcome.code } : { instructionId, type: 'settled' },
        options.sentAfterMs + settleAfterMs,
      );
      // the network's id is derived from ours: a resubmission gets the same one
      return { accepted: true, networkRef: `SIM-${instruction.rail.toUpperCase()}-${String(instructionId).padStart(10, '0')}` };
    },
  };
}
