/**
 * Opening an account in another currency, or a crypto wallet (issue 13; document 2 §7 "Add
 * currency: currencyCode" and "Create wallet: currencyCode, accountId. Returns address").
 *
 * ```
 *            ┌─ no currency left to open ─▶ nothingToOpen
 * (start) ───┤
 *            └─▶ choosing ─CONTINUE [a currency chosen]─▶ confirming ─CONFIRM─▶ opening ─ok─▶ done (final)
 *                  ▲  └─CONTINUE [none]: error 'required', stays   │  ▲              │
 *                  └──────────────────── BACK ─────────────────────┘  └─RETRY─ failed ◀─┘ refused / no answer
 *                  ▲                                                          │
 *                  └─────────────────────────── BACK ─────────────────────────┘
 * ```
 *
 * The choices are input: the currencies the platform offers (api/transfers.ts CURRENCIES) that the
 * customer holds no open account in, crypto only with the funding.digital flag (the platform
 * refuses createWallet without it). The view computes them from the accounts and permission reads.
 * Pure: `openAccount` is provided by the app (addCurrency for fiat, createWallet for crypto) and
 * answers expected failures as values; the view words the codes.
 */
import { assign, fromPromise, setup } from 'xstate';
import type { Failure } from '../../api/envelope.ts';
import type { CurrencyCode } from '../../api/transfers.ts';

export interface OpenAccountInput {
  /** the currencies the customer may open now, in the order offered */
  choices: readonly CurrencyCode[];
}

export interface OpenedAccount {
  accountId: number;
  currency: CurrencyCode;
  /** a crypto wallet's receiving address; null for a fiat account */
  address: string | null;
}

export type OpenAccountResult = { ok: true; account: OpenedAccount } | { ok: false; code: 'network' } | { ok: false; code: 'failed'; failure: Failure };

export type OpenAccountError = { code: 'required' } | { code: 'network' } | { code: 'failed'; failure: Failure };

export type OpenAccountEvent =
  | { type: 'CURRENCY.SELECT'; currency: CurrencyCode }
  | { type: 'CONTINUE' }
  | { type: 'BACK' }
  | { type: 'CONFIRM' }
  | { type: 'RETRY' };

export interface OpenAccountContext {
  choices: readonly CurrencyCode[];
  selected: CurrencyCode | null;
  error: OpenAccountError | null;
  opened: OpenedAccount | null;
}

export const openAccountMachine = setup({
  types: {
    context: {} as OpenAccountContext,
    events: {} as OpenAccountEvent,
    input: {} as OpenAccountInput,
    output: {} as OpenedAccount,
  },
  actors: {
    openAccount: fromPromise<OpenAccountResult, { currency: CurrencyCode }>(async () => ({ ok: false, code: 'network' })),
  },
  guards: {
    nothingToOpen: ({ context }) => context.choices.length === 0,
    isOffered: ({ context }, currency: CurrencyCode) => context.choices.includes(currency),
    hasSelection: ({ context }) => context.selected !== null,
    isOk: (_, r: OpenAccountResult) => r.ok,
  },
  actions: {
    select: assign((_, currency: CurrencyCode) => ({ selected: currency, error: null })),
    requireSelection: assign({ error: { code: 'required' } as OpenAccountError }),
    clearError: assign({ error: null }),
    storeOpened: assign((_, r: OpenAccountResult) => (r.ok ? { opened: r.account, error: null } : {})),
    storeFailure: assign((_, r: OpenAccountResult) => ({ error: r.ok ? null : r.code === 'network' ? ({ code: 'network' } as const) : { code: 'failed' as const, failure: r.failure } })),
  },
}).createMachine({
  id: 'openAccount',
  context: ({ input }) => ({ choices: input.choices, selected: null, error: null, opened: null }),
  initial: 'starting',
  states: {
    starting: {
      always: [{ guard: 'nothingToOpen', target: 'nothingToOpen' }, { target: 'choosing' }],
    },
    nothingToOpen: {},
    choosing: {
      on: {
        'CURRENCY.SELECT': { guard: { type: 'isOffered', params: ({ event }) => event.currency }, actions: { type: 'select', params: ({ event }) => event.currency } },
        CONTINUE: [{ guard: 'hasSelection', target: 'confirming' }, { actions: 'requireSelection' }],
      },
    },
    confirming: {
      on: {
        BACK: 'choosing',
        CONFIRM: 'opening',
      },
    },
    opening: {
      tags: ['busy'],
      entry: 'clearError',
      invoke: {
        id: 'openAccount',
        src: 'openAccount',
        input: ({ context }) => ({ currency: context.selected! }),
        onDone: [
          { guard: { type: 'isOk', params: ({ event }) => event.output }, target: 'done', actions: { type: 'storeOpened', params: ({ event }) => event.output } },
          { target: 'failed', actions: { type: 'storeFailure', params: ({ event }) => event.output } },
        ],
        onError: { target: 'failed', actions: { type: 'storeFailure', params: { ok: false, code: 'network' } } },
      },
    },
    failed: {
      on: {
        // Opening again is safe: the actor answers an account the first try opened as opened.
        RETRY: 'opening',
        BACK: { target: 'choosing', actions: 'clearError' },
      },
    },
    done: {
      type: 'final',
    },
  },
  output: ({ context }) => context.opened!,
});

export type OpenAccountMachine = typeof openAccountMachine;
