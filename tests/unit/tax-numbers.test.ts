/**
 * The per-country tax-number table (api/tax-numbers.ts; document 3 §9, §5 "Tax"): every check with
 * valid numbers (published examples of the tax authorities and number libraries, or computed
 * with the published algorithm; never real people's numbers) and invalid ones (a wrong check
 * digit, a wrong shape or a reserved range), every ISO country with a row, the CRS flags.
 */
import en from 'i18n-iso-countries/langs/en.json' with { type: 'json' };
import { describe, expect, it } from 'vitest';
import { GENERIC_TAX_NUMBER, ISO_COUNTRY_CODES, TAX_NUMBERS, checkTaxNumber, normaliseTaxNumber, taxNumberEntry } from '../../api/tax-numbers.ts';

type Use = 'personal' | 'business';
type Row = [country: string, use: Use, number: string, expected: 'ok' | 'format' | 'checkDigit'];

const ROWS: Row[] = [
  // US: SSN and ITIN, EIN
  ['US', 'personal', '123-45-6789', 'ok'],
  ['US', 'personal', '912-70-1234', 'ok'],
  ['US', 'personal', '666-12-3456', 'format'],
  ['US', 'personal', '000-12-3456', 'format'],
  ['US', 'personal', '123-00-4567', 'format'],
  ['US', 'personal', '123-45-0000', 'format'],
  ['US', 'personal', '912-93-1234', 'format'],
  ['US', 'personal', '078-05-1120', 'format'],
  ['US', 'business', '12-3456789', 'ok'],
  ['US', 'business', '98-7654321', 'ok'],
  ['US', 'business', '07-1234567', 'format'],
  ['US', 'business', '96-1234567', 'format'],
  ['US', 'business', '12-345678', 'format'],
  // GB: UTR (check digit first) and NINO
  ['GB', 'personal', '1955839661', 'ok'],
  ['GB', 'personal', 'AB 12 34 56 C', 'ok'],
  ['GB', 'personal', '2955839661', 'checkDigit'],
  ['GB', 'personal', 'QQ123456C', 'format'],
  ['GB', 'personal', 'GB123456A', 'format'],
  ['GB', 'personal', 'ZZ123456A', 'format'],
  ['GB', 'personal', 'AB123456E', 'format'],
  ['GB', 'business', '1123456789', 'ok'],
  ['GB', 'business', '99876 54321', 'ok'],
  ['GB', 'business', '1123456788', 'checkDigit'],
  ['GB', 'business', '112345678', 'format'],
  // DE: Steuer-ID, USt-IdNr or Steuernummer
  ['DE', 'personal', '36 574 261 809', 'ok'],
  ['DE', 'personal', '65929970489', 'ok'],
  ['DE', 'personal', '12345678920', 'ok'],
  ['DE', 'personal', '36574261808', 'checkDigit'],
  ['DE', 'personal', '01234567890', 'format'],
  ['DE', 'personal', '47112358133', 'format'], // two digits repeat
  ['DE', 'personal', '11123456780', 'format'], // three in a row
  ['DE', 'business', 'DE136695976', 'ok'],
  ['DE', 'business', 'DE 123 456 788', 'ok'],
  ['DE', 'business', '2181508150', 'ok'], // a state Steuernummer: shape only
  ['DE', 'business', 'DE136695975', 'checkDigit'],
  ['DE', 'business', 'DE12345678', 'format'],
  // ES: DNI, NIE; CIF
  ['ES', 'personal', '54362315-K', 'ok'],
  ['ES', 'personal', 'X2482300W', 'ok'],
  ['ES', 'personal', 'Y1234567X', 'ok'],
  ['ES', 'personal', '54362315Z', 'checkDigit'],
  ['ES', 'personal', 'X2482300A', 'checkDigit'],
  ['ES', 'personal', '5436231K', 'format'],
  ['ES', 'business', 'J99216582', 'ok'],
  ['ES', 'business', 'Q2826000H', 'ok'],
  ['ES', 'business', 'B12345674', 'ok'],
  ['ES', 'business', 'P1000009I', 'ok'], // control 9 as a letter
  ['ES', 'business', 'P1000009J', 'checkDigit'],
  ['ES', 'business', 'J99216583', 'checkDigit'],
  ['ES', 'business', 'I12345674', 'format'],
  // RO: CNP, CUI
  ['RO', 'personal', '1630615123457', 'ok'],
  ['RO', 'personal', '2850129123456', 'ok'],
  ['RO', 'personal', '1630615123458', 'checkDigit'],
  ['RO', 'personal', '1631315123457', 'format'], // month 13
  ['RO', 'personal', '0630615123457', 'format'],
  ['RO', 'business', '18547290', 'ok'],
  ['RO', 'business', 'RO 185 472 90', 'ok'],
  ['RO', 'business', '12345674', 'ok'],
  ['RO', 'business', '18547291', 'checkDigit'],
  ['RO', 'business', '12345678901', 'format'],
  // BR: CPF, CNPJ
  ['BR', 'personal', '390.533.447-05', 'ok'],
  ['BR', 'personal', '111.444.777-35', 'ok'],
  ['BR', 'personal', '390.533.447-06', 'checkDigit'],
  ['BR', 'personal', '111.111.111-11', 'format'],
  ['BR', 'business', '16.727.230/0001-97', 'ok'],
  ['BR', 'business', '11.222.333/0001-81', 'ok'],
  ['BR', 'business', '10.000.017/0001-00', 'ok'], // remainders below 2 give 0
  ['BR', 'business', '11.222.333/0001-80', 'checkDigit'],
  ['BR', 'business', '11.222.333/0001', 'format'],
  // CA: SIN (Luhn), BN
  ['CA', 'personal', '130 293 822', 'ok'],
  ['CA', 'personal', '546-789-124', 'ok'],
  ['CA', 'personal', '130 293 823', 'checkDigit'],
  ['CA', 'personal', '046 454 286', 'format'], // 0: never assigned (fictitious examples)
  ['CA', 'business', '123456789', 'ok'],
  ['CA', 'business', '123456789RT0001', 'ok'],
  ['CA', 'business', '12345678', 'format'],
  ['CA', 'business', '123456789RT01', 'format'],
  // FR: SPI, SIREN/SIRET
  ['FR', 'personal', '30 23 217 600 053', 'ok'],
  ['FR', 'personal', '1234567890066', 'ok'],
  ['FR', 'personal', '3023217600054', 'checkDigit'],
  ['FR', 'personal', '4023217600053', 'format'],
  ['FR', 'business', '732 829 320', 'ok'],
  ['FR', 'business', '404833048', 'ok'],
  ['FR', 'business', '732829321', 'checkDigit'],
  ['FR', 'business', '73282932', 'format'],
  // IT: codice fiscale, partita IVA
  ['IT', 'personal', 'RCCMNL83S18D969H', 'ok'],
  ['IT', 'personal', 'mrarss80a01h501t', 'ok'],
  ['IT', 'personal', 'RCCMNL83S18D969A', 'checkDigit'],
  ['IT', 'personal', 'RCCMNL83S18D96', 'format'],
  ['IT', 'business', '00743110157', 'ok'],
  ['IT', 'business', 'IT12345678903', 'ok'],
  ['IT', 'business', '00743110158', 'checkDigit'],
  ['IT', 'business', '0074311015', 'format'],
  // PT: NIF, NIPC
  ['PT', 'personal', '123456789', 'ok'],
  ['PT', 'personal', '234567899', 'ok'],
  ['PT', 'personal', '123456788', 'checkDigit'],
  ['PT', 'personal', '501964843', 'format'], // a company's number
  ['PT', 'business', '501964843', 'ok'],
  ['PT', 'business', 'PT500000000', 'ok'],
  ['PT', 'business', '501964842', 'checkDigit'],
  ['PT', 'business', '12345678', 'format'],
  // PL: PESEL or NIP, NIP
  ['PL', 'personal', '44051401359', 'ok'],
  ['PL', 'personal', '02070803628', 'ok'],
  ['PL', 'personal', '44051401358', 'checkDigit'],
  ['PL', 'personal', '440514013', 'format'],
  ['PL', 'business', '856-734-62-15', 'ok'],
  ['PL', 'business', 'PL5260000005', 'ok'],
  ['PL', 'business', '8567346216', 'checkDigit'],
  ['PL', 'business', '85673462', 'format'],
  // NL: BSN, RSIN (11-proef)
  ['NL', 'personal', '111222333', 'ok'],
  ['NL', 'personal', '1234.56.782', 'ok'],
  ['NL', 'personal', '123456789', 'checkDigit'],
  ['NL', 'personal', '12345678', 'format'],
  ['NL', 'business', '002000003', 'ok'],
  ['NL', 'business', '111222333', 'ok'],
  ['NL', 'business', '002000004', 'checkDigit'],
  ['NL', 'business', '000000000', 'format'],
  // UA: RNOKPP, EDRPOU
  ['UA', 'personal', '1759013776', 'ok'],
  ['UA', 'personal', '3000000008', 'ok'],
  ['UA', 'personal', '1759013777', 'checkDigit'],
  ['UA', 'personal', '175901377', 'format'],
  ['UA', 'business', '32855961', 'ok'],
  ['UA', 'business', '14360570', 'ok'],
  ['UA', 'business', '00032069', 'ok'],
  ['UA', 'business', '10000062', 'ok'], // remainder 10: weights + 2
  ['UA', 'business', '30000005', 'ok'], // starts with 3: weights 7 1-6, remainder 10
  ['UA', 'business', '50000018', 'ok'], // starts with 5: weights 7 1-6
  ['UA', 'business', '32855962', 'checkDigit'],
  ['UA', 'business', '3285596', 'format'],
  // RU: INN
  ['RU', 'personal', '123456789047', 'ok'],
  ['RU', 'personal', '500100732259', 'ok'],
  ['RU', 'personal', '123456789048', 'checkDigit'],
  ['RU', 'personal', '1234567894', 'format'],
  ['RU', 'business', '7707083893', 'ok'],
  ['RU', 'business', '1234567894', 'ok'],
  ['RU', 'business', '7707083894', 'checkDigit'],
  ['RU', 'business', '123456789047', 'format'],
  // SE: personnummer, organisationsnummer (Luhn)
  ['SE', 'personal', '811218-9876', 'ok'],
  ['SE', 'personal', '19900101-1239', 'ok'],
  ['SE', 'personal', '811218-9877', 'checkDigit'],
  ['SE', 'personal', '8112189', 'format'],
  ['SE', 'business', '556036-0793', 'ok'],
  ['SE', 'business', '5566778899', 'ok'],
  ['SE', 'business', '5560360794', 'checkDigit'],
  ['SE', 'business', '5510360793', 'format'], // third digit below 2: a person
  // NO: fødselsnummer, organisasjonsnummer
  ['NO', 'personal', '15108695088', 'ok'],
  ['NO', 'personal', '01019010046', 'ok'],
  ['NO', 'personal', '31128520107', 'ok'],
  ['NO', 'personal', '15108695089', 'checkDigit'],
  ['NO', 'personal', '1510869508', 'format'],
  ['NO', 'business', '988 077 917', 'ok'],
  ['NO', 'business', '923456783', 'ok'],
  ['NO', 'business', '988077918', 'checkDigit'],
  ['NO', 'business', '98807791', 'format'],
  // FI: henkilötunnus (mod 31), Y-tunnus
  ['FI', 'personal', '131052-308T', 'ok'],
  ['FI', 'personal', '010190A123M', 'ok'],
  ['FI', 'personal', '131052-308U', 'checkDigit'],
  ['FI', 'personal', '131052-30T', 'format'],
  ['FI', 'business', '2077474-0', 'ok'],
  ['FI', 'business', '1234567-1', 'ok'],
  ['FI', 'business', '2077474-1', 'checkDigit'],
  ['FI', 'business', '207747', 'format'],
  // DK: CVR
  ['DK', 'business', '13585628', 'ok'],
  ['DK', 'business', 'DK 10000009', 'ok'],
  ['DK', 'business', '13585627', 'checkDigit'],
  ['DK', 'business', '03585628', 'format'],
  // BE: national number (before and from 2000), enterprise number
  ['BE', 'personal', '85.07.30-033.28', 'ok'],
  ['BE', 'personal', '05123456757', 'ok'],
  ['BE', 'personal', '01020312345', 'ok'], // born in 2001: a 2 before the nine digits
  ['BE', 'personal', '85073003329', 'checkDigit'],
  ['BE', 'personal', '8507300332', 'format'],
  ['BE', 'business', '0403.019.261', 'ok'],
  ['BE', 'business', 'BE 0812345603', 'ok'],
  ['BE', 'business', '0403019262', 'checkDigit'],
  ['BE', 'business', '2403019261', 'format'],
  // EE: isikukood
  ['EE', 'personal', '36805280109', 'ok'],
  ['EE', 'personal', '49001011238', 'ok'],
  ['EE', 'personal', '49001000054', 'ok'], // first pass remainder 10: the second weights
  ['EE', 'personal', '36805280108', 'checkDigit'],
  ['EE', 'personal', '76805280109', 'format'],
  // BG: EGN
  ['BG', 'personal', '7523169263', 'ok'],
  ['BG', 'personal', '8001011236', 'ok'],
  ['BG', 'personal', '7523169264', 'checkDigit'],
  ['BG', 'personal', '752316926', 'format'],
  // HR: OIB (ISO 7064 MOD 11,10), persons and entities
  ['HR', 'personal', '33392005961', 'ok'],
  ['HR', 'personal', '12345678903', 'ok'],
  ['HR', 'personal', '33392005962', 'checkDigit'],
  ['HR', 'personal', '3339200596', 'format'],
  ['HR', 'business', 'HR33392005961', 'ok'],
  ['HR', 'business', '12345678903', 'ok'],
  ['HR', 'business', '12345678904', 'checkDigit'],
  ['HR', 'business', '1234567890A', 'format'],
  // CN: resident identity card (MOD 11-2)
  ['CN', 'personal', '11010519491231002X', 'ok'],
  ['CN', 'personal', '440304199001011233', 'ok'],
  ['CN', 'personal', '110105194912310021', 'checkDigit'],
  ['CN', 'personal', '11010519491231002', 'format'],
  // IN: PAN (shape only)
  ['IN', 'personal', 'ABCPE1234F', 'ok'],
  ['IN', 'personal', 'aaacb 1234 c', 'ok'],
  ['IN', 'personal', 'ABCDE1234F', 'format'], // D is no holder type
  ['IN', 'personal', 'ABCPE12345', 'format'],
  ['IN', 'business', 'AAACB1234C', 'ok'],
  ['IN', 'business', 'AAAFB1234C', 'ok'],
  ['IN', 'business', 'AAAXB1234C', 'format'],
  ['IN', 'business', 'AAAC1234C', 'format'],
  // AU: TFN, ABN
  ['AU', 'personal', '123 456 782', 'ok'],
  ['AU', 'personal', '123450005', 'ok'],
  ['AU', 'personal', '123456783', 'checkDigit'],
  ['AU', 'personal', '1234567', 'format'],
  ['AU', 'business', '83 914 571 673', 'ok'],
  ['AU', 'business', '51 824 753 556', 'ok'],
  ['AU', 'business', '83914571674', 'checkDigit'],
  ['AU', 'business', '03914571673', 'format'],
  // CH: AHV/AVS (EAN-13), UID
  ['CH', 'personal', '756.1234.5678.97', 'ok'],
  ['CH', 'personal', '7569876543217', 'ok'],
  ['CH', 'personal', '756.1234.5678.98', 'checkDigit'],
  ['CH', 'personal', '755.1234.5678.97', 'format'],
  ['CH', 'business', 'CHE-100.155.212', 'ok'],
  ['CH', 'business', 'CHE-116.281.710 MWST', 'ok'],
  ['CH', 'business', 'CHE-100.155.213', 'checkDigit'],
  ['CH', 'business', '100.155.212', 'format'],
];

/** checked values that are not just the normalised input: the ten digits of a 12-digit personnummer, a suffix dropped */
const VALUES: Record<string, string> = { '19900101-1239': '9001011239', 'CHE-116.281.710 MWST': 'CHE116281710' };

describe('format checks', () => {
  it.each(ROWS)('%s %s %s: %s', (country, use, number, expected) => {
    const r = checkTaxNumber(country, use, number);
    expect(r.ok ? 'ok' : r.code).toBe(expected);
    if (r.ok) expect(r.value).toBe(VALUES[number] ?? normaliseTaxNumber(number).replace(/^(PT|PL|IT|RO|HR|DK|BE)(?=\d)/, ''));
  });

  it('every country with a check has at least two valid and two invalid numbers per use', () => {
    for (const e of TAX_NUMBERS) {
      for (const use of ['personal', 'business'] as const) {
        if (!e[`${use}Format`]) continue;
        const rows = ROWS.filter(([c, u]) => c === e.countryCode && u === use);
        expect(rows.filter((r) => r[3] === 'ok').length, `${e.countryCode} ${use} valid`).toBeGreaterThanOrEqual(2);
        expect(rows.filter((r) => r[3] !== 'ok').length, `${e.countryCode} ${use} invalid`).toBeGreaterThanOrEqual(2);
      }
    }
  });

  it('countries without a format answer ok with the normalised number', () => {
    expect(checkTaxNumber('LT', 'personal', ' lt-123 456/7 ')).toEqual({ ok: true, value: 'LT1234567' });
    expect(checkTaxNumber('AQ', 'business', 'x.1')).toEqual({ ok: true, value: 'X1' });
    expect(checkTaxNumber(null, 'personal', '12')).toEqual({ ok: true, value: '12' });
  });

  it('normalises: trim, upper-case, no spaces, dots, dashes or slashes', () => {
    expect(normaliseTaxNumber(' ab-12.34 56/c ')).toBe('AB123456C');
  });
});

describe('the table', () => {
  it('has a row for every ISO 3166-1 country of the countries dictionary, and only those', () => {
    const iso = Object.keys(en.countries).sort();
    expect([...ISO_COUNTRY_CODES].sort()).toEqual(iso);
    expect(TAX_NUMBERS.map((e) => e.countryCode).sort()).toEqual(iso);
  });

  it('a country without its own numbers gets the generic, not-required names; an unknown code the generic entry', () => {
    expect(taxNumberEntry('AQ')).toMatchObject({
      countryCode: 'AQ',
      personalName: 'Tax identification number',
      personalShortName: 'TIN',
      personalRequired: false,
      businessRequired: false,
      personalFormat: false,
    });
    expect(taxNumberEntry('QQ')).toBe(GENERIC_TAX_NUMBER);
    expect(taxNumberEntry(undefined)).toBe(GENERIC_TAX_NUMBER);
    expect(GENERIC_TAX_NUMBER).toMatchObject({ countryCode: '', businessName: 'Tax identification number', businessShortName: 'TIN', crs: false });
  });

  it('the US is not a CRS jurisdiction; the UK, Germany and Romania are', () => {
    expect(taxNumberEntry('US').crs).toBe(false);
    expect(taxNumberEntry('GB').crs).toBe(true);
    expect(taxNumberEntry('DE').crs).toBe(true);
    expect(taxNumberEntry('RO').crs).toBe(true);
    expect(taxNumberEntry('AQ').crs).toBe(false);
  });

  it('names the numbers of the countries it checks, and their required flags', () => {
    expect(taxNumberEntry('us')).toMatchObject({
      personalShortName: 'SSN/ITIN',
      businessShortName: 'EIN',
      personalRequired: true,
      businessRequired: true,
      personalFormat: true,
      businessFormat: true,
    });
    expect(taxNumberEntry('RO')).toMatchObject({ personalShortName: 'CNP', businessShortName: 'CUI/CIF' });
    for (const e of TAX_NUMBERS) expect(e.personalName.length * e.businessName.length * e.personalShortName.length * e.businessShortName.length).toBeGreaterThan(0);
  });
});
