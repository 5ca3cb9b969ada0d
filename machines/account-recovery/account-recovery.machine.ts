/**
 * Account recovery (document 1 §2 /account-recovery with email, status, reset, password and
 * success; §3 account recovery form; §7 password change request, code check, change with code).
 * One chart drives every child route: the route shows the step the chart is in.
 *
 * ```
 * email ─EMAIL.SUBMIT─▶ requestingCode ─ok─▶ reset
 *   └─LOST_ACCESS─▶ personalData ─DATA.SUBMIT─▶ submittingData ─ok─▶ documents (a new task)
 *
 * the task's state (loadingStatus leads to it by the task's answer), all on /status:
 *   pending, documents due ─▶ documents ─DOCUMENTS.SUBMIT─▶ uploading ─ok─▶ waiting
 *                                 ▲                            └─refused / no answer─▶ documents (the error)
 *   pending, documents in ─▶ waiting ─REFRESH─▶ loadingStatus ─▶ (the task's state)
 *   rejected ─▶ rejected ─RETRY [isRetryable]─▶ personalData
 *   verified (an administrator approved) ─▶ approved ─CONTINUE─▶ reset (the code to the new address)
 *   START_OVER from documents, waiting, approved, rejected ─▶ email
 *
 * reset ─CODE.SUBMIT─▶ checkingCode ─ok─▶ password ─PASSWORD.SUBMIT─▶ changingPassword ─ok─▶ success (final)
 *   (a dead or expired code sends the user back to reset; START_OVER asks for a new code)
 * ```
 *
 * Personal data never decides anything: the task waits for an identity document and a selfie and
 * then for an administrator (api/recovery.ts). Typing the code an approval mailed to the new
 * address confirms that address before the password changes (the reset step, as for a code to the
 * login e-mail). Started with a taskId (a reload of /status), the chart loads the task first.
 * Pure: the actors (api calls) are provided by src/features/recovery/actors.ts; errors are codes
 * the views translate.
 */
import { assign, fromPromise, setup } from 'xstate';
import * as v from 'valibot';
import { PasswordSchema } from '../../api/auth.ts';
import type { RecoveryTask } from '../../api/recovery.ts';

export type RecoveryErrorCode =
  | 'network'
  | 'invalidData'
  | 'codeWrong'
  | 'codeExpired'
  | 'codeDead'
  | 'unknownTask'
  /** a file was refused (not a JPEG, PNG or PDF, empty, or over 10 MB) */
  | 'filesRefused'
  /** too many attempts (answer 13) */
  | 'rateLimited'
  | 'unknown';
export type RecoveryFieldError = 'emailInvalid' | 'codeFormat' | 'passwordWeak' | 'passwordMismatch' | 'dataRequired' | 'documentsRequired';

export type RequestCodeResult = { ok: true; sentTo: string } | { ok: false; code: RecoveryErrorCode };
export type TaskResult = { ok: true; task: RecoveryTask } | { ok: false; code: RecoveryErrorCode };
export type SimpleResult = { ok: true } | { ok: false; code: RecoveryErrorCode };

export interface PersonalData {
  email: string;
  recoveryEmail: string;
  firstName: string;
  lastName: string;
  /** YYYY-MM-DD */
  dob: string;
}

/** The identity document and the selfie, as the user chose them (files of the browser). */
export interface RecoveryDocuments {
  document: Blob | null;
  selfie: Blob | null;
}

export interface AccountRecoveryInput {
  /** a recovery task to show (the /status route reloaded with ?taskId=) */
  taskId?: string | null;
}

export interface AccountRecoveryContext {
  /** the login e-mail the reset code belongs to */
  email: string;
  /** where the code went (masked) */
  sentTo: string | null;
  task: RecoveryTask | null;
  taskId: string | null;
  /** the last personal data sent, to prefill a retry */
  personal: PersonalData | null;
  code: string;
  /** the new password, between submit and answer only */
  password: string;
  /** the chosen files, between submit and answer only */
  documents: RecoveryDocuments | null;
  error: RecoveryErrorCode | null;
  fieldError: RecoveryFieldError | null;
}

export type AccountRecoveryEvent =
  | { type: 'EMAIL.SUBMIT'; email: string }
  | { type: 'LOST_ACCESS' }
  | { type: 'DATA.SUBMIT'; data: PersonalData }
  | { type: 'DOCUMENTS.SUBMIT'; document: Blob | null; selfie: Blob | null }
  | { type: 'BACK' }
  | { type: 'CONTINUE' }
  | { type: 'RETRY' }
  | { type: 'REFRESH' }
  | { type: 'START_OVER' }
  /** email: the login e-mail (the view prefills it from the e-mail step, or asks after a reload) */
  | { type: 'CODE.SUBMIT'; code: string; email: string }
  | { type: 'PASSWORD.SUBMIT'; password: string; confirmation: string };

/** Loose on purpose: the platform validates for real; this only catches typos early. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const CODE_PATTERN = /^[0-9A-Za-z]{8}$/;
const DOB_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

function failureCode(output: { ok: boolean; code?: RecoveryErrorCode }): RecoveryErrorCode {
  return output.ok ? 'unknown' : (output.code ?? 'unknown');
}

const storeTaskOf = { type: 'storeTask', params: ({ event }: { event: { output: TaskResult } }) => (event.output as Extract<TaskResult, { ok: true }>).task } as const;
const outputOf = ({ event }: { event: { output: TaskResult } }) => event.output;

/** A loaded task leads to the state of the task (the guards read the answer, the action keeps it). */
const toTaskState = [
  {
    description: 'The recovery task still waits for an identity document and a selfie.',
    guard: { type: 'needsDocuments', params: outputOf },
    target: 'documents',
    actions: storeTaskOf,
  },
  {
    description: 'The documents are in and an administrator is reviewing the task.',
    guard: { type: 'isInReview', params: outputOf },
    target: 'waiting',
    actions: storeTaskOf,
  },
  {
    description: 'An administrator approved the task: a code can go to the new address.',
    guard: { type: 'isApproved', params: outputOf },
    target: 'approved',
    actions: storeTaskOf,
  },
  {
    description: 'An administrator rejected the task.',
    guard: { type: 'succeeded', params: outputOf },
    target: 'rejected',
    actions: storeTaskOf,
  },
] as const;

export const accountRecoveryMachine = setup({
  types: {
    context: {} as AccountRecoveryContext,
    events: {} as AccountRecoveryEvent,
    input: {} as AccountRecoveryInput,
  },
  actors: {
    requestCode: fromPromise<RequestCodeResult, { email: string }>(async () => ({ ok: false, code: 'unknown' })),
    requestRecovery: fromPromise<TaskResult, PersonalData>(async () => ({ ok: false, code: 'unknown' })),
    uploadDocuments: fromPromise<TaskResult, { taskId: string; document: Blob; selfie: Blob }>(async () => ({ ok: false, code: 'unknown' })),
    loadTask: fromPromise<TaskResult, { taskId: string }>(async () => ({ ok: false, code: 'unknown' })),
    checkCode: fromPromise<SimpleResult, { email: string; code: string }>(async () => ({ ok: false, code: 'unknown' })),
    changePassword: fromPromise<SimpleResult, { email: string; code: string; password: string }>(async () => ({ ok: false, code: 'unknown' })),
  },
  actions: {
    storeEmail: assign((_, email: string) => ({ email: email.trim(), error: null, fieldError: null })),
    storeSentTo: assign((_, sentTo: string) => ({ sentTo })),
    storePersonal: assign((_, data: PersonalData) => ({ personal: data, email: data.email.trim(), error: null, fieldError: null })),
    storeTask: assign((_, task: RecoveryTask) => ({ task, taskId: task.taskId, sentTo: task.recoveryEmail })),
    storeCode: assign((_, e: { code: string; email: string }) => ({ code: e.code.trim().toUpperCase(), email: e.email.trim(), error: null, fieldError: null })),
    setError: assign((_, code: RecoveryErrorCode) => ({ error: code, fieldError: null })),
    setFieldError: assign((_, fieldError: RecoveryFieldError) => ({ fieldError, error: null })),
    clearErrors: assign({ error: null, fieldError: null }),
    forgetCode: assign({ code: '', password: '' }),
    /** kept only until the platform answers (cleared with the code) */
    storePassword: assign((_, password: string) => ({ password, error: null, fieldError: null })),
    forgetPassword: assign({ password: '' }),
    storeDocuments: assign((_, d: RecoveryDocuments) => ({ documents: d, error: null, fieldError: null })),
    /** the files are kept only until the platform answers */
    forgetDocuments: assign({ documents: null }),
    reset: assign({ sentTo: null, task: null, taskId: null, code: '', password: '', documents: null, error: null, fieldError: null }),
  },
  guards: {
    succeeded: (_, r: { ok: boolean }) => r.ok,
    isEmail: (_, email: string) => EMAIL_PATTERN.test(email.trim()),
    isNotEmail: (_, email: string) => !EMAIL_PATTERN.test(email.trim()),
    isCompleteData: (_, d: PersonalData) =>
      EMAIL_PATTERN.test(d.email.trim()) &&
      EMAIL_PATTERN.test(d.recoveryEmail.trim()) &&
      d.firstName.trim() !== '' &&
      d.lastName.trim() !== '' &&
      DOB_PATTERN.test(d.dob),
    isCodeShaped: (_, code: string) => CODE_PATTERN.test(code.trim()),
    isWeakPassword: (_, password: string) => !v.is(PasswordSchema, password),
    isMismatch: (_, e: { password: string; confirmation: string }) => e.password !== e.confirmation,
    hasTaskId: ({ context }) => context.taskId !== null,
    hasBothFiles: (_, d: RecoveryDocuments) => d.document !== null && d.selfie !== null,
    /** the answer is a task waiting for its documents */
    needsDocuments: (_, r: TaskResult) => r.ok && r.task.verificationStatus === 'pending' && !r.task.documentsUploaded,
    isInReview: (_, r: TaskResult) => r.ok && r.task.verificationStatus === 'pending' && r.task.documentsUploaded,
    isApproved: (_, r: TaskResult) => r.ok && r.task.verificationStatus === 'verified',
    isRetryable: ({ context }) => context.task?.verificationStatus === 'rejected' && context.task.isRetryable,
    /** a code that can no longer work: the user has to ask for a new one */
    isCodeGone: (_, r: { ok: boolean; code?: RecoveryErrorCode }) => !r.ok && (r.code === 'codeDead' || r.code === 'codeExpired' || r.code === 'codeWrong'),
  },
}).createMachine({
  id: 'accountRecovery',
  description: 'Account recovery: a password reset by a code to the login e-mail, or, with access to it lost, a reviewed recovery with documents.',
  meta: { spec: ['document 1 §2', 'document 1 §3', 'document 1 §5', 'document 1 §7'] },
  context: ({ input }) => ({
    email: '',
    sentTo: null,
    task: null,
    taskId: input.taskId ?? null,
    personal: null,
    code: '',
    password: '',
    documents: null,
    error: null,
    fieldError: null,
  }),
  initial: 'start',
  states: {
    start: {
      description: 'The recovery pages have just opened.',
      always: [
        { guard: 'hasTaskId', target: 'loadingStatus', description: 'A recovery task is already known (the status page was reloaded): its state is loaded.' },
        { target: 'email', description: 'Otherwise the user starts with the e-mail step.' },
      ],
    },
    email: {
      description: 'The user enters the login e-mail address to get a reset code, or says they lost access to it.',
      tags: ['step:email'],
      on: {
        'EMAIL.SUBMIT': [
          {
            description: 'The e-mail address is valid: a reset code is requested for it.',
            guard: { type: 'isEmail', params: ({ event }) => event.email },
            target: 'requestingCode',
            actions: { type: 'storeEmail', params: ({ event }) => event.email },
          },
          { description: 'The e-mail address is not valid: the field shows the error and nothing is sent.', actions: { type: 'setFieldError', params: 'emailInvalid' } },
        ],
        LOST_ACCESS: { target: 'personalData', description: 'The user has lost access to the e-mail address and asks for a reviewed recovery.', actions: 'clearErrors' },
      },
    },
    requestingCode: {
      description: 'A reset code is being sent to the login e-mail address.',
      tags: ['step:email', 'busy'],
      invoke: {
        id: 'requestCode',
        src: 'requestCode',
        input: ({ context }) => ({ email: context.email }),
        onDone: [
          {
            description: 'The reset code was sent: the user enters it.',
            guard: { type: 'succeeded', params: ({ event }) => event.output },
            target: 'reset',
            actions: { type: 'storeSentTo', params: ({ event }) => (event.output as Extract<RequestCodeResult, { ok: true }>).sentTo },
          },
          {
            description: 'No code was sent (network or other error): the user sees why on the e-mail step.',
            target: 'email',
            actions: { type: 'setError', params: ({ event }) => failureCode(event.output) },
          },
        ],
        onError: {
          description: 'Requesting the code failed unexpectedly: the user sees the error on the e-mail step.',
          target: 'email',
          actions: { type: 'setError', params: 'unknown' },
        },
      },
    },
    personalData: {
      description: 'The user gives name, date of birth, the login e-mail and a new address to reach them for a reviewed recovery.',
      tags: ['step:email'],
      on: {
        'DATA.SUBMIT': [
          {
            description: 'All personal data is given: the recovery request is sent.',
            guard: { type: 'isCompleteData', params: ({ event }) => event.data },
            target: 'submittingData',
            actions: { type: 'storePersonal', params: ({ event }) => event.data },
          },
          { description: 'Some personal data is missing: the user is told and nothing is sent.', actions: { type: 'setFieldError', params: 'dataRequired' } },
        ],
        BACK: { target: 'email', description: 'The user goes back to the e-mail step.', actions: 'clearErrors' },
      },
    },
    submittingData: {
      description: 'The recovery request with the personal data is being sent.',
      tags: ['step:email', 'busy'],
      invoke: {
        id: 'requestRecovery',
        src: 'requestRecovery',
        input: ({ context }) => context.personal!,
        onDone: [
          // A new task always waits for its documents first.
          {
            description: 'A recovery task was opened: it first needs the identity document and a selfie.',
            guard: { type: 'succeeded', params: outputOf },
            target: 'documents',
            actions: storeTaskOf,
          },
          {
            description: 'The request was refused or failed: the user sees why and may correct the data.',
            target: 'personalData',
            actions: { type: 'setError', params: ({ event }) => failureCode(event.output) },
          },
        ],
        onError: {
          description: 'The request failed unexpectedly: the user sees the error.',
          target: 'personalData',
          actions: { type: 'setError', params: 'unknown' },
        },
      },
    },
    loadingStatus: {
      description: "The recovery task's current state is being loaded.",
      tags: ['step:status', 'busy'],
      invoke: {
        id: 'loadTask',
        src: 'loadTask',
        input: ({ context }) => ({ taskId: context.taskId ?? '' }),
        onDone: [
          ...toTaskState,
          // An unknown or unreadable task: start again from the e-mail step, saying why.
          {
            description: 'The task is unknown or could not be read: the user starts again from the e-mail step, told why.',
            target: 'email',
            actions: [{ type: 'setError', params: ({ event }) => failureCode(event.output) }],
          },
        ],
        onError: {
          description: 'Loading the task failed unexpectedly: the user starts again from the e-mail step.',
          target: 'email',
          actions: { type: 'setError', params: 'unknown' },
        },
      },
    },
    documents: {
      description: 'The recovery task waits for the user to upload an identity document and a selfie.',
      tags: ['step:status'],
      on: {
        'DOCUMENTS.SUBMIT': [
          {
            description: 'Both files are chosen: they are uploaded.',
            guard: { type: 'hasBothFiles', params: ({ event }) => event },
            target: 'uploading',
            actions: { type: 'storeDocuments', params: ({ event }) => ({ document: event.document, selfie: event.selfie }) },
          },
          { description: 'A file is missing: the user is told and nothing is sent.', actions: { type: 'setFieldError', params: 'documentsRequired' } },
        ],
        START_OVER: { target: 'email', description: 'The user gives up this recovery and starts again from the e-mail step.', actions: 'reset' },
      },
    },
    uploading: {
      description: 'The identity document and the selfie are being uploaded.',
      tags: ['step:status', 'busy'],
      invoke: {
        id: 'uploadDocuments',
        src: 'uploadDocuments',
        input: ({ context }) => ({ taskId: context.taskId ?? '', document: context.documents!.document!, selfie: context.documents!.selfie! }),
        onDone: [
          // Accepted documents put the task in the review queue.
          {
            description: 'The documents were accepted: the task goes to an administrator for review.',
            guard: { type: 'succeeded', params: outputOf },
            target: 'waiting',
            actions: [storeTaskOf, 'forgetDocuments'],
          },
          {
            description: 'The upload was refused or got no answer: the user sees why and may upload again.',
            target: 'documents',
            actions: [{ type: 'setError', params: ({ event }) => failureCode(event.output) }, 'forgetDocuments'],
          },
        ],
        onError: {
          description: 'The upload failed unexpectedly: the user may upload again.',
          target: 'documents',
          actions: [{ type: 'setError', params: 'unknown' }, 'forgetDocuments'],
        },
      },
    },
    /** documents in: an administrator decides; the user looks again later */
    waiting: {
      description: "The documents are in; an administrator reviews the task and the user checks back later.",
      tags: ['step:status'],
      on: {
        REFRESH: { target: 'loadingStatus', description: 'The user checks whether the task has been decided.', actions: 'clearErrors' },
        START_OVER: { target: 'email', description: 'The user gives up this recovery and starts again from the e-mail step.', actions: 'reset' },
      },
    },
    approved: {
      description: 'An administrator approved the recovery; a code was mailed to the new address.',
      tags: ['step:status'],
      on: {
        CONTINUE: { target: 'reset', description: 'The user continues to enter the code mailed to the new address.', actions: 'clearErrors' },
        START_OVER: { target: 'email', description: 'The user gives up this recovery and starts again from the e-mail step.', actions: 'reset' },
      },
    },
    rejected: {
      description: 'An administrator rejected the recovery, with a reason.',
      tags: ['step:status'],
      on: {
        RETRY: {
          description: 'The rejection allows another try: the user gives the personal data again.',
          guard: 'isRetryable',
          target: 'personalData',
          actions: 'clearErrors',
        },
        START_OVER: { target: 'email', description: 'The user gives up this recovery and starts again from the e-mail step.', actions: 'reset' },
      },
    },
    reset: {
      description: 'The user enters the code that was e-mailed (and the address, when only its masked form is known).',
      tags: ['step:reset'],
      on: {
        'CODE.SUBMIT': [
          // Reloaded on /status, the chart knows only the masked address: the step asks for it.
          {
            description: 'The e-mail address is not valid: the field shows the error and nothing is sent.',
            guard: { type: 'isNotEmail', params: ({ event }) => event.email },
            actions: { type: 'setFieldError', params: 'emailInvalid' },
          },
          {
            description: 'The code has the right form: it is checked.',
            guard: { type: 'isCodeShaped', params: ({ event }) => event.code },
            target: 'checkingCode',
            actions: { type: 'storeCode', params: ({ event }) => event },
          },
          { description: 'The code has the wrong form: the field shows the error and nothing is sent.', actions: { type: 'setFieldError', params: 'codeFormat' } },
        ],
        START_OVER: { target: 'email', description: 'The user starts again from the e-mail step to get a new code.', actions: 'reset' },
      },
    },
    checkingCode: {
      description: 'The e-mailed code is being checked.',
      tags: ['step:reset', 'busy'],
      invoke: {
        id: 'checkCode',
        src: 'checkCode',
        input: ({ context }) => ({ email: context.email, code: context.code }),
        onDone: [
          {
            description: 'The code is right: the user chooses a new password.',
            guard: { type: 'succeeded', params: ({ event }) => event.output },
            target: 'password',
          },
          {
            description: 'The code is wrong, expired or used up: the user sees why and enters a code again.',
            target: 'reset',
            actions: [{ type: 'setError', params: ({ event }) => failureCode(event.output) }, 'forgetCode'],
          },
        ],
        onError: {
          description: 'Checking the code failed unexpectedly: the user may try again (the code is not kept).',
          target: 'reset',
          actions: [{ type: 'setError', params: 'unknown' }, 'forgetCode'],
        },
      },
    },
    password: {
      description: 'The user chooses a new password and repeats it.',
      tags: ['step:password'],
      on: {
        'PASSWORD.SUBMIT': [
          {
            description: 'The password breaks the password rules: the user is told and nothing is sent.',
            guard: { type: 'isWeakPassword', params: ({ event }) => event.password },
            actions: { type: 'setFieldError', params: 'passwordWeak' },
          },
          {
            description: 'The repeated password differs: the user is told and nothing is sent.',
            guard: { type: 'isMismatch', params: ({ event }) => event },
            actions: { type: 'setFieldError', params: 'passwordMismatch' },
          },
          {
            description: 'The password is acceptable: it is set with the code.',
            target: 'changingPassword',
            actions: { type: 'storePassword', params: ({ event }) => event.password },
          },
        ],
      },
    },
    changingPassword: {
      description: 'The new password is being set with the code.',
      tags: ['step:password', 'busy'],
      invoke: {
        id: 'changePassword',
        src: 'changePassword',
        input: ({ context }) => ({ email: context.email, code: context.code, password: context.password }),
        onDone: [
          {
            description: 'The password was changed.',
            guard: { type: 'succeeded', params: ({ event }) => event.output },
            target: 'success',
            actions: 'forgetCode',
          },
          // The code died meanwhile (expired, or spent elsewhere): a new one is needed.
          {
            description: 'The code expired or was used meanwhile: the user needs a new code.',
            guard: { type: 'isCodeGone', params: ({ event }) => event.output },
            target: 'reset',
            actions: [{ type: 'setError', params: ({ event }) => failureCode(event.output) }, 'forgetCode'],
          },
          {
            description: 'The password was refused or the call failed: the user sees why and may choose again.',
            target: 'password',
            actions: [{ type: 'setError', params: ({ event }) => failureCode(event.output) }, 'forgetPassword'],
          },
        ],
        onError: {
          description: 'Setting the password failed unexpectedly: the user may try again.',
          target: 'password',
          actions: [{ type: 'setError', params: 'unknown' }, 'forgetPassword'],
        },
      },
    },
    success: {
      description: 'The password is changed; the user can sign in with it.',
      tags: ['step:success'],
      type: 'final',
    },
  },
});

export type AccountRecoveryMachine = typeof accountRecoveryMachine;
