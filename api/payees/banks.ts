/**
 * The bank directory the platform ships, and the look-ups of document 2 §3 "Bank details by
 * SWIFT" (address, city, zipCode, countryIsoCode, bankName, code) and "Bank details by IBAN"
 * (address, branch, city, zipCode, countryIsoCode, country, bankName, SWIFT), served as swiftLookup
 * and ibanLookup (§7); issue 15 item 3.
 *
 * A sample directory: head offices of real banks with their public SWIFT codes, their national bank
 * code inside the IBAN (IBAN countries) and their local clearing code (the code a domestic transfer
 * form asks for). A provider loads a full directory instead, e.g. from SWIFT's BIC directory and
 * the IBAN registry's bank files or a commercial IBAN/BIC service, in the same shape.
 */
import { bic8, checkBic, checkIban } from './iban.ts';

export interface BankEntry {
  /** SWIFT/BIC, 8 characters (head office) or 11 */
  swift: string;
  bankName: string;
  address: string;
  city: string;
  /** '' where the country has no postal codes (HK) */
  zipCode: string;
  countryIsoCode: string;
  /** the national bank code as it appears inside the country's IBANs */
  ibanBankCode?: string;
  /** the domestic clearing code: ABA routing (US), institution (CA), Zengin bank (JP), bank code (HK, LK), COMPE (BR) */
  clearingCode?: string;
}

const bank = (
  swift: string,
  bankName: string,
  address: string,
  city: string,
  zipCode: string,
  countryIsoCode: string,
  codes: Pick<BankEntry, 'ibanBankCode' | 'clearingCode'>,
): BankEntry => ({ swift, bankName, address, city, zipCode, countryIsoCode, ...codes });

export const BANK_DIRECTORY: readonly BankEntry[] = [
  // euro area
  bank('DEUTDEFF', 'Deutsche Bank AG', 'Taunusanlage 12', 'Frankfurt am Main', '60325', 'DE', { ibanBankCode: '50070010' }),
  bank('COBADEFF', 'Commerzbank AG', 'Kaiserplatz', 'Frankfurt am Main', '60311', 'DE', { ibanBankCode: '50040000' }),
  bank('BNPAFRPP', 'BNP Paribas', '16 boulevard des Italiens', 'Paris', '75009', 'FR', { ibanBankCode: '30004' }),
  bank('SOGEFRPP', 'Société Générale', '29 boulevard Haussmann', 'Paris', '75009', 'FR', { ibanBankCode: '30003' }),
  bank('PSSTFRPP', 'La Banque Postale', '115 rue de Sèvres', 'Paris', '75006', 'FR', { ibanBankCode: '20041' }),
  bank('ABNANL2A', 'ABN AMRO Bank N.V.', 'Gustav Mahlerlaan 10', 'Amsterdam', '1082 PP', 'NL', { ibanBankCode: 'ABNA' }),
  bank('INGBNL2A', 'ING Bank N.V.', 'Bijlmerdreef 106', 'Amsterdam', '1102 CT', 'NL', { ibanBankCode: 'INGB' }),
  bank('RABONL2U', 'Coöperatieve Rabobank U.A.', 'Croeselaan 18', 'Utrecht', '3521 CB', 'NL', { ibanBankCode: 'RABO' }),
  bank('CAIXESBB', 'CaixaBank, S.A.', 'Calle Pintor Sorolla 2-4', 'Valencia', '46002', 'ES', { ibanBankCode: '2100' }),
  bank('BSCHESMM', 'Banco Santander, S.A.', 'Paseo de Pereda 9-12', 'Santander', '39004', 'ES', { ibanBankCode: '0049' }),
  bank('BCITITMM', 'Intesa Sanpaolo S.p.A.', 'Piazza San Carlo 156', 'Torino', '10121', 'IT', { ibanBankCode: '03069' }),
  bank('UNCRITMM', 'UniCredit S.p.A.', 'Piazza Gae Aulenti 3', 'Milano', '20154', 'IT', { ibanBankCode: '02008' }),
  bank('AIBKIE2D', 'Allied Irish Banks, p.l.c.', '10 Molesworth Street', 'Dublin', 'D02 R126', 'IE', { ibanBankCode: 'AIBK' }),
  bank('GIBAATWW', 'Erste Bank der oesterreichischen Sparkassen AG', 'Am Belvedere 1', 'Wien', '1100', 'AT', { ibanBankCode: '20111' }),
  // Lithuania
  bank('HABALT22', 'Swedbank, AB', 'Konstitucijos pr. 20A', 'Vilnius', '09321', 'LT', { ibanBankCode: '73000' }),
  bank('CBVILT2X', 'AB SEB bankas', 'Konstitucijos pr. 24', 'Vilnius', '08105', 'LT', { ibanBankCode: '70440' }),
  bank('REVOLT21', 'Revolut Bank UAB', 'Konstitucijos pr. 21B', 'Vilnius', '08130', 'LT', { ibanBankCode: '32500' }),
  // United Kingdom
  bank('BARCGB22', 'Barclays Bank UK PLC', '1 Churchill Place', 'London', 'E14 5HP', 'GB', { ibanBankCode: 'BARC' }),
  bank('HBUKGB4B', 'HSBC UK Bank plc', '1 Centenary Square', 'Birmingham', 'B1 1HQ', 'GB', { ibanBankCode: 'HBUK' }),
  bank('NWBKGB2L', 'National Westminster Bank Plc', '250 Bishopsgate', 'London', 'EC2M 4AA', 'GB', { ibanBankCode: 'NWBK' }),
  bank('LOYDGB2L', 'Lloyds Bank plc', '25 Gresham Street', 'London', 'EC2V 7HN', 'GB', { ibanBankCode: 'LOYD' }),
  // Romania
  bank('BTRLRO22', 'Banca Transilvania S.A.', 'Calea Dorobanților 30-36', 'Cluj-Napoca', '400117', 'RO', { ibanBankCode: 'BTRL' }),
  bank('RNCBROBU', 'Banca Comercială Română S.A.', 'Calea Victoriei 15', 'București', '030023', 'RO', { ibanBankCode: 'RNCB' }),
  bank('BRDEROBU', 'BRD - Groupe Société Générale S.A.', 'Bd. Ion Mihalache 1-7', 'București', '011171', 'RO', { ibanBankCode: 'BRDE' }),
  // Ukraine (the IBAN's bank code is the 6-digit MFO)
  bank('PBANUA2X', 'JSC CB PrivatBank', '1D Hrushevskoho Street', 'Kyiv', '01001', 'UA', { ibanBankCode: '305299' }),
  bank('COSBUAUK', 'JSC Oschadbank', '12G Hospitalna Street', 'Kyiv', '01001', 'UA', { ibanBankCode: '300465' }),
  bank('AVALUAUK', 'JSC Raiffeisen Bank', '9 Leskova Street', 'Kyiv', '01011', 'UA', { ibanBankCode: '380805' }),
  // Brazil (the IBAN's bank code is the 8-digit ISPB; domestic transfers use the 3-digit COMPE code)
  bank('BRASBRRJ', 'Banco do Brasil S.A.', 'SAUN Quadra 5, Lote B, Torre I', 'Brasília', '70040-912', 'BR', { ibanBankCode: '00000000', clearingCode: '001' }),
  bank('ITAUBRSP', 'Itaú Unibanco S.A.', 'Praça Alfredo Egydio de Souza Aranha 100', 'São Paulo', '04344-902', 'BR', {
    ibanBankCode: '60701190',
    clearingCode: '341',
  }),
  bank('BBDEBRSP', 'Banco Bradesco S.A.', 'Cidade de Deus, s/n, Vila Yara', 'Osasco', '06029-900', 'BR', { ibanBankCode: '60746948', clearingCode: '237' }),
  bank('CEFXBRSP', 'Caixa Econômica Federal', 'SBS Quadra 4, Lotes 3/4', 'Brasília', '70092-900', 'BR', { ibanBankCode: '00360305', clearingCode: '104' }),
  // United States (ABA routing numbers)
  bank('CHASUS33', 'JPMorgan Chase Bank, N.A.', '270 Park Avenue', 'New York', '10017', 'US', { clearingCode: '021000021' }),
  bank('BOFAUS3N', 'Bank of America, N.A.', '100 North Tryon Street', 'Charlotte', '28255', 'US', { clearingCode: '026009593' }),
  bank('CITIUS33', 'Citibank, N.A.', '388 Greenwich Street', 'New York', '10013', 'US', { clearingCode: '021000089' }),
  bank('WFBIUS6S', 'Wells Fargo Bank, N.A.', '420 Montgomery Street', 'San Francisco', '94104', 'US', { clearingCode: '121000248' }),
  // Canada (institution numbers)
  bank('ROYCCAT2', 'Royal Bank of Canada', '200 Bay Street', 'Toronto', 'M5J 2J5', 'CA', { clearingCode: '003' }),
  bank('TDOMCATTTOR', 'The Toronto-Dominion Bank', '66 Wellington Street West', 'Toronto', 'M5K 1A2', 'CA', { clearingCode: '004' }),
  bank('BOFMCAM2', 'Bank of Montreal', '129 rue Saint-Jacques', 'Montréal', 'H2Y 1L6', 'CA', { clearingCode: '001' }),
  // Japan (Zengin bank codes)
  bank('BOTKJPJT', 'MUFG Bank, Ltd.', '2-7-1 Marunouchi, Chiyoda-ku', 'Tokyo', '100-8388', 'JP', { clearingCode: '0005' }),
  bank('SMBCJPJT', 'Sumitomo Mitsui Banking Corporation', '1-1-2 Marunouchi, Chiyoda-ku', 'Tokyo', '100-0005', 'JP', { clearingCode: '0009' }),
  bank('MHCBJPJT', 'Mizuho Bank, Ltd.', '1-5-5 Otemachi, Chiyoda-ku', 'Tokyo', '100-8176', 'JP', { clearingCode: '0001' }),
  // Hong Kong (bank codes; no postal codes)
  bank('HSBCHKHH', 'The Hongkong and Shanghai Banking Corporation Limited', "1 Queen's Road Central", 'Hong Kong', '', 'HK', { clearingCode: '004' }),
  bank('BKCHHKHH', 'Bank of China (Hong Kong) Limited', 'Bank of China Tower, 1 Garden Road, Central', 'Hong Kong', '', 'HK', { clearingCode: '012' }),
  bank('HASEHKHH', 'Hang Seng Bank Limited', '83 Des Voeux Road Central', 'Hong Kong', '', 'HK', { clearingCode: '024' }),
  // Sri Lanka (bank codes)
  bank('BCEYLKLX', 'Bank of Ceylon', 'No. 1, Bank of Ceylon Mawatha, Colombo 01', 'Colombo', '00100', 'LK', { clearingCode: '7010' }),
  bank('CCEYLKLX', 'Commercial Bank of Ceylon PLC', 'Commercial House, No. 21, Sir Razik Fareed Mawatha, Colombo 01', 'Colombo', '00100', 'LK', {
    clearingCode: '7056',
  }),
  bank('HBLILKLX', 'Hatton National Bank PLC', 'HNB Towers, No. 479, T. B. Jayah Mawatha, Colombo 10', 'Colombo', '01000', 'LK', { clearingCode: '7083' }),
];

/** §3 "Bank details by SWIFT". */
export interface SwiftLookup {
  address: string;
  city: string;
  zipCode: string;
  countryIsoCode: string;
  bankName: string;
  /** the SWIFT code of the bank found */
  code: string;
}

/** §3 "Bank details by IBAN". */
export interface IbanLookup {
  address: string;
  /** the branch code inside the IBAN (a sort code in GB, a guichet in FR), '' where the IBAN has none */
  branch: string;
  city: string;
  zipCode: string;
  countryIsoCode: string;
  /** the country's name, as `countryName` gives it (the platform's dictionary, in the customer's language) */
  country: string;
  bankName: string;
  SWIFT: string;
}

/**
 * The bank of a SWIFT/BIC: the entry with that 11-character code, else its head office (the first
 * 8 characters). null for a malformed code or a bank outside the directory.
 */
export function bankBySwift(text: string): SwiftLookup | null {
  const check = checkBic(text);
  if (!check.ok) return null;
  const entry = BANK_DIRECTORY.find((bank) => bank.swift === check.bic) ?? BANK_DIRECTORY.find((bank) => bic8(bank.swift) === bic8(check.bic));
  if (!entry) return null;
  const { address, city, zipCode, countryIsoCode, bankName, swift } = entry;
  return { address, city, zipCode, countryIsoCode, bankName, code: swift };
}

/**
 * The bank of an IBAN, found by its country and the national bank code inside it. null for an IBAN
 * that fails its checks or whose bank is outside the directory. `countryName` names the country
 * (default: its ISO code).
 */
export function bankByIban(text: string, countryName: (countryIsoCode: string) => string = (code) => code): IbanLookup | null {
  const check = checkIban(text);
  if (!check.ok || !check.bankCode) return null;
  const entry = BANK_DIRECTORY.find((bank) => bank.countryIsoCode === check.countryCode && bank.ibanBankCode === check.bankCode);
  if (!entry) return null;
  const { address, city, zipCode, countryIsoCode, bankName, swift } = entry;
  return { address, branch: check.branchCode ?? '', city, zipCode, countryIsoCode, country: countryName(countryIsoCode), bankName, SWIFT: swift };
}

/** The directory's banks of a country (§7 "Banks list"), by name. */
export function banksOf(countryIsoCode: string): BankEntry[] {
  return BANK_DIRECTORY.filter((bank) => bank.countryIsoCode === countryIsoCode).sort((a, b) => a.bankName.localeCompare(b.bankName));
}
