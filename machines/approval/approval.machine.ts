/**
 * Approving a transfer (document 2 §4 "Approval modes", §8 error catalogue). Every transfer kind
 * uses it: the transfer machine invokes it as a child after a request answered with an approval
 * type other than none, and reads its output.
 *
 * ```
 * active (parallel) ─after untilExpiry─▶ failed (expired)
 *   step:  routing ─push─▶ waitingForPhone ─TRANSFER.SETTLED posted─▶ approved (final)
 *            │                   ├─ rejected / expired ─▶ failed (final) · canceled ─▶ canceled (final)
 *            └─sms/otp/approvalCode─▶ enteringCode ─CODE.SUBMIT (well formed)─▶ verifying
 *                                        ▲                                         ├─ posted ─▶ approved
 *                                        ├──── wrong code (VF approvalCode) ───────┤
 *                                        ├──── network (same code keeps its key) ──┤
 *                                        │                                         └─ refused / other status ─▶ failed
 *          enteringCode, waitingForPhone ─APPROVAL.CANCEL─▶ canceling ─ok─▶ canceled · failed ─▶ routing (error)
 *   resend: deciding ─sms/push─▶ cooling ─after resendCooldown─▶ ready ─APPROVAL.RESEND─▶ sending ─ok─▶ cooling
 *             └─otp/approvalCode─▶ unavailable                            (failed ─▶ ready, error)
 * ```
 *
 * Codes: 6 digits for sms and otp, the customer's approval code (4-32 letters and digits) for
 * approvalCode. Push waits for the phone: the watchTransfer actor listens to the customer's live
 * channel and also polls transferStatus slowly (a socket can drop), and reports a settled status
 * as TRANSFER.SETTLED. Resend (sms, push) is held back for RESEND_COOLDOWN_MS after each send;
 * the view counts down (context.sends tells it a new send happened).
 *
 * Money-moving calls carry an idempotency key: one per code attempt (a retry of the same code
 * after a network failure sends the same key; another code gets a new one) and one for the
 * cancel until it gets an answer. Errors are codes; the platform's own descriptions are kept as
 * data for the view (document 2 §8: the description is shown and returned to the caller).
 */
import { assign, fromCallback, fromPromise, or, setup, stateIn } from 'xstate';
import type { Failure } from '../../api/envelope.ts';
import type { ApproveType, TransferStatus } from '../../api/transfers.ts';
import { newIdempotencyKey } from './idempotency-key.ts';

export type ApprovalMode = Exclude<ApproveType, 'none'>;

export interface ApprovalInput {
  transactionId: number;
  approveType: ApprovalMode;
  /** where the code went (a masked phone for sms), null when nothing was sent */
  approvalSentTo: string | null;
  /** ISO time the pending transfer expires */
  expiresAt: string;
}

/** After a send (the transfer request's, or a resend) the next resend waits this long. */
export const RESEND_COOLDOWN_MS = 30_000;
/** setTimeout holds at most 2^31-1 ms; a later expiry is waited for in that step. */
const MAX_TIMER_MS = 2_147_483_647;

export type ApproveResult =
  | { ok: true; status: TransferStatus }
  /** VF on approvalCode: the code is not right (the description may say how many tries are left) */
  | { ok: false; code: 'wrongCode'; description: string | null }
  | { ok: false; code: 'network' }
  /** any other refusal: the approval is over (attempts exhausted, expired, not pending) */
  | { ok: false; code: 'failed'; failure: Failure };
export type ResendResult = { ok: true; approvalSentTo: string | null } | { ok: false; code: 'network' } | { ok: false; code: 'failed'; failure: Failure };
export type CancelResult = { ok: true; status: TransferStatus } | { ok: false; code: 'network' } | { ok: false; code: 'failed'; failure: Failure };

export type ApprovalErrorCode = 'codeFormat' | 'wrongCode' | 'network' | 'resendFailed' | 'cancelFailed';

export type ApprovalOutput =
  /**
   * posted: the money has moved; processing: a payout approved and on its way over its rail;
   * pending: approved by its initiator, it now waits for a second user of the company (maker-checker,
   * api/business-approvals.ts), the money held
   */
  | { result: 'approved'; status: 'posted' | 'processing' | 'pending' }
  | { result: 'canceled' }
  /** rejected: declined on the phone (or refused by the platform); failed: the failure says why */
  | { result: 'failed'; reason: 'rejected' | 'expired' | 'failed'; failure: Failure | null };

export type ApprovalEvent =
  | { type: 'CODE.SUBMIT'; code: string }
  | { type: 'APPROVAL.RESEND' }
  | { type: 'APPROVAL.CANCEL' }
  /** from watchTransfer: the transfer's status changed (pending is ignored) */
  | { type: 'TRANSFER.SETTLED'; status: TransferStatus };

export interface ApprovalContext extends ApprovalInput {
  /** the code being approved and its key: sending the same code again reuses the key */
  attempt: { code: string; key: string } | null;
  /** the cancel's key, kept until the cancel gets an answer */
  cancelKey: string | null;
  error: ApprovalErrorCode | null;
  /** the platform's description of the error, shown as it is */
  errorText: string | null;
  /** how many times a code or request was sent (the first by the transfer request) */
  sends: number;
  ending: ApprovalOutput | null;
}

const isWellFormed = (mode: ApprovalMode, code: string) => (mode === 'approvalCode' ? /^[A-Za-z0-9]{4,32}$/.test(code) : /^\d{6}$/.test(code));

function endingOf(status: TransferStatus, failure: Failure | null = null): ApprovalOutput {
  if (status === 'posted' || status === 'processing') return { result: 'approved', status };
  if (status === 'canceled') return { result: 'canceled' };
  return { result: 'failed', reason: status === 'rejected' ? 'rejected' : status === 'expired' ? 'expired' : 'failed', failure };
}

export const approvalMachine = setup({
  types: {
    context: {} as ApprovalContext,
    events: {} as ApprovalEvent,
    input: {} as ApprovalInput,
    output: {} as ApprovalOutput,
  },
  actors: {
    /** approveTransfer {trxid, approvalCode} with the attempt's idempotency key */
    approveTransfer: fromPromise<ApproveResult, { transactionId: number; code: string; idempotencyKey: string }>(async () => ({ ok: false, code: 'network' })),
    /** resendApproval {trxid} */
    resendApproval: fromPromise<ResendResult, { transactionId: number }>(async () => ({ ok: false, code: 'network' })),
    /** transferCancel {trxid} with the cancel's idempotency key */
    cancelTransfer: fromPromise<CancelResult, { transactionId: number; idempotencyKey: string }>(async () => ({ ok: false, code: 'network' })),
    /** The live channel plus a slow transferStatus poll: sends TRANSFER.SETTLED. The app provides it; this one never answers. */
    watchTransfer: fromCallback<ApprovalEvent, { transactionId: number }>(() => () => undefined),
  },
  delays: {
    resendCooldown: RESEND_COOLDOWN_MS,
    untilExpiry: ({ context }) => {
      const ms = Date.parse(context.expiresAt) - Date.now();
      return Number.isNaN(ms) ? MAX_TIMER_MS : Math.min(Math.max(ms, 0), MAX_TIMER_MS);
    },
  },
  guards: {
    isPush: ({ context }) => context.approveType === 'push',
    canResendMode: ({ context }) => context.approveType === 'sms' || context.approveType === 'push',
    isWellFormed: ({ context }, code: string) => isWellFormed(context.approveType, code),
    /** posted, or (a payout) processing: approved, the money on its way */
    isApproved: (_, r: ApproveResult | CancelResult) => r.ok && r.status === 'posted',
    /** the platform answered with a final status other than posted */
    isOver: (_, r: ApproveResult) => r.ok && r.status !== 'pending',
    /** the code was right and the platform answered pending: a company's payment now waits for its checker */
    isAwaitingChecker: (_, r: ApproveResult) => r.ok && r.status === 'pending',
    isWrongCode: (_, r: ApproveResult) => !r.ok && r.code === 'wrongCode',
    isNetwork: (_, r: { ok: boolean; code?: string }) => !r.ok && r.code === 'network',
    isOk: (_, r: { ok: boolean }) => r.ok,
    isFinalStatus: (_, status: TransferStatus) => status !== 'pending',
    endsApproved: ({ context }) => context.ending?.result === 'approved',
    endsCanceled: ({ context }) => context.ending?.result === 'canceled',
  },
  actions: {
    startAttempt: assign(({ context }, code: string) => ({
      attempt: context.attempt?.code === code ? context.attempt : { code, key: newIdempotencyKey() },
      error: null,
      errorText: null,
    })),
    forgetAttempt: assign({ attempt: null }),
    startCancel: assign(({ context }) => ({ cancelKey: context.cancelKey ?? newIdempotencyKey(), error: null, errorText: null })),
    forgetCancel: assign({ cancelKey: null }),
    setError: assign((_, p: { code: ApprovalErrorCode; text?: string | null }) => ({ error: p.code, errorText: p.text ?? null })),
    clearError: assign({ error: null, errorText: null }),
    countSend: assign(({ context }, approvalSentTo: string | null) => ({
      sends: context.sends + 1,
      approvalSentTo: approvalSentTo ?? context.approvalSentTo,
      error: null,
      errorText: null,
    })),
    end: assign((_, ending: ApprovalOutput) => ({ ending })),
  },
}).createMachine({
  id: 'approval',
  description: 'A requested transfer waits for the customer to approve it by the current approval mode (a code by sms, otp or approval code, or on the linked phone), until it expires.',
  meta: { spec: ['document 2 §4', 'document 2 §7', 'document 2 §8'] },
  context: ({ input }) => ({
    ...input,
    attempt: null,
    cancelKey: null,
    error: null,
    errorText: null,
    sends: input.approveType === 'sms' || input.approveType === 'push' ? 1 : 0,
    ending: null,
  }),
  initial: 'active',
  output: ({ context }) => context.ending ?? { result: 'failed', reason: 'failed', failure: null },
  states: {
    active: {
      description: 'The transfer is pending approval: the customer approves (or cancels) it, and may ask for the code or request again.',
      type: 'parallel',
      after: {
        untilExpiry: {
          target: 'failed',
          actions: { type: 'end', params: { result: 'failed', reason: 'expired', failure: null } },
          description: 'The pending transfer reached its expiry time without being approved; it has expired.',
        },
      },
      states: {
        step: {
          description: 'What the customer does to approve the transfer.',
          initial: 'routing',
          states: {
            routing: {
              description: 'Choosing the approval step by the approval mode.',
              always: [
                { guard: 'isPush', target: 'waitingForPhone', description: 'The mode is push: the customer approves on the linked phone.' },
                { target: 'enteringCode', description: 'The mode is sms, otp or approval code: the customer types a code.' },
              ],
            },
            enteringCode: {
              description: 'The customer types the code (6 digits by sms or otp, or their own approval code).',
              on: {
                'CODE.SUBMIT': [
                  {
                    guard: { type: 'isWellFormed', params: ({ event }) => event.code },
                    target: 'verifying',
                    actions: { type: 'startAttempt', params: ({ event }) => event.code },
                    description: 'The code has the shape the mode needs; it is sent to approve the transfer.',
                  },
                  { actions: { type: 'setError', params: { code: 'codeFormat' } }, description: 'The code does not have the shape the mode needs; the customer is told and nothing is sent.' },
                ],
                'APPROVAL.CANCEL': { target: 'canceling', actions: 'startCancel', description: 'The customer cancels the pending transfer instead of approving it.' },
              },
            },
            verifying: {
              description: 'The platform is checking the code and approving the transfer; the customer waits.',
              tags: ['busy'],
              invoke: {
                id: 'approveTransfer',
                src: 'approveTransfer',
                input: ({ context }) => ({ transactionId: context.transactionId, code: context.attempt!.code, idempotencyKey: context.attempt!.key }),
                onDone: [
                  {
                    guard: { type: 'isApproved', params: ({ event }) => event.output },
                    target: '#approval.approved',
                    actions: { type: 'end', params: ({ event }) => endingOf(event.output.ok ? event.output.status : 'rejected') },
                    description: 'The code is right and the transfer is posted (a payout: sent on its way).',
                  },
                  {
                    guard: { type: 'isOver', params: ({ event }) => event.output },
                    target: '#approval.ending',
                    actions: { type: 'end', params: ({ event }) => endingOf(event.output.ok ? event.output.status : 'rejected') },
                    description: 'The platform answered that the transfer is already settled otherwise (rejected, expired, canceled or failed).',
                  },
                  {
                    guard: { type: 'isAwaitingChecker', params: ({ event }) => event.output },
                    target: '#approval.approved',
                    actions: { type: 'end', params: { result: 'approved', status: 'pending' } },
                    description: 'The code is right and the payment, initiated for a company by a user who may only initiate, now waits for another user of the company to approve it (maker-checker); the money stays held.',
                  },
                  // A wrong code: the user types another one (which gets a key of its own).
                  {
                    guard: { type: 'isWrongCode', params: ({ event }) => event.output },
                    target: 'enteringCode',
                    actions: [
                      'forgetAttempt',
                      {
                        type: 'setError',
                        params: ({ event }) => ({ code: 'wrongCode', text: !event.output.ok && event.output.code === 'wrongCode' ? event.output.description : null }),
                      },
                    ],
                    description: "The code is wrong; the platform's words (which may say how many tries are left) are shown and the customer types another.",
                  },
                  // No answer: the same code may be sent again, with the same key.
                  {
                    guard: { type: 'isNetwork', params: ({ event }) => event.output },
                    target: 'enteringCode',
                    actions: { type: 'setError', params: { code: 'network' } },
                    description: 'No answer came; the customer may send the same code again without approving twice.',
                  },
                  {
                    target: '#approval.failed',
                    actions: {
                      type: 'end',
                      params: ({ event }) => ({
                        result: 'failed',
                        reason: 'failed',
                        failure: !event.output.ok && event.output.code === 'failed' ? event.output.failure : null,
                      }),
                    },
                    description: "The platform refused the approval for good (tries used up, expired, not pending); its words are kept to show.",
                  },
                ],
                onError: {
                  target: 'enteringCode',
                  actions: { type: 'setError', params: { code: 'network' } },
                  description: 'The call failed without an answer; the customer may send the same code again.',
                },
              },
            },
            waitingForPhone: {
              description: 'The customer approves or declines the transfer on the linked phone; the page waits for the outcome.',
              meta: { spec: ['document 3 §7'] },
              invoke: { id: 'watchTransfer', src: 'watchTransfer', input: ({ context }) => ({ transactionId: context.transactionId }) },
              on: {
                'TRANSFER.SETTLED': {
                  guard: { type: 'isFinalStatus', params: ({ event }) => event.status },
                  target: '#approval.ending',
                  actions: { type: 'end', params: ({ event }) => endingOf(event.status) },
                  description: 'The transfer settled (approved, declined on the phone, expired or canceled); a still-pending status is ignored.',
                },
                'APPROVAL.CANCEL': { target: 'canceling', actions: 'startCancel', description: 'The customer cancels the pending transfer instead of approving it.' },
              },
            },
            canceling: {
              description: 'The platform is canceling the pending transfer; the customer waits.',
              tags: ['busy'],
              invoke: {
                id: 'cancelTransfer',
                src: 'cancelTransfer',
                input: ({ context }) => ({ transactionId: context.transactionId, idempotencyKey: context.cancelKey! }),
                onDone: [
                  // Too late: it was approved meanwhile.
                  {
                    guard: { type: 'isApproved', params: ({ event }) => event.output },
                    target: '#approval.approved',
                    actions: { type: 'end', params: ({ event }) => endingOf(event.output.ok ? event.output.status : 'canceled') },
                    description: 'Too late to cancel: the transfer was approved meanwhile and is posted (a payout: sent on its way).',
                  },
                  {
                    guard: { type: 'isOk', params: ({ event }) => event.output },
                    target: '#approval.ending',
                    actions: { type: 'end', params: ({ event }) => endingOf(event.output.ok ? event.output.status : 'canceled') },
                    description: 'The platform answered with the transfer\'s settled status (canceled, or otherwise ended).',
                  },
                  // No answer: cancelling again sends the same key.
                  {
                    guard: { type: 'isNetwork', params: ({ event }) => event.output },
                    target: 'routing',
                    actions: { type: 'setError', params: { code: 'network' } },
                    description: 'No answer came; the customer is back on the approval step and canceling again cannot cancel twice.',
                  },
                  {
                    target: 'routing',
                    actions: [
                      'forgetCancel',
                      {
                        type: 'setError',
                        params: ({ event }) => ({
                          code: 'cancelFailed',
                          text: !event.output.ok && event.output.code === 'failed' ? (event.output.failure.responseDescription ?? null) : null,
                        }),
                      },
                    ],
                    description: "The platform refused to cancel; its words are shown and the transfer still waits for approval.",
                  },
                ],
                onError: {
                  target: 'routing',
                  actions: { type: 'setError', params: { code: 'network' } },
                  description: 'The call failed without an answer; the customer is back on the approval step.',
                },
              },
            },
          },
        },
        resend: {
          description: 'Whether the customer may ask for the code or the phone request to be sent again.',
          meta: { spec: ['document 2 §4'] },
          initial: 'deciding',
          states: {
            deciding: {
              description: 'Checking whether the approval mode allows sending again.',
              always: [
                { guard: 'canResendMode', target: 'cooling', description: 'The mode is sms or push: sending again is possible after a wait.' },
                { target: 'unavailable', description: 'The mode is otp or approval code: there is nothing to send again.' },
              ],
            },
            unavailable: { description: 'Sending again is not offered: the customer has the code already (otp app or own approval code).' },
            cooling: {
              description: 'A code or request was just sent; sending again is held back for 30 seconds.',
              after: { resendCooldown: { target: 'ready', description: 'The 30-second wait is over; the customer may send again.' } },
            },
            ready: {
              description: 'The customer may ask for the code or the phone request to be sent again.',
              on: {
                // A resend makes sense only while the user waits for a code or for the phone.
                'APPROVAL.RESEND': {
                  guard: or([stateIn('#approval.active.step.enteringCode'), stateIn('#approval.active.step.waitingForPhone')]),
                  target: 'sending',
                  description: 'The customer asks to send again while waiting for a code or for the phone; ignored while a call is under way.',
                },
              },
            },
            sending: {
              description: 'The code or the phone request is being sent again.',
              tags: ['resending'],
              invoke: {
                id: 'resendApproval',
                src: 'resendApproval',
                input: ({ context }) => ({ transactionId: context.transactionId }),
                onDone: [
                  {
                    guard: { type: 'isOk', params: ({ event }) => event.output },
                    target: 'cooling',
                    actions: { type: 'countSend', params: ({ event }) => (event.output.ok ? event.output.approvalSentTo : null) },
                    description: 'It was sent again; the customer is told and the next send waits 30 seconds.',
                  },
                  {
                    guard: { type: 'isNetwork', params: ({ event }) => event.output },
                    target: 'ready',
                    actions: { type: 'setError', params: { code: 'network' } },
                    description: 'No answer came; the customer may try sending again.',
                  },
                  {
                    target: 'ready',
                    actions: {
                      type: 'setError',
                      params: ({ event }) => ({
                        code: 'resendFailed',
                        text: !event.output.ok && event.output.code === 'failed' ? (event.output.failure.responseDescription ?? null) : null,
                      }),
                    },
                    description: "The platform refused to send again; its words are shown.",
                  },
                ],
                onError: {
                  target: 'ready',
                  actions: { type: 'setError', params: { code: 'network' } },
                  description: 'The call failed without an answer; the customer may try sending again.',
                },
              },
            },
          },
        },
      },
    },
    /** Sorts a settled status into its final state (the output is already in context.ending). */
    ending: {
      description: 'The transfer has settled; its outcome is sorted into approved, canceled or failed.',
      always: [
        { guard: 'endsApproved', target: 'approved', description: 'The transfer was posted.' },
        { guard: 'endsCanceled', target: 'canceled', description: 'The transfer was canceled.' },
        { target: 'failed', description: 'The transfer was declined, expired or failed.' },
      ],
    },
    approved: { type: 'final', description: 'The transfer is approved and posted.' },
    failed: { type: 'final', description: 'The transfer was not approved: declined on the phone, refused, expired or failed.' },
    canceled: { type: 'final', description: 'The customer canceled the transfer before it was approved.' },
  },
});

export type ApprovalMachine = typeof approvalMachine;
