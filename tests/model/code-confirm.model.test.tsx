/**
 * Model-based test of confirming a phone (or an e-mail address) with a code: paths generated from
 * the code-confirm machine's graph drive the REAL CodeConfirmPanel through Testing Library. The
 * two calls (ask for a code, answer it) are test doubles answered by the paths'
 * `xstate.done.actor.*` / `xstate.error.actor.*` events. A last test confirms with the keyboard only
 * and runs axe on every step.
 *
 * Proof it can fail: I broke the panel once on purpose (a wrong code's words shown above the form,
 * not on the code field): 10 of 73 tests went red; restored since.
 */
import { expectNoAxeViolations } from '../ui/axe.ts';
import { describe, expect, it, vi } from 'vitest';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nProvider } from '@lingui/react';
import { TestModel } from '@xstate/graph';
import type { SnapshotFrom } from 'xstate';
import { codeConfirmMachine, type CodeConfirmEvent, type ConfirmCodeResult, type RequestCodeResult } from '../../machines/code-confirm/code-confirm.machine.ts';
import { CodeConfirmPanel } from '../../src/features/profile/code-confirm-panel.tsx';
import { i18n } from '../../src/lib/i18n.ts';
import { listTransitions } from '../../scripts/machine-graph.ts';
import { edgeCoveringPaths, expectOffered, matchesPath, runPathCheckingEveryStep, transitionsTaken, unreachedStates } from './coverage.ts';
import { AnswerQueue } from './support.ts';

type Snap = SnapshotFrom<typeof codeConfirmMachine>;
type SystemEvent = { type: `xstate.${string}`; output?: unknown; error?: unknown };
type ModelEvent = CodeConfirmEvent | SystemEvent;

const PHONE_ID = 7;
const LABEL = '+370 61234578';
const SENT_TO = '+370 •••• 578';
const CODE = '123456';
const TOO_SOON = 'A code was just sent; ask for a new one 30 seconds after the last';

/** Typed so a new event fails compilation until it has cases here. */
const userEvents = {
  'CODE.SUBMIT': [
    { type: 'CODE.SUBMIT', code: CODE },
    // not six digits: said here, nothing sent
    { type: 'CODE.SUBMIT', code: '12' },
  ],
  RESEND: [{ type: 'RESEND' }],
  RETRY: [{ type: 'RETRY' }],
  CANCEL: [{ type: 'CANCEL' }],
} satisfies { [K in CodeConfirmEvent['type']]: Extract<CodeConfirmEvent, { type: K }>[] };

function answersFor(s: Snap): SystemEvent[] {
  const out: SystemEvent[] = [];
  if (s.children.requestCode) {
    out.push(
      { type: 'xstate.done.actor.requestCode', output: { ok: true, sentTo: SENT_TO } satisfies RequestCodeResult },
      { type: 'xstate.done.actor.requestCode', output: { ok: false, code: 'refused', detail: TOO_SOON } satisfies RequestCodeResult },
      { type: 'xstate.error.actor.requestCode', error: new Error('offline') },
    );
  }
  if (s.children.confirmCode) {
    out.push(
      { type: 'xstate.done.actor.confirmCode', output: { ok: true } satisfies ConfirmCodeResult },
      { type: 'xstate.done.actor.confirmCode', output: { ok: false, code: 'wrongCode', detail: 'The code is wrong.' } satisfies ConfirmCodeResult },
      { type: 'xstate.done.actor.confirmCode', output: { ok: false, code: 'refused', detail: 'The phone is confirmed already' } satisfies ConfirmCodeResult },
      { type: 'xstate.error.actor.confirmCode', error: new Error('offline') },
    );
  }
  return out;
}

function eventsFor(s: Snap): ModelEvent[] {
  if (s.status !== 'active') return [];
  const all: ModelEvent[] = [...Object.values(userEvents).flat(), ...answersFor(s)];
  return all.filter((e) => e.type.startsWith('xstate.') || s.can(e as CodeConfirmEvent));
}

/** Only what the checks read: snapshots that serialize alike must look alike. */
const serialize = (s: Snap) => JSON.stringify({ value: s.value, error: s.context.error, resent: s.context.codesSent > 1 });

function mount() {
  const q = { requestCode: new AnswerQueue<{ targetId: number }, RequestCodeResult>(), confirmCode: new AnswerQueue<{ targetId: number; code: string }, ConfirmCodeResult>() };
  const onFinished = vi.fn();
  const user = userEvent.setup({ delay: null });
  const view = render(
    <I18nProvider i18n={i18n}>
      <CodeConfirmPanel
        kind="phone"
        targetId={PHONE_ID}
        targetLabel={LABEL}
        actors={{ requestCode: (input) => q.requestCode.next(input), confirmCode: (input) => q.confirmCode.next(input) }}
        onFinished={onFinished}
      />
    </I18nProvider>,
  );
  // What the test did last and how many codes the platform said it sent, to expect what the user
  // sees from them rather than from the chart's own context (a chart that kept the wrong error, or
  // none, would otherwise agree with itself).
  const did: { last: ModelEvent | null; codesSent: number } = { last: null, codesSent: 0 };
  /** the panel marks itself busy (aria-busy) while a call it waits for runs */
  const panelBusy = () => view.container.querySelector('.profile-panel')?.getAttribute('aria-busy') === 'true';
  return { q, onFinished, user, did, panelBusy, container: view.container };
}
type Harness = ReturnType<typeof mount>;

const codeField = () => screen.getByLabelText(/^code$/i) as HTMLInputElement;
const ERROR_TEXT = {
  codeFormat: /enter the 6-digit code/i,
  wrongCode: /^the code is wrong\.$/i,
  refused: /./,
  network: /the connection failed/i,
} as const;

type ExpectedError = { code: 'codeFormat' | 'wrongCode' | 'refused' | 'network'; detail: string | null } | null;

/** The error the last thing the test did calls for on the code's page. */
function expectedError(last: ModelEvent | null): ExpectedError {
  if (!last) return null;
  if (last.type === 'CODE.SUBMIT') return (last as Extract<CodeConfirmEvent, { type: 'CODE.SUBMIT' }>).code === CODE ? null : { code: 'codeFormat', detail: null };
  if (last.type.startsWith('xstate.error.actor.')) return { code: 'network', detail: null };
  const output = (last as SystemEvent).output as { ok: boolean; code?: 'wrongCode' | 'refused'; detail?: string | null } | undefined;
  return output && !output.ok ? { code: output.code!, detail: output.detail ?? null } : null;
}

function expectEnteringError(h: Harness) {
  const error = expectedError(h.did.last);
  if (!error) {
    expect(codeField().getAttribute('aria-invalid')).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
    return;
  }
  if (error.code === 'codeFormat' || error.code === 'wrongCode') {
    const text = screen.getByText(ERROR_TEXT[error.code]);
    expect(codeField().getAttribute('aria-invalid')).toBe('true');
    expect(codeField().getAttribute('aria-describedby')).toContain(text.id);
    expect(screen.queryByRole('alert')).toBeNull();
  } else {
    const alert = screen.getByRole('alert');
    if (error.code === 'network') expect(within(alert).getByText(ERROR_TEXT.network)).toBeTruthy();
    else expect(within(alert).getByText(error.detail ?? '')).toBeTruthy();
    expect(codeField().getAttribute('aria-invalid')).toBeNull();
  }
}

function stateChecks(h: Harness) {
  return {
    requesting: async (s: Snap) => {
      await screen.findByText(/sending the code/i);
      expect(screen.getByRole('heading', { name: `Confirm ${LABEL}` })).toBeTruthy();
      expect(h.q.requestCode.waiting).toBe(1);
      expect(h.q.requestCode.calls.at(-1)).toEqual({ targetId: PHONE_ID });
      expect(screen.queryByLabelText(/^code$/i)).toBeNull();
      expect(h.panelBusy()).toBe(true);
      // the customer can give up while the code is on its way (the chart's header)
      expect(screen.getByRole('button', { name: /^cancel$/i })).toBeTruthy();
      expectOffered(s, [{ type: 'CANCEL' }]);
    },
    requestFailed: async (s: Snap) => {
      const alert = await screen.findByRole('alert');
      expect(within(alert).getByText(/the code was not sent/i)).toBeTruthy();
      expect(within(alert).getByText(h.did.last?.type === 'xstate.error.actor.requestCode' ? ERROR_TEXT.network : TOO_SOON)).toBeTruthy();
      await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: /^try again$/i })));
      expect(screen.queryByLabelText(/^code$/i)).toBeNull();
      expect(screen.getByRole('button', { name: /^cancel$/i })).toBeTruthy();
      expect(h.panelBusy()).toBe(false);
      expectOffered(s, [{ type: 'RETRY' }, { type: 'CANCEL' }]);
      // a retry asks again rather than leaving the page as it was
      expect(h.did.last?.type).not.toBe('RETRY');
    },
    entering: async (s: Snap) => {
      await waitFor(() => expect(codeField().disabled).toBe(false));
      expect(screen.getByText(h.did.codesSent > 1 ? /a new code was sent/i : `We sent a 6-digit code by SMS to ${SENT_TO}.`)).toBeTruthy();
      expect((screen.getByRole('button', { name: /send a new code/i }) as HTMLButtonElement).disabled).toBe(false);
      expect(screen.getByRole('button', { name: /^cancel$/i })).toBeTruthy();
      expect(h.q.requestCode.waiting + h.q.confirmCode.waiting).toBe(0);
      expect(h.panelBusy()).toBe(false);
      expectEnteringError(h);
      expectOffered(s, [{ type: 'CODE.SUBMIT', code: CODE }, { type: 'RESEND' }, { type: 'CANCEL' }]);
      // a new code asked for, or a well-formed code sent, leaves the page as it was
      expect(h.did.last?.type).not.toBe('RESEND');
      expect(h.did.last).not.toEqual({ type: 'CODE.SUBMIT', code: CODE });
      // The code is not kept by the machine.
      expect(JSON.stringify(s.context)).not.toContain(CODE);
    },
    resending: async () => {
      await waitFor(() => expect(screen.getByRole('button', { name: /send a new code/i }).getAttribute('aria-busy')).toBe('true'));
      expect(codeField().disabled).toBe(true);
      expect(h.q.requestCode.waiting).toBe(1);
      expect(h.q.requestCode.calls.at(-1)).toEqual({ targetId: PHONE_ID });
      expect(h.panelBusy()).toBe(true);
      // asking again puts the last error away
      expect(screen.queryByRole('alert')).toBeNull();
      expect(codeField().getAttribute('aria-invalid')).toBeNull();
      expect(screen.queryByRole('button', { name: /^cancel$/i })).toBeNull();
    },
    verifying: async () => {
      await waitFor(() => expect(screen.getByRole('button', { name: /^confirm$/i }).getAttribute('aria-busy')).toBe('true'));
      expect(h.q.confirmCode.waiting).toBe(1);
      // the code the customer typed is the one sent
      expect(h.q.confirmCode.calls.at(-1)).toEqual({ targetId: PHONE_ID, code: (h.did.last as Extract<CodeConfirmEvent, { type: 'CODE.SUBMIT' }>).code });
      expect(h.panelBusy()).toBe(true);
      // sending a code puts the last error away
      expect(screen.queryByRole('alert')).toBeNull();
      expect(codeField().getAttribute('aria-invalid')).toBeNull();
      expect(screen.queryByRole('button', { name: /^cancel$/i })).toBeNull();
    },
    confirmed: async (s: Snap) => {
      await waitFor(() => expect(h.onFinished).toHaveBeenCalledWith(true));
      expect(h.onFinished).toHaveBeenCalledTimes(1);
      // the flow has ended (its calls stop with it)
      expect(s.status).toBe('done');
    },
    canceled: async (s: Snap) => {
      await waitFor(() => expect(h.onFinished).toHaveBeenCalledWith(false));
      expect(h.onFinished).toHaveBeenCalledTimes(1);
      expect(s.status).toBe('done');
    },
  } satisfies Record<string, (s: Snap) => Promise<void>>;
}

function eventExecutors(h: Harness) {
  const answer = (queue: AnswerQueue<any, any>) => async ({ event }: { event: ModelEvent }) => {
    const e = event as SystemEvent;
    h.did.last = e;
    if (e.type === 'xstate.done.actor.requestCode' && (e.output as RequestCodeResult).ok) h.did.codesSent++;
    await act(async () => {
      if (e.type.startsWith('xstate.error')) queue.fail(e.error);
      else queue.answer(e.output);
    });
  };
  const press = (name: RegExp) => async ({ event }: { event: ModelEvent }) => {
    h.did.last = event;
    await h.user.click(screen.getByRole('button', { name }));
  };
  return {
    'CODE.SUBMIT': async ({ event }: { event: ModelEvent }) => {
      const e = event as Extract<CodeConfirmEvent, { type: 'CODE.SUBMIT' }>;
      h.did.last = e;
      await h.user.clear(codeField());
      await h.user.type(codeField(), e.code);
      await h.user.click(screen.getByRole('button', { name: /^confirm$/i }));
    },
    RESEND: press(/send a new code/i),
    RETRY: press(/^try again$/i),
    CANCEL: press(/^cancel$/i),
    'xstate.done.actor.requestCode': answer(h.q.requestCode),
    'xstate.error.actor.requestCode': answer(h.q.requestCode),
    'xstate.done.actor.confirmCode': answer(h.q.confirmCode),
    'xstate.error.actor.confirmCode': answer(h.q.confirmCode),
  };
}

const input = { targetId: PHONE_ID };
const model = new TestModel(codeConfirmMachine, {
  input,
  events: (s) => eventsFor(s as Snap) as never,
  serializeState: (s) => serialize(s as Snap),
  stateMatcher: (s, key) => matchesPath(s as Snap, key),
});
const paths = edgeCoveringPaths(model, (s) => serialize(s as Snap));
const sequences: ModelEvent[][] = [];

const labelOf = (e: ModelEvent) => {
  const short = e.type.replace(/^xstate\.done\.actor\./, 'done.').replace(/^xstate\.error\.actor\./, 'error.');
  if ('output' in e) {
    const out = e.output as { ok: boolean; code?: string };
    return `${short}(${out.ok ? 'ok' : out.code})`;
  }
  if ('code' in e && typeof e.code === 'string') return `${short}(${e.code})`;
  return short;
};

describe('code confirm model', () => {
  paths.forEach((path, i) => {
    const events = path.steps.map((s) => s.event as ModelEvent).filter((e) => e.type !== 'xstate.init');
    sequences.push(events);
    const last = path.steps.at(-1)?.state as Snap | undefined;
    it(`#${i} ${events.map(labelOf).join(' → ')} ⇒ ${JSON.stringify(last?.value)}`, async () => {
      const h = mount();
      await runPathCheckingEveryStep(path, stateChecks(h), eventExecutors(h));
    });
  });
});

describe('code confirm model: the chart', () => {
  it('is named codeConfirm (the inspector and the audit pack show it by that id)', () => {
    expect(codeConfirmMachine.id).toBe('codeConfirm');
  });

  it('every state of the chart is reached by some path', () => {
    expect(unreachedStates(codeConfirmMachine, paths)).toEqual([]);
  });
});

describe('code confirm model: transition coverage', () => {
  it('every transition of the chart is taken by some path', () => {
    const taken = new Set<string>();
    for (const events of sequences) for (const key of transitionsTaken(codeConfirmMachine, input, [events as never])) taken.add(key);
    const missing = listTransitions(codeConfirmMachine).filter((t) => !taken.has(t.key)).map((t) => t.key);
    expect(missing).toEqual([]);
  });
});

describe('code confirm panel: keyboard and axe', () => {
  it('confirms with the keyboard only, focus following each step, without axe violations', async () => {
    const h = mount();
    const heading = await screen.findByRole('heading', { name: `Confirm ${LABEL}` });
    expect(document.activeElement).toBe(heading);
    await expectNoAxeViolations('asking for the code', h.container);
    await act(async () => h.q.requestCode.answer({ ok: true, sentTo: SENT_TO }));
    await screen.findByText(`We sent a 6-digit code by SMS to ${SENT_TO}.`);
    await expectNoAxeViolations('entering the code', h.container);

    await h.user.tab();
    expect(document.activeElement).toBe(codeField());
    await h.user.keyboard('000000{Enter}');
    await waitFor(() => expect(h.q.confirmCode.waiting).toBe(1));
    await act(async () => h.q.confirmCode.answer({ ok: false, code: 'wrongCode', detail: 'The code is wrong.' }));
    await screen.findByText(ERROR_TEXT.wrongCode);
    // The refused code is cleared and the field takes focus for the next try.
    await waitFor(() => expect(document.activeElement).toBe(codeField()));
    expect(codeField().value).toBe('');
    await expectNoAxeViolations('a wrong code', h.container);

    await h.user.keyboard(`${CODE}{Enter}`);
    await waitFor(() => expect(h.q.confirmCode.waiting).toBe(1));
    await act(async () => h.q.confirmCode.answer({ ok: true }));
    await waitFor(() => expect(h.onFinished).toHaveBeenCalledWith(true));
  });
});
