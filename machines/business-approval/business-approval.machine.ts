/**
 * A checker decides on a company's waiting payments (document 2 §4 "Business approvals", §7;
 * issue 17 item 6; the platform's rules in api/business-approvals.ts): the payments chosen on
 * /transfer/approved, or one mass batch, are declined at once, or approved with the checker's OWN
 * approval by the company's approval mode, which the one approval chart (machines/approval) runs
 * as a child: its code goes to businessApprovalConfirm (the app provides the actors).
 *
 * ```
 * idle ─DECISION.START─▶ deciding ─declined / approved─▶ done ─DECISION.RESET─▶ idle
 *   ▲                       ├─ approvalNeeded ─▶ approving (approval chart) ─approved─▶ done
 *   │                       │                        ├─ canceled (given up) ─▶ idle (notice)
 *   │                       │                        └─ failed / expired ─▶ failed ─DECISION.RESET─▶ idle
 *   └── refused (VF, 13, TA1) or no answer (same key kept for the same decision) ◀┘
 * ```
 *
 * Money moves on a decision, so each decision carries an idempotency key: made when the decision
 * starts, sent again when the same decision is retried after no answer, forgotten once answered.
 * No user-visible strings: errors are codes, the platform's refusals kept as data.
 */
import { assign, fromPromise, setup } from 'xstate';
import type { Failure } from '../../api/envelope.ts';
import type { ApproveType } from '../../api/transfers.ts';
import { approvalMachine, type ApprovalMode, type ApprovalOutput } from '../approval/approval.machine.ts';
import { newIdempotencyKey } from '../approval/idempotency-key.ts';

/** What a decision names: payments by their transfer ids, or one mass batch as a whole. */
export type DecisionTarget = { transactionIds: readonly number[] } | { batchId: number };

export interface DecisionAnswer {
  status: 'declined' | 'approved' | 'approvalNeeded';
  approvalId: number | null;
  approveType: ApproveType;
  approvalSentTo: string | null;
  transactionIds: number[];
  expiresAt: string | null;
}

export type DecideResult = { ok: true; answer: DecisionAnswer } | { ok: false; code: 'network' } | { ok: false; code: 'failed'; failure: Failure };

export type BusinessDecisionEvent = { type: 'DECISION.START'; target: DecisionTarget; declined: boolean } | { type: 'DECISION.RESET' };

export interface BusinessDecisionContext {
  target: DecisionTarget | null;
  declined: boolean;
  /** the decision's key: kept while the same decision may be retried after no answer */
  key: string | null;
  answer: DecisionAnswer | null;
  /** the platform's refusal of the decision, shown as it is */
  failure: Failure | null;
  error: 'network' | null;
  /** how the checker's own approval ended when it did not approve */
  outcome: Extract<ApprovalOutput, { result: 'failed' }> | null;
  notice: 'approvalCanceled' | null;
}

const sameTarget = (a: DecisionTarget | null, b: DecisionTarget) =>
  a !== null && ('batchId' in a ? 'batchId' in b && a.batchId === b.batchId : 'transactionIds' in b && a.transactionIds.join(',') === b.transactionIds.join(','));

export const businessDecisionMachine = setup({
  types: {
    context: {} as BusinessDecisionContext,
    events: {} as BusinessDecisionEvent,
  },
  actors: {
    /** businessTransactionRequestApprove or businessMassApprove with the decision's key */
    decide: fromPromise<DecideResult, { target: DecisionTarget; declined: boolean; idempotencyKey: string }>(async () => ({ ok: false, code: 'network' })),
    approval: approvalMachine,
  },
  guards: {
    needsApproval: (_, r: DecideResult) => r.ok && r.answer.status === 'approvalNeeded',
    isOk: (_, r: DecideResult) => r.ok,
    isNetwork: (_, r: DecideResult) => !r.ok && r.code === 'network',
    hasTarget: (_, target: DecisionTarget) => ('batchId' in target ? true : target.transactionIds.length > 0),
    approvalApproved: (_, o: ApprovalOutput) => o.result === 'approved',
    approvalCanceled: (_, o: ApprovalOutput) => o.result === 'canceled',
  },
  actions: {
    start: assign(({ context }, e: { target: DecisionTarget; declined: boolean }) => ({
      // the same decision retried after no answer keeps its key: it can never be made twice
      key: context.key !== null && context.declined === e.declined && sameTarget(context.target, e.target) ? context.key : newIdempotencyKey(),
      target: e.target,
      declined: e.declined,
      failure: null,
      error: null,
      notice: null,
      outcome: null,
    })),
    storeAnswer: assign((_, answer: DecisionAnswer) => ({ answer, key: null })),
    storeFailure: assign((_, failure: Failure) => ({ failure, key: null })),
    markNetwork: assign({ error: 'network' as const }),
    storeOutcome: assign((_, o: ApprovalOutput) => ({ outcome: o.result === 'failed' ? o : null })),
    noteCanceled: assign({ notice: 'approvalCanceled' as const, answer: null }),
    reset: assign({ target: null, key: null, answer: null, failure: null, error: null, outcome: null, notice: null }),
  },
}).createMachine({
  id: 'businessDecision',
  description: "A checker declines a company's waiting payments at once, or approves them with their own approval, after which they post.",
  // document 2 §4 Business approvals, §7 the approval calls; document 1 §4 access rights
  meta: { spec: ['document 2 §4', 'document 2 §7', 'document 1 §4'] },
  context: { target: null, declined: false, key: null, answer: null, failure: null, error: null, outcome: null, notice: null },
  initial: 'idle',
  states: {
    idle: {
      description: 'The checker chooses payments (or a batch) and whether to approve or decline them.',
      on: {
        'DECISION.START': {
          guard: { type: 'hasTarget', params: ({ event }) => event.target },
          target: 'deciding',
          actions: { type: 'start', params: ({ event }) => ({ target: event.target, declined: event.declined }) },
          description: 'The checker approves or declines what they chose; nothing is sent without a payment chosen.',
        },
      },
    },
    deciding: {
      description: 'The platform declines the payments, or approves them (no approval mode), or starts the checker’s own approval.',
      tags: ['busy'],
      invoke: {
        id: 'decide',
        src: 'decide',
        input: ({ context }) => ({ target: context.target!, declined: context.declined, idempotencyKey: context.key! }),
        onDone: [
          {
            guard: { type: 'needsApproval', params: ({ event }) => event.output },
            target: 'approving',
            actions: { type: 'storeAnswer', params: ({ event }) => (event.output.ok ? event.output.answer : null!) },
            description: 'The company has an approval mode: the checker approves with their own code before anything posts.',
          },
          {
            guard: { type: 'isOk', params: ({ event }) => event.output },
            target: 'done',
            actions: { type: 'storeAnswer', params: ({ event }) => (event.output.ok ? event.output.answer : null!) },
            description: 'Declined (holds released), or approved and posted with no approval mode.',
          },
          {
            guard: { type: 'isNetwork', params: ({ event }) => event.output },
            target: 'idle',
            actions: 'markNetwork',
            description: 'No answer came; the same decision sent again keeps its key and cannot be made twice.',
          },
          {
            target: 'idle',
            actions: { type: 'storeFailure', params: ({ event }) => (!event.output.ok && event.output.code === 'failed' ? event.output.failure : { responseCode: 'UE' }) },
            description: "The platform refused the decision (already decided, expired, the checker's own payment, no right); nothing changed and its words are shown.",
          },
        ],
        onError: { target: 'idle', actions: 'markNetwork', description: 'The call failed without an answer; the checker may send the same decision again.' },
      },
    },
    approving: {
      description: 'The checker approves with their own approval mode (the one approval chart); the payments post once it is confirmed.',
      meta: { spec: ['document 2 §7'] }, // Business approval confirm
      invoke: {
        id: 'approval',
        src: 'approval',
        input: ({ context }) => ({
          transactionId: context.answer!.approvalId!,
          approveType: context.answer!.approveType as ApprovalMode,
          approvalSentTo: context.answer!.approvalSentTo,
          expiresAt: context.answer!.expiresAt ?? new Date(Date.now() + 15 * 60_000).toISOString(),
        }),
        onDone: [
          {
            guard: { type: 'approvalApproved', params: ({ event }) => event.output },
            target: 'done',
            description: 'The checker’s code was right: the payments are approved and posted.',
          },
          {
            guard: { type: 'approvalCanceled', params: ({ event }) => event.output },
            target: 'idle',
            actions: 'noteCanceled',
            description: 'The checker gave up their approval: the payments keep waiting, nothing changed.',
          },
          {
            target: 'failed',
            actions: { type: 'storeOutcome', params: ({ event }) => event.output },
            description: 'The approval ran out or was refused (too many wrong codes, already decided): the reason is kept to show.',
          },
        ],
      },
    },
    done: {
      description: 'The decision is made: declined, or approved and posted.',
      on: { 'DECISION.RESET': { target: 'idle', actions: 'reset', description: 'The checker goes back to the list for another decision.' } },
    },
    failed: {
      description: 'The checker’s approval did not complete; the payments were not approved.',
      on: { 'DECISION.RESET': { target: 'idle', actions: 'reset', description: 'The checker goes back to the list.' } },
    },
  },
});

export type BusinessDecisionMachine = typeof businessDecisionMachine;
