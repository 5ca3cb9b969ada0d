/**
 * The sentences of the payee checks' codes (api/payees/: IBAN, SWIFT/BIC, cards, crypto addresses,
 * instant keys), part of src/lib/validation-messages.ts's one sentence per code. They live here,
 * in the app's catalog (lingui.config.ts), because the sign-in page never shows them and its
 * catalog counts in its JavaScript budget (issue 12: /login at most 130 kB).
 */
import { t } from '@lingui/core/macro';
import type { VfCode } from '../../../api/errors.ts';

export const payeeSentences = {
  digitCount: () => t`Check this number: it has too many or too few digits.`,
  routingChecksum: () => t`Check the routing number: its check digit does not match.`,
  oneRequired: () => t`Fill in at least one of these fields.`,
  ibanFormat: () => t`Check the IBAN: it is not in the format of an IBAN from its country.`,
  ibanChecksum: () => t`Check the IBAN: its check digits do not match.`,
  ibanCountry: () => t`This transfer cannot reach an account with this IBAN: check its first two letters, the country code.`,
  ibanLength: () => t`Check the IBAN: it has too many or too few characters for its country.`,
  bicFormat: () => t`Check the SWIFT/BIC code: it has 8 or 11 letters and digits, the first 6 of them letters.`,
  bicCountry: () => t`Check the SWIFT/BIC code: its 5th and 6th letters must be a country code.`,
  cardFormat: () => t`Check the card number: it can contain only digits.`,
  cardLength: () => t`Check the card number: it has too many or too few digits.`,
  cardChecksum: () => t`Check the card number: its check digit does not match.`,
  cardBrandUnsupported: () => t`This card cannot receive payouts: only Visa, Mastercard and Maestro cards can.`,
  cardBinBlocked: () => t`Payouts cannot be sent to this card. Use another card.`,
  cryptoFormat: () => t`Check the wallet address: it is not an address for this currency.`,
  cryptoChecksum: () => t`Check the wallet address: its checksum does not match, so a character may be mistyped.`,
  cryptoNetwork: () => t`This address is on another network or a test network: enter an address on this payout's network.`,
  cryptoCurrencyUnsupported: () => t`Crypto payouts are not offered in this currency or on this network. Choose another.`,
  taxIdChecksum: () => t`Check the CPF or CNPJ: its check digits do not match.`,
} satisfies { readonly [C in VfCode]?: () => string };
