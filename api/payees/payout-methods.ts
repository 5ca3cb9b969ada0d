/**
 * The payout methods' names (document 2 §6 the transfer kinds: wire, eft (bank), oct (card),
 * digital (crypto), instant, interac), apart from their data (methods.ts): the contract
 * (api/external.ts) needs only the names, and the registry the web app loads must not carry the
 * checks' libraries (ibantools, the hashes) with them.
 */
export const PAYOUT_METHODS = ['wire', 'eft', 'oct', 'digital', 'instant', 'interac'] as const;
export type PayoutMethod = (typeof PAYOUT_METHODS)[number];
export const isPayoutMethod = (value: string): value is PayoutMethod => (PAYOUT_METHODS as readonly string[]).includes(value);
