/**
 * Substitute Form W-8BEN-E (Rev. October 2021), Certificate of Status of Beneficial Owner for
 * United States Tax Withholding and Reporting (Entities), for a company that is not a US taxpayer.
 *
 * The IRS accepts a substitute Form W-8BEN-E (Instructions for the Requester of Forms W-8BEN,
 * W-8BEN-E, W-8ECI, W-8EXP, and W-8IMY, "Substitute forms") when it is substantially similar to
 * the official form and its certifications are the official ones, word for word (the texts of the
 * status parts and Part XXX below). The same instructions let a substitute form offer only the
 * chapter 4 statuses that apply to the requester's payees, and leave out the parts that do not
 * apply: line 5 lists the statuses the answers can lead to, and only the status's own part follows.
 *
 * Part numbers are those of Rev. October 2021: IV sponsored FFI, XII nonreporting IGA FFI, XXIII
 * publicly traded NFFE or NFFE affiliate of a publicly traded corporation, XXV active NFFE, XXVI
 * passive NFFE, XXIX substantial U.S. owners of a passive NFFE, XXX certification.
 *
 * Chapter 4 status from the answers (chapter4Status; the spec shows no mapping; decisions):
 * - A financial institution (isFinancialInstitution) is an FFI. With a GIIN (or one applied for):
 *   a participating FFI when it is a financial institution that holds financial assets for others
 *   (entityType financial-institution, isUsingClientFunds not false), else (an investment entity
 *   managed by a financial institution, or one holding no client assets) a registered
 *   deemed-compliant FFI. The answers do not tell a reporting Model 1 / Model 2 FFI apart: a
 *   question the certification would need for that. Without a GIIN: SPONSORED_ENTITY makes it a
 *   sponsored FFI (Part IV; the sponsor's name is not asked and stays blank), NOT_REQUIRED a
 *   nonreporting IGA FFI (Part XII, the IGA of its country of incorporation).
 *   Line 9a holds the GIIN, "Applied for", or the reason.
 * - Not a financial institution: publicly traded (isPubliclyTraded) is a publicly traded NFFE
 *   (Part XXIII line 37a, with its market and ticker); a related entity of a publicly traded company
 *   (isOwnPubliclyTradedCompany, companyOwnedByYou) an NFFE affiliate of a publicly traded
 *   corporation (line 37b); a passive entity (isPassiveEntity: mostly passive income, or an
 *   investment entity not managed by a financial institution) a passive NFFE (Part XXVI); any
 *   other an active NFFE (Part XXV).
 * - A passive NFFE's controlling persons resident in the US for tax are its controlling U.S.
 *   persons: listed in Part XXIX (name, address and TIN where the subject gives them) with line
 *   40c; without any, line 40b (no substantial U.S. owners).
 * - Chapter 3 status: Corporation (the answers are about companies). A disregarded entity
 *   (isDisregardedEntity): line 1 is its owner (when the subject names one), line 3 the company.
 * - Line 6 is the registered address, line 7 the place of business when it differs; line 8 the
 *   US entry's TIN (an EIN); line 9b the first non-US tax residence's TIN, line 9c checked when
 *   its reason is COUNTRY_DOES_NOT_ISSUE or NO_TIN_IS_REQUIRED, the explanation on 9b for
 *   CANNOT_OBTAIN.
 */
import { isFinancialInstitution, isPassiveEntity, type BusinessCertification } from '../../../../api/tax-certification.ts';
import { addressOneLine, cityLine, countryName, foreignEntry, formFileName, formatUsTin, sameAddress, streetLine, usEntry } from './common.ts';
import { FormLayout } from './layout.ts';
import type { FormAddress, TaxFormDocument, TaxFormInput } from './types.ts';

export const CHAPTER4_STATUSES = {
  participatingFfi: { label: 'Participating FFI.', part: null },
  registeredDeemedCompliantFfi: {
    label: 'Registered deemed-compliant FFI (other than a reporting Model 1 FFI, sponsored FFI, or nonreporting IGA FFI covered in Part XII). See instructions.',
    part: null,
  },
  sponsoredFfi: { label: 'Sponsored FFI. Complete Part IV.', part: 'Part IV' },
  nonreportingIgaFfi: { label: 'Nonreporting IGA FFI. Complete Part XII.', part: 'Part XII' },
  publiclyTradedNffe: { label: 'Publicly traded NFFE or NFFE affiliate of a publicly traded corporation. Complete Part XXIII.', part: 'Part XXIII' },
  activeNffe: { label: 'Active NFFE. Complete Part XXV.', part: 'Part XXV' },
  passiveNffe: { label: 'Passive NFFE. Complete Part XXVI.', part: 'Part XXVI' },
} as const;
export type Chapter4Status = keyof typeof CHAPTER4_STATUSES;

export interface Chapter4 {
  status: Chapter4Status;
  /** publicly traded NFFE: 37a itself traded, 37b an affiliate of a traded corporation */
  line37?: '37a' | '37b';
  /** line 9a */
  giinLine: string;
}

const GIIN_REASON_LINE = {
  APPLIED_FOR: 'Applied for',
  SPONSORED_ENTITY: 'None: sponsored FFI (see Part IV)',
  NOT_REQUIRED: 'Not required: nonreporting IGA FFI (see Part XII)',
} as const;

/** The entity's chapter 4 (FATCA) status from its answers (the mapping in the header). */
export function chapter4Status(c: BusinessCertification): Chapter4 {
  if (isFinancialInstitution(c)) {
    const giinLine = c.giin ? c.giin : c.giinMissingReason ? GIIN_REASON_LINE[c.giinMissingReason] : '';
    if (!c.giin && c.giinMissingReason === 'SPONSORED_ENTITY') return { status: 'sponsoredFfi', giinLine };
    if (!c.giin && c.giinMissingReason === 'NOT_REQUIRED') return { status: 'nonreportingIgaFfi', giinLine };
    const participating = c.entityType === 'financial-institution' && c.isUsingClientFunds !== false;
    return { status: participating ? 'participatingFfi' : 'registeredDeemedCompliantFfi', giinLine };
  }
  if (c.entityType === 'general' && c.isPubliclyTraded === true) return { status: 'publiclyTradedNffe', line37: '37a', giinLine: '' };
  if (c.entityType === 'general' && c.isOwnPubliclyTradedCompany === true) return { status: 'publiclyTradedNffe', line37: '37b', giinLine: '' };
  if (isPassiveEntity(c)) return { status: 'passiveNffe', giinLine: '' };
  return { status: 'activeNffe', giinLine: '' };
}

const CHAPTER3_STATUSES = [
  'Corporation',
  'Partnership',
  'Simple trust',
  'Tax-exempt organization',
  'Complex trust',
  'Foreign Government - Controlled Entity',
  'Central Bank of Issue',
  'Private foundation',
  'Estate',
  'Foreign Government - Integral Part',
  'Grantor trust',
  'Disregarded entity',
  'International organization',
] as const;

export const W8BENE_CERTIFICATION_INTRO =
  'Under penalties of perjury, I declare that I have examined the information on this form and to the best of my knowledge and belief it is true, correct, and complete. I further certify under penalties of perjury that:';

export const W8BENE_CERTIFICATION = [
  'The entity identified on line 1 of this form is the beneficial owner of all the income or proceeds to which this form relates, is using this form to certify its status for chapter 4 purposes, or is submitting this form for purposes of section 6050W or 6050Y;',
  'The entity identified on line 1 of this form is not a U.S. person;',
  'This form relates to: (a) income not effectively connected with the conduct of a trade or business in the United States, (b) income effectively connected with the conduct of a trade or business in the United States but is not subject to tax under an income tax treaty, (c) the partner’s share of a partnership’s effectively connected taxable income, or (d) the partner’s amount realized from the transfer of a partnership interest subject to withholding under section 1446(f); and',
  'For broker transactions or barter exchanges, the beneficial owner is an exempt foreign person as defined in the instructions.',
] as const;

export const W8BENE_AUTHORIZATION = [
  'Furthermore, I authorize this form to be provided to any withholding agent that has control, receipt, or custody of the income of which the entity on line 1 is the beneficial owner or any withholding agent that can disburse or make payments of the income of which the entity on line 1 is the beneficial owner.',
  'I agree that I will submit a new form within 30 days if any certification on this form becomes incorrect.',
] as const;

export async function renderW8BenE(input: TaxFormInput): Promise<TaxFormDocument> {
  const s = input.subject;
  if (s.kind !== 'business') throw new Error('W-8BEN-E is for entities');
  const c = s.certification;
  const ch4 = chapter4Status(c);
  const title = 'Form W-8BEN-E';
  const form = new FormLayout({ title, author: input.providerName, lang: 'en', createdAt: new Date(input.nowMs), size: 'LETTER' });
  form.header({
    form: 'Form W-8BEN-E',
    formNote: ['(Rev. October 2021)', 'Department of the Treasury', 'Internal Revenue Service', 'Substitute form'],
    title: ['Certificate of Status of Beneficial Owner for United States Tax Withholding and Reporting (Entities)'],
    notes: [
      'For use by entities. Individuals must use Form W-8BEN. Section references are to the Internal Revenue Code.',
      'Go to www.irs.gov/FormW8BENE for instructions and the latest information.',
      'Give this form to the withholding agent or payer. Do not send to the IRS.',
    ],
    aside: ['OMB No. 1545-1621', `Withholding agent: ${input.providerName}`],
  });

  const disregarded = c.isDisregardedEntity;
  form.part('Part I', 'Identification of Beneficial Owner');
  form.row([
    { line: '1', label: 'Name of organization that is the beneficial owner', value: disregarded ? (s.owner?.name ?? '') : s.name, width: 2 },
    { line: '2', label: 'Country of incorporation or organization', value: countryName(c.registrationCountryCode), width: 1 },
  ]);
  form.row([{ line: '3', label: 'Name of disregarded entity receiving the payment (if applicable, see instructions)', value: disregarded ? s.name : '' }]);
  form.paragraph('4  Chapter 3 Status (entity type) (Must check one box only):', { size: 7, color: '#555555', after: 1 });
  form.checks(
    CHAPTER3_STATUSES.map((status) => ({ checked: status === 'Corporation', text: status })),
    { columns: 4, size: 7 },
  );
  form.paragraph(
    'If you entered disregarded entity, partnership, simple trust, or grantor trust above, is the entity a hybrid making a treaty claim? If “Yes,” complete Part III.  ☐ Yes  ☐ No',
    {
      size: 7,
      indent: 4,
    },
  );
  form.rule();
  form.gap(2);
  form.paragraph(
    '5  Chapter 4 Status (FATCA status) (See instructions for details and complete the certification below for the entity’s applicable status.) This substitute form lists the statuses that apply to the withholding agent’s account holders.',
    { size: 7, color: '#555555', after: 1 },
  );
  form.checks(
    (Object.keys(CHAPTER4_STATUSES) as Chapter4Status[]).map((status) => ({ checked: status === ch4.status, text: CHAPTER4_STATUSES[status].label })),
    { columns: 2, size: 7 },
  );
  form.gap(2);
  form.rule();
  const address = (line: string, label: string, a: FormAddress | null) => {
    form.row([{ line, label, value: a ? streetLine(a) : '' }]);
    form.row([
      { label: 'City or town, state or province. Include postal code where appropriate.', value: a ? cityLine(a) : '', width: 2 },
      { label: 'Country', value: a ? countryName(a.countryCode) : '', width: 1 },
    ]);
  };
  const registered = s.registeredAddress ?? s.placeOfBusiness;
  address(
    '6',
    'Permanent residence address (street, apt. or suite no., or rural route). Do not use a P.O. box or in-care-of address (other than a registered address).',
    registered,
  );
  address('7', 'Mailing address (if different from above)', s.placeOfBusiness && !sameAddress(s.placeOfBusiness, registered) ? s.placeOfBusiness : null);
  const us = usEntry(c.taxIds);
  form.row([{ line: '8', label: 'U.S. taxpayer identification number (TIN), if required', value: us?.taxId ? formatUsTin(us.taxId, 'ein') : '' }]);
  const foreign = foreignEntry(c.taxIds);
  const ftinNotRequired = !foreign?.taxId && (foreign?.tinMissingReason === 'COUNTRY_DOES_NOT_ISSUE' || foreign?.tinMissingReason === 'NO_TIN_IS_REQUIRED');
  const foreignTin = foreign?.taxId
    ? foreign.taxId
    : foreign?.tinMissingReason === 'CANNOT_OBTAIN'
      ? `Not available: ${foreign.tinMissingExplanation ?? 'cannot obtain a TIN'}`
      : '';
  form.row([
    { line: '9a', label: 'GIIN', value: ch4.giinLine, width: 1.2 },
    { line: 'b', label: 'Foreign TIN', value: foreignTin, width: 1.2 },
    { line: 'c', label: 'Check if FTIN not legally required', value: ftinNotRequired ? '☒ FTIN not legally required' : '☐', width: 1 },
  ]);
  form.row([{ line: '10', label: 'Reference number(s) (see instructions)', value: s.registrationNumber ? `Registration number ${s.registrationNumber}` : '' }]);
  form.paragraph(
    'Parts II and III (disregarded entity or branch receiving payment; claim of tax treaty benefits) are not completed on this substitute form; the status part that applies follows.',
    { size: 6.5, color: '#777777' },
  );

  form.gap(6);
  if (ch4.status === 'sponsoredFfi') {
    form.part('Part IV', 'Sponsored FFI');
    form.row([{ line: '16', label: 'Name of sponsoring entity:', value: '' }]);
    form.paragraph('17  Check whichever box applies.', { size: 7.5 });
    form.checks(
      [
        {
          checked: c.entityType === 'investment',
          text: 'I certify that the entity identified in Part I: • Is an investment entity; • Is not a QI, WP (except to the extent permitted in the withholding foreign partnership agreement), or WT; and • Has agreed with the entity identified above (that is not a nonparticipating FFI) to act as the sponsoring entity for this entity.',
        },
        {
          checked: false,
          text: 'I certify that the entity identified in Part I: • Is a controlled foreign corporation as defined in section 957(a); • Is not a QI, WP, or WT; • Is wholly owned, directly or indirectly, by the U.S. financial institution identified above that agrees to act as the sponsoring entity for this entity; and • Shares a common electronic account system with the sponsoring entity (identified above) that enables the sponsoring entity to identify all account holders and payees of the entity and to access all account and customer information maintained by the entity including, but not limited to, customer identification information, customer documentation, account balance, and all payments made to account holders or payees.',
        },
      ],
      { size: 7.5 },
    );
  } else if (ch4.status === 'nonreportingIgaFfi') {
    form.part('Part XII', 'Nonreporting IGA FFI');
    form.checks(
      [
        {
          checked: true,
          text: `26  I certify that the entity identified in Part I: • Meets the requirements to be considered a nonreporting financial institution pursuant to an applicable IGA between the United States and ${countryName(c.registrationCountryCode)}. The applicable IGA is a ☐ Model 1 IGA or a ☐ Model 2 IGA; and is treated as a ______________________ under the provisions of the applicable IGA or Treasury regulations (if applicable, see instructions); • If you are a trustee documented trust or a sponsored entity, provide the name of the trustee or sponsor ______________________. The trustee is: ☐ U.S. ☐ Foreign`,
        },
      ],
      { size: 7.5 },
    );
  } else if (ch4.status === 'publiclyTradedNffe') {
    form.part('Part XXIII', 'Publicly Traded NFFE or NFFE Affiliate of a Publicly Traded Corporation');
    form.paragraph('Check box 37a or 37b, whichever applies.', { size: 7.5 });
    const traded = c.companyOwnedByYou;
    form.checks(
      [
        {
          checked: ch4.line37 === '37a',
          text: `37a  I certify that: • The entity identified in Part I is a foreign corporation that is not a financial institution; and • The stock of such corporation is regularly traded on one or more established securities markets, including ${ch4.line37 === '37a' ? (c.companySecurityMarket ?? '______') : '______'} (name one securities exchange upon which the stock is regularly traded).`,
        },
        {
          checked: ch4.line37 === '37b',
          text: `37b  I certify that: • The entity identified in Part I is a foreign corporation that is not a financial institution; • The entity identified in Part I is a member of the same expanded affiliated group as an entity the stock of which is regularly traded on an established securities market; • The name of the entity, the stock of which is regularly traded on an established securities market, is ${ch4.line37 === '37b' && traded ? traded.name : '______'}; and • The name of the securities market on which the stock is regularly traded is ${ch4.line37 === '37b' && traded ? traded.market : '______'}.`,
        },
      ],
      { size: 7.5 },
    );
    const ticker = ch4.line37 === '37a' ? c.companyTicket : traded?.ticket;
    if (ticker) form.paragraph(`Ticker symbol: ${ticker}`, { size: 7.5, indent: 17 });
  } else if (ch4.status === 'activeNffe') {
    form.part('Part XXV', 'Active NFFE');
    form.checks(
      [
        {
          checked: true,
          text: '39  I certify that: • The entity identified in Part I is a foreign entity that is not a financial institution; • Less than 50% of such entity’s gross income for the preceding calendar year is passive income; and • Less than 50% of the assets held by such entity are assets that produce or are held for the production of passive income (calculated as a weighted average of the percentage of passive assets measured quarterly) (see instructions for the definition of passive income).',
        },
      ],
      { size: 7.5 },
    );
  } else if (ch4.status === 'passiveNffe') {
    const usOwners = s.controllingPersons.filter((p) => p.taxResidenceCountryCode === 'US');
    form.part('Part XXVI', 'Passive NFFE');
    form.checks(
      [
        {
          checked: true,
          text: '40a  I certify that the entity identified in Part I is a foreign entity that is not a financial institution (other than an investment entity organized in a possession of the United States) and is not certifying its status as a publicly traded NFFE (or affiliate), excepted territory NFFE, active NFFE, direct reporting NFFE, or sponsored direct reporting NFFE.',
        },
      ],
      { size: 7.5 },
    );
    form.paragraph('Check box 40b or 40c, whichever applies.', { size: 7.5 });
    form.checks(
      [
        {
          checked: usOwners.length === 0,
          text: 'b  I further certify that the entity identified in Part I has no substantial U.S. owners (or, if applicable, no controlling U.S. persons); or',
        },
        {
          checked: usOwners.length > 0,
          text: 'c  I further certify that the entity identified in Part I has provided the name, address, and TIN of each substantial U.S. owner (or, if applicable, controlling U.S. person) of the NFFE in Part XXIX.',
        },
      ],
      { size: 7.5 },
    );
    if (usOwners.length > 0) {
      form.gap(6);
      form.part('Part XXIX', 'Substantial U.S. Owners of Passive NFFE');
      form.paragraph(
        'As required by Part XXVI, provide the name, address, and TIN of each substantial U.S. owner of the NFFE. Please see the instructions for a definition of substantial U.S. owner. If providing the form to an FFI treated as a reporting Model 1 FFI or reporting Model 2 FFI, an NFFE may also use this part for reporting its controlling U.S. persons under an applicable IGA.',
        { size: 7.5 },
      );
      for (const owner of usOwners) {
        form.row([
          { label: 'Name', value: owner.name, width: 1.2 },
          { label: 'Address', value: owner.address ? addressOneLine(owner.address) : '', width: 2 },
          { label: 'TIN', value: owner.usTin ? formatUsTin(owner.usTin, 'ssn') : '', width: 0.8 },
        ]);
      }
    }
  }

  form.gap(6);
  form.part('Part XXX', 'Certification');
  form.paragraph(W8BENE_CERTIFICATION_INTRO, { size: 7.5 });
  for (const text of W8BENE_CERTIFICATION) form.paragraph(text, { size: 7.5, bullet: true, indent: 4, after: 1 });
  for (const text of W8BENE_AUTHORIZATION) form.paragraph(text, { size: 7.5, after: 2 });
  form.checks([{ checked: true, text: 'I certify that I have the capacity to sign for the entity identified on line 1 of this form.' }], { size: 7.5, indent: 0 });
  const signatureBox = form.signature({
    label: 'Sign Here',
    caption: 'Signature of individual authorized to sign for beneficial owner · Date (MM-DD-YYYY), added when signed',
    lines: [
      { label: 'Print Name', value: s.signerName },
      { label: 'Capacity', value: s.signerCapacity },
    ],
  });
  form.footers(`Substitute Form W-8BEN-E (Rev. 10-2021) · ${input.providerName}`, (i, n) => `Page ${i} of ${n}`);
  const pdf = await form.finish();
  return { kind: 'w8BenE', title, fileName: formFileName('W-8BEN-E', s.name, input.nowMs), pdf: new Uint8Array(pdf), signatureBox };
}
