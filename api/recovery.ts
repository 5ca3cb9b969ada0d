/**
 * Password recovery and password change (document 1 §2 /account-recovery, §3 account recovery
 * form, §7 password calls; document 2 "Security settings" change password and confirm; document 3
 * §7 PasswordChange push).
 *
 * Two ways back in without the password:
 * - the user still reads the login e-mail: passwordChangeRequest e-mails a reset code there, then
 *   passwordCodeCheck and passwordChangeWithCode;
 * - the user lost the login e-mail: accountRecoveryRequest opens a recovery task that is never
 *   decided automatically (personal data alone proved nothing: three unauthenticated calls used to
 *   take an account over). The caller uploads an identity document and a selfie
 *   (accountRecoveryDocuments), an administrator approves or rejects the task in the review queue
 *   (api/admin.ts), and the caller polls accountRecoveryStatus. Only an approval mails a reset
 *   code to the recovery e-mail; typing that code (passwordCodeCheck, then passwordChangeWithCode
 *   with the login e-mail) confirms the new address before the password changes. Every current
 *   e-mail of the account is told when the task opens, with a code that cancels it within
 *   ACCOUNT_RECOVERY_CANCEL_WINDOW_S (accountRecoveryCancel).
 *
 * The public recovery calls are rate-limited per account and per client address (answer 13).
 * An e-mail no account has gets the same answers all the way (a task exists for it; nobody is
 * mailed and an administrator can only reject it).
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
/** Personal-data recovery requests per login e-mail within ACCOUNT_RECOVERY_WINDOW_S. */
export const ACCOUNT_RECOVERY_MAX_ATTEMPTS = 3;
/** ... and per client address (a household or an office shares one; an attacker sprays from one). */
export const ACCOUNT_RECOVERY_MAX_PER_ADDRESS = 10;
export const ACCOUNT_RECOVERY_WINDOW_S = 24 * 60 * 60;
/** Uploads, cancels and status reads per client address within ACCOUNT_RECOVERY_CALL_WINDOW_S. */
export const ACCOUNT_RECOVERY_UPLOADS_PER_ADDRESS = 10;
export const ACCOUNT_RECOVERY_CANCELS_PER_ADDRESS = 20;
export const ACCOUNT_RECOVERY_STATUS_PER_ADDRESS = 600;
export const ACCOUNT_RECOVERY_CALL_WINDOW_S = 60 * 60;
/** Reset-code requests per client address within ACCOUNT_RECOVERY_CALL_WINDOW_S. */
export const PASSWORD_RESET_MAX_PER_ADDRESS = 30;
/** The account's current e-mails may cancel a personal-data recovery this long after it opened. */
export const ACCOUNT_RECOVERY_CANCEL_WINDOW_S = 24 * 60 * 60;
/**
 * The code an approval mails to the recovery e-mail lives a day: the caller learns of the
 * decision by polling, maybe hours later (40 random bits, 5 tries: still unguessable).
 */
export const ACCOUNT_RECOVERY_CODE_TTL_S = 24 * 60 * 60;
/** The web app's page where the account's e-mails cancel a recovery (the mailed link: ?taskId=&code=). */
export const RECOVERY_CANCEL_PATH = '/account-recovery/cancel';
/** The words of the answer 13 when a limit is reached. */
export const RECOVERY_RATE_LIMITED = 'Too many attempts; try again later';
/** Multipart fields of accountRecoveryDocuments. */
export const RecoveryFileField = { document: 'document', selfie: 'selfie' } as const;
export type RecoveryFileKind = keyof typeof RecoveryFileField;
/** The VF descriptions of a cancel code (param cancelCode). */
export const RecoveryCancelErrors = {
  wrong: 'codeWrong',
  expired: 'cancelExpired',
  completed: 'cancelTooLate',
} as const satisfies Record<string, VfCode>;
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
  v.check((s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s), VfCode.notDate),
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
/**
 * identityNotConfirmed: an administrator rejected the task (rejectComment says why; isRetryable
 * whether a new request may follow); canceled: a current e-mail of the account canceled it.
 */
export const RecoveryRejectReasonSchema = v.picklist(['identityNotConfirmed', 'canceled']);
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
  /** the administrator's words on a rejection */
  rejectComment: v.optional(v.string()),
  isRetryable: v.boolean(),
  /** pending: the identity document and selfie arrived (the task waits for review), else they are due */
  documentsUploaded: v.boolean(),
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
  // Writes its code, mail and audit entry in its own transaction, only for a registered address.
  mutation: false,
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

/**
 * Lost access to the login e-mail: opens a pending recovery task (nothing is decided or mailed to
 * the recovery e-mail here). Answers alike whether or not an account has the e-mail.
 */
export const accountRecoveryRequest = defineMethod({
  name: 'accountRecoveryRequest',
  access: 'public',
  mutation: true,
  request: { email, recoveryEmail: email, firstName: personName, lastName: personName, dob: isoDate },
  response: recoveryTaskEntries,
});

const taskId = v.pipe(v.string(), v.uuid('must be a task id'));

/**
 * The identity document and a selfie of a pending task, multipart: files in the parts named by
 * RecoveryFileField (checked like document uploads: PDF, JPEG or PNG by content, at most
 * DOCUMENT_MAX_BYTES). Once only; the task then waits for an administrator.
 */
export const accountRecoveryDocuments = defineMethod({
  name: 'accountRecoveryDocuments',
  access: 'public',
  mutation: true,
  // The one public method with files: the caller has lost their sign-in. The task id (a random
  // UUID only its requester was told) is the capability; the files stream to disk under the
  // endpoint's per-call and in-flight caps, and the call is rate-limited per address.
  files: true,
  request: { taskId },
  response: recoveryTaskEntries,
});

export const accountRecoveryStatus = defineMethod({
  name: 'accountRecoveryStatus',
  access: 'public',
  mutation: false,
  request: { taskId },
  response: recoveryTaskEntries,
});

/**
 * Cancels a personal-data recovery with the code mailed to the account's current e-mails, within
 * ACCOUNT_RECOVERY_CANCEL_WINDOW_S of its request; no sign-in needed (the owner may have lost the
 * password too). Any code an approval mailed stops working.
 */
export const accountRecoveryCancel = defineMethod({
  name: 'accountRecoveryCancel',
  access: 'public',
  mutation: true,
  request: { taskId, cancelCode: PasswordCodeSchema },
  response: {},
});

/**
 * Settings: change the password. The current password is checked (a wrong one counts toward the
 * sign-in failure limit); a confirmation code is e-mailed; nothing changes until confirmed.
 */
export const changePassword = defineMethod({
  name: 'changePassword',
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
export const changePasswordConfirm = defineMethod({
  name: 'changePasswordConfirm',
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
  accountRecoveryDocuments,
  accountRecoveryStatus,
  accountRecoveryCancel,
  changePassword,
  changePasswordConfirm,
  passwordChangeCancel,
} as const;
