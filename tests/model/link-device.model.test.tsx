/**
 * Model-based test of linking a phone: paths generated from the link-device machine's graph drive
 * the REAL LinkDeviceView (the settings dialog's content and /scp's, with the SMS form) through
 * Testing Library. The platform calls are test doubles answered by the paths'
 * `xstate.done.actor.*` events; the live channel and the expiry timer are callback doubles whose
 * captured `sendBack` delivers DEVICE.LINKED and LINK.EXPIRED.
 *
 * Proof it can fail: I broke the view once on purpose (the typed link code shown without the
 * device id, `link.code` instead of formatLinkCode): every path through `waiting` went red (10 of
 * 10 run with -t "#1[0-9] "); restored since.
 */
import { describe, expect, it } from 'vitest';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nProvider } from '@lingui/react';
import { TestModel } from '@xstate/graph';
import { fromCallback, fromPromise, type SnapshotFrom } from 'xstate';
import {
  linkDeviceMachine,
  type LinkDeviceEvent,
  type SendSmsResult,
  type StartLinkResult,
} from '../../machines/link-device/link-device.machine.ts';
import { LinkDeviceView } from '../../src/features/devices/link-device-view.tsx';
import { i18n } from '../../src/lib/i18n.ts';
import { listTransitions } from '../../scripts/machine-graph.ts';
import { edgeCoveringPaths, matchesPath, runPathCheckingEveryStep, transitionsTaken } from './coverage.ts';
import { AnswerQueue } from './support.ts';

type Snap = SnapshotFrom<typeof linkDeviceMachine>;
type SystemEvent = { type: `xstate.${string}`; output?: unknown; error?: unknown };
type ModelEvent = LinkDeviceEvent | SystemEvent;

const DEVICE_ID = 42;
const started = { deviceId: DEVICE_ID, code: 'KX7P9QMA', link: 'https://bank.test/device/#link=42.KX7P9QMA', expiresInS: 600 };

/** Typed so a new event fails compilation until it has cases here. */
const userEvents = {
  RETRY: [{ type: 'RETRY' }],
  'SMS.SEND': [
    { type: 'SMS.SEND', phoneNumber: '+370 600 00001' },
    { type: 'SMS.SEND', phoneNumber: 'call me' },
  ],
  'DEVICE.LINKED': [
    { type: 'DEVICE.LINKED', deviceId: DEVICE_ID },
    { type: 'DEVICE.LINKED', deviceId: 7 },
  ],
  'LINK.EXPIRED': [{ type: 'LINK.EXPIRED' }],
} satisfies { [K in LinkDeviceEvent['type']]: Extract<LinkDeviceEvent, { type: K }>[] };

const answers: Record<string, SystemEvent[]> = {
  startLink: [
    { type: 'xstate.done.actor.startLink', output: { ok: true, link: started } satisfies StartLinkResult },
    { type: 'xstate.done.actor.startLink', output: { ok: false, code: 'rateLimited' } satisfies StartLinkResult },
    { type: 'xstate.error.actor.startLink', error: new Error('boom') },
  ],
  sendSms: [
    { type: 'xstate.done.actor.sendSms', output: { ok: true } satisfies SendSmsResult },
    { type: 'xstate.done.actor.sendSms', output: { ok: false, code: 'phoneInvalid' } satisfies SendSmsResult },
    { type: 'xstate.error.actor.sendSms', error: new Error('boom') },
  ],
};

function eventsFor(s: Snap): ModelEvent[] {
  const all: ModelEvent[] = [...Object.values(userEvents).flat()];
  for (const id of Object.keys(s.children)) all.push(...(answers[id] ?? []));
  // Failures of the SMS form are walked from the first send only: after that they repeat the same
  // transitions with a larger counter and only slow the suite down.
  const firstSend = s.context.smsSent === 0;
  const offered = all.filter((e) => firstSend || !(('phoneNumber' in e && e.phoneNumber === 'call me') || (e.type.endsWith('sendSms') && !(e as SystemEvent).output) || (e.type === 'xstate.done.actor.sendSms' && !(e.output as SendSmsResult).ok)));
  // Only events the machine takes (a refused SMS.SEND still counts: it sets a field error).
  return offered.filter((e) => s.can(e as LinkDeviceEvent));
}

const serialize = (s: Snap) => JSON.stringify({ value: s.value, error: s.context.error, phone: s.context.phoneError, sms: s.context.smsSent });

function mount() {
  const q = { startLink: new AnswerQueue<void, StartLinkResult>(), sendSms: new AnswerQueue<{ phoneNumber: string }, SendSmsResult>() };
  const channel: { send: ((e: LinkDeviceEvent) => void) | null; timer: ((e: LinkDeviceEvent) => void) | null } = { send: null, timer: null };
  const logic = linkDeviceMachine.provide({
    actors: {
      startLink: fromPromise(() => q.startLink.next()),
      sendSms: fromPromise(({ input }) => q.sendSms.next(input)),
      waitForLink: fromCallback(({ sendBack }) => {
        channel.send = sendBack;
        return () => (channel.send = null);
      }),
      expiryTimer: fromCallback(({ sendBack }) => {
        channel.timer = sendBack;
        return () => (channel.timer = null);
      }),
    },
  });
  const linked: number[] = [];
  const user = userEvent.setup({ delay: null });
  render(
    <I18nProvider i18n={i18n}>
      <LinkDeviceView logic={logic} offerSms onLinked={(id) => linked.push(id)} />
    </I18nProvider>,
  );
  return { q, channel, linked, user };
}
type Harness = ReturnType<typeof mount>;

function stateChecks(h: Harness) {
  const errorShown = (s: Snap) => {
    if (s.context.error) expect(screen.getByRole('alert')).toBeTruthy();
  };
  return {
    requesting: async () => {
      await waitFor(() => expect(screen.getByRole('status').textContent).toMatch(/preparing a link code/i));
      expect(h.q.startLink.waiting).toBe(1);
    },
    failed: async (s: Snap) => {
      await screen.findByRole('button', { name: /get a new code/i });
      errorShown(s);
      expect(screen.queryByText(/has expired/i)).toBeNull();
    },
    expired: async () => {
      await screen.findByText(/the link code has expired/i);
      expect(screen.getByRole('button', { name: /get a new code/i })).toBeTruthy();
    },
    'waiting.idle': async (s: Snap) => {
      await screen.findByRole('img', { name: /qr code to link your phone/i });
      expect(screen.getByText('42-KX7P9QMA')).toBeTruthy();
      expect(screen.getByRole('link', { name: started.link }).getAttribute('href')).toBe(started.link);
      await waitFor(() => expect(screen.getByRole('button', { name: /send me the link by sms/i }).getAttribute('aria-busy')).toBeNull());
      const field = screen.getByLabelText(/phone number/i);
      expect(field.getAttribute('aria-invalid')).toBe(s.context.phoneError ? 'true' : null);
      if (s.context.smsSent > 0) expect(screen.getByText(/on its way/i)).toBeTruthy();
      else expect(screen.queryByText(/on its way/i)).toBeNull();
      errorShown(s);
    },
    'waiting.sendingSms': async () => {
      await waitFor(() => expect(screen.getByRole('button', { name: /send me the link by sms/i }).getAttribute('aria-busy')).toBe('true'));
      expect(h.q.sendSms.calls.at(-1)).toEqual({ phoneNumber: '+370 600 00001' });
    },
    linked: async () => {
      await screen.findByText(/phone linked/i);
      expect(h.linked).toEqual([DEVICE_ID]);
    },
  } satisfies Record<string, (s: Snap) => Promise<void>>;
}

function eventExecutors(h: Harness) {
  const answer = (queue: AnswerQueue<any, any>) => async ({ event }: { event: ModelEvent }) => {
    const e = event as SystemEvent;
    await act(async () => {
      if (e.type.startsWith('xstate.error')) queue.fail(e.error);
      else queue.answer(e.output);
    });
  };
  const fromChannel = (which: 'send' | 'timer') => async ({ event }: { event: ModelEvent }) => {
    await act(async () => h.channel[which]?.(event as LinkDeviceEvent));
  };
  return {
    RETRY: async () => h.user.click(screen.getByRole('button', { name: /get a new code/i })),
    'SMS.SEND': async ({ event }: { event: ModelEvent }) => {
      const field = screen.getByLabelText(/phone number/i);
      await h.user.clear(field);
      await h.user.type(field, (event as { phoneNumber: string }).phoneNumber);
      await h.user.click(screen.getByRole('button', { name: /send me the link by sms/i }));
    },
    'DEVICE.LINKED': fromChannel('send'),
    'LINK.EXPIRED': fromChannel('timer'),
    'xstate.done.actor.startLink': answer(h.q.startLink),
    'xstate.error.actor.startLink': answer(h.q.startLink),
    'xstate.done.actor.sendSms': answer(h.q.sendSms),
    'xstate.error.actor.sendSms': answer(h.q.sendSms),
  };
}

const model = new TestModel(linkDeviceMachine, {
  events: (s) => eventsFor(s as Snap) as never,
  serializeState: (s) => serialize(s as Snap),
  stateMatcher: (s, key) => matchesPath(s as Snap, key),
});
const paths = edgeCoveringPaths(model, (s) => serialize(s as Snap));
const sequences: ModelEvent[][] = [];

describe('link-device model', () => {
  paths.forEach((path, i) => {
    const events = path.steps.map((s) => s.event as ModelEvent).filter((e) => e.type !== 'xstate.init');
    sequences.push(events);
    const name = `#${i} ${events.map((e) => e.type.replace(/^xstate\.done\.actor\./, 'done.').replace(/^xstate\.error\.actor\./, 'error.')).join(' → ')}`;
    it(name, async () => {
      const h = mount();
      await runPathCheckingEveryStep(path, stateChecks(h), eventExecutors(h));
    });
  });

  it('every transition of the chart is taken by some path', () => {
    const taken = transitionsTaken(linkDeviceMachine, undefined, sequences as never);
    const missing = listTransitions(linkDeviceMachine).filter((t) => !taken.has(t.key)).map((t) => t.key);
    expect(missing).toEqual([]);
  });
});
