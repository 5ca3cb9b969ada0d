/**
 * The tax forms (server/modules/tax/forms): each form rendered from a realistic answer set and
 * read back through the fonts' ToUnicode maps (tests/pdf-text.ts), so the values must print as
 * written: names (Cyrillic too), formatted TINs, the GIIN, the chapter 4 status checked, the CRS
 * reason codes, the controlling persons; the signature box must lie on a page of the file.
 */
import { describe, expect, it } from 'vitest';
import type { BusinessCertification, PersonalCertification } from '../../api/tax-certification.ts';
import { PdfCanvas } from '../../server/modules/history/pdf-document.ts';
import { chapter4Status, crsEntityClass, renderTaxForm } from '../../server/modules/tax/forms/index.ts';
import { crsWords } from '../../server/modules/tax/forms/crs-words.ts';
import type { TaxFormDocument, TaxFormInput, TaxFormSubject } from '../../server/modules/tax/forms/types.ts';
import { readPdf, type ReadPdf } from '../pdf-text.ts';

const nowMs = Date.UTC(2026, 10, 27, 12);

const personalCertification = (over: Partial<PersonalCertification> = {}): PersonalCertification => ({
  cityOfBirth: 'Львів',
  countryOfBirth: 'UA',
  dateOfBirth: '1990-04-12',
  citizenship: ['UA'],
  isUSTaxPayer: false,
  usCitizenshipAbsenceReason: null,
  usCitizenshipAbsenceExplanation: null,
  taxIds: [{ countryCode: 'UA', taxId: '3012345678', tinMissingReason: null, tinMissingExplanation: null }],
  ...over,
});

const person = (over: Partial<Extract<TaxFormSubject, { kind: 'personal' }>> = {}, certification: Partial<PersonalCertification> = {}): TaxFormSubject => ({
  kind: 'personal',
  firstName: 'Юлія',
  lastName: 'Щербак',
  address: { address1: 'вул. Хрещатик 1', address2: 'кв. 5', city: 'Київ', postalCode: '01001', countryCode: 'UA' },
  certification: personalCertification(certification),
  ...over,
});

const usPerson = (taxIds: PersonalCertification['taxIds']): TaxFormSubject =>
  person(
    { firstName: 'John', lastName: 'Doe', address: { address1: '1 Main St', address2: 'Apt 4', city: 'Austin', state: 'TX', postalCode: '78701', countryCode: 'US' } },
    { citizenship: ['US'], isUSTaxPayer: true, countryOfBirth: 'US', cityOfBirth: 'Austin', taxIds },
  );

const businessCertification = (over: Partial<BusinessCertification> = {}): BusinessCertification => ({
  name: 'Carpathia Trading S.R.L.',
  entityType: 'general',
  registrationCountryCode: 'RO',
  giin: null,
  giinMissingReason: null,
  isUsingClientFunds: null,
  isManagedByFinancialInstitution: null,
  isPubliclyTraded: false,
  companySecurityMarket: null,
  companyTicket: null,
  isOwnPubliclyTradedCompany: false,
  companyOwnedByYou: null,
  isEarnPassiveIncome: false,
  isUSTaxPayer: false,
  isDisregardedEntity: false,
  placeOfBusinessAddressId: 1,
  registeredAddressId: 2,
  taxIds: [{ countryCode: 'RO', taxId: '18547290', tinMissingReason: null, tinMissingExplanation: null }],
  controllingPersons: [],
  ...over,
});

const company = (certification: Partial<BusinessCertification> = {}, over: Partial<Extract<TaxFormSubject, { kind: 'business' }>> = {}): TaxFormSubject => ({
  kind: 'business',
  name: 'Carpathia Trading S.R.L.',
  registrationNumber: 'J40/1234/2020',
  placeOfBusiness: { address1: 'Strada Lipscani 10', address2: null, city: 'București', postalCode: '030031', countryCode: 'RO' },
  registeredAddress: { address1: 'Bulevardul Unirii 5', address2: 'et. 2', city: 'București', postalCode: '030167', countryCode: 'RO' },
  controllingPersons: [
    { name: 'Ion Popescu', taxResidenceCountryCode: 'RO' },
    {
      name: 'John Smith',
      taxResidenceCountryCode: 'US',
      address: { address1: '1 Main St', address2: null, city: 'Austin', state: 'TX', postalCode: '78701', countryCode: 'US' },
      usTin: '123456789',
    },
  ],
  certification: businessCertification(certification),
  signerName: 'Ana Ionescu',
  signerCapacity: 'Director',
  ...over,
});

const render = (kind: TaxFormInput['kind'], subject: TaxFormSubject, lang: TaxFormInput['lang'] = 'en') =>
  renderTaxForm({ kind, subject, lang, providerName: 'Lumen Wallet', nowMs });

/** The whole text, one line per placed text. */
const textOf = (pdf: ReadPdf) => pdf.lines.join('\n');

/** The choices checked: the text placed right after each ☒ (its first line). */
const checkedOf = (pdf: ReadPdf) => pdf.lines.flatMap((line, i) => (line === '☒' ? [pdf.lines[i + 1] ?? ''] : line.startsWith('☒ ') ? [line.slice(2)] : []));

/** The page sizes from the file's MediaBox entries, in page order. */
const pageSizes = (file: Uint8Array) =>
  [
    ...Buffer.from(file)
      .toString('latin1')
      .matchAll(/\/MediaBox \[0 0 ([\d.]+) ([\d.]+)\]/g),
  ].map((m) => ({ width: Number(m[1]), height: Number(m[2]) }));

/** Texts that run off the page's sides, or were cut with an ellipsis to fit their place. */
function offPage(doc: TaxFormDocument, pdf: ReadPdf): string[] {
  const measure = new PdfCanvas({ title: 'm', author: 'm', lang: 'en', createdAt: new Date(0) });
  const width = pageSizes(doc.pdf)[0]!.width;
  return pdf.pages.flatMap((page) =>
    page.placed
      .filter((p) => p.text.endsWith('…') || p.x < 30 || p.x + measure.width(p.text, p.size, p.font.endsWith('-Bold') ? 'bold' : 'regular') > width - 30 || p.y < 15)
      .map((p) => p.text),
  );
}

function expectSignatureBoxOnPage(doc: TaxFormDocument, pdf: ReadPdf, size: { width: number; height: number }) {
  const box = doc.signatureBox!;
  expect(box).toBeDefined();
  const sizes = pageSizes(doc.pdf);
  expect(sizes.length).toBe(pdf.pages.length);
  expect(box.page).toBeGreaterThanOrEqual(0);
  expect(box.page).toBeLessThan(pdf.pages.length);
  const page = sizes[box.page]!;
  expect(page.width).toBeCloseTo(size.width, 1);
  expect(page.height).toBeCloseTo(size.height, 1);
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.y).toBeGreaterThanOrEqual(0);
  expect(box.width).toBeGreaterThan(150);
  expect(box.height).toBeGreaterThan(30);
  expect(box.x + box.width).toBeLessThanOrEqual(page.width);
  expect(box.y + box.height).toBeLessThanOrEqual(page.height);
  // nothing is printed inside the box: the adapter draws there
  const inside = pdf.pages[box.page]!.placed.filter((p) => p.x >= box.x && p.x <= box.x + box.width && p.y > box.y && p.y < box.y + box.height);
  expect(inside.map((p) => p.text)).toEqual([]);
  // the box's caption sits right under it, at its left edge (the box is where the form draws it)
  const caption = pdf.pages[box.page]!.placed.filter((p) => Math.abs(p.x - box.x) < 0.5 && p.y < box.y && p.y > box.y - 14);
  expect(caption.length).toBe(1);
}

const LETTER = { width: 612, height: 792 };
const A4 = { width: 595.28, height: 841.89 };

describe('Substitute Form W-9', () => {
  it('a US person: name, individual classification, SSN formatted, the four certifications, the signature box', async () => {
    const doc = await render('w9', usPerson([{ countryCode: 'US', taxId: '123456789', tinMissingReason: null, tinMissingExplanation: null }]));
    const pdf = readPdf(Buffer.from(doc.pdf));
    const text = textOf(pdf);
    expect(doc.kind).toBe('w9');
    expect(doc.title).toBe('Form W-9');
    expect(doc.fileName).toBe('W-9-doe-2026-11-27.pdf');
    expect(pdf.lines).toContain('John Doe');
    expect(pdf.lines).toContain('123-45-6789');
    expect(pdf.lines).toContain('1 Main St, Apt 4');
    expect(pdf.lines).toContain('Austin, TX 78701');
    expect(checkedOf(pdf)).toEqual(['Individual/sole proprietor']);
    for (const statement of ['I am a U.S. citizen or other U.S. person (defined below); and', 'Under penalties of perjury, I certify that:']) {
      expect(text.replace(/\n/g, ' ')).toContain(statement);
    }
    expect(text).toContain('1. The number shown on this form is my correct taxpayer identification number');
    expect(text).toContain('4. The FATCA code(s) entered on this form');
    expectSignatureBoxOnPage(doc, pdf, LETTER);
    expect(offPage(doc, pdf)).toEqual([]);
  });

  it('a US entry without a number whose reason is CANNOT_OBTAIN shows "Applied for"', async () => {
    const doc = await render('w9', usPerson([{ countryCode: 'US', taxId: null, tinMissingReason: 'CANNOT_OBTAIN', tinMissingExplanation: 'Applied in October' }]));
    expect(readPdf(Buffer.from(doc.pdf)).lines).toContain('Applied for');
  });

  it('a US company: C corporation, EIN formatted; a disregarded entity: its owner on line 1, the company on line 2', async () => {
    const taxIds = [{ countryCode: 'US', taxId: '12-3456789', tinMissingReason: null, tinMissingExplanation: null }];
    const corp = readPdf(Buffer.from((await render('w9', company({ isUSTaxPayer: true, taxIds }, { name: 'Lone Star Goods Inc.' }))).pdf));
    expect(corp.lines).toContain('Lone Star Goods Inc.');
    expect(corp.lines).toContain('12-3456789');
    expect(checkedOf(corp)).toEqual(['C corporation']);
    expect(corp.lines).toContain('Ana Ionescu');

    const owned = company({ isUSTaxPayer: true, isDisregardedEntity: true, taxIds }, { name: 'Lone Star Goods LLC', owner: { name: 'Mary Major', kind: 'individual' } });
    const llc = readPdf(Buffer.from((await render('w9', owned)).pdf));
    const line1 = llc.lines.indexOf('Mary Major');
    expect(line1).toBeGreaterThan(-1);
    expect(llc.lines.indexOf('Lone Star Goods LLC')).toBeGreaterThan(line1);
    expect(checkedOf(llc)).toEqual(['Individual/sole proprietor']);
    // an individual owner's number is an SSN
    expect(llc.lines).toContain('123-45-6789');
  });
});

describe('Substitute Form W-8BEN', () => {
  it('a Ukrainian resident: Cyrillic name, citizenship, residence address, foreign TIN, date of birth, the certification', async () => {
    const doc = await render('w8Ben', person(), 'uk');
    const pdf = readPdf(Buffer.from(doc.pdf));
    expect(doc.title).toBe('Form W-8BEN');
    expect(doc.fileName).toBe('W-8BEN-shcherbak-2026-11-27.pdf');
    expect(pdf.lines).toContain('Юлія Щербак');
    expect(pdf.lines).toContain('вул. Хрещатик 1, кв. 5');
    expect(pdf.lines).toContain('Київ, 01001');
    expect(pdf.lines).toContain('Ukraine');
    expect(pdf.lines).toContain('3012345678');
    expect(pdf.lines).toContain('04-12-1990');
    expect(pdf.fonts.some((f) => f.endsWith('DejaVuSans'))).toBe(true);
    expect(textOf(pdf)).toContain('The person named on line 1 of this form is not a U.S. person;');
    expect(checkedOf(pdf)).toEqual(['I certify that I have the capacity to sign for the person identified on line 1 of this form.']);
    expectSignatureBoxOnPage(doc, pdf, LETTER);
    expect(offPage(doc, pdf)).toEqual([]);
  });

  it('no foreign TIN: "FTIN not legally required" when the country issues none; the explanation when it cannot be obtained', async () => {
    const none = person({}, { taxIds: [{ countryCode: 'AE', taxId: null, tinMissingReason: 'COUNTRY_DOES_NOT_ISSUE', tinMissingExplanation: null }] });
    expect(checkedOf(readPdf(Buffer.from((await render('w8Ben', none)).pdf)))).toContain('FTIN not legally required');
    const pending = person({}, { taxIds: [{ countryCode: 'PT', taxId: null, tinMissingReason: 'CANNOT_OBTAIN', tinMissingExplanation: 'Number pending' }] });
    const pdf = readPdf(Buffer.from((await render('w8Ben', pending)).pdf));
    expect(pdf.lines).toContain('Not available: Number pending');
    expect(checkedOf(pdf)).not.toContain('FTIN not legally required');
  });
});

describe('Substitute Form W-8BEN-E: the chapter 4 status from the answers', () => {
  const renderE = async (certification: Partial<BusinessCertification>, over: Partial<Extract<TaxFormSubject, { kind: 'business' }>> = {}) => {
    const doc = await render('w8BenE', company(certification, over));
    return { doc, pdf: readPdf(Buffer.from(doc.pdf)) };
  };
  const fi = { entityType: 'financial-institution' as const, isUsingClientFunds: true };

  it('the entity, its country, addresses, foreign TIN, Corporation, the certification and the signer', async () => {
    const { doc, pdf } = await renderE({});
    expect(doc.title).toBe('Form W-8BEN-E');
    expect(doc.fileName).toBe('W-8BEN-E-carpathia-trading-s-r-l-2026-11-27.pdf');
    expect(pdf.lines).toContain('Carpathia Trading S.R.L.');
    expect(pdf.lines).toContain('Romania');
    expect(pdf.lines).toContain('Bulevardul Unirii 5, et. 2');
    expect(pdf.lines).toContain('Strada Lipscani 10');
    expect(pdf.lines).toContain('18547290');
    expect(checkedOf(pdf)).toContain('Corporation');
    expect(pdf.lines).toContain('Ana Ionescu');
    expect(pdf.lines).toContain('Director');
    expect(textOf(pdf)).toContain('The entity identified on line 1 of this form is not a U.S. person;');
    expect(pdf.lines.some((l) => l.includes('Certification'))).toBe(true);
    expect(pdf.lines).toContain('Part XXX');
    expectSignatureBoxOnPage(doc, pdf, LETTER);
    expect(offPage(doc, pdf)).toEqual([]);
  });

  it('a financial institution holding client funds with a GIIN: participating FFI, the GIIN on line 9a', async () => {
    const { pdf } = await renderE({ ...fi, giin: 'A1B2C3.00000.LE.642' });
    expect(chapter4Status(businessCertification({ ...fi, giin: 'A1B2C3.00000.LE.642' })).status).toBe('participatingFfi');
    expect(checkedOf(pdf)).toContain('Participating FFI.');
    expect(pdf.lines).toContain('A1B2C3.00000.LE.642');
  });

  it('an investment entity managed by a financial institution with a GIIN: registered deemed-compliant FFI', async () => {
    const answers = { entityType: 'investment' as const, isManagedByFinancialInstitution: true, giin: 'Z9Y8X7.00000.SL.642' };
    const { pdf } = await renderE(answers);
    expect(chapter4Status(businessCertification(answers)).status).toBe('registeredDeemedCompliantFfi');
    expect(checkedOf(pdf)[1]).toMatch(/^Registered deemed-compliant FFI/);
    expect(pdf.lines).toContain('Z9Y8X7.00000.SL.642');
  });

  it('a GIIN applied for: the FFI status, "Applied for" on line 9a', async () => {
    const { pdf } = await renderE({ ...fi, giinMissingReason: 'APPLIED_FOR' });
    expect(checkedOf(pdf)).toContain('Participating FFI.');
    expect(pdf.lines).toContain('Applied for');
  });

  it('a sponsored entity: sponsored FFI and Part IV', async () => {
    const { pdf } = await renderE({ entityType: 'investment', isManagedByFinancialInstitution: true, giinMissingReason: 'SPONSORED_ENTITY' });
    expect(checkedOf(pdf)).toContain('Sponsored FFI. Complete Part IV.');
    expect(pdf.lines).toContain('Part IV');
    expect(pdf.lines).toContain('None: sponsored FFI (see Part IV)');
  });

  it('a GIIN not required: nonreporting IGA FFI and Part XII naming its country', async () => {
    const { pdf } = await renderE({ ...fi, giinMissingReason: 'NOT_REQUIRED' });
    expect(checkedOf(pdf)).toContain('Nonreporting IGA FFI. Complete Part XII.');
    expect(pdf.lines).toContain('Part XII');
    expect(textOf(pdf).replace(/\n/g, ' ')).toContain('IGA between the United States and Romania.');
  });

  it('publicly traded: Part XXIII line 37a with the market and the ticker', async () => {
    const { pdf } = await renderE({ isPubliclyTraded: true, companySecurityMarket: 'Bucharest Stock Exchange', companyTicket: 'CRPT' });
    expect(checkedOf(pdf)[1]).toMatch(/^Publicly traded NFFE/);
    expect(pdf.lines).toContain('Part XXIII');
    const text = textOf(pdf).replace(/\n/g, ' ');
    expect(text).toContain('regularly traded on one or more established securities markets, including Bucharest Stock Exchange');
    expect(text).toContain('Ticker symbol: CRPT');
    expect(checkedOf(pdf).some((l) => l.startsWith('37a'))).toBe(true);
  });

  it('a related entity of a publicly traded company: Part XXIII line 37b with that company and its market', async () => {
    const owner = { name: 'Danube Holdings PLC', market: 'London Stock Exchange', ticket: 'DNB' };
    const { pdf } = await renderE({ isOwnPubliclyTradedCompany: true, companyOwnedByYou: owner });
    expect(chapter4Status(businessCertification({ isOwnPubliclyTradedCompany: true, companyOwnedByYou: owner }))).toMatchObject({ status: 'publiclyTradedNffe', line37: '37b' });
    expect(checkedOf(pdf).some((l) => l.startsWith('37b'))).toBe(true);
    const text = textOf(pdf).replace(/\n/g, ' ');
    expect(text).toContain('is Danube Holdings PLC; and');
    expect(text).toContain('is London Stock Exchange.');
  });

  it('an active business: active NFFE, Part XXV', async () => {
    const { pdf } = await renderE({ isEarnPassiveIncome: false });
    expect(checkedOf(pdf)).toContain('Active NFFE. Complete Part XXV.');
    expect(pdf.lines).toContain('Part XXV');
    expect(pdf.lines).not.toContain('Part XXVI');
  });

  it('mostly passive income: passive NFFE, Part XXVI, the controlling U.S. person in Part XXIX (line 40c)', async () => {
    const { pdf } = await renderE({ isEarnPassiveIncome: true });
    expect(checkedOf(pdf)).toContain('Passive NFFE. Complete Part XXVI.');
    expect(pdf.lines).toContain('Part XXVI');
    expect(pdf.lines).toContain('Part XXIX');
    expect(pdf.lines).toContain('John Smith');
    expect(pdf.lines).toContain('123-45-6789');
    expect(pdf.lines).not.toContain('Ion Popescu');
    expect(checkedOf(pdf).some((l) => l.startsWith('c I further certify'))).toBe(true);
  });

  it('an investment entity not managed by a financial institution without US controlling persons: passive NFFE, line 40b, no Part XXIX', async () => {
    const { pdf } = await renderE(
      { entityType: 'investment', isManagedByFinancialInstitution: false },
      { controllingPersons: [{ name: 'Ion Popescu', taxResidenceCountryCode: 'RO' }] },
    );
    expect(checkedOf(pdf)).toContain('Passive NFFE. Complete Part XXVI.');
    expect(checkedOf(pdf).some((l) => l.startsWith('b I further certify'))).toBe(true);
    expect(pdf.lines).not.toContain('Part XXIX');
  });
});

describe('Tax residency self-certification (CRS)', () => {
  it('a person: name, address, place and date of birth, each tax residence with its TIN or reason code, the declaration in Ukrainian and English', async () => {
    const subject = person(
      {},
      {
        taxIds: [
          { countryCode: 'UA', taxId: '3012345678', tinMissingReason: null, tinMissingExplanation: null },
          { countryCode: 'AE', taxId: null, tinMissingReason: 'COUNTRY_DOES_NOT_ISSUE', tinMissingExplanation: null },
          { countryCode: 'PT', taxId: null, tinMissingReason: 'CANNOT_OBTAIN', tinMissingExplanation: 'Moved in October' },
          { countryCode: 'GE', taxId: null, tinMissingReason: 'NO_TIN_IS_REQUIRED', tinMissingExplanation: null },
        ],
      },
    );
    const doc = await render('taxResidencySelfCertification', subject, 'uk');
    const pdf = readPdf(Buffer.from(doc.pdf));
    const text = textOf(pdf);
    expect(doc.kind).toBe('taxResidencySelfCertification');
    expect(doc.title).toBe(crsWords.uk.titleIndividual);
    expect(doc.fileName).toBe('CRS-self-certification-shcherbak-2026-11-27.pdf');
    expect(pdf.lines).toContain('Юлія Щербак');
    expect(pdf.lines).toContain('вул. Хрещатик 1, кв. 5, Київ, 01001, Україна');
    expect(pdf.lines).toContain('1990-04-12');
    expect(pdf.lines).toContain('Львів, Україна');
    expect(pdf.lines).toContain('3012345678');
    for (const country of ['Україна', "Об'єднані Арабські Емірати", 'Португалія', 'Грузія']) expect(pdf.lines).toContain(country);
    expect(pdf.lines).toContain('A');
    expect(pdf.lines).toContain('B: Moved in October');
    expect(pdf.lines).toContain('C');
    expect(pdf.lines).toContain('Відомості про власника рахунку');
    expect(pdf.lines).toContain('Part 1: Identification of the account holder');
    expect(text).toContain('Заявляю, що, наскільки мені відомо');
    expect(text).toContain('I declare that all statements made in this declaration');
    expectSignatureBoxOnPage(doc, pdf, A4);
    expect(offPage(doc, pdf)).toEqual([]);
  });

  it('prints its headings and declaration in each of the six languages', async () => {
    for (const lang of ['en', 'es', 'pt', 'ro', 'ru', 'uk'] as const) {
      const doc = await render('taxResidencySelfCertification', person(), lang);
      const pdf = readPdf(Buffer.from(doc.pdf));
      const words = crsWords[lang];
      expect(doc.title).toBe(words.titleIndividual);
      expect(pdf.lines).toContain(words.partIdentIndividual);
      expect(pdf.lines).toContain(words.partDeclaration);
      expect(textOf(pdf)).toContain(words.declarationIndividual('Lumen Wallet').split(' ').slice(0, 4).join(' '));
      expect(pdf.lines).toContain(`${words.part} 1`);
      expect(offPage(doc, pdf)).toEqual([]);
    }
  });

  it('a passive entity: its classification checked, its tax residences, its controlling persons with their countries, signer and capacity', async () => {
    const subject = company({ isEarnPassiveIncome: true });
    const doc = await render('taxResidencySelfCertification', subject, 'ro');
    const pdf = readPdf(Buffer.from(doc.pdf));
    expect(doc.title).toBe(crsWords.ro.titleEntity);
    expect(crsEntityClass(businessCertification({ isEarnPassiveIncome: true }))).toBe('passive');
    expect(checkedOf(pdf)[0]).toMatch(/^ENF pasivă/);
    expect(pdf.lines).toContain('Carpathia Trading S.R.L.');
    expect(pdf.lines).toContain('J40/1234/2020');
    expect(pdf.lines).toContain('18547290');
    expect(pdf.lines).toContain('Ion Popescu');
    expect(pdf.lines).toContain('John Smith');
    expect(pdf.lines).toContain('Statele Unite ale Americii');
    expect(pdf.lines).toContain('Persoanele care exercită controlul');
    expect(pdf.lines).toContain('Ana Ionescu');
    expect(pdf.lines).toContain('Director');
    expectSignatureBoxOnPage(doc, pdf, A4);
    expect(offPage(doc, pdf)).toEqual([]);
  });

  it('an entity classification per branch: financial institution with its GIIN, listed, related to listed, other active (no controlling persons)', async () => {
    const cases: [Partial<BusinessCertification>, string, string[]][] = [
      [{ entityType: 'financial-institution', isUsingClientFunds: true, giin: 'A1B2C3.00000.LE.642' }, 'Financial institution', ['A1B2C3.00000.LE.642']],
      [{ isPubliclyTraded: true, companySecurityMarket: 'Bucharest Stock Exchange', companyTicket: 'CRPT' }, 'Active NFE: a corporation', ['Bucharest Stock Exchange', 'CRPT']],
      [
        { isOwnPubliclyTradedCompany: true, companyOwnedByYou: { name: 'Danube Holdings PLC', market: 'London Stock Exchange', ticket: 'DNB' } },
        'Active NFE: a related entity',
        ['Danube Holdings PLC', 'London Stock Exchange', 'DNB'],
      ],
      [{}, 'Active NFE other than the above', []],
    ];
    for (const [answers, checked, values] of cases) {
      const pdf = readPdf(Buffer.from((await render('taxResidencySelfCertification', company(answers), 'en')).pdf));
      expect(checkedOf(pdf)[0]).toMatch(new RegExp(`^${checked}`));
      for (const value of values) expect(pdf.lines).toContain(value);
      expect(pdf.lines).not.toContain('Ion Popescu');
    }
  });
});

describe('every form', () => {
  it('the same input and nowMs give the same bytes', async () => {
    for (const kind of ['w8Ben', 'taxResidencySelfCertification'] as const) {
      const [a, b] = await Promise.all([render(kind, person(), 'ru'), render(kind, person(), 'ru')]);
      expect(Buffer.from(a.pdf).equals(Buffer.from(b.pdf))).toBe(true);
      expect(a.signatureBox).toEqual(b.signatureBox);
    }
  });

  it('the IRS forms are US Letter, the CRS self-certification A4', async () => {
    expect(pageSizes((await render('w8Ben', person())).pdf)[0]).toEqual(LETTER);
    expect(pageSizes((await render('w8BenE', company())).pdf)[0]).toEqual(LETTER);
    expect(pageSizes((await render('taxResidencySelfCertification', person())).pdf)[0]).toEqual(A4);
  });
});
