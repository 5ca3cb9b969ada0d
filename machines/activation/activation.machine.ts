/**
 * Account activation (document 1 §2 /activate and the query actions; document 3 §2 "Account
 * activation by action").
 *
 * Shape (the start is chosen from the input):
 *   form ─CODE.SUBMIT (valid)→ activating ─ok→ activated
 *        ─CODE.RESEND (valid e-mail)→ resending → form (notice codeSent, or an error)
 *   choosingPassword (activationEmployee: the popup) ─PASSWORD.SUBMIT (valid)→ activating
 *        ─DIALOG.CLOSE→ cancelled
 *   a query action with an e-mail and a well-formed code starts in activating; when it fails the
 *   user lands on the form (or the popup) with the values prefilled and the reason.
 *
 * kind: personal (activateAccount), business (businessAccountActivate), employee
 * (employeeAccountActivate, with the new password). Codes only; the views translate.
 */
import { assign, fromPromise, setup } from 'xstate';
import {
  hasErrors,
  normaliseCode,
  normaliseEmail,
  validateActivation,
  type ActivationFieldErrors,
} from '../registration/registration.rules.ts';

export type ActivationKind = 'personal' | 'business' | 'employee';
export type ActivationErrorCode = 'wrongCode' | 'expiredCode' | 'usedCode' | 'network' | 'unknown';

export interface ActivateInput {
  kind: ActivationKind;
  email: string;
  code: string;
  password?: string;
}
export type ActivateResult =
  | { ok: true }
  | { ok: false; code: ActivationErrorCode }
  | { ok: false; code: 'fields'; fieldErrors: ActivationFieldErrors };
export type ResendCodeResult = { ok: true } | { ok: false; code: 'network' | 'unknown' };

export type ActivationEvent =
  | { type: 'CODE.SUBMIT'; email: string; code: string }
  | { type: 'CODE.RESEND'; email: string }
  | { type: 'PASSWORD.SUBMIT'; password: string }
  | { type: 'DIALOG.CLOSE' };

export interface ActivationInput {
  kind: ActivationKind;
  /** prefilled from the query (user or email), may be empty */
  email: string;
  /** prefilled from the query, may be empty */
  code: string;
  /** a query action: activate at once when the values are well-formed */
  fromQuery: boolean;
}

export interface ActivationContext {
  kind: ActivationKind;
  /** opened by a query action (activate at once when the values are well-formed), not the /activate form */
  fromQuery: boolean;
  email: string;
  code: string;
  /** only between PASSWORD.SUBMIT and the answer */
  password: string | null;
  fieldErrors: ActivationFieldErrors;
  error: ActivationErrorCode | null;
  notice: 'codeSent' | null;
}

type Answer = ActivateResult;
const isFieldAnswer = (r: Answer): r is { ok: false; code: 'fields'; fieldErrors: ActivationFieldErrors } => !r.ok && r.code === 'fields';

export const activationMachine = setup({
  types: {
    context: {} as ActivationContext,
    events: {} as ActivationEvent,
    input: {} as ActivationInput,
  },
  actors: {
    activate: fromPromise<ActivateResult, ActivateInput>(async () => {
      throw new Error('activate is provided by the app');
    }),
    resendCode: fromPromise<ResendCodeResult, { email: string }>(async () => {
      throw new Error('resendCode is provided by the app');
    }),
  },
  actions: {
    storeValues: assign((_, p: { email: string; code: string }) => ({
      email: normaliseEmail(p.email),
      code: normaliseCode(p.code),
      fieldErrors: {},
      error: null,
      notice: null,
    })),
    storeEmail: assign((_, email: string) => ({ email: normaliseEmail(email), fieldErrors: {}, error: null, notice: null })),
    storePassword: assign((_, password: string) => ({ password, fieldErrors: {}, error: null })),
    forgetPassword: assign({ password: null }),
    storeFieldErrors: assign((_, fieldErrors: ActivationFieldErrors) => ({ fieldErrors, error: null, notice: null })),
    storeError: assign((_, error: ActivationErrorCode) => ({ error, notice: null })),
    storeNotice: assign({ notice: 'codeSent' as const, error: null }),
  },
  guards: {
    isEmployee: ({ context }) => context.kind === 'employee',
    queryIsUsable: ({ context }) => context.fromQuery && !hasErrors(validateActivation({ email: context.email, code: context.code })),
    codeFormInvalid: (_, p: { email: string; code: string }) => hasErrors(validateActivation(p)),
    // Stryker disable next-line StringLiteral: equivalent, only the e-mail's check is read (any code would do)
    emailInvalid: (_, email: string) => validateActivation({ email, code: 'AAAAAAAA' }).email !== undefined,
    passwordInvalid: ({ context }, password: string) =>
      hasErrors(validateActivation({ email: context.email, code: context.code, password })),
    answered: (_, r: { ok: boolean }) => r.ok,
    isFieldAnswer: (_, r: Answer) => isFieldAnswer(r),
  },
}).createMachine({
  id: 'activation',
  description: 'Account activation: a personal, business or authorised-user account is activated with the code sent by e-mail.',
  meta: { spec: ['document 1 §2', 'document 1 §7', 'document 3 §2', 'document 3 §8'] },
  context: ({ input }) => ({
    kind: input.kind,
    fromQuery: input.fromQuery,
    email: normaliseEmail(input.email),
    code: normaliseCode(input.code),
    password: null,
    fieldErrors: {},
    error: null,
    notice: null,
  }),
  initial: 'starting',
  states: {
    starting: {
      description: 'The activation page or link has just opened.',
      always: [
        {
          description: 'An authorised user (employee) activates: the popup asks for a new password.',
          guard: 'isEmployee',
          target: 'choosingPassword',
        },
        {
          description: 'The link carries an e-mail address and a well-formed code: activation starts at once.',
          // the /activate form prefilled from its address waits for the user (document 1 §2); only a query action starts at once
          guard: 'queryIsUsable',
          target: 'activating',
        },
        { target: 'form', description: 'Otherwise the user enters the e-mail address and the activation code.' },
      ],
    },
    form: {
      description: 'The user enters the e-mail address and the activation code, or asks for a new code.',
      on: {
        'CODE.SUBMIT': [
          {
            description: 'The e-mail address or the code is not valid: the fields show what is wrong and nothing is sent.',
            guard: { type: 'codeFormInvalid', params: ({ event }) => ({ email: event.email, code: event.code }) },
            actions: { type: 'storeFieldErrors', params: ({ event }) => validateActivation({ email: event.email, code: event.code }) },
          },
          {
            description: 'The values are valid: the account is activated with them.',
            target: 'activating',
            actions: { type: 'storeValues', params: ({ event }) => ({ email: event.email, code: event.code }) },
          },
        ],
        'CODE.RESEND': [
          {
            description: 'The e-mail address is not valid: the field shows the error and no code is sent.',
            guard: { type: 'emailInvalid', params: ({ event }) => event.email },
            actions: { type: 'storeFieldErrors', params: ({ event }) => ({ email: validateActivation({ email: event.email, code: 'AAAAAAAA' }).email! }) },
          },
          {
            description: 'The e-mail address is valid: a new activation code is sent to it.',
            target: 'resending',
            actions: { type: 'storeEmail', params: ({ event }) => event.email },
          },
        ],
      },
    },
    choosingPassword: {
      description: 'The activation popup asks the authorised user to choose a password.',
      on: {
        'PASSWORD.SUBMIT': [
          {
            description: 'The password breaks the password rules: the field shows what is wrong and nothing is sent.',
            guard: { type: 'passwordInvalid', params: ({ event }) => event.password },
            actions: {
              type: 'storeFieldErrors',
              params: ({ context, event }) => validateActivation({ email: context.email, code: context.code, password: event.password }),
            },
          },
          {
            description: 'The password is acceptable: the account is activated with it.',
            target: 'activating',
            actions: { type: 'storePassword', params: ({ event }) => event.password },
          },
        ],
        'DIALOG.CLOSE': { target: 'cancelled', description: 'The user closes the activation popup without activating.' },
      },
    },
    activating: {
      description: 'The account is being activated with the e-mail address and the code.',
      tags: ['busy'],
      invoke: {
        id: 'activate',
        src: 'activate',
        input: ({ context }) => ({
          kind: context.kind,
          email: context.email,
          code: context.code,
          ...(context.password !== null ? { password: context.password } : {}),
        }),
        onDone: [
          {
            description: 'The account is activated.',
            guard: { type: 'answered', params: ({ event }) => event.output },
            target: 'activated',
            actions: 'forgetPassword',
          },
          {
            description: 'The platform refused some fields: the user goes back to correct them.',
            guard: { type: 'isFieldAnswer', params: ({ event }) => event.output },
            target: 'returning',
            actions: [{ type: 'storeFieldErrors', params: ({ event }) => (isFieldAnswer(event.output) ? event.output.fieldErrors : {}) }, 'forgetPassword'],
          },
          {
            description: 'Activation failed (wrong, expired or used code, network): the user goes back with the reason.',
            target: 'returning',
            actions: [
              // Stryker disable next-line ConditionalExpression,LogicalOperator,StringLiteral: this candidate runs only for a refusal other than fields (the branch is for TypeScript)
              { type: 'storeError', params: ({ event }) => (!event.output.ok && event.output.code !== 'fields' ? event.output.code : 'unknown') },
              'forgetPassword',
            ],
          },
        ],
        onError: {
          description: 'Activation failed unexpectedly: the user goes back with the error.',
          target: 'returning',
          actions: [{ type: 'storeError', params: 'unknown' }, 'forgetPassword'],
        },
      },
    },
    /** Back to where the values can be corrected: the popup for an authorised user, else the form. */
    returning: {
      description: 'After a failed activation, the user is taken back to where the values can be corrected.',
      always: [
        { guard: 'isEmployee', target: 'choosingPassword', description: 'An authorised user goes back to the password popup.' },
        { target: 'form', description: 'Anyone else goes back to the form, with the values filled in.' },
      ],
    },
    resending: {
      description: 'A new activation code is being sent to the e-mail address.',
      tags: ['busy'],
      invoke: {
        id: 'resendCode',
        src: 'resendCode',
        input: ({ context }) => ({ email: context.email }),
        onDone: [
          {
            description: 'A new code was sent: the user is told.',
            guard: { type: 'answered', params: ({ event }) => event.output },
            target: 'form',
            actions: 'storeNotice',
          },
          {
            description: 'No new code was sent: the user sees why.',
            target: 'form',
            // Stryker disable next-line StringLiteral: unreachable, this candidate runs only for a failure (the branch is for TypeScript)
            actions: { type: 'storeError', params: ({ event }) => (event.output.ok ? 'unknown' : event.output.code) },
          },
        ],
        onError: {
          description: 'Sending a new code failed unexpectedly: the user sees the error.',
          target: 'form',
          actions: { type: 'storeError', params: 'unknown' },
        },
      },
    },
    activated: { type: 'final', description: 'The account is activated; the user can sign in.' },
    cancelled: { type: 'final', description: 'The authorised user closed the activation popup; nothing was activated.' },
  },
});

export type ActivationMachine = typeof activationMachine;
