/** The history views' wording for the contract's codes and the export machine's codes. */
import { useLingui } from '@lingui/react/macro';
import type { ExportStatusSchema, OperationType } from '../../../api/history.ts';
import type { TransferStatus } from '../../../api/transfers.ts';
import type { ExportErrorCode, FileErrorCode } from '../../../machines/history-export/history-export.machine.ts';
import type { FilterFieldError } from './filter.ts';
import type * as v from 'valibot';
// Every feature names accounts alike: the label lives in src/lib (a feature never imports another).
export { useAccountLabel } from '../../lib/account-label.ts';

export const OPERATION_TYPES: readonly OperationType[] = ['betweenAccounts', 'exchange', 'p2p', 'deposit', 'Fees', 'wire', 'eft', 'oct', 'digital', 'instant', 'interac', 'cardPayment'];
export const TRANSFER_STATUSES: readonly TransferStatus[] = ['pending', 'processing', 'posted', 'returned', 'rejected', 'expired', 'canceled'];

export function useOperationTypeNames(): Record<OperationType, string> {
  const { t } = useLingui();
  return {
    betweenAccounts: t`Between own accounts`,
    exchange: t`Currency exchange`,
    p2p: t`Payment to a person`,
    deposit: t`Deposit`,
    Fees: t`Fee`,
    wire: t`Wire transfer`,
    eft: t`Bank transfer`,
    oct: t`Payment to a card`,
    digital: t`Crypto withdrawal`,
    instant: t`Instant payment`,
    interac: t`Interac e-Transfer`,
    cardPayment: t`Card payment`,
  };
}

/**
 * A history row's type as the lists show it: a revenue-split share (a row naming its contract) says
 * so; its wire type stays the spec's 'deposit' (document 2's transaction types have no split).
 */
export function useRowTypeName(): (row: { operationType: OperationType; contractId?: number | undefined }) => string {
  const { t } = useLingui();
  const typeNames = useOperationTypeNames();
  return (row) => (row.contractId !== undefined ? t`Revenue split share` : typeNames[row.operationType]);
}

export function useStatusNames(): Record<TransferStatus, string> {
  const { t } = useLingui();
  return {
    pending: t`Pending`,
    processing: t`Processing`,
    posted: t`Completed`,
    returned: t`Returned`,
    rejected: t`Rejected`,
    expired: t`Expired`,
    canceled: t`Canceled`,
  };
}

export function useDirectionNames(): Record<'in' | 'out', string> {
  const { t } = useLingui();
  return { in: t`Incoming`, out: t`Outgoing` };
}

export function useExportStatusNames(): Record<v.InferOutput<typeof ExportStatusSchema>, string> {
  const { t } = useLingui();
  return { queued: t`Waiting to start`, processing: t`Being prepared`, done: t`Ready`, failed: t`Failed` };
}

export function useExportErrors(): Record<ExportErrorCode, string> {
  const { t } = useLingui();
  return {
    network: t`The connection failed. Try again.`,
    refused: t`The export could not be made.`,
    exportFailed: t`The file could not be prepared. Try again.`,
    timedOut: t`The file is taking longer than usual. Check again in a moment.`,
  };
}

export function useFileErrors(): Record<FileErrorCode, string> {
  const { t } = useLingui();
  return {
    network: t`The connection failed. Try again.`,
    refused: t`The file could not be downloaded.`,
    notFound: t`The file is no longer available.`,
  };
}

export function useFilterErrors(): Record<FilterFieldError, string> {
  const { t } = useLingui();
  return {
    amount: t`Enter an amount such as 10 or 10.50 (up to 8 decimals).`,
    date: t`Enter a date.`,
    amountOrder: t`The largest amount must not be below the smallest.`,
    dateOrder: t`The end date must not be before the start date.`,
    keywordLength: t`Use at most 100 characters.`,
  };
}


/**
 * Why a payout was refused or returned, by the rail's reason code (server/modules/rails/reasons.ts:
 * ISO 20022 for wire and instant, NACHA for local bank transfers, the card network's, Interac's and
 * the crypto network's own). A code a provider's rail adds reads as the network's answer.
 */
export function useRailReasonText(): (code: string) => string {
  const { t } = useLingui();
  const reasons: Record<string, string> = {
    AC01: t`The account number is incorrect.`,
    RC01: t`The bank identifier (BIC) is incorrect.`,
    AC03: t`The instant payment key or account is not valid.`,
    AC04: t`The payee's account is closed.`,
    AC06: t`The payee's account is blocked.`,
    AB05: t`The payee's bank did not answer in time.`,
    BE01: t`The payee's name does not match the account holder.`,
    AG01: t`The payee's bank does not allow this payment to the account.`,
    MD07: t`The account holder is deceased.`,
    MS03: t`The payee's bank returned the payment without a reason.`,
    R04: t`The account number is not valid for this bank.`,
    R02: t`The payee's account is closed.`,
    R03: t`No account with this number was found at the bank.`,
    R16: t`The payee's account is frozen.`,
    R20: t`The payee's account does not take transfers.`,
    '14': t`The card number is not valid.`,
    '54': t`The card has expired.`,
    '57': t`The card does not take payments of this kind.`,
    '62': t`The card is restricted.`,
    '05': t`The card issuer declined the payment.`,
    SANCTIONED_ADDRESS: t`The address failed the sanctions screening; nothing was sent.`,
    DROPPED: t`The network dropped the transaction before it was confirmed.`,
    INVALID_CONTACT: t`The e-mail address or phone number cannot receive Interac e-Transfers.`,
    DECLINED: t`The recipient declined the transfer.`,
    EXPIRED: t`The recipient did not deposit the transfer within 30 days.`,
  };
  return (code) => {
    const text = reasons[code] ?? t`The payment network refused it.`;
    return t`${text} (code ${code})`;
  };
}
