/**
 * Model-based test of the post-login start page: paths generated from the start-page machine's
 * graph drive the REAL StartPageView (terms acceptance, account chooser) through Testing Library;
 * the named-method calls are test doubles whose answers are the paths' `xstate.done.actor.*`
 * events; the session is the real session machine, checked for what the start page told it.
 *
 * Every step checks the page against what the test did (`Did`, worked out by `record` from the
 * events performed and the answers given), never against the chart's context or output: which
 * state the page must be in, the error it shows, the call's input, and the target each customer
 * and access info must end at, written out per fixture below (document 1 §2, both rule lists;
 * each fixture also has the flags of every later rule it can have, so the first rule must win).
 * The chooser is also offered a company that is not in the list (sent to the actor: the page has
 * no button for it), which the chart must refuse.
 *
 * Proof it can fail: before the mending, the chooser's buttons sending the access entry's `id`
 * instead of its `customerId` turned 124 of 245 tests red. After it, five breakages, each tried
 * alone on the machine or the rules and restored: the kyc and tax rules swapped in `deciding`
 * (13 of 277 red), the ACCOUNT.CHOOSE guard always true (144 of the 415 tests the broken chart
 * makes), a representative without balance information sent home instead of to the company
 * documents (4 red), rule 1 without its "has a legacy address" (6 red), and an after-access
 * rule forgetting "validated" (2 red).
 */
import { describe, expect, it } from 'vitest';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nProvider } from '@lingui/react';
import { TestModel, type TestPath } from '@xstate/graph';
import { createActor, fromPromise, type AnyActorRef, type SnapshotFrom } from 'xstate';
import type { Term } from '../../api/envelope.ts';
import type { Customer, CustomerAccess } from '../../api/customer.ts';
import { sessionMachine, type AccessInfo, type RefreshResult } from '../../machines/session/session.machine.ts';
import {
  startPageMachine,
  type AccessInfoResult,
  type AccessListResult,
  type CustomerResult,
  type StartErrorCode,
  type StartPageEvent,
  type StartPageInput,
  type StartRoute,
  type StartTarget,
  type TermsAcceptResult,
} from '../../machines/start-page/start-page.machine.ts';
import { StartPageView } from '../../src/features/auth/start-page-view.tsx';
import { i18n } from '../../src/lib/i18n.ts';
import { listTransitions } from '../../scripts/machine-graph.ts';
import { edgeCoveringPaths, expectOffered, recordingExecutors, runPathCheckingEveryStep, transitionsTaken, unreachedStates } from './coverage.ts';
import { AnswerQueue, makeAccessInfo, makeCustomer, makeTokens } from './support.ts';

type Snap = SnapshotFrom<typeof startPageMachine>;
type SystemEvent = { type: `xstate.${string}`; output?: unknown; error?: unknown };
type ModelEvent = StartPageEvent | SystemEvent;

const NORTHWIND = 501;
/** a company the user may not act for: the chooser never lists it, the chart must refuse it */
const UNLISTED = 502;
/** the business owner's own customer id (rule 3 loads the access info of the user's own company) */
const OWN = 42;
/** the company the session already acts for in the second scenario */
const ACTING = 777;
const REMEMBERED = '/history';
const LEGACY_URL = 'https://old.example.test/';

const access: CustomerAccess = {
  id: 9,
  customerId: NORTHWIND,
  customerName: 'Northwind Trading Ltd',
  customerUsername: 'northwind',
  employeeFirstName: 'Carl',
  employeeLastName: 'Clarke',
  accessRights: 2,
};
const terms: Term[] = [{ id: 1, version: 3, title: 'General terms', url: 'https://example.test/terms' }];
const companyTerms: Term[] = [
  { id: 4, version: 1, title: 'Business terms', url: 'https://example.test/business-terms' },
  { id: 1, version: 3, title: 'General terms', url: 'https://example.test/terms' },
];

/** Typed so a new start-page event fails compilation until it has cases here. */
const userEvents = {
  'TERMS.ACCEPT': [{ type: 'TERMS.ACCEPT' }],
  'TERMS.DECLINE': [{ type: 'TERMS.DECLINE' }],
  'ACCOUNT.CHOOSE': [
    { type: 'ACCOUNT.CHOOSE', customerId: NORTHWIND },
    { type: 'ACCOUNT.CHOOSE', customerId: UNLISTED },
  ],
} satisfies { [K in StartPageEvent['type']]: Extract<StartPageEvent, { type: K }>[] };

/** Each customer has its rule's flag and those of the later rules it can have: the first must win. */
const laterFlags = { isNeedPersonalInfoUpdate: true, isNeedKyc: true, isTaxSectionActionRequired: true };
const customers = {
  legacy: makeCustomer({ useOldWeb: true, oldWebUrl: LEGACY_URL, isAdmin: true, customerType: 'business', ...laterFlags }),
  legacyWithoutAddress: makeCustomer({ useOldWeb: true, oldWebUrl: null }),
  admin: makeCustomer({ isAdmin: true, customerType: 'business', ...laterFlags }),
  owner: makeCustomer({ customerType: 'business', isHaveRelatedAccounts: false, customerId: OWN, ...laterFlags }),
  clerk: makeCustomer({ customerType: 'business', isHaveRelatedAccounts: true, ...laterFlags }),
  profile: makeCustomer({ ...laterFlags }),
  kyc: makeCustomer({ isNeedKyc: true, isTaxSectionActionRequired: true }),
  tax: makeCustomer({ isTaxSectionActionRequired: true }),
  plain: makeCustomer(),
};
type CustomerName = keyof typeof customers;

/** Likewise for the access info of the company (document 1 §2 "After access info is loaded"). */
const representativeWithout = { businessRepresentativePositionIds: [8], accessList: { balanceInfo: false } };
const accessInfos = {
  needsKyc: makeAccessInfo({ isNeedKyc: true, ...representativeWithout, taxResidencySelfCertificationDocumentStatus: 'none' }),
  representative: makeAccessInfo({ ...representativeWithout, taxResidencySelfCertificationDocumentStatus: 'none' }),
  representativeWithBalance: makeAccessInfo({ businessRepresentativePositionIds: [8], taxResidencySelfCertificationDocumentStatus: 'none' }),
  employee: makeAccessInfo({ businessRepresentativePositionIds: [3], accessList: { balanceInfo: false } }),
  pending: makeAccessInfo({ taxResidencySelfCertificationDocumentStatus: 'pending' }),
  selfCertificationToDo: makeAccessInfo({ taxResidencySelfCertificationDocumentStatus: 'none' }),
};
type AccessInfoName = keyof typeof accessInfos;

const scenarios = [
  { key: 'fresh', name: 'no remembered path', input: { rememberedPath: null, hasCustomCustomerId: false } },
  { key: 'remembered', name: 'remembered path, acting for a company', input: { rememberedPath: REMEMBERED, hasCustomCustomerId: true } },
] as const satisfies readonly { key: string; name: string; input: StartPageInput }[];
type Scenario = (typeof scenarios)[number];
type ScenarioKey = Scenario['key'];

const route = (r: StartRoute): StartTarget => ({ kind: 'route', route: r });
const remembered: StartTarget = { kind: 'path', path: REMEMBERED };
const login = (reason: StartErrorCode): StartTarget => ({ kind: 'login', reason });

/**
 * Where each customer goes first (document 1 §2, rules 1-9), written out: the target, or 'ownCompany'
 * (rule 3: the own company's access info is loaded), or 'chooser' (rule 4: the list of companies).
 * The second scenario has a custom customer id (no legacy web) and a remembered path.
 */
const startOf: Record<CustomerName, Record<ScenarioKey, StartTarget | 'ownCompany' | 'chooser'>> = {
  legacy: { fresh: { kind: 'external', url: LEGACY_URL }, remembered: route('adminOverview') },
  legacyWithoutAddress: { fresh: route('home'), remembered },
  admin: { fresh: route('adminOverview'), remembered: route('adminOverview') },
  owner: { fresh: 'ownCompany', remembered: 'ownCompany' },
  clerk: { fresh: 'chooser', remembered: 'chooser' },
  profile: { fresh: route('profileUpdate'), remembered: route('profileUpdate') },
  kyc: { fresh: route('kyc'), remembered: route('kyc') },
  tax: { fresh: route('selfCertificationSplash'), remembered: route('selfCertificationSplash') },
  plain: { fresh: route('home'), remembered },
};

/** Where each access info leads (document 1 §2 "After access info is loaded"), written out. */
const afterAccessOf: Record<AccessInfoName, Record<ScenarioKey, StartTarget>> = {
  needsKyc: { fresh: route('kyc'), remembered: route('kyc') },
  representative: { fresh: route('companyDocuments'), remembered: route('companyDocuments') },
  representativeWithBalance: { fresh: route('businessSelfCertificationSplash'), remembered },
  employee: { fresh: route('home'), remembered },
  pending: { fresh: route('home'), remembered },
  selfCertificationToDo: { fresh: route('businessSelfCertificationSplash'), remembered },
};

const nameIn = <K extends string>(fixtures: Record<K, unknown>, value: unknown): K => {
  const name = (Object.keys(fixtures) as K[]).find((k) => JSON.stringify(fixtures[k]) === JSON.stringify(value));
  if (!name) throw new Error(`not a fixture: ${JSON.stringify(value)}`);
  return name;
};

const answers: Record<string, SystemEvent[]> = {
  loadCustomer: [
    ...Object.values(customers).map((customer) => ({ type: 'xstate.done.actor.loadCustomer' as const, output: { ok: true, customer } satisfies CustomerResult })),
    { type: 'xstate.done.actor.loadCustomer', output: { ok: false, code: 'terms', terms } satisfies CustomerResult },
    { type: 'xstate.done.actor.loadCustomer', output: { ok: false, code: 'network' } satisfies CustomerResult },
    { type: 'xstate.error.actor.loadCustomer', error: new Error('boom') },
  ],
  loadAccessList: [
    { type: 'xstate.done.actor.loadAccessList', output: { ok: true, accesses: [access] } satisfies AccessListResult },
    { type: 'xstate.done.actor.loadAccessList', output: { ok: true, accesses: [] } satisfies AccessListResult },
    { type: 'xstate.done.actor.loadAccessList', output: { ok: false, code: 'terms', terms: companyTerms } satisfies AccessListResult },
    { type: 'xstate.done.actor.loadAccessList', output: { ok: false, code: 'auth' } satisfies AccessListResult },
    { type: 'xstate.error.actor.loadAccessList', error: new Error('boom') },
  ],
  loadAccessInfo: [
    ...Object.values(accessInfos).map((accessInfo) => ({ type: 'xstate.done.actor.loadAccessInfo' as const, output: { ok: true, accessInfo } satisfies AccessInfoResult })),
    { type: 'xstate.done.actor.loadAccessInfo', output: { ok: false, code: 'terms', terms } satisfies AccessInfoResult },
    { type: 'xstate.done.actor.loadAccessInfo', output: { ok: false, code: 'noAccess' } satisfies AccessInfoResult },
    { type: 'xstate.error.actor.loadAccessInfo', error: new Error('boom') },
  ],
  acceptTerms: [
    { type: 'xstate.done.actor.acceptTerms', output: { ok: true } satisfies TermsAcceptResult },
    { type: 'xstate.done.actor.acceptTerms', output: { ok: false, code: 'network' } satisfies TermsAcceptResult },
    { type: 'xstate.error.actor.acceptTerms', error: new Error('boom') },
  ],
};

/**
 * The events of a snapshot: the page's controls where it shows them (the chooser also gets a company
 * it does not list: not filtered by `s.can`, the chart must refuse it), the answers of the call
 * running. Nothing is filtered by the chart itself.
 */
function eventsFor(s: Snap): ModelEvent[] {
  if (s.matches('terms')) return [...userEvents['TERMS.ACCEPT'], ...userEvents['TERMS.DECLINE']];
  if (s.matches('choosingAccount')) return userEvents['ACCOUNT.CHOOSE'];
  return Object.keys(s.children).flatMap((id) => answers[id] ?? []);
}

const serialize = (s: Snap) =>
  JSON.stringify({ value: s.value, error: s.context.error, chosen: s.context.chosenCustomerId, target: s.context.target });

type Step = 'loadingCustomer' | 'terms' | 'acceptingTerms' | 'loadingAccessList' | 'choosingAccount' | 'loadingAccessInfo' | 'done';

/** What the test did, kept apart from the chart's context: the page and the target are expected from it. */
interface Did {
  last: ModelEvent | null;
  /** the step the page must be at */
  at: Step;
  /** the error the terms or the chooser must show */
  error: StartErrorCode | null;
  /** the terms the platform asked to accept last */
  terms: Term[];
  /** the companies the list answered with */
  listed: number[];
  /** the company picked in the chooser since the customer was loaded (null: the user's own) */
  chosen: number | null;
  /** the start page's end */
  target: StartTarget | null;
  /** what the session must know at the end */
  session: { customer: Customer | null; accessInfo: AccessInfo | null; actingCustomerId: number | null; rememberedPath: string | null };
}

function freshDid(input: StartPageInput): Did {
  return {
    last: null,
    at: 'loadingCustomer',
    error: null,
    terms: [],
    listed: [],
    chosen: null,
    target: null,
    session: { customer: null, accessInfo: null, actingCustomerId: input.hasCustomCustomerId ? ACTING : null, rememberedPath: input.rememberedPath },
  };
}

/** What each event calls for, worked out here (and from the tables above) rather than read from the chart. */
function record(did: Did, scenario: Scenario, event: ModelEvent): void {
  did.last = event;
  const out = (event as SystemEvent).output as { ok: boolean; code?: string; terms?: Term[]; customer?: Customer; accesses?: CustomerAccess[]; accessInfo?: AccessInfo } | undefined;
  const finish = (target: StartTarget) => {
    Object.assign(did, { at: 'done', target });
    // a remembered path is used once, then forgotten
    if (target.kind === 'path') did.session.rememberedPath = null;
  };
  const toTerms = () => Object.assign(did, { at: 'terms', terms: out!.terms, error: null });
  const failedWith = (): StartErrorCode => (event.type.startsWith('xstate.error') ? 'unknown' : (out!.code as StartErrorCode));
  switch (event.type) {
    case 'TERMS.ACCEPT':
      did.at = 'acceptingTerms';
      return;
    case 'TERMS.DECLINE':
      finish(login('termsDeclined'));
      return;
    case 'ACCOUNT.CHOOSE': {
      const { customerId } = event as Extract<StartPageEvent, { type: 'ACCOUNT.CHOOSE' }>;
      // only a listed company: anything else changes nothing
      if (did.listed.includes(customerId)) Object.assign(did, { at: 'loadingAccessInfo', chosen: customerId, error: null });
      return;
    }
    case 'xstate.done.actor.acceptTerms':
      if (out!.ok) did.at = 'loadingCustomer';
      else Object.assign(did, { at: 'terms', error: out!.code });
      return;
    case 'xstate.error.actor.acceptTerms':
      Object.assign(did, { at: 'terms', error: 'unknown' });
      return;
    case 'xstate.done.actor.loadCustomer': {
      if (out!.code === 'terms') return void toTerms();
      if (!out!.ok) return finish(login(failedWith()));
      did.session.customer = out!.customer!;
      Object.assign(did, { error: null, chosen: null });
      const next = startOf[nameIn(customers, out!.customer)][scenario.key];
      if (next === 'ownCompany') did.at = 'loadingAccessInfo';
      else if (next === 'chooser') did.at = 'loadingAccessList';
      else finish(next);
      return;
    }
    case 'xstate.done.actor.loadAccessList':
      if (out!.code === 'terms') return void toTerms();
      if (out!.ok && out!.accesses!.length > 0) Object.assign(did, { at: 'choosingAccount', listed: out!.accesses!.map((a) => a.customerId), error: null });
      else finish(login(out!.ok ? 'noAccounts' : failedWith()));
      return;
    case 'xstate.done.actor.loadAccessInfo':
      if (out!.code === 'terms') return void toTerms();
      if (out!.ok) {
        did.session.accessInfo = out!.accessInfo!;
        if (did.chosen !== null) did.session.actingCustomerId = did.chosen;
        finish(afterAccessOf[nameIn(accessInfos, out!.accessInfo)][scenario.key]);
      } else if (did.chosen !== null) Object.assign(did, { at: 'choosingAccount', error: failedWith() });
      else finish(login(failedWith()));
      return;
    case 'xstate.error.actor.loadCustomer':
    case 'xstate.error.actor.loadAccessList':
    case 'xstate.error.actor.loadAccessInfo':
      finish(login('unknown'));
      return;
    default:
      throw new Error(`no record for ${event.type}`);
  }
}

function mount(scenario: Scenario) {
  const { input } = scenario;
  const q = {
    loadCustomer: new AnswerQueue<void, CustomerResult>(),
    loadAccessList: new AnswerQueue<void, AccessListResult>(),
    loadAccessInfo: new AnswerQueue<{ customerId: number }, AccessInfoResult>(),
    acceptTerms: new AnswerQueue<{ terms: { id: number; version: number }[] }, TermsAcceptResult>(),
  };
  /** the start page's actor, which the view creates: the first call's parent */
  const page: { actor: AnyActorRef | null } = { actor: null };
  const logic = startPageMachine.provide({
    actors: {
      loadCustomer: fromPromise(({ self }) => {
        page.actor = self._parent ?? null;
        return q.loadCustomer.next();
      }),
      loadAccessList: fromPromise(() => q.loadAccessList.next()),
      loadAccessInfo: fromPromise(({ input: i }) => q.loadAccessInfo.next(i)),
      acceptTerms: fromPromise(({ input: i }) => q.acceptTerms.next(i)),
    },
  });
  const session = createActor(
    sessionMachine.provide({
      actors: {
        refreshTokens: fromPromise<RefreshResult, { refreshToken: string }>(() => new Promise(() => undefined)),
        revokeSession: fromPromise<void, { refreshToken: string | null }>(async () => undefined),
      },
    }),
    { input: {} },
  ).start();
  session.send({ type: 'SESSION.SIGN_IN', tokens: makeTokens() });
  if (input.rememberedPath) session.send({ type: 'PATH.REMEMBER', path: input.rememberedPath });
  if (input.hasCustomCustomerId) session.send({ type: 'ACTING_FOR.SET', customerId: ACTING });
  const targets: StartTarget[] = [];
  const user = userEvent.setup({ delay: null });
  render(
    <I18nProvider i18n={i18n}>
      <StartPageView session={session} logic={logic} onTarget={(t) => targets.push(t)} />
    </I18nProvider>,
  );
  return { q, session, targets, user, scenario, page, did: freshDid(input) };
}
type Harness = ReturnType<typeof mount>;

const chooserButton = () => screen.getByRole('button', { name: 'Northwind Trading Ltd' });
const acceptButton = () => screen.getByRole('button', { name: /accept and continue/i });

function stateChecks(h: Harness) {
  const loading = async () => {
    await screen.findByRole('heading', { name: /^signed in$/i });
    expect(screen.getByRole('status').textContent).toMatch(/loading your account/i);
  };
  const errorShown = () => {
    if (h.did.error) expect(screen.getByRole('alert')).toBeTruthy();
    else expect(screen.queryByRole('alert')).toBeNull();
  };
  const termsShown = () => {
    expect(screen.getAllByRole('link').map((a) => [a.textContent, a.getAttribute('href')])).toEqual(h.did.terms.map((t) => [t.title, t.url]));
  };
  /** the chart takes every answer the call may give (an answer it refused would leave the page waiting) */
  const takesAnswers = (s: Snap, id: keyof typeof h.q) => {
    for (const answer of answers[id]!) expect(s.can(answer as never), `${answer.type} ${JSON.stringify(answer.output)}`).toBe(true);
  };
  return {
    loadingCustomer: async (s: Snap) => {
      expect(h.did.at).toBe('loadingCustomer');
      await loading();
      expect(h.q.loadCustomer.waiting).toBe(1);
      takesAnswers(s, 'loadCustomer');
    },
    terms: async (s: Snap) => {
      expect(h.did.at).toBe('terms');
      await screen.findByRole('heading', { name: /updated terms/i });
      await waitFor(() => expect(acceptButton().getAttribute('aria-busy')).toBeNull());
      termsShown();
      errorShown();
      expectOffered<StartPageEvent>(s, [{ type: 'TERMS.ACCEPT' }, { type: 'TERMS.DECLINE' }]);
      expect(['TERMS.ACCEPT', 'TERMS.DECLINE']).not.toContain(h.did.last?.type);
    },
    acceptingTerms: async (s: Snap) => {
      expect(h.did.at).toBe('acceptingTerms');
      await waitFor(() => expect(acceptButton().getAttribute('aria-busy')).toBe('true'));
      termsShown();
      errorShown();
      expect(h.q.acceptTerms.waiting).toBe(1);
      // the terms the platform asked for, by id and version
      expect(h.q.acceptTerms.calls.at(-1)).toEqual({ terms: h.did.terms.map((t) => ({ id: t.id, version: t.version })) });
      takesAnswers(s, 'acceptTerms');
    },
    loadingAccessList: async (s: Snap) => {
      expect(h.did.at).toBe('loadingAccessList');
      await loading();
      expect(h.q.loadAccessList.waiting).toBe(1);
      takesAnswers(s, 'loadAccessList');
    },
    choosingAccount: async (s: Snap) => {
      expect(h.did.at).toBe('choosingAccount');
      await screen.findByRole('heading', { name: /choose an account/i });
      await waitFor(() => expect(chooserButton().getAttribute('aria-busy')).toBeNull());
      expect(h.did.listed).toEqual([NORTHWIND]);
      expect(screen.getAllByRole('button').map((b) => b.textContent)).toEqual(['Northwind Trading Ltd']);
      errorShown();
      expectOffered<StartPageEvent>(s, [{ type: 'ACCOUNT.CHOOSE', customerId: NORTHWIND }]);
      // a pick of the listed company moved on; one of another company was refused: nothing asked
      const last = h.did.last as Partial<Extract<StartPageEvent, { type: 'ACCOUNT.CHOOSE' }>> | null;
      if (last?.type === 'ACCOUNT.CHOOSE') expect(last.customerId).not.toBe(NORTHWIND);
      expect(h.q.loadAccessInfo.waiting).toBe(0);
    },
    loadingAccessInfo: async (s: Snap) => {
      expect(h.did.at).toBe('loadingAccessInfo');
      if (h.did.chosen !== null) {
        // the chooser stays, the picked company busy
        await waitFor(() => expect(chooserButton().getAttribute('aria-busy')).toBe('true'));
        expect(screen.queryByRole('alert')).toBeNull();
        expect(h.q.loadAccessInfo.calls.at(-1)).toEqual({ customerId: NORTHWIND });
      } else {
        await loading();
        // rule 3: the user's own company
        expect(h.q.loadAccessInfo.calls.at(-1)).toEqual({ customerId: OWN });
      }
      expect(h.q.loadAccessInfo.waiting).toBe(1);
      takesAnswers(s, 'loadAccessInfo');
    },
    done: async () => {
      expect(h.did.at).toBe('done');
      await waitFor(() => expect(h.targets).toHaveLength(1));
      expect(h.targets[0]).toEqual(h.did.target);
      // The session learned what the start page loaded on this path (and forgot a path it used).
      const ctx = h.session.getSnapshot().context;
      expect(ctx.customer).toEqual(h.did.session.customer);
      expect(ctx.accessInfo).toEqual(h.did.session.accessInfo);
      expect(ctx.actingCustomerId).toBe(h.did.session.actingCustomerId);
      expect(ctx.rememberedPath).toBe(h.did.session.rememberedPath);
      for (const queue of Object.values(h.q)) expect(queue.waiting).toBe(0);
    },
  } satisfies Record<string, (s: Snap) => Promise<void>>;
}

function eventExecutors(h: Harness) {
  return recordingExecutors<ModelEvent>(eventExecutorsOf(h), (event) => record(h.did, h.scenario, event));
}

function eventExecutorsOf(h: Harness) {
  const answer = (queue: AnswerQueue<any, any>) => async ({ event }: { event: ModelEvent }) => {
    const e = event as SystemEvent;
    await act(async () => {
      if (e.type.startsWith('xstate.error')) queue.fail(e.error);
      else queue.answer(e.output);
    });
  };
  return {
    'TERMS.ACCEPT': async () => h.user.click(acceptButton()),
    'TERMS.DECLINE': async () => h.user.click(screen.getByRole('button', { name: /decline and sign out/i })),
    'ACCOUNT.CHOOSE': async ({ event }: { event: ModelEvent }) => {
      const { customerId } = event as Extract<StartPageEvent, { type: 'ACCOUNT.CHOOSE' }>;
      if (customerId === NORTHWIND) await h.user.click(chooserButton());
      // the page has no button for a company it does not list: sent as a forged page would
      else await act(async () => h.page.actor!.send(event));
    },
    'xstate.done.actor.loadCustomer': answer(h.q.loadCustomer),
    'xstate.error.actor.loadCustomer': answer(h.q.loadCustomer),
    'xstate.done.actor.loadAccessList': answer(h.q.loadAccessList),
    'xstate.error.actor.loadAccessList': answer(h.q.loadAccessList),
    'xstate.done.actor.loadAccessInfo': answer(h.q.loadAccessInfo),
    'xstate.error.actor.loadAccessInfo': answer(h.q.loadAccessInfo),
    'xstate.done.actor.acceptTerms': answer(h.q.acceptTerms),
    'xstate.error.actor.acceptTerms': answer(h.q.acceptTerms),
  };
}

/** A step's short name in a test's title, with the fixture answered. */
function label(e: ModelEvent): string {
  const short = e.type.replace(/^xstate\.done\.actor\./, 'done.').replace(/^xstate\.error\.actor\./, 'error.');
  if ('customerId' in e) return `${short}(${e.customerId})`;
  const out = (e as SystemEvent).output as { ok: boolean; code?: string; customer?: unknown; accessInfo?: unknown; accesses?: unknown[] } | undefined;
  if (!out) return short;
  if (out.customer) return `${short}(${nameIn(customers, out.customer)})`;
  if (out.accessInfo) return `${short}(${nameIn(accessInfos, out.accessInfo)})`;
  if (out.accesses) return `${short}(${out.accesses.length})`;
  return `${short}(${out.ok ? 'ok' : out.code})`;
}

const allSequences: { input: StartPageInput; events: ModelEvent[] }[] = [];
const allPaths: TestPath<any, any>[] = [];

for (const scenario of scenarios) {
  const model = new TestModel(startPageMachine, {
    input: scenario.input,
    events: (s) => eventsFor(s as Snap) as never,
    serializeState: (s) => serialize(s as Snap),
    stateMatcher: (s, key) => (s as Snap).matches(key as never),
  });
  const paths = edgeCoveringPaths(model, (s) => serialize(s as Snap));
  allPaths.push(...paths);
  describe(`start-page model: ${scenario.name}`, () => {
    paths.forEach((path, i) => {
      const events = path.steps.map((s) => s.event as ModelEvent).filter((e) => e.type !== 'xstate.init');
      allSequences.push({ input: scenario.input, events });
      const last = path.steps.at(-1)?.state as Snap | undefined;
      it(`#${i} ${events.map(label).join(' → ') || 'initial'} ⇒ ${JSON.stringify(last?.value)}`, async () => {
        const h = mount(scenario);
        await runPathCheckingEveryStep(path, stateChecks(h), eventExecutors(h));
      });
    });
  });
}

describe('start-page model: the chart', () => {
  it('is named startPage (the inspector and the audit pack show it by that id)', () => {
    expect(startPageMachine.id).toBe('startPage');
  });

  it('every state of the chart is reached by some path (the two decisions are passed through)', () => {
    expect(unreachedStates(startPageMachine, allPaths)).toEqual(['deciding', 'afterAccess']);
  });
});

describe('start-page model: transition coverage', () => {
  it('every transition of the chart is taken by some path', () => {
    const taken = new Set<string>();
    for (const { input, events } of allSequences) for (const key of transitionsTaken(startPageMachine, input, [events as never])) taken.add(key);
    const missing = listTransitions(startPageMachine).filter((t) => !taken.has(t.key)).map((t) => t.key);
    expect(missing).toEqual([]);
  });
});
