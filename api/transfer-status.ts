/**
 * A transfer's status (api/transfers.ts), on its own: the history contract (api/history.ts) needs
 * it, and routes that load on every page must not pull the whole transfers contract with it.
 */
import * as v from 'valibot';

export const TransferStatusSchema = v.picklist(['pending', 'posted', 'rejected', 'expired', 'canceled']);
export type TransferStatus = v.InferOutput<typeof TransferStatusSchema>;
