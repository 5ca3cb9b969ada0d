/**
 * Model-based test of the create form (machines/contract-create): paths generated from the chart
 * drive the REAL ContractCreateView, in English, with test doubles for the lookup, the verify, the
 * PDF preview and the create call. Each step checks the step's heading, the lookup's and verify's
 * words, the busy buttons, and what the create call was sent (who pays decides the sender).
 *
 * Proof it can fail (2026-11-28): I made payloadOf make the counterparty the sender whoever pays
 * (contract-create.rules.ts): three paths through creating went red (senderId); restored since.
 */
import { describe, expect, it, vi } from 'vitest';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nProvider } from '@lingui/react';
import { TestModel } from '@xstate/graph';
import { createActor, fromPromise, type SnapshotFrom } from 'xstate';
import type { ContractCreate } from '../../api/contracts.ts';
import { contractCreateMachine, type ContractCreateEvent } from '../../machines/contract-create/contract-create.machine.ts';
import { ContractCreateView } from '../../src/features/contracts/contract-create-view.tsx';
import { i18n } from '../../src/lib/i18n.ts';
import { listTransitions } from '../../scripts/machine-graph.ts';
import { edgeCoveringPaths, matchesPath, runPathCheckingEveryStep, transitionsTaken, unreachedStates } from './coverage.ts';
import { AnswerQueue } from './support.ts';

type Snap = SnapshotFrom<typeof contractCreateMachine>;
type SystemEvent = { type: `xstate.${string}`; output?: unknown; error?: unknown };
type ModelEvent = ContractCreateEvent | SystemEvent;

const TODAY = '2026-11-28';
const EMAIL = 'bea@example.com';
const COMPANIES = [
  { id: 10, title: 'Acme Ltd' },
  { id: 11, title: 'Acme Two' },
];
const done = (id: string, output: unknown): SystemEvent => ({ type: `xstate.done.actor.${id}`, output });
const fail = (id: string): SystemEvent => ({ type: `xstate.error.actor.${id}`, error: new Error('offline') });

function eventsFor(s: Snap): ModelEvent[] {
  const c = s.context;
  const d = c.draft;
  if (s.matches('lookingUp'))
    return [
      done('lookupCustomer', { ok: true, counterparty: { id: 20, type: 'BUSINESS', name: 'Bea Ltd', email: EMAIL } }),
      done('lookupCustomer', { ok: false, code: 'notFound', message: null }),
      fail('lookupCustomer'),
    ];
  if (s.matches('verifying'))
    return [
      done('verifyCounterparty', { ok: true, isValid: true, reason: null }),
      done('verifyCounterparty', { ok: true, isValid: false, reason: 'alreadyContracted' }),
      done('verifyCounterparty', { ok: false, code: 'forbidden', message: null }),
      fail('verifyCounterparty'),
    ];
  if (s.matches('previewing'))
    return [done('previewPdf', { ok: true, url: 'https://bank.example/preview.pdf' }), done('previewPdf', { ok: false, code: 'failed', message: null }), fail('previewPdf')];
  if (s.matches('creating'))
    return [
      done('createContract', { ok: true, contractId: 7 }),
      done('createContract', { ok: false, code: 'fields', errors: [{ param: 'percentage', code: 'tooLarge', params: { max: 100 } }], message: null }),
      done('createContract', { ok: false, code: 'forbidden', message: null }),
      fail('createContract'),
    ];
  if (s.matches('review')) return [{ type: 'BACK' }, { type: 'PREVIEW' }, { type: 'CREATE' }];
  if (!s.matches('editing')) return [];
  const all: ModelEvent[] = [];
  if (c.email === '') all.push({ type: 'LOOKUP' }, { type: 'EMAIL.CHANGE', email: EMAIL });
  else if (c.counterparty === null) all.push({ type: 'LOOKUP' });
  if (d.companyId === 10) all.push({ type: 'COMPANY.CHANGE', companyId: 11 });
  if (d.direction === 'pay') all.push({ type: 'DIRECTION.CHANGE', direction: 'receive' });
  if (d.ownSignerName === '') all.push({ type: 'FIELD.CHANGE', field: 'ownSignerName', value: 'Ann Acme' });
  if (d.counterpartySignerName === '') all.push({ type: 'FIELD.CHANGE', field: 'counterpartySignerName', value: 'Bob Bea' });
  if (d.percentage === '') all.push({ type: 'FIELD.CHANGE', field: 'percentage', value: '30' });
  if (d.ownObligations[0] === '') all.push({ type: 'OBLIGATION.CHANGE', side: 'own', index: 0, text: 'Pay' });
  if (d.counterpartyObligations[0] === '') all.push({ type: 'OBLIGATION.CHANGE', side: 'counterparty', index: 0, text: 'Deliver' });
  if (d.ownObligations.length === 1) all.push({ type: 'OBLIGATION.ADD', side: 'own' });
  else all.push({ type: 'OBLIGATION.REMOVE', side: 'own', index: 1 });
  all.push({ type: 'CONTINUE' });
  return all;
}

const serialize = (s: Snap) =>
  JSON.stringify({
    v: s.value,
    d: s.context.draft,
    e: s.context.email,
    cp: s.context.counterparty?.id ?? null,
    l: s.context.lookupError,
    vd: s.context.verdict,
    fe: Object.keys(s.context.fieldErrors),
    f: s.context.failure?.code ?? null,
    p: s.context.previewUrl !== null,
  });

function mount() {
  const q = {
    lookupCustomer: new AnswerQueue<unknown, unknown>(),
    verifyCounterparty: new AnswerQueue<unknown, unknown>(),
    previewPdf: new AnswerQueue<unknown, unknown>(),
    createContract: new AnswerQueue<ContractCreate, unknown>(),
  };
  const logic = contractCreateMachine.provide({
    actors: {
      lookupCustomer: fromPromise(({ input }) => q.lookupCustomer.next(input) as never),
      verifyCounterparty: fromPromise(({ input }) => q.verifyCounterparty.next(input) as never),
      previewPdf: fromPromise(({ input }) => q.previewPdf.next(input) as never),
      createContract: fromPromise(({ input }) => q.createContract.next(input) as never),
    },
  });
  const actor = createActor(logic, { input: { companyId: 10, today: TODAY } }).start();
  const onCreated = vi.fn();
  render(
    <I18nProvider i18n={i18n}>
      <ContractCreateView actor={actor} companies={COMPANIES} onCreated={onCreated} onCancel={() => undefined} />
    </I18nProvider>,
  );
  return { q, actor, onCreated, user: userEvent.setup({ delay: null }) };
}
type H = ReturnType<typeof mount>;
const heading = () => screen.getByRole('heading', { level: 1 });

function stateChecks(h: H) {
  return {
    editing: async (s: Snap) => {
      await waitFor(() => expect(heading().textContent).toBe('New contract'));
      const c = s.context;
      expect((screen.getByLabelText('Company') as HTMLSelectElement).value).toBe(String(c.draft.companyId));
      expect((screen.getByLabelText('Counterparty’s e-mail') as HTMLInputElement).value).toBe(c.email);
      const text = document.body.textContent ?? '';
      if (c.lookupError === 'invalidEmail') expect(text).toContain('Enter an e-mail address.');
      if (c.lookupError === 'notFound') expect(text).toContain('No customer has this e-mail address.');
      if (c.verdict?.isValid) expect(text).toContain('A contract can be made with this customer.');
      if (c.verdict && !c.verdict.isValid) expect(text).toContain('There is already an open contract with this customer in this direction.');
      if (c.fieldErrors.percentage) expect(text).toContain(c.fieldErrors.percentage.code === 'tooLarge' ? 'Enter 100 or less.' : 'This field is required.');
      expect(screen.getAllByLabelText(/^Obligation \d/)).toHaveLength(c.draft.ownObligations.length + c.draft.counterpartyObligations.length);
    },
    lookingUp: async () => {
      await waitFor(() => expect(screen.getByRole('button', { name: 'Find' }).getAttribute('aria-busy')).toBe('true'));
      expect(h.q.lookupCustomer.calls.at(-1)).toEqual({ email: EMAIL });
    },
    verifying: async (s: Snap) => {
      await waitFor(() => expect(screen.getByRole('button', { name: 'Find' }).getAttribute('aria-busy')).toBe('true'));
      expect(h.q.verifyCounterparty.calls.at(-1)).toEqual({ companyId: s.context.draft.companyId, counterpartyId: 20 });
    },
    review: async (s: Snap) => {
      await waitFor(() => expect(heading().textContent).toBe('Check the contract'));
      const text = document.body.textContent ?? '';
      expect(text).toContain('30%');
      if (s.context.failure) expect(screen.getByRole('alert').textContent).toMatch(/No answer came|access rights|Something went wrong/);
      if (s.context.previewUrl) expect(screen.getByRole('link', { name: 'Open the preview (PDF)' })).toBeTruthy();
    },
    previewing: async () => {
      await waitFor(() => expect(screen.getByRole('button', { name: 'Preview the PDF' }).getAttribute('aria-busy')).toBe('true'));
    },
    creating: async (s: Snap) => {
      await waitFor(() => expect(screen.getByRole('button', { name: 'Create the contract' }).getAttribute('aria-busy')).toBe('true'));
      const sent = h.q.createContract.calls.at(-1)!;
      const [payer, beneficiary] = s.context.draft.direction === 'pay' ? [s.context.draft.companyId, 20] : [20, s.context.draft.companyId];
      expect(sent).toMatchObject({ companyId: s.context.draft.companyId, senderId: payer, beneficiaryId: beneficiary, percentage: 30, activeFrom: TODAY, note: null });
    },
    created: async () => {
      await waitFor(() => expect(h.onCreated).toHaveBeenCalledWith(7));
    },
  } satisfies Record<string, (s: Snap) => Promise<void>>;
}

function eventExecutors(h: H) {
  const answer =
    (id: keyof H['q']) =>
    async ({ event }: { event: ModelEvent }) => {
      const e = event as SystemEvent;
      await act(async () => {
        if (e.type.startsWith('xstate.error')) h.q[id].fail(e.error);
        else h.q[id].answer(e.output as never);
      });
    };
  const type = (label: string | RegExp, text: string) => h.user.type(screen.getAllByLabelText(label)[0]!, text);
  return {
    'EMAIL.CHANGE': async () => type('Counterparty’s e-mail', EMAIL),
    LOOKUP: async () => h.user.click(screen.getByRole('button', { name: 'Find' })),
    'COMPANY.CHANGE': async () => h.user.selectOptions(screen.getByLabelText('Company'), '11'),
    'DIRECTION.CHANGE': async () => h.user.click(screen.getAllByRole('radio')[1]!),
    'FIELD.CHANGE': async ({ event }: { event: ModelEvent }) => {
      const e = event as Extract<ContractCreateEvent, { type: 'FIELD.CHANGE' }>;
      const el = document.querySelector<HTMLInputElement>(`input[name="${e.field}"]`)!;
      await h.user.type(el, e.value);
    },
    'OBLIGATION.CHANGE': async ({ event }: { event: ModelEvent }) => {
      const e = event as Extract<ContractCreateEvent, { type: 'OBLIGATION.CHANGE' }>;
      await h.user.type(document.querySelector<HTMLInputElement>(`input[name="${e.side}-obligation-${e.index}"]`)!, e.text);
    },
    'OBLIGATION.ADD': async () => h.user.click(screen.getAllByRole('button', { name: 'Add an obligation' })[0]!),
    'OBLIGATION.REMOVE': async () => h.user.click(screen.getByRole('button', { name: 'Remove obligation 2' })),
    CONTINUE: async () => h.user.click(screen.getByRole('button', { name: 'Continue' })),
    BACK: async () => h.user.click(screen.getByRole('button', { name: 'Change' })),
    PREVIEW: async () => h.user.click(screen.getByRole('button', { name: 'Preview the PDF' })),
    CREATE: async () => h.user.click(screen.getByRole('button', { name: 'Create the contract' })),
    'xstate.done.actor.lookupCustomer': answer('lookupCustomer'),
    'xstate.error.actor.lookupCustomer': answer('lookupCustomer'),
    'xstate.done.actor.verifyCounterparty': answer('verifyCounterparty'),
    'xstate.error.actor.verifyCounterparty': answer('verifyCounterparty'),
    'xstate.done.actor.previewPdf': answer('previewPdf'),
    'xstate.error.actor.previewPdf': answer('previewPdf'),
    'xstate.done.actor.createContract': answer('createContract'),
    'xstate.error.actor.createContract': answer('createContract'),
  };
}

const input = { companyId: 10, today: TODAY };
const model = new TestModel(contractCreateMachine, {
  input,
  events: (s) => eventsFor(s as Snap) as never,
  serializeState: (s) => serialize(s as Snap),
  stateMatcher: (s, key) => matchesPath(s as Snap, key),
});
const paths = edgeCoveringPaths(model, (s) => serialize(s as Snap));
const sequences: ModelEvent[][] = [];

describe('contract-create model', () => {
  it('reaches every state of the chart', () => {
    expect(unreachedStates(contractCreateMachine, paths)).toEqual([]);
  });
  paths.forEach((path, i) => {
    const events = path.steps.map((st) => st.event as ModelEvent).filter((e) => e.type !== 'xstate.init');
    sequences.push(events);
    it(`#${i} ${events.map((e) => e.type.replace(/^xstate\.(done|error)\.actor\./, '$1.')).join(' → ')}`, async () => {
      const h = mount();
      await runPathCheckingEveryStep(path, stateChecks(h), eventExecutors(h));
      h.actor.stop();
    });
  });
  it('every transition of the chart is taken by some path', () => {
    const taken = transitionsTaken(contractCreateMachine, input, sequences as never);
    expect(
      listTransitions(contractCreateMachine)
        .filter((t) => !taken.has(t.key))
        .map((t) => t.key),
    ).toEqual([]);
  });
});
