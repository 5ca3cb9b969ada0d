/**
 * Signing a document on the built-in e-signature's page (document 3 §3 W-form upload response:
 * signData's sign URLs; issue 18 item 3; server/modules/esign). The sign URL's token authorises:
 * no sign-in is needed. Purpose-neutral: the tax forms and, later, contracts use the same page.
 *
 * ```
 * loading ─ok, open─▶ reviewing ─REVIEW.CONTINUE─▶ signing ─SIGN (complete)─▶ submitting ─ok─▶ signed
 *    │                    ▲  ◀───SIGNING.BACK────────┘  └─SIGN (missing)─▶ signing  │
 *    ├─ok, signed─▶ alreadySigned ◀──────────────409 (signed already)─────────────────┤
 *    ├─ok, expired or voided─▶ expired (final) ◀──410─────────────────────────────────┤
 *    └─not found / no answer─▶ failed ─LOAD.RETRY─▶ loading    refused or no answer ─▶ signing
 * signed / alreadySigned ─NEXT (another unsigned document)─▶ loading (its token)
 *                        └─FINISH─▶ returning (final: signed in, the app's returnPath) | done (final)
 * ```
 *
 * The signature is a drawing (strokes on the pad, pointer events) or, for whoever cannot draw
 * (keyboard, switch access: WCAG 2.5.7 dragging movements), the typed name adopted as the
 * signature. The consent is asked for each document; the typed name and the signature are kept
 * for the envelope's next document (the same signer), and may be changed there.
 */
import { assign, fromPromise, setup } from 'xstate';
import { SIGNATURE_LIMITS, TYPED_NAME_LIMITS, type EsignSigned, type EsignState } from '../../api/esign.ts';
import type { Failure } from '../../api/envelope.ts';

export type LoadSigningResult =
  | { ok: true; state: EsignState }
  /** 404: the link names no document */
  | { ok: false; code: 'notFound' }
  | { ok: false; code: 'network' }
  | { ok: false; code: 'failed'; failure: Failure | null };

export interface SubmitSignatureRequest {
  token: string;
  typedName: string;
  /** [] when the typed name is adopted as the signature */
  strokes: number[][][];
  consent: true;
}

export type SubmitSignatureResult =
  | { ok: true; signed: EsignSigned }
  /** 409: signed already (another tab, a second press whose first answer was lost) */
  | { ok: false; code: 'alreadySigned' }
  /** 410: the envelope expired or was replaced */
  | { ok: false; code: 'expired' }
  | { ok: false; code: 'network' }
  /** refused: VF naming the fields, or anything else the platform said */
  | { ok: false; code: 'failed'; failure: Failure | null };

export type ESignatureEvent =
  | { type: 'LOAD.RETRY' }
  | { type: 'REVIEW.CONTINUE' }
  | { type: 'SIGNING.BACK' }
  | { type: 'NAME.CHANGE'; typedName: string }
  | { type: 'STROKE.ADD'; stroke: number[][] }
  | { type: 'PAD.CLEAR' }
  | { type: 'ADOPT.CHANGE'; adopt: boolean }
  | { type: 'CONSENT.CHANGE'; consent: boolean }
  | { type: 'SIGN' }
  | { type: 'NEXT' }
  | { type: 'FINISH' };

export type NameProblem = 'missing' | 'short' | 'long' | 'control';

export interface FieldErrors {
  typedName: NameProblem | null;
  signature: boolean;
  consent: boolean;
}

export interface ESignatureContext {
  token: string;
  signedIn: boolean;
  state: EsignState | null;
  loadFailure: Exclude<LoadSigningResult, { ok: true }> | null;
  typedName: string;
  strokes: number[][][];
  adopt: boolean;
  consent: boolean;
  fieldErrors: FieldErrors;
  /** the last sign attempt's refusal (shown above the form) */
  error: 'network' | 'failed' | null;
  failure: Failure | null;
  /** the envelope's next unsigned document's token, once this one is signed (or found signed) */
  next: string | null;
}

const NO_ERRORS: FieldErrors = { typedName: null, signature: false, consent: false };
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

export function nameProblem(typedName: string): NameProblem | null {
  const name = typedName.trim();
  if (name === '') return 'missing';
  if (CONTROL.test(name)) return 'control';
  const length = [...name.replace(/\s+/g, ' ')].length;
  if (length < TYPED_NAME_LIMITS.min) return 'short';
  if (length > TYPED_NAME_LIMITS.max) return 'long';
  return null;
}

function fieldErrorsOf(c: ESignatureContext): FieldErrors {
  return { typedName: nameProblem(c.typedName), signature: !c.adopt && c.strokes.length === 0, consent: !c.consent };
}

const hasErrors = (e: FieldErrors) => e.typedName !== null || e.signature || e.consent;

export const eSignatureMachine = setup({
  types: {
    context: {} as ESignatureContext,
    events: {} as ESignatureEvent,
    input: {} as { token: string; signedIn: boolean },
  },
  actors: {
    loadSigning: fromPromise<LoadSigningResult, { token: string }>(async () => {
      throw new Error('loadSigning is provided by the app');
    }),
    submitSignature: fromPromise<SubmitSignatureResult, SubmitSignatureRequest>(async () => {
      throw new Error('submitSignature is provided by the app');
    }),
  },
  guards: {
    isOpen: (_, r: LoadSigningResult) => r.ok && r.state.envelope.status === 'sent' && !r.state.document.signed,
    isSigned: (_, r: LoadSigningResult) => r.ok && r.state.document.signed,
    isClosed: (_, r: LoadSigningResult) => r.ok && r.state.envelope.status !== 'sent',
    isOk: (_, r: { ok: boolean }) => r.ok,
    isCode: (_, p: { result: SubmitSignatureResult; code: string }) => !p.result.ok && p.result.code === p.code,
    formIncomplete: ({ context }) => hasErrors(fieldErrorsOf(context)),
    retryable: ({ context }) => context.loadFailure?.code !== 'notFound',
    hasNext: ({ context }) => context.next !== null,
    /** no other document waits (finishing is offered only then) */
    last: ({ context }) => context.next === null,
    lastSignedIn: ({ context }) => context.next === null && context.signedIn,
  },
  actions: {
    storeState: assign((_, r: LoadSigningResult) => (r.ok ? { state: r.state, loadFailure: null, next: r.state.next } : {})),
    storeLoadFailure: assign((_, r: LoadSigningResult) => ({ loadFailure: r.ok ? null : r })),
    setName: assign(({ context }, typedName: string) => ({
      typedName,
      fieldErrors: { ...context.fieldErrors, typedName: null },
    })),
    addStroke: assign(({ context }, stroke: number[][]) =>
      context.strokes.length >= SIGNATURE_LIMITS.maxStrokes || stroke.length < SIGNATURE_LIMITS.minPoints
        ? {}
        : { strokes: [...context.strokes, stroke.slice(0, SIGNATURE_LIMITS.maxPoints)], adopt: false, fieldErrors: { ...context.fieldErrors, signature: false } },
    ),
    clearPad: assign({ strokes: [] }),
    setAdopt: assign(({ context }, adopt: boolean) => ({ adopt, fieldErrors: { ...context.fieldErrors, signature: false } })),
    setConsent: assign(({ context }, consent: boolean) => ({ consent, fieldErrors: { ...context.fieldErrors, consent: false } })),
    showFieldErrors: assign(({ context }) => ({ fieldErrors: fieldErrorsOf(context), error: null, failure: null })),
    clearErrors: assign({ fieldErrors: NO_ERRORS, error: null, failure: null }),
    storeSigned: assign(({ context }, signed: EsignSigned) => ({
      next: signed.next,
      state: context.state ? { ...context.state, envelope: { ...context.state.envelope, status: signed.envelope.status }, document: signed.document, next: signed.next } : null,
    })),
    setError: assign((_, p: { error: 'network' | 'failed'; failure?: Failure | null }) => ({ error: p.error, failure: p.failure ?? null })),
    /** the envelope's next document: its own token, a fresh consent; the name and signature are kept */
    goToNext: assign(({ context }) => ({ token: context.next ?? context.token, state: null, next: null, consent: false, fieldErrors: NO_ERRORS, error: null, failure: null })),
  },
}).createMachine({
  id: 'eSignature',
  description:
    "A signer opens a sign URL (no sign-in: its token authorises), reads the document, types their name, draws a signature or adopts the typed name as it, agrees that it is the legal equivalent of a handwritten signature and signs; then goes on to the envelope's next document, or back to the app.",
  meta: { spec: ['document 3 §3', 'document 3 §7'] },
  context: ({ input }) => ({
    token: input.token,
    signedIn: input.signedIn,
    state: null,
    loadFailure: null,
    typedName: '',
    strokes: [],
    adopt: false,
    consent: false,
    fieldErrors: NO_ERRORS,
    error: null,
    failure: null,
    next: null,
  }),
  initial: 'loading',
  states: {
    loading: {
      description: "The document named by the link and its envelope are loaded: title, place in the envelope, pages, whether it is signed, the envelope's status.",
      meta: { spec: ['document 3 §3'] },
      tags: ['busy'],
      invoke: {
        id: 'loadSigning',
        src: 'loadSigning',
        input: ({ context }) => ({ token: context.token }),
        onDone: [
          {
            guard: { type: 'isSigned', params: ({ event }) => event.output },
            target: 'alreadySigned',
            actions: { type: 'storeState', params: ({ event }) => event.output },
            description: 'The document is signed already; the signer may go on to the next one or finish.',
          },
          {
            guard: { type: 'isOpen', params: ({ event }) => event.output },
            target: 'reviewing',
            actions: { type: 'storeState', params: ({ event }) => event.output },
            description: 'The document waits for its signature; the signer reads it first.',
          },
          {
            guard: { type: 'isClosed', params: ({ event }) => event.output },
            target: 'expired',
            actions: { type: 'storeState', params: ({ event }) => event.output },
            description: 'The envelope expired (seven days) or a newer one replaced it: nothing can be signed here.',
          },
          {
            target: 'failed',
            actions: { type: 'storeLoadFailure', params: ({ event }) => event.output },
            description: 'The link names no document, or the platform refused or did not answer.',
          },
        ],
        onError: {
          target: 'failed',
          actions: { type: 'storeLoadFailure', params: { ok: false, code: 'network' } },
          description: 'The call failed without an answer.',
        },
      },
    },
    failed: {
      description: 'The document could not be loaded: an unknown link (the signer is told to check it or ask for a new one), a refusal, or no answer (the signer may try again).',
      on: {
        'LOAD.RETRY': {
          guard: 'retryable',
          target: 'loading',
          description: 'The signer tries loading the document again (not offered for an unknown link: trying again cannot help).',
        },
      },
    },
    reviewing: {
      description: 'The signer reads the document: the PDF in the page (and a link to open or download it), its title, its page count and its place in the envelope.',
      meta: { spec: ['document 3 §3'] },
      on: {
        'REVIEW.CONTINUE': { target: 'signing', actions: 'clearErrors', description: 'The signer has read the document and goes on to sign it.' },
      },
    },
    signing: {
      description:
        'The signer types their name, draws a signature on the pad (or adopts the typed name as the signature: the keyboard way), agrees that the electronic signature is the legal equivalent of a handwritten one, and signs.',
      meta: { spec: ['document 3 §3'] },
      on: {
        'NAME.CHANGE': { actions: { type: 'setName', params: ({ event }) => event.typedName }, description: 'The signer types their name.' },
        'STROKE.ADD': {
          actions: { type: 'addStroke', params: ({ event }) => event.stroke },
          description: 'The signer draws one stroke of the signature on the pad (the typed name is then no longer adopted).',
        },
        'PAD.CLEAR': { actions: 'clearPad', description: 'The signer clears the pad to draw again.' },
        'ADOPT.CHANGE': {
          actions: { type: 'setAdopt', params: ({ event }) => event.adopt },
          description: 'The signer adopts the typed name as the signature (or draws again).',
        },
        'CONSENT.CHANGE': {
          actions: { type: 'setConsent', params: ({ event }) => event.consent },
          description: 'The signer agrees (or no longer agrees) that the electronic signature is the legal equivalent of a handwritten one.',
        },
        'SIGNING.BACK': { target: 'reviewing', description: 'The signer goes back to the document.' },
        SIGN: [
          {
            guard: 'formIncomplete',
            actions: 'showFieldErrors',
            description: 'The name is missing or not 2-100 characters, there is no signature, or the consent is not given: the signer is told and nothing is sent.',
          },
          { target: 'submitting', actions: 'clearErrors', description: 'The signer signs: the name, the signature and the consent are sent.' },
        ],
      },
    },
    submitting: {
      description: 'The platform stamps the signature onto the document, keeps the signed PDF with its hash, time and address, and files it; the signer waits.',
      meta: { spec: ['document 3 §3'] },
      tags: ['busy'],
      invoke: {
        id: 'submitSignature',
        src: 'submitSignature',
        input: ({ context }) => ({ token: context.token, typedName: context.typedName.trim(), strokes: context.adopt ? [] : context.strokes, consent: true as const }),
        onDone: [
          {
            guard: { type: 'isOk', params: ({ event }) => event.output },
            target: 'signed',
            actions: { type: 'storeSigned', params: ({ event }) => (event.output as Extract<SubmitSignatureResult, { ok: true }>).signed },
            description: 'The document is signed.',
          },
          {
            guard: { type: 'isCode', params: ({ event }) => ({ result: event.output, code: 'alreadySigned' }) },
            target: 'loading',
            description: 'The document was signed already (a second press, another tab): it is loaded again, and shows as signed.',
          },
          {
            guard: { type: 'isCode', params: ({ event }) => ({ result: event.output, code: 'expired' }) },
            target: 'loading',
            description: 'The envelope expired or was replaced meanwhile: it is loaded again, and shows why nothing can be signed.',
          },
          {
            guard: { type: 'isCode', params: ({ event }) => ({ result: event.output, code: 'network' }) },
            target: 'signing',
            actions: { type: 'setError', params: { error: 'network' } },
            description: 'No answer came; signing again cannot sign twice (the platform answers "signed already").',
          },
          {
            target: 'signing',
            actions: {
              type: 'setError',
              params: ({ event }) => ({ error: 'failed' as const, failure: !event.output.ok && event.output.code === 'failed' ? event.output.failure : null }),
            },
            description: 'The platform refused the signature (e.g. a field it does not accept); its words are shown.',
          },
        ],
        onError: {
          target: 'signing',
          actions: { type: 'setError', params: { error: 'network' } },
          description: 'The call failed without an answer.',
        },
      },
    },
    signed: {
      description: "The document is signed (the signed copy may be opened); the signer goes on to the envelope's next document, or finishes.",
      meta: { spec: ['document 3 §3'] },
      on: {
        NEXT: { guard: 'hasNext', target: 'loading', actions: 'goToNext', description: "The signer goes on to the envelope's next unsigned document." },
        FINISH: [
          { guard: 'lastSignedIn', target: 'returning', description: 'Every document is signed; the signed-in signer goes back to where the app sent them from.' },
          { guard: 'last', target: 'done', description: 'Every document is signed; the signer (not signed in here) is told and may close the page.' },
        ],
      },
    },
    alreadySigned: {
      description: "The document was signed before (its signed copy may be opened); the signer goes on to the envelope's next unsigned document, or finishes.",
      meta: { spec: ['document 3 §3'] },
      on: {
        NEXT: { guard: 'hasNext', target: 'loading', actions: 'goToNext', description: "The signer goes on to the envelope's next unsigned document." },
        FINISH: [
          { guard: 'lastSignedIn', target: 'returning', description: 'Nothing is left to sign; the signed-in signer goes back to the app.' },
          { guard: 'last', target: 'done', description: 'Nothing is left to sign; the signer is told and may close the page.' },
        ],
      },
    },
    expired: {
      type: 'final',
      description: 'The envelope expired or was replaced by a newer one: nothing can be signed here; the signer asks for the documents again.',
    },
    done: { type: 'final', description: 'Every document of the envelope is signed; the signer may close the page.' },
    returning: { type: 'final', description: "Every document is signed; the page sends the signed-in signer to the envelope's return path in the app." },
  },
});

export type ESignatureMachine = typeof eSignatureMachine;
