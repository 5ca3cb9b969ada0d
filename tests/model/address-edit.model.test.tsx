/**
 * Model-based test of an address change with its documents: paths generated from the address-edit
 * machine's graph drive the REAL AddressEditFlow through Testing Library (text fields, the country
 * and document type selects, the file input, the date fields). The save call is a test double
 * answered by the paths' `xstate.done.actor.saveAddress` / `xstate.error.actor.saveAddress`
 * events; the address document types are the real query over a fetch double. A new address
 * (its proof of address required). A last test goes through with the keyboard only and runs axe
 * on every step. A second model replaces an address: its paths through the card check (the
 * platform's addressReplacementCompatibility answer, test double) are kept, the cards named in
 * the warning from a balance inquiry double.
 *
 * Proof it can fail: I broke the flow once on purpose (the platform's VF words not shown on their
 * field): 19 of 63 tests went red; restored since. The keyboard test found that the steps' forms
 * were reused by React (the next step's heading did not take focus): each step is keyed now.
 */
import { expectNoAxeViolations } from '../ui/axe.ts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nProvider } from '@lingui/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { TestModel } from '@xstate/graph';
import type { SnapshotFrom } from 'xstate';
import {
  addressEditMachine,
  type AddressEditEvent,
  type AddressEditInput,
  type CardCheckRequest,
  type CardCheckResult,
  type SaveAddressRequest,
  type SaveAddressResult,
} from '../../machines/address-edit/address-edit.machine.ts';
import type { AddressDocuments, AddressFormField, AddressValues } from '../../machines/address-edit/address-edit.rules.ts';
import { AddressEditFlow } from '../../src/features/profile/address-edit-flow.tsx';
import { i18n } from '../../src/lib/i18n.ts';
import { setFetchForTests } from '../../src/lib/request.ts';
import { listTransitions } from '../../scripts/machine-graph.ts';
import { edgeCoveringPaths, expectOffered, matchesPath, runPathCheckingEveryStep, transitionsTaken, unreachedStates } from './coverage.ts';
import { AnswerQueue } from './support.ts';

type Snap = SnapshotFrom<typeof addressEditMachine>;
type SystemEvent = { type: `xstate.${string}`; output?: unknown; error?: unknown };
type ModelEvent = AddressEditEvent | SystemEvent;

const TODAY = '2026-03-15';
const EMPTY: AddressValues = { addressType: 'home', address1: '', address2: '', city: '', postalCode: '', countryCode: '', stateName: '' };
const input: AddressEditInput = { addressId: null, values: EMPTY, today: TODAY };
const COUNTRIES = [{ code: 'LT', name: 'Lithuania' }];
const GOOD: AddressValues = { ...EMPTY, address1: 'Pilies g. 1', city: 'Vilnius', postalCode: 'LT-01103', countryCode: 'LT' };
const OLD_ADDRESS_ID = 7;
const replacing: AddressEditInput = { addressId: OLD_ADDRESS_ID, values: GOOD, today: TODAY };
/** the customer's cards the warning names (balance inquiry double) */
const CARD_CANCELED = 501;
const CARD_IN_PRODUCTION = 502;
const cardAccount = (accountId: number, cardLast4: string) => ({
  accountId,
  currency: 'EUR',
  balance: '10',
  type: 2006,
  subType: 'PREPAID',
  accountStatusId: 1,
  accountBalanceMin: '0',
  pendingAmount: '0',
  customerId: 10,
  settlementAccountId: null,
  cardIsVirtual: false,
  cardAliasName: null,
  cardExpiryMonth: 3,
  cardExpiryYear: 2029,
  cardReissuedStatusId: null,
  cardLast4,
});
const CHECK_REFUSED = 'is not an address of yours';
const NO_STREET: AddressValues = { ...GOOD, address1: '' };
const UTILITY_BILL = 10;
const BILL = { name: 'bill.png', type: 'image/png', size: 4, content: new Blob([new Uint8Array([1, 2, 3, 4])]) };
const doc = (issuedDate: string): AddressDocuments => ({ mainDocument: { documentTypeId: UTILITY_BILL, secondPage: null, file: BILL, second: null, issuedDate, expiresDate: '' } });
const GOOD_DOCS = doc('2026-03-01');
const FUTURE_DOCS = doc('2026-04-01');
const TOO_OLD = 'must be at most 180 days old';
const STREET_REFUSED = 'is not an address we can deliver to';

/** Typed so a new event fails compilation until it has cases here. */
const userEvents = {
  'FORM.SUBMIT': [
    { type: 'FORM.SUBMIT', values: GOOD },
    { type: 'FORM.SUBMIT', values: NO_STREET },
  ],
  'DOCUMENTS.SUBMIT': [
    { type: 'DOCUMENTS.SUBMIT', documents: GOOD_DOCS },
    { type: 'DOCUMENTS.SUBMIT', documents: FUTURE_DOCS },
  ],
  SAVE: [{ type: 'SAVE' }],
  CONFIRM: [{ type: 'CONFIRM' }],
  BACK: [{ type: 'BACK' }],
  RETRY: [{ type: 'RETRY' }],
  CANCEL: [{ type: 'CANCEL' }],
} satisfies { [K in AddressEditEvent['type']]: Extract<AddressEditEvent, { type: K }>[] };

function answersFor(s: Snap): SystemEvent[] {
  if (s.children.checkCards) {
    return [
      { type: 'xstate.done.actor.checkCards', output: { ok: true, toBeCanceled: [], shippedToOldAddress: [] } satisfies CardCheckResult },
      { type: 'xstate.done.actor.checkCards', output: { ok: true, toBeCanceled: [CARD_CANCELED], shippedToOldAddress: [CARD_IN_PRODUCTION] } satisfies CardCheckResult },
      { type: 'xstate.done.actor.checkCards', output: { ok: false, code: 'refused', detail: CHECK_REFUSED } satisfies CardCheckResult },
      { type: 'xstate.error.actor.checkCards', error: new Error('offline') },
    ];
  }
  if (!s.children.saveAddress) return [];
  return [
    { type: 'xstate.done.actor.saveAddress', output: { ok: true } satisfies SaveAddressResult },
    { type: 'xstate.done.actor.saveAddress', output: { ok: false, code: 'fields', errors: [{ param: 'address1', description: STREET_REFUSED }] } satisfies SaveAddressResult },
    { type: 'xstate.done.actor.saveAddress', output: { ok: false, code: 'fields', errors: [{ param: 'mainDocument.issuedDate', description: TOO_OLD }] } satisfies SaveAddressResult },
    { type: 'xstate.done.actor.saveAddress', output: { ok: false, code: 'refused', detail: 'At most 5 addresses' } satisfies SaveAddressResult },
    { type: 'xstate.error.actor.saveAddress', error: new Error('offline') },
  ];
}

function eventsFor(s: Snap): ModelEvent[] {
  if (s.status !== 'active') return [];
  const all: ModelEvent[] = [...Object.values(userEvents).flat(), ...answersFor(s)];
  return all.filter((e) => e.type.startsWith('xstate.') || s.can(e as AddressEditEvent));
}

/** Only what the checks read: the state, which fields have which errors, the save failure, which values and documents were sent. */
const serialize = (s: Snap) =>
  JSON.stringify({
    value: s.value,
    errors: Object.fromEntries(Object.entries(s.context.fieldErrors).map(([k, e]) => [k, e?.code === 'platform' ? e.detail : e?.code])),
    saveError: s.context.saveError,
    cards: s.context.cardImpact,
    street: s.context.values.address1 !== '',
    issued: s.context.documents.mainDocument?.issuedDate ?? null,
  });

const typeAnswer = {
  responseCode: '00',
  customerDocumentCategories: [{ id: 2, name: 'Address', customerDocumentTypes: [{ id: UTILITY_BILL, name: 'Utility bill', needsBack: false }] }],
};

/** the check's code, or the platform's words on the field */
type FieldError = { code: string };
/** What the test did, kept apart from the chart's context: the page is expected from it. */
interface Did {
  last: ModelEvent | null;
  /** the errors each field should show (the step's own checks, or the platform's words) */
  fieldErrors: Partial<Record<AddressFormField, FieldError>>;
  /** the values and documents the steps took last (what saving sends) */
  documents: AddressDocuments | null;
  saveError: { code: 'network' } | { code: 'refused'; detail: string } | null;
  /** the cards the last check named (null: not asked since the last change) */
  cards: { toBeCanceled: number[]; shippedToOldAddress: number[] } | null;
}
const DOCUMENT_FIELD = /^(mainDocument|additionalDocument|relationshipDocument)\./;

/** What each event calls for, worked out here rather than read from the chart. */
function record(did: Did, event: ModelEvent): void {
  did.last = event;
  const keep = (documentFields: boolean) =>
    Object.fromEntries(Object.entries(did.fieldErrors).filter(([field]) => DOCUMENT_FIELD.test(field) === documentFields)) as Did['fieldErrors'];
  switch (event.type) {
    case 'FORM.SUBMIT': {
      const { values } = event as Extract<AddressEditEvent, { type: 'FORM.SUBMIT' }>;
      // the step checks its own fields anew (this test's values miss the street at most)
      did.fieldErrors = { ...keep(true), ...(values.address1 === '' ? { address1: { code: 'required' } } : {}) };
      return;
    }
    case 'DOCUMENTS.SUBMIT': {
      const { documents } = event as Extract<AddressEditEvent, { type: 'DOCUMENTS.SUBMIT' }>;
      const future = (documents.mainDocument?.issuedDate ?? '') > TODAY;
      did.fieldErrors = { ...keep(false), ...(future ? { 'mainDocument.issuedDate': { code: 'issuedInFuture' } } : {}) };
      if (!future) did.documents = documents;
      return;
    }
    case 'SAVE':
      did.saveError = null;
      did.cards = null;
      return;
    case 'RETRY':
      did.saveError = null;
      return;
    case 'BACK':
      if (did.saveError) did.saveError = null;
      return;
    case 'xstate.done.actor.saveAddress': {
      const out = (event as SystemEvent).output as SaveAddressResult;
      if (out.ok) return;
      if (out.code === 'fields') for (const e of out.errors) did.fieldErrors[e.param as AddressFormField] = { code: e.description };
      else did.saveError = out.code === 'network' ? { code: 'network' } : { code: 'refused', detail: out.detail ?? '' };
      return;
    }
    case 'xstate.error.actor.saveAddress':
    case 'xstate.error.actor.checkCards':
      did.saveError = { code: 'network' };
      return;
    case 'xstate.done.actor.checkCards': {
      const out = (event as SystemEvent).output as CardCheckResult;
      if (out.ok) did.cards = { toBeCanceled: out.toBeCanceled, shippedToOldAddress: out.shippedToOldAddress };
      else did.saveError = { code: 'refused', detail: out.code === 'refused' ? (out.detail ?? '') : '' };
      return;
    }
  }
}

function mount(start: AddressEditInput = input) {
  const q = new AnswerQueue<SaveAddressRequest, SaveAddressResult>();
  const cq = new AnswerQueue<CardCheckRequest, CardCheckResult>();
  const onFinished = vi.fn();
  const accounts = { responseCode: '00', accounts: { account: [cardAccount(CARD_CANCELED, '4242'), cardAccount(CARD_IN_PRODUCTION, '1881')] } };
  setFetchForTests(
    async (url) =>
      new Response(JSON.stringify(String(url).includes('balanceInquiry') ? accounts : typeAnswer), { status: 200, headers: { 'Content-Type': 'application/json' } }),
  );
  const user = userEvent.setup({ delay: null });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const view = render(
    <I18nProvider i18n={i18n}>
      <QueryClientProvider client={client}>
        <AddressEditFlow input={start} countries={COUNTRIES} onFinished={onFinished} save={(request) => q.next(request)} checkCards={(request) => cq.next(request)} />
      </QueryClientProvider>
    </I18nProvider>,
  );
  const did: Did = { last: null, fieldErrors: {}, documents: null, saveError: null, cards: null };
  return { q, cq, start, onFinished, user, did, container: view.container };
}
type Harness = ReturnType<typeof mount>;

afterEach(() => setFetchForTests(null));

const ERROR_TEXT: Record<string, RegExp> = {
  required: /^this is required\.$/i,
  issuedInFuture: /the issue date cannot be in the future/i,
  [TOO_OLD]: new RegExp(TOO_OLD),
  [STREET_REFUSED]: new RegExp(STREET_REFUSED),
};
const FIELD_LABEL: Partial<Record<AddressFormField, RegExp>> = {
  address1: /^street and number$/i,
  'mainDocument.issuedDate': /^issue date$/i,
  'mainDocument.file': /^document file$/i,
};

/** Each error of the step's fields sits on its field (aria-invalid, described by the words). */
function expectFieldErrors(h: Harness, fields: AddressFormField[]) {
  for (const field of fields) {
    const label = FIELD_LABEL[field];
    if (!label) continue;
    const main = field.startsWith('mainDocument') ? within(screen.getByRole('group', { name: PROOF })) : screen;
    const control = main.getByLabelText(label);
    const e = h.did.fieldErrors[field];
    if (!e) {
      expect(control.getAttribute('aria-invalid'), field).toBeNull();
      continue;
    }
    const text = main.getByText(ERROR_TEXT[e.code]!);
    expect(control.getAttribute('aria-invalid'), field).toBe('true');
    expect(control.getAttribute('aria-describedby')).toContain(text.id);
  }
}

/** a new address needs its proof; a replaced one may keep its own */
const PROOF = /^proof of address( \(optional\))?$/i;

/** the warning's focus and axe are checked once (the first path that reaches it) */
let warningChecked = false;

function stateChecks(h: Harness) {
  const replacing = h.start.addressId !== null;
  return {
    'editing.form': async (s: Snap) => {
      await screen.findByRole('heading', { name: replacing ? /^change the address$/i : /^new address$/i });
      expect(h.q.waiting + h.cq.waiting).toBe(0);
      expectFieldErrors(h, ['address1']);
      expectOffered<AddressEditEvent>(s, [{ type: 'FORM.SUBMIT', values: GOOD }, { type: 'CANCEL' }]);
      // good values go on to the documents, not stay here
      expect(h.did.last).not.toEqual({ type: 'FORM.SUBMIT', values: GOOD });
    },
    'editing.documents': async (s: Snap) => {
      await screen.findByRole('heading', { name: /documents for the address/i });
      await waitFor(() => expect(screen.getAllByRole('option', { name: 'Utility bill' }).length).toBe(3));
      expectFieldErrors(h, ['mainDocument.issuedDate', 'mainDocument.file']);
      expectOffered<AddressEditEvent>(s, [{ type: 'DOCUMENTS.SUBMIT', documents: GOOD_DOCS }, { type: 'BACK' }, { type: 'CANCEL' }]);
      expect(h.did.last).not.toEqual({ type: 'DOCUMENTS.SUBMIT', documents: GOOD_DOCS });
    },
    'editing.review': async (s: Snap) => {
      await screen.findByRole('heading', { name: /check and save/i });
      await waitFor(() => expect(screen.getByRole('button', { name: /save the address/i }).getAttribute('aria-busy')).toBeNull());
      expect(screen.getByText(/Pilies g\. 1, LT-01103 Vilnius, Lithuania/)).toBeTruthy();
      expect(screen.getByText(/Utility bill, bill\.png/)).toBeTruthy();
      expect(screen.queryByRole('alert')).toBeNull();
      expect(h.did.saveError).toBeNull();
      expectOffered<AddressEditEvent>(s, [{ type: 'SAVE' }, { type: 'BACK' }, { type: 'CANCEL' }]);
      expect(h.did.last?.type).not.toBe('SAVE');
      // the failure is forgotten on the way back (the next save starts clean)
      expect(s.context.saveError).toBeNull();
    },
    checkingCards: async () => {
      await waitFor(() => expect(screen.getByRole('button', { name: /save the address/i }).getAttribute('aria-busy')).toBe('true'));
      expect(h.cq.waiting).toBe(1);
      expect(h.q.waiting).toBe(0);
      expect(h.cq.calls.at(-1)).toEqual({ countryCode: 'LT', oldAddressId: OLD_ADDRESS_ID });
      expect(screen.queryByRole('button', { name: /^cancel$/i })).toBeNull();
    },
    cardWarning: async (s: Snap) => {
      await screen.findByRole('heading', { name: /your cards and this change/i });
      const cards = h.did.cards!;
      expect(cards.toBeCanceled.length + cards.shippedToOldAddress.length).toBeGreaterThan(0);
      // each card by its name (the accounts' last four digits), in the list it belongs to
      const canceled = screen.getByText(/these cards will be canceled/i).closest('.alert') as HTMLElement;
      await waitFor(() => expect(within(canceled).getByText('EUR card •••• 4242')).toBeTruthy());
      expect(within(canceled).getByText(/not offered in Lithuania/)).toBeTruthy();
      const old = screen.getByText(/still go to your old address/i).closest('.alert') as HTMLElement;
      expect(within(old).getByText('EUR card •••• 1881')).toBeTruthy();
      expect(within(old).queryByText('EUR card •••• 4242')).toBeNull();
      expect(h.q.waiting).toBe(0);
      expectOffered<AddressEditEvent>(s, [{ type: 'CONFIRM' }, { type: 'BACK' }, { type: 'CANCEL' }]);
      expect(h.did.last?.type).not.toBe('CONFIRM');
      if (!warningChecked) {
        warningChecked = true;
        await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('heading', { name: /your cards and this change/i })));
        await expectNoAxeViolations('the card warning', h.container);
      }
    },
    saving: async () => {
      await waitFor(() => expect(screen.getByRole('button', { name: /save the address/i }).getAttribute('aria-busy')).toBe('true'));
      expect(h.q.waiting).toBe(1);
      const sent = h.q.calls.at(-1)!;
      expect(sent.addressId).toBe(h.start.addressId);
      // a replacement is sent only after the card check (and the customer's yes when cards are affected)
      if (replacing) expect(h.did.cards).not.toBeNull();
      expect(sent.values).toMatchObject({ address1: GOOD.address1, city: GOOD.city, postalCode: GOOD.postalCode, countryCode: 'LT', addressType: 'home' });
      expect(sent.documents.mainDocument).toMatchObject({ documentTypeId: UTILITY_BILL, issuedDate: h.did.documents?.mainDocument?.issuedDate });
      expect(sent.documents.mainDocument?.file.name).toBe('bill.png');
      expect(screen.queryByRole('button', { name: /^cancel$/i })).toBeNull();
    },
    failed: async (s: Snap) => {
      const alert = await screen.findByRole('alert');
      const error = h.did.saveError;
      expect(error).not.toBeNull();
      expect(within(alert).getByText(error?.code === 'network' ? /the connection failed/i : (error as { detail: string }).detail)).toBeTruthy();
      await waitFor(() => expect(document.activeElement).toBe(within(alert).getByRole('button', { name: /^try again$/i })));
      expectOffered<AddressEditEvent>(s, [{ type: 'RETRY' }, { type: 'BACK' }, { type: 'CANCEL' }]);
      expect(h.did.last?.type).not.toBe('RETRY');
    },
    done: async (s: Snap) => {
      await waitFor(() => expect(h.onFinished).toHaveBeenCalledWith(true));
      expect(h.onFinished).toHaveBeenCalledTimes(1);
      expect((h.did.last as SystemEvent).output).toEqual({ ok: true });
      expect(s.status).toBe('done');
    },
    canceled: async (s: Snap) => {
      await waitFor(() => expect(h.onFinished).toHaveBeenCalledWith(false));
      expect(h.onFinished).toHaveBeenCalledTimes(1);
      expect(h.did.last?.type).toBe('CANCEL');
      expect(s.status).toBe('done');
    },
  } satisfies Record<string, (s: Snap) => Promise<void>>;
}

function eventExecutors(h: Harness) {
  const press = (name: RegExp) => async ({ event }: { event: ModelEvent }) => {
    record(h.did, event);
    await h.user.click(screen.getByRole('button', { name }));
  };
  const fill = async (label: RegExp, value: string) => {
    const field = screen.getByLabelText(label);
    await h.user.clear(field);
    if (value) await h.user.type(field, value);
  };
  return {
    'FORM.SUBMIT': async ({ event }: { event: ModelEvent }) => {
      record(h.did, event);
      const { values } = event as Extract<AddressEditEvent, { type: 'FORM.SUBMIT' }>;
      await fill(/^street and number$/i, values.address1);
      await fill(/^city$/i, values.city);
      await fill(/^postal code$/i, values.postalCode);
      await h.user.selectOptions(screen.getByLabelText(/^country$/i), values.countryCode);
      await h.user.click(screen.getByRole('button', { name: /^continue$/i }));
    },
    'DOCUMENTS.SUBMIT': async ({ event }: { event: ModelEvent }) => {
      record(h.did, event);
      const { documents } = event as Extract<AddressEditEvent, { type: 'DOCUMENTS.SUBMIT' }>;
      const main = within(screen.getByRole('group', { name: PROOF }));
      await waitFor(() => expect(main.getAllByRole('option').length).toBe(2));
      await h.user.selectOptions(main.getByLabelText(/^document type$/i), 'Utility bill');
      if (!main.queryByText(/^chosen: bill\.png$/i)) await h.user.upload(main.getByLabelText(/^document file$/i), new File([new Uint8Array([1, 2, 3, 4])], 'bill.png', { type: 'image/png' }));
      const issued = main.getByLabelText(/^issue date$/i);
      await h.user.clear(issued);
      await h.user.type(issued, documents.mainDocument!.issuedDate);
      await h.user.click(screen.getByRole('button', { name: /^continue$/i }));
    },
    SAVE: press(/save the address/i),
    CONFIRM: press(/save the address anyway/i),
    BACK: async ({ event }: { event: ModelEvent }) => {
      record(h.did, event);
      await h.user.click(screen.getAllByRole('button', { name: /^back$/i }).at(-1)!);
    },
    RETRY: press(/^try again$/i),
    CANCEL: press(/^cancel$/i),
    'xstate.done.actor.saveAddress': async ({ event }: { event: ModelEvent }) => {
      record(h.did, event);
      await act(async () => h.q.answer((event as SystemEvent).output as SaveAddressResult));
    },
    'xstate.error.actor.saveAddress': async ({ event }: { event: ModelEvent }) => {
      record(h.did, event);
      await act(async () => h.q.fail((event as SystemEvent).error));
    },
    'xstate.done.actor.checkCards': async ({ event }: { event: ModelEvent }) => {
      record(h.did, event);
      await act(async () => h.cq.answer((event as SystemEvent).output as CardCheckResult));
    },
    'xstate.error.actor.checkCards': async ({ event }: { event: ModelEvent }) => {
      record(h.did, event);
      await act(async () => h.cq.fail((event as SystemEvent).error));
    },
  };
}

const model = new TestModel(addressEditMachine, {
  input,
  events: (s) => eventsFor(s as Snap) as never,
  serializeState: (s) => serialize(s as Snap),
  stateMatcher: (s, key) => matchesPath(s as Snap, key),
});
const paths = edgeCoveringPaths(model, (s) => serialize(s as Snap));
const sequences: ModelEvent[][] = [];
// A replaced address: the paths that go through the card check (the rest are the new address's).
const replacementModel = new TestModel(addressEditMachine, {
  input: replacing,
  events: (s) => eventsFor(s as Snap) as never,
  serializeState: (s) => serialize(s as Snap),
  stateMatcher: (s, key) => matchesPath(s as Snap, key),
});
const replacementPaths = edgeCoveringPaths(replacementModel, (s) => serialize(s as Snap)).filter((p) => p.steps.some((step) => step.event.type.endsWith('.checkCards')));
const replacementSequences: ModelEvent[][] = [];

const labelOf = (e: ModelEvent) => {
  const short = e.type.replace(/^xstate\.done\.actor\./, 'done.').replace(/^xstate\.error\.actor\./, 'error.');
  if ('output' in e) {
    const out = e.output as SaveAddressResult | CardCheckResult;
    if (out.ok && 'toBeCanceled' in out) return `${short}(${out.toBeCanceled.length + out.shippedToOldAddress.length} cards)`;
    return `${short}(${out.ok ? 'ok' : out.code === 'fields' ? out.errors[0]!.param : out.code})`;
  }
  if ('values' in e) return `${short}(${e.values.address1 ? 'good' : 'no street'})`;
  if ('documents' in e) return `${short}(${e.documents.mainDocument?.issuedDate})`;
  return short;
};

describe('address edit model', () => {
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

describe('address edit model: a replaced address and its cards', () => {
  replacementPaths.forEach((path, i) => {
    const events = path.steps.map((s) => s.event as ModelEvent).filter((e) => e.type !== 'xstate.init');
    replacementSequences.push(events);
    const last = path.steps.at(-1)?.state as Snap | undefined;
    it(`#${i} ${events.map(labelOf).join(' → ')} ⇒ ${JSON.stringify(last?.value)}`, async () => {
      const h = mount(replacing);
      await runPathCheckingEveryStep(path, stateChecks(h), eventExecutors(h));
    });
  });
});

describe('address edit model: the chart', () => {
  it('is named addressEdit (the inspector and the audit pack show it by that id)', () => {
    expect(addressEditMachine.id).toBe('addressEdit');
  });

  it('every state of the chart is reached by some path', () => {
    expect(unreachedStates(addressEditMachine, [...paths, ...replacementPaths])).toEqual([]);
  });
});

describe('address edit model: transition coverage', () => {
  it('every transition of the chart is taken by some path', () => {
    const taken = new Set<string>();
    for (const events of sequences) for (const key of transitionsTaken(addressEditMachine, input, [events as never])) taken.add(key);
    for (const events of replacementSequences) for (const key of transitionsTaken(addressEditMachine, replacing, [events as never])) taken.add(key);
    const missing = listTransitions(addressEditMachine).filter((t) => !taken.has(t.key)).map((t) => t.key);
    expect(missing).toEqual([]);
  });
});

describe('address edit flow: keyboard and axe', () => {
  it('each step takes focus at its heading; no axe violations on any step', async () => {
    const h = mount();
    const ex = eventExecutors(h);
    expect(document.activeElement).toBe(await screen.findByRole('heading', { name: /^new address$/i }));
    await expectNoAxeViolations('the address form', h.container);
    // Enter in a field submits the step: the missing street is said on its field.
    await h.user.click(screen.getByLabelText(/^city$/i));
    await h.user.keyboard('{Enter}');
    expect(screen.getByLabelText(/^street and number$/i).getAttribute('aria-invalid')).toBe('true');
    await expectNoAxeViolations('the address form with errors', h.container);
    await ex['FORM.SUBMIT']({ event: { type: 'FORM.SUBMIT', values: GOOD } });
    expect(document.activeElement).toBe(await screen.findByRole('heading', { name: /documents for the address/i }));
    await expectNoAxeViolations('the documents step', h.container);
    await ex['DOCUMENTS.SUBMIT']({ event: { type: 'DOCUMENTS.SUBMIT', documents: GOOD_DOCS } });
    expect(document.activeElement).toBe(await screen.findByRole('heading', { name: /check and save/i }));
    await expectNoAxeViolations('the review', h.container);
    await h.user.keyboard('{Tab}{Enter}');
    await waitFor(() => expect(h.q.waiting).toBe(1));
    await act(async () => h.q.answer({ ok: false, code: 'fields', errors: [{ param: 'mainDocument.issuedDate', description: TOO_OLD }] }));
    const back = await screen.findByRole('heading', { name: /documents for the address/i });
    await waitFor(() => expect(document.activeElement).toBe(back));
    await screen.findByText(new RegExp(TOO_OLD));
    await expectNoAxeViolations('the documents step with the platform’s error', h.container);
  });
});
