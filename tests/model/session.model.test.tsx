/**
 * Model-based test of the session: paths generated from the session machine's graph drive the
 * REAL IdleWarning and LoginView (its "session expired" notice) through Testing Library, and the
 * real request hooks and logout function. Time (the machine's `after` delays) and the token
 * service (refresh, logout) are fed as the path's events: a delay fires by sending its event, the
 * token service answers through test-double queues. Each page, and what the session tells its
 * readers (the request hooks' token and acting-for id, the customer, the remembered path, toasts,
 * storage cleared), is expected from what the test did (`record`), never from the chart's context;
 * variants at and past the guards' bounds are sent where their event is taken, and must change
 * nothing when refused.
 *
 * Proof it can fail: I broke IdleWarning once on purpose (the button sent USER.ACTIVITY instead of
 * SESSION.STAY). Both paths through `SESSION.STAY` went red (the warning stayed open); restored since.
 * Since the checks read what the test did, these broken charts each went red too (restored): a
 * remembered path of exactly the longest length refused, any acting-for id accepted, a refresh's
 * unreadable tokens kept, logout keeping the remembered path, expiry keeping the acting-for id.
 */
import { describe, expect, it } from 'vitest';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nProvider } from '@lingui/react';
import { TestModel } from '@xstate/graph';
import { createActor, fromPromise, type SnapshotFrom } from 'xstate';
import { loginMachine, type ExchangeResult, type SignInResult } from '../../machines/login/login.machine.ts';
import type { Tokens } from '../../api/auth.ts';
import type { Customer } from '../../api/customer.ts';
import {
  MAX_REMEMBERED_PATH_LENGTH,
  sessionMachine,
  type AccessInfo,
  type RefreshResult,
  type SessionEvent,
  type SessionInput,
} from '../../machines/session/session.machine.ts';
import { selectCustomer, selectRememberedPath } from '../../machines/session/session.select.ts';
import { IdleWarning } from '../../src/features/auth/idle-warning.tsx';
import { LoginView } from '../../src/features/auth/login-view.tsx';
import { logout, sessionRequestHooks } from '../../src/features/auth/session-actor.ts';
import { i18n } from '../../src/lib/i18n.ts';
import { listTransitions } from '../../scripts/machine-graph.ts';
import { edgeCoveringPaths, expectOffered, matchesPath, recordingExecutors, runPathCheckingEveryStep, transitionsTaken, unreachedStates } from './coverage.ts';
import { AnswerQueue, makeAccessInfo, makeCustomer, makeTokens } from './support.ts';

type Snap = SnapshotFrom<typeof sessionMachine>;
type SystemEvent = { type: `xstate.${string}`; output?: unknown; error?: unknown };
type ModelEvent = SessionEvent | SystemEvent;

const tokens = makeTokens(300);
const rotated = makeTokens(300);
/** Not a JWT: the chart must refuse it wherever tokens arrive (sign-in, a refresh's answer, a reload). */
const unreadable: Tokens = { accessToken: 'not-a-token', refreshToken: 'refresh-x' };
const notification = { type: 'CustomerNotification', notificationType: 'document', status: 'new', title: 'Document approved', body: 'Your passport was approved.' } as const;
const otherPush = { type: 'DeviceUnlinked', deviceId: 3 } as const;
const customer = makeCustomer();
const accessInfo = makeAccessInfo();
/** Document 1 §4's bound on a remembered path, at and one past it. */
const LONGEST_PATH = `/${'a'.repeat(MAX_REMEMBERED_PATH_LENGTH - 1)}`;
const TOO_LONG_PATH = `${LONGEST_PATH}a`;

/** Typed so a new session event fails compilation until it has cases here. */
const appEvents = {
  'SESSION.SIGN_IN': [{ type: 'SESSION.SIGN_IN', tokens }],
  'SESSION.LOGOUT': [{ type: 'SESSION.LOGOUT' }],
  'SESSION.STAY': [{ type: 'SESSION.STAY' }],
  'USER.ACTIVITY': [{ type: 'USER.ACTIVITY' }],
  'TOKEN.REFRESH': [{ type: 'TOKEN.REFRESH' }],
  'CUSTOMER.LOADED': [{ type: 'CUSTOMER.LOADED', customer }],
  'ACCESS.LOADED': [{ type: 'ACCESS.LOADED', accessInfo }],
  'ACTING_FOR.SET': [{ type: 'ACTING_FOR.SET', customerId: 42 }],
  'PATH.REMEMBER': [{ type: 'PATH.REMEMBER', path: '/history' }],
  'PATH.CONSUME': [{ type: 'PATH.CONSUME' }],
  'PUSH.RECEIVED': [{ type: 'PUSH.RECEIVED', event: notification }],
} satisfies { [K in SessionEvent['type']]: Extract<SessionEvent, { type: K }>[] };

/**
 * Variants at and past the guards' bounds, some to be taken and some to be refused, offered where
 * their event is taken (signed out, and signed in with nothing pending) so the graph stays small.
 */
const boundaryEvents: SessionEvent[] = [
  { type: 'SESSION.SIGN_IN', tokens: unreadable },
  { type: 'ACCESS.LOADED', accessInfo: null },
  { type: 'ACTING_FOR.SET', customerId: null },
  { type: 'ACTING_FOR.SET', customerId: 0 },
  { type: 'ACTING_FOR.SET', customerId: 2.5 },
  { type: 'PATH.REMEMBER', path: LONGEST_PATH },
  { type: 'PATH.REMEMBER', path: TOO_LONG_PATH },
  { type: 'PATH.REMEMBER', path: '//evil.example/login' },
  { type: 'PATH.REMEMBER', path: 'https://evil.example/' },
  { type: 'PUSH.RECEIVED', event: otherPush },
];

const systemEvents: SystemEvent[] = [
  { type: 'xstate.after.refreshDelay.session.signedIn.token.fresh' },
  { type: 'xstate.after.idleWarningAfter.session.signedIn.activity.active' },
  { type: 'xstate.after.idleGrace.session.signedIn.activity.idleWarning' },
  { type: 'xstate.after.logoutTimeout.session.signingOut' },
  { type: 'xstate.done.actor.refreshTokens', output: { ok: true, tokens: rotated } satisfies RefreshResult },
  { type: 'xstate.done.actor.refreshTokens', output: { ok: true, tokens: unreadable } satisfies RefreshResult },
  { type: 'xstate.done.actor.refreshTokens', output: { ok: false, code: 'rejected' } satisfies RefreshResult },
  { type: 'xstate.error.actor.refreshTokens', error: new Error('offline') },
  { type: 'xstate.done.actor.revokeSession', output: undefined },
  { type: 'xstate.error.actor.revokeSession', error: new Error('offline') },
];

function eventsFor(s: Snap): ModelEvent[] {
  const all: ModelEvent[] = [...Object.values(appEvents).flat(), ...systemEvents].filter((e) => s.can(e as SessionEvent));
  const quiet = s.matches('signedOut') || s.matches({ signedIn: { token: 'fresh', activity: 'active' } });
  // not filtered by `can`: a chart that took a refused variant would show it
  if (quiet) all.push(...boundaryEvents.filter((e) => e.type !== 'SESSION.SIGN_IN' || s.matches('signedOut')));
  return all;
}

const serialize = (s: Snap) => JSON.stringify(s.value);

const model = new TestModel(sessionMachine, {
  input: {},
  events: (s) => eventsFor(s as Snap) as never,
  serializeState: (s) => serialize(s as Snap),
  stateMatcher: (s, key) => matchesPath(s as Snap, key),
});

/** What the test did, kept apart from the chart: each page and each answer of the session is expected from it. */
interface Did {
  last: ModelEvent | null;
  phase: 'signedOut' | 'signedIn' | 'signingOut' | 'expired';
  token: 'fresh' | 'refreshing';
  activity: 'active' | 'idleWarning';
  tokens: Tokens | null;
  customer: Customer | null;
  accessInfo: AccessInfo | null;
  acting: number | null;
  path: string | null;
  toasts: number;
  /** times storage and caches were cleared (each logout and each expiry) */
  clears: number;
}
const signedOutDid = (): Did => ({
  last: null,
  phase: 'signedOut',
  token: 'fresh',
  activity: 'active',
  tokens: null,
  customer: null,
  accessInfo: null,
  acting: null,
  path: null,
  toasts: 0,
  clears: 0,
});

/** Document 1 §4 as this test reads it, for its own fixtures (the two token pairs it made are readable, `unreadable` is not). */
function record(did: Did, event: ModelEvent): void {
  did.last = event;
  const readable = (t: Tokens | undefined) => t === tokens || t === rotated;
  const forget = () => Object.assign(did, { tokens: null, customer: null, accessInfo: null, acting: null, clears: did.clears + 1 });
  const expire = () => {
    forget();
    did.phase = 'expired';
  };
  const signOut = () => {
    forget();
    Object.assign(did, { phase: 'signedOut', path: null });
  };
  switch (event.type) {
    case 'SESSION.SIGN_IN': {
      const e = event as Extract<SessionEvent, { type: 'SESSION.SIGN_IN' }>;
      if (readable(e.tokens)) Object.assign(did, { phase: 'signedIn', token: 'fresh', activity: 'active', tokens: e.tokens });
      return;
    }
    case 'SESSION.LOGOUT':
      did.phase = 'signingOut';
      return;
    case 'SESSION.STAY':
    case 'USER.ACTIVITY':
      did.activity = 'active';
      return;
    case 'TOKEN.REFRESH':
    case 'xstate.after.refreshDelay.session.signedIn.token.fresh':
      did.token = 'refreshing';
      return;
    case 'CUSTOMER.LOADED':
      did.customer = (event as Extract<SessionEvent, { type: 'CUSTOMER.LOADED' }>).customer;
      return;
    case 'ACCESS.LOADED':
      did.accessInfo = (event as Extract<SessionEvent, { type: 'ACCESS.LOADED' }>).accessInfo;
      return;
    case 'ACTING_FOR.SET': {
      const id = (event as Extract<SessionEvent, { type: 'ACTING_FOR.SET' }>).customerId;
      if (id === null || id === 42) did.acting = id;
      return;
    }
    case 'PATH.REMEMBER': {
      const path = (event as Extract<SessionEvent, { type: 'PATH.REMEMBER' }>).path;
      if (path === '/history' || path === LONGEST_PATH) did.path = path;
      return;
    }
    case 'PATH.CONSUME':
      did.path = null;
      return;
    case 'PUSH.RECEIVED':
      if ((event as Extract<SessionEvent, { type: 'PUSH.RECEIVED' }>).event === notification) did.toasts += 1;
      return;
    case 'xstate.after.idleWarningAfter.session.signedIn.activity.active':
      did.activity = 'idleWarning';
      return;
    case 'xstate.after.idleGrace.session.signedIn.activity.idleWarning':
    case 'xstate.error.actor.refreshTokens':
      expire();
      return;
    case 'xstate.done.actor.refreshTokens': {
      const out = (event as SystemEvent).output as RefreshResult;
      if (out.ok && out.tokens === rotated) Object.assign(did, { token: 'fresh', tokens: rotated });
      else expire();
      return;
    }
    case 'xstate.after.logoutTimeout.session.signingOut':
    case 'xstate.done.actor.revokeSession':
    case 'xstate.error.actor.revokeSession':
      signOut();
      return;
  }
}

/**
 * Reloads: the chart starts from what the app restored (restoring -> signedIn or signedOut); what
 * each must keep is written here. Only what belongs to a signed-in user needs readable tokens; a
 * remembered path survives either way.
 */
const reloads: { name: string; input: SessionInput; did: Omit<Did, 'last' | 'toasts' | 'clears'> }[] = [
  {
    name: 'a stored session is signed in at once, with all it held',
    input: { restored: { tokens, customer, accessInfo, actingCustomerId: 42, rememberedPath: '/history' } },
    did: { phase: 'signedIn', token: 'fresh', activity: 'active', tokens, customer, accessInfo, acting: 42, path: '/history' },
  },
  {
    name: 'unreadable stored tokens sign out and drop what belonged to the user, but keep the remembered path',
    input: { restored: { tokens: unreadable, customer, accessInfo, actingCustomerId: 42, rememberedPath: '/history' } },
    did: { phase: 'signedOut', token: 'fresh', activity: 'active', tokens: null, customer: null, accessInfo: null, acting: null, path: '/history' },
  },
  {
    name: 'a stored acting-for id that is no customer id is dropped',
    input: { restored: { tokens, customer, actingCustomerId: 0 } },
    did: { phase: 'signedIn', token: 'fresh', activity: 'active', tokens, customer, accessInfo: null, acting: null, path: null },
  },
];

function mount(input: SessionInput = {}, did: Did = signedOutDid()) {
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
  return { session, refreshes, revokes, toasts, cleared, expiredSignals, user, pending: [] as Promise<unknown>[], did };
}
type Harness = ReturnType<typeof mount>;

function stateChecks(h: Harness) {
  const warning = () => screen.queryByRole('button', { name: /stay signed in/i });
  /** What every page and every reader of the session must agree on, whatever the state. */
  const agrees = async () => {
    const s = h.session.getSnapshot();
    const hooks = sessionRequestHooks(h.session);
    expect(hooks.getAccessToken()).toBe(h.did.phase === 'signedIn' ? h.did.tokens!.accessToken : null);
    expect(hooks.getActingCustomerId()).toBe(h.did.acting);
    expect(selectCustomer(s)).toEqual(h.did.customer);
    expect(s.context.accessInfo).toEqual(h.did.accessInfo);
    expect(selectRememberedPath(s)).toBe(h.did.path);
    expect(h.toasts).toHaveLength(h.did.toasts);
    expect(h.cleared).toEqual(Array.from({ length: h.did.clears }, () => ['storage', 'caches']).flat());
    if (h.did.phase === 'signedIn' && h.did.activity === 'idleWarning') expect(await screen.findByRole('button', { name: /stay signed in/i })).toBeTruthy();
    else await waitFor(() => expect(warning()).toBeNull());
    if (h.did.phase === 'expired') expect(await screen.findByText(/signed out because your session expired/i)).toBeTruthy();
    else expect(screen.queryByText(/signed out because your session expired/i)).toBeNull();
  };
  return {
    signedOut: async (s: Snap) => {
      expect(h.did.phase).toBe('signedOut');
      await agrees();
      expectOffered<SessionEvent>(s, [{ type: 'SESSION.SIGN_IN', tokens }]);
    },
    'signedIn.token.fresh': async (s: Snap) => {
      expect([h.did.phase, h.did.token]).toEqual(['signedIn', 'fresh']);
      await agrees();
      expectOffered<SessionEvent>(s, [{ type: 'SESSION.LOGOUT' }, { type: 'TOKEN.REFRESH' }]);
      // a later 401 goes to the platform with this pair's refresh token
      expect(h.refreshes.waiting).toBe(0);
    },
    'signedIn.token.refreshing': async () => {
      expect([h.did.phase, h.did.token]).toEqual(['signedIn', 'refreshing']);
      await agrees();
      expect(h.refreshes.waiting).toBe(1);
      expect(h.refreshes.calls.at(-1)).toEqual({ refreshToken: h.did.tokens!.refreshToken });
    },
    'signedIn.activity.active': async () => {
      expect([h.did.phase, h.did.activity]).toEqual(['signedIn', 'active']);
      await agrees();
    },
    'signedIn.activity.idleWarning': async (s: Snap) => {
      expect([h.did.phase, h.did.activity]).toEqual(['signedIn', 'idleWarning']);
      await screen.findByRole('heading', { name: /are you still there/i });
      expect(screen.getByText(/signed out in 1 minute/i)).toBeTruthy();
      await agrees();
      expectOffered<SessionEvent>(s, [{ type: 'SESSION.STAY' }]);
    },
    signingOut: async () => {
      expect(h.did.phase).toBe('signingOut');
      await agrees();
      expect(h.revokes.waiting).toBe(1);
      expect(h.revokes.calls.at(-1)).toEqual({ refreshToken: h.did.tokens!.refreshToken });
    },
    expired: async (s: Snap) => {
      expect(h.did.phase).toBe('expired');
      await agrees();
      expect(h.expiredSignals.length).toBeGreaterThan(0);
      expectOffered<SessionEvent>(s, [{ type: 'SESSION.SIGN_IN', tokens }]);
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
  return recordingExecutors<ModelEvent>(
    {
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
      'PUSH.RECEIVED': direct,
      'xstate.after.refreshDelay.session.signedIn.token.fresh': direct,
      'xstate.after.idleWarningAfter.session.signedIn.activity.active': direct,
      'xstate.after.idleGrace.session.signedIn.activity.idleWarning': direct,
      'xstate.after.logoutTimeout.session.signingOut': direct,
      'xstate.done.actor.refreshTokens': answer(h.refreshes),
      'xstate.error.actor.refreshTokens': answer(h.refreshes),
      'xstate.done.actor.revokeSession': answer(h.revokes),
      'xstate.error.actor.revokeSession': answer(h.revokes),
    },
    (event) => record(h.did, event),
  );
}

const paths = edgeCoveringPaths(model, (s) => serialize(s as Snap));
const sequences: ModelEvent[][] = [];
const reloadSequences: { input: SessionInput; events: ModelEvent[] }[] = [];

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

  // restoring needs a restored session. From the first reload, which holds everything a session
  // can, the ways out are followed too (logout and expiry must forget what they forget, and keep
  // the rest); the other reloads are checked as they start.
  const waysOut = new Set(['SESSION.LOGOUT', 'xstate.after.idleWarningAfter.session.signedIn.activity.active', 'xstate.after.idleGrace.session.signedIn.activity.idleWarning', 'xstate.after.logoutTimeout.session.signingOut', 'xstate.done.actor.revokeSession', 'xstate.error.actor.revokeSession']);
  reloads.forEach(({ name, input, did }, r) => {
    const reloadModel = new TestModel(sessionMachine, {
      input,
      events: (s) => (r === 0 ? eventsFor(s as Snap).filter((e) => waysOut.has(e.type)) : []) as never,
      serializeState: (s) => serialize(s as Snap),
      stateMatcher: (s, key) => matchesPath(s as Snap, key),
    });
    edgeCoveringPaths(reloadModel, (s) => serialize(s as Snap)).forEach((path, i) => {
      const events = path.steps.map((st) => st.event as ModelEvent).filter((e) => e.type !== 'xstate.init');
      reloadSequences.push({ input, events });
      it(`#reload ${r}.${i}: ${name}${events.length ? ` → ${events.map((e) => e.type.replace(/^xstate\.(after\.\w+|done\.actor\.\w+|error\.actor\.\w+).*/, '$1')).join(' → ')}` : ''}`, async () => {
        const h = mount(input, { ...did, last: null, toasts: 0, clears: 0 });
        await runPathCheckingEveryStep(path, stateChecks(h), eventExecutors(h));
      });
    });
  });

  it('takes every transition of the chart', () => {
    const taken = transitionsTaken(sessionMachine, {}, sequences as never);
    for (const { input, events } of reloadSequences) for (const key of transitionsTaken(sessionMachine, input, [events as never])) taken.add(key);
    const missing = listTransitions(sessionMachine).filter((t) => !taken.has(t.key)).map((t) => t.key);
    expect(missing).toEqual([]);
  });

  it('reaches every state of the chart', () => {
    expect(unreachedStates(sessionMachine, paths).filter((state) => state !== 'restoring')).toEqual([]);
  });

  it('is named session (the inspector and the audit pack show it by that id)', () => {
    expect(sessionMachine.id).toBe('session');
  });
});
