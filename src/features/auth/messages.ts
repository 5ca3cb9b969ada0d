/**
 * The words for the auth machines' codes. Machines emit codes; these functions are the only place
 * that turns them into text (Lingui message descriptors, translated in locales/*.po).
 */
import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import type { LoginErrorCode, LoginFieldError } from '../../../machines/login/login.machine.ts';
import type { StartErrorCode } from '../../../machines/start-page/start-page.machine.ts';

export const loginErrorMessages: Record<LoginErrorCode, MessageDescriptor> = {
  invalidCredentials: msg`The e-mail address or password is not correct.`,
  notActivated: msg`This account is not activated yet. Open the link in the activation e-mail we sent you, or enter its code on the activation page.`,
  privacyRefused: msg`For your security, signing in through a VPN, proxy or Tor network is not allowed. Turn it off and try again.`,
  invalidOtp: msg`The code is not correct. Check your authenticator app and try again.`,
  invalidRecoveryCode: msg`This recovery code is not correct or was already used.`,
  rateLimited: msg`Too many attempts. Wait a few minutes and try again.`,
  codeExpired: msg`The sign-in took too long. Please sign in again.`,
  approvalRejected: msg`The sign-in was rejected on your device.`,
  network: msg`We could not reach the server. Check your connection and try again.`,
  unknown: msg`Something went wrong. Please try again.`,
};

/** invalidOtp on the sms step: the code came by text message, not from an authenticator app. */
export const invalidSmsCodeMessage: MessageDescriptor = msg`The code is not correct. Check the text message and try again.`;

export const loginFieldMessages: Record<LoginFieldError, MessageDescriptor> = {
  usernameNotEmail: msg`Enter your e-mail address, for example name@example.com.`,
  passwordRequired: msg`Enter your password.`,
  otpFormat: msg`Enter the 6 digits of the code.`,
  recoveryCodeFormat: msg`Enter a recovery code like 7KQ4M-2XH9P.`,
};

export const startErrorMessages: Record<StartErrorCode, MessageDescriptor> = {
  network: msg`We could not reach the server. Check your connection and try again.`,
  auth: msg`Your session ended. Please sign in again.`,
  noAccess: msg`Your user has no access to this account.`,
  unknown: msg`Something went wrong. Please try again.`,
  noAccounts: msg`No company accounts are linked to your user. Please contact support.`,
  termsDeclined: msg`You need to accept the terms to use your account.`,
};
