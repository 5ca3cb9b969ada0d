/**
 * Model-based test of activation: paths generated from the activation machine's graph drive the
 * REAL ActivationView through Testing Library, for each way in: the /activate form, and the
 * query actions activation, activationBusiness and activationEmployee (the popup), including a
 * query whose code is malformed. The named methods are test doubles answered by the paths'
 * `xstate.done.actor.*` events.
 */
import { describe, expect, it } from 'vitest';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { I18nProvider } from '@lingui/react';
import { TestModel } from '@xstate/graph';
import { createActor, fromPromise, type SnapshotFrom } from 'xstate';
import {
  activationMachine,
  type ActivateInput,
  type ActivateResult,
  type ActivationEvent,
  type ActivationInput,
  type ResendCodeResult,
} from '../../machines/activation/activation.machine.ts';
import { ActivationView } from '../../src/features/registration/activation-view.tsx';
import { i18n } from '../../src/lib/i18n.ts';
import { listTransitions } from '../../scripts/machine-graph.ts';
import { edgeCoveringPaths, matchesPath, runPathCheckingEveryStep, transitionsTaken } from './coverage.ts';
import { LiveQueue } from './live-queue.ts';

type Snap = SnapshotFrom<typeof activationMachine>;
type SystemEvent = { type: `xstate.${string}`; output?: unknown; error?: unknown };
type ModelEvent = ActivationEvent | SystemEvent;

const GOOD = { email: ' Ana@Example.test ', code: 'abcd-efgh' };
const BAD = { email: 'ana', code: '12' };

/** Typed so a new activation event fails compilation until it has cases here. */
const userEvents = {
  'CODE.SUBMIT': [
    { type: 'CODE.SUBMIT', ...GOOD },
    { type: 'CODE.SUBMIT', ...BAD },
  ],
  'CODE.RESEND': [
    { type: 'CODE.RESEND', email: GOOD.email },
    { type: 'CODE.RESEND', email: BAD.email },
  ],
  'PASSWORD.SUBMIT': [
    { type: 'PASSWORD.SUBMIT', password: 'Chosen-2026' },
    { type: 'PASSWORD.SUBMIT', password: 'short' },
  ],
  'DIALOG.CLOSE': [{ type: 'DIALOG.CLOSE' }],
} satisfies { [K in ActivationEvent['type']]: Extract<ActivationEvent, { type: K }>[] };

const answers: Record<string, SystemEvent[]> = {
  activate: [
    { type: 'xstate.done.actor.activate', output: { ok: true } satisfies ActivateResult },
    { type: 'xstate.done.actor.activate', output: { ok: false, code: 'wrongCode' } satisfies ActivateResult },
    { type: 'xstate.done.actor.activate', output: { ok: false, code: 'expiredCode' } satisfies ActivateResult },
    { type: 'xstate.done.actor.activate', output: { ok: false, code: 'usedCode' } satisfies ActivateResult },
    { type: 'xstate.done.actor.activate', output: { ok: false, code: 'network' } satisfies ActivateResult },
    { type: 'xstate.done.actor.activate', output: { ok: false, code: 'fields', fieldErrors: { password: 'weakPassword' } } satisfies ActivateResult },
    { type: 'xstate.error.actor.activate', error: new Error('boom') },
  ],
  resendCode: [
    { type: 'xstate.done.actor.resendCode', output: { ok: true } satisfies ResendCodeResult },
    { type: 'xstate.done.actor.resendCode', output: { ok: false, code: 'network' } satisfies ResendCodeResult },
    { type: 'xstate.error.actor.resendCode', error: new Error('boom') },
  ],
};

/** Fewer combinations (every edge is a rendered test): a malformed submit only while no error shows. */
function eventsFor(s: Snap): ModelEvent[] {
  const all: ModelEvent[] = [];
  for (const [type, list] of Object.entries(userEvents)) {
    list.forEach((e, i) => {
      if (i === 1 && type !== 'PASSWORD.SUBMIT' && (s.context.error !== null || s.context.notice !== null)) return;
      all.push(e as ModelEvent);
    });
  }
  for (const id of Object.keys(s.children)) all.push(...(answers[id] ?? []));
  return all.filter((e) => s.can(e as ActivationEvent));
}

const serialize = (s: Snap) => JSON.stringify({ value: s.value, ...s.context });

const scenarios: { name: string; input: ActivationInput }[] = [
  { name: '/activate form', input: { kind: 'personal', email: '', code: '', fromQuery: false } },
  { name: 'query action activation', input: { kind: 'personal', email: 'ana@example.test', code: 'ABCDEFGH', fromQuery: true } },
  { name: 'query action activation with a malformed code', input: { kind: 'personal', email: 'ana@example.test', code: 'x', fromQuery: true } },
  { name: 'query action activationBusiness', input: { kind: 'business', email: 'owner@example.test', code: 'ABCDEFGH', fromQuery: true } },
  { name: 'query action activationEmployee', input: { kind: 'employee', email: 'staff@example.test', code: 'ABCDEFGH', fromQuery: true } },
];

function mount(input: ActivationInput) {
  const q = {
    activate: new LiveQueue<ActivateInput, ActivateResult>(),
    resendCode: new LiveQueue<{ email: string }, ResendCodeResult>(),
  };
  const logic = activationMachine.provide({
    actors: {
      activate: fromPromise(({ input: i, signal }) => q.activate.next(i, signal)),
      resendCode: fromPromise(({ input: i, signal }) => q.resendCode.next(i, signal)),
    },
  });
  const actor = createActor(logic, { input }).start();
  const finished: string[] = [];
  render(
    <I18nProvider i18n={i18n}>
      <ActivationView actor={actor} onFinished={(outcome) => finished.push(outcome)} />
    </I18nProvider>,
  );
  return { q, actor, input, finished: () => finished };
}
type Harness = ReturnType<typeof mount>;

const errorText: Record<string, RegExp> = {
  wrongCode: /activation code is not correct/i,
  expiredCode: /has expired\. ask for a new one/i,
  usedCode: /already activated/i,
  network: /could not reach the server/i,
  unknown: /something went wrong/i,
};

function stateChecks(h: Harness) {
  const alerts = (s: Snap, scope: HTMLElement = document.body) => {
    if (s.context.error) expect(within(scope).getByRole('alert').textContent).toMatch(errorText[s.context.error]!);
    else expect(within(scope).queryByRole('alert')).toBeNull();
    if (s.context.notice === 'codeSent') expect(within(scope).getByRole('status').textContent).toMatch(/we sent a new code/i);
  };
  const formShown = async (s: Snap) => {
    await screen.findByRole('heading', { name: s.context.kind === 'business' ? /activate your business account/i : /^activate your account$/i });
    alerts(s);
    expect(screen.getByLabelText('E-mail address').getAttribute('aria-invalid')).toBe(s.context.fieldErrors.email ? 'true' : null);
    expect(screen.getByLabelText('Activation code').getAttribute('aria-invalid')).toBe(s.context.fieldErrors.code ? 'true' : null);
  };
  const dialog = async (s: Snap) => {
    const d = await screen.findByRole('dialog', { name: /activate your user/i });
    alerts(s, d);
    expect(within(d).getByText(new RegExp(`choose a password for ${s.context.email}`, 'i'))).toBeTruthy();
    expect(within(d).getByLabelText('New password').getAttribute('aria-invalid')).toBe(s.context.fieldErrors.password ? 'true' : null);
    return d;
  };
  return {
    form: async (s: Snap) => {
      await formShown(s);
      await waitFor(() => expect(screen.getByRole('button', { name: /^activate$/i }).getAttribute('aria-busy')).toBeNull());
      expect(h.q.activate.waiting + h.q.resendCode.waiting).toBe(0);
    },
    activating: async (s: Snap) => {
      const expected = { kind: s.context.kind, email: s.context.email, code: s.context.code, ...(s.context.kind === 'employee' ? { password: 'Chosen-2026' } : {}) };
      if (s.context.kind === 'employee') {
        const d = await dialog(s);
        await waitFor(() => expect(within(d).getByRole('button', { name: /^activate$/i }).getAttribute('aria-busy')).toBe('true'));
      } else {
        await formShown(s);
        await waitFor(() => expect(screen.getByRole('button', { name: /^activate$/i }).getAttribute('aria-busy')).toBe('true'));
      }
      // sent normalised: e-mail trimmed and lower-cased, the code upper-cased without its dash
      expect(h.q.activate.calls.at(-1)).toEqual(expected);
      expect(expected.email).toMatch(/^[a-z@.]+$/);
      expect(expected.code).toBe('ABCDEFGH');
    },
    resending: async (s: Snap) => {
      await formShown(s);
      await waitFor(() => expect(screen.getByRole('button', { name: /send a new code/i }).getAttribute('aria-busy')).toBe('true'));
      expect(h.q.resendCode.calls.at(-1)).toEqual({ email: 'ana@example.test' });
    },
    choosingPassword: async (s: Snap) => {
      const d = await dialog(s);
      await waitFor(() => expect(within(d).getByRole('button', { name: /^activate$/i }).getAttribute('aria-busy')).toBeNull());
    },
    activated: async (s: Snap) => {
      const heading = { personal: /your account is activated/i, business: /your business account is activated/i, employee: /your user is activated/i }[s.context.kind];
      await screen.findByRole('heading', { name: heading });
      if (s.context.kind === 'business') expect(screen.getByText(/authorised users of your company will now receive activation links/i)).toBeTruthy();
      else expect(screen.queryByText(/authorised users/i)).toBeNull();
      expect(h.finished()).toEqual([]);
      fireEvent.click(screen.getByRole('button', { name: /sign in/i }));
      expect(h.finished()).toEqual(['activated']);
    },
    cancelled: async () => {
      await waitFor(() => expect(h.finished()).toEqual(['cancelled']));
      expect(screen.queryByRole('dialog')).toBeNull();
    },
  } satisfies Record<string, (s: Snap) => Promise<void>>;
}

function eventExecutors(h: Harness) {
  const answer = (queue: LiveQueue<any, any>) => async ({ event }: { event: ModelEvent }) => {
    const e = event as SystemEvent;
    await act(async () => {
      if (e.type.startsWith('xstate.error')) queue.fail(e.error);
      else queue.answer(e.output);
    });
  };
  const fillForm = (email: string, code: string) => {
    fireEvent.change(screen.getByLabelText('E-mail address'), { target: { value: email } });
    fireEvent.change(screen.getByLabelText('Activation code'), { target: { value: code } });
  };
  return {
    'CODE.SUBMIT': async ({ event }: { event: ModelEvent }) => {
      const e = event as Extract<ActivationEvent, { type: 'CODE.SUBMIT' }>;
      act(() => fillForm(e.email, e.code));
      act(() => fireEvent.click(screen.getByRole('button', { name: /^activate$/i })));
    },
    'CODE.RESEND': async ({ event }: { event: ModelEvent }) => {
      const e = event as Extract<ActivationEvent, { type: 'CODE.RESEND' }>;
      act(() => fireEvent.change(screen.getByLabelText('E-mail address'), { target: { value: e.email } }));
      act(() => fireEvent.click(screen.getByRole('button', { name: /send a new code/i })));
    },
    'PASSWORD.SUBMIT': async ({ event }: { event: ModelEvent }) => {
      const e = event as Extract<ActivationEvent, { type: 'PASSWORD.SUBMIT' }>;
      const d = screen.getByRole('dialog');
      act(() => fireEvent.change(within(d).getByLabelText('New password'), { target: { value: e.password } }));
      act(() => fireEvent.click(within(d).getByRole('button', { name: /^activate$/i })));
    },
    'DIALOG.CLOSE': async () => {
      act(() => fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: /cancel/i })));
    },
    'xstate.done.actor.activate': answer(h.q.activate),
    'xstate.error.actor.activate': answer(h.q.activate),
    'xstate.done.actor.resendCode': answer(h.q.resendCode),
    'xstate.error.actor.resendCode': answer(h.q.resendCode),
  };
}

const allSequences: { input: ActivationInput; events: ModelEvent[] }[] = [];

for (const scenario of scenarios) {
  const model = new TestModel(activationMachine, {
    input: scenario.input,
    events: (s) => eventsFor(s as Snap) as never,
    serializeState: (s) => serialize(s as Snap),
    stateMatcher: (s, key) => matchesPath(s as Snap, key),
  });
  const paths = edgeCoveringPaths(model, (s) => serialize(s as Snap));
  describe(`activation model: ${scenario.name}`, () => {
    paths.forEach((path, i) => {
      const events = path.steps.map((s) => s.event as ModelEvent).filter((e) => e.type !== 'xstate.init');
      allSequences.push({ input: scenario.input, events });
      const last = path.steps.at(-1)?.state as Snap | undefined;
      const name = `#${i} ${events.map((e) => e.type.replace(/^xstate\.(done\.actor\.\w+|error\.actor\.\w+).*/, '$1')).join(' → ') || 'initial'} ⇒ ${JSON.stringify(last?.value)} ${last?.context.error ?? ''}`;
      it(name, async () => {
        const h = mount(scenario.input);
        await runPathCheckingEveryStep(path, stateChecks(h), eventExecutors(h));
        h.actor.stop();
      });
    });
  });
}

describe('activation model: transition coverage', () => {
  it('every transition of the chart is taken by some path', () => {
    const taken = new Set<string>();
    for (const { input, events } of allSequences) for (const key of transitionsTaken(activationMachine, input, [events as never])) taken.add(key);
    const missing = listTransitions(activationMachine).filter((t) => !taken.has(t.key)).map((t) => t.key);
    expect(missing).toEqual([]);
  });
});
