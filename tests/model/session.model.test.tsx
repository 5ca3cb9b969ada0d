/**
 * Model-based test of the session: paths generated from the session machine's graph drive the
 * REAL IdleWarning and LoginView (its "session expired" notice) through Testing Library, and the
 * real request hooks and logout function. Time (the machine's `after` delays) and the token
 * service (refresh, logout) are fed as the path's events: a delay fires by sending its event, the
 * token service answers through test-double queues.
 *
 * Proof it can fail: I broke IdleWarning once on purpose (the button sent USER.ACTIVITY instead of
 * SESSION.STAY). Both paths through `SESSION.STAY` went red (the warning stayed open); restored since.
 */
import { describe, expect, it } from 'vitest';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nProvider } from '@lingui/react';
import { TestModel } from '@xstate/graph';
import { createActor, fromPromise, type SnapshotFrom } from 'xstate';
import { loginMachine, type ExchangeResult, type SignInResult } from '../../machines/login/login.machine.ts';
import { sessionMachine, type RefreshResult, type SessionEvent } from '../../machines/session/session.machine.ts';
import { IdleWarning } from '../../src/features/auth/idle-warning.tsx';
import { LoginView } from '../../src/features/auth/login-view.tsx';
import { logout, sessionRequestHooks } from '../../src/features/auth/session-actor.ts';
import { i18n } from '../../src/lib/i18n.ts';
import { listTransitions } from '../../scripts/machine-graph.ts';
import { runPathCheckingEveryStep, edgeCoveringPaths, matchesPath, transitionsTaken } from './coverage.ts';
import { AnswerQueue, makeAccessInfo, makeCustomer, makeTokens } from './support.ts';

type Snap = SnapshotFrom<typeof sessionMachine>;
type SystemEvent = { type: `xstate.${string}`; output?: unknown; error?: unknown };
type ModelEvent = SessionEvent | SystemEvent;

const tokens = makeTokens(300);
const rotated = makeTokens(300);
const notification = { type: 'CustomerNotification', notificationType: 'document', status: 'new', title: 'Document approved', body: 'Your passport was approved.' } as const;

/** Typed so a new session event fails compilation until it has cases here. */
const appEvents = {
  'SESSION.SIGN_IN': [{ type: 'SESSION.SIGN_IN', tokens }],
  'SESSION.LOGOUT': [{ type: 'SESSION.LOGOUT' }],
  'SESSION.STAY': [{ type: 'SESSION.STAY' }],
  'USER.ACTIVITY': [{ type: 'USER.ACTIVITY' }],
  'TOKEN.REFRESH': [{ type: 'TOKEN.REFRESH' }],
  'CUSTOMER.LOADED': [{ type: 'CUSTOMER.LOADED', customer: makeCustomer() }],
  'ACCESS.LOADED': [{ type: 'ACCESS.LOADED', accessInfo: makeAccessInfo() }],
  'ACTING_FOR.SET': [{ type: 'ACTING_FOR.SET', customerId: 42 }],
  'PATH.REMEMBER': [{ type: 'PATH.REMEMBER', path: '/history' }],
  'PATH.CONSUME': [{ type: 'PATH.CONSUME' }],
  'PUSH.RECEIVED': [{ type: 'PUSH.RECEIVED', event: notification }],
} satisfies { [K in SessionEvent['type']]: Extract<SessionEvent, { type: K }>[] };

const systemEvents: SystemEvent[] = [
  { type: 'xstate.after.refreshDelay.session.signedIn.token.fresh' },
  { type: 'xstate.after.idleWarningAfter.session.signedIn.activity.active' },
  { type: 'xstate.after.idleGrace.session.signedIn.activity.idleWarning' },
  { type: 'xstate.after.logoutTimeout.session.signingOut' },
  { type: 'xstate.done.actor.refreshTokens', output: { ok: true, tokens: rotated } satisfies RefreshResult },
  { type: 'xstate.done.actor.refreshTokens', output: { ok: false, code: 'rejected' } satisfies RefreshResult },
  { type: 'xstate.error.actor.refreshTokens', error: new Error('offline') },
  { type: 'xstate.done.actor.revokeSession', output: undefined },
  { type: 'xstate.error.actor.revokeSession', error: new Error('offline') },
];

function eventsFor(s: Snap): ModelEvent[] {
  const all: ModelEvent[] = [...Object.values(appEvents).flat(), ...systemEvents];
  return all.filter((e) => s.can(e as SessionEvent));
}

const serialize = (s: Snap) => JSON.stringify(s.value);

const model = new TestModel(sessionMachine, {
  input: {},
  events: (s) => eventsFor(s as Snap) as never,
  serializeState: (s) => serialize(s as Snap),
  stateMatcher: (s, key) => matchesPath(s as Snap, key),
});

/** A reload with a stored session: the chart starts from what the app restored (restoring -> signedIn). */
const restoredInput = { restored: { tokens, customer: makeCustomer() } };
const restoredModel = new TestModel(sessionMachine, {
  input: restoredInput,
  events: (s) => eventsFor(s as Snap) as never,
  serializeState: (s) => serialize(s as Snap),
  stateMatcher: (s, key) => matchesPath(s as Snap, key),
});

function mount(input: Record<string, unknown> = {}) {
  const refreshes = new AnswerQueue<{ refreshToken: string }, RefreshResult>();
  const revokes = new AnswerQueue<{ refreshToken: string | null }, void>();
  const toasts: string[] = [];
  const cleared: string[] = [];
  const expiredSignals: number[] = [];
  const session = createActor(
    sessionMachine.provide({
      actors: {
        refreshTokens: fromPromise(({ input }) => refreshes.next(input)),
        revokeSession: fromPromise(({ input }) => revokes.next(input)),
      },
      actions: {
        showNotification: (_, n) => void toasts.push(n.title),
        clearStorage: () => void cleared.push('storage'),
        clearCaches: () => void cleared.push('caches'),
      },
    }),
    { input },
  ).start();
  const neverLogin = loginMachine.provide({
    actors: {
      signIn: fromPromise<SignInResult, { username: string; password: string }>(() => new Promise(() => undefined)),
      exchangeCode: fromPromise<ExchangeResult, { code: string; codeVerifier: string; otp?: string }>(() => new Promise(() => undefined)),
    },
  });
  const user = userEvent.setup({ delay: null });
  render(
    <I18nProvider i18n={i18n}>
      <LoginView session={session} logic={neverLogin} />
      <IdleWarning session={session} onExpired={() => expiredSignals.push(Date.now())} />
    </I18nProvider>,
  );
  return { session, refreshes, revokes, toasts, cleared, expiredSignals, user, pending: [] as Promise<unknown>[] };
}
type Harness = ReturnType<typeof mount>;

function stateChecks(h: Harness) {
  const warning = () => screen.queryByRole('button', { name: /stay signed in/i });
  return {
    signedOut: async () => {
      expect(h.session.getSnapshot().context.tokens).toBeNull();
      expect(sessionRequestHooks(h.session).getAccessToken()).toBeNull();
      expect(warning()).toBeNull();
    },
    'signedIn.token.fresh': async () => {
      // the signed-in tokens, or the rotated ones once a refresh succeeded on this path
      const expected = h.refreshes.calls.length > 0 && h.session.getSnapshot().context.tokens?.refreshToken === rotated.refreshToken ? rotated : tokens;
      expect(sessionRequestHooks(h.session).getAccessToken()).toBe(expected.accessToken);
    },
    'signedIn.token.refreshing': async () => {
      expect(h.refreshes.waiting).toBe(1);
    },
    'signedIn.activity.active': async () => {
      await waitFor(() => expect(warning()).toBeNull());
    },
    'signedIn.activity.idleWarning': async () => {
      await screen.findByRole('heading', { name: /are you still there/i });
      expect(warning()).not.toBeNull();
      expect(screen.getByText(/signed out in 1 minute/i)).toBeTruthy();
    },
    signingOut: async () => {
      expect(h.revokes.waiting).toBe(1);
    },
    expired: async () => {
      await screen.findByText(/signed out because your session expired/i);
      expect(warning()).toBeNull();
      expect(h.expiredSignals.length).toBeGreaterThan(0);
      expect(h.cleared).toEqual(expect.arrayContaining(['storage', 'caches']));
      expect(sessionRequestHooks(h.session).getAccessToken()).toBeNull();
    },
  } satisfies Record<string, (s: Snap) => Promise<void>>;
}

function eventExecutors(h: Harness) {
  const direct = async ({ event }: { event: ModelEvent }) => {
    act(() => h.session.send(event as SessionEvent));
  };
  const answer = (queue: AnswerQueue<any, any>) => async ({ event }: { event: ModelEvent }) => {
    const e = event as SystemEvent;
    await act(async () => {
      if (e.type.startsWith('xstate.error')) queue.fail(e.error);
      else queue.answer(e.output);
    });
    await Promise.all(h.pending.splice(0));
  };
  return {
    // The login view hands the tokens over (covered by the login model).
    'SESSION.SIGN_IN': direct,
    // The real logout function the sign-out button calls.
    'SESSION.LOGOUT': async () => {
      h.pending.push(logout(h.session));
    },
    // The real "Stay signed in" button.
    'SESSION.STAY': async () => {
      await h.user.click(screen.getByRole('button', { name: /stay signed in/i }));
    },
    'USER.ACTIVITY': direct,
    // A 401 seen by the request wrapper: the real hook.
    'TOKEN.REFRESH': async () => {
      h.pending.push(sessionRequestHooks(h.session).refresh());
    },
    'CUSTOMER.LOADED': direct,
    'ACCESS.LOADED': direct,
    'ACTING_FOR.SET': direct,
    'PATH.REMEMBER': direct,
    'PATH.CONSUME': direct,
    'PUSH.RECEIVED': async ({ event }: { event: ModelEvent }) => {
      const before = h.toasts.length;
      act(() => h.session.send(event as SessionEvent));
      expect(h.toasts.length).toBe(before + 1);
    },
    'xstate.after.refreshDelay.session.signedIn.token.fresh': direct,
    'xstate.after.idleWarningAfter.session.signedIn.activity.active': direct,
    'xstate.after.idleGrace.session.signedIn.activity.idleWarning': direct,
    'xstate.after.logoutTimeout.session.signingOut': direct,
    'xstate.done.actor.refreshTokens': answer(h.refreshes),
    'xstate.error.actor.refreshTokens': answer(h.refreshes),
    'xstate.done.actor.revokeSession': answer(h.revokes),
    'xstate.error.actor.revokeSession': answer(h.revokes),
  };
}

const paths = edgeCoveringPaths(model, (s) => serialize(s as Snap));
const sequences: ModelEvent[][] = [];

describe('session model', () => {
  paths.forEach((path, i) => {
    const events = path.steps.map((s) => s.event as ModelEvent).filter((e) => e.type !== 'xstate.init');
    sequences.push(events);
    const name = `#${i} ${events.map((e) => e.type.replace(/^xstate\.(after\.\w+|done\.actor\.\w+|error\.actor\.\w+).*/, '$1')).join(' → ') || 'initial'}`;
    it(name, async () => {
      const h = mount();
      await runPathCheckingEveryStep(path, stateChecks(h), eventExecutors(h));
    });
  });

  // restoring -> signedIn needs a restored session: its one path (the rest of the chart from
  // signedIn is the paths above)
  const restoredPath = restoredModel.getShortestPaths({ allowDuplicatePaths: true }).find((p) => p.steps.every((st) => (st.event.type as string) === 'xstate.init'))!;
  it('#restored initial ⇒ a reload with a stored session is signed in at once', async () => {
    expect(restoredPath.state.value).toEqual({ signedIn: { token: 'fresh', activity: 'active' } });
    const h = mount(restoredInput);
    await runPathCheckingEveryStep(restoredPath, stateChecks(h), eventExecutors(h));
    expect(h.session.getSnapshot().context.customer?.firstName).toBe('Anna');
  });

  it('takes every transition of the chart', () => {
    const taken = transitionsTaken(sessionMachine, {}, sequences as never);
    for (const key of transitionsTaken(sessionMachine, restoredInput, [[]])) taken.add(key);
    const missing = listTransitions(sessionMachine).filter((t) => !taken.has(t.key)).map((t) => t.key);
    expect(missing).toEqual([]);
  });
});
