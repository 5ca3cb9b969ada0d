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
  description: "The signed-in customer's account verification status, and the banner every signed-in page shows for it.",
  meta: { spec: ['document 1 §4'] },
  context: { inputs: null, status: null, actions: [], banner: hidden, loadError: null, refreshFailed: false },
  initial: 'loading',
  states: {
    loading: {
      description: 'The status and documents are being read for the first time; no banner is shown yet.',
      tags: ['loading'],
      invoke: {
        id: 'loadStatus',
        src: 'loadStatus',
        onDone: [
          {
            guard: { type: 'isLoaded', params: ({ event }) => event.output },
            target: 'known',
            actions: { type: 'storeInputs', params: ({ event }) => event.output },
            description: 'The status and documents are read; the status is worked out from them.',
          },
          {
            target: 'loadFailed',
            actions: { type: 'storeLoadError', params: ({ event }) => (event.output.ok ? { ok: false, code: 'network' } : event.output) },
            description: 'The platform refused to give the status, or was not reached; the reason is kept.',
          },
        ],
        onError: {
          target: 'loadFailed',
          actions: { type: 'storeLoadError', params: { ok: false, code: 'network' } },
          description: 'No answer came; it reads as a network failure.',
        },
      },
    },
    loadFailed: {
      description: 'The status could not be read; no banner is shown until it is.',
      on: { 'STATUS.RETRY': { target: 'loading', description: 'The status is asked for again.' } },
    },
    known: {
      description: 'The status is known and its banner is shown (when it warns).',
      initial: 'evaluating',
      // Another refresh while one runs starts it again: the later answer is the newer one.
      on: {
        'STATUS.REFRESH': {
          target: '.refreshing',
          reenter: true,
          description: 'Something may have changed the status (an upload, a push, a profile change); it is read again, restarting any read under way.',
        },
      },
      states: {
        evaluating: {
          description: 'The status rules are applied in order to the last inputs read; the first rule that holds decides the status.',
          // Document 1 §4, first match wins: VERIFICATION_RULES in order (RULE_GUARDS).
          always: [
            { guard: 'isRepresentative', target: 'checked', description: 'Rule 1: a business representative is treated as checked.' },
            {
              guard: 'isLimitedWithDocumentsDecided',
              target: 'processing',
              description: 'Rule 2: a limited account whose limit documents are all uploaded and none in review is processing.',
            },
            { guard: 'isLimited', target: 'limited', description: 'Rule 2: any other limited account is limited.' },
            {
              guard: 'hasDuplicateDocumentsUploaded',
              target: 'duplicateDocumentsUploaded',
              description: 'Rule 3: a duplicate identity document was flagged and a new one is already uploaded.',
            },
            { guard: 'hasDuplicateDocuments', target: 'duplicateDocuments', description: 'Rule 3: a duplicate identity document was flagged and a new one is needed.' },
            { guard: 'hasRequiredActions', target: 'hasRequiredActions', description: 'Rule 4: at least one counted required action is open.' },
            {
              guard: 'isUnverifiedWithLimitDocumentsIn',
              target: 'processing',
              description: 'Rule 5: an unverified customer whose limit documents are all in is processing.',
            },
            {
              guard: 'isUnverifiedWithLimitDocumentsMissing',
              target: 'unverified',
              description: 'Rule 5: an unverified customer with limit documents still to upload is unverified.',
            },
            {
              guard: 'isUnverifiedWithDocumentsInReview',
              target: 'verificationProcessing',
              description: 'Rule 5: an unverified customer whose documents are in review waits for verification.',
            },
            { guard: 'isUnverifiedBusiness', target: 'checked', description: 'Rule 5: any other unverified business customer is checked.' },
            { guard: 'isUnverified', target: 'finalReview', description: 'Rule 5: any other unverified personal customer is in final review.' },
            {
              guard: 'needsCardDocument',
              target: 'someCardDocumentRequired',
              description: 'A verified customer must still give a further address document for a card.',
            },
            { target: 'checked', description: 'Rule 6: otherwise the account is checked.' },
          ],
        },
        refreshing: {
          description: 'The status is being read again; the banner of the last answer stays up meanwhile.',
          tags: ['refreshing'],
          invoke: {
            id: 'loadStatus',
            src: 'loadStatus',
            onDone: [
              {
                guard: { type: 'isLoaded', params: ({ event }) => event.output },
                target: 'evaluating',
                actions: { type: 'storeInputs', params: ({ event }) => event.output },
                description: 'The new status and documents are read; the status is worked out again from them.',
              },
              // The banner is a hint: a refresh without an answer keeps the last one; the next refresh asks again.
              {
                target: 'evaluating',
                actions: 'markRefreshFailed',
                description: 'The platform refused the new read; the status of the last answer is kept.',
              },
            ],
            onError: { target: 'evaluating', actions: 'markRefreshFailed', description: 'No answer came; the status of the last answer is kept.' },
          },
        },
        checked: { description: 'The account is checked: nothing is asked of the customer and no banner is shown.', entry: { type: 'showStatus', params: 'checked' } },
        limited: {
          description: 'The account is limited: a warning banner counts the limit documents to upload and links to the limited-account page.',
          entry: { type: 'showStatus', params: 'limited' },
        },
        processing: {
          description: 'All documents the platform asked for are in; the customer waits and no banner is shown.',
          entry: { type: 'showStatus', params: 'processing' },
        },
        duplicateDocuments: {
          description: 'The identity document on file is also registered to another customer; a warning banner asks for a new one.',
          entry: { type: 'showStatus', params: 'duplicateDocuments' },
        },
        duplicateDocumentsUploaded: {
          description: 'A new identity document was uploaded after a duplicate was flagged; a warning banner says it is being checked.',
          entry: { type: 'showStatus', params: 'duplicateDocumentsUploaded' },
        },
        hasRequiredActions: {
          description: 'Profile items are missing or rejected; a warning banner counts them and links to the profile.',
          entry: { type: 'showStatus', params: 'hasRequiredActions' },
        },
        unverified: {
          description: 'The account is not verified and documents are still missing; a warning banner counts them.',
          entry: { type: 'showStatus', params: 'unverified' },
        },
        verificationProcessing: {
          description: "The customer's documents are in review; the customer waits and no banner is shown.",
          entry: { type: 'showStatus', params: 'verificationProcessing' },
        },
        finalReview: {
          description: 'A personal customer has given everything and awaits the final review; no banner is shown.',
          entry: { type: 'showStatus', params: 'finalReview' },
        },
        someCardDocumentRequired: {
          description: 'A card needs a further address document; a warning banner asks for it and links to the profile.',
          entry: { type: 'showStatus', params: 'someCardDocumentRequired' },
        },
      },
    },
  },
});

export type VerificationStatusMachine = typeof verificationStatusMachine;
