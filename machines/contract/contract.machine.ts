/**
 * One revenue-split contract's life as its page shows it (document 3 §2 /revenue-split/{contractId},
 * §3 Contract, §4 Contracts, §7 Contracts service; issue 19 item 1). The platform keeps the same
 * statuses and decides with the same rules (api/contracts.ts `contractActions`): the guards here
 * call them with the loaded contract and the acting customer, so the page offers what the platform
 * will accept.
 *
 * ```
 * loading ─ok─▶ shown ; ─not found, refused, no answer─▶ failed ─LOAD.RETRY (not for not found)─▶ loading
 * shown (parallel)
 *   status: routing ─▶ unsigned | waiting | signed | needIdentification | active | terminating
 *                      | terminated | expired | cancelled | rejected     (the platform's status, again after each re-read)
 *   action: idle ─ASK [contractActions allows it]─▶ confirming ─CONFIRM─▶ working ─ok─▶ reloading ─▶ idle
 *                                                   └─DISMISS─▶ idle      └─409─▶ reloading (told) ; 403, no answer ─▶ idle (told)
 *           idle ─SIGN [allowed]─▶ signing (checkSigner, signUrl) ─▶ leaving (the app's /e-sign page)
 *           idle ─IDENTIFY [payer, NEED_IDENTIFICATION]─▶ identifying (redirectUrl, identificationStarted) ─▶ leaving
 *           idle ─PDF─▶ pdfLoading ─▶ idle (the link to the PDF shown)
 *   any call answering 404 ─▶ failed (the contract does not exist or is not the customer's)
 * ```
 *
 * Pure: the calls are the app's (`loadContract`, `runAction`, `startSigning`, `startIdentification`,
 * `getPdfUrl`); expected failures are `{ ok: false, code }`. Nothing here is shown to people as is:
 * the view words the codes.
 */
import { assign, fromPromise, raise, setup } from 'xstate';
import { CONTRACT_NOTE_MAX, type Contract, type ContractAction, type ContractStatus } from '../../api/contracts.ts';
import { actionsFor, mayIdentify } from './contract.rules.ts';

/** The actions that ask first (sign goes to the e-signature page, which asks its own consent). */
export type ConfirmAction = Exclude<ContractAction, 'sign'>;

export type ContractFailureCode = 'notFound' | 'forbidden' | 'conflict' | 'network' | 'failed';
/** `message`: the platform's words (English), shown to English readers only */
export type ContractFailure = { ok: false; code: ContractFailureCode; message: string | null };
export type LoadContractResult = { ok: true; contract: Contract } | ContractFailure;
export type ActionResult = { ok: true } | ContractFailure;
/** checkSigner answered canSign false: this signer may not sign (e.g. not the side's signer) */
export type StartSigningResult = { ok: true; url: string } | { ok: false; code: 'cannotSign'; message: null } | ContractFailure;
export type UrlResult = { ok: true; url: string } | ContractFailure;

export interface RunActionRequest {
  contractId: number;
  action: ConfirmAction;
  /** terminate only: the reason, trimmed */
  note: string | null;
}

export type ContractEvent =
  | { type: 'LOAD.RETRY' }
  | { type: 'ASK'; action: ConfirmAction }
  | { type: 'NOTE.CHANGE'; note: string }
  | { type: 'CONFIRM' }
  | { type: 'DISMISS' }
  | { type: 'SIGN' }
  | { type: 'IDENTIFY' }
  | { type: 'PDF' }
  | { type: 'CONTRACT.CHANGED' };

export type ActionError = { code: 'forbidden' | 'conflict' | 'network' | 'failed' | 'cannotSign'; message: string | null };

export interface ContractContext {
  contractId: number;
  /** the customer acted for (the company, or the person themselves) */
  customerId: number;
  /** the caller acts for it with full rights (a view-only user takes no action) */
  mayAct: boolean;
  contract: Contract | null;
  loadFailure: ContractFailure | null;
  pending: ConfirmAction | null;
  note: string;
  noteError: 'missing' | 'long' | null;
  error: ActionError | null;
  /** where the browser goes next (the e-signature page, the identity check) */
  leaveTo: { kind: 'sign' | 'identify'; url: string } | null;
  pdfUrl: string | null;
}

export interface ContractInput {
  contractId: number;
  customerId: number;
  mayAct: boolean;
}

const STATUS_STATES: Record<ContractStatus, string> = {
  UNSIGNED: 'unsigned',
  WAITING: 'waiting',
  SIGNED: 'signed',
  NEED_IDENTIFICATION: 'needIdentification',
  ACTIVE: 'active',
  TERMINATING: 'terminating',
  TERMINATED: 'terminated',
  EXPIRED: 'expired',
  CANCELLED: 'cancelled',
  REJECTED: 'rejected',
};

const isFailure = (r: { ok: boolean; code?: string }, code: string) => !r.ok && r.code === code;

/** What a call's answer carries to the transitions below (the done event's output). */
type Answer = { event: { output: unknown } };
const failureOf = ({ event }: Answer) => event.output as ContractFailure;

/*
 * The outcomes every call on an open contract shares, written once: the platform answered 404
 * (the contract does not exist or is not the customer's), 409 (it changed meanwhile: told, read
 * again), or refused otherwise or did not answer (told; nothing changed).
 */
const NOT_FOUND = {
  guard: { type: 'isCode', params: ({ event }: Answer) => ({ result: failureOf({ event }), code: 'notFound' }) },
  target: '#contract.failed',
  actions: { type: 'storeLoadFailure', params: failureOf },
  description: 'The contract no longer exists or is not the customer’s (404).',
} as const;
const changedMeanwhile = (description: string) =>
  ({
    guard: { type: 'isCode', params: ({ event }: Answer) => ({ result: failureOf({ event }), code: 'conflict' }) },
    target: 'reloading',
    actions: { type: 'setError', params: { code: 'conflict', message: null } },
    description,
  }) as const;
const told = (description: string) =>
  ({
    target: 'idle',
    actions: { type: 'setError', params: (answer: Answer) => ({ code: failureOf(answer).code as ActionError['code'], message: failureOf(answer).message }) },
    description,
  }) as const;
const NO_ANSWER = { target: 'idle', actions: { type: 'setError', params: { code: 'network', message: null } }, description: 'The call failed without an answer.' } as const;

export const contractMachine = setup({
  types: {
    context: {} as ContractContext,
    events: {} as ContractEvent,
    input: {} as ContractInput,
  },
  actors: {
    loadContract: fromPromise<LoadContractResult, { contractId: number; fresh: boolean }>(async () => {
      throw new Error('loadContract is provided by the app');
    }),
    runAction: fromPromise<ActionResult, RunActionRequest>(async () => {
      throw new Error('runAction is provided by the app');
    }),
    startSigning: fromPromise<StartSigningResult, { contractId: number }>(async () => {
      throw new Error('startSigning is provided by the app');
    }),
    startIdentification: fromPromise<UrlResult, { contractId: number }>(async () => {
      throw new Error('startIdentification is provided by the app');
    }),
    getPdfUrl: fromPromise<UrlResult, { contractId: number }>(async () => {
      throw new Error('getPdfUrl is provided by the app');
    }),
  },
  guards: {
    isOk: (_, r: { ok: boolean }) => r.ok,
    isCode: (_, p: { result: { ok: boolean; code?: string }; code: string }) => isFailure(p.result, p.code),
    retryable: ({ context }) => context.loadFailure?.code !== 'notFound',
    isStatus: ({ context }, status: ContractStatus) => context.contract?.status === status,
    /** the shared rule (api/contracts.ts contractActions) allows the action now */
    mayDo: ({ context }, action: ContractAction) => actionsFor(context.contract, context.customerId, context.mayAct).includes(action),
    mayIdentify: ({ context }) => mayIdentify(context.contract, context.customerId, context.mayAct),
    noteInvalid: ({ context }) => context.pending === 'terminate' && (context.note.trim() === '' || context.note.trim().length > CONTRACT_NOTE_MAX),
  },
  actions: {
    storeContract: assign((_, contract: Contract) => ({ contract, loadFailure: null })),
    storeLoadFailure: assign((_, failure: ContractFailure) => ({ loadFailure: failure, error: null, pending: null })),
    askFor: assign((_, action: ConfirmAction) => ({ pending: action, note: '', noteError: null, error: null, pdfUrl: null })),
    setNote: assign((_, note: string) => ({ note, noteError: null })),
    showNoteError: assign(({ context }) => ({ noteError: context.note.trim() === '' ? ('missing' as const) : ('long' as const) })),
    clearPending: assign({ pending: null, note: '', noteError: null }),
    clearError: assign({ error: null, pdfUrl: null }),
    setError: assign((_, error: ActionError) => ({ error, pending: null })),
    setLeave: assign((_, leaveTo: { kind: 'sign' | 'identify'; url: string }) => ({ leaveTo })),
    setPdfUrl: assign((_, pdfUrl: string) => ({ pdfUrl })),
    announceChange: raise({ type: 'CONTRACT.CHANGED' }),
  },
}).createMachine({
  id: 'contract',
  description:
    'A party to a revenue-split contract reads it (parties, signers, obligations, percentage, dates, status, the split so far) and takes the actions its state allows: sign, cancel, reject, terminate with a note, withdraw a termination, terminate at once, identify the payer, open the PDF.',
  meta: { spec: ['document 3 §2', 'document 3 §3', 'document 3 §4', 'document 3 §7'] },
  context: ({ input }) => ({
    contractId: input.contractId,
    customerId: input.customerId,
    mayAct: input.mayAct,
    contract: null,
    loadFailure: null,
    pending: null,
    note: '',
    noteError: null,
    error: null,
    leaveTo: null,
    pdfUrl: null,
  }),
  initial: 'loading',
  states: {
    loading: {
      description: 'The contract is read (GET /contract/{id}) for the acting customer.',
      meta: { spec: ['document 3 §7'] },
      tags: ['busy'],
      invoke: {
        id: 'loadContract',
        src: 'loadContract',
        input: ({ context }) => ({ contractId: context.contractId, fresh: false }),
        onDone: [
          {
            guard: { type: 'isOk', params: ({ event }) => event.output },
            target: 'shown',
            actions: { type: 'storeContract', params: ({ event }) => (event.output as Extract<LoadContractResult, { ok: true }>).contract },
            description: 'The contract is one of the acting customer’s: it is shown.',
          },
          {
            target: 'failed',
            actions: { type: 'storeLoadFailure', params: ({ event }) => event.output as ContractFailure },
            description: 'The contract does not exist or is not the customer’s (404), the caller may not see it (403), or no answer came.',
          },
        ],
        onError: {
          target: 'failed',
          actions: { type: 'storeLoadFailure', params: { ok: false, code: 'network', message: null } },
          description: 'The call failed without an answer.',
        },
      },
    },
    failed: {
      description: 'The contract cannot be shown: unknown or not the customer’s (nothing more is revealed), refused, or no answer (the customer may try again).',
      on: {
        'LOAD.RETRY': { guard: 'retryable', target: 'loading', description: 'The customer tries reading the contract again (not offered for an unknown contract).' },
      },
    },
    shown: {
      type: 'parallel',
      description: 'The contract is shown with its status; the actions its status allows the acting customer are offered.',
      meta: { spec: ['document 3 §4'] },
      states: {
        status: {
          description: 'The platform’s status of the contract (document 3 §4), read again after every action.',
          initial: 'routing',
          on: {
            // re-entered (not '.routing': the Mermaid diagram cannot lay out an edge from a box into its own start)
            'CONTRACT.CHANGED': { target: '#contract.shown.status', reenter: true, description: 'The contract was read again: its status is followed anew.' },
          },
          states: {
            routing: {
              description: 'The status of the contract read last decides the state shown.',
              always: (Object.entries(STATUS_STATES) as [ContractStatus, string][]).map(([status, state]) => ({
                guard: { type: 'isStatus' as const, params: status },
                target: state,
                description: `The contract is ${status}.`,
              })),
            },
            unsigned: { description: 'Created and signed by neither side yet; it expires if not signed within the signing days.' },
            waiting: { description: 'One side has signed; the contract waits for the other side’s signature.' },
            signed: { description: 'Both sides signed and the payer is identified; the split starts on the active-from day.' },
            needIdentification: { description: 'Both sides signed; the payer’s signer is to be identified before the contract can take effect.' },
            active: { description: 'In force: the percentage of each covered incoming payment of the payer moves to the beneficiary.' },
            terminating: { description: 'A party asked to end it: it stays in force until the notice ends, unless withdrawn or ended at once.' },
            terminated: { description: 'Ended by termination; no more payments are split.' },
            expired: { description: 'Not signed by both sides within the signing days; it never took effect.' },
            cancelled: { description: 'Cancelled by its initiator before it took effect.' },
            rejected: { description: 'Rejected by the other party before signing.' },
          },
        },
        action: {
          description: 'What the customer is doing with the contract now.',
          initial: 'idle',
          states: {
            idle: {
              description: 'The customer reads the contract; the allowed actions are offered (with the last action’s outcome, if any).',
              on: {
                ASK: {
                  guard: { type: 'mayDo', params: ({ event }) => event.action },
                  target: 'confirming',
                  actions: { type: 'askFor', params: ({ event }) => event.action },
                  description:
                    'The customer chooses cancel, reject, terminate, withdraw the termination or terminate now, where the shared rules allow it: a dialog asks to confirm.',
                },
                SIGN: {
                  guard: { type: 'mayDo', params: 'sign' },
                  target: 'signing',
                  actions: 'clearError',
                  description: 'The customer signs their side: whether they may sign is checked, then the e-signature page is opened.',
                },
                IDENTIFY: {
                  guard: 'mayIdentify',
                  target: 'identifying',
                  actions: 'clearError',
                  description: 'The payer starts the identification of its signer.',
                },
                PDF: { target: 'pdfLoading', actions: 'clearError', description: 'The customer asks for the contract’s PDF (the signed one once both signed).' },
              },
            },
            confirming: {
              description: 'A dialog asks the customer to confirm the chosen action (termination: with a note saying why).',
              on: {
                'NOTE.CHANGE': { actions: { type: 'setNote', params: ({ event }) => event.note }, description: 'The customer writes why the contract is terminated.' },
                CONFIRM: [
                  { guard: 'noteInvalid', actions: 'showNoteError', description: 'A termination without a note, or with one too long: the customer is told and nothing is sent.' },
                  { target: 'working', description: 'The customer confirms: the action is sent.' },
                ],
                DISMISS: { target: 'idle', actions: 'clearPending', description: 'The customer keeps the contract as it is.' },
              },
            },
            working: {
              description: 'The action is sent to the platform (POST /contract/{id}/cancel, reject, terminate, terminateCancel or terminateNow).',
              meta: { spec: ['document 3 §7'] },
              tags: ['busy'],
              invoke: {
                id: 'runAction',
                src: 'runAction',
                input: ({ context }) => ({ contractId: context.contractId, action: context.pending!, note: context.pending === 'terminate' ? context.note.trim() : null }),
                onDone: [
                  {
                    guard: { type: 'isOk', params: ({ event }) => event.output },
                    target: 'reloading',
                    actions: 'clearPending',
                    description: 'Done: the contract is read again.',
                  },
                  NOT_FOUND,
                  changedMeanwhile('The contract changed meanwhile and the action no longer applies (409): the customer is told and it is read again.'),
                  told('Refused (403: the caller may not) or no answer: the customer is told; nothing changed.'),
                ],
                onError: NO_ANSWER,
              },
            },
            signing: {
              description: 'Whether the customer may sign is checked (GET checkSigner), then the e-signature link is asked for (GET signUrl).',
              meta: { spec: ['document 3 §4', 'document 3 §7'] },
              tags: ['busy'],
              invoke: {
                id: 'startSigning',
                src: 'startSigning',
                input: ({ context }) => ({ contractId: context.contractId }),
                onDone: [
                  {
                    guard: { type: 'isOk', params: ({ event }) => event.output },
                    target: 'leaving',
                    actions: { type: 'setLeave', params: ({ event }) => ({ kind: 'sign' as const, url: (event.output as { url: string }).url }) },
                    description: 'The customer may sign: the e-signature page opens (it returns to the contract once signed).',
                  },
                  NOT_FOUND,
                  changedMeanwhile('The contract changed meanwhile (409): the customer is told and it is read again.'),
                  told('The customer may not sign (canSign false), was refused, or no answer came: they are told.'),
                ],
                onError: NO_ANSWER,
              },
            },
            identifying: {
              description: 'The identity check’s link is asked for (POST split-pay-signer-identification) and the start is recorded (POST identificationStarted).',
              meta: { spec: ['document 3 §7'] },
              tags: ['busy'],
              invoke: {
                id: 'startIdentification',
                src: 'startIdentification',
                input: ({ context }) => ({ contractId: context.contractId }),
                onDone: [
                  {
                    guard: { type: 'isOk', params: ({ event }) => event.output },
                    target: 'leaving',
                    actions: { type: 'setLeave', params: ({ event }) => ({ kind: 'identify' as const, url: (event.output as { url: string }).url }) },
                    description: 'The identity check opens.',
                  },
                  NOT_FOUND,
                  changedMeanwhile('The contract changed meanwhile (409): the customer is told and it is read again.'),
                  told('Refused or no answer: the customer is told.'),
                ],
                onError: NO_ANSWER,
              },
            },
            pdfLoading: {
              description: 'A short-lived link to the contract’s PDF is asked for (GET pdfUrl).',
              meta: { spec: ['document 3 §7'] },
              tags: ['busy'],
              invoke: {
                id: 'getPdfUrl',
                src: 'getPdfUrl',
                input: ({ context }) => ({ contractId: context.contractId }),
                onDone: [
                  {
                    guard: { type: 'isOk', params: ({ event }) => event.output },
                    target: 'idle',
                    actions: { type: 'setPdfUrl', params: ({ event }) => (event.output as { url: string }).url },
                    description: 'The link is ready: the customer opens the PDF from it.',
                  },
                  NOT_FOUND,
                  told('Refused or no answer: the customer is told.'),
                ],
                onError: NO_ANSWER,
              },
            },
            reloading: {
              description: 'The contract is read again after an action (the lists and counts are read again too).',
              meta: { spec: ['document 3 §7'] },
              tags: ['busy'],
              invoke: {
                id: 'reloadContract',
                src: 'loadContract',
                input: ({ context }) => ({ contractId: context.contractId, fresh: true }),
                onDone: [
                  {
                    guard: { type: 'isOk', params: ({ event }) => event.output },
                    target: 'idle',
                    actions: [{ type: 'storeContract', params: ({ event }) => (event.output as Extract<LoadContractResult, { ok: true }>).contract }, 'announceChange'],
                    description: 'The contract as it is now is shown, with its new status and actions.',
                  },
                  NOT_FOUND,
                  told('The contract could not be read again: the customer is told; the page shows it as it was.'),
                ],
                onError: NO_ANSWER,
              },
            },
            leaving: {
              type: 'final',
              description: 'The browser goes to the e-signature page (it returns to the contract once signed) or to the identity check.',
            },
          },
        },
      },
    },
  },
});

export type ContractMachine = typeof contractMachine;
