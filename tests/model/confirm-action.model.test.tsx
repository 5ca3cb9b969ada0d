/**
 * Model-based test of "confirm, call, done or failed" (machines/confirm-action): paths generated
 * from the chart drive the REAL ConfirmActionDialog and ConfirmActionDone (the views of the
 * transaction detail's cancel and the pre-approved payments' stop) through Testing Library. The
 * call is a test double answered by the paths' `xstate.done.actor.perform` /
 * `xstate.error.actor.perform` events. Every transition of the chart is taken by some path.
 *
 * Proof it can fail: I made the dialog's Keep button send CONFIRM instead of DISMISS once: the
 * paths through "DISMISS" went red; restored since.
 */
import { describe, expect, it } from 'vitest';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nProvider } from '@lingui/react';
import { TestModel } from '@xstate/graph';
import type { SnapshotFrom } from 'xstate';
import { confirmActionMachine, type ConfirmActionEvent, type ConfirmActionResult, type PerformInput } from '../../machines/confirm-action/confirm-action.machine.ts';
import { ConfirmActionDialog, ConfirmActionDone, useConfirmAction } from '../../src/features/history/confirm-action.tsx';
import { i18n } from '../../src/lib/i18n.ts';
import { listTransitions } from '../../scripts/machine-graph.ts';
import { edgeCoveringPaths, matchesPath, runPathCheckingEveryStep, transitionsTaken } from './coverage.ts';
import { AnswerQueue } from './support.ts';
import { settleFromEvent } from './settle.ts';

type Snap = SnapshotFrom<typeof confirmActionMachine>;
type SystemEvent = { type: `xstate.${string}`; output?: unknown; error?: unknown };
type ModelEvent = ConfirmActionEvent | SystemEvent;

const REFUSED = 'The transfer is not pending any more';

/** Typed so a new event fails compilation until it has cases here. Two targets: the page's two rows. */
const userEvents = {
  ASK: [{ type: 'ASK', targetId: 1 }],
  CONFIRM: [{ type: 'CONFIRM' }],
  DISMISS: [{ type: 'DISMISS' }],
} satisfies { [K in ConfirmActionEvent['type']]: Extract<ConfirmActionEvent, { type: K }>[] };

function eventsFor(s: Snap): ModelEvent[] {
  if (s.status !== 'active') return [];
  const answers: SystemEvent[] = s.children.perform
    ? [
        { type: 'xstate.done.actor.perform', output: { ok: true } satisfies ConfirmActionResult },
        { type: 'xstate.done.actor.perform', output: { ok: false, code: 'refused', detail: REFUSED } satisfies ConfirmActionResult },
        { type: 'xstate.error.actor.perform', error: new Error('offline') },
      ]
    : [];
  const all: ModelEvent[] = [...Object.values(userEvents).flat(), ...answers];
  return all.filter((e) => e.type.startsWith('xstate.') || s.can(e as ConfirmActionEvent));
}

const serialize = (s: Snap) => JSON.stringify({ value: s.value, error: s.context.error, target: s.context.targetId });

function Harness({ perform }: { perform: (input: PerformInput) => Promise<ConfirmActionResult> }) {
  const actor = useConfirmAction(perform);
  return (
    <>
      <ConfirmActionDone actor={actor}>Canceled.</ConfirmActionDone>
      <button type="button" onClick={() => actor.send({ type: 'ASK', targetId: 1 })}>
        Cancel this transfer
      </button>
      <ConfirmActionDialog actor={actor} title="Cancel this transfer?" confirmLabel="Cancel the transfer" keepLabel="Keep it" failedTitle="The transfer was not canceled">
        <p>Nothing will be sent.</p>
      </ConfirmActionDialog>
    </>
  );
}

function mount() {
  const q = new AnswerQueue<PerformInput, ConfirmActionResult>();
  const user = userEvent.setup({ delay: null });
  render(
    <I18nProvider i18n={i18n}>
      <Harness perform={(input) => q.next(input)} />
    </I18nProvider>,
  );
  return { q, user };
}
type H = ReturnType<typeof mount>;

const dialog = () => screen.queryByRole('dialog', { name: 'Cancel this transfer?' });

function stateChecks(h: H) {
  return {
    idle: async () => {
      await waitFor(() => expect(dialog()).toBeNull());
      expect(screen.queryByText('Canceled.')).toBeNull();
      expect(h.q.waiting).toBe(0);
    },
    confirming: async () => {
      const d = await waitFor(() => dialog()!);
      expect(within(d).getByText('Nothing will be sent.')).toBeTruthy();
      expect(within(d).getByRole('button', { name: 'Cancel the transfer' }).getAttribute('aria-busy')).toBeNull();
      expect(within(d).queryByRole('alert')).toBeNull();
      expect(h.q.waiting).toBe(0);
    },
    working: async (s: Snap) => {
      // an earlier failure is not held while the request runs again
      expect(s.context.error).toBeNull();
      const d = await waitFor(() => dialog()!);
      await waitFor(() => expect(within(d).getByRole('button', { name: /cancel the transfer|try again/i }).getAttribute('aria-busy')).toBe('true'));
      expect((within(d).getByRole('button', { name: 'Keep it' }) as HTMLButtonElement).disabled).toBe(true);
      expect(h.q.waiting).toBe(1);
      const call = h.q.calls.at(-1)!;
      expect(call.targetId).toBe(1);
      expect(call.idempotencyKey).toMatch(/^[0-9a-f]{32}$/);
    },
    failed: async (s: Snap) => {
      const d = await waitFor(() => dialog()!);
      const alert = await within(d).findByRole('alert');
      expect(within(alert).getByText('The transfer was not canceled')).toBeTruthy();
      expect(within(alert).getByText(s.context.error?.code === 'network' ? /the connection failed/i : REFUSED)).toBeTruthy();
      expect(within(d).getByRole('button', { name: 'Try again' })).toBeTruthy();
      expect(h.q.waiting).toBe(0);
    },
    done: async () => {
      await waitFor(() => expect(dialog()).toBeNull());
      const message = await screen.findByText('Canceled.');
      // The message takes focus: the button that opened the dialog may be gone.
      await waitFor(() => expect(message.closest('.confirm-done')).toBe(document.activeElement));
      expect(h.q.waiting).toBe(0);
    },
  } satisfies Record<string, (s: Snap) => Promise<void>>;
}

function eventExecutors(h: H) {
  const answer = async ({ event }: { event: ModelEvent }) => settleFromEvent(h.q, event as SystemEvent);
  return {
    ASK: async () => h.user.click(screen.getByRole('button', { name: 'Cancel this transfer' })),
    CONFIRM: async () => h.user.click(within(dialog()!).getByRole('button', { name: /^(cancel the transfer|try again)$/i })),
    DISMISS: async () => {
      // From the dialog: its Keep button; once done: the message's Close button.
      const d = dialog();
      await h.user.click(d ? within(d).getByRole('button', { name: 'Keep it' }) : screen.getByRole('button', { name: 'Close this message' }));
    },
    'xstate.done.actor.perform': answer,
    'xstate.error.actor.perform': answer,
  };
}

const model = new TestModel(confirmActionMachine, {
  events: (s) => eventsFor(s as Snap) as never,
  serializeState: (s) => serialize(s as Snap),
  stateMatcher: (s, key) => matchesPath(s as Snap, key),
});
const paths = edgeCoveringPaths(model, (s) => serialize(s as Snap));
const sequences: ModelEvent[][] = [];

const labelOf = (e: ModelEvent) => {
  const short = e.type.replace(/^xstate\.done\.actor\./, 'done.').replace(/^xstate\.error\.actor\./, 'error.');
  if ('output' in e) return `${short}(${(e.output as { ok: boolean; code?: string }).ok ? 'ok' : (e.output as { code: string }).code})`;
  return short;
};

describe('confirm action model', () => {
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

describe('confirm action model: transition coverage', () => {
  it('every transition of the chart is taken by some path', () => {
    const taken = new Set<string>();
    for (const events of sequences) for (const key of transitionsTaken(confirmActionMachine, undefined, [events as never])) taken.add(key);
    const missing = listTransitions(confirmActionMachine).filter((t) => !taken.has(t.key)).map((t) => t.key);
    expect(missing).toEqual([]);
  });

  it('a retry after a failure sends the same idempotency key; a new ASK a new one', async () => {
    const h = mount();
    await h.user.click(screen.getByRole('button', { name: 'Cancel this transfer' }));
    await h.user.click(within(dialog()!).getByRole('button', { name: 'Cancel the transfer' }));
    await act(async () => h.q.fail(new Error('offline')));
    await h.user.click(within(dialog()!).getByRole('button', { name: 'Try again' }));
    await act(async () => h.q.answer({ ok: true }));
    await screen.findByText('Canceled.');
    await h.user.click(screen.getByRole('button', { name: 'Cancel this transfer' }));
    await h.user.click(within(dialog()!).getByRole('button', { name: 'Cancel the transfer' }));
    const [first, retry, next] = h.q.calls;
    expect(retry!.idempotencyKey).toBe(first!.idempotencyKey);
    expect(next!.idempotencyKey).not.toBe(first!.idempotencyKey);
    await act(async () => h.q.answer({ ok: true }));
  });
});
