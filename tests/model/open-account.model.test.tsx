/**
 * Model-based test of opening an account: paths generated from the open-account machine's graph
 * drive the REAL OpenAccountFlow through Testing Library. The one call (addCurrency or
 * createWallet, behind the machine's `openAccount` actor) is a test double answered by the paths'
 * `xstate.done.actor.openAccount` / `xstate.error.actor.openAccount` events. A last test opens a
 * wallet with the keyboard only and runs axe on every step.
 *
 * Proof it can fail: I broke the flow once on purpose (the confirm step's Back button sent
 * CONFIRM): the paths through confirming went red; restored since.
 */
import { expectNoAxeViolations } from '../ui/axe.ts';
import { describe, expect, it, vi } from 'vitest';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nProvider } from '@lingui/react';
import { TestModel } from '@xstate/graph';
import { fromPromise, type SnapshotFrom } from 'xstate';
import type { CurrencyCode } from '../../api/transfers.ts';
import { openAccountMachine, type OpenAccountEvent, type OpenAccountResult } from '../../machines/open-account/open-account.machine.ts';
import { OpenAccountFlow } from '../../src/features/accounts/open-account-view.tsx';
import { i18n } from '../../src/lib/i18n.ts';
import { listTransitions } from '../../scripts/machine-graph.ts';
import { edgeCoveringPaths, expectOffered, matchesPath, runPathCheckingEveryStep, transitionsTaken, unreachedStates } from './coverage.ts';
import { AnswerQueue } from './support.ts';
import { settleFromEvent } from './settle.ts';

type Snap = SnapshotFrom<typeof openAccountMachine>;
type SystemEvent = { type: `xstate.${string}`; output?: unknown; error?: unknown };
type ModelEvent = OpenAccountEvent | SystemEvent;

const CHOICES: CurrencyCode[] = ['USD', 'BTC'];
const ADDRESS = 'bc1qdemo0000000000000000000000000000000';
const REFUSED = 'Too many requests: try again in a minute';

/** Typed so a new event fails compilation until it has cases here. */
const userEvents = {
  'CURRENCY.SELECT': [
    { type: 'CURRENCY.SELECT', currency: 'USD' },
    { type: 'CURRENCY.SELECT', currency: 'BTC' },
  ],
  CONTINUE: [{ type: 'CONTINUE' }],
  BACK: [{ type: 'BACK' }],
  CONFIRM: [{ type: 'CONFIRM' }],
  RETRY: [{ type: 'RETRY' }],
} satisfies { [K in OpenAccountEvent['type']]: Extract<OpenAccountEvent, { type: K }>[] };

function answersFor(s: Snap): SystemEvent[] {
  if (!s.children.openAccount) return [];
  const currency = s.context.selected!;
  return [
    { type: 'xstate.done.actor.openAccount', output: { ok: true, account: { accountId: 501, currency, address: currency === 'BTC' ? ADDRESS : null } } satisfies OpenAccountResult },
    { type: 'xstate.done.actor.openAccount', output: { ok: false, code: 'failed', failure: { responseCode: 'UE', responseDescription: REFUSED } } satisfies OpenAccountResult },
    { type: 'xstate.error.actor.openAccount', error: new Error('offline') },
  ];
}

function eventsFor(s: Snap): ModelEvent[] {
  if (s.status !== 'active') return [];
  // One currency is enough once chosen: a second choice only while none is (keeps the graph small).
  const user = Object.values(userEvents)
    .flat()
    .filter((e) => e.type !== 'CURRENCY.SELECT' || s.context.selected === null || (e.currency === 'BTC' && s.context.selected === 'USD' && s.context.error === null));
  const all: ModelEvent[] = [...user, ...answersFor(s)];
  return all.filter((e) => e.type.startsWith('xstate.') || s.can(e as OpenAccountEvent));
}

const serialize = (s: Snap) => JSON.stringify({ value: s.value, selected: s.context.selected, error: s.context.error?.code ?? null, status: s.status });

function mount(choices: readonly CurrencyCode[] = CHOICES) {
  const q = new AnswerQueue<{ currency: CurrencyCode }, OpenAccountResult>();
  const onOpened = vi.fn();
  const user = userEvent.setup({ delay: null });
  const logic = openAccountMachine.provide({ actors: { openAccount: fromPromise(({ input }) => q.next(input)) } });
  const view = render(
    <I18nProvider i18n={i18n}>
      <OpenAccountFlow choices={choices} onOpened={onOpened} logic={logic} homeLink={<a href="/home">Back to your accounts</a>} />
    </I18nProvider>,
  );
  // What the test did last and the currency it chose, to expect what the user sees from them
  // rather than from the chart's own context (a chart that kept the wrong choice or answer would
  // otherwise agree with itself).
  const did: { last: ModelEvent | null; selected: CurrencyCode | null } = { last: null, selected: null };
  return { q, onOpened, user, did, container: view.container };
}
type Harness = ReturnType<typeof mount>;

const NAMES: Record<string, RegExp> = { USD: /^US dollar \(USD\)$/i, BTC: /^Bitcoin \(BTC\)$/ };
const confirmHeading = (h: Harness) => (h.did.selected === 'BTC' ? /^create a bitcoin wallet\?$/i : /^open a us dollar account\?$/i);
const confirmButton = (h: Harness) => (h.did.selected === 'BTC' ? /^create the wallet$/i : /^open the account$/i);
const select = (currency: CurrencyCode): OpenAccountEvent => ({ type: 'CURRENCY.SELECT', currency });

function stateChecks(h: Harness) {
  return {
    nothingToOpen: async () => {
      await screen.findByText(/an account in every currency we offer/i);
    },
    choosing: async (s: Snap) => {
      await screen.findByRole('heading', { level: 1, name: 'Open an account' });
      const group = screen.getByRole('group', { name: /currency/i });
      const radios = within(group).getAllByRole('radio') as HTMLInputElement[];
      expect(radios.map((r) => r.value)).toEqual(CHOICES);
      for (const code of CHOICES) expect(within(group).getByLabelText(NAMES[code]!)).toBeTruthy();
      expect(radios.find((r) => r.checked)?.value ?? null).toBe(h.did.selected);
      // Continue without a choice says one is required (and Continue with one leaves the page)
      if (h.did.last?.type === 'CONTINUE') {
        expect(h.did.selected).toBeNull();
        expect(screen.getByText('Choose a currency.')).toBeTruthy();
        expect(radios[0]!.getAttribute('aria-invalid')).toBe('true');
      } else expect(screen.queryByText('Choose a currency.')).toBeNull();
      expect(h.q.waiting).toBe(0);
      expectOffered(s, [{ type: 'CONTINUE' }, ...CHOICES.map(select)]);
    },
    confirming: async (s: Snap) => {
      await screen.findByRole('heading', { level: 1, name: confirmHeading(h) });
      expect(screen.getByText(h.did.selected === 'BTC' ? 'Crypto wallet' : 'Payment account')).toBeTruthy();
      expect(screen.queryByRole('alert')).toBeNull();
      await waitFor(() => expect(screen.getByRole('button', { name: confirmButton(h) }).getAttribute('aria-busy')).toBeNull());
      expectOffered(s, [{ type: 'CONFIRM' }, { type: 'BACK' }]);
      // a confirmation is sent to the platform rather than left on the page
      expect(h.did.last?.type).not.toBe('CONFIRM');
    },
    opening: async () => {
      await waitFor(() => expect(screen.getByRole('button', { name: confirmButton(h) }).getAttribute('aria-busy')).toBe('true'));
      expect(h.q.waiting).toBe(1);
      expect(h.q.calls.at(-1)).toEqual({ currency: h.did.selected });
      expect((screen.getByRole('button', { name: /^back$/i }) as HTMLButtonElement).disabled).toBe(true);
    },
    failed: async (s: Snap) => {
      const alert = await screen.findByRole('alert');
      expect(alert.textContent).toMatch(h.did.selected === 'BTC' ? /wallet was not created/i : /account was not opened/i);
      // the reason the last answer gave: no answer at all, or the platform's refusal
      expect(alert.textContent).toMatch(h.did.last?.type === 'xstate.error.actor.openAccount' ? /no answer from the server/i : new RegExp(REFUSED));
      expect(screen.getByRole('button', { name: /^try again$/i })).toBeTruthy();
      expectOffered(s, [{ type: 'RETRY' }, { type: 'BACK' }]);
      // a retry asks again rather than leaving the page as it was
      expect(h.did.last?.type).not.toBe('RETRY');
    },
    done: async () => {
      await waitFor(() => expect(h.onOpened).toHaveBeenCalledTimes(1));
      expect(h.onOpened).toHaveBeenCalledWith({ accountId: 501, currency: h.did.selected, address: h.did.selected === 'BTC' ? ADDRESS : null });
      expect(screen.getByRole('heading', { level: 1, name: /your account is open/i })).toBeTruthy();
    },
  } satisfies Record<string, (s: Snap) => Promise<void>>;
}

function eventExecutors(h: Harness) {
  const answer = async ({ event }: { event: ModelEvent }) => {
    h.did.last = event;
    await settleFromEvent(h.q, event as SystemEvent);
  };
  const press = (name: RegExp) => async ({ event }: { event: ModelEvent }) => {
    h.did.last = event;
    await h.user.click(screen.getByRole('button', { name }));
  };
  return {
    'CURRENCY.SELECT': async ({ event }: { event: ModelEvent }) => {
      const e = event as Extract<OpenAccountEvent, { type: 'CURRENCY.SELECT' }>;
      h.did.last = e;
      h.did.selected = e.currency;
      await h.user.click(screen.getByLabelText(NAMES[e.currency]!));
    },
    CONTINUE: press(/^continue$/i),
    BACK: press(/^back$/i),
    CONFIRM: press(/^(open the account|create the wallet)$/i),
    RETRY: press(/^try again$/i),
    'xstate.done.actor.openAccount': answer,
    'xstate.error.actor.openAccount': answer,
  };
}

const input = { choices: CHOICES };
const model = new TestModel(openAccountMachine, {
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
  if ('currency' in e) return `${short}(${e.currency})`;
  return short;
};

describe('open account model', () => {
  paths.forEach((path, i) => {
    const events = path.steps.map((s) => s.event as ModelEvent).filter((e) => e.type !== 'xstate.init');
    sequences.push(events);
    const last = path.steps.at(-1)?.state as Snap | undefined;
    it(`#${i} ${events.map(labelOf).join(' → ') || 'initial'} ⇒ ${JSON.stringify(last?.value)}`, async () => {
      const h = mount();
      await runPathCheckingEveryStep(path, stateChecks(h), eventExecutors(h));
    });
  });

  it('with every currency held: nothing to open, a way back home', async () => {
    mount([]);
    await screen.findByText(/an account in every currency we offer/i);
    expect(screen.getByRole('link', { name: /back to your accounts/i }).getAttribute('href')).toBe('/home');
  });
});

describe('open account model: the chart', () => {
  it('is named openAccount (the inspector and the audit pack show it by that id)', () => {
    expect(openAccountMachine.id).toBe('openAccount');
  });

  it('every state of the chart is reached by some path (nothingToOpen by its own test, with no choices; starting is left at once)', () => {
    expect(unreachedStates(openAccountMachine, paths)).toEqual(['starting', 'nothingToOpen']);
  });
});

describe('open account model: transition coverage', () => {
  it('every transition of the chart is taken by some path', () => {
    const taken = new Set<string>();
    for (const events of sequences) for (const key of transitionsTaken(openAccountMachine, input, [events as never])) taken.add(key);
    // nothingToOpen is reached with no choices (its own test above): the start's other branch.
    for (const key of transitionsTaken(openAccountMachine, { choices: [] }, [[]])) taken.add(key);
    const missing = listTransitions(openAccountMachine)
      .filter((t) => !taken.has(t.key))
      .map((t) => t.key);
    expect(missing).toEqual([]);
  });
});

describe('open account: keyboard and axe', () => {
  it('creates a wallet with the keyboard only, focus on each step heading, without axe violations', async () => {
    const h = mount();
    const heading = await screen.findByRole('heading', { level: 1, name: 'Open an account' });
    expect(document.activeElement).toBe(heading);
    await expectNoAxeViolations('choosing', h.container);
    // Continue without a choice: the group says so.
    await h.user.tab();
    await h.user.tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: /^continue$/i }));
    await h.user.keyboard('{Enter}');
    await screen.findByText('Choose a currency.');
    await expectNoAxeViolations('a missing choice', h.container);
    // Back into the group (none chosen: Shift+Tab lands on its last option, Bitcoin), Space chooses it.
    await h.user.tab({ shift: true });
    expect(document.activeElement).toBe(screen.getByLabelText(NAMES.BTC!));
    await h.user.keyboard(' ');
    expect((screen.getByLabelText(NAMES.BTC!) as HTMLInputElement).checked).toBe(true);
    await h.user.tab();
    await h.user.keyboard('{Enter}');
    const confirm = await screen.findByRole('heading', { level: 1, name: 'Create a Bitcoin wallet?' });
    expect(document.activeElement).toBe(confirm);
    await expectNoAxeViolations('confirming', h.container);
    await h.user.tab();
    await h.user.keyboard('{Enter}');
    await waitFor(() => expect(h.q.waiting).toBe(1));
    await act(async () => h.q.answer({ ok: true, account: { accountId: 501, currency: 'BTC', address: ADDRESS } }));
    await waitFor(() => expect(h.onOpened).toHaveBeenCalledWith({ accountId: 501, currency: 'BTC', address: ADDRESS }));
  });
});
