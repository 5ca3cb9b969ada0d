/**
 * The account verification status (document 1 §4 "Account verification status (first match
 * wins)", "Required actions counted", "Status banner"), for the banner every signed-in page shows.
 *
 * ```
 * loading ─ok─▶ known.evaluating ─(the §4 rules, first match)─▶ known.<status>
 *    └─refused / no answer─▶ loadFailed ─STATUS.RETRY─▶ loading
 * known ─STATUS.REFRESH (an upload, a push, a profile change)─▶ known.refreshing
 *    known.refreshing ─ok─▶ known.evaluating (the new inputs)
 *                     └─refused / no answer─▶ known.evaluating (the last inputs: the banner stays)
 * ```
 *
 * `evaluating` is transient: its eventless transitions are the rules of api/verification.ts
 * VERIFICATION_RULES, one guard per rule in the same order (tests/unit/verification-rules.test.ts
 * checks both), each ending in a state named after its status: checked, limited, processing,
 * duplicateDocuments, duplicateDocumentsUploaded, hasRequiredActions, unverified,
 * verificationProcessing, finalReview, someCardDocumentRequired. Each status state stores its
 * banner (statusBanner) on entry, so while a refresh runs the banner of the last answer stays up.
 *
 * The banner is hidden in `loading` ("before documents have loaded"): the inputs are one answer
 * (userStatusGet), documents included. Pure: `loadStatus` is provided by the app (the real one
 * calls userStatusGet); expected failures are `{ ok: false, code }`.
 */
import { assign, fromPromise, setup } from 'xstate';
import {
  VERIFICATION_RULES,
  bannerActions,
  statusBanner,
  type BannerAction,
  type StatusBanner,
  type VerificationInputs,
  type VerificationRuleId,
  type VerificationStatus,
} from '../../api/verification.ts';

export type LoadStatusFailure = { ok: false; code: 'network' } | { ok: false; code: 'refused'; detail: string | null };
export type LoadStatusResult = { ok: true; inputs: VerificationInputs } | LoadStatusFailure;

export type VerificationStatusEvent = { type: 'STATUS.REFRESH' } | { type: 'STATUS.RETRY' };

export interface VerificationStatusContext {
  inputs: VerificationInputs | null;
  /** the status shown and the actions behind it (kept while a refresh runs) */
  status: VerificationStatus | null;
  actions: BannerAction[];
  banner: StatusBanner;
  /** why the first load failed */
  loadError: LoadStatusFailure | null;
  /** the last refresh got no answer (the banner shows the last inputs) */
  refreshFailed: boolean;
}

const hidden: StatusBanner = { visible: false };

/** The predicate of one rule of VERIFICATION_RULES as a guard on the loaded inputs. */
const ruleHolds =
  (id: VerificationRuleId) =>
  ({ context }: { context: VerificationStatusContext }): boolean => {
    const rule = VERIFICATION_RULES.find((r) => r.id === id);
    return context.inputs !== null && rule !== undefined && rule.when(context.inputs);
  };

/**
 * The guard of each rule, named for the diagram. Rule 6 ("otherwise checked") has no guard: it is
 * the last transition.
 */
export const RULE_GUARDS = {
  '1': 'isRepresentative',
  '2a': 'isLimitedWithDocumentsDecided',
  '2b': 'isLimited',
  '3a': 'hasDuplicateDocumentsUploaded',
  '3b': 'hasDuplicateDocuments',
  '4': 'hasRequiredActions',
  '5a': 'isUnverifiedWithLimitDocumentsIn',
  '5b': 'isUnverifiedWithLimitDocumentsMissing',
  '5c': 'isUnverifiedWithDocumentsInReview',
  '5d': 'isUnverifiedBusiness',
  '5e': 'isUnverified',
  card: 'needsCardDocument',
  '6': null,
} as const satisfies Record<VerificationRuleId, string | null>;

export const verificationStatusMachine = setup({
  types: {
    context: {} as VerificationStatusContext,
    events: {} as VerificationStatusEvent,
  },
  actors: {
    loadStatus: fromPromise<LoadStatusResult>(async () => {
      throw new Error('loadStatus is provided by the app');
    }),
  },
  guards: {
    isLoaded: (_, r: LoadStatusResult) => r.ok,
    isRepresentative: ruleHolds('1'),
    isLimitedWithDocumentsDecided: ruleHolds('2a'),
    isLimited: ruleHolds('2b'),
    hasDuplicateDocumentsUploaded: ruleHolds('3a'),
    hasDuplicateDocuments: ruleHolds('3b'),
    hasRequiredActions: ruleHolds('4'),
    isUnverifiedWithLimitDocumentsIn: ruleHolds('5a'),
    isUnverifiedWithLimitDocumentsMissing: ruleHolds('5b'),
    isUnverifiedWithDocumentsInReview: ruleHolds('5c'),
    isUnverifiedBusiness: ruleHolds('5d'),
    isUnverified: ruleHolds('5e'),
    needsCardDocument: ruleHolds('card'),
  },
  actions: {
    storeInputs: assign((_, r: LoadStatusResult) => (r.ok ? { inputs: r.inputs, loadError: null, refreshFailed: false } : {})),
    storeLoadError: assign((_, loadError: LoadStatusFailure) => ({ loadError })),
    markRefreshFailed: assign({ refreshFailed: true }),
    /** entry of each status state: the banner of that status for the loaded inputs */
    showStatus: assign(({ context }, status: VerificationStatus) => {
      const actions = context.inputs ? bannerActions(status, context.inputs) : [];
      return { status, actions, banner: statusBanner(status, actions) };
    }),
  },
}).createMachine({
  id: 'verificationStatus',
  context: { inputs: null, status: null, actions: [], banner: hidden, loadError: null, refreshFailed: false },
  initial: 'loading',
  states: {
    loading: {
      tags: ['loading'],
      invoke: {
        id: 'loadStatus',
        src: 'loadStatus',
        onDone: [
          { guard: { type: 'isLoaded', params: ({ event }) => event.output }, target: 'known', actions: { type: 'storeInputs', params: ({ event }) => event.output } },
          { target: 'loadFailed', actions: { type: 'storeLoadError', params: ({ event }) => (event.output.ok ? { ok: false, code: 'network' } : event.output) } },
        ],
        onError: { target: 'loadFailed', actions: { type: 'storeLoadError', params: { ok: false, code: 'network' } } },
      },
    },
    loadFailed: {
      on: { 'STATUS.RETRY': 'loading' },
    },
    known: {
      initial: 'evaluating',
      // Another refresh while one runs starts it again: the later answer is the newer one.
      on: { 'STATUS.REFRESH': { target: '.refreshing', reenter: true } },
      states: {
        evaluating: {
          // Document 1 §4, first match wins: VERIFICATION_RULES in order (RULE_GUARDS).
          always: [
            { guard: 'isRepresentative', target: 'checked' },
            { guard: 'isLimitedWithDocumentsDecided', target: 'processing' },
            { guard: 'isLimited', target: 'limited' },
            { guard: 'hasDuplicateDocumentsUploaded', target: 'duplicateDocumentsUploaded' },
            { guard: 'hasDuplicateDocuments', target: 'duplicateDocuments' },
            { guard: 'hasRequiredActions', target: 'hasRequiredActions' },
            { guard: 'isUnverifiedWithLimitDocumentsIn', target: 'processing' },
            { guard: 'isUnverifiedWithLimitDocumentsMissing', target: 'unverified' },
            { guard: 'isUnverifiedWithDocumentsInReview', target: 'verificationProcessing' },
            { guard: 'isUnverifiedBusiness', target: 'checked' },
            { guard: 'isUnverified', target: 'finalReview' },
            { guard: 'needsCardDocument', target: 'someCardDocumentRequired' },
            { target: 'checked' },
          ],
        },
        refreshing: {
          tags: ['refreshing'],
          invoke: {
            id: 'loadStatus',
            src: 'loadStatus',
            onDone: [
              { guard: { type: 'isLoaded', params: ({ event }) => event.output }, target: 'evaluating', actions: { type: 'storeInputs', params: ({ event }) => event.output } },
              // The banner is a hint: a refresh without an answer keeps the last one; the next refresh asks again.
              { target: 'evaluating', actions: 'markRefreshFailed' },
            ],
            onError: { target: 'evaluating', actions: 'markRefreshFailed' },
          },
        },
        checked: { entry: { type: 'showStatus', params: 'checked' } },
        limited: { entry: { type: 'showStatus', params: 'limited' } },
        processing: { entry: { type: 'showStatus', params: 'processing' } },
        duplicateDocuments: { entry: { type: 'showStatus', params: 'duplicateDocuments' } },
        duplicateDocumentsUploaded: { entry: { type: 'showStatus', params: 'duplicateDocumentsUploaded' } },
        hasRequiredActions: { entry: { type: 'showStatus', params: 'hasRequiredActions' } },
        unverified: { entry: { type: 'showStatus', params: 'unverified' } },
        verificationProcessing: { entry: { type: 'showStatus', params: 'verificationProcessing' } },
        finalReview: { entry: { type: 'showStatus', params: 'finalReview' } },
        someCardDocumentRequired: { entry: { type: 'showStatus', params: 'someCardDocumentRequired' } },
      },
    },
  },
});

export type VerificationStatusMachine = typeof verificationStatusMachine;
