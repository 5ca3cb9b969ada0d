/**
 * userStatusGet answers for the whole-app tests that stub the platform: the main layout mounts
 * the verification status banner, which calls userStatusGet on every signed-in page. A verified
 * customer with nothing to do (status checked): no banner.
 */
import type { VerificationInputs } from '../../api/verification.ts';

export const checkedInputs: VerificationInputs = {
  customerType: 'personal',
  isRepresentative: false,
  verified: true,
  limited: false,
  limitReasons: [],
  duplicateDocuments: 'none',
  taxCertification: {
    w9FormDocumentStatus: 'notRequired',
    certificateOfLossOfNationalityDocumentStatus: 'notRequired',
    taxResidencySelfCertificationDocumentStatus: 'notRequired',
    w8BenFormDocumentStatus: 'notRequired',
  },
  address: 'complete',
  isCardDocumentRequired: false,
  proofOfResidence: 'notRequired',
  identity: 'validated',
  phoneConfirmed: true,
  videoIdentity: 'none',
  documentsInReview: false,
};

export const userStatusAnswer = (inputs: VerificationInputs = checkedInputs) => ({
  responseCode: '00',
  userStatus: inputs,
  isNeedKyc: false,
  isNeedPersonalInfoUpdate: false,
  dueDiligenceLevel: 0,
});
