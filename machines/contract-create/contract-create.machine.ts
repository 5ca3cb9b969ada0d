/**
 * Creating a revenue-split contract (document 3 §2 /revenue-split/new, §3 contract create payload
 * and customer lookup, §5 contract create rules, §7 Contracts service; issue 19 item 1).
 *
 * ```
 * editing ─LOOKUP [an e-mail]─▶ lookingUp ─found─▶ verifying ─▶ editing (the counterparty and whether a contract with it may be made)
 *                                         └─not found, no answer─▶ editing (told)
 * editing ─COMPANY.CHANGE [a counterparty found]─▶ verifying ─▶ editing
 * editing ─CONTINUE [the form complete, the counterparty valid]─▶ review ─BACK─▶ editing
 * review ─PREVIEW─▶ previewing ─▶ review (the draft's PDF link) ; review ─CREATE─▶ creating ─ok─▶ created (the contract's page)
 *                                                                           └─VF on a field─▶ editing ; otherwise ─▶ review (told)
 * ```
 *
 * Pure: the calls are the app's (`lookupCustomer`: GET /customer/lookup, `verifyCounterparty`: POST
 * /contract/verify, `previewPdf`: POST /pdf/api/generator_pdf/contract, `createContract`: PUT
 * /contract); expected failures are `{ ok: false, code }`.
 */
import { assign, fromPromise, setup } from 'xstate';
import type { ContractCreate } from '../../api/contracts.ts';
import {
  emptyDraft,
  fieldOfParam,
  hasErrors,
  payloadOf,
  validateDraft,
  type ContractDraft,
  type Direction,
  type DraftField,
  type FieldErrors,
  type Side,
} from './contract-create.rules.ts';

export type CallFailure = { ok: false; code: 'network' | 'forbidden' | 'failed'; message: string | null };
export type Counterparty = { id: number; type: 'BUSINESS' | 'PERSONAL'; name: string; email: string };
export type LookupResult = { ok: true; counterparty: Counterparty } | { ok: false; code: 'notFound'; message: null } | CallFailure;
export type VerifyReason = 'sameCustomer' | 'notFound' | 'notActive' | 'alreadyContracted';
export type VerifyResult = { ok: true; isValid: boolean; reason: VerifyReason | null } | CallFailure;
export type PreviewResult = { ok: true; url: string } | CallFailure;
export type ServerFieldError = { param: string; code: string; params?: Record<string, string | number> };
export type CreateResult = { ok: true; contractId: number } | { ok: false; code: 'fields'; errors: ServerFieldError[]; message: null } | CallFailure;

type TextField = 'ownSignerName' | 'counterpartySignerName' | 'percentage' | 'activeFrom' | 'note';

export type ContractCreateEvent =
  | { type: 'COMPANY.CHANGE'; companyId: number }
  | { type: 'EMAIL.CHANGE'; email: string }
  | { type: 'LOOKUP' }
  | { type: 'DIRECTION.CHANGE'; direction: Direction }
  | { type: 'FIELD.CHANGE'; field: TextField; value: string }
  | { type: 'OBLIGATION.ADD'; side: Side }
  | { type: 'OBLIGATION.REMOVE'; side: Side; index: number }
  | { type: 'OBLIGATION.CHANGE'; side: Side; index: number; text: string }
  | { type: 'CONTINUE' }
  | { type: 'BACK' }
  | { type: 'PREVIEW' }
  | { type: 'CREATE' };

export interface ContractCreateContext {
  draft: ContractDraft;
  /** YYYY-MM-DD (UTC): activeFrom's earliest day */
  today: string;
  email: string;
  counterparty: Counterparty | null;
  lookupError: 'invalidEmail' | 'notFound' | 'network' | 'failed' | null;
  /** POST /contract/verify's answer for the company and the counterparty */
  verdict: { isValid: boolean; reason: VerifyReason | null } | null;
  fieldErrors: FieldErrors;
  /** the last call's refusal shown above the form or the review */
  failure: CallFailure | null;
  previewUrl: string | null;
  createdId: number | null;
}

export interface ContractCreateInput {
  companyId: number | null;
  today: string;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const OBLIGATIONS_KEY = { own: 'ownObligations', counterparty: 'counterpartyObligations' } as const;

function withoutError(errors: FieldErrors, field: DraftField): FieldErrors {
  const next = { ...errors };
  delete next[field];
  return next;
}

export const contractCreateMachine = setup({
  types: {
    context: {} as ContractCreateContext,
    events: {} as ContractCreateEvent,
    input: {} as ContractCreateInput,
  },
  actors: {
    lookupCustomer: fromPromise<LookupResult, { email: string }>(async () => {
      throw new Error('lookupCustomer is provided by the app');
    }),
    verifyCounterparty: fromPromise<VerifyResult, { companyId: number; counterpartyId: number }>(async () => {
      throw new Error('verifyCounterparty is provided by the app');
    }),
    previewPdf: fromPromise<PreviewResult, ContractCreate>(async () => {
      throw new Error('previewPdf is provided by the app');
    }),
    createContract: fromPromise<CreateResult, ContractCreate>(async () => {
      throw new Error('createContract is provided by the app');
    }),
  },
  guards: {
    isOk: (_, r: { ok: boolean }) => r.ok,
    isCode: (_, p: { result: { ok: boolean; code?: string }; code: string }) => !p.result.ok && p.result.code === p.code,
    emailInvalid: ({ context }) => !EMAIL.test(context.email.trim()),
    hasCounterparty: ({ context }) => context.counterparty !== null && context.draft.companyId !== null,
    formInvalid: ({ context }) => hasErrors(validateDraft(context.draft, context.today)) || context.verdict?.isValid !== true,
  },
  actions: {
    setCompany: assign(({ context }, companyId: number) => ({
      draft: { ...context.draft, companyId },
      verdict: null,
      fieldErrors: withoutError(withoutError(context.fieldErrors, 'companyId'), 'counterparty'),
    })),
    setEmail: assign(({ context }, email: string) => ({
      email,
      counterparty: null,
      verdict: null,
      lookupError: null,
      draft: { ...context.draft, counterpartyId: null },
    })),
    showEmailError: assign({ lookupError: 'invalidEmail' as const }),
    storeCounterparty: assign(({ context }, counterparty: Counterparty) => ({
      counterparty,
      lookupError: null,
      draft: { ...context.draft, counterpartyId: counterparty.id },
      fieldErrors: withoutError(context.fieldErrors, 'counterparty'),
    })),
    storeLookupFailure: assign((_, code: 'notFound' | 'network' | 'failed') => ({ lookupError: code })),
    storeVerdict: assign((_, verdict: { isValid: boolean; reason: VerifyReason | null }) => ({ verdict })),
    setVerifyFailure: assign((_, failure: CallFailure) => ({ verdict: null, failure })),
    setDirection: assign(({ context }, direction: Direction) => ({ draft: { ...context.draft, direction } })),
    setField: assign(({ context }, p: { field: TextField; value: string }) => ({
      draft: { ...context.draft, [p.field]: p.value },
      fieldErrors: withoutError(context.fieldErrors, p.field),
    })),
    addObligation: assign(({ context }, side: Side) => {
      const key = OBLIGATIONS_KEY[side];
      return { draft: { ...context.draft, [key]: [...context.draft[key], ''] } };
    }),
    removeObligation: assign(({ context }, p: { side: Side; index: number }) => {
      const key = OBLIGATIONS_KEY[p.side];
      return { draft: { ...context.draft, [key]: context.draft[key].filter((_, i) => i !== p.index) } };
    }),
    changeObligation: assign(({ context }, p: { side: Side; index: number; text: string }) => {
      const key = OBLIGATIONS_KEY[p.side];
      return { draft: { ...context.draft, [key]: context.draft[key].map((o, i) => (i === p.index ? p.text : o)) }, fieldErrors: withoutError(context.fieldErrors, key) };
    }),
    showFieldErrors: assign(({ context }) => {
      const errors = validateDraft(context.draft, context.today);
      // a counterparty found but refused by verify is a problem on its field too
      if (!errors.counterparty && context.verdict?.isValid !== true) errors.counterparty = { code: context.verdict ? 'refused' : 'required' };
      return { fieldErrors: errors, failure: null };
    }),
    clearFailure: assign({ failure: null }),
    setFailure: assign((_, failure: CallFailure) => ({ failure })),
    setPreview: assign((_, previewUrl: string) => ({ previewUrl })),
    storeServerErrors: assign(({ context }, errors: ServerFieldError[]) => {
      const fieldErrors: FieldErrors = {};
      for (const e of errors) {
        const field = fieldOfParam(e.param, context.draft.direction) ?? 'note';
        fieldErrors[field] ??= e.params ? { code: e.code, params: e.params } : { code: e.code };
      }
      return { fieldErrors, failure: null };
    }),
    storeCreated: assign((_, createdId: number) => ({ createdId })),
  },
}).createMachine({
  id: 'contractCreate',
  description:
    'A customer drafts a revenue-split contract with a counterparty found by e-mail: who pays whom, the signers, each side’s obligations, the percentage and the first day; reviews it (with a PDF preview) and creates it; both sides then sign it on its page.',
  meta: { spec: ['document 3 §2', 'document 3 §3', 'document 3 §5', 'document 3 §7'] },
  context: ({ input }) => ({
    draft: emptyDraft(input.companyId, input.today),
    today: input.today,
    email: '',
    counterparty: null,
    lookupError: null,
    verdict: null,
    fieldErrors: {},
    failure: null,
    previewUrl: null,
    createdId: null,
  }),
  initial: 'editing',
  states: {
    editing: {
      description: 'The customer fills in the contract: the company, the counterparty’s e-mail, who pays, the signers, the obligations, the percentage, the first day and a note.',
      meta: { spec: ['document 3 §3', 'document 3 §5'] },
      on: {
        'COMPANY.CHANGE': [
          {
            guard: 'hasCounterparty',
            target: 'verifying',
            actions: { type: 'setCompany', params: ({ event }) => event.companyId },
            description: 'The customer chooses another company while a counterparty is found: whether the two may contract is checked again.',
          },
          { actions: { type: 'setCompany', params: ({ event }) => event.companyId }, description: 'The customer chooses the company the contract is made for.' },
        ],
        'EMAIL.CHANGE': {
          actions: { type: 'setEmail', params: ({ event }) => event.email },
          description: 'The customer types the counterparty’s e-mail (the counterparty found before is forgotten).',
        },
        LOOKUP: [
          { guard: 'emailInvalid', actions: 'showEmailError', description: 'What was typed is not an e-mail address: the customer is told and nothing is sent.' },
          { target: 'lookingUp', actions: 'clearFailure', description: 'The customer looks the counterparty up by its e-mail.' },
        ],
        'DIRECTION.CHANGE': {
          actions: { type: 'setDirection', params: ({ event }) => event.direction },
          description: 'The customer says who pays: this company pays the counterparty, or receives from it.',
        },
        'FIELD.CHANGE': {
          actions: { type: 'setField', params: ({ event }) => ({ field: event.field, value: event.value }) },
          description: 'The customer types a signer’s name, the percentage, the first day or the note.',
        },
        'OBLIGATION.ADD': { actions: { type: 'addObligation', params: ({ event }) => event.side }, description: 'The customer adds an obligation to one side.' },
        'OBLIGATION.REMOVE': {
          actions: { type: 'removeObligation', params: ({ event }) => ({ side: event.side, index: event.index }) },
          description: 'The customer removes one of a side’s obligations.',
        },
        'OBLIGATION.CHANGE': {
          actions: { type: 'changeObligation', params: ({ event }) => ({ side: event.side, index: event.index, text: event.text }) },
          description: 'The customer writes one of a side’s obligations.',
        },
        CONTINUE: [
          {
            guard: 'formInvalid',
            actions: 'showFieldErrors',
            description: 'Something is missing or wrong (or the counterparty may not be contracted with): each field says what.',
          },
          { target: 'review', actions: 'clearFailure', description: 'The contract is complete: the customer reviews it.' },
        ],
      },
    },
    lookingUp: {
      description: 'The counterparty is looked up by e-mail (GET /customer/lookup): its name and type.',
      meta: { spec: ['document 3 §3', 'document 3 §7'] },
      tags: ['busy'],
      invoke: {
        id: 'lookupCustomer',
        src: 'lookupCustomer',
        input: ({ context }) => ({ email: context.email.trim() }),
        onDone: [
          {
            guard: { type: 'isOk', params: ({ event }) => event.output },
            target: 'verifying',
            actions: { type: 'storeCounterparty', params: ({ event }) => (event.output as Extract<LookupResult, { ok: true }>).counterparty },
            description: 'The e-mail belongs to a customer: whether the company may contract with it is checked.',
          },
          {
            target: 'editing',
            actions: {
              type: 'storeLookupFailure',
              params: ({ event }) =>
                (event.output as { code: string }).code === 'notFound' ? 'notFound' : (event.output as { code: string }).code === 'network' ? 'network' : 'failed',
            },
            description: 'No customer has this e-mail, or the lookup was refused or not answered: the customer is told.',
          },
        ],
        onError: { target: 'editing', actions: { type: 'storeLookupFailure', params: 'network' }, description: 'The call failed without an answer.' },
      },
    },
    verifying: {
      description: 'Whether the company may make a contract with the counterparty is checked (POST /contract/verify).',
      meta: { spec: ['document 3 §7'] },
      tags: ['busy'],
      invoke: {
        id: 'verifyCounterparty',
        src: 'verifyCounterparty',
        input: ({ context }) => ({ companyId: context.draft.companyId!, counterpartyId: context.counterparty!.id }),
        onDone: [
          {
            guard: { type: 'isOk', params: ({ event }) => event.output },
            target: 'editing',
            actions: { type: 'storeVerdict', params: ({ event }) => event.output as Extract<VerifyResult, { ok: true }> },
            description: 'The answer is shown: the counterparty may be contracted with, or why not.',
          },
          {
            target: 'editing',
            actions: { type: 'setVerifyFailure', params: ({ event }) => event.output as CallFailure },
            description: 'The check was refused or not answered: the customer is told (and may look the counterparty up again).',
          },
        ],
        onError: {
          target: 'editing',
          actions: { type: 'setVerifyFailure', params: { ok: false, code: 'network', message: null } },
          description: 'The call failed without an answer.',
        },
      },
    },
    review: {
      description: 'The customer reads the contract as it will be made, may preview its PDF, and creates it or goes back to change it.',
      meta: { spec: ['document 3 §3'] },
      on: {
        BACK: { target: 'editing', actions: 'clearFailure', description: 'The customer goes back to change the contract.' },
        PREVIEW: { target: 'previewing', actions: 'clearFailure', description: 'The customer asks for a PDF preview of the draft.' },
        CREATE: { target: 'creating', actions: 'clearFailure', description: 'The customer creates the contract.' },
      },
    },
    previewing: {
      description: 'A PDF of the draft is made (POST /pdf/api/generator_pdf/contract).',
      meta: { spec: ['document 3 §7'] },
      tags: ['busy'],
      invoke: {
        id: 'previewPdf',
        src: 'previewPdf',
        input: ({ context }) => payloadOfContext(context),
        onDone: [
          {
            guard: { type: 'isOk', params: ({ event }) => event.output },
            target: 'review',
            actions: { type: 'setPreview', params: ({ event }) => (event.output as { url: string }).url },
            description: 'The preview is ready: a link opens it in a new tab.',
          },
          {
            target: 'review',
            actions: { type: 'setFailure', params: ({ event }) => event.output as CallFailure },
            description: 'The preview was refused or not answered: the customer is told.',
          },
        ],
        onError: { target: 'review', actions: { type: 'setFailure', params: { ok: false, code: 'network', message: null } }, description: 'The call failed without an answer.' },
      },
    },
    creating: {
      description: 'The contract is created (PUT /contract); both sides are then asked to sign it.',
      meta: { spec: ['document 3 §5', 'document 3 §7'] },
      tags: ['busy'],
      invoke: {
        id: 'createContract',
        src: 'createContract',
        input: ({ context }) => payloadOfContext(context),
        onDone: [
          {
            guard: { type: 'isOk', params: ({ event }) => event.output },
            target: 'created',
            actions: { type: 'storeCreated', params: ({ event }) => (event.output as { contractId: number }).contractId },
            description: 'The contract is made: its page opens.',
          },
          {
            guard: { type: 'isCode', params: ({ event }) => ({ result: event.output, code: 'fields' }) },
            target: 'editing',
            actions: { type: 'storeServerErrors', params: ({ event }) => (event.output as { errors: ServerFieldError[] }).errors },
            description: 'The platform refused fields (VF): the form shows each on its field.',
          },
          {
            target: 'review',
            actions: { type: 'setFailure', params: ({ event }) => event.output as CallFailure },
            description: 'Refused (e.g. 403: view-only rights) or no answer: the customer is told.',
          },
        ],
        onError: { target: 'review', actions: { type: 'setFailure', params: { ok: false, code: 'network', message: null } }, description: 'The call failed without an answer.' },
      },
    },
    created: { type: 'final', description: 'The contract is created; the page goes to it (/revenue-split/{contractId}).' },
  },
});

function payloadOfContext(context: ContractCreateContext): ContractCreate {
  return payloadOf(context.draft);
}

export type ContractCreateMachine = typeof contractCreateMachine;
