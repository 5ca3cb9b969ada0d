/**
 * Countries (ISO 3166-1 alpha-2, plus XK Kosovo, which the package and banks treat as a country)
 * and birth countries (the same list plus states people were born in that no longer exist).
 *
 * Why names come from `i18n-iso-countries` at seed time rather than from a generated file: the
 * package is a pinned runtime dependency with the six UI languages, so the seed reads it directly
 * and a version bump of the package updates the names on the next seed (the seed upserts). No
 * generated 250 x 6 table to keep in sync by hand. A handful of the package's official forms
 * read badly in a picker ("Moldova, Republic of"); `nameOverrides` replaces exactly those.
 *
 * Phone codes are our own table below: international dialling codes without the plus sign, the
 * main code where a territory has several (DO 1809, also 1829/1849).
 */
import en from 'i18n-iso-countries/langs/en.json' with { type: 'json' };
import es from 'i18n-iso-countries/langs/es.json' with { type: 'json' };
import pt from 'i18n-iso-countries/langs/pt.json' with { type: 'json' };
import ro from 'i18n-iso-countries/langs/ro.json' with { type: 'json' };
import ru from 'i18n-iso-countries/langs/ru.json' with { type: 'json' };
import uk from 'i18n-iso-countries/langs/uk.json' with { type: 'json' };
import type { LocalizedNames, UiLanguage } from '../dictionaries.tables.ts';
import { DictionaryKey, names, uiLanguages, type DictionaryRow } from './types.ts';

type CountryNames = Record<string, string | string[]>;
const packageNames: Record<UiLanguage, CountryNames> = {
  en: en.countries,
  es: es.countries,
  pt: pt.countries,
  ro: ro.countries,
  ru: ru.countries,
  uk: uk.countries,
};

/** International dialling code per country, without the plus sign. */
export const phoneCodes: Readonly<Record<string, string>> = {
  AD: '376', AE: '971', AF: '93', AG: '1268', AI: '1264', AL: '355', AM: '374', AO: '244', AQ: '672',
  AR: '54', AS: '1684', AT: '43', AU: '61', AW: '297', AX: '358', AZ: '994',
  BA: '387', BB: '1246', BD: '880', BE: '32', BF: '226', BG: '359', BH: '973', BI: '257', BJ: '229',
  BL: '590', BM: '1441', BN: '673', BO: '591', BQ: '599', BR: '55', BS: '1242', BT: '975', BV: '47',
  BW: '267', BY: '375', BZ: '501',
  CA: '1', CC: '61', CD: '243', CF: '236', CG: '242', CH: '41', CI: '225', CK: '682', CL: '56',
  CM: '237', CN: '86', CO: '57', CR: '506', CU: '53', CV: '238', CW: '599', CX: '61', CY: '357',
  CZ: '420',
  DE: '49', DJ: '253', DK: '45', DM: '1767', DO: '1809', DZ: '213',
  EC: '593', EE: '372', EG: '20', EH: '212', ER: '291', ES: '34', ET: '251',
  FI: '358', FJ: '679', FK: '500', FM: '691', FO: '298', FR: '33',
  GA: '241', GB: '44', GD: '1473', GE: '995', GF: '594', GG: '44', GH: '233', GI: '350', GL: '299',
  GM: '220', GN: '224', GP: '590', GQ: '240', GR: '30', GS: '500', GT: '502', GU: '1671', GW: '245',
  GY: '592',
  HK: '852', HM: '672', HN: '504', HR: '385', HT: '509', HU: '36',
  ID: '62', IE: '353', IL: '972', IM: '44', IN: '91', IO: '246', IQ: '964', IR: '98', IS: '354',
  IT: '39',
  JE: '44', JM: '1876', JO: '962', JP: '81',
  KE: '254', KG: '996', KH: '855', KI: '686', KM: '269', KN: '1869', KP: '850', KR: '82', KW: '965',
  KY: '1345', KZ: '7',
  LA: '856', LB: '961', LC: '1758', LI: '423', LK: '94', LR: '231', LS: '266', LT: '370', LU: '352',
  LV: '371', LY: '218',
  MA: '212', MC: '377', MD: '373', ME: '382', MF: '590', MG: '261', MH: '692', MK: '389', ML: '223',
  MM: '95', MN: '976', MO: '853', MP: '1670', MQ: '596', MR: '222', MS: '1664', MT: '356', MU: '230',
  MV: '960', MW: '265', MX: '52', MY: '60', MZ: '258',
  NA: '264', NC: '687', NE: '227', NF: '672', NG: '234', NI: '505', NL: '31', NO: '47', NP: '977',
  NR: '674', NU: '683', NZ: '64',
  OM: '968',
  PA: '507', PE: '51', PF: '689', PG: '675', PH: '63', PK: '92', PL: '48', PM: '508', PN: '64',
  PR: '1787', PS: '970', PT: '351', PW: '680', PY: '595',
  QA: '974',
  RE: '262', RO: '40', RS: '381', RU: '7', RW: '250',
  SA: '966', SB: '677', SC: '248', SD: '249', SE: '46', SG: '65', SH: '290', SI: '386', SJ: '47',
  SK: '421', SL: '232', SM: '378', SN: '221', SO: '252', SR: '597', SS: '211', ST: '239', SV: '503',
  SX: '1721', SY: '963', SZ: '268',
  TC: '1649', TD: '235', TF: '262', TG: '228', TH: '66', TJ: '992', TK: '690', TL: '670', TM: '993',
  TN: '216', TO: '676', TR: '90', TT: '1868', TV: '688', TW: '886', TZ: '255',
  UA: '380', UG: '256', UM: '1', US: '1', UY: '598', UZ: '998',
  // The Vatican's assigned 379 is not in service; its numbers are reached through Italy's 39 06 698.
  VA: '39', VC: '1784', VE: '58', VG: '1284', VI: '1340', VN: '84', VU: '678',
  WF: '681', WS: '685',
  XK: '383',
  YE: '967', YT: '262',
  ZA: '27', ZM: '260', ZW: '263',
};

/** Display names where the package's first (official) form reads badly in a list. */
const nameOverrides: Partial<Record<UiLanguage, Record<string, string>>> = {
  en: {
    US: 'United States',
    RU: 'Russia',
    MD: 'Moldova',
    TW: 'Taiwan',
    FM: 'Micronesia',
    LA: 'Laos',
    VA: 'Vatican City',
    VG: 'British Virgin Islands',
    VI: 'U.S. Virgin Islands',
    MK: 'North Macedonia',
    FK: 'Falkland Islands',
    BO: 'Bolivia',
  },
  ru: { RU: 'Россия', CN: 'Китай', KP: 'КНДР' },
  uk: { TW: 'Тайвань' },
  pt: { CG: 'República do Congo' },
};

/** Historical states still found as places of birth (codes from ISO 3166-3 / the old 3166-1). */
const historicalCountries: readonly { code: string; phoneCode: string; names: LocalizedNames }[] = [
  {
    code: 'SU',
    phoneCode: '7',
    names: names(
      'Soviet Union (USSR)',
      'Unión Soviética (URSS)',
      'União Soviética (URSS)',
      'Uniunea Sovietică (URSS)',
      'СССР (Советский Союз)',
      'СРСР (Радянський Союз)',
    ),
  },
  {
    code: 'YU',
    phoneCode: '38',
    names: names('Yugoslavia', 'Yugoslavia', 'Iugoslávia', 'Iugoslavia', 'Югославия', 'Югославія'),
  },
  {
    code: 'CS',
    phoneCode: '42',
    names: names('Czechoslovakia', 'Checoslovaquia', 'Checoslováquia', 'Cehoslovacia', 'Чехословакия', 'Чехословаччина'),
  },
  {
    code: 'DD',
    phoneCode: '37',
    names: names(
      'East Germany (GDR)',
      'Alemania Oriental (RDA)',
      'Alemanha Oriental (RDA)',
      'Germania de Est (RDG)',
      'ГДР (Восточная Германия)',
      'НДР (Східна Німеччина)',
    ),
  },
];

function countryName(lang: UiLanguage, code: string): string {
  const override = nameOverrides[lang]?.[code];
  if (override) return override;
  const value = packageNames[lang][code];
  const name = Array.isArray(value) ? value[0] : value;
  if (!name) throw new Error(`i18n-iso-countries has no ${lang} name for ${code}`);
  return name;
}

/** Every country code we list: the package's alpha-2 codes, each of which must have a phone code. */
export function countryCodes(): string[] {
  const codes = Object.keys(packageNames.en).sort();
  const missing = codes.filter((code) => !phoneCodes[code]);
  if (missing.length > 0) throw new Error(`no phone code for ${missing.join(', ')}`);
  return codes;
}

function localizedCountryNames(code: string): LocalizedNames {
  const result = {} as LocalizedNames;
  for (const lang of uiLanguages) result[lang] = countryName(lang, code);
  return result;
}

/**
 * Country rows. sortOrder is the code's position; the handler sorts by the localized name with
 * the language's collation, so the stored order only breaks ties.
 */
export function countryRows(): DictionaryRow[] {
  return countryCodes().map((code, index) => ({
    dictionary: DictionaryKey.countries,
    itemKey: code,
    sortOrder: index + 1,
    parentKey: null,
    data: { phoneCode: phoneCodes[code] },
    names: localizedCountryNames(code),
  }));
}

export function birthCountryRows(): DictionaryRow[] {
  const current = countryRows().map((row) => ({ ...row, dictionary: DictionaryKey.birthCountries }));
  const historical = historicalCountries.map((country, index) => ({
    dictionary: DictionaryKey.birthCountries,
    itemKey: country.code,
    sortOrder: current.length + index + 1,
    parentKey: null,
    data: { phoneCode: country.phoneCode, historical: true },
    names: country.names,
  }));
  return [...current, ...historical];
}
