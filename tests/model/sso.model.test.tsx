/**
 * Model-based test of the single sign-on consent page (/auth/sei): paths generated from the sso
 * machine's graph drive the REAL SeiView; the token-service calls and the sign-out-and-leave step
 * are test doubles answered by the paths' `xstate.done.actor.*` events.
 */
import { describe, expect, it } from 'vitest';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nProvider } from '@lingui/react';
import { TestModel } from '@xstate/graph';
import { fromPromise, type SnapshotFrom } from 'xstate';
import { ssoMachine, type AuthorizeResult, type DecideResult, type SsoEvent } from '../../machines/sso/sso.machine.ts';
import { SeiView } from '../../src/features/security/sei-view.tsx';
import { i18n } from '../../src/lib/i18n.ts';
import { listTransitions } from '../../scripts/machine-graph.ts';
import { edgeCoveringPaths, expectOffered, matchesPath, runPathCheckingEveryStep, transitionsTaken, unreachedStates } from './coverage.ts';
import { AnswerQueue } from './support.ts';

type Snap = SnapshotFrom<typeof ssoMachine>;
type SystemEvent = { type: `xstate.${string}`; output?: unknown; error?: unknown };
type ModelEvent = SsoEvent | SystemEvent;

const AUTHORIZE_URL = '/auth/sei?client_id=demo-partner&redirect_uri=%2Fdev%2Fsso-partner&state=s1&scope=profile';
const REDIRECT = '/dev/sso-partner?code=abc&state=s1';

const userEvents = {
  'CONSENT.APPROVE': [{ type: 'CONSENT.APPROVE' }],
  'CONSENT.DENY': [{ type: 'CONSENT.DENY' }],
  RETRY: [{ type: 'RETRY' }],
} satisfies { [K in SsoEvent['type']]: Extract<SsoEvent, { type: K }>[] };

const answers: Record<string, SystemEvent[]> = {
  authorize: [
    { type: 'xstate.done.actor.authorize', output: { ok: true, authorization: { authorizationId: 'a1', clientName: 'Demo Partner', scope: 'profile' } } satisfies AuthorizeResult },
    { type: 'xstate.done.actor.authorize', output: { ok: false, code: 'notFound' } satisfies AuthorizeResult },
    { type: 'xstate.done.actor.authorize', output: { ok: false, code: 'unknown' } satisfies AuthorizeResult },
    { type: 'xstate.error.actor.authorize', error: new Error('offline') },
  ],
  decide: [
    { type: 'xstate.done.actor.decide', output: { ok: true, redirectUri: REDIRECT } satisfies DecideResult },
    { type: 'xstate.done.actor.decide', output: { ok: false, code: 'notFound' } satisfies DecideResult },
    { type: 'xstate.done.actor.decide', output: { ok: false, code: 'unknown' } satisfies DecideResult },
    { type: 'xstate.error.actor.decide', error: new Error('offline') },
  ],
  leave: [
    { type: 'xstate.done.actor.leave', output: undefined },
    { type: 'xstate.error.actor.leave', error: new Error('offline') },
  ],
};

function eventsFor(s: Snap): ModelEvent[] {
  const all: ModelEvent[] = [...Object.values(userEvents).flat()];
  for (const id of Object.keys(s.children)) all.push(...(answers[id] ?? []));
  return all.filter((e) => s.can(e as SsoEvent));
}

const serialize = (s: Snap) => JSON.stringify({ value: s.value, error: s.context.error, approve: s.matches('deciding') ? s.context.approve : null });

function mount() {
  const q = {
    authorize: new AnswerQueue<{ authorizeUrl: string }, AuthorizeResult>(),
    decide: new AnswerQueue<{ authorizationId: string; approve: boolean }, DecideResult>(),
    leave: new AnswerQueue<{ redirectUri: string }, void>(),
  };
  const logic = ssoMachine.provide({
    actors: {
      authorize: fromPromise(({ input }) => q.authorize.next(input)),
      decide: fromPromise(({ input }) => q.decide.next(input)),
      leave: fromPromise(({ input }) => q.leave.next(input)),
    },
  });
  const home: number[] = [];
  const user = userEvent.setup({ delay: null });
  // What the test did last, to expect what the user sees from it rather than from the chart's own
  // context (a chart that remembered the wrong answer, or no error, would otherwise agree with itself).
  const did: { last: ModelEvent | null; consent: boolean | null } = { last: null, consent: null };
  const { container } = render(
    <I18nProvider i18n={i18n}>
      <SeiView
        authorizeUrl={AUTHORIZE_URL}
        session={{ getAccessToken: () => null, refresh: async () => true, logout: async () => undefined }}
        onNotFound={() => home.push(1)}
        logic={logic}
      />
    </I18nProvider>,
  );
  const pageBusy = () => container.firstElementChild?.getAttribute('aria-busy') === 'true';
  return { q, home, user, did, pageBusy };
}
type Harness = ReturnType<typeof mount>;

function stateChecks(h: Harness) {
  /** The error the last answer calls for: a network failure, another refusal, or none. */
  const errorShown = () => {
    const last = h.did.last as SystemEvent | null;
    const output = last?.output as { ok?: boolean; code?: string } | undefined;
    const expected = last?.type.startsWith('xstate.error.actor.') ? /connection failed/i : output && output.ok === false ? /something went wrong/i : null;
    if (expected) expect(screen.getByRole('alert').textContent).toMatch(expected);
    else expect(screen.queryByRole('alert')).toBeNull();
  };
  return {
    authorizing: async () => {
      await screen.findByText(/checking the sign-in request/i);
      await waitFor(() => expect(h.q.authorize.waiting).toBe(1));
      expect(h.q.authorize.calls.at(-1)).toEqual({ authorizeUrl: AUTHORIZE_URL });
      expect(h.pageBusy()).toBe(true);
    },
    failed: async (s: Snap) => {
      await screen.findByRole('button', { name: /try again/i });
      errorShown();
      expect(h.pageBusy()).toBe(false);
      expectOffered(s, [{ type: 'RETRY' }]);
      // a retry asks again rather than leaving the page as it was
      expect(h.did.last?.type).not.toBe('RETRY');
    },
    consent: async (s: Snap) => {
      await screen.findByRole('heading', { name: /sign in to demo partner/i });
      expect(screen.getByText(/requested access: profile/i)).toBeTruthy();
      await waitFor(() => expect(screen.getByRole('button', { name: /allow/i }).getAttribute('aria-busy')).toBeNull());
      errorShown();
      expect(h.pageBusy()).toBe(false);
      expectOffered(s, [{ type: 'CONSENT.APPROVE' }, { type: 'CONSENT.DENY' }]);
      // an answer given is sent to the platform rather than left on the page
      expect(h.did.last?.type ?? '').not.toMatch(/^CONSENT\./);
    },
    deciding: async () => {
      // the button the user pressed is the one working, and the platform gets that answer
      const name = h.did.consent ? /allow/i : /deny/i;
      await waitFor(() => expect(screen.getByRole('button', { name }).getAttribute('aria-busy')).toBe('true'));
      expect(h.q.decide.calls.at(-1)).toEqual({ authorizationId: 'a1', approve: h.did.consent });
      expect(h.pageBusy()).toBe(true);
    },
    leaving: async () => {
      await screen.findByText(/signing you out and returning/i);
      expect(h.q.leave.calls.at(-1)).toEqual({ redirectUri: REDIRECT });
      expect(h.pageBusy()).toBe(true);
    },
    left: async (s: Snap) => {
      await screen.findByText(/signing you out and returning/i);
      expect(h.q.leave.waiting).toBe(0);
      expect(h.pageBusy()).toBe(true);
      expect(s.status).toBe('done');
    },
    notFound: async (s: Snap) => {
      await waitFor(() => expect(h.home).toEqual([1]));
      expect(s.status).toBe('done');
    },
  } satisfies Record<string, (s: Snap) => Promise<void>>;
}

function eventExecutors(h: Harness) {
  const answer = (queue: AnswerQueue<any, any>) => async ({ event }: { event: ModelEvent }) => {
    const e = event as SystemEvent;
    h.did.last = e;
    await act(async () => {
      if (e.type.startsWith('xstate.error')) queue.fail(e.error);
      else queue.answer(e.output);
    });
  };
  const press = (event: SsoEvent, name: RegExp, consent: boolean | null) => async () => {
    h.did.last = event;
    if (consent !== null) h.did.consent = consent;
    await h.user.click(screen.getByRole('button', { name }));
  };
  return {
    'CONSENT.APPROVE': press({ type: 'CONSENT.APPROVE' }, /allow/i, true),
    'CONSENT.DENY': press({ type: 'CONSENT.DENY' }, /deny/i, false),
    RETRY: press({ type: 'RETRY' }, /try again/i, null),
    ...Object.fromEntries(
      (['authorize', 'decide', 'leave'] as const).flatMap((id) => [
        [`xstate.done.actor.${id}`, answer(h.q[id])],
        [`xstate.error.actor.${id}`, answer(h.q[id])],
      ]),
    ),
  };
}

const model = new TestModel(ssoMachine, {
  input: { authorizeUrl: AUTHORIZE_URL },
  events: (s) => eventsFor(s as Snap) as never,
  serializeState: (s) => serialize(s as Snap),
  stateMatcher: (s, key) => matchesPath(s as Snap, key),
});
const paths = edgeCoveringPaths(model, (s) => serialize(s as Snap));
const sequences: ModelEvent[][] = [];

describe('sso model', () => {
  paths.forEach((path, i) => {
    const events = path.steps.map((s) => s.event as ModelEvent).filter((e) => e.type !== 'xstate.init');
    sequences.push(events);
    const last = path.steps.at(-1)?.state as Snap | undefined;
    const label = events.map((e) => e.type.replace(/^xstate\.done\.actor\./, 'done.').replace(/^xstate\.error\.actor\./, 'error.')).join(' → ');
    it(`#${i} ${label} ⇒ ${JSON.stringify(last?.value)}`, async () => {
      const h = mount();
      await runPathCheckingEveryStep(path, stateChecks(h), eventExecutors(h));
    });
  });
});

describe('sso model: the chart', () => {
  it('is named sso (the inspector and the audit pack show it by that id)', () => {
    expect(ssoMachine.id).toBe('sso');
  });
});

describe('sso model: state coverage', () => {
  it('every state of the chart is reached by some path', () => {
    expect(unreachedStates(ssoMachine, paths)).toEqual([]);
  });
});

describe('sso model: transition coverage', () => {
  it('every transition of the chart is taken by some path', () => {
    const taken = new Set<string>();
    for (const events of sequences) for (const key of transitionsTaken(ssoMachine, { authorizeUrl: AUTHORIZE_URL }, [events as never])) taken.add(key);
    const missing = listTransitions(ssoMachine).filter((t) => !taken.has(t.key)).map((t) => t.key);
    expect(missing).toEqual([]);
  });
});
