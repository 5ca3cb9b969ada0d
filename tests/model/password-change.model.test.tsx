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
import * as v from 'valibot';
import { PasswordSchema } from '../../api/auth.ts';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nProvider } from '@lingui/react';
import { TestModel } from '@xstate/graph';
import { fromPromise, type SnapshotFrom } from 'xstate';
import {
  CHANGE_CODE_PATTERN,
  passwordChangeMachine,
  type ChangeStepResult,
  type PasswordChangeErrorCode,
  type PasswordChangeEvent,
  type StartChangeResult,
} from '../../machines/password-change/password-change.machine.ts';
import { PasswordChangeSection } from '../../src/features/recovery/password-change-section.tsx';
import { i18n } from '../../src/lib/i18n.ts';
import { listTransitions } from '../../scripts/machine-graph.ts';
import { edgeCoveringPaths, expectOffered, runPathCheckingEveryStep, transitionsTaken, unreachedStates } from './coverage.ts';
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
    // with the spaces a paste brings: sent trimmed and in capitals
    { type: 'CODE.SUBMIT', code: ' abcd2345 ' },
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
    { type: 'xstate.done.actor.confirmChange', output: { ok: false, code: 'codeDead' } satisfies ChangeStepResult },
    { type: 'xstate.done.actor.confirmChange', output: { ok: false, code: 'requestGone' } satisfies ChangeStepResult },
    { type: 'xstate.done.actor.confirmChange', output: { ok: false, code: 'rateLimited' } satisfies ChangeStepResult },
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

/** What the test did, kept apart from the chart's context: the page is expected from it. */
interface Did {
  last: ModelEvent | null;
  error: PasswordChangeErrorCode | null;
  field: 'currentRequired' | 'passwordWeak' | 'passwordMismatch' | 'codeFormat' | null;
  /** the change the platform started and has not ended, and where its code went */
  requestKey: string | null;
  sentTo: string | null;
  /** the passwords and the code typed last */
  passwords: { currentPassword: string; newPassword: string } | null;
  code: string | null;
}

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
  const view = render(
    <I18nProvider i18n={i18n}>
      <PasswordChangeSection logic={logic} />
    </I18nProvider>,
  );
  const did: Did = { last: null, error: null, field: null, requestKey: null, sentTo: null, passwords: null, code: null };
  /** the section marks itself busy (aria-busy) while a call it waits for runs */
  const sectionBusy = () => view.container.querySelector('section')?.getAttribute('aria-busy') === 'true';
  return { q, user, did, sectionBusy };
}
type Harness = ReturnType<typeof mount>;

const heading = (name: RegExp) => screen.findByRole('heading', { name });
const busy = (name: RegExp, value: 'true' | null) =>
  waitFor(() => expect(screen.getByRole('button', { name }).getAttribute('aria-busy')).toBe(value));

const ERROR_TEXT: Partial<Record<PasswordChangeErrorCode, RegExp>> = {
  currentPasswordWrong: /current password is not correct/i,
  rateLimited: /too many attempts/i,
  codeWrong: /code is not correct/i,
  codeExpired: /code has expired/i,
  codeDead: /typed wrong too many times/i,
  requestGone: /no longer pending/i,
  network: /could not reach the server/i,
  unknown: /something went wrong/i,
};
const FIELD_TEXT = {
  currentRequired: /enter your current password/i,
  passwordWeak: /does not meet the rules/i,
  passwordMismatch: /do not match/i,
  codeFormat: /enter the 8 characters/i,
} as const;
/** a request that can no longer be confirmed: back to the form (document 2 §7 password codes) */
const GONE = new Set<PasswordChangeErrorCode>(['requestGone', 'codeDead', 'codeExpired']);

function stateChecks(h: Harness) {
  const errorShown = async () => {
    const expected = h.did.error ? ERROR_TEXT[h.did.error] : null;
    if (expected) await waitFor(() => expect(screen.getByRole('alert').textContent).toMatch(expected));
    else expect(screen.queryByRole('alert')).toBeNull();
  };
  const fieldError = async (label: RegExp, key: NonNullable<Did['field']>) => {
    const field = await screen.findByLabelText(label);
    const shown = h.did.field === key;
    expect(field.getAttribute('aria-invalid')).toBe(shown ? 'true' : null);
    if (shown) expect(document.getElementById((field.getAttribute('aria-describedby') ?? '').split(' ').at(-1) ?? '')?.textContent).toMatch(FIELD_TEXT[key]);
  };
  return {
    editing: async (s: Snap) => {
      await heading(/^change password$/i);
      await busy(/^change password$/i, null);
      expect(h.sectionBusy()).toBe(false);
      expect(screen.getByText(/at least one digit/i)).toBeTruthy();
      await fieldError(/current password/i, 'currentRequired');
      await fieldError(/^new password$/i, 'passwordWeak');
      await fieldError(/repeat the new password/i, 'passwordMismatch');
      await errorShown();
      expectOffered(s, [userEvents['PASSWORD.SUBMIT'][0]!]);
      // complete, strong and repeated passwords are sent, not left on the form
      expect(h.did.last).not.toEqual(userEvents['PASSWORD.SUBMIT'][0]);
      // nothing pending is kept once the form is back
      expect(s.context.requestKey).toBeNull();
    },
    requesting: async () => {
      await busy(/^change password$/i, 'true');
      expect(h.sectionBusy()).toBe(true);
      expect(h.q.startChange.waiting).toBe(1);
      expect(h.q.startChange.calls.at(-1)).toEqual(h.did.passwords);
      expect(screen.queryByRole('alert')).toBeNull();
    },
    confirming: async (s: Snap) => {
      await heading(/confirm the new password/i);
      await busy(/^confirm$/i, null);
      await busy(/cancel the change/i, null);
      expect(h.sectionBusy()).toBe(false);
      expect(screen.getByText(`We sent an 8-character code to ${h.did.sentTo}. It works for 10 minutes.`)).toBeTruthy();
      await fieldError(/confirmation code/i, 'codeFormat');
      await errorShown();
      expectOffered(s, [userEvents['CODE.SUBMIT'][0]!, { type: 'CANCEL' }]);
      expect(h.did.last?.type).not.toBe('CANCEL');
      expect(h.did.last).not.toEqual(userEvents['CODE.SUBMIT'][0]);
    },
    confirmingCode: async () => {
      await busy(/^confirm$/i, 'true');
      expect(h.sectionBusy()).toBe(true);
      // the code typed, trimmed and in capitals, for the change the platform started
      expect(h.q.confirmChange.calls.at(-1)).toEqual({ requestKey: h.did.requestKey, code: h.did.code?.trim().toUpperCase() });
      expect(screen.queryByRole('alert')).toBeNull();
      expect(screen.getByLabelText(/confirmation code/i).getAttribute('aria-invalid')).toBeNull();
    },
    canceling: async () => {
      await busy(/cancel the change/i, 'true');
      expect(h.sectionBusy()).toBe(true);
      expect(h.q.cancelChange.calls.at(-1)).toEqual({ requestKey: h.did.requestKey });
      expect(screen.queryByRole('alert')).toBeNull();
    },
    changed: async (s: Snap) => {
      await heading(/password changed/i);
      expect(screen.getByRole('status').textContent).toMatch(/other sessions were signed out/i);
      expect(h.did.last).toEqual(answers.confirmChange![0]);
      expect(s.context.requestKey).toBeNull();
      expect(s.context.sentTo).toBeNull();
      // the customer may start another change (the button the page offers is an event the chart takes)
      expect(screen.getByRole('button', { name: /change password again/i })).toBeTruthy();
      expectOffered(s, [{ type: 'RESTART' }]);
    },
    canceled: async (s: Snap) => {
      await heading(/password change canceled/i);
      expect(screen.getByRole('status').textContent).toMatch(/stays as it was/i);
      expect(h.did.last).toEqual(answers.cancelChange![0]);
      expect(s.context.requestKey).toBeNull();
      expect(s.context.sentTo).toBeNull();
      expect(screen.getByRole('button', { name: /change password again/i })).toBeTruthy();
      expectOffered(s, [{ type: 'RESTART' }]);
    },
  } satisfies Record<string, (s: Snap) => Promise<void>>;
}

/** What each event calls for, worked out here rather than read from the chart. */
function record(did: Did, event: ModelEvent): void {
  did.last = event;
  const output = (event as SystemEvent).output as { ok: boolean; code?: PasswordChangeErrorCode; requestKey?: string; sentTo?: string } | undefined;
  const fail = (code: PasswordChangeErrorCode) => Object.assign(did, { error: code, field: null });
  const clear = () => Object.assign(did, { error: null, field: null });
  switch (event.type) {
    case 'PASSWORD.SUBMIT': {
      const e = event as Extract<PasswordChangeEvent, { type: 'PASSWORD.SUBMIT' }>;
      did.passwords = { currentPassword: e.currentPassword, newPassword: e.newPassword };
      const field = e.currentPassword === '' ? 'currentRequired' : !v.is(PasswordSchema, e.newPassword) ? 'passwordWeak' : e.newPassword !== e.confirmation ? 'passwordMismatch' : null;
      if (field) Object.assign(did, { field, error: null });
      else clear();
      return;
    }
    case 'CODE.SUBMIT': {
      const code = (event as Extract<PasswordChangeEvent, { type: 'CODE.SUBMIT' }>).code;
      did.code = code;
      if (/^[0-9A-Za-z]{8}$/.test(code.trim())) clear();
      else Object.assign(did, { field: 'codeFormat', error: null });
      return;
    }
    case 'CANCEL':
    case 'RESTART':
      clear();
      return;
    case 'xstate.done.actor.startChange':
      if (output?.ok) {
        Object.assign(did, { requestKey: output.requestKey, sentTo: output.sentTo });
        clear();
      } else fail(output?.code ?? 'unknown');
      return;
    case 'xstate.done.actor.confirmChange':
    case 'xstate.done.actor.cancelChange':
      if (output?.ok) Object.assign(did, { requestKey: null, sentTo: null });
      else {
        fail(output?.code ?? 'unknown');
        if (event.type.endsWith('confirmChange') && GONE.has(output?.code ?? 'unknown')) Object.assign(did, { requestKey: null, sentTo: null });
      }
      return;
    default:
      if (event.type.startsWith('xstate.error.actor.')) fail('unknown');
  }
}

function fill(label: RegExp, value: string) {
  fireEvent.change(screen.getByLabelText(label), { target: { value } });
}

function eventExecutors(h: Harness) {
  const answer = (queue: AnswerQueue<any, any>) => async ({ event }: { event: ModelEvent }) => {
    const e = event as SystemEvent;
    record(h.did, e);
    await act(async () => {
      if (e.type.startsWith('xstate.error')) queue.fail(e.error);
      else queue.answer(e.output);
    });
  };
  const press = (name: RegExp) => async ({ event }: { event: ModelEvent }) => {
    record(h.did, event);
    await h.user.click(screen.getByRole('button', { name }));
  };
  return {
    'PASSWORD.SUBMIT': async ({ event }: { event: ModelEvent }) => {
      const e = event as Extract<PasswordChangeEvent, { type: 'PASSWORD.SUBMIT' }>;
      record(h.did, e);
      fill(/current password/i, e.currentPassword);
      fill(/^new password$/i, e.newPassword);
      fill(/repeat the new password/i, e.confirmation);
      await h.user.click(screen.getByRole('button', { name: /^change password$/i }));
    },
    'CODE.SUBMIT': async ({ event }: { event: ModelEvent }) => {
      record(h.did, event);
      fill(/confirmation code/i, (event as Extract<PasswordChangeEvent, { type: 'CODE.SUBMIT' }>).code);
      await h.user.click(screen.getByRole('button', { name: /^confirm$/i }));
    },
    CANCEL: press(/cancel the change/i),
    RESTART: press(/change password again/i),
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

describe('password-change model: the chart', () => {
  it('takes a code of 8 letters or digits, nothing else (document 2 §7: the e-mailed confirmation code)', () => {
    for (const code of ['ABCD2345', 'abcd2345', '12345678']) expect(CHANGE_CODE_PATTERN.test(code), code).toBe(true);
    for (const code of ['abcd234', 'abcd23456', 'abcd-234', 'ÄBCD2345', 'abcd 234', '', 'xabcd2345', 'abcd2345x']) expect(CHANGE_CODE_PATTERN.test(code), code).toBe(false);
  });

  it('is named passwordChange (the inspector and the audit pack show it by that id)', () => {
    expect(passwordChangeMachine.id).toBe('passwordChange');
  });

  it('every state of the chart is reached by some path', () => {
    expect(unreachedStates(passwordChangeMachine, paths)).toEqual([]);
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
