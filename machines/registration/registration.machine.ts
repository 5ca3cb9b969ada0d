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
    /**
     * The form is sent; a check still pending is dropped with the e-mail step it ran in (the
     * platform checks the address itself), so back on the form the address reads as not checked,
     * never as "checking" with no check running.
     */
    storeRequest: assign(({ context }, form: RegistrationForm) => ({
      request: registrationRequest(form),
      email: normaliseEmail(form.email),
      emailState: context.emailState === EmailState.checking ? null : context.emailState,
      fieldErrors: {},
      error: null,
    })),
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
  description: 'Personal registration: the user fills in the form, the e-mail address is checked as they type, and an activation code is sent.',
  meta: { spec: ['document 1 §1', 'document 1 §2', 'document 1 §4', 'document 1 §5', 'document 1 §7'] },
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
      description: 'The user fills in the registration form.',
      initial: 'emailIdle',
      on: {
        'EMAIL.CHANGE': [
          {
            description: 'The user typed an e-mail address worth checking: it is checked after a short pause in typing.',
            guard: { type: 'isCheckable', params: ({ event }) => event.email },
            // reenter: typing again restarts the debounce
            target: '.emailWaiting',
            reenter: true,
            actions: { type: 'storeEmail', params: ({ event }) => ({ email: event.email, checking: true }) },
          },
          {
            description: 'The typed e-mail address is not complete enough to check: nothing is checked.',
            target: '.emailIdle',
            actions: { type: 'storeEmail', params: ({ event }) => ({ email: event.email, checking: false }) },
          },
        ],
        'FORM.SUBMIT': [
          {
            description: 'The form breaks a validation rule: the fields show what is wrong and nothing is sent.',
            guard: { type: 'formInvalid', params: ({ event }) => event.form },
            actions: { type: 'storeFieldErrors', params: ({ context, event }) => validateRegistration(event.form, context.personalTypes) },
          },
          // The check said the address has an account: say so instead of sending.
          {
            description: 'The e-mail check found an existing account for this address: the user is told instead of sending.',
            guard: 'emailTaken',
            actions: 'blockTakenEmail',
          },
          {
            description: 'The form is valid and the address is free (or could not be checked): the account is created.',
            target: 'submitting',
            actions: { type: 'storeRequest', params: ({ event }) => event.form },
          },
        ],
      },
      states: {
        emailIdle: { description: 'No e-mail check is running; the last result (free, exists, exists as employee, failed) is shown.' },
        emailWaiting: {
          description: 'The user is typing the e-mail address; the check waits for a pause.',
          after: { emailDebounce: { target: 'emailChecking', description: 'The user paused typing: the address is checked.' } },
        },
        emailChecking: {
          description: 'The platform is checking whether the e-mail address already has an account.',
          meta: { spec: ['document 1 §4'] },
          invoke: {
            id: 'checkEmail',
            src: 'checkEmail',
            input: ({ context }) => ({ email: context.email }),
            onDone: [
              {
                description: 'The platform answered: the address is free, exists, or exists as an authorised user.',
                guard: { type: 'answered', params: ({ event }) => event.output },
                target: 'emailIdle',
                actions: { type: 'storeEmailState', params: ({ event }) => (event.output.ok ? event.output.state : EmailState.failed) },
              },
              // -1: the check failed; the user may go on
              {
                description: 'The check failed: the state is failed and the user may go on (the platform checks again).',
                target: 'emailIdle',
                actions: { type: 'storeEmailState', params: EmailState.failed },
              },
            ],
            onError: {
              description: 'The check failed unexpectedly: the state is failed and the user may go on.',
              target: 'emailIdle',
              actions: { type: 'storeEmailState', params: EmailState.failed },
            },
          },
        },
      },
    },
    submitting: {
      description: 'The account is being created with the submitted form.',
      tags: ['busy'],
      invoke: {
        id: 'createAccount',
        src: 'createAccount',
        input: ({ context }) => ({ request: context.request! }),
        onDone: [
          {
            description: 'The account was created: an activation code has been sent to the e-mail address.',
            guard: { type: 'answered', params: ({ event }) => event.output },
            target: 'sent',
            actions: ['markSent', 'forgetRequest'],
          },
          {
            description: 'The platform says the e-mail address already has an account: the user is told on the form.',
            guard: { type: 'isEmailTakenAnswer', params: ({ event }) => event.output },
            target: 'editing',
            actions: ['markEmailTaken', 'forgetRequest'],
          },
          {
            description: 'The platform refused some fields: the form shows which.',
            guard: { type: 'isFieldAnswer', params: ({ event }) => event.output },
            target: 'editing',
            actions: [
              { type: 'storeFieldErrors', params: ({ event }) => (!event.output.ok && event.output.code === 'fields' ? event.output.fieldErrors : {}) },
              'forgetRequest',
            ],
          },
          {
            description: 'Registration failed (closed for this provider, network or other error): the user sees the error on the form.',
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
        onError: {
          description: 'Registration failed unexpectedly: the user sees the error on the form.',
          target: 'editing',
          actions: [{ type: 'storeError', params: 'unknown' }, 'forgetRequest'],
        },
      },
    },
    sent: {
      description: 'The account is created and the activation code was sent; the user may ask for it again.',
      on: { 'CODE.RESEND': { target: 'resending', description: 'The user asks for the activation code to be sent again.' } },
    },
    resending: {
      description: 'The activation code is being sent again.',
      tags: ['busy'],
      invoke: {
        id: 'resendCode',
        src: 'resendCode',
        input: ({ context }) => ({ email: context.sentTo ?? context.email }),
        onDone: [
          {
            description: 'The code was sent again: the user is told.',
            guard: { type: 'answered', params: ({ event }) => event.output },
            target: 'sent',
            actions: { type: 'storeResend', params: 'sent' },
          },
          { target: 'sent', description: 'The code could not be sent again: the user is told.', actions: { type: 'storeResend', params: 'failed' } },
        ],
        onError: { target: 'sent', description: 'Sending again failed unexpectedly: the user is told.', actions: { type: 'storeResend', params: 'failed' } },
      },
    },
  },
});

export type RegistrationMachine = typeof registrationMachine;
