/**
 * A transfer's status (api/transfers.ts), on its own: the history contract (api/history.ts) needs
 * it, and routes that load on every page must not pull the whole transfers contract with it.
 */
import * as v from 'valibot';

/**
 * pending: awaiting approval; processing: a payout with its rail (not settled yet); posted: done
 * (a payout: settled); returned: a payout the rail sent back (the money is back on the account);
 * rejected, expired, canceled: never done.
 */
export const TransferStatusSchema = v.picklist(['pending', 'processing', 'posted', 'returned', 'rejected', 'expired', 'canceled']);
export type TransferStatus = v.InferOutput<typeof TransferStatusSchema>;
