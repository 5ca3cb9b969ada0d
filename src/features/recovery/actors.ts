/**
 * Real I/O for the account-recovery and password-change machines. Each actor answers
 * `{ ok: false, code }` for an expected failure; the views translate the codes. Nothing here logs
 * a password or a code.
 */
import { fromPromise } from 'xstate';
import { ResponseCode, type Failure } from '../../../api/envelope.ts';
import { PasswordCodeErrors, RecoveryFileField, SAME_PASSWORD_ERROR } from '../../../api/recovery.ts';
import type {
  PersonalData,
  RecoveryErrorCode,
  RequestCodeResult,
  SimpleResult,
  TaskResult,
} from '../../../machines/account-recovery/account-recovery.machine.ts';
import type { ChangeStepResult, PasswordChangeErrorCode, StartChangeResult } from '../../../machines/password-change/password-change.machine.ts';
import { callMethod, isFailure } from '../../lib/request.ts';

/** The VF code (api/errors.ts) of a field, '' for an error without one, null for no error. */
function fieldError(f: Failure, param: string): string | null {
  const error = f.validationErrors?.find((e) => e.param === param);
  return error ? (error.code ?? '') : null;
}

/** A code's VF code (api/recovery.ts PasswordCodeErrors) as a code the views know. */
function codeErrorOf(code: string): 'codeWrong' | 'codeExpired' | 'codeDead' {
  if (code === PasswordCodeErrors.expired) return 'codeExpired';
  if (code === PasswordCodeErrors.dead) return 'codeDead';
  return 'codeWrong';
}

function recoveryFailure(f: Failure): RecoveryErrorCode {
  if (f.responseCode === ResponseCode.network) return 'network';
  if (f.responseCode === ResponseCode.invalidParams) return 'unknownTask';
  if (f.responseCode === ResponseCode.accessDenied) return 'rateLimited';
  if (f.responseCode === ResponseCode.validation) {
    if (fieldError(f, RecoveryFileField.document) || fieldError(f, RecoveryFileField.selfie)) return 'filesRefused';
    const code = fieldError(f, 'code');
    return code ? codeErrorOf(code) : 'invalidData';
  }
  return 'unknown';
}

export const requestCodeActor = fromPromise<RequestCodeResult, { email: string }>(async ({ input }) => {
  const answer = await callMethod('passwordChangeRequest', { email: input.email });
  if (isFailure(answer)) return { ok: false, code: recoveryFailure(answer) };
  return { ok: true, sentTo: answer.recoveryEmail };
});

export const requestRecoveryActor = fromPromise<TaskResult, PersonalData>(async ({ input }) => {
  const answer = await callMethod('accountRecoveryRequest', {
    email: input.email,
    recoveryEmail: input.recoveryEmail,
    firstName: input.firstName,
    lastName: input.lastName,
    dob: input.dob,
  });
  if (isFailure(answer)) return { ok: false, code: recoveryFailure(answer) };
  const { responseCode: _, ...task } = answer;
  return { ok: true, task };
});

export const uploadDocumentsActor = fromPromise<TaskResult, { taskId: string; document: Blob; selfie: Blob }>(async ({ input }) => {
  const answer = await callMethod(
    'accountRecoveryDocuments',
    { taskId: input.taskId },
    {
      files: [
        [RecoveryFileField.document, input.document],
        [RecoveryFileField.selfie, input.selfie],
      ],
    },
  );
  if (isFailure(answer)) return { ok: false, code: recoveryFailure(answer) };
  const { responseCode: _, ...task } = answer;
  return { ok: true, task };
});

export const loadTaskActor = fromPromise<TaskResult, { taskId: string }>(async ({ input }) => {
  const answer = await callMethod('accountRecoveryStatus', { taskId: input.taskId });
  if (isFailure(answer)) return { ok: false, code: recoveryFailure(answer) };
  const { responseCode: _, ...task } = answer;
  return { ok: true, task };
});

export const checkCodeActor = fromPromise<SimpleResult, { email: string; code: string }>(async ({ input }) => {
  const answer = await callMethod('passwordCodeCheck', { email: input.email, code: input.code });
  return isFailure(answer) ? { ok: false, code: recoveryFailure(answer) } : { ok: true };
});

export const changePasswordActor = fromPromise<SimpleResult, { email: string; code: string; password: string }>(async ({ input }) => {
  const answer = await callMethod('passwordChangeWithCode', { email: input.email, code: input.code, password: input.password });
  return isFailure(answer) ? { ok: false, code: recoveryFailure(answer) } : { ok: true };
});

export const accountRecoveryActors = {
  requestCode: requestCodeActor,
  requestRecovery: requestRecoveryActor,
  uploadDocuments: uploadDocumentsActor,
  loadTask: loadTaskActor,
  checkCode: checkCodeActor,
  changePassword: changePasswordActor,
};

/* ---------------------------------------------------------- password change (settings) */

function changeFailure(f: Failure): PasswordChangeErrorCode {
  if (f.responseCode === ResponseCode.network) return 'network';
  if (f.responseCode === ResponseCode.accessDenied) return 'rateLimited';
  if (f.responseCode === ResponseCode.validation) {
    if (fieldError(f, 'currentPassword')) return 'currentPasswordWrong';
    if (fieldError(f, 'newPassword') === SAME_PASSWORD_ERROR) return 'samePassword';
    if (fieldError(f, 'requestKey')) return 'requestGone';
    const code = fieldError(f, 'code');
    if (code) return codeErrorOf(code);
  }
  return 'unknown';
}

export const startChangeActor = fromPromise<StartChangeResult, { currentPassword: string; newPassword: string }>(async ({ input }) => {
  const answer = await callMethod('changePassword', { currentPassword: input.currentPassword, newPassword: input.newPassword });
  if (isFailure(answer)) return { ok: false, code: changeFailure(answer) };
  return { ok: true, requestKey: answer.requestKey, sentTo: answer.sentTo };
});

export const confirmChangeActor = fromPromise<ChangeStepResult, { requestKey: string; code: string }>(async ({ input }) => {
  const answer = await callMethod('changePasswordConfirm', { requestKey: input.requestKey, code: input.code });
  return isFailure(answer) ? { ok: false, code: changeFailure(answer) } : { ok: true };
});

export const cancelChangeActor = fromPromise<ChangeStepResult, { requestKey: string }>(async ({ input }) => {
  const answer = await callMethod('passwordChangeCancel', { requestKey: input.requestKey });
  return isFailure(answer) ? { ok: false, code: changeFailure(answer) } : { ok: true };
});

export const passwordChangeActors = {
  startChange: startChangeActor,
  confirmChange: confirmChangeActor,
  cancelChange: cancelChangeActor,
};
