/**
 * A verified personal customer with nothing to do (document 1 §4: checked by rule 6): the
 * VerificationInputs the verification tests start from and change one field at a time.
 */
import type { VerificationInputs } from '../api/verification.ts';

export const verifiedInputs: VerificationInputs = {
  customerType: 'personal',
  isRepresentative: false,
  verified: true,
  limited: false,
  limitReasons: [],
  duplicateDocuments: 'none',
  taxCertification: {
    w9FormDocumentStatus: 'notRequired',
    certificateOfLossOfNationalityDocumentStatus: 'notRequired',
    taxResidencySelfCertificationDocumentStatus: 'validated',
    w8BenFormDocumentStatus: 'notRequired',
  },
  address: 'complete',
  isCardDocumentRequired: false,
  proofOfResidence: 'validated',
  identity: 'validated',
  phoneConfirmed: true,
  videoIdentity: 'approved',
  documentsInReview: false,
};
