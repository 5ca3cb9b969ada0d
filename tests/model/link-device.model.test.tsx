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
import * as v from 'valibot';
import { StoresUrlsSendRequestSchema } from '../../api/devices.ts';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nProvider } from '@lingui/react';
import { TestModel } from '@xstate/graph';
import { fromCallback, fromPromise, type SnapshotFrom } from 'xstate';
import {
  linkDeviceMachine,
  MAX_SMS_PER_LINK,
  PHONE_PATTERN,
  type LinkDeviceEvent,
  type LinkErrorCode,
  type SendSmsResult,
  type StartLinkResult,
} from '../../machines/link-device/link-device.machine.ts';
import { LinkDeviceView } from '../../src/features/devices/link-device-view.tsx';
import { i18n } from '../../src/lib/i18n.ts';
import { listTransitions } from '../../scripts/machine-graph.ts';
import { edgeCoveringPaths, expectOffered, matchesPath, runPathCheckingEveryStep, transitionsTaken, unreachedStates } from './coverage.ts';
import { AnswerQueue } from './support.ts';

type Snap = SnapshotFrom<typeof linkDeviceMachine>;
type SystemEvent = { type: `xstate.${string}`; output?: unknown; error?: unknown };
type ModelEvent = LinkDeviceEvent | SystemEvent;

const DEVICE_ID = 42;
/** the messages a code may send (the platform caps them too), written out here */
const MAX_SMS = 3;
/** a number the contract accepts (api/devices.ts), the test's own judge of the chart's guard */
const phoneAccepted = (phoneNumber: string) => v.safeParse(StoresUrlsSendRequestSchema, { phoneNumber }).success;
const started = { deviceId: DEVICE_ID, code: 'KX7P9QMA', link: 'https://bank.test/device/#link=42.KX7P9QMA', expiresInS: 600 };

/** Typed so a new event fails compilation until it has cases here. */
const userEvents = {
  RETRY: [{ type: 'RETRY' }],
  'SMS.SEND': [
    // with the spaces a paste brings: checked and sent without them
    { type: 'SMS.SEND', phoneNumber: ' +370 600 00001 ' },
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

/** What the test did, kept apart from the chart's context: the page is expected from it. */
interface Did {
  last: ModelEvent | null;
  /** link codes asked for (the first one and each retry) */
  requests: number;
  /** text messages the platform said it sent for the current code */
  smsSent: number;
  /** the error the last answers call for, the phone field's error, the number typed last */
  error: LinkErrorCode | null;
  phoneInvalid: boolean;
  phone: string | null;
}

function mount() {
  const q = { startLink: new AnswerQueue<void, StartLinkResult>(), sendSms: new AnswerQueue<{ phoneNumber: string }, SendSmsResult>() };
  const channel: {
    send: ((e: LinkDeviceEvent) => void) | null;
    timer: ((e: LinkDeviceEvent) => void) | null;
    waitInputs: { deviceId: number }[];
    timerInputs: { expiresInS: number }[];
  } = { send: null, timer: null, waitInputs: [], timerInputs: [] };
  const logic = linkDeviceMachine.provide({
    actors: {
      startLink: fromPromise(() => q.startLink.next()),
      sendSms: fromPromise(({ input }) => q.sendSms.next(input)),
      waitForLink: fromCallback(({ sendBack, input }) => {
        channel.waitInputs.push(input);
        channel.send = sendBack;
        return () => (channel.send = null);
      }),
      expiryTimer: fromCallback(({ sendBack, input }) => {
        channel.timerInputs.push(input);
        channel.timer = sendBack;
        return () => (channel.timer = null);
      }),
    },
  });
  const linked: number[] = [];
  const user = userEvent.setup({ delay: null });
  const view = render(
    <I18nProvider i18n={i18n}>
      <LinkDeviceView logic={logic} offerSms onLinked={(id) => linked.push(id)} />
    </I18nProvider>,
  );
  const did: Did = { last: null, requests: 1, smsSent: 0, error: null, phoneInvalid: false, phone: null };
  /** the view marks itself busy (aria-busy) while a call it waits for runs */
  const busy = () => view.container.querySelector('.link-device')?.getAttribute('aria-busy') === 'true';
  return { q, channel, linked, user, did, busy };
}
type Harness = ReturnType<typeof mount>;

const ERROR_TEXT: Record<LinkErrorCode, RegExp> = {
  network: /network error/i,
  rateLimited: /too many attempts/i,
  phoneInvalid: /cannot receive the link/i,
  unknown: /something went wrong/i,
};

/** The alert shows the error the last answers call for, and nothing when none does. */
function expectErrorShown(h: Harness) {
  const alert = screen.queryByRole('alert');
  if (h.did.error) expect(alert?.textContent).toMatch(ERROR_TEXT[h.did.error]);
  else expect(alert).toBeNull();
}

function stateChecks(h: Harness) {
  return {
    requesting: async () => {
      await waitFor(() => expect(screen.getByRole('status').textContent).toMatch(/preparing a link code/i));
      expect(h.q.startLink.waiting).toBe(1);
      // one call for the first code and one for each retry, never more
      expect(h.q.startLink.calls.length).toBe(h.did.requests);
      expect(h.busy()).toBe(true);
      expect(screen.queryByRole('alert')).toBeNull();
    },
    failed: async (s: Snap) => {
      await screen.findByRole('button', { name: /get a new code/i });
      expectErrorShown(h);
      expect(h.did.error).not.toBeNull();
      expect(screen.queryByText(/has expired/i)).toBeNull();
      expect(screen.queryByRole('img', { name: /qr code/i })).toBeNull();
      expect(h.busy()).toBe(false);
      expectOffered(s, [{ type: 'RETRY' }]);
      expect(h.did.last?.type).not.toBe('RETRY');
    },
    expired: async (s: Snap) => {
      await screen.findByText(/the link code has expired/i);
      expect(screen.getByRole('button', { name: /get a new code/i })).toBeTruthy();
      expect(screen.queryByRole('img', { name: /qr code/i })).toBeNull();
      expect(h.did.last?.type).toBe('LINK.EXPIRED');
      expect(h.busy()).toBe(false);
      expectOffered(s, [{ type: 'RETRY' }]);
      // the live channel and the timer stop with the code
      expect(h.channel.send).toBeNull();
      expect(h.channel.timer).toBeNull();
    },
    'waiting.idle': async (s: Snap) => {
      await screen.findByRole('img', { name: /qr code to link your phone/i });
      expect(screen.getByText('42-KX7P9QMA')).toBeTruthy();
      expect(screen.getByRole('link', { name: started.link }).getAttribute('href')).toBe(started.link);
      await waitFor(() => expect(screen.getByRole('button', { name: /send me the link by sms/i }).getAttribute('aria-busy')).toBeNull());
      // the live channel waits for this code's device, the timer for this code's life
      expect(h.channel.waitInputs.at(-1)).toEqual({ deviceId: DEVICE_ID });
      expect(h.channel.timerInputs.at(-1)).toEqual({ expiresInS: started.expiresInS });
      const field = screen.getByLabelText(/phone number/i);
      expect(field.getAttribute('aria-invalid')).toBe(h.did.phoneInvalid ? 'true' : null);
      if (h.did.phoneInvalid) expect(screen.getByText(/enter a phone number/i)).toBeTruthy();
      if (h.did.smsSent > 0) expect(screen.getByText(/on its way/i)).toBeTruthy();
      else expect(screen.queryByText(/on its way/i)).toBeNull();
      expect(h.q.sendSms.calls.length).toBeGreaterThanOrEqual(h.did.smsSent);
      expectErrorShown(h);
      expect(h.busy()).toBe(false);
      expect(h.linked).toEqual([]);
      expectOffered(s, [{ type: 'SMS.SEND', phoneNumber: ' +370 600 00001 ' }, { type: 'DEVICE.LINKED', deviceId: DEVICE_ID }, { type: 'LINK.EXPIRED' }]);
      // a well-formed number within the limit is sent, not left on this page
      const last = h.did.last as { type: string; phoneNumber?: string } | null;
      if (last?.type === 'SMS.SEND' && h.did.smsSent < MAX_SMS && phoneAccepted((last.phoneNumber ?? '').trim())) throw new Error('a valid number was not sent');
    },
    'waiting.sendingSms': async () => {
      await waitFor(() => expect(screen.getByRole('button', { name: /send me the link by sms/i }).getAttribute('aria-busy')).toBe('true'));
      expect(h.q.sendSms.waiting).toBe(1);
      expect(h.busy()).toBe(true);
      // the number typed, without its surrounding spaces
      expect(h.q.sendSms.calls.at(-1)).toEqual({ phoneNumber: h.did.phone?.trim() });
      // sending puts the last error away
      expect(screen.queryByRole('alert')).toBeNull();
      expect(screen.getByLabelText(/phone number/i).getAttribute('aria-invalid')).toBeNull();
    },
    linked: async (s: Snap) => {
      await screen.findByText(/phone linked/i);
      expect(h.linked).toEqual([DEVICE_ID]);
      expect(s.status).toBe('done');
      expect(s.output).toEqual({ deviceId: DEVICE_ID });
    },
  } satisfies Record<string, (s: Snap) => Promise<void>>;
}

/** What each event calls for, worked out here rather than read from the chart. */
function record(did: Did, event: ModelEvent): void {
  did.last = event;
  const output = (event as SystemEvent).output as { ok: boolean; code?: LinkErrorCode } | undefined;
  switch (event.type) {
    case 'RETRY':
      did.requests++;
      did.error = null;
      did.phoneInvalid = false;
      return;
    case 'SMS.SEND': {
      const phone = (event as { phoneNumber: string }).phoneNumber;
      if (did.smsSent >= MAX_SMS) did.error = 'rateLimited';
      else if (phoneAccepted(phone.trim())) {
        did.phone = phone;
        did.error = null;
        did.phoneInvalid = false;
      } else did.phoneInvalid = true;
      return;
    }
    case 'xstate.done.actor.startLink':
      if (output?.ok) Object.assign(did, { error: null, phoneInvalid: false, smsSent: 0 });
      else did.error = output?.code ?? 'unknown';
      return;
    case 'xstate.done.actor.sendSms':
      if (output?.ok) did.smsSent++;
      else did.error = output?.code ?? 'unknown';
      return;
    case 'xstate.error.actor.startLink':
    case 'xstate.error.actor.sendSms':
      did.error = 'unknown';
      return;
  }
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
  const fromChannel = (which: 'send' | 'timer') => async ({ event }: { event: ModelEvent }) => {
    record(h.did, event);
    await act(async () => h.channel[which]?.(event as LinkDeviceEvent));
  };
  return {
    RETRY: async ({ event }: { event: ModelEvent }) => {
      record(h.did, event);
      await h.user.click(screen.getByRole('button', { name: /get a new code/i }));
    },
    'SMS.SEND': async ({ event }: { event: ModelEvent }) => {
      record(h.did, event);
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

  it('every state of the chart is reached by some path', () => {
    expect(unreachedStates(linkDeviceMachine, paths)).toEqual([]);
  });

  it('is named linkDevice (the inspector and the audit pack show it by that id)', () => {
    expect(linkDeviceMachine.id).toBe('linkDevice');
  });

  it("the chart's phone check agrees with the contract's, and a code sends three messages at most", () => {
    const numbers = ['+370 600 00001', '37060000001', '  +370 600 00001  ', '1234567', '123456', '+1 234 567 890 123 456 78', '12345678901234567890', '123456789012345678901', '++37060000001', '370-600-00001', 'a+37060000001', '+37060000001a', 'call me', ''];
    for (const phone of numbers) expect(PHONE_PATTERN.test(phone.trim()), phone).toBe(phoneAccepted(phone));
    expect(MAX_SMS_PER_LINK).toBe(MAX_SMS);
  });
});
