/** The transfer views' wording for machine codes (machines emit codes only). */
import { validationMessage } from '../../lib/validation-messages.ts';
import { useLingui } from '@lingui/react/macro';
import { money } from './fields.tsx';
import type { ApprovalErrorCode, ApprovalMode } from '../../../machines/approval/approval.machine.ts';
import type { FieldError, FieldErrorCode, Frequency, TransferKind } from '../../../machines/transfer/transfer.rules.ts';

export function useKindTitles(): Record<TransferKind, string> {
  const { t } = useLingui();
  return {
    betweenAccounts: t`Transfer between your accounts`,
    p2p: t`Send money to a person`,
  };
}

export function useFieldErrorText(): (error: FieldError | undefined) => string | undefined {
  const { t } = useLingui();
  const texts: Record<Exclude<FieldErrorCode, 'server'>, string> = {
    required: t`This is required.`,
    sameAccount: t`Choose an account other than the one the money leaves.`,
    amountFormat: t`Enter an amount above zero, such as 12.50.`,
    amountDecimals: t`This currency takes fewer decimals.`,
    belowMin: t`The amount is below the smallest transfer allowed.`,
    aboveMax: t`The amount is above the largest transfer allowed.`,
    overDailyLimit: t`The amount is more than what is left of today's limit.`,
    aboveBalance: t`The amount is more than the available balance.`,
    ownEmail: t`This is your own e-mail address. To move money between your accounts, use the page below.`,
    email: t`Enter an e-mail address, such as name@example.com.`,
    payeeNotFound: t`No customer has this e-mail address.`,
    payeeCannotReceive: t`This customer cannot receive money now.`,
    payeeRefuses: t`This customer does not accept money from you.`,
    tooLong: t`This text is too long.`,
    endDateFormat: t`Choose the last date of the transfers.`,
    transactionsRange: t`Enter a number of transfers from 2 to 1000.`,
  };
  return (error) => {
    if (!error) return undefined;
    if (error.code === 'server') return error.error ? validationMessage(error.error) : t`This is not valid.`;
    if (error.code === 'aboveBalance' && error.available) {
      const available = money(error.available.amount, error.available.currency);
      // With its fee: the fee leaves the same account, so the two together must fit.
      return t`The amount and its fee come to more than the available balance of ${available}.`;
    }
    return texts[error.code];
  };
}

export function useFrequencyNames(): Record<Frequency, string> {
  const { t } = useLingui();
  return { daily: t`Every day`, weekly: t`Every week`, monthly: t`Every month` };
}

export function useApprovalHeadings(sentTo: string | null): Record<ApprovalMode, string> {
  const { t } = useLingui();
  const to = sentTo ?? '';
  return {
    sms: sentTo ? t`Enter the code we sent to ${to}` : t`Enter the code we sent you by SMS`,
    otp: t`Enter the code from your authenticator app`,
    approvalCode: t`Enter your approval code`,
    push: t`Approve the transfer on your phone`,
  };
}

export function useApprovalErrors(mode: ApprovalMode): Record<ApprovalErrorCode, string> {
  const { t } = useLingui();
  return {
    codeFormat: mode === 'approvalCode' ? t`Enter your approval code (4 to 32 letters and digits).` : t`Enter the 6-digit code.`,
    wrongCode: t`That code is not right. Check it and try again.`,
    network: t`No answer from the server. Try again: the transfer is never made twice.`,
    resendFailed: t`We could not send it again.`,
    cancelFailed: t`We could not cancel the transfer.`,
  };
}
