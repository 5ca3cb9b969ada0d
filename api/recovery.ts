/**
 * Password recovery and password change (document 1 §2 /account-recovery, §3 account recovery
 * form, §7 password calls; document 2 "Security settings" change password and confirm; document 3
 * §7 PasswordChange push).
 *
 * Two ways back in without the password:
 * - the user still reads the login e-mail: passwordChangeRequest e-mails a reset code there, then
 *   passwordCodeCheck and passwordChangeWithCode;
 * - the user lost the login e-mail: accountRecoveryRequest compares personal data with the
 *   customer's record; on a match the reset code goes to the recovery e-mail (and a notice to the
 *   old address), then the same two calls with the login e-mail and that code.
 *
 * Reading of the spec's form fields: `taskId` names the recovery task; `emailId` (the task's
 * e-mail entity) is the task id as well, since the platform keeps one e-mail per task.
 *
 * Methods marked `mutation: false` below do change data: they open their own transactions and write
 * their own audit entries, because a wrong code (or password) must be counted even though the
 * answer is a failure, and the endpoint rolls a failed mutation back whole.
 */
import * as v from 'valibot';
import { PasswordSchema } from './auth.ts';
import { defineMethod } from './method.ts';
import { VfCode } from './errors.ts';

/** Reset and change codes: 8 characters from PASSWORD_CODE_ALPHABET (40 random bits). */
export const PASSWORD_CODE_LENGTH = 8;
/** No 0/O or 1/I: a code read from a mail is typed without confusion. */
export const PASSWORD_CODE_ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';
/** A reset code (recovery) lives 30 minutes. */
export const PASSWORD_RESET_CODE_TTL_S = 30 * 60;
/** A settings password change waits 10 minutes for its confirmation code. */
export const PASSWORD_CHANGE_CODE_TTL_S = 10 * 60;
/** Wrong codes one reset or change code survives. */
export const PASSWORD_CODE_MAX_ATTEMPTS = 5;
/** Personal-data attempts per login e-mail within ACCOUNT_RECOVERY_WINDOW_S. */
export const ACCOUNT_RECOVERY_MAX_ATTEMPTS = 3;
export const ACCOUNT_RECOVERY_WINDOW_S = 24 * 60 * 60;
/** Reset-code requests per login e-mail within PASSWORD_RESET_CODE_TTL_S (each one costs a mail). */
export const PASSWORD_RESET_MAX_REQUESTS = 5;

const email = v.pipe(v.string(), v.trim(), v.toLowerCase(), v.maxLength(254, 'must be at most 254 characters'), v.email('must be an e-mail address'));
/** Typed codes: case and surrounding spaces do not matter. */
export const PasswordCodeSchema = v.pipe(
  v.string(),
  v.trim(),
  v.toUpperCase(),
  v.regex(/^[0-9A-Z]{8}$/, VfCode.codeWrong),
);
const personName = v.pipe(v.string(), v.trim(), v.minLength(1, 'is required'), v.maxLength(100, 'must be at most 100 characters'));
const isoDate = v.pipe(
  v.string(),
  v.regex(/^\d{4}-\d{2}-\d{2}$/, VfCode.notDate),
  v.check((s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s), 'must be a real date'),
);

/**
 * The VF descriptions of a code (param `code`, or `requestKey` for an unknown password change):
 * part of the contract, so the web app can tell a typo from a code that needs replacing.
 */
export const PasswordCodeErrors = {
  wrong: VfCode.codeWrong,
  expired: VfCode.codeExpired,
  dead: VfCode.codeTooManyWrong,
} as const;
/** VF newPassword when it equals the current one. */
export const SAME_PASSWORD_ERROR = VfCode.samePassword;

export const RecoveryVerificationStatusSchema = v.picklist(['pending', 'verified', 'rejected']);
export type RecoveryVerificationStatus = v.InferOutput<typeof RecoveryVerificationStatusSchema>;
/** personalDataMismatch: the data did not match (also for e-mails no account has: no enumeration). */
export const RecoveryRejectReasonSchema = v.picklist(['personalDataMismatch', 'tooManyAttempts']);
export type RecoveryRejectReason = v.InferOutput<typeof RecoveryRejectReasonSchema>;

/** Document 1 §3 account recovery form, as the platform answers it. */
const recoveryTaskEntries = {
  taskId: v.string(),
  /** the task's e-mail entity: the task id (see the module comment) */
  emailId: v.string(),
  /** the login e-mail, masked */
  email: v.string(),
  /** the recovery e-mail, masked */
  recoveryEmail: v.string(),
  verificationStatus: RecoveryVerificationStatusSchema,
  rejectReason: v.optional(RecoveryRejectReasonSchema),
  isRetryable: v.boolean(),
};
export const RecoveryTaskSchema = v.object(recoveryTaskEntries);
export type RecoveryTask = v.InferOutput<typeof RecoveryTaskSchema>;

/**
 * Sends a reset code to the login e-mail. Unknown e-mails get the same answer (nothing is sent;
 * the task row has no user), so the answer never tells whether an account exists.
 */
export const passwordChangeRequest = defineMethod({
  name: 'passwordChangeRequest',
  access: 'public',
  mutation: true,
  request: { email },
  response: { taskId: v.string(), recoveryEmail: v.string() },
});

/** Is this reset code right? VF code: wrong, expired, or dead after 5 wrong tries. */
export const passwordCodeCheck = defineMethod({
  name: 'passwordCodeCheck',
  access: 'public',
  mutation: false,
  request: { email, code: PasswordCodeSchema },
  response: {},
});

/** Sets the new password, spends the code and signs the user out everywhere. */
export const passwordChangeWithCode = defineMethod({
  name: 'passwordChangeWithCode',
  access: 'public',
  mutation: false,
  request: { email, code: PasswordCodeSchema, password: PasswordSchema },
  response: {},
});

/** Lost access to the login e-mail: personal data checked against the customer's record. */
export const accountRecoveryRequest = defineMethod({
  name: 'accountRecoveryRequest',
  access: 'public',
  mutation: true,
  request: { email, recoveryEmail: email, firstName: personName, lastName: personName, dob: isoDate },
  response: recoveryTaskEntries,
});

export const accountRecoveryStatus = defineMethod({
  name: 'accountRecoveryStatus',
  access: 'public',
  mutation: false,
  request: { taskId: v.pipe(v.string(), v.uuid('must be a task id')) },
  response: recoveryTaskEntries,
});

/**
 * Settings: change the password. The current password is checked (a wrong one counts toward the
 * sign-in failure limit); a confirmation code is e-mailed; nothing changes until confirmed.
 */
export const passwordChange = defineMethod({
  name: 'passwordChange',
  access: 'customer',
  mutation: false,
  request: {
    currentPassword: v.pipe(v.string(), v.minLength(1, 'is required'), v.maxLength(256)),
    newPassword: PasswordSchema,
  },
  response: {
    requestKey: v.string(),
    /** the masked e-mail the code went to */
    sentTo: v.string(),
    expiresInS: v.number(),
  },
});

const requestKey = v.pipe(v.string(), v.uuid('is not a password change request'));

/** Confirms with the e-mailed code: the password changes, every other session ends, push PasswordChange changed. */
export const passwordChangeConfirm = defineMethod({
  name: 'passwordChangeConfirm',
  access: 'customer',
  mutation: false,
  request: { requestKey, code: PasswordCodeSchema },
  response: {},
});

/** Drops a pending change: push PasswordChange canceled. */
export const passwordChangeCancel = defineMethod({
  name: 'passwordChangeCancel',
  access: 'customer',
  mutation: true,
  request: { requestKey },
  response: {},
});

export const recoveryMethods = {
  passwordChangeRequest,
  passwordCodeCheck,
  passwordChangeWithCode,
  accountRecoveryRequest,
  accountRecoveryStatus,
  passwordChange,
  passwordChangeConfirm,
  passwordChangeCancel,
} as const;
