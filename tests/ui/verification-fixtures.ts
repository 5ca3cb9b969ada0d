/**
 * userStatusGet answers for the whole-app tests that stub the platform: the main layout mounts
 * the verification status banner, which calls userStatusGet on every signed-in page. A verified
 * customer with nothing to do (status checked): no banner.
 */
import type { VerificationInputs } from '../../api/verification.ts';
import { verifiedInputs } from '../verification-inputs.ts';

export const checkedInputs: VerificationInputs = verifiedInputs;

export const userStatusAnswer = (inputs: VerificationInputs = checkedInputs) => ({
  responseCode: '00',
  userStatus: inputs,
  isNeedKyc: false,
  isNeedPersonalInfoUpdate: false,
  dueDiligenceLevel: 0,
});
