/**
 * The words for the recovery and password-change machines' codes (machines emit codes; only these
 * tables turn them into text).
 */
import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import type { RecoveryErrorCode, RecoveryFieldError } from '../../../machines/account-recovery/account-recovery.machine.ts';
import type { PasswordChangeErrorCode, PasswordChangeFieldError } from '../../../machines/password-change/password-change.machine.ts';

export const recoveryErrorMessages: Record<RecoveryErrorCode, MessageDescriptor> = {
  network: msg`We could not reach the server. Check your connection and try again.`,
  invalidData: msg`Some details are not valid. Check them and try again.`,
  codeWrong: msg`The code is not correct. Check the e-mail and try again.`,
  codeExpired: msg`The code has expired. Ask for a new one.`,
  codeDead: msg`The code was typed wrong too many times. Ask for a new one.`,
  unknownTask: msg`We could not find this recovery request. Please start again.`,
  filesRefused: msg`A file was not accepted. Choose a JPEG, PNG or PDF file of at most 10 MB.`,
  rateLimited: msg`Too many attempts. Try again tomorrow or contact support.`,
  unknown: msg`Something went wrong. Please try again.`,
};

export const recoveryFieldMessages: Record<RecoveryFieldError, MessageDescriptor> = {
  emailInvalid: msg`Enter your e-mail address, for example name@example.com.`,
  codeFormat: msg`Enter the 8 characters of the code from the e-mail.`,
  passwordWeak: msg`The password does not meet the rules below.`,
  passwordMismatch: msg`The two passwords do not match.`,
  dataRequired: msg`Fill in every field: both e-mail addresses, your names and your date of birth.`,
  documentsRequired: msg`Choose both files: a photo of your identity document and a selfie.`,
};

export const passwordChangeErrorMessages: Record<PasswordChangeErrorCode, MessageDescriptor> = {
  currentPasswordWrong: msg`The current password is not correct.`,
  samePassword: msg`The new password must differ from the current one.`,
  rateLimited: msg`Too many attempts. Wait a few minutes and try again.`,
  codeWrong: msg`The code is not correct. Check the e-mail and try again.`,
  codeExpired: msg`The code has expired. Start the change again.`,
  codeDead: msg`The code was typed wrong too many times. Start the change again.`,
  requestGone: msg`This change is no longer pending. Start the change again.`,
  network: msg`We could not reach the server. Check your connection and try again.`,
  unknown: msg`Something went wrong. Please try again.`,
};

export const passwordChangeFieldMessages: Record<PasswordChangeFieldError, MessageDescriptor> = {
  currentRequired: msg`Enter your current password.`,
  passwordWeak: msg`The password does not meet the rules below.`,
  passwordMismatch: msg`The two passwords do not match.`,
  codeFormat: msg`Enter the 8 characters of the code from the e-mail.`,
};
