/**
 * Substitute Form W-8BEN (Rev. October 2021), Certificate of Foreign Status of Beneficial Owner
 * for United States Tax Withholding and Reporting (Individuals), for a person who is not a US
 * person (api/tax-certification.ts isUsPerson).
 *
 * The IRS accepts a substitute Form W-8BEN (Instructions for the Requester of Forms W-8BEN,
 * W-8BEN-E, W-8ECI, W-8EXP, and W-8IMY, "Substitute forms") when it is substantially similar to
 * the official form and its certifications are the official ones: Part III below is the official
 * text word for word.
 *
 * How the answers fill it (the spec shows no mapping; decisions):
 * - Line 2 (country of citizenship): of several citizenships, the one of the residence address's
 *   country, else the first (the form's instructions for a dual citizen).
 * - Line 3 is the residence address; line 4 the mailing address only if the subject has one that
 *   differs (the answers ask none).
 * - Line 5: the US TIN of a US entry, if the certification has one (rare for a non-US person).
 * - Line 6a: the TIN of the first tax residence other than the US; without one, line 6b ("FTIN not
 *   legally required") is checked when the reason is COUNTRY_DOES_NOT_ISSUE or NO_TIN_IS_REQUIRED,
 *   and line 6a holds the explanation when it is CANNOT_OBTAIN (the instructions ask the reason
 *   of a missing FTIN).
 * - Part II (treaty benefits) is not asked: left blank. The Rev. October 2021 form has no
 *   "capacity in which acting" line any more: its capacity check box replaced it; the box is
 *   checked, the person signing for themselves.
 */
import { cityLine, countryName, foreignEntry, formFileName, formatUsTin, sameAddress, streetLine, usDate, usEntry } from './common.ts';
import { FormLayout } from './layout.ts';
import type { FormAddress, TaxFormDocument, TaxFormInput } from './types.ts';

export const W8BEN_CERTIFICATION_INTRO =
  'Under penalties of perjury, I declare that I have examined the information on this form and to the best of my knowledge and belief it is true, correct, and complete. I further certify under penalties of perjury that:';

export const W8BEN_CERTIFICATION = [
  'I am the individual that is the beneficial owner (or am authorized to sign for the individual that is the beneficial owner) of all the income or proceeds to which this form relates or am using this form to document myself for chapter 4 purposes;',
  'The person named on line 1 of this form is not a U.S. person;',
  'This form relates to: (a) income not effectively connected with the conduct of a trade or business in the United States; (b) income effectively connected with the conduct of a trade or business in the United States but is not subject to tax under an applicable income tax treaty; (c) the partner’s share of a partnership’s effectively connected taxable income; or (d) the partner’s amount realized from the transfer of a partnership interest subject to withholding under section 1446(f);',
  'The person named on line 1 of this form is a resident of the treaty country listed on line 9 of the form (if any) within the meaning of the income tax treaty between the United States and that country; and',
  'For broker transactions or barter exchanges, the beneficial owner is an exempt foreign person as defined in the instructions.',
] as const;

export const W8BEN_AUTHORIZATION =
  'Furthermore, I authorize this form to be provided to any withholding agent that has control, receipt, or custody of the income of which I am the beneficial owner or any withholding agent that can disburse or make payments of the income of which I am the beneficial owner. I agree that I will submit a new form within 30 days if any certification made on this form becomes incorrect.';

export interface W8BenFields {
  name: string;
  citizenship: string;
  residence: FormAddress | null;
  mailing: FormAddress | null;
  usTin: string;
  foreignTin: string;
  ftinNotRequired: boolean;
  dateOfBirth: string;
}

export function w8BenFields(input: TaxFormInput): W8BenFields {
  const s = input.subject;
  if (s.kind !== 'personal') throw new Error('W-8BEN is for individuals');
  const c = s.certification;
  const foreignCitizenships = c.citizenship.filter((code) => code !== 'US');
  const citizenship = foreignCitizenships.find((code) => code === s.address?.countryCode) ?? foreignCitizenships[0] ?? c.citizenship[0] ?? '';
  const us = usEntry(c.taxIds);
  const foreign = foreignEntry(c.taxIds);
  const notRequired = !foreign?.taxId && (foreign?.tinMissingReason === 'COUNTRY_DOES_NOT_ISSUE' || foreign?.tinMissingReason === 'NO_TIN_IS_REQUIRED');
  const foreignTin = foreign?.taxId
    ? foreign.taxId
    : foreign?.tinMissingReason === 'CANNOT_OBTAIN'
      ? `Not available: ${foreign.tinMissingExplanation ?? 'cannot obtain a TIN'}`.trim()
      : '';
  return {
    name: `${s.firstName} ${s.lastName}`.trim(),
    citizenship: citizenship ? countryName(citizenship) : '',
    residence: s.address,
    mailing: s.mailingAddress && !sameAddress(s.mailingAddress, s.address) ? s.mailingAddress : null,
    usTin: us?.taxId ? formatUsTin(us.taxId, 'ssn') : '',
    foreignTin,
    ftinNotRequired: notRequired,
    dateOfBirth: usDate(c.dateOfBirth),
  };
}

export async function renderW8Ben(input: TaxFormInput): Promise<TaxFormDocument> {
  const f = w8BenFields(input);
  const s = input.subject;
  if (s.kind !== 'personal') throw new Error('W-8BEN is for individuals');
  const title = 'Form W-8BEN';
  const form = new FormLayout({ title, author: input.providerName, lang: 'en', createdAt: new Date(input.nowMs), size: 'LETTER' });
  form.header({
    form: 'Form W-8BEN',
    formNote: ['(Rev. October 2021)', 'Department of the Treasury', 'Internal Revenue Service', 'Substitute form'],
    title: ['Certificate of Foreign Status of Beneficial Owner for United States Tax Withholding and Reporting (Individuals)'],
    notes: [
      'For use by individuals. Entities must use Form W-8BEN-E.',
      'Go to www.irs.gov/FormW8BEN for instructions and the latest information.',
      'Give this form to the withholding agent or payer. Do not send to the IRS.',
    ],
    aside: ['OMB No. 1545-1621', `Withholding agent: ${input.providerName}`],
  });

  form.part('Part I', 'Identification of Beneficial Owner (see instructions)');
  form.row([
    { line: '1', label: 'Name of individual who is the beneficial owner', value: f.name, width: 2 },
    { line: '2', label: 'Country of citizenship', value: f.citizenship, width: 1 },
  ]);
  const address = (line: string, label: string, a: FormAddress | null) => {
    form.row([{ line, label, value: a ? streetLine(a) : '' }]);
    form.row([
      { label: 'City or town, state or province. Include postal code where appropriate.', value: a ? cityLine(a) : '', width: 2 },
      { label: 'Country', value: a ? countryName(a.countryCode) : '', width: 1 },
    ]);
  };
  address('3', 'Permanent residence address (street, apt. or suite no., or rural route). Do not use a P.O. box or in-care-of address.', f.residence);
  address('4', 'Mailing address (if different from above)', f.mailing);
  form.row([{ line: '5', label: 'U.S. taxpayer identification number (SSN or ITIN), if required (see instructions)', value: f.usTin }]);
  form.row([
    { line: '6a', label: 'Foreign tax identifying number (see instructions)', value: f.foreignTin, width: 2 },
    { line: '6b', label: 'Check if FTIN not legally required', value: f.ftinNotRequired ? '☒ FTIN not legally required' : '☐', width: 1 },
  ]);
  form.row([
    { line: '7', label: 'Reference number(s) (see instructions)', value: '', width: 2 },
    { line: '8', label: 'Date of birth (MM-DD-YYYY) (see instructions)', value: f.dateOfBirth, width: 1 },
  ]);

  form.gap(6);
  form.part('Part II', 'Claim of Tax Treaty Benefits (for chapter 3 purposes only) (see instructions)', 'Not claimed on this form: left blank.');
  form.paragraph(
    '9  I certify that the beneficial owner is a resident of ______________________ within the meaning of the income tax treaty between the United States and that country.',
    {
      size: 7.5,
    },
  );
  form.paragraph(
    '10  Special rates and conditions (if applicable—see instructions): The beneficial owner is claiming the provisions of Article and paragraph ________ of the treaty identified on line 9 above to claim a ____ % rate of withholding on (specify type of income): ______________________. Explain the additional conditions in the Article and paragraph the beneficial owner meets to be eligible for the rate of withholding: ______________________',
    { size: 7.5 },
  );
  form.rule();

  form.gap(6);
  form.part('Part III', 'Certification');
  form.paragraph(W8BEN_CERTIFICATION_INTRO, { size: 7.5 });
  for (const text of W8BEN_CERTIFICATION) form.paragraph(text, { size: 7.5, bullet: true, indent: 4, after: 1 });
  form.paragraph(W8BEN_AUTHORIZATION, { size: 7.5, after: 3 });
  form.checks([{ checked: true, text: 'I certify that I have the capacity to sign for the person identified on line 1 of this form.' }], { size: 7.5, indent: 0 });
  const signatureBox = form.signature({
    label: 'Sign Here',
    caption: 'Signature of beneficial owner (or individual authorized to sign for beneficial owner) · Date (MM-DD-YYYY), added when signed',
    lines: [{ label: 'Print name of signer', value: f.name }],
  });
  form.footers(`Substitute Form W-8BEN (Rev. 10-2021) · ${input.providerName}`, (i, n) => `Page ${i} of ${n}`);
  const pdf = await form.finish();
  return { kind: 'w8Ben', title, fileName: formFileName('W-8BEN', s.lastName, input.nowMs), pdf: new Uint8Array(pdf), signatureBox };
}
