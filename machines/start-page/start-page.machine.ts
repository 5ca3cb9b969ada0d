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
      tags: ['busy'],
      invoke: {
        id: 'loadCustomer',
        src: 'loadCustomer',
        onDone: [
          {
            guard: { type: 'loaded', params: ({ event }) => event.output },
            target: 'deciding',
            actions: [
              { type: 'storeCustomer', params: ({ event }) => (event.output as { customer: Customer }).customer },
              { type: 'reportCustomer', params: ({ event }) => (event.output as { customer: Customer }).customer },
            ],
          },
          // "If no login is present, pending terms are shown for acceptance, otherwise login."
          {
            guard: { type: 'isTermsError', params: ({ event }) => event.output },
            target: 'terms',
            actions: { type: 'storeTerms', params: ({ event }) => (event.output as { terms: Term[] }).terms },
          },
          {
            target: 'done',
            actions: { type: 'setTarget', params: ({ event }) => ({ kind: 'login', reason: errorOf(event.output) }) },
          },
        ],
        onError: { target: 'done', actions: { type: 'setTarget', params: { kind: 'login', reason: 'unknown' } } },
      },
    },
    terms: {
      on: {
        'TERMS.ACCEPT': { target: 'acceptingTerms' },
        'TERMS.DECLINE': { target: 'done', actions: { type: 'setTarget', params: { kind: 'login', reason: 'termsDeclined' } } },
      },
    },
    acceptingTerms: {
      tags: ['busy'],
      invoke: {
        id: 'acceptTerms',
        src: 'acceptTerms',
        input: ({ context }) => ({ terms: context.terms.map(({ id, version }) => ({ id, version })) }),
        // Accepted: start over, because the terms may have blocked any of the loads.
        onDone: [
          { guard: { type: 'loaded', params: ({ event }) => event.output }, target: 'loadingCustomer' },
          {
            target: 'terms',
            actions: { type: 'storeError', params: ({ event }) => errorOf(event.output as Failed<TermsAcceptResult>) },
          },
        ],
        onError: { target: 'terms', actions: { type: 'storeError', params: 'unknown' } },
      },
    },
    deciding: {
      // Document 1 §2, in order; the first guard that holds wins.
      always: [
        {
          guard: 'usesLegacyWeb',
          target: 'done',
          actions: { type: 'setTarget', params: ({ context }) => ({ kind: 'external', url: context.customer?.oldWebUrl ?? '' }) },
        },
        { guard: 'isAdministrator', target: 'done', actions: { type: 'setTarget', params: { kind: 'route', route: 'adminOverview' } } },
        { guard: 'isBusinessWithoutRelatedAccounts', target: 'loadingAccessInfo', actions: 'useOwnCompany' },
        { guard: 'isBusinessWithRelatedAccounts', target: 'loadingAccessList' },
        { guard: 'needsPersonalInfoUpdate', target: 'done', actions: { type: 'setTarget', params: { kind: 'route', route: 'profileUpdate' } } },
        { guard: 'needsKyc', target: 'done', actions: { type: 'setTarget', params: { kind: 'route', route: 'kyc' } } },
        {
          guard: 'needsTaxSectionAction',
          target: 'done',
          actions: { type: 'setTarget', params: { kind: 'route', route: 'selfCertificationSplash' } },
        },
        {
          guard: 'hasRememberedPath',
          target: 'done',
          actions: [
            { type: 'setTarget', params: ({ context }) => ({ kind: 'path', path: context.rememberedPath ?? '/home' }) },
            'consumeRememberedPath',
          ],
        },
        { target: 'done', actions: { type: 'setTarget', params: { kind: 'route', route: 'home' } } },
      ],
    },
    loadingAccessList: {
      tags: ['busy'],
      invoke: {
        id: 'loadAccessList',
        src: 'loadAccessList',
        onDone: [
          {
            guard: { type: 'hasAccesses', params: ({ event }) => event.output as AccessListResult },
            target: 'choosingAccount',
            actions: {
              type: 'storeAccesses',
              params: ({ event }) => (event.output as { accesses: CustomerAccess[] }).accesses,
            },
          },
          {
            guard: { type: 'isTermsError', params: ({ event }) => event.output },
            target: 'terms',
            actions: { type: 'storeTerms', params: ({ event }) => (event.output as { terms: Term[] }).terms },
          },
          // Rule 4: "otherwise login" (no accesses, or the list failed).
          {
            target: 'done',
            actions: {
              type: 'setTarget',
              params: ({ event }) => ({ kind: 'login', reason: event.output.ok ? 'noAccounts' : errorOf(event.output) }),
            },
          },
        ],
        onError: { target: 'done', actions: { type: 'setTarget', params: { kind: 'login', reason: 'unknown' } } },
      },
    },
    choosingAccount: {
      on: {
        'ACCOUNT.CHOOSE': {
          guard: { type: 'isListedAccount', params: ({ event }) => event.customerId },
          target: 'loadingAccessInfo',
          actions: { type: 'chooseAccount', params: ({ event }) => event.customerId },
        },
      },
    },
    loadingAccessInfo: {
      tags: ['busy'],
      invoke: {
        id: 'loadAccessInfo',
        src: 'loadAccessInfo',
        input: ({ context }) => ({ customerId: context.chosenCustomerId ?? context.customer?.customerId ?? 0 }),
        onDone: [
          {
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
            guard: { type: 'isTermsError', params: ({ event }) => event.output },
            target: 'terms',
            actions: { type: 'storeTerms', params: ({ event }) => (event.output as { terms: Term[] }).terms },
          },
          // A company picked in the chooser failed: let the user pick again.
          {
            guard: 'wasChosen',
            target: 'choosingAccount',
            actions: { type: 'storeError', params: ({ event }) => errorOf(event.output) },
          },
          { target: 'done', actions: { type: 'setTarget', params: ({ event }) => ({ kind: 'login', reason: errorOf(event.output) }) } },
        ],
        onError: { target: 'done', actions: { type: 'setTarget', params: { kind: 'login', reason: 'unknown' } } },
      },
    },
    afterAccess: {
      always: [
        { guard: 'accessNeedsKyc', target: 'done', actions: { type: 'setTarget', params: { kind: 'route', route: 'kyc' } } },
        {
          guard: 'isRepresentativeWithoutBalanceInfo',
          target: 'done',
          actions: { type: 'setTarget', params: { kind: 'route', route: 'companyDocuments' } },
        },
        {
          guard: 'hasRememberedPath',
          target: 'done',
          actions: [
            { type: 'setTarget', params: ({ context }) => ({ kind: 'path', path: context.rememberedPath ?? '/home' }) },
            'consumeRememberedPath',
          ],
        },
        {
          guard: 'selfCertificationValidatedOrPending',
          target: 'done',
          actions: { type: 'setTarget', params: { kind: 'route', route: 'home' } },
        },
        { target: 'done', actions: { type: 'setTarget', params: { kind: 'route', route: 'businessSelfCertificationSplash' } } },
      ],
    },
    done: { type: 'final' },
  },
  output: ({ context }) => context.target ?? { kind: 'login', reason: 'unknown' },
});

export type StartPageMachine = typeof startPageMachine;
