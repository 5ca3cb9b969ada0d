/**
 * Named-method handlers of the external transfers' reference calls (api/external.ts; document 2
 * §3 and §7; issue 15 item 3): the payout methods of a country and currency, their payee fields,
 * the banks of a country and the SWIFT and IBAN look-ups, all from the shared data and checks of
 * api/payees/. Reads only: no database writes.
 */
import { ResponseCode } from '../../../api/envelope.ts';
import { VfCode, vf, type CodedValidationError } from '../../../api/errors.ts';
import type { externalMethods } from '../../../api/external.ts';
import { bankByIban, bankBySwift, banksOf } from '../../../api/payees/banks.ts';
import { checkBic, checkIban } from '../../../api/payees/iban.ts';
import { availableMethods, PAYOUT_ROUTES, payoutRoute } from '../../../api/payees/methods.ts';
import { checkBrazilTaxId, checkInstantKey, type InstantKeyType } from '../../../api/payees/instant.ts';
import { asc } from 'drizzle-orm';
import type { Db, Tx } from '../../db/types.ts';
import { blockedCardBins } from '../rails/rails.tables.ts';
import { MethodFailure, type HandlerTable } from '../method-types.ts';
import { DictionaryKey } from '../dictionaries/data/types.ts';
import { countryExists, readCountries, toUiLanguage } from '../dictionaries/dictionaries.service.ts';

const invalid = (error: CodedValidationError) => new MethodFailure(ResponseCode.validation, 'Invalid request', [error]);
const unknownCountry = () => invalid(vf('countryCode', VfCode.notCountry));

/** The blocked card BINs (rails.tables.ts), for the screens and the card payout's check. */
export async function readBlockedBins(db: Db | Tx): Promise<string[]> {
  return (await db.select({ bin: blockedCardBins.bin }).from(blockedCardBins).orderBy(asc(blockedCardBins.bin))).map((r) => r.bin);
}

/**
 * An instant key as the rail takes it (instantKeyInfo, and the payee page's globalPaymentInstantDetails):
 * the key by its type's format, the receiver's CPF or CNPJ by its check digits when given.
 */
export function instantInfo(input: { instantKey: string; instantKeyType: InstantKeyType; taxId?: string }): { instantKey: string; instantKeyType: InstantKeyType; taxId: string | null } {
  const key = checkInstantKey(input.instantKeyType, input.instantKey);
  if (!key.ok) throw invalid(vf('instantKey', key.code as typeof VfCode.badFormat));
  const taxIdText = input.taxId?.trim() ?? '';
  if (taxIdText === '') return { instantKey: key.value, instantKeyType: input.instantKeyType, taxId: null };
  const taxId = checkBrazilTaxId(taxIdText);
  if (!taxId.ok) throw invalid(vf('taxId', taxId.code as typeof VfCode.badFormat));
  return { instantKey: key.value, instantKeyType: input.instantKeyType, taxId: taxId.value };
}

export const externalHandlers: HandlerTable<typeof externalMethods> = {
  async blockedBinList(_input, ctx) {
    return { bins: await readBlockedBins(ctx.db) };
  },

  async transferMethods(input, ctx) {
    if (!(await countryExists(ctx.db, input.countryCode))) throw unknownCountry();
    return { methods: availableMethods(input.countryCode, input.currencyCode) };
  },

  async extraParams(input, ctx) {
    if (!(await countryExists(ctx.db, input.countryCode))) throw unknownCountry();
    // copies: the answer does not share the data's (read-only) arrays
    const route = payoutRoute(input.paymentMethod, input.countryCode, input.currencyCode);
    const params = (route?.fields ?? []).map(({ digits, options, ...field }) => ({
      ...field,
      ...(digits ? { digits: [digits[0], digits[1]] as [number, number] } : {}),
      ...(options ? { options: [...options] } : {}),
    }));
    return { params, ...(route?.oneOf ? { oneOf: route.oneOf.map((group) => [...group]) } : {}) };
  },

  async banksList(input, ctx) {
    if (!(await countryExists(ctx.db, input.countryCode))) throw unknownCountry();
    return {
      banks: banksOf(input.countryCode).map((bank) => ({
        bankName: bank.bankName,
        swift: bank.swift,
        city: bank.city,
        ...(bank.clearingCode ? { clearingCode: bank.clearingCode } : {}),
      })),
    };
  },

  async branchCodeOptions(input, ctx) {
    if (!(await countryExists(ctx.db, input.countryCode))) throw unknownCountry();
    // the country's local bank transfer form, whatever its currency (the data: PAYOUT_ROUTES.eft)
    const fields = PAYOUT_ROUTES.eft.find((route) => route.countries !== 'any' && route.countries.includes(input.countryCode))?.fields ?? [];
    const format = (name: string) => {
      const field = fields.find((f) => f.name === name);
      return field?.digits ? { digits: field.digits[1] } : null;
    };
    const bankCode = format('bankCode');
    const branchCode = format('branchCode');
    return { required: bankCode !== null && branchCode !== null, bankCode, branchCode };
  },

  async instantKeyInfo(input) {
    return { instantInfo: instantInfo(input) };
  },

  async instantBankList(input, ctx) {
    if (!(await countryExists(ctx.db, input.countryCode))) throw unknownCountry();
    // the banks of a country an instant payout reaches (in any currency it takes there)
    if (!PAYOUT_ROUTES.instant.some((route) => route.countries === 'any' || route.countries.includes(input.countryCode))) return { banks: [] };
    return externalHandlers.banksList({ countryCode: input.countryCode }, ctx);
  },

  async swiftLookup(input) {
    const check = checkBic(input.swift);
    if (!check.ok) throw invalid(vf('swift', check.code));
    return { bankDetails: bankBySwift(check.bic) };
  },

  async ibanLookup(input, ctx) {
    const check = checkIban(input.iban);
    if (!check.ok) throw invalid(vf('iban', check.code));
    // the country named in the caller's language, from the platform's own dictionary
    const countries = new Map((await readCountries(ctx.db, DictionaryKey.countries, toUiLanguage(ctx.lang))).map((c) => [c.code, c.name]));
    return { bankDetails: bankByIban(check.iban, (code) => countries.get(code) ?? code) };
  },
};
