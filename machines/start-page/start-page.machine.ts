/**
 * The post-login start page (document 1 §2, document 3 §2): loads the customer, lets the user
 * accept pending terms, picks the company to act for, and ends with a target the view navigates to.
 *
 * ```
 * loadingCustomer ─ok─▶ deciding ─(rules 1-9 of start-page.rules.ts, first match)─▶ done
 *       │  └─TE──▶ terms ─TERMS.ACCEPT─▶ acceptingTerms ─ok─▶ loadingCustomer
 *       │           └─TERMS.DECLINE─▶ done (login)
 *       └─failed─▶ done (login)
 * deciding ─rule 3─▶ loadingAccessInfo (own company) ─ok─▶ afterAccess ─(access rules)─▶ done
 * deciding ─rule 4─▶ loadingAccessList ─some─▶ choosingAccount ─ACCOUNT.CHOOSE─▶ loadingAccessInfo
 *                          └─none or failed─▶ done (login)
 * ```
 *
 * Rule 3 ("a business user without related accounts has the authorised-user info fetched and goes
 * to the legacy URL; otherwise to login"): this platform has no legacy web for business users
 * (rule 1 already sends anyone with a legacy URL there), so the fetched access info leads through
 * the "after access info is loaded" rules, and a failed fetch goes to login.
 *
 * A terms error (TE) from any load returns the terms to accept. Pure: the loads are actors the app
 * provides; what the session must learn (customer, access info, acting-for, the remembered path
 * being used) goes through actions the app provides.
 */
import { assign, fromPromise, setup } from 'xstate';
import type { Term } from '../../api/envelope.ts';
import type { Customer, CustomerAccess } from '../../api/customer.ts';
import type { AccessInfo } from '../session/session.machine.ts';
import { accessRules, startRules, type AccessFacts, type StartFacts } from './start-page.rules.ts';

export type StartLoadError = 'network' | 'auth' | 'noAccess' | 'unknown';
export type StartErrorCode = StartLoadError | 'noAccounts' | 'termsDeclined';

export type CustomerResult =
  | { ok: true; customer: Customer }
  | { ok: false; code: 'terms'; terms: Term[] }
  | { ok: false; code: StartLoadError };
export type AccessListResult =
  | { ok: true; accesses: CustomerAccess[] }
  | { ok: false; code: 'terms'; terms: Term[] }
  | { ok: false; code: StartLoadError };
export type AccessInfoResult =
  | { ok: true; accessInfo: AccessInfo }
  | { ok: false; code: 'terms'; terms: Term[] }
  | { ok: false; code: StartLoadError };
export type TermsAcceptResult = { ok: true } | { ok: false; code: StartLoadError };

/** Route codes the view maps to paths. */
export type StartRoute =
  | 'home'
  | 'adminOverview'
  | 'profileUpdate'
  | 'kyc'
  | 'selfCertificationSplash'
  | 'businessSelfCertificationSplash'
  | 'companyDocuments';

export type StartTarget =
  | { kind: 'route'; route: StartRoute }
  | { kind: 'path'; path: string }
  | { kind: 'external'; url: string }
  | { kind: 'login'; reason: StartErrorCode };

export interface StartPageInput {
  rememberedPath: string | null;
  hasCustomCustomerId: boolean;
}

export interface StartPageContext extends StartPageInput {
  customer: Customer | null;
  accesses: CustomerAccess[];
  accessInfo: AccessInfo | null;
  /** the company picked in the chooser; null when the user acts for their own customer */
  chosenCustomerId: number | null;
  terms: Term[];
  error: StartErrorCode | null;
  target: StartTarget | null;
}

export type StartPageEvent =
  | { type: 'TERMS.ACCEPT' }
  | { type: 'TERMS.DECLINE' }
  | { type: 'ACCOUNT.CHOOSE'; customerId: number };

type Failed<R> = Extract<R, { ok: false }>;
const errorOf = (r: { ok: boolean; code?: string }): StartLoadError =>
  r.ok || r.code === 'terms' ? 'unknown' : (r.code as StartLoadError);

function startFacts(c: StartPageContext): StartFacts | null {
  return c.customer
    ? { customer: c.customer, hasCustomCustomerId: c.hasCustomCustomerId, rememberedPath: c.rememberedPath }
    : null;
}
function accessFacts(c: StartPageContext): AccessFacts | null {
  return c.accessInfo ? { accessInfo: c.accessInfo, rememberedPath: c.rememberedPath } : null;
}
const startRule = (rule: keyof typeof startRules) => ({ context }: { context: StartPageContext }) => {
  const f = startFacts(context);
  return f !== null && startRules[rule](f);
};
const accessRule = (rule: keyof typeof accessRules) => ({ context }: { context: StartPageContext }) => {
  const f = accessFacts(context);
  return f !== null && accessRules[rule](f);
};

export const startPageMachine = setup({
  types: {
    context: {} as StartPageContext,
    events: {} as StartPageEvent,
    input: {} as StartPageInput,
    output: {} as StartTarget,
  },
  actors: {
    loadCustomer: fromPromise<CustomerResult>(async () => {
      throw new Error('loadCustomer is provided by the app');
    }),
    loadAccessList: fromPromise<AccessListResult>(async () => {
      throw new Error('loadAccessList is provided by the app');
    }),
    loadAccessInfo: fromPromise<AccessInfoResult, { customerId: number }>(async () => {
      throw new Error('loadAccessInfo is provided by the app');
    }),
    acceptTerms: fromPromise<TermsAcceptResult, { terms: { id: number; version: number }[] }>(async () => {
      throw new Error('acceptTerms is provided by the app');
    }),
  },
  actions: {
    storeCustomer: assign((_, customer: Customer) => ({ customer, error: null })),
    storeAccesses: assign((_, accesses: CustomerAccess[]) => ({ accesses, error: null })),
    storeAccessInfo: assign((_, accessInfo: AccessInfo) => ({ accessInfo, error: null })),
    storeTerms: assign((_, terms: Term[]) => ({ terms, error: null })),
    storeError: assign((_, error: StartErrorCode) => ({ error })),
    chooseAccount: assign((_, customerId: number) => ({ chosenCustomerId: customerId, error: null })),
    useOwnCompany: assign({ chosenCustomerId: null }),
    setTarget: assign((_, target: StartTarget) => ({ target })),
    /** The app tells the session (CUSTOMER.LOADED). */
    reportCustomer: (_, _customer: Customer) => undefined,
    /** The app tells the session (ACCESS.LOADED, and ACTING_FOR.SET for a chosen company). */
    reportAccessInfo: (_, _p: { accessInfo: AccessInfo; actingCustomerId: number | null }) => undefined,
    /** Rule 8: the remembered path is used once, then cleared (PATH.CONSUME on the session). */
    consumeRememberedPath: () => undefined,
  },
  guards: {
    loaded: (_, r: { ok: boolean }) => r.ok,
    isTermsError: (_, r: { ok: boolean; code?: string }) => !r.ok && r.code === 'terms',
    hasAccesses: (_, r: AccessListResult) => r.ok && r.accesses.length > 0,
    isListedAccount: ({ context }, customerId: number) => context.accesses.some((a) => a.customerId === customerId),
    wasChosen: ({ context }) => context.chosenCustomerId !== null,
    usesLegacyWeb: startRule('usesLegacyWeb'),
    isAdministrator: startRule('isAdministrator'),
    isBusinessWithoutRelatedAccounts: startRule('isBusinessWithoutRelatedAccounts'),
    isBusinessWithRelatedAccounts: startRule('isBusinessWithRelatedAccounts'),
    needsPersonalInfoUpdate: startRule('needsPersonalInfoUpdate'),
    needsKyc: startRule('needsKyc'),
    needsTaxSectionAction: startRule('needsTaxSectionAction'),
    hasRememberedPath: ({ context }) => context.rememberedPath !== null,
    accessNeedsKyc: accessRule('accessNeedsKyc'),
    isRepresentativeWithoutBalanceInfo: accessRule('isRepresentativeWithoutBalanceInfo'),
    selfCertificationValidatedOrPending: accessRule('selfCertificationValidatedOrPending'),
  },
}).createMachine({
  id: 'startPage',
  description: 'After sign-in: deciding which page the user sees first, accepting pending terms and choosing the company to act for.',
  meta: { spec: ['document 1 §2', 'document 3 §2', 'document 1 §8'] },
  context: ({ input }) => ({
    rememberedPath: input.rememberedPath,
    hasCustomCustomerId: input.hasCustomCustomerId,
    customer: null,
    accesses: [],
    accessInfo: null,
    chosenCustomerId: null,
    terms: [],
    error: null,
    target: null,
  }),
  initial: 'loadingCustomer',
  states: {
    loadingCustomer: {
      description: "The signed-in customer's details are being loaded.",
      tags: ['busy'],
      invoke: {
        id: 'loadCustomer',
        src: 'loadCustomer',
        onDone: [
          {
            description: "The customer's details were loaded: the start page can be decided.",
            guard: { type: 'loaded', params: ({ event }) => event.output },
            target: 'deciding',
            actions: [
              { type: 'storeCustomer', params: ({ event }) => (event.output as { customer: Customer }).customer },
              { type: 'reportCustomer', params: ({ event }) => (event.output as { customer: Customer }).customer },
            ],
          },
          // "If no login is present, pending terms are shown for acceptance, otherwise login."
          {
            description: 'The platform answered with a terms error: the pending terms are shown for acceptance.',
            guard: { type: 'isTermsError', params: ({ event }) => event.output },
            target: 'terms',
            actions: { type: 'storeTerms', params: ({ event }) => (event.output as { terms: Term[] }).terms },
          },
          {
            description: "The customer's details could not be loaded: the user goes back to login.",
            target: 'done',
            actions: { type: 'setTarget', params: ({ event }) => ({ kind: 'login', reason: errorOf(event.output) }) },
          },
        ],
        onError: {
          description: 'The load failed unexpectedly: the user goes back to login.',
          target: 'done',
          actions: { type: 'setTarget', params: { kind: 'login', reason: 'unknown' } },
        },
      },
    },
    terms: {
      description: 'The user is shown terms that must be accepted before going on.',
      on: {
        'TERMS.ACCEPT': { target: 'acceptingTerms', description: 'The user accepts the terms.' },
        'TERMS.DECLINE': { target: 'done', description: 'The user declines the terms: they go back to login.', actions: { type: 'setTarget', params: { kind: 'login', reason: 'termsDeclined' } } },
      },
    },
    acceptingTerms: {
      description: "The user's acceptance of the terms is being recorded.",
      tags: ['busy'],
      invoke: {
        id: 'acceptTerms',
        src: 'acceptTerms',
        input: ({ context }) => ({ terms: context.terms.map(({ id, version }) => ({ id, version })) }),
        // Accepted: start over, because the terms may have blocked any of the loads.
        onDone: [
          {
            description: 'The terms were accepted: everything is loaded again, since the terms may have blocked any load.',
            guard: { type: 'loaded', params: ({ event }) => event.output },
            target: 'loadingCustomer',
          },
          {
            description: 'The acceptance was refused: the terms stay on screen with the error.',
            target: 'terms',
            actions: { type: 'storeError', params: ({ event }) => errorOf(event.output as Failed<TermsAcceptResult>) },
          },
        ],
        onError: {
          description: 'Recording the acceptance failed unexpectedly: the terms stay on screen with the error.',
          target: 'terms',
          actions: { type: 'storeError', params: 'unknown' },
        },
      },
    },
    deciding: {
      description: 'The start page is chosen by the post-login rules, in order; the first that applies wins.',
      // Document 1 §2, in order; the first guard that holds wins.
      always: [
        {
          description: 'Rule 1: a user of the legacy web (without a custom customer id) goes to the legacy address.',
          guard: 'usesLegacyWeb',
          target: 'done',
          actions: { type: 'setTarget', params: ({ context }) => ({ kind: 'external', url: context.customer?.oldWebUrl ?? '' }) },
        },
        {
          description: 'Rule 2: an administrator goes to the admin overview.',
          guard: 'isAdministrator',
          target: 'done',
          actions: { type: 'setTarget', params: { kind: 'route', route: 'adminOverview' } },
        },
        {
          description: "Rule 3: a business user without related accounts has their own company's access info loaded.",
          guard: 'isBusinessWithoutRelatedAccounts',
          target: 'loadingAccessInfo',
          actions: 'useOwnCompany',
        },
        {
          description: 'Rule 4: a business user with related accounts has the list of companies loaded to choose from.',
          guard: 'isBusinessWithRelatedAccounts',
          target: 'loadingAccessList',
        },
        {
          description: 'Rule 5: a user whose personal information must be updated goes to the profile update.',
          guard: 'needsPersonalInfoUpdate',
          target: 'done',
          actions: { type: 'setTarget', params: { kind: 'route', route: 'profileUpdate' } },
        },
        {
          description: 'Rule 6: a user who needs KYC goes to KYC.',
          guard: 'needsKyc',
          target: 'done',
          actions: { type: 'setTarget', params: { kind: 'route', route: 'kyc' } },
        },
        {
          description: 'Rule 7: a user with a required tax (FATCA) action goes to the self-certification splash.',
          guard: 'needsTaxSectionAction',
          target: 'done',
          actions: { type: 'setTarget', params: { kind: 'route', route: 'selfCertificationSplash' } },
        },
        {
          description: 'Rule 8: a page the user asked for before signing in is remembered: the user goes there once.',
          guard: 'hasRememberedPath',
          target: 'done',
          actions: [
            { type: 'setTarget', params: ({ context }) => ({ kind: 'path', path: context.rememberedPath ?? '/home' }) },
            'consumeRememberedPath',
          ],
        },
        { target: 'done', description: 'Rule 9: otherwise the user goes home.', actions: { type: 'setTarget', params: { kind: 'route', route: 'home' } } },
      ],
    },
    loadingAccessList: {
      description: 'The list of companies the business user may act for is being loaded.',
      tags: ['busy'],
      invoke: {
        id: 'loadAccessList',
        src: 'loadAccessList',
        onDone: [
          {
            description: 'The user may act for at least one company: the account chooser is shown.',
            guard: { type: 'hasAccesses', params: ({ event }) => event.output as AccessListResult },
            target: 'choosingAccount',
            actions: {
              type: 'storeAccesses',
              params: ({ event }) => (event.output as { accesses: CustomerAccess[] }).accesses,
            },
          },
          {
            description: 'The platform answered with a terms error: the pending terms are shown for acceptance.',
            guard: { type: 'isTermsError', params: ({ event }) => event.output },
            target: 'terms',
            actions: { type: 'storeTerms', params: ({ event }) => (event.output as { terms: Term[] }).terms },
          },
          // Rule 4: "otherwise login" (no accesses, or the list failed).
          {
            description: 'There is no company to act for, or the list failed: the user goes back to login.',
            target: 'done',
            actions: {
              type: 'setTarget',
              params: ({ event }) => ({ kind: 'login', reason: event.output.ok ? 'noAccounts' : errorOf(event.output) }),
            },
          },
        ],
        onError: {
          description: 'The load failed unexpectedly: the user goes back to login.',
          target: 'done',
          actions: { type: 'setTarget', params: { kind: 'login', reason: 'unknown' } },
        },
      },
    },
    choosingAccount: {
      description: 'The business user chooses which company to act for.',
      on: {
        'ACCOUNT.CHOOSE': {
          description: "The user picked one of the listed companies: that company's access info is loaded.",
          guard: { type: 'isListedAccount', params: ({ event }) => event.customerId },
          target: 'loadingAccessInfo',
          actions: { type: 'chooseAccount', params: ({ event }) => event.customerId },
        },
      },
    },
    loadingAccessInfo: {
      description: "The access rights and status for the company the user acts for are being loaded.",
      tags: ['busy'],
      invoke: {
        id: 'loadAccessInfo',
        src: 'loadAccessInfo',
        input: ({ context }) => ({ customerId: context.chosenCustomerId ?? context.customer?.customerId ?? 0 }),
        onDone: [
          {
            description: 'The access info was loaded and handed to the session: the start page can be decided.',
            guard: { type: 'loaded', params: ({ event }) => event.output },
            target: 'afterAccess',
            actions: [
              { type: 'storeAccessInfo', params: ({ event }) => (event.output as { accessInfo: AccessInfo }).accessInfo },
              {
                type: 'reportAccessInfo',
                params: ({ context, event }) => ({
                  accessInfo: (event.output as { accessInfo: AccessInfo }).accessInfo,
                  actingCustomerId: context.chosenCustomerId,
                }),
              },
            ],
          },
          {
            description: 'The platform answered with a terms error: the pending terms are shown for acceptance.',
            guard: { type: 'isTermsError', params: ({ event }) => event.output },
            target: 'terms',
            actions: { type: 'storeTerms', params: ({ event }) => (event.output as { terms: Term[] }).terms },
          },
          // A company picked in the chooser failed: let the user pick again.
          {
            description: 'Loading the company picked in the chooser failed: the user may pick again.',
            guard: 'wasChosen',
            target: 'choosingAccount',
            actions: { type: 'storeError', params: ({ event }) => errorOf(event.output) },
          },
          {
            description: "The own company's access info could not be loaded: the user goes back to login.",
            target: 'done',
            actions: { type: 'setTarget', params: ({ event }) => ({ kind: 'login', reason: errorOf(event.output) }) },
          },
        ],
        onError: {
          description: 'The load failed unexpectedly: the user goes back to login.',
          target: 'done',
          actions: { type: 'setTarget', params: { kind: 'login', reason: 'unknown' } },
        },
      },
    },
    afterAccess: {
      description: 'With the access info loaded, the start page is chosen by the after-access rules, in order.',
      always: [
        {
          description: 'KYC is needed for this access: the user goes to KYC.',
          guard: 'accessNeedsKyc',
          target: 'done',
          actions: { type: 'setTarget', params: { kind: 'route', route: 'kyc' } },
        },
        {
          description: 'A representative without balance information goes to the company documents.',
          guard: 'isRepresentativeWithoutBalanceInfo',
          target: 'done',
          actions: { type: 'setTarget', params: { kind: 'route', route: 'companyDocuments' } },
        },
        {
          description: 'A page the user asked for before signing in is remembered: the user goes there once.',
          guard: 'hasRememberedPath',
          target: 'done',
          actions: [
            { type: 'setTarget', params: ({ context }) => ({ kind: 'path', path: context.rememberedPath ?? '/home' }) },
            'consumeRememberedPath',
          ],
        },
        {
          description: 'The self-certification is validated or pending: the user goes home.',
          guard: 'selfCertificationValidatedOrPending',
          target: 'done',
          actions: { type: 'setTarget', params: { kind: 'route', route: 'home' } },
        },
        {
          description: 'Otherwise the business self-certification is still to do: the user goes to its splash page.',
          target: 'done',
          actions: { type: 'setTarget', params: { kind: 'route', route: 'businessSelfCertificationSplash' } },
        },
      ],
    },
    done: { type: 'final', description: 'The start page is decided; the app navigates there (or back to login).' },
  },
  output: ({ context }) => context.target ?? { kind: 'login', reason: 'unknown' },
});

export type StartPageMachine = typeof startPageMachine;
