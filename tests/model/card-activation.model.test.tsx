/**
 * Model-based test of a physical card's activation (machines/card-activation): paths generated
 * from the chart drive the REAL CardActivationView through Testing Library, in English, for a card
 * whose activation is free and one that costs a fee. The promise actors (loadActivation:
 * cardActivationData with the fee accounts; activateCard: cardActivate) are test doubles answered
 * by the paths' `xstate.done.actor.<id>` / `xstate.error.actor.<id>` events; the first PIN's 30
 * seconds end by sending the `xstate.after.pinVisible` event (the real delay is an hour here).
 *
 * Every step checks the page against what the TEST did (`Did`): the digits field (hidden while
 * typed, numeric keypad, no autocomplete, 4 digits) as typed and its error, the fee and the account
 * paying it, the alerts, the busy buttons, the first PIN with its countdown and nowhere else, the
 * live region saying it is hidden, `onActivated` told once the PIN is gone, and what activateCard
 * was sent (the digits, the fee account only when there is a fee, the idempotency key: new per
 * attempt, the same one after no answer).
 *
 * Proof it can fail (2026-11-27): I made the chart send the fee account also when the activation
 * is free (feeAccountId kept in activateCard's input): the free card's paths through activating
 * went red (the call's feeAccountId was 101, not null); restored since.
 */
import { describe, expect, it, vi } from 'vitest';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nProvider } from '@lingui/react';
import { TestModel } from '@xstate/graph';
import { createActor, fromPromise, type SnapshotFrom } from 'xstate';
import { testAccount } from '../account-fixture.ts';
import type { Failure } from '../../api/envelope.ts';
import { IDEMPOTENCY_KEY_PATTERN } from '../../api/transfers.ts';
import {
  cardActivationMachine,
  type ActivateRequest,
  type ActivateResult,
  type ActivationData,
  type CardActivationEvent,
  type LoadActivationResult,
} from '../../machines/card-activation/card-activation.machine.ts';
import { CardActivationView } from '../../src/features/cards/activation-view.tsx';
import { formatMoney } from '../../src/lib/format.ts';
import { i18n } from '../../src/lib/i18n.ts';
import { listTransitions } from '../../scripts/machine-graph.ts';
import { edgeCoveringPaths, expectOffered, matchesPath, runPathCheckingEveryStep, transitionsTaken, unreachedStates } from './coverage.ts';
import { AnswerQueue } from './support.ts';

type Snap = SnapshotFrom<typeof cardActivationMachine>;
type SystemEvent = { type: `xstate.${string}`; output?: unknown; error?: unknown };
type ModelEvent = CardActivationEvent | SystemEvent;
type Variant = 'free' | 'fee';

/* ------------------------------------------------------------------------------ fixtures */

const CARD_ID = 77;
const FIRST_PIN = '5831';
const LAST4 = '4444';
const SHORT = '12';
const FEE = 2.5;
const plain = (s: string) => s.replace(/[\u00a0\u202f]/g, ' ');

const account = testAccount;
const ACCOUNTS = [account(101, '120.00'), account(102, '15.00')];
const DATA: Record<Variant, ActivationData> = {
  free: { fees: 0, feeCurrency: 'EUR', extraParams: [{ name: 'cardLast4', pattern: '^\\d{4}$', required: true }], feeAccounts: ACCOUNTS },
  fee: { fees: FEE, feeCurrency: 'EUR', extraParams: [{ name: 'cardLast4', pattern: '^\\d{4}$', required: true }], feeAccounts: ACCOUNTS },
};
const NOT_NOW: Failure = { responseCode: 'TA1', responseDescription: 'This card cannot be activated now' };
const WRONG_DIGITS: Failure = {
  responseCode: 'VF',
  responseDescription: 'Wrong card data',
  validationErrors: [{ param: 'extraParams.cardLast4', code: 'cardDataWrong', description: 'Wrong card data' }],
};
const AFTER_PIN = 'xstate.after.pinVisible.cardActivation.showingPin';

/* ------------------------------------------------------------------------------ the events */

const userEvents = {
  'LOAD.RETRY': [{ type: 'LOAD.RETRY' }],
  'DIGITS.CHANGE': [
    { type: 'DIGITS.CHANGE', cardLast4: LAST4 },
    { type: 'DIGITS.CHANGE', cardLast4: SHORT },
  ],
  'FEE_ACCOUNT.CHANGE': [
    { type: 'FEE_ACCOUNT.CHANGE', accountId: 102 },
    { type: 'FEE_ACCOUNT.CHANGE', accountId: null },
  ],
  CONTINUE: [{ type: 'CONTINUE' }],
  'REVIEW.BACK': [{ type: 'REVIEW.BACK' }],
  ACTIVATE: [{ type: 'ACTIVATE' }],
  'PIN.HIDE': [{ type: 'PIN.HIDE' }],
} satisfies { [K in CardActivationEvent['type']]: Extract<CardActivationEvent, { type: K }>[] };

const answers = (variant: Variant): Record<string, SystemEvent[]> => ({
  loadActivation: [
    { type: 'xstate.done.actor.loadActivation', output: { ok: true, data: DATA[variant] } satisfies LoadActivationResult },
    { type: 'xstate.done.actor.loadActivation', output: { ok: false, code: 'failed', failure: NOT_NOW } satisfies LoadActivationResult },
    { type: 'xstate.error.actor.loadActivation', error: new Error('offline') },
  ],
  activateCard: [
    { type: 'xstate.done.actor.activateCard', output: { ok: true, pinCode: FIRST_PIN, accountStatusId: 2 } satisfies ActivateResult },
    { type: 'xstate.done.actor.activateCard', output: { ok: false, code: 'wrongDigits', failure: WRONG_DIGITS } satisfies ActivateResult },
    { type: 'xstate.done.actor.activateCard', output: { ok: false, code: 'network' } satisfies ActivateResult },
    { type: 'xstate.done.actor.activateCard', output: { ok: false, code: 'failed', failure: NOT_NOW } satisfies ActivateResult },
    { type: 'xstate.error.actor.activateCard', error: new Error('offline') },
  ],
});

/**
 * The events of a snapshot, kept to what matters: while a call runs only its answers; the digits
 * typed along a script (the short ones first, on an empty field, then the four); the fee account
 * changed to the second account, or emptied, from the first.
 */
function eventsFor(variant: Variant, s: Snap): ModelEvent[] {
  const c = s.context;
  const a = answers(variant);
  const running = Object.keys(s.children).filter((id) => id in a);
  if (running.length > 0) return running.flatMap((id) => a[id] ?? []);
  const u = userEvents;
  const all: ModelEvent[] = [];
  if (s.matches('loadFailed')) all.push(...u['LOAD.RETRY']);
  if (s.matches('entering')) {
    if (c.cardLast4 === '') all.push(u['DIGITS.CHANGE'][1]!);
    if (c.cardLast4 !== LAST4) all.push(u['DIGITS.CHANGE'][0]!);
    all.push(...u.CONTINUE);
  }
  if (s.matches('reviewing')) {
    if (c.feeAccountId === 101) all.push(...u['FEE_ACCOUNT.CHANGE']);
    all.push(...u.ACTIVATE, ...u['REVIEW.BACK']);
  }
  if (s.matches('showingPin')) all.push(...u['PIN.HIDE'], { type: AFTER_PIN });
  return all;
}

const serialize = (s: Snap) =>
  JSON.stringify({ value: s.value, status: s.status, digits: s.context.cardLast4, account: s.context.feeAccountId, error: s.context.error, keyed: s.context.key !== null });

/* ------------------------------------------------------------------------------ what the test did */

interface Did {
  cardLast4: string;
  feeAccountId: number | null;
  error: 'loadFailed' | 'loadOffline' | 'digitsFormat' | 'feeAccountMissing' | 'wrongDigits' | 'network' | 'failed' | null;
  /** the last activateCard answer was "no answer" (the next call sends the same key) */
  unanswered: boolean;
  /** the digits or the account changed since that call */
  changed: boolean;
}

function record(variant: Variant, did: Did, event: ModelEvent): void {
  const out = (event as SystemEvent).output as { ok: boolean; code?: string } | undefined;
  switch (event.type) {
    case 'DIGITS.CHANGE':
      Object.assign(did, { cardLast4: (event as Extract<CardActivationEvent, { type: 'DIGITS.CHANGE' }>).cardLast4, error: null, changed: true });
      return;
    case 'FEE_ACCOUNT.CHANGE':
      Object.assign(did, { feeAccountId: (event as Extract<CardActivationEvent, { type: 'FEE_ACCOUNT.CHANGE' }>).accountId, error: null, changed: true });
      return;
    case 'CONTINUE':
      did.error = did.cardLast4.length !== 4 ? 'digitsFormat' : null;
      return;
    case 'ACTIVATE':
      did.error = did.feeAccountId === null ? 'feeAccountMissing' : null;
      return;
    case 'REVIEW.BACK':
    case 'LOAD.RETRY':
      did.error = null;
      return;
    case 'xstate.done.actor.loadActivation':
      did.error = out?.ok ? null : 'loadFailed';
      if (out?.ok) did.feeAccountId = 101;
      return;
    case 'xstate.error.actor.loadActivation':
      did.error = 'loadOffline';
      return;
    case 'xstate.done.actor.activateCard':
    case 'xstate.error.actor.activateCard': {
      const code = event.type.startsWith('xstate.error') ? 'network' : out?.ok ? null : (out?.code ?? 'failed');
      Object.assign(did, { error: code, unanswered: code === 'network', changed: false });
      return;
    }
  }
  void variant;
}

/* ------------------------------------------------------------------------------ the page */

function mount(variant: Variant) {
  const q = {
    loadActivation: new AnswerQueue<{ accountId: number }, LoadActivationResult>(),
    activateCard: new AnswerQueue<ActivateRequest, ActivateResult>(),
  };
  const logic = cardActivationMachine.provide({
    actors: { loadActivation: fromPromise(({ input }) => q.loadActivation.next(input)), activateCard: fromPromise(({ input }) => q.activateCard.next(input)) },
    delays: { pinVisible: 3_600_000 },
  });
  const actor = createActor(logic, { input: { accountId: CARD_ID } }).start();
  const onActivated = vi.fn();
  const user = userEvent.setup({ delay: null });
  render(
    <I18nProvider i18n={i18n}>
      <CardActivationView actor={actor} onActivated={onActivated} />
    </I18nProvider>,
  );
  const did: Did = { cardLast4: '', feeAccountId: null, error: null, unanswered: false, changed: false };
  return { q, actor, user, did, variant, onActivated };
}
type H = ReturnType<typeof mount>;

const digitsField = () => screen.getByLabelText('Last four digits printed on the card') as HTMLInputElement;
const pageText = () => document.body.textContent ?? '';
const liveRegion = () => document.querySelector('[aria-live="polite"]');
const described = (el: HTMLElement) =>
  (el.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' ');

function stateChecks(h: H) {
  const continueName = h.variant === 'fee' ? 'Continue' : 'Activate the card';
  const noPin = () => {
    expect(pageText()).not.toContain(FIRST_PIN);
    expect(h.onActivated).not.toHaveBeenCalled();
  };
  return {
    loading: async () => {
      await screen.findByRole('heading', { name: 'Activate your card' });
      expect(h.q.loadActivation.waiting).toBe(1);
      expect(h.q.loadActivation.calls.at(-1)).toEqual({ accountId: CARD_ID });
      noPin();
    },
    loadFailed: async (s: Snap) => {
      const alert = await screen.findByRole('alert');
      expect(alert.textContent).toContain('We could not load the activation.');
      expect(alert.textContent).toMatch(h.did.error === 'loadFailed' ? /this card cannot be activated now/i : /no answer came/i);
      expectOffered<CardActivationEvent>(s, userEvents['LOAD.RETRY']);
      expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
      expect(h.q.loadActivation.waiting).toBe(0);
      noPin();
    },
    entering: async (s: Snap) => {
      const field = await waitFor(() => digitsField());
      expect(field.value).toBe(h.did.cardLast4);
      expect(field.getAttribute('type')).toBe('password');
      expect(field.getAttribute('inputmode')).toBe('numeric');
      expect(field.getAttribute('autocomplete')).toBe('off');
      expect(field.getAttribute('maxlength')).toBe('4');
      await waitFor(() => expect(screen.getByRole('button', { name: continueName }).getAttribute('aria-busy')).toBeNull());
      expectOffered<CardActivationEvent>(s, userEvents.CONTINUE);
      if (h.did.error === 'digitsFormat') expect(described(field)).toContain('Enter the last four digits printed on the card.');
      else if (h.did.error === 'wrongDigits') expect(described(field)).toContain('This does not match the card. Check the digits printed on it.');
      else expect(field.getAttribute('aria-invalid')).toBeNull();
      const alert = screen.queryByRole('alert');
      if (h.did.error === 'network') expect(alert?.textContent).toMatch(/was not activated: no answer came/i);
      else if (h.did.error === 'failed') expect(alert?.textContent).toMatch(/this card cannot be activated now/i);
      else expect(alert).toBeNull();
      // no fee step for a free activation
      if (h.variant === 'free') expect(screen.queryByText('Activation fee')).toBeNull();
      expect(h.q.activateCard.waiting).toBe(0);
      noPin();
    },
    reviewing: async (s: Snap) => {
      await screen.findByText('Activation fee');
      expect(plain(pageText())).toContain(plain(formatMoney('2.5', 'EUR', 'en')));
      const select = screen.getByLabelText('Pay the fee from') as HTMLSelectElement;
      expect(select.value).toBe(h.did.feeAccountId === null ? '' : String(h.did.feeAccountId));
      await waitFor(() => expect(screen.getByRole('button', { name: 'Pay the fee and activate' }).getAttribute('aria-busy')).toBeNull());
      expectOffered<CardActivationEvent>(s, [...userEvents.ACTIVATE, ...userEvents['REVIEW.BACK']]);
      if (h.did.error === 'feeAccountMissing') expect(described(select)).toContain('Choose the account the fee is paid from.');
      else expect(select.getAttribute('aria-invalid')).toBeNull();
      expect(screen.queryByRole('alert')).toBeNull();
      expect(h.q.activateCard.waiting).toBe(0);
      noPin();
    },
    activating: async () => {
      const name = h.variant === 'fee' ? 'Pay the fee and activate' : continueName;
      await waitFor(() => expect(screen.getByRole('button', { name }).getAttribute('aria-busy')).toBe('true'));
      expect(h.q.activateCard.waiting).toBe(1);
      const calls = h.q.activateCard.calls;
      const call = calls.at(-1)!;
      expect({ ...call, idempotencyKey: '' }).toEqual({ accountId: CARD_ID, cardLast4: LAST4, feeAccountId: h.variant === 'fee' ? h.did.feeAccountId : null, idempotencyKey: '' });
      expect(call.idempotencyKey).toMatch(IDEMPOTENCY_KEY_PATTERN);
      const before = calls.slice(0, -1).map((c) => c.idempotencyKey);
      if (h.did.unanswered && !h.did.changed) expect(call.idempotencyKey).toBe(before.at(-1));
      else expect(before).not.toContain(call.idempotencyKey);
      noPin();
    },
    showingPin: async (s: Snap) => {
      await screen.findByText(FIRST_PIN);
      expect(screen.getByText('Your card is active.')).toBeTruthy();
      expect(screen.getByText('Hidden again in 30 s')).toBeTruthy();
      expectOffered<CardActivationEvent>(s, userEvents['PIN.HIDE']);
      expect(liveRegion()?.textContent).toBe('');
      expect(h.onActivated).not.toHaveBeenCalled();
    },
    done: async (s: Snap) => {
      await screen.findByText('Your card is active. You can change its PIN at any time.');
      expect(pageText()).not.toContain(FIRST_PIN);
      expect(s.context.pinCode).toBeNull();
      await waitFor(() => expect(liveRegion()?.textContent).toBe('The PIN is hidden.'));
      expect(h.onActivated).toHaveBeenCalledTimes(1);
    },
  } satisfies Record<string, (s: Snap) => Promise<void>>;
}

function eventExecutors(h: H) {
  const answer =
    (id: keyof H['q']) =>
    async ({ event }: { event: ModelEvent }) => {
      record(h.variant, h.did, event);
      const e = event as SystemEvent;
      const queue = h.q[id] as AnswerQueue<unknown, unknown>;
      await act(async () => {
        if (e.type.startsWith('xstate.error')) queue.fail(e.error);
        else queue.answer(e.output);
      });
    };
  const click =
    (name: string) =>
    async ({ event }: { event: ModelEvent }) => {
      record(h.variant, h.did, event);
      await h.user.click(screen.getByRole('button', { name }));
    };
  return {
    'LOAD.RETRY': click('Try again'),
    'DIGITS.CHANGE': async ({ event }: { event: ModelEvent }) => {
      record(h.variant, h.did, event);
      await h.user.clear(digitsField());
      await h.user.type(digitsField(), (event as Extract<CardActivationEvent, { type: 'DIGITS.CHANGE' }>).cardLast4);
    },
    'FEE_ACCOUNT.CHANGE': async ({ event }: { event: ModelEvent }) => {
      record(h.variant, h.did, event);
      const id = (event as Extract<CardActivationEvent, { type: 'FEE_ACCOUNT.CHANGE' }>).accountId;
      await h.user.selectOptions(screen.getByLabelText('Pay the fee from'), id === null ? '' : String(id));
    },
    CONTINUE: click(h.variant === 'fee' ? 'Continue' : 'Activate the card'),
    'REVIEW.BACK': click('Back'),
    ACTIVATE: click('Pay the fee and activate'),
    'PIN.HIDE': click('Hide the PIN'),
    [AFTER_PIN]: async ({ event }: { event: ModelEvent }) => {
      record(h.variant, h.did, event);
      act(() => h.actor.send(event as never));
    },
    'xstate.done.actor.loadActivation': answer('loadActivation'),
    'xstate.error.actor.loadActivation': answer('loadActivation'),
    'xstate.done.actor.activateCard': answer('activateCard'),
    'xstate.error.actor.activateCard': answer('activateCard'),
  };
}

/* ------------------------------------------------------------------------------ the paths */

const VARIANTS: readonly Variant[] = ['free', 'fee'];
const sequences: ModelEvent[][] = [];
const labelOf = (e: ModelEvent) => {
  const short = e.type.replace(/^xstate\.(after\.\w+|done\.actor\.\w+|error\.actor\.\w+).*/, '$1');
  if ('output' in e) return `${short}(${(e.output as { ok: boolean; code?: string }).ok ? 'ok' : (e.output as { code: string }).code})`;
  if ('cardLast4' in e) return `${short}(${e.cardLast4})`;
  if ('accountId' in e) return `${short}(${e.accountId})`;
  return short;
};

for (const variant of VARIANTS) {
  const model = new TestModel(cardActivationMachine, {
    input: { accountId: CARD_ID },
    events: (s) => eventsFor(variant, s as Snap) as never,
    serializeState: (s) => serialize(s as Snap),
    stateMatcher: (s, key) => matchesPath(s as Snap, key),
  });
  const paths = edgeCoveringPaths(model, (s) => serialize(s as Snap));
  describe(`card activation model (${variant})`, () => {
    it('reaches every state of the chart it can', () => {
      // a free activation has no fee to review
      expect(unreachedStates(cardActivationMachine, paths)).toEqual(variant === 'free' ? ['reviewing'] : []);
    });
    paths.forEach((path, i) => {
      const events = path.steps.map((st) => st.event as ModelEvent).filter((e) => e.type !== 'xstate.init');
      sequences.push(events);
      const last = path.steps.at(-1)?.state as Snap | undefined;
      it(`#${i} ${events.map(labelOf).join(' → ') || 'initial'} ⇒ ${JSON.stringify(last?.value)}`, async () => {
        const h = mount(variant);
        await runPathCheckingEveryStep(path, stateChecks(h), eventExecutors(h));
        h.actor.stop();
      });
    });
  });
}

describe('card activation model: transition coverage', () => {
  it('every transition of the chart is taken by some path', () => {
    const taken = new Set<string>();
    for (const events of sequences) for (const key of transitionsTaken(cardActivationMachine, { accountId: CARD_ID }, [events as never])) taken.add(key);
    const missing = listTransitions(cardActivationMachine)
      .filter((t) => !taken.has(t.key))
      .map((t) => t.key);
    expect(missing).toEqual([]);
  });
});
