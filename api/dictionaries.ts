/**
 * Reference dictionaries (document 3 §3 and §7). Public: no token needed, `lang` picks the
 * language of names. Response field names are those of the spec.
 */
import * as v from 'valibot';
import { VfCode } from './errors.ts';
import { defineMethod } from './method.ts';
import { TaxNumberEntrySchema } from './tax-numbers.ts';

const id = v.number();
export const NamedItemSchema = v.object({ id, name: v.string() });
export const CountrySchema = v.object({
  /** ISO 3166-1 alpha-2 */
  code: v.string(),
  name: v.string(),
  /** international dialling code without the plus sign */
  phoneCode: v.string(),
});
export const CurrencySchema = v.object({
  code: v.string(),
  name: v.string(),
  /** minor-unit exponent: 2 for EUR, 8 for BTC */
  exponent: v.number(),
  symbol: v.string(),
  crypto: v.boolean(),
});
export const TransactionTypeSchema = NamedItemSchema;
export const AgreementSchema = v.object({ id, name: v.string(), url: v.string() });
export const DocumentTypeSchema = v.object({
  id,
  name: v.string(),
  /** a front and a back file are needed (types 4 and 5) */
  needsBack: v.boolean(),
  /**
   * The second file besides the front page, when one is needed: the back (types 4 and 5) or the
   * registration-stamp page (type 88). Absent: one file.
   */
  secondPage: v.optional(v.picklist(['back', 'registrationStamp'])),
  /** Offered only for these countries (ISO alpha-2), e.g. type 88 for RU and UA. Absent: every country. */
  countryCodes: v.optional(v.array(v.string())),
});
export const DocumentCategorySchema = v.object({
  id,
  name: v.string(),
  customerDocumentTypes: v.array(DocumentTypeSchema),
});
export const IndustryGroupSchema = v.object({
  id: v.picklist(['mainstream', 'financial', 'investment', 'adult']),
  name: v.string(),
  industries: v.array(NamedItemSchema),
});

export type QuestionBase = { id: string; question: string };
export const AdditionalQuestionSchema = v.object({
  id: v.string(),
  type: v.picklist(['radio', 'textarea', 'nameDate']),
  question: v.string(),
  options: v.optional(v.array(v.object({ value: v.union([v.string(), v.number(), v.boolean()]), label: v.string() }))),
  /** Shown when the answer equals `when`: id is the question id plus `Value` for yes/no questions. */
  followUp: v.optional(
    v.object({
      when: v.union([v.string(), v.number(), v.boolean()]),
      id: v.string(),
      type: v.picklist(['textarea', 'nameDate']),
      question: v.string(),
    }),
  ),
});

const list = <T extends v.GenericSchema>(item: T) => v.array(item);

export const dictionaries = defineMethod({
  name: 'dictionaries',
  access: 'public',
  mutation: false,
  request: {},
  response: {
    dictionaries: v.object({
      dictionaryOccupationList: v.object({ dictionary: v.object({ occupation: list(NamedItemSchema) }) }),
      dictionaryCountries: v.object({ dictionary: v.object({ country: list(CountrySchema) }) }),
      dictionaryCurrenciesList: v.object({ dictionary: v.object({ currency: list(CurrencySchema) }) }),
      dictionaryTransactionTypeList: v.object({ dictionary: v.object({ transactionType: list(TransactionTypeSchema) }) }),
    }),
  },
});

const simple = <const N extends string, const K extends string, T extends v.GenericSchema>(name: N, key: K, item: T) =>
  defineMethod({
    name,
    access: 'public',
    mutation: false,
    request: {},
    response: { [key]: list(item) } as { [P in K]: v.ArraySchema<T, undefined> },
  });

export const dictionaryBirthCountries = defineMethod({
  name: 'dictionaryBirthCountries',
  access: 'public',
  mutation: false,
  request: {},
  response: { dictionary: v.object({ country: list(CountrySchema) }) },
});
export const dictionaryCurrencies = defineMethod({
  name: 'dictionaryCurrencies',
  access: 'public',
  mutation: false,
  request: {},
  response: { dictionary: v.object({ currency: list(CurrencySchema) }) },
});
export const dictionaryOccupation = simple('dictionaryOccupation', 'occupation', NamedItemSchema);
export const dictionaryOccupation2 = simple('dictionaryOccupation2', 'occupation', NamedItemSchema);
export const dictionaryTransactionType = simple('dictionaryTransactionType', 'transactionType', TransactionTypeSchema);
export const dictionaryPersonalAgreements = simple('dictionaryPersonalAgreements', 'agreements', AgreementSchema);
export const dictionaryPersonalEstimatedMonthlyDeposits = simple(
  'dictionaryPersonalEstimatedMonthlyDeposits',
  'estimatedMonthlyDeposits',
  NamedItemSchema,
);
export const dictionaryDocumentTypes = simple('dictionaryDocumentTypes', 'customerDocumentCategories', DocumentCategorySchema);
/** Address document types for a country (or all); the client fetches it only when signed in. */
export const dictionaryCustomerAddressDocumentTypes = defineMethod({
  name: 'dictionaryCustomerAddressDocumentTypes',
  access: 'customer',
  mutation: false,
  request: { countryCode: v.optional(v.pipe(v.string(), v.regex(/^[A-Z]{2}$/, VfCode.countryCodeFormat))) },
  response: { customerDocumentCategories: list(DocumentCategorySchema) },
});
export const dictionaryPersonalSourceOfFunds = simple('dictionaryPersonalSourceOfFunds', 'sourceOfFunds', NamedItemSchema);
export const dictionaryPersonalSourceOfFunds2 = simple('dictionaryPersonalSourceOfFunds2', 'sourceOfFunds', NamedItemSchema);
export const dictionaryEmployeeSourceOfFunds = simple('dictionaryEmployeeSourceOfFunds', 'sourceOfFunds', NamedItemSchema);
export const dictionaryBusinessSourceOfFunds = simple('dictionaryBusinessSourceOfFunds', 'sourceOfFunds', NamedItemSchema);
export const dictionaryPersonalPurposeOfAccount = simple('dictionaryPersonalPurposeOfAccount', 'purposeOfAccounts', NamedItemSchema);
export const dictionaryBusinessPurposeOfAccount = simple('dictionaryBusinessPurposeOfAccount', 'purposeOfAccounts', NamedItemSchema);
/** Industries in their groups; `hideAdult` drops the adult group for variants that hide it. */
export const dictionaryIndustry = defineMethod({
  name: 'dictionaryIndustry',
  access: 'public',
  mutation: false,
  request: { hideAdult: v.optional(v.boolean()) },
  response: { industry: list(IndustryGroupSchema) },
});
export const dictionaryPersonalAdditionalQuestion = simple(
  'dictionaryPersonalAdditionalQuestion',
  'additionalQuestions',
  AdditionalQuestionSchema,
);
export const dictionaryBusinessAdditionalQuestion = simple(
  'dictionaryBusinessAdditionalQuestion',
  'additionalQuestions',
  AdditionalQuestionSchema,
);

/**
 * The per-country tax-number table (document 3 §9; the spec names no call, so the name is ours):
 * a row for every country (api/tax-numbers.ts, English names like the countries dictionary's
 * data) and the generic entry for a country without one. The checks themselves are in the same
 * module, which the app imports directly.
 */
export const dictionaryTaxNumbers = defineMethod({
  name: 'dictionaryTaxNumbers',
  access: 'public',
  mutation: false,
  request: {},
  response: { taxNumbers: list(TaxNumberEntrySchema), generic: TaxNumberEntrySchema },
});

/**
 * The states or provinces of a country (document 2 §7 "states by countryCode", 3 §7): for the
 * address forms' stateCode. A country without a list answers none (the form takes stateName as text).
 */
export const states = defineMethod({
  name: 'states',
  access: 'public',
  mutation: false,
  request: { countryCode: v.pipe(v.string(), v.trim(), v.toUpperCase(), v.regex(/^[A-Z]{2}$/, 'must be a two-letter country code')) },
  response: { states: v.array(v.object({ stateCode: v.string(), stateName: v.string() })) },
});

/** Not a dictionary of the store (src/lib/dictionary-store.ts): a list per country, read as needed. */
export const stateMethods = { states };

export const dictionaryMethods = {
  dictionaries,
  dictionaryBirthCountries,
  dictionaryCurrencies,
  dictionaryOccupation,
  dictionaryOccupation2,
  dictionaryTransactionType,
  dictionaryPersonalAgreements,
  dictionaryPersonalEstimatedMonthlyDeposits,
  dictionaryDocumentTypes,
  dictionaryCustomerAddressDocumentTypes,
  dictionaryPersonalSourceOfFunds,
  dictionaryPersonalSourceOfFunds2,
  dictionaryEmployeeSourceOfFunds,
  dictionaryBusinessSourceOfFunds,
  dictionaryPersonalPurposeOfAccount,
  dictionaryBusinessPurposeOfAccount,
  dictionaryIndustry,
  dictionaryPersonalAdditionalQuestion,
  dictionaryBusinessAdditionalQuestion,
  dictionaryTaxNumbers,
};
export type DictionaryMethodName = keyof typeof dictionaryMethods;
