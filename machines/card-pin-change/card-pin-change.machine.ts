/**
 * Changing a card's PIN (document 2 §5 "Card PIN change sends a confirm flag, the PIN and its
 * repeat", §7 change PIN; issue 16 item 3: weak PINs such as 0000 or 1234 refused).
 *
 * ```
 * entering ─PIN.SUBMIT─▶ (not confirmed, not 4 digits, the two differ, weak: told, nothing sent)
 *    │          └─ all good ─▶ submitting ─ok─▶ done ─PIN.AGAIN─▶ entering
 *    │                            ├─VF pinWeak / pinMismatch / other VF─▶ entering
 *    │                            ├─no answer─▶ entering
 *    │                            └─refused─▶ entering
 * ```
 *
 * The weak-PIN rule is api/cards.ts isWeakPin, the platform's own: the screen refuses such a PIN
 * before calling, and the platform refuses it again. The PIN and its repeat come with the submit
 * event and stay in the context only while the call runs; the view keeps what is typed.
 */
import { assign, fromPromise, setup } from 'xstate';
import { isWeakPin } from '../../api/cards.ts';
import type { Failure } from '../../api/envelope.ts';

export interface PinChangeRequest {
  accountId: number;
  pinCode: string;
  pinCodeRepeat: string;
}

export type PinChangeResult =
  | { ok: true }
  /** VF pinWeak or pinMismatch: the platform's own check */
  | { ok: false; code: 'pinWeak' | 'pinMismatch' }
  | { ok: false; code: 'network' }
  | { ok: false; code: 'failed'; failure: Failure };

export type PinChangeEvent = { type: 'PIN.SUBMIT'; confirmed: boolean; pinCode: string; pinCodeRepeat: string } | { type: 'PIN.AGAIN' };

export type PinChangeError = 'notConfirmed' | 'pinFormat' | 'pinMismatch' | 'pinWeak' | 'network' | 'failed';

export interface PinChangeContext {
  accountId: number;
  /** the PIN and its repeat: only while submitting */
  pins: { pinCode: string; pinCodeRepeat: string } | null;
  error: PinChangeError | null;
  /** the platform's answer for failed */
  failure: Failure | null;
}

const PIN = /^\d{4}$/;
type Submit = Extract<PinChangeEvent, { type: 'PIN.SUBMIT' }>;

export const cardPinChangeMachine = setup({
  types: {
    context: {} as PinChangeContext,
    events: {} as PinChangeEvent,
    input: {} as { accountId: number },
  },
  actors: {
    /** changePin {accountId, confirm: true, pinCode, pinCodeRepeat} */
    changePin: fromPromise<PinChangeResult, PinChangeRequest>(async () => {
      throw new Error('changePin is provided by the app');
    }),
  },
  guards: {
    notConfirmed: (_, e: Submit) => !e.confirmed,
    malformed: (_, e: Submit) => !PIN.test(e.pinCode),
    mismatch: (_, e: Submit) => e.pinCode !== e.pinCodeRepeat,
    weak: (_, e: Submit) => isWeakPin(e.pinCode),
    isOk: (_, r: PinChangeResult) => r.ok,
    isRefusedPin: (_, r: PinChangeResult) => !r.ok && (r.code === 'pinWeak' || r.code === 'pinMismatch'),
    isNetwork: (_, r: PinChangeResult) => !r.ok && r.code === 'network',
  },
  actions: {
    setError: assign((_, p: { code: PinChangeError; failure?: Failure | null }) => ({ error: p.code, failure: p.failure ?? null })),
    startSubmit: assign((_, e: Submit) => ({ pins: { pinCode: e.pinCode, pinCodeRepeat: e.pinCodeRepeat }, error: null, failure: null })),
    forgetPins: assign({ pins: null }),
    reset: assign({ pins: null, error: null, failure: null }),
  },
}).createMachine({
  id: 'cardPinChange',
  description: 'The customer sets a new PIN for a card: confirms the change, types the PIN twice; a PIN too easy to guess is refused.',
  meta: { spec: ['document 2 §5', 'document 2 §7'] },
  context: ({ input }) => ({ accountId: input.accountId, pins: null, error: null, failure: null }),
  initial: 'entering',
  states: {
    entering: {
      description: 'The customer types the new PIN and its repeat and confirms the change.',
      meta: { spec: ['document 2 §5'] },
      on: {
        'PIN.SUBMIT': [
          {
            guard: { type: 'notConfirmed', params: ({ event }) => event },
            actions: { type: 'setError', params: { code: 'notConfirmed' } },
            description: 'The change is not confirmed (the confirm flag); the customer is told and nothing is sent.',
          },
          {
            guard: { type: 'malformed', params: ({ event }) => event },
            actions: { type: 'setError', params: { code: 'pinFormat' } },
            description: 'The PIN is not four digits; the customer is told and nothing is sent.',
          },
          {
            guard: { type: 'mismatch', params: ({ event }) => event },
            actions: { type: 'setError', params: { code: 'pinMismatch' } },
            description: 'The repeat differs from the PIN; the customer is told and nothing is sent.',
          },
          {
            guard: { type: 'weak', params: ({ event }) => event },
            actions: { type: 'setError', params: { code: 'pinWeak' } },
            description: 'The PIN is too easy to guess (one digit repeated, a run such as 1234); the customer is told and nothing is sent.',
          },
          {
            target: 'submitting',
            actions: { type: 'startSubmit', params: ({ event }) => event },
            description: 'The PIN is four digits, repeated, not weak, and the change confirmed: it is sent.',
          },
        ],
      },
    },
    submitting: {
      description: 'The platform sets the new PIN at the card issuer; the customer waits.',
      meta: { spec: ['document 2 §7'] },
      tags: ['busy'],
      exit: 'forgetPins',
      invoke: {
        id: 'changePin',
        src: 'changePin',
        input: ({ context }) => ({ accountId: context.accountId, pinCode: context.pins!.pinCode, pinCodeRepeat: context.pins!.pinCodeRepeat }),
        onDone: [
          { guard: { type: 'isOk', params: ({ event }) => event.output }, target: 'done', description: 'The new PIN is set.' },
          {
            guard: { type: 'isRefusedPin', params: ({ event }) => event.output },
            target: 'entering',
            actions: { type: 'setError', params: ({ event }) => ({ code: !event.output.ok && event.output.code === 'pinMismatch' ? 'pinMismatch' : 'pinWeak' }) },
            description: 'The platform refused the PIN (too easy to guess, or the two differ); the customer chooses another.',
          },
          {
            guard: { type: 'isNetwork', params: ({ event }) => event.output },
            target: 'entering',
            actions: { type: 'setError', params: { code: 'network' } },
            description: 'No answer came; the customer may send the PIN again (setting the same PIN twice does no harm).',
          },
          {
            target: 'entering',
            actions: { type: 'setError', params: ({ event }) => ({ code: 'failed', failure: !event.output.ok && event.output.code === 'failed' ? event.output.failure : null }) },
            description: 'The platform refused the change (the card does not allow it now); its words are shown.',
          },
        ],
        onError: { target: 'entering', actions: { type: 'setError', params: { code: 'network' } }, description: 'The call failed without an answer; the customer may try again.' },
      },
    },
    done: {
      description: 'The new PIN is set; the customer may change it again.',
      on: { 'PIN.AGAIN': { target: 'entering', actions: 'reset', description: 'The customer changes the PIN once more.' } },
    },
  },
});

export type CardPinChangeMachine = typeof cardPinChangeMachine;
