/**
 * Substitute Form W-9 (Rev. March 2024), Request for Taxpayer Identification Number and
 * Certification, for a US person or a company that is a US taxpayer.
 *
 * The IRS accepts a substitute Form W-9 (Instructions for the Requester of Form W-9, "Substitute
 * Form W-9") when its content is substantially similar to the official form and it contains the
 * certification text word for word, in the same order: Part II below is the official text,
 * copied word for word; the instructions for the certification follow it as on the form.
 *
 * How the answers fill it (the spec shows no mapping; decisions):
 * - A person: line 1 is the name, line 3a "Individual/sole proprietor", the TIN an SSN
 *   (123-45-6789; an ITIN prints the same way).
 * - A company: a corporation for US tax purposes, so "C corporation" (an S election, a
 *   partnership or an LLC's own classification are not asked); the TIN an EIN (12-3456789).
 *   A disregarded entity (isDisregardedEntity) signs as its owner, as the form's line 1 asks:
 *   line 1 is the owner's name, line 2 the company's, and line 3a the owner's classification
 *   (Individual/sole proprietor or C corporation); the owner comes from the subject (the tax
 *   methods name the single owner); without it line 1 and 3a stay blank.
 * - The address (lines 5 and 6) is the residence address, for a company its place of business
 *   (else its registered address); outside the US the country is added to line 6.
 * - The TIN is the certification's US entry; without a number, "Applied for" when its reason is
 *   CANNOT_OBTAIN (the W-9's own answer for a number not yet issued), else blank.
 * - Line 4 (exemption codes) and line 7 (account numbers) are not asked: blank. The requester's
 *   name (optional box) is the provider.
 */
import { cityLine, countryName, formFileName, formatUsTin, streetLine, usEntry } from './common.ts';
import { FormLayout } from './layout.ts';
import type { FormAddress, TaxFormDocument, TaxFormInput } from './types.ts';

export const W9_CERTIFICATION = [
  'The number shown on this form is my correct taxpayer identification number (or I am waiting for a number to be issued to me); and',
  'I am not subject to backup withholding because (a) I am exempt from backup withholding, or (b) I have not been notified by the Internal Revenue Service (IRS) that I am subject to backup withholding as a result of a failure to report all interest or dividends, or (c) the IRS has notified me that I am no longer subject to backup withholding; and',
  'I am a U.S. citizen or other U.S. person (defined below); and',
  'The FATCA code(s) entered on this form (if any) indicating that I am exempt from FATCA reporting is correct.',
] as const;

const CERTIFICATION_INSTRUCTIONS =
  'Certification instructions. You must cross out item 2 above if you have been notified by the IRS that you are currently subject to backup withholding because you have failed to report all interest and dividends on your tax return. For real estate transactions, item 2 does not apply. For mortgage interest paid, acquisition or abandonment of secured property, cancellation of debt, contributions to an individual retirement arrangement (IRA), and, generally, payments other than interest and dividends, you are not required to sign the certification, but you must provide your correct TIN. See the instructions for Part II, later.';

export const W9_CLASSIFICATIONS = ['Individual/sole proprietor', 'C corporation', 'S corporation', 'Partnership', 'Trust/estate', 'LLC', 'Other'] as const;
export type W9Classification = (typeof W9_CLASSIFICATIONS)[number];

export interface W9Fields {
  line1: string;
  line2: string;
  classification: W9Classification | null;
  address: FormAddress | null;
  tinKind: 'ssn' | 'ein';
  /** formatted, "Applied for", or '' */
  tin: string;
  signerName: string;
  signerCapacity: string | null;
  fileName: string;
}

/** The W-9's fields from the subject (the mapping in the header). */
export function w9Fields(input: TaxFormInput): W9Fields {
  const s = input.subject;
  const tinOf = (kind: 'ssn' | 'ein') => {
    const us = usEntry(s.certification.taxIds);
    if (us?.taxId) return formatUsTin(us.taxId, kind);
    return us?.tinMissingReason === 'CANNOT_OBTAIN' ? 'Applied for' : '';
  };
  if (s.kind === 'personal') {
    const name = `${s.firstName} ${s.lastName}`.trim();
    return {
      line1: name,
      line2: '',
      classification: 'Individual/sole proprietor',
      address: s.address,
      tinKind: 'ssn',
      tin: tinOf('ssn'),
      signerName: name,
      signerCapacity: null,
      fileName: formFileName('W-9', s.lastName, input.nowMs),
    };
  }
  const disregarded = s.certification.isDisregardedEntity;
  const owner = disregarded ? (s.owner ?? null) : null;
  const tinKind = owner?.kind === 'individual' ? 'ssn' : 'ein';
  return {
    line1: disregarded ? (owner?.name ?? '') : s.name,
    line2: disregarded ? s.name : '',
    classification: disregarded ? (owner ? (owner.kind === 'individual' ? 'Individual/sole proprietor' : 'C corporation') : null) : 'C corporation',
    address: s.placeOfBusiness ?? s.registeredAddress,
    tinKind,
    tin: tinOf(tinKind),
    signerName: s.signerName,
    signerCapacity: s.signerCapacity,
    fileName: formFileName('W-9', s.name, input.nowMs),
  };
}

export async function renderW9(input: TaxFormInput): Promise<TaxFormDocument> {
  const f = w9Fields(input);
  const title = 'Form W-9';
  const form = new FormLayout({ title, author: input.providerName, lang: 'en', createdAt: new Date(input.nowMs), size: 'LETTER' });
  form.header({
    form: 'Form W-9',
    formNote: ['(Rev. March 2024)', 'Department of the Treasury', 'Internal Revenue Service', 'Substitute form'],
    title: ['Request for Taxpayer', 'Identification Number and Certification'],
    notes: [
      'Go to www.irs.gov/FormW9 for instructions and the latest information.',
      `Substitute Form W-9 prepared by ${input.providerName} from your answers: the same lines, certifications and order as the official form.`,
    ],
    aside: ['Give form to the requester. Do not send to the IRS.', `Requester: ${input.providerName}`],
  });
  form.paragraph('Before you begin. For guidance related to the purpose of Form W-9, see Purpose of Form, below.', { size: 7, font: 'bold', after: 1 });

  form.row([
    {
      line: '1',
      label:
        'Name of entity/individual. An entry is required. (For a sole proprietor or disregarded entity, enter the owner’s name on line 1, and enter the business/disregarded entity’s name on line 2.)',
      value: f.line1,
    },
  ]);
  form.row([{ line: '2', label: 'Business name/disregarded entity name, if different from above.', value: f.line2 }]);
  form.gap(2);
  form.paragraph(
    '3a  Check the appropriate box for federal tax classification of the entity/individual whose name is entered on line 1. Check only one of the following seven boxes.',
    {
      size: 7,
      indent: 3,
      color: '#555555',
    },
  );
  // as on the official form: the five plain boxes on one line, the LLC and Other lines under them
  const box = (c: W9Classification, text: string = c) => ({ checked: f.classification === c, text });
  form.checks(
    (['Individual/sole proprietor', 'C corporation', 'S corporation', 'Partnership', 'Trust/estate'] as const).map((c) => box(c)),
    { widths: [1.5, 1, 1, 1, 1], size: 7.5, indent: 8 },
  );
  form.checks(
    [box('LLC', 'LLC. Enter the tax classification (C = C corporation, S = S corporation, P = Partnership) ________'), box('Other', 'Other (see instructions) ________')],
    {
      size: 7.5,
      indent: 8,
    },
  );
  form.paragraph(
    'Note: Check the “LLC” box above and, in the entry space, enter the appropriate code (C, S, or P) for the tax classification of the LLC, unless it is a disregarded entity. A disregarded entity should instead check the appropriate box for the tax classification of its owner.',
    { size: 6.5, indent: 8 },
  );
  form.rule();
  form.gap(2);
  form.paragraph(
    '3b  If on line 3a you checked “Partnership” or “Trust/estate,” or checked “LLC” and entered “P” as its tax classification, and you are providing this form to a partnership, trust, or estate in which you have an ownership interest, check this box if you have any foreign partners, owners, or beneficiaries. See instructions.  ☐',
    { size: 7, indent: 3, color: '#555555' },
  );
  form.rule();
  form.row([
    { line: '4', label: 'Exemptions (codes apply only to certain entities, not individuals; see instructions on page 3): Exempt payee code (if any)', value: '' },
    { label: 'Exemption from Foreign Account Tax Compliance Act (FATCA) reporting code (if any)', value: '' },
  ]);
  const a = f.address;
  form.row([
    { line: '5', label: 'Address (number, street, and apt. or suite no.). See instructions.', value: a ? streetLine(a) : '', width: 2 },
    { label: 'Requester’s name and address (optional)', value: input.providerName, width: 1 },
  ]);
  form.row([
    { line: '6', label: 'City, state, and ZIP code', value: a ? [cityLine(a) + (a.countryCode === 'US' ? '' : `, ${countryName(a.countryCode)}`)] : '', width: 2 },
    { line: '7', label: 'List account number(s) here (optional)', value: '', width: 1 },
  ]);

  form.gap(6);
  form.part('Part I', 'Taxpayer Identification Number (TIN)');
  form.paragraph(
    'Enter your TIN in the appropriate box. The TIN provided must match the name given on line 1 to avoid backup withholding. For individuals, this is generally your social security number (SSN). However, for a resident alien, sole proprietor, or disregarded entity, see the instructions for Part I, later. For other entities, it is your employer identification number (EIN). If you do not have a number, see How to get a TIN, later.',
    { size: 7.5 },
  );
  form.paragraph(
    'Note: If the account is in more than one name, see the instructions for line 1. See also What Name and Number To Give the Requester for guidelines on whose number to enter.',
    {
      size: 7.5,
    },
  );
  form.row([
    { label: 'Social security number', value: f.tinKind === 'ssn' ? f.tin : '' },
    { label: 'or  Employer identification number', value: f.tinKind === 'ein' ? f.tin : '' },
  ]);

  form.gap(6);
  form.part('Part II', 'Certification');
  form.paragraph('Under penalties of perjury, I certify that:', { size: 8 });
  W9_CERTIFICATION.forEach((text, i) => form.paragraph(`${i + 1}. ${text}`, { size: 7.5, indent: 6, after: 1 }));
  form.paragraph(CERTIFICATION_INSTRUCTIONS, { size: 7.5 });
  const signatureBox = form.signature({
    label: 'Sign Here',
    caption: 'Signature of U.S. person (the date is added when signed)',
    lines: [{ label: 'Print name', value: f.signerName }, ...(f.signerCapacity ? [{ label: 'Capacity', value: f.signerCapacity }] : [])],
  });
  form.footers(`Substitute Form W-9 (Rev. 3-2024) · ${input.providerName}`, (i, n) => `Page ${i} of ${n}`);
  const pdf = await form.finish();
  return { kind: 'w9', title, fileName: f.fileName, pdf: new Uint8Array(pdf), signatureBox };
}
