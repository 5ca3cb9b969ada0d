/**
 * The contract between the tax certification (server/modules/tax) and the form generators
 * (./index.ts): the forms are filled from the saved answers and the customer's record.
 */
import type { BusinessCertification, PersonalCertification, TaxFormKind } from '../../../../api/tax-certification.ts';
import type { SignatureDocumentInput } from '../../esign/esign.ts';

export interface FormAddress {
  address1: string;
  address2: string | null;
  city: string;
  postalCode: string | null;
  /** ISO 3166 alpha-2 */
  countryCode: string;
  state?: string | null;
}

export type TaxFormSubject =
  | {
      kind: 'personal';
      firstName: string;
      lastName: string;
      /** the permanent residence address (the customer's home address, or the representative's) */
      address: FormAddress | null;
      /** a mailing address other than the residence address, if the customer gave one (W-8BEN line 4) */
      mailingAddress?: FormAddress | null;
      certification: PersonalCertification;
    }
  | {
      kind: 'business';
      /** the company's legal name as certified */
      name: string;
      registrationNumber: string | null;
      placeOfBusiness: FormAddress | null;
      registeredAddress: FormAddress | null;
      /** the controlling persons' names (for the CRS self-certification of a passive entity) */
      controllingPersons: {
        name: string;
        taxResidenceCountryCode: string;
        /** for a controlling US person, listed in W-8BEN-E Part XXIX (name, address, TIN); absent: left blank */
        address?: FormAddress | null;
        usTin?: string | null;
      }[];
      /**
       * the owner of a disregarded entity (certification.isDisregardedEntity): W-9 line 1 and its
       * classification, W-8BEN-E line 1; absent: those lines stay blank
       */
      owner?: { name: string; kind: 'individual' | 'corporation' } | null;
      certification: BusinessCertification;
      /** who signs for the company (the signing user's name) and in what capacity */
      signerName: string;
      signerCapacity: string;
    };

export interface TaxFormInput {
  kind: TaxFormKind;
  subject: TaxFormSubject;
  /** the language of the customer (headings of the CRS self-certification); the IRS forms stay English */
  lang: 'en' | 'es' | 'pt' | 'ro' | 'ru' | 'uk';
  /** the provider's name (the withholding agent / the financial institution the form is given to) */
  providerName: string;
  nowMs: number;
}

/** A filled form ready for the e-signature adapter (title, file name, PDF, signature box). */
export type TaxFormDocument = SignatureDocumentInput & { kind: TaxFormKind };
