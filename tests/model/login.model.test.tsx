/**
 * Model-based test of sign-in: paths generated from the login machine's graph drive the REAL
 * LoginView through Testing Library; the token service is a test double whose answers are the
 * `xstate.done.actor.*` events of each path.
 *
 * Proof it can fail: I broke the view once on purpose (OtpStep sent `otp.trim().slice(0, 5)`
 * instead of the typed code). 26 of the 90 tests, every path through `verifyingOtp`, went red (the "Verify" button never
 * became busy: the machine stayed in `otp` with an otpFormat error). Restored since.
 *
 * Also found on the way: TestModel.getPathsFromEvents ignores the model's options, so those paths
 * started from an errored snapshot and matched no state check (they passed without asserting).
 * coverage.ts now replays events on the adjacency map itself, and each test asserts that every
 * step's state was checked.
 */
import { describe, expect, it } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nProvider } from '@lingui/react';
import { TestModel } from '@xstate/graph';
import { createActor, fromPromise, type SnapshotFrom } from 'xstate';
import type { LoginResponse } from '../../api/auth.ts';
import {
  loginMachine,
  pendingLoginEvents,
  type ExchangeResult,
  type LoginEvent,
  type SignInResult,
} from '../../machines/login/login.machine.ts';
import { sessionMachine, type RefreshResult } from '../../machines/session/session.machine.ts';
import { LoginView } from '../../src/features/auth/login-view.tsx';
import { i18n } from '../../src/lib/i18n.ts';
import { listTransitions } from '../../scripts/machine-graph.ts';
import { runPathCheckingEveryStep, edgeCoveringPaths, transitionsTaken } from './coverage.ts';
import { AnswerQueue, makeTokens } from './support.ts';

type Snap = SnapshotFrom<typeof loginMachine>;
type DoneEvent = { type: `xstate.done.actor.${string}`; output: unknown } | { type: `xstate.error.actor.${string}`; error: unknown };
type ModelEvent = LoginEvent | DoneEvent;

const verifier = 'V'.repeat(128);
const simpleTokens = makeTokens();
const otpTokens = makeTokens();
const queryTokens = makeTokens();

/**
 * The user's events, one list per event type. Typed so that a new event of the machine fails
 * compilation until it has cases here (or is declared pending, with no control in the view yet).
 */
const userEvents = {
  'CREDENTIALS.SUBMIT': [
    { type: 'CREDENTIALS.SUBMIT', username: 'anna@demo.test', password: 'Demo-Pass-2026' },
    { type: 'CREDENTIALS.SUBMIT', username: 'anna', password: '' },
  ],
  'OTP.SUBMIT': [
    { type: 'OTP.SUBMIT', otp: '123456' },
    { type: 'OTP.SUBMIT', otp: '12' },
  ],
  'STEP.BACK': [{ type: 'STEP.BACK' }],
  'SMS.SUBMIT': 'pending',
  'PUSH.APPROVED': 'pending',
  'PUSH.REJECTED': 'pending',
  'MIGRATION.START': 'pending',
  'MIGRATION.POSTPONE': 'pending',
  'DEVICE.CHOOSE': 'pending',
  'DEVICE.APPROVED': 'pending',
  'DIRECT.CONTINUE': 'pending',
} satisfies { [K in LoginEvent['type']]: Extract<LoginEvent, { type: K }>[] | 'pending' };

const second = (response: LoginResponse): SignInResult => ({ ok: true, codeVerifier: verifier, response });

/** What the invoked actors may answer, per invoke id. */
const actorAnswers: Record<string, DoneEvent[]> = {
  signIn: [
    { type: 'xstate.done.actor.signIn', output: second({ authFlow: 'simple', ...simpleTokens }) },
    { type: 'xstate.done.actor.signIn', output: second({ authFlow: 'otp', code: 'c-otp' }) },
    { type: 'xstate.done.actor.signIn', output: second({ authFlow: 'sms', code: 'c', phone: '+370 *** **12', identifier: '42' }) },
    ...(['strict', 'soft', 'none'] as const).map((requirement) => ({
      type: 'xstate.done.actor.signIn' as const,
      output: second({
        authFlow: 'push',
        code: 'c',
        temporaryToken: 't',
        deviceList: [],
        qrLink: 'https://example.test/qr',
        migration: { requirement, strategy: 'migrate', daysLeft: 5 },
      }),
    })),
    { type: 'xstate.done.actor.signIn', output: second({ authFlow: 'verifyDevice', code: 'c', deviceList: [] }) },
    { type: 'xstate.done.actor.signIn', output: second({ authFlow: 'direct', code: 'c' }) },
    { type: 'xstate.done.actor.signIn', output: { ok: false, code: 'invalidCredentials' } satisfies SignInResult },
    { type: 'xstate.error.actor.signIn', error: new Error('boom') },
  ],
  exchangeOtp: [
    { type: 'xstate.done.actor.exchangeOtp', output: { ok: true, tokens: otpTokens } satisfies ExchangeResult },
    { type: 'xstate.done.actor.exchangeOtp', output: { ok: false, code: 'invalidOtp' } satisfies ExchangeResult },
    { type: 'xstate.done.actor.exchangeOtp', output: { ok: false, code: 'codeExpired' } satisfies ExchangeResult },
    { type: 'xstate.error.actor.exchangeOtp', error: new Error('boom') },
  ],
  exchangeCode: [
    { type: 'xstate.done.actor.exchangeCode', output: { ok: true, tokens: queryTokens } satisfies ExchangeResult },
    { type: 'xstate.done.actor.exchangeCode', output: { ok: false, code: 'codeExpired' } satisfies ExchangeResult },
    { type: 'xstate.error.actor.exchangeCode', error: new Error('boom') },
  ],
};

function eventsFor(s: Snap): ModelEvent[] {
  const candidates: ModelEvent[] = [];
  for (const cases of Object.values(userEvents)) if (cases !== 'pending') candidates.push(...cases);
  for (const id of Object.keys(s.children)) candidates.push(...(actorAnswers[id] ?? []));
  return candidates.filter((e) => s.can(e as LoginEvent));
}

const serialize = (s: Snap) =>
  JSON.stringify({ value: s.value, error: s.context.error, fieldErrors: s.context.fieldErrors, step: s.context.step?.authFlow ?? null });

function modelFor(queryCode: { code: string; codeVerifier: string } | null) {
  return new TestModel(loginMachine, {
    input: { queryCode },
    events: (s) => eventsFor(s as Snap) as never,
    serializeState: (s) => serialize(s as Snap),
    // Without this no state assertion runs (STACK.md): match the `states` keys by state value.
    stateMatcher: (s, key) => (s as Snap).matches(key as never),
  });
}

/* --------------------------------------------------------------------- harness */

const errorText: Record<string, RegExp> = {
  invalidCredentials: /e-mail address or password is not correct/i,
  invalidOtp: /code is not correct/i,
  codeExpired: /took too long/i,
  unknown: /something went wrong/i,
};

function mount(queryCode: { code: string; codeVerifier: string } | null) {
  const signIns = new AnswerQueue<{ username: string; password: string }, SignInResult>();
  const exchanges = new AnswerQueue<{ code: string; codeVerifier: string; otp?: string }, ExchangeResult>();
  const logic = loginMachine.provide({
    actors: {
      signIn: fromPromise(({ input }) => signIns.next(input)),
      exchangeCode: fromPromise(({ input }) => exchanges.next(input)),
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
  const user = userEvent.setup();
  render(
    <I18nProvider i18n={i18n}>
      <LoginView session={session} logic={logic} queryCode={queryCode} />
    </I18nProvider>,
  );
  return { signIns, exchanges, session, user, answeredTokens: [] as unknown[] };
}

type Harness = ReturnType<typeof mount>;

async function heading(name: RegExp) {
  return screen.findByRole('heading', { name });
}

function stateChecks(h: Harness) {
  const expectError = (s: Snap) => {
    const error = s.context.error;
    if (error) expect(screen.getByRole('alert').textContent).toMatch(errorText[error] ?? /./);
  };
  return {
    credentials: async (s: Snap) => {
      await heading(/^sign in$/i);
      await waitFor(() => expect(screen.getByRole('button', { name: /^sign in$/i }).getAttribute('aria-busy')).toBeNull());
      expectError(s);
      const username = screen.getByLabelText(/e-mail address/i);
      expect(username.getAttribute('autocomplete')).toBe('username');
      expect(screen.getByLabelText(/^password/i).getAttribute('autocomplete')).toBe('current-password');
      expect(username.getAttribute('aria-invalid')).toBe(s.context.fieldErrors.username ? 'true' : null);
      if (s.context.fieldErrors.username) expect(screen.getByText(/enter your e-mail address/i)).toBeTruthy();
      if (s.context.fieldErrors.password) expect(screen.getByText(/enter your password/i)).toBeTruthy();
    },
    signingIn: async () => {
      await waitFor(() => expect(screen.getByRole('button', { name: /^sign in$/i }).getAttribute('aria-busy')).toBe('true'));
      expect(h.signIns.waiting).toBe(1);
    },
    otp: async (s: Snap) => {
      const h1 = await heading(/enter your verification code/i);
      await waitFor(() => expect(screen.getByRole('button', { name: /verify/i }).getAttribute('aria-busy')).toBeNull());
      expect(document.activeElement === h1 || document.activeElement?.tagName === 'INPUT' || document.activeElement?.tagName === 'BUTTON').toBe(true);
      const field = screen.getByLabelText(/6-digit code/i);
      expect(field.getAttribute('autocomplete')).toBe('one-time-code');
      expect(field.getAttribute('inputmode')).toBe('numeric');
      expect(field.getAttribute('aria-invalid')).toBe(s.context.fieldErrors.otp ? 'true' : null);
      expectError(s);
    },
    verifyingOtp: async () => {
      await waitFor(() => expect(screen.getByRole('button', { name: /verify/i }).getAttribute('aria-busy')).toBe('true'));
      expect(h.exchanges.calls.at(-1)).toEqual({ code: 'c-otp', codeVerifier: verifier, otp: '123456' });
    },
    sms: async () => {
      await heading(/confirm with a text message/i);
      expect(screen.getByText(/not available yet/i)).toBeTruthy();
    },
    push: async () => {
      await heading(/confirm on your phone/i);
      expect(screen.getByText(/not available yet/i)).toBeTruthy();
    },
    verifyDevice: async () => {
      await heading(/verify this device/i);
      expect(screen.getByText(/not available yet/i)).toBeTruthy();
    },
    direct: async () => {
      await heading(/continue signing in/i);
      expect(screen.getByText(/not available yet/i)).toBeTruthy();
    },
    verifyingCode: async () => {
      const h1 = await heading(/signing you in/i);
      await waitFor(() => expect(document.activeElement).toBe(h1));
    },
    signedIn: async (s: Snap) => {
      await heading(/^signed in$/i);
      await waitFor(() => expect(h.session.getSnapshot().matches('signedIn')).toBe(true));
      // the session holds exactly the tokens the token service answered on this path
      expect(h.session.getSnapshot().context.tokens).toEqual(h.answeredTokens.at(-1));
      expect(s.context.tokens).not.toBeNull();
    },
  } satisfies Record<string, (s: Snap) => Promise<void>>;
}

function eventExecutors(h: Harness) {
  const answer = (queue: AnswerQueue<any, any>) => async ({ event }: { event: ModelEvent }) => {
    if ('output' in event) {
      const out = event.output as { ok?: boolean; tokens?: unknown; response?: { authFlow: string } };
      if (out.tokens) h.answeredTokens.push(out.tokens);
      if (out.response?.authFlow === 'simple') {
        const { accessToken, refreshToken } = out.response as unknown as { accessToken: string; refreshToken: string };
        h.answeredTokens.push({ accessToken, refreshToken });
      }
      queue.answer(event.output);
    }
    else queue.fail((event as { error: unknown }).error);
  };
  return {
    'CREDENTIALS.SUBMIT': async ({ event }: { event: ModelEvent }) => {
      const e = event as Extract<LoginEvent, { type: 'CREDENTIALS.SUBMIT' }>;
      const username = screen.getByLabelText(/e-mail address/i);
      const password = screen.getByLabelText(/^password/i);
      await h.user.clear(username);
      if (e.username) await h.user.type(username, e.username);
      await h.user.clear(password);
      if (e.password) await h.user.type(password, e.password);
      await h.user.click(screen.getByRole('button', { name: /^sign in$/i }));
    },
    'OTP.SUBMIT': async ({ event }: { event: ModelEvent }) => {
      const e = event as Extract<LoginEvent, { type: 'OTP.SUBMIT' }>;
      const field = screen.getByLabelText(/6-digit code/i);
      await h.user.clear(field);
      await h.user.type(field, e.otp);
      await h.user.click(screen.getByRole('button', { name: /verify/i }));
    },
    'STEP.BACK': async () => {
      await h.user.click(screen.getByRole('button', { name: /back to sign-in/i }));
    },
    'xstate.done.actor.signIn': answer(h.signIns),
    'xstate.error.actor.signIn': answer(h.signIns),
    'xstate.done.actor.exchangeOtp': answer(h.exchanges),
    'xstate.error.actor.exchangeOtp': answer(h.exchanges),
    'xstate.done.actor.exchangeCode': answer(h.exchanges),
    'xstate.error.actor.exchangeCode': answer(h.exchanges),
  };
}

/* ----------------------------------------------------------------------- tests */

const scenarios = [
  { name: 'sign-in form', queryCode: null },
  { name: 'code and codeVerifier in the query', queryCode: { code: 'query-code', codeVerifier: verifier } },
] as const;

const allSequences: { input: unknown; events: ModelEvent[] }[] = [];

for (const scenario of scenarios) {
  const model = modelFor(scenario.queryCode);
  const paths = edgeCoveringPaths(model, (s) => serialize(s as Snap));
  describe(`login model: ${scenario.name}`, () => {
    paths.forEach((path, i) => {
      const events = path.steps.map((s) => s.event as ModelEvent).filter((e) => (e.type as string) !== 'xstate.init');
      allSequences.push({ input: { queryCode: scenario.queryCode }, events });
      const outcome = (e: ModelEvent) => ('output' in e ? `(${JSON.stringify(e.output).match(/"(authFlow|code)":"(\w+)"/)?.[2] ?? 'ok'})` : '');
      const name = `#${i} ${events.map((e) => `${e.type.replace('xstate.', '')}${outcome(e)}`).join(' → ') || 'initial'} ⇒ ${JSON.stringify(path.steps.at(-1)?.state.value)}`;
      it(name, async () => {
        const h = mount(scenario.queryCode);
        await runPathCheckingEveryStep(path, stateChecks(h), eventExecutors(h));
      });
    });
  });
}

describe('login model: transition coverage', () => {
  it('every transition of the chart is taken by some path (pending flows excepted)', () => {
    const taken = new Set<string>();
    for (const { input, events } of allSequences) {
      for (const key of transitionsTaken(loginMachine, input, [events as never])) taken.add(key);
    }
    const pending = new Set<string>(pendingLoginEvents);
    // verifyingSms is entered only by SMS.SUBMIT, a pending event.
    const expected = listTransitions(loginMachine).filter(
      (t) => !pending.has(t.eventType) && !t.sourceId.startsWith('login.verifyingSms'),
    );
    const missing = expected.filter((t) => !taken.has(t.key)).map((t) => t.key);
    expect(missing).toEqual([]);
  });
});
