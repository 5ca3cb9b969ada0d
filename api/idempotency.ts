/**
 * Idempotency of money-moving methods (api/transfers.ts): they need an `Idempotency-Key` header.
 * On its own (no schemas) so the request wrapper, which every page loads, can know these methods
 * without loading the transfers contract.
 */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
/** keys are client-chosen: 8-100 characters of [A-Za-z0-9_-] (a UUID fits) */
export const IDEMPOTENCY_KEY_PATTERN = /^[A-Za-z0-9_-]{8,100}$/;

/** The methods that move money: they need the Idempotency-Key header. */
export const IDEMPOTENT_METHODS: ReadonlySet<string> = new Set([
  'transferBetweenAccounts',
  'transferP2p',
  'approveTransfer',
  'transferCancel',
  // payouts over the rails (api/payouts.ts)
  'wireTransfer',
  'eftTransfer',
  'octTransfer',
  'cryptoTransfer',
  'instantTransfer',
  'interacTransfer',
  // mass batches (api/mass.ts): a batch holds the money of every row
  'massP2pFile',
  'massP2pText',
  'massExternalFile',
  // global pay (api/global-pay.ts): a submit holds the batch's money, an approval releases it to the payees, a cancel gives it back
  'globalPayBatchSubmit',
  'globalPayP2pSubmit',
  'globalPayApprove',
  'globalPayApproveBatch',
  'globalPayBatchCancel',
  // cards (api/cards.ts): each charges a fee or moves a card's balance. Not cardActivate: its answer
  // carries the first PIN, and a stored answer would keep it (a second activation answers VF cardStatus,
  // so it never charges twice)
  'cardApply',
  'cardBlock',
  'cardReissue',
  'upgradeShipping',
  // business approvals (api/business-approvals.ts): a decision posts or releases held payments
  'businessTransactionRequestApprove',
  'businessMassApprove',
  'businessApprovalConfirm',
]);
