/** The history views' wording for the contract's codes and the export machine's codes. */
import { useLingui } from '@lingui/react/macro';
import type { ExportStatusSchema, OperationType } from '../../../api/history.ts';
import type { TransferStatus } from '../../../api/transfers.ts';
import { ACCOUNT_STATUS_CLOSED, type Account } from '../../../api/accounts.ts';
import type { ExportErrorCode, FileErrorCode } from '../../../machines/history-export/history-export.machine.ts';
import type { FilterFieldError } from './filter.ts';
import type * as v from 'valibot';

export const OPERATION_TYPES: readonly OperationType[] = ['betweenAccounts', 'exchange', 'p2p', 'deposit', 'Fees', 'wire', 'eft', 'oct', 'digital', 'instant', 'interac'];
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
  };
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

/** "EUR account 1001" for selects (the account's number is what tells two EUR accounts apart). */
export function useAccountLabel(): (account: Pick<Account, 'accountId' | 'currency' | 'accountStatusId'>) => string {
  const { t } = useLingui();
  return (account) => {
    const { currency, accountId } = account;
    return account.accountStatusId === ACCOUNT_STATUS_CLOSED ? t`${currency} account ${accountId} (closed)` : t`${currency} account ${accountId}`;
  };
}
