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
import { availableMethods, payoutRoute } from '../../../api/payees/methods.ts';
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
