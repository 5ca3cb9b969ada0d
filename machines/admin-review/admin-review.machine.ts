/**
 * The administrator's decision on one item of the review queue (document 1 §6; issue 5 item 4):
 * - an uploaded document: confirm, reject with a reason, name mismatch (with a reason), mark
 *   expired, or under investigation (adminDocumentDecide);
 * - a pending identity-verification or video identity job of the built-in provider: approve, or
 *   reject with a reason (adminIdentityJobDecide);
 * - a personal-data account recovery whose identity document and selfie arrived: approve (a code
 *   goes to the new address), reject with a reason allowing a new request, or reject with a reason
 *   for good (adminRecoveryTaskDecide, isRetryable true or false).
 * The target's kind decides which decisions may be chosen (a decision of the other kind is ignored).
 *
 * ```
 * choosing ─DECISION.CHOOSE [needs a reason: reject, nameMismatch]─▶ reasoning
 *          ─DECISION.CHOOSE [otherwise]─▶ confirming
 * reasoning ─REASON.SUBMIT [1 to 500 characters]─▶ confirming
 *           ─REASON.SUBMIT [otherwise]─▶ reasoning (the error on the reason)
 *           ─BACK─▶ choosing
 * confirming ─SUBMIT─▶ deciding ; ─BACK─▶ reasoning [needs a reason] or choosing
 * deciding ─ok─▶ done
 *          ─VF on reason─▶ reasoning (the platform's words on the field)
 *          ─refused / no answer─▶ failed ─RETRY─▶ deciding ; ─BACK─▶ confirming
 * CANCEL from choosing, reasoning, confirming and failed ─▶ canceled
 * ```
 *
 * No CANCEL while deciding: the platform may have recorded the decision; its answer (bounded by
 * the request time-out) says whether it did. The reason is shown to the customer, so it is asked
 * before the confirmation step, and the confirmation repeats it.
 * Pure: `decide` (the call for the target's kind) is provided by the app; expected failures are `{ ok: false, code }`.
 */
import { assign, fromPromise, setup } from 'xstate';
import { IDENTITY_JOB_DECISIONS, REJECT_REASON_MAX, REVIEW_DECISIONS, type ReviewDecision } from '../../api/documents.ts';
import type { ValidationError } from '../../api/envelope.ts';

export type IdentityJobDecision = (typeof IDENTITY_JOB_DECISIONS)[number];
/** A decision on any kind of target. */
export type AdminDecision = ReviewDecision | IdentityJobDecision | 'rejectFinal';

/** Decisions the customer must be told the reason of (api/documents.ts adminDocumentDecide, adminIdentityJobDecide, api/admin.ts adminRecoveryTaskDecide). */
export const DECISIONS_WITH_REASON: ReadonlySet<AdminDecision> = new Set(['reject', 'nameMismatch', 'rejectFinal']);

/** What is decided on: an uploaded document, an identity / video identity job, or an account recovery. */
export type ReviewTarget = { kind: 'document'; documentId: number } | { kind: 'identityJob'; workflowRunId: string } | { kind: 'recoveryTask'; taskId: string };

/**
 * The decisions offered for a target's kind, in the order shown. A recovery's 'reject' allows a
 * new request (isRetryable); 'rejectFinal' does not (e.g. a forged document).
 */
export const DECISIONS_OF: { readonly [K in ReviewTarget['kind']]: readonly AdminDecision[] } = {
  document: REVIEW_DECISIONS,
  identityJob: IDENTITY_JOB_DECISIONS,
  recoveryTask: ['approve', 'reject', 'rejectFinal'],
};

export interface AdminReviewInput {
  target: ReviewTarget;
}

export interface DecideRequest {
  target: ReviewTarget;
  decision: AdminDecision;
  /** only for decisions with a reason */
  reason: string | null;
}

/** errors: the platform's VF list, which the view words by code (detail is its English) */
export type DecideFailure = { code: 'network' } | { code: 'refused'; detail: string | null; errors?: readonly ValidationError[] };
export type DecideResult = { ok: true; customerVerified: boolean } | { ok: false; code: 'fields'; errors: ValidationError[] } | ({ ok: false } & DecideFailure);

export type ReasonError = { code: 'required' } | { code: 'tooLong'; max: number } | { code: 'platform'; detail: string; error?: ValidationError };

export type AdminReviewEvent =
  | { type: 'DECISION.CHOOSE'; decision: AdminDecision }
  | { type: 'REASON.SUBMIT'; reason: string }
  | { type: 'SUBMIT' }
  | { type: 'BACK' }
  | { type: 'RETRY' }
  | { type: 'CANCEL' };

export interface AdminReviewContext extends AdminReviewInput {
  decision: AdminDecision | null;
  reason: string;
  reasonError: ReasonError | null;
  failure: DecideFailure | null;
  /** after the decision: the customer is verified now */
  customerVerified: boolean | null;
}

/** Null when the reason may be sent. */
export function checkReason(reason: string): ReasonError | null {
  const trimmed = reason.trim();
  if (trimmed.length === 0) return { code: 'required' };
  if (trimmed.length > REJECT_REASON_MAX) return { code: 'tooLong', max: REJECT_REASON_MAX };
  return null;
}

const reasonErrorOf = (r: DecideResult): ReasonError | null => {
  if (r.ok || r.code !== 'fields') return null;
  const e = r.errors.find((x) => x.param === 'reason');
  return e ? { code: 'platform', detail: e.description, error: e } : null;
};

export const adminReviewMachine = setup({
  types: {
    context: {} as AdminReviewContext,
    events: {} as AdminReviewEvent,
    input: {} as AdminReviewInput,
  },
  actors: {
    decide: fromPromise<DecideResult, DecideRequest>(async () => {
      throw new Error('decide is provided by the app');
    }),
  },
  guards: {
    needsReason: ({ context }) => context.decision !== null && DECISIONS_WITH_REASON.has(context.decision),
    isOfTarget: ({ context }, decision: AdminDecision) => DECISIONS_OF[context.target.kind].includes(decision),
    isDecisionWithReason: ({ context }, decision: AdminDecision) => DECISIONS_OF[context.target.kind].includes(decision) && DECISIONS_WITH_REASON.has(decision),
    isReasonValid: (_, reason: string) => checkReason(reason) === null,
    isDecided: (_, r: DecideResult) => r.ok,
    isReasonRefused: (_, r: DecideResult) => reasonErrorOf(r) !== null,
  },
  actions: {
    storeDecision: assign((_, decision: AdminDecision) => ({ decision, reasonError: null, failure: null })),
    storeReason: assign((_, reason: string) => ({ reason: reason.trim(), reasonError: null })),
    rejectReason: assign((_, reason: string) => ({ reason, reasonError: checkReason(reason) })),
    startDecision: assign({ failure: null }),
    storeResult: assign((_, r: DecideResult) => (r.ok ? { customerVerified: r.customerVerified } : {})),
    storeReasonRefusal: assign((_, r: DecideResult) => ({ reasonError: reasonErrorOf(r) })),
    storeFailure: assign((_, r: DecideResult) => {
      if (r.ok) return {};
      // A VF of no form field reads as a refusal with its `param: description` lines (document 1 §5).
      if (r.code === 'fields') return { failure: { code: 'refused', detail: r.errors.map((e) => `${e.param}: ${e.description}`).join('\n'), errors: r.errors } as DecideFailure };
      return { failure: r.code === 'network' ? ({ code: 'network' } as DecideFailure) : ({ code: 'refused', detail: r.detail } as DecideFailure) };
    }),
    storeNetworkFailure: assign({ failure: { code: 'network' } as DecideFailure }),
  },
}).createMachine({
  id: 'adminReview',
  description: "An administrator decides on one item of the review queue (an uploaded document, an identity job or an account recovery), giving a reason when the customer must be told why.",
  meta: { spec: ['document 1 §6', 'document 2 §4', 'document 3 §6'] },
  context: ({ input }) => ({ ...input, decision: null, reason: '', reasonError: null, failure: null, customerVerified: null }),
  initial: 'choosing',
  states: {
    choosing: {
      description: 'The administrator chooses a decision among those offered for this kind of item.',
      on: {
        'DECISION.CHOOSE': [
          {
            guard: { type: 'isDecisionWithReason', params: ({ event }) => event.decision },
            target: 'reasoning',
            actions: { type: 'storeDecision', params: ({ event }) => event.decision },
            description: 'The decision needs a reason the customer will see (reject, name mismatch, final rejection); the administrator is asked for it.',
          },
          {
            guard: { type: 'isOfTarget', params: ({ event }) => event.decision },
            target: 'confirming',
            actions: { type: 'storeDecision', params: ({ event }) => event.decision },
            description: 'The decision needs no reason; the administrator is asked to confirm it. A decision not offered for this item is ignored.',
          },
        ],
        CANCEL: { target: 'canceled', description: 'The administrator leaves the item undecided.' },
      },
    },
    reasoning: {
      description: 'The administrator writes the reason the customer will be shown.',
      on: {
        'REASON.SUBMIT': [
          {
            guard: { type: 'isReasonValid', params: ({ event }) => event.reason },
            target: 'confirming',
            actions: { type: 'storeReason', params: ({ event }) => event.reason },
            description: 'The reason has 1 to 500 characters; the administrator is asked to confirm the decision with it.',
          },
          {
            actions: { type: 'rejectReason', params: ({ event }) => event.reason },
            description: 'The reason is empty or too long; the error is shown on it and the step stays.',
          },
        ],
        BACK: { target: 'choosing', description: 'The administrator goes back to choose another decision.' },
        CANCEL: { target: 'canceled', description: 'The administrator leaves the item undecided.' },
      },
    },
    confirming: {
      description: 'The administrator reviews the decision (and its reason) before it is recorded.',
      on: {
        SUBMIT: { target: 'deciding', description: 'The administrator confirms; the decision is sent to the platform.' },
        BACK: [
          { guard: 'needsReason', target: 'reasoning', description: 'The decision has a reason; the administrator goes back to edit it.' },
          { target: 'choosing', description: 'The decision has no reason; the administrator goes back to choose another.' },
        ],
        CANCEL: { target: 'canceled', description: 'The administrator leaves the item undecided.' },
      },
    },
    deciding: {
      description: 'The platform is recording the decision; the administrator waits and cannot cancel.',
      tags: ['busy'],
      entry: 'startDecision',
      invoke: {
        id: 'decide',
        src: 'decide',
        input: ({ context }) => ({
          target: context.target,
          decision: context.decision ?? DECISIONS_OF[context.target.kind][0]!,
          reason: context.decision !== null && DECISIONS_WITH_REASON.has(context.decision) ? context.reason : null,
        }),
        onDone: [
          {
            guard: { type: 'isDecided', params: ({ event }) => event.output },
            target: 'done',
            actions: { type: 'storeResult', params: ({ event }) => event.output },
            description: 'The platform recorded the decision; whether the customer is now verified is kept to show.',
          },
          // VF on the reason: back to it with the platform's words on the field.
          {
            guard: { type: 'isReasonRefused', params: ({ event }) => event.output },
            target: 'reasoning',
            actions: { type: 'storeReasonRefusal', params: ({ event }) => event.output },
            description: "The platform refused the reason; the administrator is taken back to it with the platform's words.",
          },
          {
            target: 'failed',
            actions: { type: 'storeFailure', params: ({ event }) => event.output },
            description: 'The platform refused the decision, or was not reached; the reason is kept to show.',
          },
        ],
        onError: { target: 'failed', actions: 'storeNetworkFailure', description: 'No answer came; it is not known that the decision was recorded.' },
      },
    },
    failed: {
      description: 'The decision was not recorded (refused or no answer); the administrator can try again, go back or leave.',
      on: {
        RETRY: { target: 'deciding', description: 'The administrator sends the same decision again.' },
        BACK: { target: 'confirming', description: 'The administrator goes back to the confirmation to change something.' },
        CANCEL: { target: 'canceled', description: 'The administrator leaves the item undecided.' },
      },
    },
    done: { type: 'final', description: 'The decision is recorded; the customer will see it (and its reason).' },
    canceled: { type: 'final', description: 'The administrator left; the item stays in the queue undecided.' },
  },
});

export type AdminReviewMachine = typeof adminReviewMachine;
