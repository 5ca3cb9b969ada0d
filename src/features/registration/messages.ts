/**
 * The words for the registration and activation machines' codes (Lingui message descriptors).
 * The machines emit codes; only these tables turn them into text.
 */
import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import type { ActivationErrorCode } from '../../../machines/activation/activation.machine.ts';
import type { RegistrationErrorCode } from '../../../machines/registration/registration.machine.ts';
import type { ActivationFieldError, RegistrationFieldError } from '../../../machines/registration/registration.rules.ts';

export const registrationFieldMessages: Record<RegistrationFieldError, MessageDescriptor> = {
  required: msg`This field is required.`,
  nameTooLong: msg`Use at most 100 characters.`,
  invalidEmail: msg`Enter your e-mail address, for example name@example.com.`,
  emailTaken: msg`This e-mail address is already registered. Sign in or recover your password.`,
  emailEmployee: msg`This e-mail address belongs to an authorised user of a company. Sign in with it instead.`,
  weakPassword: msg`Use 8 to 128 characters with at least one letter and one digit.`,
  phoneCountryRequired: msg`Enter the country calling code, for example +370.`,
  invalidPhone: msg`Enter 4 to 15 digits of the phone number.`,
  termsRequired: msg`You need to accept the terms to open an account.`,
  notOffered: msg`Choose an account type.`,
};

export const registrationErrorMessages: Record<RegistrationErrorCode, MessageDescriptor> = {
  closed: msg`Registration is closed at the moment.`,
  network: msg`We could not reach the server. Check your connection and try again.`,
  unknown: msg`Something went wrong. Please try again.`,
};

export const activationErrorMessages: Record<ActivationErrorCode, MessageDescriptor> = {
  wrongCode: msg`The activation code is not correct. Check the e-mail and try again.`,
  expiredCode: msg`The activation code has expired. Ask for a new one.`,
  usedCode: msg`This account is already activated. You can sign in.`,
  network: msg`We could not reach the server. Check your connection and try again.`,
  unknown: msg`Something went wrong. Please try again.`,
};

export const activationFieldMessages: Record<ActivationFieldError, MessageDescriptor> = {
  required: msg`This field is required.`,
  invalidEmail: msg`Enter your e-mail address, for example name@example.com.`,
  invalidCode: msg`Enter the 8 characters of the code from the e-mail.`,
  weakPassword: msg`Use 8 to 128 characters with at least one letter and one digit.`,
};
