/**
 * Named-method handlers of the reference dictionaries (document 3 §7 "Dictionaries"). Every
 * handler reads `dictionary_items` and answers in the caller's language (ctx.lang; 'ua' = 'uk').
 */
import { ResponseCode } from '../../../api/envelope.ts';
import type { dictionaryMethods, stateMethods } from '../../../api/dictionaries.ts';
import { MethodFailure, type HandlerTable, type MethodContext } from '../method-types.ts';
import { DictionaryKey } from './data/types.ts';
import { STATES_BY_COUNTRY } from './data/states.ts';
import {
  countryExists,
  readAgreements,
  readCountries,
  readCurrencies,
  readDocumentCategories,
  readIndustries,
  readNamed,
  readQuestions,
  toUiLanguage,
} from './dictionaries.service.ts';
import { VfCode, vf } from '../../../api/errors.ts';
import { GENERIC_TAX_NUMBER, TAX_NUMBERS } from '../../../api/tax-numbers.ts';

const langOf = (ctx: MethodContext) => toUiLanguage(ctx.lang);

export const stateHandlers: HandlerTable<typeof stateMethods> = {
  async states(input, ctx) {
    if (!(await countryExists(ctx.db, input.countryCode))) {
      throw new MethodFailure(ResponseCode.validation, 'Invalid request', [vf('countryCode', VfCode.notCountry)]);
    }
    return { states: (STATES_BY_COUNTRY[input.countryCode] ?? []).map(([stateCode, stateName]) => ({ stateCode, stateName })) };
  },
};

export const dictionaryHandlers: HandlerTable<typeof dictionaryMethods> = {
  async dictionaries(_input, ctx) {
    const lang = langOf(ctx);
    const occupation = await readNamed(ctx.db, DictionaryKey.occupations, lang);
    const country = await readCountries(ctx.db, DictionaryKey.countries, lang);
    const currency = await readCurrencies(ctx.db, lang);
    const transactionType = await readNamed(ctx.db, DictionaryKey.transactionTypes, lang);
    return {
      dictionaries: {
        dictionaryOccupationList: { dictionary: { occupation } },
        dictionaryCountries: { dictionary: { country } },
        dictionaryCurrenciesList: { dictionary: { currency } },
        dictionaryTransactionTypeList: { dictionary: { transactionType } },
      },
    };
  },
  async dictionaryBirthCountries(_input, ctx) {
    return { dictionary: { country: await readCountries(ctx.db, DictionaryKey.birthCountries, langOf(ctx)) } };
  },
  async dictionaryCurrencies(_input, ctx) {
    return { dictionary: { currency: await readCurrencies(ctx.db, langOf(ctx)) } };
  },
  async dictionaryOccupation(_input, ctx) {
    return { occupation: await readNamed(ctx.db, DictionaryKey.occupations, langOf(ctx)) };
  },
  async dictionaryOccupation2(_input, ctx) {
    return { occupation: await readNamed(ctx.db, DictionaryKey.occupations2, langOf(ctx)) };
  },
  async dictionaryTransactionType(_input, ctx) {
    return { transactionType: await readNamed(ctx.db, DictionaryKey.transactionTypes, langOf(ctx)) };
  },
  async dictionaryPersonalAgreements(_input, ctx) {
    return { agreements: await readAgreements(ctx.db, langOf(ctx)) };
  },
  async dictionaryPersonalEstimatedMonthlyDeposits(_input, ctx) {
    return { estimatedMonthlyDeposits: await readNamed(ctx.db, DictionaryKey.estimatedMonthlyDeposits, langOf(ctx)) };
  },
  async dictionaryDocumentTypes(_input, ctx) {
    return { customerDocumentCategories: await readDocumentCategories(ctx.db, langOf(ctx), DictionaryKey.documentTypes) };
  },
  async dictionaryCustomerAddressDocumentTypes(input, ctx) {
    const countryCode = input.countryCode;
    // The schema checked the shape (two capital letters); an unknown code is a clear TA1, not an
    // empty list the form would show as "no documents accepted".
    if (countryCode !== undefined && !(await countryExists(ctx.db, countryCode))) {
      throw new MethodFailure(ResponseCode.invalidParams, `unknown country code ${countryCode}`, [
        vf('countryCode', VfCode.notCountry),
      ]);
    }
    return {
      customerDocumentCategories: await readDocumentCategories(
        ctx.db,
        langOf(ctx),
        DictionaryKey.addressDocumentTypes,
        countryCode,
      ),
    };
  },
  async dictionaryPersonalSourceOfFunds(_input, ctx) {
    return { sourceOfFunds: await readNamed(ctx.db, DictionaryKey.personalSourceOfFunds, langOf(ctx)) };
  },
  async dictionaryPersonalSourceOfFunds2(_input, ctx) {
    return { sourceOfFunds: await readNamed(ctx.db, DictionaryKey.personalSourceOfFunds2, langOf(ctx)) };
  },
  async dictionaryEmployeeSourceOfFunds(_input, ctx) {
    return { sourceOfFunds: await readNamed(ctx.db, DictionaryKey.employeeSourceOfFunds, langOf(ctx)) };
  },
  async dictionaryBusinessSourceOfFunds(_input, ctx) {
    return { sourceOfFunds: await readNamed(ctx.db, DictionaryKey.businessSourceOfFunds, langOf(ctx)) };
  },
  async dictionaryPersonalPurposeOfAccount(_input, ctx) {
    return { purposeOfAccounts: await readNamed(ctx.db, DictionaryKey.personalPurposeOfAccount, langOf(ctx)) };
  },
  async dictionaryBusinessPurposeOfAccount(_input, ctx) {
    return { purposeOfAccounts: await readNamed(ctx.db, DictionaryKey.businessPurposeOfAccount, langOf(ctx)) };
  },
  async dictionaryIndustry(input, ctx) {
    return { industry: await readIndustries(ctx.db, langOf(ctx), input.hideAdult === true) };
  },
  async dictionaryPersonalAdditionalQuestion(_input, ctx) {
    return { additionalQuestions: await readQuestions(ctx.db, DictionaryKey.personalAdditionalQuestions, langOf(ctx)) };
  },
  async dictionaryBusinessAdditionalQuestion(_input, ctx) {
    return { additionalQuestions: await readQuestions(ctx.db, DictionaryKey.businessAdditionalQuestions, langOf(ctx)) };
  },
  // Code data, not a dictionary_items table: the rows and their checks are one reviewed module (api/tax-numbers.ts).
  async dictionaryTaxNumbers() {
    return { taxNumbers: [...TAX_NUMBERS], generic: GENERIC_TAX_NUMBER };
  },
};
