/**
 * The outside world's payment rails behind one interface (issue 15 §1, DESIGN.md "Outside world
 * behind adapters").
 *
 * An instruction (a payout to a bank, a card or a wallet; or money arriving from outside) goes to
 * the rail's adapter once (`submit`, idempotent by the instruction id: a retried job that submits
 * again gets the same answer and no second payment), and the rail answers with status events over
 * time: accepted, sent, settled, or returned with a reason code of that rail. The adapter hands its
 * events to `emit`, which queues them on the platform's job queue (a provider's adapter that
 * learns of events by webhook calls the same function from its endpoint). The platform applies
 * each event once per instruction (payouts.service.ts), whatever the order or the number of
 * times it arrives.
 *
 * The built-in network simulator (simulator.ts) is the default adapter of every rail; a provider
 * configures its own module by RAIL_ADAPTERS (see adapters.ts).
 */

/** wire (SWIFT/SEPA), eft (local bank transfer), oct (to a card), digital (crypto), instant, interac; funding is money coming in. */
export const PAYOUT_RAILS = ['wire', 'eft', 'oct', 'digital', 'instant', 'interac'] as const;
export type PayoutRail = (typeof PAYOUT_RAILS)[number];
export const RAILS = [...PAYOUT_RAILS, 'funding'] as const;
export type Rail = (typeof RAILS)[number];

export const isPayoutRail = (value: string): value is PayoutRail => (PAYOUT_RAILS as readonly string[]).includes(value);

/**
 * What a rail is told. The beneficiary is what the rail needs to reach the money's destination,
 * never a full card number: a card payout carries the card's BIN, its last four digits and the
 * fingerprint (sha256) the card vault would give a network token for.
 */
export interface Instruction {
  instructionId: number;
  rail: Rail;
  direction: 'out' | 'in';
  currency: string;
  amountMinor: bigint;
  beneficiary: Record<string, string>;
  /** the text the beneficiary sees (the customer's note or reference) */
  reference: string | null;
}

export type SubmitResult =
  /** the rail took the instruction; networkRef is its id there */
  | { accepted: true; networkRef: string }
  /** refused at once (the details cannot be paid): nothing was sent, the money is released */
  | { accepted: false; reasonCode: string };

export type StatusEventType = 'sent' | 'settled' | 'returned';
export interface StatusEvent {
  instructionId: number;
  type: StatusEventType;
  /** the rail's reason code (returned only) */
  reasonCode?: string;
}

/** Hands a status event to the platform, delivered after `afterMs` (0: as soon as possible). */
export type Emit = (event: StatusEvent, afterMs: number) => Promise<void>;

export interface RailAdapter {
  readonly name: string;
  submit(instruction: Instruction, emit: Emit): Promise<SubmitResult>;
}

/**
 * What the ledger does with the fee when a payout comes back (issue 15 §2: fee policy per rail as
 * data). A wire's correspondent banks charged their part on the way out and the network fee of a
 * crypto payout was paid to the miners: those fees are kept; the other rails' returns are
 * refunded in full.
 */
export const RAIL_FEE_POLICY: Readonly<Record<PayoutRail, { refundFeeOnReturn: boolean }>> = {
  wire: { refundFeeOnReturn: false },
  eft: { refundFeeOnReturn: true },
  oct: { refundFeeOnReturn: true },
  digital: { refundFeeOnReturn: false },
  instant: { refundFeeOnReturn: true },
  interac: { refundFeeOnReturn: true },
};
