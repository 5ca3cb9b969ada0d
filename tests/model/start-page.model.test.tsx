/**
 * Model-based test of the post-login start page: paths generated from the start-page machine's
 * graph drive the REAL StartPageView (terms acceptance, account chooser) through Testing Library;
 * the named-method calls are test doubles whose answers are the paths' `xstate.done.actor.*`
 * events; the session is the real session machine, checked for what the start page told it.
 *
 * Proof it can fail: I broke the view once on purpose (the chooser's buttons sent the access
 * entry's `id` instead of its `customerId`). 124 of 245 tests, every path through `ACCOUNT.CHOOSE`, went red (the
 * machine's isListedAccount guard refused it and the chooser never became busy); restored since.
 */
import { describe, expect, it } from 'vitest';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nProvider } from '@lingui/react';
import { TestModel } from '@xstate/graph';
import { createActor, fromPromise, type SnapshotFrom } from 'xstate';
import type { CustomerAccess } from '../../api/customer.ts';
import { sessionMachine, type RefreshResult } from '../../machines/session/session.machine.ts';
import {
  startPageMachine,
  type AccessInfoResult,
  type AccessListResult,
  type CustomerResult,
  type StartPageEvent,
  type StartPageInput,
  type StartTarget,
  type TermsAcceptResult,
} from '../../machines/start-page/start-page.machine.ts';
import { StartPageView } from '../../src/features/auth/start-page-view.tsx';
import { i18n } from '../../src/lib/i18n.ts';
import { listTransitions } from '../../scripts/machine-graph.ts';
import { runPathCheckingEveryStep, edgeCoveringPaths, transitionsTaken } from './coverage.ts';
import { AnswerQueue, makeAccessInfo, makeCustomer, makeTokens } from './support.ts';

type Snap = SnapshotFrom<typeof startPageMachine>;
type SystemEvent = { type: `xstate.${string}`; output?: unknown; error?: unknown };
type ModelEvent = StartPageEvent | SystemEvent;

const NORTHWIND = 501;
const access: CustomerAccess = {
  id: 9,
  customerId: NORTHWIND,
  customerName: 'Northwind Trading Ltd',
  customerUsername: 'northwind',
  employeeFirstName: 'Carl',
  employeeLastName: 'Clarke',
  accessRights: 2,
};
const terms = [{ id: 1, version: 3, title: 'General terms', url: 'https://example.test/terms' }];

/** Typed so a new start-page event fails compilation until it has cases here. */
const userEvents = {
  'TERMS.ACCEPT': [{ type: 'TERMS.ACCEPT' }],
  'TERMS.DECLINE': [{ type: 'TERMS.DECLINE' }],
  'ACCOUNT.CHOOSE': [{ type: 'ACCOUNT.CHOOSE', customerId: NORTHWIND }],
} satisfies { [K in StartPageEvent['type']]: Extract<StartPageEvent, { type: K }>[] };

const customers = {
  legacy: makeCustomer({ useOldWeb: true, oldWebUrl: 'https://old.example.test/' }),
  admin: makeCustomer({ isAdmin: true }),
  owner: makeCustomer({ customerType: 'business', isHaveRelatedAccounts: false }),
  clerk: makeCustomer({ customerType: 'business', isHaveRelatedAccounts: true }),
  profile: makeCustomer({ isNeedPersonalInfoUpdate: true }),
  kyc: makeCustomer({ isNeedKyc: true }),
  tax: makeCustomer({ isTaxSectionActionRequired: true }),
  plain: makeCustomer(),
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
    { type: 'xstate.done.actor.loadAccessList', output: { ok: false, code: 'terms', terms } satisfies AccessListResult },
    { type: 'xstate.error.actor.loadAccessList', error: new Error('boom') },
  ],
  loadAccessInfo: [
    { type: 'xstate.done.actor.loadAccessInfo', output: { ok: true, accessInfo: makeAccessInfo({ isNeedKyc: true }) } satisfies AccessInfoResult },
    {
      type: 'xstate.done.actor.loadAccessInfo',
      output: { ok: true, accessInfo: makeAccessInfo({ businessRepresentativePositionIds: [8], accessList: { balanceInfo: false } }) } satisfies AccessInfoResult,
    },
    { type: 'xstate.done.actor.loadAccessInfo', output: { ok: true, accessInfo: makeAccessInfo() } satisfies AccessInfoResult },
    {
      type: 'xstate.done.actor.loadAccessInfo',
      output: { ok: true, accessInfo: makeAccessInfo({ taxResidencySelfCertificationDocumentStatus: 'none' }) } satisfies AccessInfoResult,
    },
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

function eventsFor(s: Snap): ModelEvent[] {
  const all: ModelEvent[] = [...Object.values(userEvents).flat()];
  for (const id of Object.keys(s.children)) all.push(...(answers[id] ?? []));
  return all.filter((e) => s.can(e as StartPageEvent));
}

const serialize = (s: Snap) =>
  JSON.stringify({ value: s.value, error: s.context.error, chosen: s.context.chosenCustomerId, target: s.context.target });

const scenarios: { name: string; input: StartPageInput }[] = [
  { name: 'no remembered path', input: { rememberedPath: null, hasCustomCustomerId: false } },
  { name: 'remembered path, acting for a company', input: { rememberedPath: '/history', hasCustomCustomerId: true } },
];

function mount(input: StartPageInput) {
  const q = {
    loadCustomer: new AnswerQueue<void, CustomerResult>(),
    loadAccessList: new AnswerQueue<void, AccessListResult>(),
    loadAccessInfo: new AnswerQueue<{ customerId: number }, AccessInfoResult>(),
    acceptTerms: new AnswerQueue<{ terms: { id: number; version: number }[] }, TermsAcceptResult>(),
  };
  const logic = startPageMachine.provide({
    actors: {
      loadCustomer: fromPromise(() => q.loadCustomer.next()),
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
  if (input.hasCustomCustomerId) session.send({ type: 'ACTING_FOR.SET', customerId: 777 });
  const targets: StartTarget[] = [];
  const user = userEvent.setup({ delay: null });
  render(
    <I18nProvider i18n={i18n}>
      <StartPageView session={session} logic={logic} onTarget={(t) => targets.push(t)} />
    </I18nProvider>,
  );
  const answered: { customer: unknown; accessInfo: unknown } = { customer: null, accessInfo: null };
  return { q, session, targets, user, input, answered };
}
type Harness = ReturnType<typeof mount>;

function stateChecks(h: Harness) {
  const loading = async () => {
    await screen.findByRole('heading', { name: /^signed in$/i });
    expect(screen.getByRole('status').textContent).toMatch(/loading your account/i);
  };
  const errorShown = (s: Snap) => {
    if (s.context.error) expect(screen.getByRole('alert')).toBeTruthy();
    else expect(screen.queryByRole('alert')).toBeNull();
  };
  return {
    loadingCustomer: async () => {
      await loading();
      expect(h.q.loadCustomer.waiting).toBe(1);
    },
    terms: async (s: Snap) => {
      await screen.findByRole('heading', { name: /updated terms/i });
      await waitFor(() => expect(screen.getByRole('button', { name: /accept and continue/i }).getAttribute('aria-busy')).toBeNull());
      expect(screen.getByRole('link', { name: 'General terms' }).getAttribute('href')).toBe('https://example.test/terms');
      errorShown(s);
    },
    acceptingTerms: async () => {
      await waitFor(() => expect(screen.getByRole('button', { name: /accept and continue/i }).getAttribute('aria-busy')).toBe('true'));
      expect(h.q.acceptTerms.calls.at(-1)).toEqual({ terms: [{ id: 1, version: 3 }] });
    },
    loadingAccessList: async () => {
      await loading();
      expect(h.q.loadAccessList.waiting).toBe(1);
    },
    choosingAccount: async (s: Snap) => {
      await screen.findByRole('heading', { name: /choose an account/i });
      await waitFor(() => expect(screen.getByRole('button', { name: 'Northwind Trading Ltd' }).getAttribute('aria-busy')).toBeNull());
      errorShown(s);
    },
    loadingAccessInfo: async (s: Snap) => {
      if (s.context.chosenCustomerId !== null) {
        await waitFor(() => expect(screen.getByRole('button', { name: 'Northwind Trading Ltd' }).getAttribute('aria-busy')).toBe('true'));
        expect(h.q.loadAccessInfo.calls.at(-1)).toEqual({ customerId: NORTHWIND });
      } else {
        await loading();
        // rule 3: the user's own company
        expect(h.q.loadAccessInfo.calls.at(-1)).toEqual({ customerId: customers.owner.customerId });
      }
    },
    done: async (s: Snap) => {
      await waitFor(() => expect(h.targets).toHaveLength(1));
      expect(h.targets[0]).toEqual(s.output);
      const ctx = h.session.getSnapshot().context;
      // The session learned what the start page loaded on this path. (Compared with the answers
      // given, not with `s.context`: snapshots that serialize alike may come from other paths.)
      expect(ctx.customer).toEqual(h.answered.customer);
      expect(ctx.accessInfo).toEqual(h.answered.accessInfo);
      if (s.context.chosenCustomerId !== null && h.answered.accessInfo) expect(ctx.actingCustomerId).toBe(NORTHWIND);
      else expect(ctx.actingCustomerId).toBe(h.input.hasCustomCustomerId ? 777 : null);
      // a remembered path is used once, then cleared
      if (s.output?.kind === 'path') expect(ctx.rememberedPath).toBeNull();
      else expect(ctx.rememberedPath).toBe(h.input.rememberedPath);
    },
  } satisfies Record<string, (s: Snap) => Promise<void>>;
}

function eventExecutors(h: Harness) {
  const answer = (queue: AnswerQueue<any, any>) => async ({ event }: { event: ModelEvent }) => {
    const e = event as SystemEvent;
    const out = e.output as { customer?: unknown; accessInfo?: unknown } | undefined;
    if (out?.customer) h.answered.customer = out.customer;
    if (out?.accessInfo) h.answered.accessInfo = out.accessInfo;
    await act(async () => {
      if (e.type.startsWith('xstate.error')) queue.fail(e.error);
      else queue.answer(e.output);
    });
  };
  return {
    'TERMS.ACCEPT': async () => h.user.click(screen.getByRole('button', { name: /accept and continue/i })),
    'TERMS.DECLINE': async () => h.user.click(screen.getByRole('button', { name: /decline and sign out/i })),
    'ACCOUNT.CHOOSE': async () => h.user.click(screen.getByRole('button', { name: 'Northwind Trading Ltd' })),
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

const allSequences: { input: StartPageInput; events: ModelEvent[] }[] = [];

for (const scenario of scenarios) {
  const model = new TestModel(startPageMachine, {
    input: scenario.input,
    events: (s) => eventsFor(s as Snap) as never,
    serializeState: (s) => serialize(s as Snap),
    stateMatcher: (s, key) => (s as Snap).matches(key as never),
  });
  const paths = edgeCoveringPaths(model, (s) => serialize(s as Snap));
  describe(`start-page model: ${scenario.name}`, () => {
    paths.forEach((path, i) => {
      const events = path.steps.map((s) => s.event as ModelEvent).filter((e) => e.type !== 'xstate.init');
      allSequences.push({ input: scenario.input, events });
      const last = path.steps.at(-1)?.state as Snap | undefined;
      const name = `#${i} ${events.map((e) => e.type.replace(/^xstate\.done\.actor\./, 'done.').replace(/^xstate\.error\.actor\./, 'error.')).join(' → ')} ⇒ ${JSON.stringify(last?.value)} ${last?.context.target ? JSON.stringify(last.context.target) : ''}`;
      it(name, async () => {
        const h = mount(scenario.input);
        await runPathCheckingEveryStep(path, stateChecks(h), eventExecutors(h));
      });
    });
  });
}

describe('start-page model: transition coverage', () => {
  it('every transition of the chart is taken by some path', () => {
    const taken = new Set<string>();
    for (const { input, events } of allSequences) for (const key of transitionsTaken(startPageMachine, input, [events as never])) taken.add(key);
    const missing = listTransitions(startPageMachine).filter((t) => !taken.has(t.key)).map((t) => t.key);
    expect(missing).toEqual([]);
  });
});
