/**
 * The tax forms a certification ends in (api/tax-certification.ts personalForms / businessForms),
 * filled from the answers as PDFs for the e-signature adapter (server/modules/esign): the
 * substitute IRS Forms W-9, W-8BEN and W-8BEN-E (English, US Letter) and the CRS tax residency
 * self-certification (the customer's language, A4). The same input and nowMs give the same bytes.
 */
import { renderCrs } from './crs.ts';
import type { TaxFormDocument, TaxFormInput } from './types.ts';
import { renderW8Ben } from './w8ben.ts';
import { renderW8BenE } from './w8bene.ts';
import { renderW9 } from './w9.ts';

export { renderCrs, renderW8Ben, renderW8BenE, renderW9 };
export { chapter4Status, type Chapter4Status } from './w8bene.ts';
export { crsEntityClass, type CrsEntityClass } from './crs.ts';
export type { FormAddress, TaxFormDocument, TaxFormInput, TaxFormSubject } from './types.ts';

export function renderTaxForm(input: TaxFormInput): Promise<TaxFormDocument> {
  switch (input.kind) {
    case 'w9':
      return renderW9(input);
    case 'w8Ben':
      return renderW8Ben(input);
    case 'w8BenE':
      return renderW8BenE(input);
    case 'taxResidencySelfCertification':
      return renderCrs(input);
  }
}
