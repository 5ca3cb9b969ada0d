/**
 * The reason codes each rail answers a refusal or a return with, as the networks publish them:
 * ISO 20022 external return reason codes for wire and instant payments (SEPA, SWIFT gpi, PIX),
 * NACHA return codes for EFT (local bank transfers), card network response codes for OCT (Visa
 * Direct, Mastercard Send), Interac e-Transfer outcomes, and the platform's own codes for crypto
 * payouts (a blockchain has no returns: a payout that is refused before broadcast or dropped from
 * the mempool is all there is). The description is what the customer reads in history.
 */
import type { Rail } from './rails.ts';

export interface ReasonCode {
  code: string;
  description: string;
  /** refused when submitted (nothing sent) rather than returned after sending */
  atSubmit: boolean;
}

const iso = (code: string, description: string, atSubmit = false): ReasonCode => ({ code, description, atSubmit });

export const RAIL_REASONS: Readonly<Record<Rail, readonly ReasonCode[]>> = {
  wire: [
    iso('AC01', 'The account number is incorrect.', true),
    iso('RC01', 'The bank identifier (BIC) is incorrect.', true),
    iso('AC04', 'The beneficiary account is closed.'),
    iso('AC06', 'The beneficiary account is blocked.'),
    iso('BE01', 'The beneficiary name does not match the account holder.'),
    iso('AG01', 'The beneficiary bank does not allow this payment to the account.'),
    iso('MD07', 'The account holder is deceased.'),
    iso('MS03', 'The beneficiary bank returned the payment without a reason.'),
  ],
  eft: [
    iso('R04', 'The account number is not valid for this bank.', true),
    iso('R02', 'The beneficiary account is closed.'),
    iso('R03', 'No account with this number was found at the bank.'),
    iso('R16', 'The beneficiary account is frozen.'),
    iso('R20', 'The beneficiary account does not take transfers.'),
  ],
  oct: [
    iso('14', 'The card number is not valid.', true),
    iso('54', 'The card has expired.', true),
    iso('57', 'The card does not take payments of this kind.', true),
    iso('62', 'The card is restricted.', true),
    iso('05', 'The card issuer declined the payment.', true),
  ],
  digital: [
    iso('SANCTIONED_ADDRESS', 'The address failed the sanctions screening; nothing was sent.', true),
    iso('DROPPED', 'The network dropped the transaction before it was confirmed.'),
  ],
  instant: [
    iso('AC03', 'The instant payment key or account is not valid.', true),
    iso('AB05', 'The beneficiary bank did not answer in time.'),
    iso('AC04', 'The beneficiary account is closed.'),
    iso('BE01', 'The beneficiary name does not match the account holder.'),
  ],
  interac: [
    iso('INVALID_CONTACT', 'The e-mail address or phone number cannot receive Interac e-Transfers.', true),
    iso('DECLINED', 'The recipient declined the transfer.'),
    iso('EXPIRED', 'The recipient did not deposit the transfer within 30 days.'),
  ],
  funding: [
    iso('AC01', 'No account has these receiving details.'),
    iso('AC04', 'The receiving account is closed.'),
    iso('BE01', 'The sender named an account holder other than ours.'),
  ],
};

/** The reason of a rail's code (an unknown code still reads as a refusal, never as nothing). */
export function reasonOf(rail: Rail, code: string): ReasonCode {
  return RAIL_REASONS[rail].find((r) => r.code === code) ?? { code, description: `The payment network answered ${code}.`, atSubmit: false };
}
