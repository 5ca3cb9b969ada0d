/**
 * Reference dictionaries over HTTP (document 3 §3, §7): field names of the spec, languages,
 * hideAdult, follow-up questions, address document types per country and their token rule.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { eq, and, sql } from 'drizzle-orm';
import { dictionaryMethods, type DictionaryMethodName } from '../../api/dictionaries.ts';
import { dictionaryItems } from '../../server/modules/dictionaries/dictionaries.tables.ts';
import { seedDictionaries } from '../../server/modules/dictionaries/dictionaries.seed.ts';
import { callMethod, createTestApp, signIn, type TestApp } from './harness.ts';

let t: TestApp;
let token: string;

beforeAll(async () => {
  t = await createTestApp();
  token = (await signIn(t.app, 'boris')).accessToken;
});
afterAll(async () => {
  await t?.close();
});

type Body = Record<string, unknown> & { responseCode: string };

async function dictionary(name: DictionaryMethodName, body: Record<string, unknown> = {}, withToken = false): Promise<Body> {
  const answer = await callMethod(t.app, name, body, withToken ? { token } : {});
  expect(answer.status, `${name} HTTP status`).toBe(200);
  expect(answer.body.responseCode, `${name}: ${JSON.stringify(answer.body).slice(0, 300)}`).toBe('00');
  // The answer matches the contract (api/dictionaries.ts) exactly.
  const parsed = v.safeParse(dictionaryMethods[name].response, answer.body);
  expect(parsed.success, `${name} matches its response schema`).toBe(true);
  return answer.body;
}

/** Follows a dotted path of the spec's field names to the list. */
function listAt(body: Body, path: string): unknown[] {
  let value: unknown = body;
  for (const key of path.split('.')) value = (value as Record<string, unknown> | undefined)?.[key];
  expect(Array.isArray(value), `${path} is a list`).toBe(true);
  return value as unknown[];
}

type Named = { id: number; name: string };

describe('every dictionary answers 00 with the field names of the spec', () => {
  const cases: [DictionaryMethodName, string[], boolean?][] = [
    [
      'dictionaries',
      [
        'dictionaries.dictionaryOccupationList.dictionary.occupation',
        'dictionaries.dictionaryCountries.dictionary.country',
        'dictionaries.dictionaryCurrenciesList.dictionary.currency',
        'dictionaries.dictionaryTransactionTypeList.dictionary.transactionType',
      ],
    ],
    ['dictionaryBirthCountries', ['dictionary.country']],
    ['dictionaryCurrencies', ['dictionary.currency']],
    ['dictionaryOccupation', ['occupation']],
    ['dictionaryOccupation2', ['occupation']],
    ['dictionaryTransactionType', ['transactionType']],
    ['dictionaryPersonalAgreements', ['agreements']],
    ['dictionaryPersonalEstimatedMonthlyDeposits', ['estimatedMonthlyDeposits']],
    ['dictionaryDocumentTypes', ['customerDocumentCategories']],
    ['dictionaryCustomerAddressDocumentTypes', ['customerDocumentCategories'], true],
    ['dictionaryPersonalSourceOfFunds', ['sourceOfFunds']],
    ['dictionaryPersonalSourceOfFunds2', ['sourceOfFunds']],
    ['dictionaryEmployeeSourceOfFunds', ['sourceOfFunds']],
    ['dictionaryBusinessSourceOfFunds', ['sourceOfFunds']],
    ['dictionaryPersonalPurposeOfAccount', ['purposeOfAccounts']],
    ['dictionaryBusinessPurposeOfAccount', ['purposeOfAccounts']],
    ['dictionaryIndustry', ['industry']],
    ['dictionaryPersonalAdditionalQuestion', ['additionalQuestions']],
    ['dictionaryBusinessAdditionalQuestion', ['additionalQuestions']],
    ['dictionaryTaxNumbers', ['taxNumbers']],
  ];

  it('covers every method of the contract', () => {
    expect(cases.map(([name]) => name).sort()).toEqual(Object.keys(dictionaryMethods).sort());
  });

  it.each(cases)('%s', async (name, paths, needsToken) => {
    const body = await dictionary(name, { lang: 'en' }, needsToken);
    for (const path of paths) expect(listAt(body, path).length, path).toBeGreaterThan(0);
  });
});

describe('languages', () => {
  it('names follow lang: Germany is Німеччина in uk, Alemania in es, Germany in en', async () => {
    const countryOf = async (lang: string) => {
      const body = await dictionary('dictionaries', { lang });
      const list = listAt(body, 'dictionaries.dictionaryCountries.dictionary.country') as { code: string; name: string; phoneCode: string }[];
      return list.find((c) => c.code === 'DE');
    };
    expect(await countryOf('en')).toEqual({ code: 'DE', name: 'Germany', phoneCode: '49' });
    expect((await countryOf('uk'))?.name).toBe('Німеччина');
    expect((await countryOf('es'))?.name).toBe('Alemania');
    expect((await countryOf('ru'))?.name).toBe('Германия');
    expect((await countryOf('ro'))?.name).toBe('Germania');
    expect((await countryOf('pt'))?.name).toBe('Alemanha');
  });

  it("'ua' answers in Ukrainian, as does Accept-Language: uk without a body lang", async () => {
    const ua = await dictionary('dictionaryOccupation', { lang: 'ua' });
    const uk = await dictionary('dictionaryOccupation', { lang: 'uk' });
    const en = await dictionary('dictionaryOccupation', { lang: 'en' });
    expect(ua.occupation).toEqual(uk.occupation);
    expect(ua.occupation).not.toEqual(en.occupation);
    const byHeader = await callMethod(t.app, 'dictionaryOccupation', {}, { headers: { 'accept-language': 'uk-UA,uk;q=0.9' } });
    expect(byHeader.body.occupation).toEqual(uk.occupation);
  });

  it('every plain list is really translated: most names differ from English in every language', async () => {
    const plain: [DictionaryMethodName, string][] = [
      ['dictionaryOccupation', 'occupation'],
      ['dictionaryOccupation2', 'occupation'],
      ['dictionaryTransactionType', 'transactionType'],
      ['dictionaryPersonalAgreements', 'agreements'],
      ['dictionaryPersonalSourceOfFunds', 'sourceOfFunds'],
      ['dictionaryPersonalSourceOfFunds2', 'sourceOfFunds'],
      ['dictionaryEmployeeSourceOfFunds', 'sourceOfFunds'],
      ['dictionaryBusinessSourceOfFunds', 'sourceOfFunds'],
      ['dictionaryPersonalPurposeOfAccount', 'purposeOfAccounts'],
      ['dictionaryBusinessPurposeOfAccount', 'purposeOfAccounts'],
    ];
    for (const [name, key] of plain) {
      const english = listAt(await dictionary(name, { lang: 'en' }), key) as Named[];
      for (const lang of ['es', 'pt', 'ro', 'ru', 'uk']) {
        const other = listAt(await dictionary(name, { lang }), key) as Named[];
        expect(other.map((i) => i.id), `${name} ${lang} ids`).toEqual(english.map((i) => i.id));
        const same = other.filter((item, i) => item.name === english[i]?.name).length;
        expect(same / other.length, `${name} in ${lang}: ${same} names equal English`).toBeLessThan(0.2);
      }
    }
  });

  it('countries are sorted by the localized name with the language collation', async () => {
    for (const lang of ['en', 'uk', 'ro']) {
      const body = await dictionary('dictionaryBirthCountries', { lang });
      const names = (listAt(body, 'dictionary.country') as { name: string }[]).map((c) => c.name);
      const collator = new Intl.Collator(lang, { sensitivity: 'base' });
      expect(names).toEqual([...names].sort((a, b) => collator.compare(a, b)));
    }
  });
});

describe('contents', () => {
  it('countries: every ISO 3166-1 country with a phone code; birth countries add SU, YU, CS, DD', async () => {
    const countries = listAt(await dictionary('dictionaries', { lang: 'en' }), 'dictionaries.dictionaryCountries.dictionary.country') as {
      code: string;
      phoneCode: string;
    }[];
    expect(countries.length).toBeGreaterThanOrEqual(249);
    for (const c of countries) expect(c.phoneCode, c.code).toMatch(/^[1-9][0-9]{0,3}$/);
    expect(countries.find((c) => c.code === 'UA')?.phoneCode).toBe('380');
    expect(countries.find((c) => c.code === 'US')?.phoneCode).toBe('1');
    const codes = new Set(countries.map((c) => c.code));
    const birth = listAt(await dictionary('dictionaryBirthCountries', { lang: 'ru' }), 'dictionary.country') as { code: string; name: string }[];
    for (const historical of ['SU', 'YU', 'CS', 'DD']) {
      expect(codes.has(historical), historical).toBe(false);
      expect(birth.some((c) => c.code === historical), historical).toBe(true);
    }
    expect(birth.find((c) => c.code === 'SU')?.name).toContain('СССР');
    expect(birth.length).toBe(countries.length + 4);
  });

  it('currencies: six fiat with exponent 2 and symbols, BTC and ETH with exponent 8', async () => {
    const list = listAt(await dictionary('dictionaryCurrencies', { lang: 'en' }), 'dictionary.currency') as {
      code: string;
      exponent: number;
      symbol: string;
      crypto: boolean;
    }[];
    const byCode = new Map(list.map((c) => [c.code, c]));
    for (const code of ['EUR', 'USD', 'AUD', 'CAD', 'GBP', 'RON']) {
      expect(byCode.get(code)?.exponent, code).toBe(2);
      expect(byCode.get(code)?.crypto, code).toBe(false);
      expect(byCode.get(code)?.symbol.length, code).toBeGreaterThan(0);
    }
    expect(byCode.get('EUR')?.symbol).toBe('€');
    expect(byCode.get('BTC')).toMatchObject({ exponent: 8, crypto: true });
    expect(byCode.get('ETH')).toMatchObject({ exponent: 8, crypto: true });
  });

  it('document categories are 1-12; types 4 and 5 need a back; 88 is for RU and UA only', async () => {
    const categories = listAt(await dictionary('dictionaryDocumentTypes', { lang: 'en' }), 'customerDocumentCategories') as {
      id: number;
      name: string;
      customerDocumentTypes: { id: number; needsBack: boolean; secondPage?: string; countryCodes?: string[] }[];
    }[];
    expect(categories.map((c) => c.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    for (const c of categories) expect(c.customerDocumentTypes.length, `category ${c.id}`).toBeGreaterThan(0);
    const identity = categories[0]!.customerDocumentTypes;
    expect(identity.find((d) => d.id === 4)).toMatchObject({ needsBack: true, secondPage: 'back' });
    expect(identity.find((d) => d.id === 5)).toMatchObject({ needsBack: true, secondPage: 'back' });
    expect(identity.find((d) => d.id === 1)?.needsBack).toBe(false);
    expect(identity.find((d) => d.id === 88)).toMatchObject({ needsBack: false, secondPage: 'registrationStamp', countryCodes: ['RU', 'UA'] });
  });

  it('hideAdult drops the adult industry group', async () => {
    const groupsOf = async (body: Record<string, unknown>) =>
      (listAt(await dictionary('dictionaryIndustry', body), 'industry') as { id: string; industries: Named[] }[]).map((g) => g.id);
    expect(await groupsOf({ lang: 'en' })).toEqual(['mainstream', 'financial', 'investment', 'adult']);
    expect(await groupsOf({ lang: 'en', hideAdult: false })).toContain('adult');
    expect(await groupsOf({ lang: 'en', hideAdult: true })).toEqual(['mainstream', 'financial', 'investment']);
  });

  it('yes/no questions carry the <id>Value textarea when true; controlAccount answer 2 carries name-and-date', async () => {
    type Question = { id: string; type: string; options?: { value: unknown; label: string }[]; followUp?: Record<string, unknown> };
    const personal = listAt(await dictionary('dictionaryPersonalAdditionalQuestion', { lang: 'es' }), 'additionalQuestions') as Question[];
    const business = listAt(await dictionary('dictionaryBusinessAdditionalQuestion', { lang: 'es' }), 'additionalQuestions') as Question[];
    const another = personal.find((q) => q.id === 'anotherAccount');
    expect(another).toMatchObject({ type: 'radio', followUp: { when: true, id: 'anotherAccountValue', type: 'textarea' } });
    expect(another?.options).toEqual([
      { value: true, label: 'Sí' },
      { value: false, label: 'No' },
    ]);
    expect(business.find((q) => q.id === 'businessAnotherAccount')).toMatchObject({
      type: 'radio',
      followUp: { when: true, id: 'businessAnotherAccountValue', type: 'textarea' },
    });
    const control = business.find((q) => q.id === 'controlAccount');
    expect(control).toMatchObject({ type: 'radio', followUp: { when: 2, type: 'nameDate' } });
    expect(control?.options?.map((o) => o.value)).toContain(2);
    expect(String(control?.followUp?.question)).toMatch(/nacimiento/);
  });
});

describe('address document types', () => {
  type Category = { id: number; customerDocumentTypes: { id: number }[] };
  const typeIds = (body: Body) => (listAt(body, 'customerDocumentCategories') as Category[]).flatMap((c) => c.customerDocumentTypes.map((d) => d.id));

  it('RU and UA include type 88; DE does not (and gets its own Meldebescheinigung)', async () => {
    const ru = typeIds(await dictionary('dictionaryCustomerAddressDocumentTypes', { lang: 'en', countryCode: 'RU' }, true));
    const ua = typeIds(await dictionary('dictionaryCustomerAddressDocumentTypes', { lang: 'en', countryCode: 'UA' }, true));
    const de = typeIds(await dictionary('dictionaryCustomerAddressDocumentTypes', { lang: 'en', countryCode: 'DE' }, true));
    expect(ru).toContain(88);
    expect(ua).toContain(88);
    expect(de).not.toContain(88);
    expect(de).toContain(18);
    expect(ru).not.toContain(18);
    // The default set is offered everywhere: utility bill and bank statement.
    for (const ids of [ru, ua, de]) expect(ids).toEqual(expect.arrayContaining([10, 11]));
  });

  it('without a countryCode answers every type', async () => {
    const all = typeIds(await dictionary('dictionaryCustomerAddressDocumentTypes', { lang: 'en' }, true));
    expect(all).toEqual(expect.arrayContaining([10, 11, 16, 17, 18, 88]));
  });

  it('without a token answers HTTP 401 AU', async () => {
    const answer = await callMethod(t.app, 'dictionaryCustomerAddressDocumentTypes', { lang: 'en', countryCode: 'RU' });
    expect(answer.status).toBe(401);
    expect(answer.body.responseCode).toBe('AU');
  });

  it('a malformed country code is VF, an unknown one TA1', async () => {
    const lower = await callMethod(t.app, 'dictionaryCustomerAddressDocumentTypes', { countryCode: 'ru' }, { token });
    expect(lower.body.responseCode).toBe('VF');
    expect(lower.body.validationErrors).toEqual([expect.objectContaining({ param: 'countryCode' })]);
    const unknown = await callMethod(t.app, 'dictionaryCustomerAddressDocumentTypes', { countryCode: 'ZZ' }, { token });
    expect(unknown.body.responseCode).toBe('TA1');
  });
});

describe('seedDictionaries', () => {
  const countOf = async () => (await t.db.select({ n: sql<number>`count(*)::int` }).from(dictionaryItems))[0]!.n;

  it('is idempotent and restores changed names', async () => {
    const before = await countOf();
    const where = and(eq(dictionaryItems.dictionary, 'countries'), eq(dictionaryItems.itemKey, 'DE'));
    await t.db
      .update(dictionaryItems)
      .set({ names: { en: 'X', es: 'X', pt: 'X', ro: 'X', ru: 'X', uk: 'X' } })
      .where(where);
    await t.db.insert(dictionaryItems).values({
      dictionary: 'occupations',
      itemKey: '999',
      sortOrder: 1,
      data: {},
      names: { en: 'Stale', es: 'Stale', pt: 'Stale', ro: 'Stale', ru: 'Stale', uk: 'Stale' },
    });
    await seedDictionaries(t.db);
    await seedDictionaries(t.db);
    expect(await countOf()).toBe(before);
    const [row] = await t.db.select().from(dictionaryItems).where(where);
    expect(row?.names.uk).toBe('Німеччина');
    const occupations = listAt(await dictionary('dictionaryOccupation', { lang: 'en' }), 'occupation') as Named[];
    expect(occupations.some((o) => o.id === 999)).toBe(false);
  });
});
