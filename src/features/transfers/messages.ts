/** The transfer views' wording for machine codes (machines emit codes only). */
import { validationMessage } from '../../lib/validation-messages.ts';
import { useLingui } from '@lingui/react/macro';
import { money } from './fields.tsx';
import type { ApprovalErrorCode, ApprovalMode } from '../../../machines/approval/approval.machine.ts';
import type { FieldError, FieldErrorCode, Frequency, TransferKind } from '../../../machines/transfer/transfer.rules.ts';
import type { PayoutMethod } from '../../../api/payees/payout-methods.ts';

export function useKindTitles(): Record<TransferKind, string> {
  const { t } = useLingui();
  return {
    betweenAccounts: t`Transfer between your accounts`,
    p2p: t`Send money to a person`,
    external: t`Send to a bank, card or wallet`,
  };
}

export function useFieldErrorText(): (error: FieldError | undefined) => string | undefined {
  const { t } = useLingui();
  const texts: Record<Exclude<FieldErrorCode, 'server' | 'payee'>, string> = {
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
    noMethod: t`We cannot send money to this country in this currency. Choose another country or another account.`,
    formNotLoaded: t`The payee's details for this method are not loaded yet.`,
  };
  return (error) => {
    if (!error) return undefined;
    if (error.code === 'server' || error.code === 'payee') return error.error ? validationMessage(error.error) : t`This is not valid.`;
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

/** The payout methods by the names customers know them (document 2 §6: wire, eft, oct, digital, instant, interac). */
export function useMethodNames(): Record<PayoutMethod, { name: string; hint: string }> {
  const { t } = useLingui();
  return {
    wire: { name: t`International wire (SWIFT)`, hint: t`To a bank account anywhere. Usually 1 to 3 working days.` },
    eft: { name: t`Local bank transfer`, hint: t`To a bank account on the country's own payment system. Usually the same or the next working day.` },
    oct: { name: t`To a card`, hint: t`To a Visa or Mastercard debit card. Usually within minutes.` },
    digital: { name: t`To a crypto wallet`, hint: t`To a wallet address on the currency's network. Sent once the network confirms it.` },
    instant: { name: t`Pix instant payment`, hint: t`To a Pix key in Brazil. Usually within seconds.` },
    interac: { name: t`Interac e-Transfer`, hint: t`To an e-mail address or mobile number in Canada.` },
  };
}

/**
 * The payee form's fields by name (api/payees/methods.ts); a field a provider's platform adds
 * under another name is shown by its name.
 */
export function usePayeeFieldLabels(): (name: string) => string {
  const { t } = useLingui();
  const labels: Record<string, string> = {
    beneficiaryName: t`Payee's full name`,
    beneficiaryAddress: t`Payee's address`,
    iban: t`IBAN`,
    swiftCode: t`SWIFT/BIC code of the bank`,
    accountNumber: t`Account number`,
    bankName: t`Bank name (optional)`,
    sortCode: t`Sort code`,
    routingNumber: t`Routing number (ABA)`,
    accountType: t`Account type`,
    institutionNumber: t`Institution number`,
    transitNumber: t`Transit number`,
    bsb: t`BSB number`,
    taxId: t`Payee's CPF or CNPJ`,
    bankCode: t`Bank code`,
    branchCode: t`Branch code`,
    cardHolderName: t`Name on the card`,
    cardNumber: t`Card number`,
    network: t`Network`,
    walletAddress: t`Wallet address`,
    instantKeyType: t`Pix key type`,
    instantKey: t`Pix key`,
    email: t`Payee's e-mail address`,
    phone: t`Payee's mobile number`,
  };
  return (name) => labels[name] ?? name;
}

/** A select field's options by code (an unknown code is shown as it is). */
export function usePayeeOptionNames(): (code: string) => string {
  const { t } = useLingui();
  const names: Record<string, string> = {
    checking: t`Checking`,
    savings: t`Savings`,
    ordinary: t`Ordinary (futsu)`,
    current: t`Current (toza)`,
    ethereum: t`Ethereum (ERC-20)`,
    tron: t`Tron (TRC-20)`,
    bitcoin: t`Bitcoin`,
    litecoin: t`Litecoin`,
    CPF: t`CPF (personal tax number)`,
    CNPJ: t`CNPJ (company tax number)`,
    EMAIL: t`E-mail address`,
    PHONE: t`Mobile number`,
    EVP: t`Random key`,
  };
  return (code) => names[code] ?? code;
}
