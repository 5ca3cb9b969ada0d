/**
 * Personal registration (document 1 §2 /register/personal, §4 e-mail existence states, §5 rules).
 *
 * Shape:
 *   editing ─FORM.SUBMIT (valid, e-mail not taken)→ submitting ─ok→ sent ─CODE.RESEND→ resending → sent
 *   editing holds the e-mail check: emailIdle ─EMAIL.CHANGE (checkable)→ emailWaiting
 *     ─after emailDebounce→ emailChecking ─answer→ emailIdle (state 0, 1, 3 or -1 in context).
 *
 * The e-mail check is advisory: 1 (exists) and 3 (exists as an authorised user) block the submit
 * with a message; -1 (the check failed) lets the user go on (the platform checks again). Field
 * values live in the view until submit; the machine validates the submitted form with
 * registration.rules.ts and keeps only the codes of what is wrong. No strings, no I/O.
 */
import { assign, fromPromise, setup } from 'xstate';
import { EmailState, type EmailStateCode, type PersonalType } from '../../api/registration.ts';
import {
  hasErrors,
  normaliseEmail,
  registrationRequest,
  shouldCheckEmail,
  validateRegistration,
  type FieldErrors,
  type RegistrationForm,
} from './registration.rules.ts';

export type RegistrationErrorCode = 'closed' | 'network' | 'unknown';
export type RegistrationRequest = ReturnType<typeof registrationRequest>;

export type EmailCheckResult = { ok: true; state: 0 | 1 | 3 } | { ok: false; code: 'network' | 'unknown' };
export type CreateAccountResult =
  | { ok: true }
  | { ok: false; code: 'emailTaken' }
  | { ok: false; code: 'fields'; fieldErrors: FieldErrors }
  | { ok: false; code: RegistrationErrorCode };
export type ResendResult = { ok: true } | { ok: false; code: 'network' | 'unknown' };

export type RegistrationEvent =
  | { type: 'EMAIL.CHANGE'; email: string }
  | { type: 'FORM.SUBMIT'; form: RegistrationForm }
  | { type: 'CODE.RESEND' };

export interface RegistrationInput {
  /** the variant's personal types */
  personalTypes: readonly PersonalType[];
}

export interface RegistrationContext {
  personalTypes: readonly PersonalType[];
  /** the e-mail as last typed (normalised) */
  email: string;
  /** document 1 §4 state of `email`; null while the text is not checkable */
  emailState: EmailStateCode | null;
  fieldErrors: FieldErrors;
  error: RegistrationErrorCode | null;
  /** the request being sent (holds the password: dropped when the call ends) */
  request: RegistrationRequest | null;
  /** where the activation code went */
  sentTo: string | null;
  resend: 'idle' | 'sent' | 'failed';
}

/** Wait this long after the last keystroke before checking the e-mail. */
export const EMAIL_CHECK_DEBOUNCE_MS = 500;

export const registrationMachine = setup({
  types: {
    context: {} as RegistrationContext,
    events: {} as RegistrationEvent,
    input: {} as RegistrationInput,
  },
  actors: {
    checkEmail: fromPromise<EmailCheckResult, { email: string }>(async () => {
      throw new Error('checkEmail is provided by the app');
    }),
    createAccount: fromPromise<CreateAccountResult, { request: RegistrationRequest }>(async () => {
      throw new Error('createAccount is provided by the app');
    }),
    resendCode: fromPromise<ResendResult, { email: string }>(async () => {
      throw new Error('resendCode is provided by the app');
    }),
  },
  delays: {
    emailDebounce: EMAIL_CHECK_DEBOUNCE_MS,
  },
  actions: {
    /** A new text: its old answer no longer applies; 2 (checking) when a check is coming. */
    storeEmail: assign(({ context }, p: { email: string; checking: boolean }) => {
      const { email: _stale, ...fieldErrors } = context.fieldErrors;
      return { email: normaliseEmail(p.email), emailState: p.checking ? EmailState.checking : null, fieldErrors };
    }),
    storeEmailState: assign((_, state: EmailStateCode) => ({ emailState: state })),
    storeFieldErrors: assign((_, fieldErrors: FieldErrors) => ({ fieldErrors, error: null })),
    /** 1 or 3 from the check blocks the submit with a message on the e-mail field. */
    blockTakenEmail: assign(({ context }) => ({
      fieldErrors: { email: context.emailState === EmailState.employee ? ('emailEmployee' as const) : ('emailTaken' as const) },
      error: null,
    })),
    storeRequest: assign((_, form: RegistrationForm) => ({ request: registrationRequest(form), email: normaliseEmail(form.email), fieldErrors: {}, error: null })),
    markEmailTaken: assign({ emailState: EmailState.exists, fieldErrors: { email: 'emailTaken' as const } }),
    storeError: assign((_, error: RegistrationErrorCode) => ({ error })),
    forgetRequest: assign({ request: null }),
    markSent: assign(({ context }) => ({ sentTo: context.request?.email ?? context.email, resend: 'idle' as const })),
    storeResend: assign((_, resend: 'sent' | 'failed') => ({ resend })),
  },
  guards: {
    isCheckable: (_, email: string) => shouldCheckEmail(email),
    formInvalid: ({ context }, form: RegistrationForm) => hasErrors(validateRegistration(form, context.personalTypes)),
    emailTaken: ({ context }) => context.emailState === EmailState.exists || context.emailState === EmailState.employee,
    answered: (_, r: { ok: boolean }) => r.ok,
    isEmailTakenAnswer: (_, r: CreateAccountResult) => !r.ok && r.code === 'emailTaken',
    isFieldAnswer: (_, r: CreateAccountResult) => !r.ok && r.code === 'fields',
  },
}).createMachine({
  id: 'registration',
  context: ({ input }) => ({
    personalTypes: input.personalTypes,
    email: '',
    emailState: null,
    fieldErrors: {},
    error: null,
    request: null,
    sentTo: null,
    resend: 'idle',
  }),
  initial: 'editing',
  states: {
    editing: {
      initial: 'emailIdle',
      on: {
        'EMAIL.CHANGE': [
          {
            guard: { type: 'isCheckable', params: ({ event }) => event.email },
            // reenter: typing again restarts the debounce
            target: '.emailWaiting',
            reenter: true,
            actions: { type: 'storeEmail', params: ({ event }) => ({ email: event.email, checking: true }) },
          },
          { target: '.emailIdle', actions: { type: 'storeEmail', params: ({ event }) => ({ email: event.email, checking: false }) } },
        ],
        'FORM.SUBMIT': [
          {
            guard: { type: 'formInvalid', params: ({ event }) => event.form },
            actions: { type: 'storeFieldErrors', params: ({ context, event }) => validateRegistration(event.form, context.personalTypes) },
          },
          // The check said the address has an account: say so instead of sending.
          { guard: 'emailTaken', actions: 'blockTakenEmail' },
          { target: 'submitting', actions: { type: 'storeRequest', params: ({ event }) => event.form } },
        ],
      },
      states: {
        emailIdle: {},
        emailWaiting: {
          after: { emailDebounce: { target: 'emailChecking' } },
        },
        emailChecking: {
          invoke: {
            id: 'checkEmail',
            src: 'checkEmail',
            input: ({ context }) => ({ email: context.email }),
            onDone: [
              {
                guard: { type: 'answered', params: ({ event }) => event.output },
                target: 'emailIdle',
                actions: { type: 'storeEmailState', params: ({ event }) => (event.output.ok ? event.output.state : EmailState.failed) },
              },
              // -1: the check failed; the user may go on
              { target: 'emailIdle', actions: { type: 'storeEmailState', params: EmailState.failed } },
            ],
            onError: { target: 'emailIdle', actions: { type: 'storeEmailState', params: EmailState.failed } },
          },
        },
      },
    },
    submitting: {
      tags: ['busy'],
      invoke: {
        id: 'createAccount',
        src: 'createAccount',
        input: ({ context }) => ({ request: context.request! }),
        onDone: [
          { guard: { type: 'answered', params: ({ event }) => event.output }, target: 'sent', actions: ['markSent', 'forgetRequest'] },
          { guard: { type: 'isEmailTakenAnswer', params: ({ event }) => event.output }, target: 'editing', actions: ['markEmailTaken', 'forgetRequest'] },
          {
            guard: { type: 'isFieldAnswer', params: ({ event }) => event.output },
            target: 'editing',
            actions: [
              { type: 'storeFieldErrors', params: ({ event }) => (!event.output.ok && event.output.code === 'fields' ? event.output.fieldErrors : {}) },
              'forgetRequest',
            ],
          },
          {
            target: 'editing',
            actions: [
              {
                type: 'storeError',
                params: ({ event }) => (!event.output.ok && event.output.code !== 'fields' && event.output.code !== 'emailTaken' ? event.output.code : 'unknown'),
              },
              'forgetRequest',
            ],
          },
        ],
        onError: { target: 'editing', actions: [{ type: 'storeError', params: 'unknown' }, 'forgetRequest'] },
      },
    },
    sent: {
      on: { 'CODE.RESEND': { target: 'resending' } },
    },
    resending: {
      tags: ['busy'],
      invoke: {
        id: 'resendCode',
        src: 'resendCode',
        input: ({ context }) => ({ email: context.sentTo ?? context.email }),
        onDone: [
          { guard: { type: 'answered', params: ({ event }) => event.output }, target: 'sent', actions: { type: 'storeResend', params: 'sent' } },
          { target: 'sent', actions: { type: 'storeResend', params: 'failed' } },
        ],
        onError: { target: 'sent', actions: { type: 'storeResend', params: 'failed' } },
      },
    },
  },
});

export type RegistrationMachine = typeof registrationMachine;
