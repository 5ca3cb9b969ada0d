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
import { TestModel, type TestPath } from '@xstate/graph';
import * as v from 'valibot';
import { PasswordSchema } from '../../api/auth.ts';
import { createActor, fromPromise, type SnapshotFrom } from 'xstate';
import {
  activationMachine,
  type ActivateInput,
  type ActivateResult,
  type ActivationErrorCode,
  type ActivationEvent,
  type ActivationInput,
  type ResendCodeResult,
} from '../../machines/activation/activation.machine.ts';
import { ActivationView } from '../../src/features/registration/activation-view.tsx';
import { i18n } from '../../src/lib/i18n.ts';
import { listTransitions } from '../../scripts/machine-graph.ts';
import { edgeCoveringPaths, expectOffered, matchesPath, runPathCheckingEveryStep, transitionsTaken, unreachedStates } from './coverage.ts';
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
  // prefilled from the address (?email=&code=): the user still presses Activate
  { name: '/activate form prefilled', input: { kind: 'personal', email: 'ana@example.test', code: 'ABCD-EFGH', fromQuery: false } },
  { name: 'query action activation', input: { kind: 'personal', email: 'ana@example.test', code: 'ABCDEFGH', fromQuery: true } },
  { name: 'query action activation with a malformed code', input: { kind: 'personal', email: 'ana@example.test', code: 'x', fromQuery: true } },
  { name: 'query action activationBusiness', input: { kind: 'business', email: 'owner@example.test', code: 'ABCDEFGH', fromQuery: true } },
  { name: 'query action activationEmployee', input: { kind: 'employee', email: 'staff@example.test', code: 'ABCDEFGH', fromQuery: true } },
];

/** What the test did, kept apart from the chart's context: the page is expected from it. */
interface Did {
  last: ModelEvent | null;
  /** the values the page holds and sends, normalised as the spec says (written out here) */
  email: string;
  code: string;
  /** the password chosen last in the popup */
  password: string | null;
  error: ActivationErrorCode | null;
  notice: boolean;
  fieldErrors: { email?: true; code?: true; password?: true };
}

/** document 1 §2 activation: the e-mail trimmed and in lower case, the code without spaces or dashes, in capitals */
const normalisedEmail = (email: string) => email.trim().toLowerCase();
const normalisedCode = (code: string) => code.replace(/[\s-]/g, '').toUpperCase();

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
  const view = render(
    <I18nProvider i18n={i18n}>
      <ActivationView actor={actor} onFinished={(outcome) => finished.push(outcome)} />
    </I18nProvider>,
  );
  const did: Did = { last: null, email: normalisedEmail(input.email), code: normalisedCode(input.code), password: null, error: null, notice: false, fieldErrors: {} };
  /** the form marks itself busy (aria-busy) while a call it waits for runs */
  const formBusy = () => view.container.querySelector('section.activation')?.getAttribute('aria-busy') === 'true';
  return { q, actor, input, did, formBusy, finished: () => finished };
}
type Harness = ReturnType<typeof mount>;

const errorText: Record<string, RegExp> = {
  wrongCode: /activation code is not correct/i,
  expiredCode: /has expired\. ask for a new one/i,
  usedCode: /already activated/i,
  network: /could not reach the server/i,
  unknown: /something went wrong/i,
};

/** What each event calls for, worked out here rather than read from the chart. */
function record(h: Harness, event: ModelEvent): void {
  const did = h.did;
  did.last = event;
  const output = (event as SystemEvent).output as { ok: boolean; code?: string; fieldErrors?: Record<string, string> } | undefined;
  const valid = (e: { email?: string; code?: string }) => ({
    email: e.email === undefined || /^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(e.email.trim()),
    code: e.code === undefined || /^[A-Z0-9]{8}$/.test(normalisedCode(e.code)),
  });
  switch (event.type) {
    case 'CODE.SUBMIT': {
      const e = event as Extract<ActivationEvent, { type: 'CODE.SUBMIT' }>;
      const ok = valid(e);
      if (ok.email && ok.code) Object.assign(did, { email: normalisedEmail(e.email), code: normalisedCode(e.code), fieldErrors: {}, error: null, notice: false });
      else Object.assign(did, { fieldErrors: { ...(ok.email ? {} : { email: true }), ...(ok.code ? {} : { code: true }) }, error: null, notice: false });
      return;
    }
    case 'CODE.RESEND': {
      const e = event as Extract<ActivationEvent, { type: 'CODE.RESEND' }>;
      if (valid({ email: e.email }).email) Object.assign(did, { email: normalisedEmail(e.email), fieldErrors: {}, error: null, notice: false });
      else Object.assign(did, { fieldErrors: { email: true }, error: null, notice: false });
      return;
    }
    case 'PASSWORD.SUBMIT': {
      const password = (event as Extract<ActivationEvent, { type: 'PASSWORD.SUBMIT' }>).password;
      if (v.is(PasswordSchema, password)) Object.assign(did, { password, fieldErrors: {}, error: null });
      else Object.assign(did, { fieldErrors: { password: true }, error: null, notice: false });
      return;
    }
    case 'xstate.done.actor.activate':
      if (output?.ok) return;
      if (output?.code === 'fields') Object.assign(did, { fieldErrors: Object.fromEntries(Object.keys(output.fieldErrors ?? {}).map((k) => [k, true])), error: null, notice: false });
      else Object.assign(did, { error: output?.code ?? 'unknown', notice: false });
      return;
    case 'xstate.done.actor.resendCode':
      if (output?.ok) Object.assign(did, { notice: true, error: null });
      else Object.assign(did, { error: output?.code ?? 'unknown', notice: false });
      return;
    case 'xstate.error.actor.activate':
    case 'xstate.error.actor.resendCode':
      Object.assign(did, { error: 'unknown', notice: false });
      return;
  }
}

function stateChecks(h: Harness) {
  const kind = h.input.kind;
  const alerts = (scope: HTMLElement = document.body) => {
    if (h.did.error) expect(within(scope).getByRole('alert').textContent).toMatch(errorText[h.did.error]!);
    else expect(within(scope).queryByRole('alert')).toBeNull();
    if (h.did.notice) expect(within(scope).getByRole('status').textContent).toMatch(/we sent a new code/i);
    else expect(within(scope).queryByText(/we sent a new code/i)).toBeNull();
  };
  const formShown = async () => {
    await screen.findByRole('heading', { name: kind === 'business' ? /activate your business account/i : /^activate your account$/i });
    alerts();
    expect(screen.getByLabelText('E-mail address').getAttribute('aria-invalid')).toBe(h.did.fieldErrors.email ? 'true' : null);
    expect(screen.getByLabelText('Activation code').getAttribute('aria-invalid')).toBe(h.did.fieldErrors.code ? 'true' : null);
  };
  const dialog = async () => {
    const d = await screen.findByRole('dialog', { name: /activate your user/i });
    alerts(d);
    expect(within(d).getByText(new RegExp(`choose a password for ${h.did.email}`, 'i'))).toBeTruthy();
    expect(within(d).getByLabelText('New password').getAttribute('aria-invalid')).toBe(h.did.fieldErrors.password ? 'true' : null);
    return d;
  };
  return {
    form: async (s: Snap) => {
      expect(kind).not.toBe('employee');
      await formShown();
      await waitFor(() => expect(screen.getByRole('button', { name: /^activate$/i }).getAttribute('aria-busy')).toBeNull());
      expect(h.formBusy()).toBe(false);
      expect(h.q.activate.waiting + h.q.resendCode.waiting).toBe(0);
      expectOffered<ActivationEvent>(s, [{ type: 'CODE.SUBMIT', ...GOOD }, { type: 'CODE.RESEND', email: GOOD.email }]);
      // valid values are sent, not left on the form; a link with good values activates at once
      expect(h.did.last).not.toEqual({ type: 'CODE.SUBMIT', ...GOOD });
      expect(h.did.last).not.toEqual({ type: 'CODE.RESEND', email: GOOD.email });
      if (h.did.last === null) expect(h.input.fromQuery && /^[A-Z0-9]{8}$/.test(h.did.code)).toBe(false);
    },
    activating: async (s: Snap) => {
      // only a query action activates without the user doing anything
      if (h.did.last === null) expect(h.input.fromQuery).toBe(true);
      const expected = { kind, email: h.did.email, code: h.did.code, ...(kind === 'employee' ? { password: h.did.password } : {}) };
      if (kind === 'employee') {
        const d = await dialog();
        await waitFor(() => expect(within(d).getByRole('button', { name: /^activate$/i }).getAttribute('aria-busy')).toBe('true'));
      } else {
        await formShown();
        await waitFor(() => expect(screen.getByRole('button', { name: /^activate$/i }).getAttribute('aria-busy')).toBe('true'));
        expect(h.formBusy()).toBe(true);
      }
      // sent normalised: e-mail trimmed and lower-cased, the code upper-cased without its dash
      expect(h.q.activate.waiting).toBe(1);
      expect(h.q.activate.calls.at(-1)).toEqual(expected);
      for (const output of [{ ok: true }, { ok: false, code: 'wrongCode' }]) expect(s.can({ type: 'xstate.done.actor.activate', output } as never)).toBe(true);
      expect(expected.email).toMatch(/^[a-z@.]+$/);
      expect(expected.code).toBe('ABCDEFGH');
    },
    resending: async (s: Snap) => {
      await formShown();
      await waitFor(() => expect(screen.getByRole('button', { name: /send a new code/i }).getAttribute('aria-busy')).toBe('true'));
      expect(h.formBusy()).toBe(true);
      expect(h.q.resendCode.waiting).toBe(1);
      expect(h.q.resendCode.calls.at(-1)).toEqual({ email: 'ana@example.test' });
      // the call's answers lead somewhere (a chart that lost them would wait here for ever)
      for (const output of [{ ok: true }, { ok: false, code: 'network' }]) expect(s.can({ type: 'xstate.done.actor.resendCode', output } as never)).toBe(true);
    },
    choosingPassword: async (s: Snap) => {
      expect(kind).toBe('employee');
      const d = await dialog();
      await waitFor(() => expect(within(d).getByRole('button', { name: /^activate$/i }).getAttribute('aria-busy')).toBeNull());
      expect(h.q.activate.waiting).toBe(0);
      expectOffered<ActivationEvent>(s, [{ type: 'PASSWORD.SUBMIT', password: 'Chosen-2026' }, { type: 'DIALOG.CLOSE' }]);
      expect(h.did.last).not.toEqual({ type: 'PASSWORD.SUBMIT', password: 'Chosen-2026' });
      // the password is kept only while it is sent
      expect(JSON.stringify(s.context)).not.toContain('Chosen-2026');
    },
    activated: async (s: Snap) => {
      const heading = { personal: /your account is activated/i, business: /your business account is activated/i, employee: /your user is activated/i }[kind];
      await screen.findByRole('heading', { name: heading });
      if (kind === 'business') expect(screen.getByText(/authorised users of your company will now receive activation links/i)).toBeTruthy();
      else expect(screen.queryByText(/authorised users/i)).toBeNull();
      expect(h.did.last).toEqual(answers.activate![0]);
      expect(s.status).toBe('done');
      expect(JSON.stringify(s.context)).not.toContain('Chosen-2026');
      expect(h.finished()).toEqual([]);
      fireEvent.click(screen.getByRole('button', { name: /sign in/i }));
      expect(h.finished()).toEqual(['activated']);
    },
    cancelled: async (s: Snap) => {
      await waitFor(() => expect(h.finished()).toEqual(['cancelled']));
      expect(screen.queryByRole('dialog')).toBeNull();
      expect(h.did.last?.type).toBe('DIALOG.CLOSE');
      expect(s.status).toBe('done');
    },
  } satisfies Record<string, (s: Snap) => Promise<void>>;
}

function eventExecutors(h: Harness) {
  const answer = (queue: LiveQueue<any, any>) => async ({ event }: { event: ModelEvent }) => {
    const e = event as SystemEvent;
    record(h, e);
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
      record(h, e);
      act(() => fillForm(e.email, e.code));
      act(() => fireEvent.click(screen.getByRole('button', { name: /^activate$/i })));
    },
    'CODE.RESEND': async ({ event }: { event: ModelEvent }) => {
      const e = event as Extract<ActivationEvent, { type: 'CODE.RESEND' }>;
      record(h, e);
      act(() => fireEvent.change(screen.getByLabelText('E-mail address'), { target: { value: e.email } }));
      act(() => fireEvent.click(screen.getByRole('button', { name: /send a new code/i })));
    },
    'PASSWORD.SUBMIT': async ({ event }: { event: ModelEvent }) => {
      const e = event as Extract<ActivationEvent, { type: 'PASSWORD.SUBMIT' }>;
      record(h, e);
      const d = screen.getByRole('dialog');
      act(() => fireEvent.change(within(d).getByLabelText('New password'), { target: { value: e.password } }));
      act(() => fireEvent.click(within(d).getByRole('button', { name: /^activate$/i })));
    },
    'DIALOG.CLOSE': async ({ event }: { event: ModelEvent }) => {
      record(h, event);
      act(() => fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: /cancel/i })));
    },
    'xstate.done.actor.activate': answer(h.q.activate),
    'xstate.error.actor.activate': answer(h.q.activate),
    'xstate.done.actor.resendCode': answer(h.q.resendCode),
    'xstate.error.actor.resendCode': answer(h.q.resendCode),
  };
}

const allSequences: { input: ActivationInput; events: ModelEvent[] }[] = [];
const allPaths: TestPath<any, any>[] = [];

for (const scenario of scenarios) {
  const model = new TestModel(activationMachine, {
    input: scenario.input,
    events: (s) => eventsFor(s as Snap) as never,
    serializeState: (s) => serialize(s as Snap),
    stateMatcher: (s, key) => matchesPath(s as Snap, key),
  });
  const paths = edgeCoveringPaths(model, (s) => serialize(s as Snap));
  allPaths.push(...paths);
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

describe('activation model: the chart', () => {
  it('is named activation (the inspector and the audit pack show it by that id)', () => {
    expect(activationMachine.id).toBe('activation');
  });

  it('every state of the chart is reached by some path (the two choices made on the way are passed through)', () => {
    expect(unreachedStates(activationMachine, allPaths)).toEqual(['starting', 'returning']);
  });
});

describe('activation model: transition coverage', () => {
  it('every transition of the chart is taken by some path', () => {
    const taken = new Set<string>();
    for (const { input, events } of allSequences) for (const key of transitionsTaken(activationMachine, input, [events as never])) taken.add(key);
    const missing = listTransitions(activationMachine).filter((t) => !taken.has(t.key)).map((t) => t.key);
    expect(missing).toEqual([]);
  });
});
