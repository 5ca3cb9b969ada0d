/**
 * Model-based test of the device companion: paths generated from the device-companion machine's
 * graph drive the REAL CompanionView through Testing Library. Platform calls are test doubles
 * answered by the paths' `xstate.done.actor.*` events; the live channel and the renewal timer are
 * callback doubles whose captured `sendBack` delivers APPROVAL.*, DEVICE.UNLINKED, CHANNEL.LOST and
 * TOKEN.EXPIRING. The stored link is checked through the persistLink / forgetLink actions.
 *
 * Three scenarios bound the graph: a fresh phone (linking), a linked phone opened by the sign-in
 * page's QR code (#approve=), and a linked phone opened with a new #link= (which wins).
 *
 * Proof it can fail: I broke the view once on purpose (Approve sent `result: false`): 35 of the 56
 * paths of "a linked phone answers requests" went red; restored since. Writing these paths also
 * found two real faults, both fixed: translated texts built outside the component's `t` scope
 * (field errors never showed), and an answer cut short by TOKEN.EXPIRING / CHANNEL.LOST leaving
 * its button busy (now cleared on entering ready.idle).
 */
import { describe, expect, it } from 'vitest';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nProvider } from '@lingui/react';
import { TestModel, type TestPath } from '@xstate/graph';
import { fromCallback, fromPromise, type SnapshotFrom } from 'xstate';
import type { ApprovalRequest, Device } from '../../api/devices.ts';
import {
  deviceCompanionMachine,
  type ApproveInput,
  type ApproveResult,
  type CompanionEvent,
  type CompanionInput,
  type ConfirmResult,
  type LoadResult,
  type SignInResult,
  type StoredLink,
  type UnlinkResult,
} from '../../machines/device-companion/device-companion.machine.ts';
import { CompanionView } from '../../src/device/companion-view.tsx';
import { i18n } from '../../src/lib/i18n.ts';
import { listTransitions } from '../../scripts/machine-graph.ts';
import { edgeCoveringPaths, expectOffered, matchesPath, runPathCheckingEveryStep, transitionsTaken, unreachedStates } from './coverage.ts';
import { parseLinkCode } from '../../machines/device-companion/link-code.ts';
import { AnswerQueue } from './support.ts';

type Snap = SnapshotFrom<typeof deviceCompanionMachine>;
type SystemEvent = { type: `xstate.${string}`; output?: unknown; error?: unknown };
type ModelEvent = CompanionEvent | SystemEvent;

const NOW_MS = Date.parse('2026-11-22T10:00:00Z');
const LINK: StoredLink = { deviceId: 42, secret: 'device-secret' };
const device: Device = {
  id: 42,
  status: 'approved',
  type: 'android',
  name: 'Pixel',
  location: 'LT',
  lastActivityAt: null,
  createdAt: '2026-11-01T10:00:00Z',
  approveMethodIds: [1, 2],
  hasPushToken: false,
};
const request = (key: string, kind: ApprovalRequest['kind']): ApprovalRequest => ({
  key,
  kind,
  ip: key === 'k1' ? '198.51.100.7' : '203.0.113.9',
  countryCode: 'LT',
  userAgent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0',
  ...(kind === 'twoStepMode' ? { mode: 3 } : {}),
  createdAt: '2026-11-22T09:59:30Z',
  expiresAt: '2026-11-22T10:01:30Z',
});
const K1 = request('k1', 'login');
const K2 = request('k2', 'twoStepMode');

interface Scenario {
  name: string;
  input: CompanionInput;
  /** events offered while ready: kept per scenario so the graph stays small enough to walk */
  readyEvents: CompanionEvent[];
  /** the actors whose failures this scenario walks (the others always succeed here) */
  failing: string[];
}

const scenarios: Scenario[] = [
  {
    name: 'a fresh phone links itself',
    input: { storedLink: null, hashLink: null, approveKey: null, detectedType: 'android' },
    readyEvents: [{ type: 'UNLINK.START' }, { type: 'UNLINK.CANCEL' }, { type: 'UNLINK.CONFIRM' }, { type: 'DEVICE.UNLINKED' }],
    failing: ['approveDevice', 'signIn', 'loadDevice', 'unlinkDevice'],
  },
  {
    name: 'a linked phone answers requests',
    input: { storedLink: LINK, hashLink: null, approveKey: null, detectedType: 'ios' },
    readyEvents: [
      { type: 'REQUEST.ANSWER', key: 'k1', result: true },
      { type: 'REQUEST.ANSWER', key: 'k1', result: false },
      { type: 'CHANNEL.LOST' },
    ],
    failing: ['confirmRequest'],
  },
  {
    name: 'a linked phone opened by the sign-in QR code, with live events',
    input: { storedLink: LINK, hashLink: null, approveKey: 'k2', detectedType: 'ios' },
    readyEvents: [
      { type: 'APPROVAL.REQUESTED', request: K2 },
      { type: 'APPROVAL.CLOSED', key: 'k1' },
      { type: 'REQUEST.FOCUS', key: 'k1' },
      { type: 'REQUEST.ANSWER', key: 'k2', result: true },
      { type: 'TOKEN.EXPIRING' },
    ],
    failing: [],
  },
  {
    name: 'a linked phone given a new #link=',
    input: { storedLink: LINK, hashLink: { deviceId: 43, code: 'ABCD2345' }, approveKey: null, detectedType: 'android' },
    readyEvents: [],
    failing: [],
  },
];

const unlinkedEvents: CompanionEvent[] = [
  { type: 'TYPE.CHOOSE', deviceType: 'ios' },
  { type: 'LINK.SUBMIT', linkCode: '42-kx7p 9qma', name: '  Pixel  ' },
  { type: 'LINK.SUBMIT', linkCode: 'not a code', name: '' },
  { type: 'NOTICE.DISMISS' },
];

const answers: Record<string, SystemEvent[]> = {
  approveDevice: [
    { type: 'xstate.done.actor.approveDevice', output: { ok: true, link: LINK } satisfies ApproveResult },
    { type: 'xstate.done.actor.approveDevice', output: { ok: false, code: 'codeRejected' } satisfies ApproveResult },
    { type: 'xstate.done.actor.approveDevice', output: { ok: false, code: 'network' } satisfies ApproveResult },
    { type: 'xstate.error.actor.approveDevice', error: new Error('boom') },
  ],
  signIn: [
    { type: 'xstate.done.actor.signIn', output: { ok: true, token: 'device-token' } satisfies SignInResult },
    { type: 'xstate.done.actor.signIn', output: { ok: false, code: 'revoked' } satisfies SignInResult },
    { type: 'xstate.done.actor.signIn', output: { ok: false, code: 'network' } satisfies SignInResult },
    { type: 'xstate.error.actor.signIn', error: new Error('boom') },
  ],
  loadDevice: [
    { type: 'xstate.done.actor.loadDevice', output: { ok: true, login: 'anna@demo.test', device, pending: [K1] } satisfies LoadResult },
    { type: 'xstate.done.actor.loadDevice', output: { ok: false, code: 'revoked' } satisfies LoadResult },
    { type: 'xstate.done.actor.loadDevice', output: { ok: false, code: 'network' } satisfies LoadResult },
    { type: 'xstate.error.actor.loadDevice', error: new Error('boom') },
  ],
  confirmRequest: [
    { type: 'xstate.done.actor.confirmRequest', output: { ok: true, recorded: true } satisfies ConfirmResult },
    { type: 'xstate.done.actor.confirmRequest', output: { ok: true, recorded: false } satisfies ConfirmResult },
    { type: 'xstate.done.actor.confirmRequest', output: { ok: false, code: 'notAllowed' } satisfies ConfirmResult },
    { type: 'xstate.error.actor.confirmRequest', error: new Error('boom') },
  ],
  unlinkDevice: [
    { type: 'xstate.done.actor.unlinkDevice', output: { ok: true } satisfies UnlinkResult },
    { type: 'xstate.done.actor.unlinkDevice', output: { ok: false, code: 'network' } satisfies UnlinkResult },
    // the platform keeps the last phone approving the sign-ins: the link stays, the reason is said
    { type: 'xstate.done.actor.unlinkDevice', output: { ok: false, code: 'onlySignInPhone' } satisfies UnlinkResult },
    { type: 'xstate.error.actor.unlinkDevice', error: new Error('boom') },
  ],
};

function eventsFor(s: Snap, scenario: Scenario): ModelEvent[] {
  const all: ModelEvent[] = [];
  if (s.hasTag('unlinked')) all.push(...unlinkedEvents.filter((e) => e.type !== 'NOTICE.DISMISS' || s.context.notice !== null));
  if (s.matches('offline')) all.push({ type: 'RETRY' });
  // Renewal is walked from the plain states only: from every combination it repeats the same transitions.
  if (s.matches('ready')) all.push(...scenario.readyEvents.filter((e) => e.type !== 'TOKEN.EXPIRING' || (s.context.notice === null && s.context.requests.length === 1)));
  for (const id of Object.keys(s.children)) {
    const list = answers[id] ?? [];
    all.push(...(scenario.failing.includes(id) ? list : list.slice(0, 1)));
  }
  return all.filter((e) => s.can(e as CompanionEvent));
}

const serialize = (s: Snap) =>
  JSON.stringify({
    value: s.value,
    error: s.context.error,
    notice: s.context.notice,
    link: s.context.link?.deviceId ?? null,
    type: s.context.deviceType,
    code: s.context.linkCodeText,
    requests: s.context.requests.map((r) => r.key),
    focus: s.context.focusKey,
    answering: s.context.answering,
  });

/** What the test did, kept apart from the chart's context: the page is expected from it. */
interface Did {
  last: ModelEvent | null;
  link: StoredLink | null;
  linkCodeText: string;
  deviceType: 'android' | 'ios';
  token: string | null;
  /** the pending requests' keys, oldest first, and the one asked to be shown first */
  requests: string[];
  focusKey: string | null;
  answering: { key: string; result: boolean } | null;
  error: string | null;
  notice: string | null;
}

/** the link code as the companion reads it (link-code.ts, unit-tested on its own; not part of the chart) */
const linkCodeOf = parseLinkCode;
const KNOWN_FAILURES = ['network', 'codeRejected', 'notAllowed', 'onlySignInPhone'];

function initialDid(input: CompanionInput): Did {
  return {
    last: null,
    // a #link= in the address means "link this phone now": it wins over an earlier link
    link: input.hashLink ? null : input.storedLink,
    linkCodeText: input.hashLink ? `${input.hashLink.deviceId}-${input.hashLink.code}` : '',
    deviceType: input.detectedType,
    token: null,
    requests: [],
    focusKey: input.approveKey,
    answering: null,
    error: null,
    notice: null,
  };
}

/** What each event calls for, worked out here rather than read from the chart. */
function record(did: Did, event: ModelEvent): void {
  did.last = event;
  const out = (event as SystemEvent).output as { ok: boolean; code?: string; link?: StoredLink; token?: string; pending?: ApprovalRequest[]; recorded?: boolean } | undefined;
  const failed = () => (KNOWN_FAILURES.includes(out?.code ?? '') ? out!.code! : 'unknown');
  const drop = (notice: string) => Object.assign(did, { link: null, token: null, requests: [], answering: null, notice });
  const removeRequest = (key: string) => {
    did.requests = did.requests.filter((k) => k !== key);
    if (did.focusKey === key) did.focusKey = null;
  };
  switch (event.type) {
    case 'TYPE.CHOOSE':
      did.deviceType = (event as Extract<CompanionEvent, { type: 'TYPE.CHOOSE' }>).deviceType;
      return;
    case 'LINK.SUBMIT': {
      const text = (event as Extract<CompanionEvent, { type: 'LINK.SUBMIT' }>).linkCode;
      did.linkCodeText = text.slice(0, 64);
      if (linkCodeOf(text)) Object.assign(did, { error: null, notice: null });
      else did.error = 'invalidCode';
      return;
    }
    case 'NOTICE.DISMISS':
      did.notice = null;
      return;
    case 'RETRY':
      did.error = null;
      return;
    case 'REQUEST.ANSWER': {
      const e = event as Extract<CompanionEvent, { type: 'REQUEST.ANSWER' }>;
      if (did.requests.includes(e.key)) Object.assign(did, { answering: { key: e.key, result: e.result }, error: null, notice: null });
      return;
    }
    case 'REQUEST.FOCUS':
      did.focusKey = (event as Extract<CompanionEvent, { type: 'REQUEST.FOCUS' }>).key;
      return;
    case 'UNLINK.START':
      Object.assign(did, { error: null, notice: null });
      return;
    case 'APPROVAL.REQUESTED': {
      const key = (event as Extract<CompanionEvent, { type: 'APPROVAL.REQUESTED' }>).request.key;
      did.requests = [...did.requests.filter((k) => k !== key), key].slice(-20);
      return;
    }
    case 'APPROVAL.CLOSED':
      removeRequest((event as Extract<CompanionEvent, { type: 'APPROVAL.CLOSED' }>).key);
      return;
    case 'DEVICE.UNLINKED':
      drop('unlinkedElsewhere');
      return;
    case 'CHANNEL.LOST':
    case 'TOKEN.EXPIRING':
      // signing in again: an answer cut short leaves no button busy
      did.answering = null;
      return;
    case 'xstate.done.actor.approveDevice':
      if (out?.ok) did.link = out.link!;
      else did.error = failed();
      return;
    case 'xstate.done.actor.signIn':
      if (out?.ok) did.token = out.token!;
      else if (out?.code === 'revoked') drop('linkRevoked');
      else did.error = failed();
      return;
    case 'xstate.done.actor.loadDevice':
      if (out?.ok) Object.assign(did, { requests: out.pending!.map((r) => r.key).slice(-20), error: null });
      else if (out?.code === 'revoked') drop('linkRevoked');
      else did.error = failed();
      return;
    case 'xstate.done.actor.confirmRequest': {
      const answering = did.answering;
      if (out?.ok) {
        did.notice = out.recorded ? (answering?.result ? 'approved' : 'declined') : 'alreadyAnswered';
        removeRequest(answering?.key ?? '');
      } else did.error = failed();
      did.answering = null;
      return;
    }
    case 'xstate.done.actor.unlinkDevice':
      if (out?.ok || out?.code === 'revoked') drop('unlinkedHere');
      else did.error = failed();
      return;
    default:
      if (event.type.startsWith('xstate.error.actor.')) {
        did.error = 'unknown';
        if (event.type.endsWith('confirmRequest')) did.answering = null;
      }
  }
}

function mount(input: CompanionInput) {
  const q = {
    approveDevice: new AnswerQueue<ApproveInput, ApproveResult>(),
    signIn: new AnswerQueue<{ secret: string }, SignInResult>(),
    loadDevice: new AnswerQueue<{ token: string }, LoadResult>(),
    confirmRequest: new AnswerQueue<{ token: string; key: string; result: boolean }, ConfirmResult>(),
    unlinkDevice: new AnswerQueue<{ token: string; deviceId: number }, UnlinkResult>(),
  };
  const channel: { listen: ((e: CompanionEvent) => void) | null; timer: ((e: CompanionEvent) => void) | null; listenTokens: string[] } = {
    listen: null,
    timer: null,
    listenTokens: [],
  };
  const storage: { stored: StoredLink | null } = { stored: input.storedLink };
  const logic = deviceCompanionMachine.provide({
    actors: {
      approveDevice: fromPromise(({ input: i }) => q.approveDevice.next(i)),
      signIn: fromPromise(({ input: i }) => q.signIn.next(i)),
      loadDevice: fromPromise(({ input: i }) => q.loadDevice.next(i)),
      confirmRequest: fromPromise(({ input: i }) => q.confirmRequest.next(i)),
      unlinkDevice: fromPromise(({ input: i }) => q.unlinkDevice.next(i)),
      listen: fromCallback(({ sendBack, input: i }) => {
        channel.listen = sendBack;
        channel.listenTokens.push((i as { token: string }).token);
        return () => (channel.listen = null);
      }),
      renewTimer: fromCallback(({ sendBack }) => {
        channel.timer = sendBack;
        return () => (channel.timer = null);
      }),
    },
    actions: {
      persistLink: (_, link) => (storage.stored = link),
      forgetLink: () => (storage.stored = null),
    },
  });
  const user = userEvent.setup({ delay: null });
  render(
    <I18nProvider i18n={i18n}>
      <CompanionView logic={logic} input={input} nowMs={() => NOW_MS} />
    </I18nProvider>,
  );
  return { q, channel, storage, user, input, did: initialDid(input) };
}
type Harness = ReturnType<typeof mount>;

function stateChecks(h: Harness) {
  const errorShown = () => {
    const error = h.did.error;
    if (error && error !== 'invalidCode' && error !== 'codeRejected') expect(screen.getByRole('alert')).toBeTruthy();
    else expect(screen.queryByRole('alert')).toBeNull();
  };
  const noticeShown = async () => {
    if (h.did.notice) await screen.findByRole('button', { name: /dismiss/i });
    else await waitFor(() => expect(screen.queryByRole('button', { name: /dismiss/i })).toBeNull());
  };
  const linkForm = async () => {
    await screen.findByRole('heading', { name: /link this phone/i });
    const field = screen.getByLabelText(/link code/i);
    // The field error is tied to the field (aria-describedby), not a separate alert.
    const fieldError = h.did.error === 'invalidCode' || h.did.error === 'codeRejected';
    await waitFor(() => expect(field.getAttribute('aria-invalid')).toBe(fieldError ? 'true' : null));
    const chosen = screen.getByRole('radio', { name: h.did.deviceType === 'ios' ? /iphone/i : /android/i }) as HTMLInputElement;
    expect(chosen.checked).toBe(true);
    // Forgetting the link is a storage action, never left to chance.
    if (h.did.link === null && h.input.hashLink === null) expect(h.storage.stored).toBeNull();
    errorShown();
    await noticeShown();
  };
  return {
    unlinked: async (s: Snap) => {
      await linkForm();
      if (h.did.linkCodeText) expect((screen.getByLabelText(/link code/i) as HTMLInputElement).value).toBe(h.did.linkCodeText);
      await waitFor(() => expect(screen.getByRole('button', { name: /link this phone/i }).getAttribute('aria-busy')).toBeNull());
      expect(h.did.link).toBeNull();
      expectOffered<CompanionEvent>(s, [unlinkedEvents[1]!, { type: 'TYPE.CHOOSE', deviceType: 'ios' }]);
      // a well-formed code is sent, not left on the form
      expect(h.did.last).not.toEqual(unlinkedEvents[1]);
    },
    linking: async () => {
      await linkForm();
      await waitFor(() => expect(screen.getByRole('button', { name: /link this phone/i }).getAttribute('aria-busy')).toBe('true'));
      expect(h.q.approveDevice.waiting).toBe(1);
      expect(h.q.approveDevice.calls.at(-1)).toEqual({ ...linkCodeOf(h.did.linkCodeText), type: h.did.deviceType, name: 'Pixel' });
    },
    signingIn: async () => {
      await screen.findByRole('heading', { name: /connecting/i });
      expect(h.q.signIn.waiting).toBe(1);
      expect(h.q.signIn.calls.at(-1)).toEqual({ secret: h.did.link?.secret });
      // A link made here was stored before signing in with it.
      expect(h.storage.stored).toEqual(h.did.link);
    },
    loading: async () => {
      await screen.findByRole('heading', { name: /connecting/i });
      expect(h.q.loadDevice.waiting).toBe(1);
      expect(h.q.loadDevice.calls.at(-1)).toEqual({ token: h.did.token });
    },
    offline: async (s: Snap) => {
      await screen.findByRole('heading', { name: /not connected/i });
      expect(screen.getByRole('button', { name: /try again/i })).toBeTruthy();
      errorShown();
      expect(h.did.error).not.toBeNull();
      expectOffered<CompanionEvent>(s, [{ type: 'RETRY' }]);
    },
    'ready.idle': async (s: Snap) => {
      await screen.findByRole('heading', { name: /approval requests/i });
      expect(screen.getByText(/anna@demo\.test/)).toBeTruthy();
      expect(h.channel.listen).not.toBeNull();
      expect(h.channel.listenTokens.at(-1)).toBe(h.did.token);
      const cards = screen.queryAllByRole('listitem');
      expect(cards.map((c) => within(c).getByRole('heading').textContent)).toEqual(
        orderedKeys(h.did).map((k) => (k === 'k1' ? 'Sign-in request' : 'Two-step verification change')),
      );
      for (const card of cards) {
        await waitFor(() => expect((within(card).getByRole('button', { name: /approve/i }) as HTMLButtonElement).disabled).toBe(false));
        expect(within(card).getByText(/Firefox, Windows/)).toBeTruthy();
        expect(within(card).getByText(/Lithuania/)).toBeTruthy();
      }
      if (cards.length === 0) expect(screen.getByText(/no requests right now/i)).toBeTruthy();
      errorShown();
      await noticeShown();
      expectOffered<CompanionEvent>(s, [{ type: 'UNLINK.START' }]);
      expect(h.did.last?.type).not.toBe('UNLINK.START');
    },
    'ready.answering': async () => {
      const answering = h.did.answering;
      expect(answering).not.toBeNull();
      const card = screen.getAllByRole('listitem').find((c) => within(c).queryByText(answering?.key === 'k1' ? /198\.51\.100\.7/ : /203\.0\.113\.9/));
      expect(card).toBeTruthy();
      const button = within(card as HTMLElement).getByRole('button', { name: answering?.result ? /approve/i : /decline/i });
      await waitFor(() => expect(button.getAttribute('aria-busy')).toBe('true'));
      expect(h.q.confirmRequest.waiting).toBe(1);
      expect(h.q.confirmRequest.calls.at(-1)).toEqual({ token: h.did.token, key: answering?.key, result: answering?.result });
    },
    'ready.confirmingUnlink': async (s: Snap) => {
      await screen.findByRole('heading', { name: /unlink this phone\?/i });
      await waitFor(() => expect(screen.getByRole('button', { name: /^unlink$/i }).getAttribute('aria-busy')).toBeNull());
      expectOffered<CompanionEvent>(s, [{ type: 'UNLINK.CONFIRM' }, { type: 'UNLINK.CANCEL' }]);
    },
    'ready.unlinking': async () => {
      await waitFor(() => expect(screen.getByRole('button', { name: /^unlink$/i }).getAttribute('aria-busy')).toBe('true'));
      expect(h.q.unlinkDevice.waiting).toBe(1);
      expect(h.q.unlinkDevice.calls.at(-1)).toEqual({ token: h.did.token, deviceId: h.did.link?.deviceId });
    },
  } satisfies Record<string, (s: Snap) => Promise<void>>;
}

/** The order the view promises: the focused request first, then the newest. */
function orderedKeys(did: Did): string[] {
  const keys = [...did.requests].reverse();
  const focus = did.focusKey;
  return focus && keys.includes(focus) ? [focus, ...keys.filter((k) => k !== focus)] : keys;
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
  const fromChannel = (which: 'listen' | 'timer') => async ({ event }: { event: ModelEvent }) => {
    record(h.did, event);
    await act(async () => h.channel[which]?.(event as CompanionEvent));
  };
  const card = (key: string) =>
    screen.getAllByRole('listitem').find((c) => within(c).queryByText(key === 'k1' ? /198\.51\.100\.7/ : /203\.0\.113\.9/)) as HTMLElement;
  const press = (name: RegExp) => async ({ event }: { event: ModelEvent }) => {
    record(h.did, event);
    await h.user.click(screen.getByRole('button', { name }));
  };
  return {
    'TYPE.CHOOSE': async ({ event }: { event: ModelEvent }) => {
      record(h.did, event);
      await h.user.click(screen.getByRole('radio', { name: /iphone/i }));
    },
    'LINK.SUBMIT': async ({ event }: { event: ModelEvent }) => {
      const e = event as Extract<CompanionEvent, { type: 'LINK.SUBMIT' }>;
      record(h.did, e);
      const field = screen.getByLabelText(/link code/i);
      await h.user.clear(field);
      await h.user.type(field, e.linkCode);
      const name = screen.getByLabelText(/name of this phone/i);
      await h.user.clear(name);
      if (e.name) await h.user.type(name, e.name);
      await h.user.click(screen.getByRole('button', { name: /link this phone/i }));
    },
    RETRY: press(/try again/i),
    'NOTICE.DISMISS': press(/dismiss/i),
    'REQUEST.ANSWER': async ({ event }: { event: ModelEvent }) => {
      const e = event as Extract<CompanionEvent, { type: 'REQUEST.ANSWER' }>;
      record(h.did, e);
      await h.user.click(within(card(e.key)).getByRole('button', { name: e.result ? /approve/i : /decline/i }));
    },
    // The sign-in page's QR code opens the companion again with #approve=<key>.
    'REQUEST.FOCUS': async ({ event }: { event: ModelEvent }) => {
      record(h.did, event);
      await act(async () => {
        window.location.hash = `approve=${(event as { key: string }).key}`;
        window.dispatchEvent(new HashChangeEvent('hashchange'));
      });
    },
    'UNLINK.START': press(/unlink this phone/i),
    'UNLINK.CANCEL': press(/keep linked/i),
    'UNLINK.CONFIRM': press(/^unlink$/i),
    'APPROVAL.REQUESTED': fromChannel('listen'),
    'APPROVAL.CLOSED': fromChannel('listen'),
    'DEVICE.UNLINKED': fromChannel('listen'),
    'CHANNEL.LOST': fromChannel('listen'),
    'TOKEN.EXPIRING': fromChannel('timer'),
    ...Object.fromEntries(
      Object.keys(answers).flatMap((id) => [
        [`xstate.done.actor.${id}`, answer(h.q[id as keyof Harness['q']])],
        [`xstate.error.actor.${id}`, answer(h.q[id as keyof Harness['q']])],
      ]),
    ),
  };
}

const allSequences: { input: CompanionInput; events: ModelEvent[] }[] = [];
const allPaths: TestPath<any, any>[] = [];

for (const scenario of scenarios) {
  const model = new TestModel(deviceCompanionMachine, {
    input: scenario.input,
    events: (s) => eventsFor(s as Snap, scenario) as never,
    serializeState: (s) => serialize(s as Snap),
    stateMatcher: (s, key) => matchesPath(s as Snap, key),
  });
  const paths = edgeCoveringPaths(model, (s) => serialize(s as Snap));
  allPaths.push(...paths);
  describe(`device companion model: ${scenario.name}`, () => {
    paths.forEach((path, i) => {
      const events = path.steps.map((s) => s.event as ModelEvent).filter((e) => e.type !== 'xstate.init');
      allSequences.push({ input: scenario.input, events });
      const name = `#${i} ${events.map((e) => e.type.replace(/^xstate\.done\.actor\./, 'done.').replace(/^xstate\.error\.actor\./, 'error.')).join(' → ')}`;
      it(name, async () => {
        window.location.hash = '';
        const h = mount(scenario.input);
        await runPathCheckingEveryStep(path, stateChecks(h), eventExecutors(h));
      });
    });
  });
}

describe('device companion model: the chart', () => {
  it('is named deviceCompanion (the inspector and the audit pack show it by that id)', () => {
    expect(deviceCompanionMachine.id).toBe('deviceCompanion');
  });

  it('every state of the chart is reached by some path (the opening choice is passed through)', () => {
    expect(unreachedStates(deviceCompanionMachine, allPaths)).toEqual(['start']);
  });
});

describe('device companion model: transition coverage', () => {
  it('every transition of the chart is taken by some path', () => {
    const taken = new Set<string>();
    for (const { input, events } of allSequences) for (const key of transitionsTaken(deviceCompanionMachine, input, [events as never])) taken.add(key);
    const missing = listTransitions(deviceCompanionMachine).filter((t) => !taken.has(t.key)).map((t) => t.key);
    expect(missing).toEqual([]);
  });
});
