/**
 * Real I/O for the registration and activation machines: the named methods of
 * api/registration.ts through the request wrapper. Expected failures come back as
 * `{ ok: false, code }` (translated by the views); nothing here logs a password or a code.
 */
import { VfCode } from '../../../api/errors.ts';
import { fromPromise } from 'xstate';
import { ResponseCode, type Failure } from '../../../api/envelope.ts';
import { emailCheckState } from '../../../api/registration.ts';
import type { ActivateInput, ActivateResult, ActivationErrorCode, ResendCodeResult } from '../../../machines/activation/activation.machine.ts';
import type { ActivationField } from '../../../machines/registration/registration.rules.ts';
import type {
  CreateAccountResult,
  EmailCheckResult,
  RegistrationRequest,
  ResendResult,
} from '../../../machines/registration/registration.machine.ts';
import type { FieldErrors, RegistrationField } from '../../../machines/registration/registration.rules.ts';
import { callMethod, isFailure } from '../../lib/request.ts';

const failureCode = (f: Failure): 'network' | 'unknown' => (f.responseCode === ResponseCode.network ? 'network' : 'unknown');

export const checkEmailActor = fromPromise<EmailCheckResult, { email: string }>(async ({ input }) => {
  const answer = await callMethod('checkEmail', { email: input.email });
  if (isFailure(answer)) return { ok: false, code: failureCode(answer) };
  return { ok: true, state: emailCheckState(answer) };
});

const REGISTRATION_FIELDS: readonly RegistrationField[] = [
  'personalType',
  'firstName',
  'lastName',
  'email',
  'password',
  'residenceCountryCode',
  'phoneCountryCode',
  'phone',
  'acceptTerms',
];

/** The platform's VF list as field codes (its wording is not shown: document 1 §5). */
export function registrationFieldErrors(failure: Failure): FieldErrors {
  const errors: FieldErrors = {};
  for (const e of failure.validationErrors ?? []) {
    const field = REGISTRATION_FIELDS.find((f) => f === e.param);
    if (!field) continue;
    errors[field] =
      field === 'password'
        ? 'weakPassword'
        : field === 'email'
          ? 'invalidEmail'
          : field === 'phone'
            ? 'invalidPhone'
            : field === 'phoneCountryCode'
              ? 'phoneCountryRequired'
              : field === 'acceptTerms'
                ? 'termsRequired'
                : field === 'personalType'
                  ? 'notOffered'
                  : 'required';
  }
  return errors;
}

export const createAccountActor = fromPromise<CreateAccountResult, { request: RegistrationRequest }>(async ({ input }) => {
  const answer = await callMethod('accountCreate', input.request);
  if (!isFailure(answer)) return { ok: true };
  if (answer.responseCode === ResponseCode.accessDenied) return { ok: false, code: 'closed' };
  if (answer.responseCode === ResponseCode.validation) {
    if (answer.validationErrors?.some((e) => e.param === 'email' && e.code === VfCode.alreadyRegistered)) return { ok: false, code: 'emailTaken' };
    const fieldErrors = registrationFieldErrors(answer);
    if (Object.keys(fieldErrors).length > 0) return { ok: false, code: 'fields', fieldErrors };
  }
  return { ok: false, code: failureCode(answer) };
});

export const resendCodeActor = fromPromise<ResendResult & ResendCodeResult, { email: string }>(async ({ input }) => {
  const answer = await callMethod('activationCodeResend', { email: input.email });
  return isFailure(answer) ? { ok: false, code: failureCode(answer) } : { ok: true };
});

/** The platform's activation VF answers (server/modules/registration) as codes. */
export function activationFailure(failure: Failure): ActivateResult {
  if (failure.responseCode !== ResponseCode.validation) return { ok: false, code: failureCode(failure) };
  const fields: Partial<Record<ActivationField, 'invalidEmail' | 'weakPassword'>> = {};
  let code: ActivationErrorCode | null = null;
  for (const e of failure.validationErrors ?? []) {
    if (e.param === 'activationCode') {
      code = e.code === VfCode.codeExpired ? 'expiredCode' : e.code === VfCode.codeUsed ? 'usedCode' : 'wrongCode';
    } else if (e.param === 'password') fields.password = 'weakPassword';
    else if (e.param === 'email' || e.param === 'username') fields.email = 'invalidEmail';
  }
  if (Object.keys(fields).length > 0) return { ok: false, code: 'fields', fieldErrors: fields };
  return { ok: false, code: code ?? 'unknown' };
}

export const activateActor = fromPromise<ActivateResult, ActivateInput>(async ({ input }) => {
  const answer =
    input.kind === 'personal'
      ? await callMethod('activateAccount', { username: input.email, activationCode: input.code })
      : input.kind === 'business'
        ? await callMethod('businessAccountActivate', { email: input.email, activationCode: input.code })
        : await callMethod('employeeAccountActivate', { email: input.email, activationCode: input.code, password: input.password ?? '' });
  return isFailure(answer) ? activationFailure(answer) : { ok: true };
});

