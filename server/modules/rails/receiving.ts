/**
 * Receiving details (issue 15 §2): every fiat account can be paid from outside by a bank transfer
 * to an IBAN of its own; a crypto account by its wallet address (accounts.address). The IBAN is
 * not stored: it is the provider's bank code and the account's id in the BBAN, with the mod-97
 * check digits (ibantools), so an incoming payment's IBAN names its account (accountOfIban) and a
 * mistyped one names none (its check digits fail, and the money goes back: AC01).
 *
 * RECEIVING_BANK="<country>:<bank code>:<BIC>" sets the provider's receiving bank; the default is a
 * Lithuanian EMI-style code (LT BBAN: 5-digit bank code, 11-digit account number) that names no
 * real institution, so a demo's IBANs are valid in form and reach nobody.
 */
import { composeIBAN, electronicFormatIBAN, getCountrySpecifications, validateBIC, validateIBAN } from 'ibantools';

export interface ReceivingBank {
  countryCode: string;
  bankCode: string;
  bic: string;
}

export const DEFAULT_RECEIVING_BANK: ReceivingBank = { countryCode: 'LT', bankCode: '39900', bic: 'WLBPLT22XXX' };

export class ReceivingBankError extends Error {
  override name = 'ReceivingBankError';
}

/** The BBAN length of a country, when its BBAN is all digits (the account id goes in the rest). */
function digitsBbanLength(countryCode: string): number | null {
  const spec = getCountrySpecifications()[countryCode];
  const match = spec?.bban_regexp?.match(/^\^\[0-9\]\{(\d+)\}\$$/);
  return match ? Number(match[1]) : null;
}

export function receivingBankFrom(raw: string | undefined): ReceivingBank {
  if (!raw) return DEFAULT_RECEIVING_BANK;
  const [countryCode = '', bankCode = '', bic = ''] = raw.split(':').map((p) => p.trim().toUpperCase());
  const length = digitsBbanLength(countryCode);
  if (length === null) throw new ReceivingBankError(`RECEIVING_BANK: ${countryCode || '(none)'} is not an IBAN country with an all-digit BBAN`);
  if (!/^\d+$/.test(bankCode) || length - bankCode.length < 8) throw new ReceivingBankError('RECEIVING_BANK: the bank code must be digits leaving room for an 8-digit account number');
  if (!validateBIC(bic).valid) throw new ReceivingBankError('RECEIVING_BANK: the BIC is not valid');
  // countries whose BBAN carries national check digits (EE, FI...) would need them computed too
  const bank = { countryCode, bankCode, bic };
  if (!validateIBAN(ibanOfAccount(bank, 1)).valid) throw new ReceivingBankError(`RECEIVING_BANK: ${countryCode} BBANs carry national check digits, which are not computed here`);
  return bank;
}

/** The IBAN that pays into an account (electronic format: no spaces). */
export function ibanOfAccount(bank: ReceivingBank, accountId: number): string {
  const length = digitsBbanLength(bank.countryCode)!;
  const bban = bank.bankCode + String(accountId).padStart(length - bank.bankCode.length, '0');
  const iban = composeIBAN({ countryCode: bank.countryCode, bban });
  if (!iban) throw new ReceivingBankError(`no IBAN for account ${accountId}`);
  return iban;
}

/** The account an IBAN of ours names, or null (another bank's, a wrong check digit, not an IBAN). */
export function accountOfIban(bank: ReceivingBank, text: string): number | null {
  const iban = electronicFormatIBAN(text) ?? '';
  if (!validateIBAN(iban).valid || !iban.startsWith(bank.countryCode)) return null;
  const bban = iban.slice(4);
  if (!bban.startsWith(bank.bankCode)) return null;
  const id = Number(bban.slice(bank.bankCode.length));
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}
