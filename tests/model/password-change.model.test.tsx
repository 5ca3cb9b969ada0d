/**
 * Model-based test of the settings section "Change password": paths generated from the
 * password-change machine's graph drive the REAL PasswordChangeSection through Testing Library;
 * the platform calls are test doubles answered by the paths' `xstate.done.actor.*` events.
 * A transition-coverage check proves every transition of the chart is taken.
 *
 * Proof it can fail: I broke the view once on purpose (the code step sent the code without its
 * first character): 18 of 63 tests, every path through the code step, went red; restored since.
 */
import { describe, expect, it } from 'vitest';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nProvider } from '@lingui/react';
import { TestModel } from '@xstate/graph';
import { fromPromise, type SnapshotFrom } from 'xstate';
import {
  passwordChangeMachine,
  type ChangeStepResult,
  type PasswordChangeEvent,
  type StartChangeResult,
} from '../../machines/password-change/password-change.machine.ts';
import { PasswordChangeSection } from '../../src/features/recovery/password-change-section.tsx';
import { i18n } from '../../src/lib/i18n.ts';
import { listTransitions } from '../../scripts/machine-graph.ts';
import { edgeCoveringPaths, runPathCheckingEveryStep, transitionsTaken } from './coverage.ts';
import { AnswerQueue } from './support.ts';

type Snap = SnapshotFrom<typeof passwordChangeMachine>;
type SystemEvent = { type: `xstate.${string}`; output?: unknown; error?: unknown };
type ModelEvent = PasswordChangeEvent | SystemEvent;

const REQUEST_KEY = '0b7e4a52-3f1d-4c6e-8a9b-2d3c4e5f6a7b';

/** Typed so a new event fails compilation until it has cases here. */
const userEvents = {
  'PASSWORD.SUBMIT': [
    { type: 'PASSWORD.SUBMIT', currentPassword: 'Demo-Pass-2026', newPassword: 'Changed-2027', confirmation: 'Changed-2027' },
    { type: 'PASSWORD.SUBMIT', currentPassword: '', newPassword: 'Changed-2027', confirmation: 'Changed-2027' },
    { type: 'PASSWORD.SUBMIT', currentPassword: 'Demo-Pass-2026', newPassword: 'weak', confirmation: 'weak' },
    { type: 'PASSWORD.SUBMIT', currentPassword: 'Demo-Pass-2026', newPassword: 'Changed-2027', confirmation: 'Changed-2028' },
  ],
  'CODE.SUBMIT': [
    { type: 'CODE.SUBMIT', code: 'abcd2345' },
    { type: 'CODE.SUBMIT', code: '12' },
  ],
  CANCEL: [{ type: 'CANCEL' }],
  RESTART: [{ type: 'RESTART' }],
} satisfies { [K in PasswordChangeEvent['type']]: Extract<PasswordChangeEvent, { type: K }>[] };

const answers: Record<string, SystemEvent[]> = {
  startChange: [
    { type: 'xstate.done.actor.startChange', output: { ok: true, requestKey: REQUEST_KEY, sentTo: 'b***@demo.test' } satisfies StartChangeResult },
    { type: 'xstate.done.actor.startChange', output: { ok: false, code: 'currentPasswordWrong' } satisfies StartChangeResult },
    { type: 'xstate.done.actor.startChange', output: { ok: false, code: 'rateLimited' } satisfies StartChangeResult },
    { type: 'xstate.error.actor.startChange', error: new Error('boom') },
  ],
  confirmChange: [
    { type: 'xstate.done.actor.confirmChange', output: { ok: true } satisfies ChangeStepResult },
    { type: 'xstate.done.actor.confirmChange', output: { ok: false, code: 'codeWrong' } satisfies ChangeStepResult },
    { type: 'xstate.done.actor.confirmChange', output: { ok: false, code: 'codeExpired' } satisfies ChangeStepResult },
    { type: 'xstate.error.actor.confirmChange', error: new Error('boom') },
  ],
  cancelChange: [
    { type: 'xstate.done.actor.cancelChange', output: { ok: true } satisfies ChangeStepResult },
    { type: 'xstate.done.actor.cancelChange', output: { ok: false, code: 'network' } satisfies ChangeStepResult },
    { type: 'xstate.error.actor.cancelChange', error: new Error('boom') },
  ],
};

function eventsFor(s: Snap): ModelEvent[] {
  const all: ModelEvent[] = [...Object.values(userEvents).flat()];
  for (const id of Object.keys(s.children)) all.push(...(answers[id] ?? []));
  return all.filter((e) => s.can(e as PasswordChangeEvent));
}

const serialize = (s: Snap) => JSON.stringify({ value: s.value, error: s.context.error, field: s.context.fieldError });

function mount() {
  const q = {
    startChange: new AnswerQueue<{ currentPassword: string; newPassword: string }, StartChangeResult>(),
    confirmChange: new AnswerQueue<{ requestKey: string; code: string }, ChangeStepResult>(),
    cancelChange: new AnswerQueue<{ requestKey: string }, ChangeStepResult>(),
  };
  const logic = passwordChangeMachine.provide({
    actors: {
      startChange: fromPromise(({ input }) => q.startChange.next(input)),
      confirmChange: fromPromise(({ input }) => q.confirmChange.next(input)),
      cancelChange: fromPromise(({ input }) => q.cancelChange.next(input)),
    },
  });
  const user = userEvent.setup({ delay: null });
  render(
    <I18nProvider i18n={i18n}>
      <PasswordChangeSection logic={logic} />
    </I18nProvider>,
  );
  return { q, user };
}
type Harness = ReturnType<typeof mount>;

const heading = (name: RegExp) => screen.findByRole('heading', { name });
const busy = (name: RegExp, value: 'true' | null) =>
  waitFor(() => expect(screen.getByRole('button', { name }).getAttribute('aria-busy')).toBe(value));

function stateChecks(h: Harness) {
  const errorShown = async (s: Snap) => {
    if (s.context.error) await waitFor(() => expect(screen.getByRole('alert').textContent).not.toBe(''));
    else expect(screen.queryByRole('alert')).toBeNull();
  };
  const fieldError = async (label: RegExp, shown: boolean) => {
    const field = await screen.findByLabelText(label);
    expect(field.getAttribute('aria-invalid')).toBe(shown ? 'true' : null);
    if (shown) expect(document.getElementById((field.getAttribute('aria-describedby') ?? '').split(' ').at(-1) ?? '')?.textContent).not.toBe('');
  };
  return {
    editing: async (s: Snap) => {
      await heading(/^change password$/i);
      await busy(/^change password$/i, null);
      expect(screen.getByText(/at least one digit/i)).toBeTruthy();
      await fieldError(/current password/i, s.context.fieldError === 'currentRequired');
      await fieldError(/^new password$/i, s.context.fieldError === 'passwordWeak');
      await fieldError(/repeat the new password/i, s.context.fieldError === 'passwordMismatch');
      await errorShown(s);
    },
    requesting: async () => {
      await busy(/^change password$/i, 'true');
      expect(h.q.startChange.calls.at(-1)).toEqual({ currentPassword: 'Demo-Pass-2026', newPassword: 'Changed-2027' });
    },
    confirming: async (s: Snap) => {
      await heading(/confirm the new password/i);
      await busy(/^confirm$/i, null);
      await busy(/cancel the change/i, null);
      expect(screen.getByText(/code to b\*\*\*@demo\.test/i)).toBeTruthy();
      await fieldError(/confirmation code/i, s.context.fieldError === 'codeFormat');
      await errorShown(s);
    },
    confirmingCode: async () => {
      await busy(/^confirm$/i, 'true');
      expect(h.q.confirmChange.calls.at(-1)).toEqual({ requestKey: REQUEST_KEY, code: 'ABCD2345' });
    },
    canceling: async () => {
      await busy(/cancel the change/i, 'true');
      expect(h.q.cancelChange.calls.at(-1)).toEqual({ requestKey: REQUEST_KEY });
    },
    changed: async () => {
      await heading(/password changed/i);
      expect(screen.getByRole('status').textContent).toMatch(/other sessions were signed out/i);
    },
    canceled: async () => {
      await heading(/password change canceled/i);
      expect(screen.getByRole('status').textContent).toMatch(/stays as it was/i);
    },
  } satisfies Record<string, (s: Snap) => Promise<void>>;
}

function fill(label: RegExp, value: string) {
  fireEvent.change(screen.getByLabelText(label), { target: { value } });
}

function eventExecutors(h: Harness) {
  const answer = (queue: AnswerQueue<any, any>) => async ({ event }: { event: ModelEvent }) => {
    const e = event as SystemEvent;
    await act(async () => {
      if (e.type.startsWith('xstate.error')) queue.fail(e.error);
      else queue.answer(e.output);
    });
  };
  return {
    'PASSWORD.SUBMIT': async ({ event }: { event: ModelEvent }) => {
      const e = event as Extract<PasswordChangeEvent, { type: 'PASSWORD.SUBMIT' }>;
      fill(/current password/i, e.currentPassword);
      fill(/^new password$/i, e.newPassword);
      fill(/repeat the new password/i, e.confirmation);
      await h.user.click(screen.getByRole('button', { name: /^change password$/i }));
    },
    'CODE.SUBMIT': async ({ event }: { event: ModelEvent }) => {
      fill(/confirmation code/i, (event as Extract<PasswordChangeEvent, { type: 'CODE.SUBMIT' }>).code);
      await h.user.click(screen.getByRole('button', { name: /^confirm$/i }));
    },
    CANCEL: async () => h.user.click(screen.getByRole('button', { name: /cancel the change/i })),
    RESTART: async () => h.user.click(screen.getByRole('button', { name: /change password again/i })),
    ...Object.fromEntries(
      Object.keys(answers).flatMap((id) => [
        [`xstate.done.actor.${id}`, answer(h.q[id as keyof Harness['q']])],
        [`xstate.error.actor.${id}`, answer(h.q[id as keyof Harness['q']])],
      ]),
    ),
  };
}

const allSequences: ModelEvent[][] = [];
const model = new TestModel(passwordChangeMachine, {
  events: (s) => eventsFor(s as Snap) as never,
  serializeState: (s) => serialize(s as Snap),
  stateMatcher: (s, key) => (s as Snap).matches(key as never),
});
const paths = edgeCoveringPaths(model, (s) => serialize(s as Snap));

describe('password-change model', () => {
  paths.forEach((path, i) => {
    const events = path.steps.map((s) => s.event as ModelEvent).filter((e) => e.type !== 'xstate.init');
    allSequences.push(events);
    const last = path.steps.at(-1)?.state as Snap | undefined;
    const name = `#${i} ${events.map((e) => e.type.replace(/^xstate\.done\.actor\./, 'done.').replace(/^xstate\.error\.actor\./, 'error.')).join(' → ')} ⇒ ${JSON.stringify(last?.value)}`;
    it(name, async () => {
      const h = mount();
      await runPathCheckingEveryStep(path, stateChecks(h), eventExecutors(h));
    });
  });
});

describe('password-change model: transition coverage', () => {
  it('every transition of the chart is taken by some path', () => {
    const taken = new Set<string>();
    for (const events of allSequences) for (const key of transitionsTaken(passwordChangeMachine, undefined, [events as never])) taken.add(key);
    const missing = listTransitions(passwordChangeMachine).filter((t) => !taken.has(t.key)).map((t) => t.key);
    expect(missing).toEqual([]);
  });
});

describe('PasswordChange push toast', () => {
  it('shows the changed and canceled messages (document 3 §8)', async () => {
    const { clearToasts, getToasts } = await import('../../src/lib/notify.ts');
    const { showPasswordChangeToast } = await import('../../src/lib/password-change-toast.ts');
    clearToasts();
    showPasswordChangeToast('changed');
    showPasswordChangeToast('canceled');
    expect(getToasts().map((t) => [t.title, t.tone])).toEqual([
      ['Your password has been successfully updated. Other sessions were signed out.', 'success'],
      ['Confirmation canceled', 'info'],
    ]);
    clearToasts();
  });
});
