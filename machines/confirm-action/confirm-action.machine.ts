/**
 * Confirm, then call, then done or failed: stopping something with money behind it (issue 13:
 * "Cancel this transfer" on the transaction detail page, transferCancel; stopping a pre-approved
 * payment, preapprovedCancel). One chart for both: what differs is the call, which the view
 * provides as the `perform` actor, and the thing it acts on (ASK's targetId).
 *
 * ```
 * idle ─ASK(targetId)─▶ confirming ─CONFIRM─▶ working ─ok─▶ done ─ASK─▶ confirming (another one)
 *                         │                      │               └─DISMISS─▶ idle
 *                         └─DISMISS─▶ idle        └─refused / no answer─▶ failed
 * failed ─CONFIRM─▶ working (try again)   failed ─DISMISS─▶ idle
 * ```
 *
 * No DISMISS while working: the answer (bounded by the request time-out) says whether it was
 * stopped, and closing the dialog then would leave the person not knowing. Pure: expected
 * failures come back as `{ ok: false, code, detail }` with the platform's own words as detail.
 */
import { assign, fromPromise, setup } from 'xstate';
import { newIdempotencyKey } from '../approval/idempotency-key.ts';

export type ConfirmActionResult = { ok: true } | { ok: false; code: 'refused' | 'network'; detail: string | null };

export interface ConfirmActionError {
  code: 'refused' | 'network';
  detail: string | null;
}

export interface PerformInput {
  targetId: number;
  idempotencyKey: string;
}

export type ConfirmActionEvent = { type: 'ASK'; targetId: number } | { type: 'CONFIRM' } | { type: 'DISMISS' };

export interface ConfirmActionContext {
  /** what the call acts on (a transfer's or a schedule's id); null before the first ASK */
  targetId: number | null;
  /**
   * The Idempotency-Key of the call (transferCancel needs one): new with each ASK, the same for a
   * retry after a failure, so a cancel whose answer was lost is not sent as a second request.
   */
  key: string | null;
  error: ConfirmActionError | null;
}

export const confirmActionMachine = setup({
  types: {
    context: {} as ConfirmActionContext,
    events: {} as ConfirmActionEvent,
  },
  actors: {
    perform: fromPromise<ConfirmActionResult, PerformInput>(async () => {
      throw new Error('perform is provided by the app');
    }),
  },
  guards: {
    isDone: (_, r: ConfirmActionResult) => r.ok,
  },
  actions: {
    setTarget: assign((_, targetId: number) => ({ targetId, key: newIdempotencyKey(), error: null })),
    clearError: assign({ error: null }),
    storeFailure: assign((_, r: ConfirmActionResult) => ({ error: r.ok ? null : { code: r.code, detail: r.detail } })),
    storeNetworkFailure: assign({ error: { code: 'network', detail: null } as ConfirmActionError }),
  },
}).createMachine({
  id: 'confirmAction',
  description: 'Stopping something with money behind it (a transfer or a pre-approved payment): the person confirms first, then sees whether it was stopped.',
  meta: { spec: ['document 2 §7', 'document 2 §8'] },
  context: { targetId: null, key: null, error: null },
  initial: 'idle',
  states: {
    idle: {
      description: 'Nothing is being stopped; no confirmation dialog is open.',
      on: {
        ASK: {
          target: 'confirming',
          actions: { type: 'setTarget', params: ({ event }) => event.targetId },
          description: 'The person asks to stop a transfer or a pre-approved payment; the dialog asks them to confirm.',
        },
      },
    },
    confirming: {
      description: 'The dialog asks the person to confirm that they want to stop it; nothing has been sent yet.',
      on: {
        CONFIRM: { target: 'working', description: 'The person confirms; the request to stop it is sent.' },
        DISMISS: { target: 'idle', description: 'The person changes their mind and closes the dialog; nothing is sent.' },
      },
    },
    working: {
      description: 'The request to stop it has been sent; the dialog waits for the answer and cannot be closed.',
      tags: ['busy'],
      entry: 'clearError',
      invoke: {
        id: 'perform',
        src: 'perform',
        input: ({ context }) => ({ targetId: context.targetId ?? 0, idempotencyKey: context.key ?? newIdempotencyKey() }),
        onDone: [
          { guard: { type: 'isDone', params: ({ event }) => event.output }, target: 'done', description: 'The platform confirms it was stopped.' },
          {
            target: 'failed',
            actions: { type: 'storeFailure', params: ({ event }) => event.output },
            description: 'The platform refuses to stop it; its own words are kept to show.',
          },
        ],
        onError: { target: 'failed', actions: 'storeNetworkFailure', description: 'No answer came (network failure or time-out); it is not known to have been stopped.' },
      },
    },
    failed: {
      description: 'It was not stopped (refused, or no answer); the person can try again or close the dialog.',
      on: {
        CONFIRM: { target: 'working', description: 'The person tries again, with the same request key so it cannot be applied twice.' },
        DISMISS: { target: 'idle', description: 'The person closes the dialog and leaves it as it is.' },
      },
    },
    done: {
      description: 'It was stopped; the dialog says so.',
      on: {
        ASK: {
          target: 'confirming',
          actions: { type: 'setTarget', params: ({ event }) => event.targetId },
          description: 'The person asks to stop another one; the dialog asks them to confirm again.',
        },
        DISMISS: { target: 'idle', description: 'The person closes the confirmation that it was stopped.' },
      },
    },
  },
});

export type ConfirmActionMachine = typeof confirmActionMachine;
