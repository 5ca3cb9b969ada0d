/**
 * Model-based test of a support ticket's conversation page (machines/ticket; document 3 §4, §7):
 * paths generated from the chart drive the REAL TicketConversationView through Testing Library,
 * in English, for the customer and for an agent, from several starting states (a closed ticket
 * within and past the reopen window among them). The four promise actors (sendThread,
 * reopenTicket, closeTicket, assignTicket) are test doubles answered by the paths'
 * `xstate.done.actor.<id>` / `xstate.error.actor.<id>` events; an answer's state is the one
 * api/support.ts ticketMove gives, as the platform's would be.
 *
 * Every step checks the page against what the TEST did (`Did`): the state's badge, the buttons the
 * role may press in that state (by ticketMove), the message box and its text, each attached file
 * with its upload state (pending, uploaded, rejected with the reason), the error said, the
 * confirmation dialog, the busy button, and what the call was sent.
 *
 * Proof it can fail (2026-11-28): I made the chart allow the customer's reply on a closed ticket
 * (mayMove without the closed check: `return MOVES_OF[c.role].includes(move)`) and the paths of the
 * closed tickets went red (a message box offered beside "Reopen with a message"); restored since.
 */
import { describe, expect, it } from 'vitest';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nProvider } from '@lingui/react';
import { TestModel } from '@xstate/graph';
import { createActor, fromPromise, type SnapshotFrom } from 'xstate';
import { REOPEN_WINDOW_MS, ticketMove, type Thread, type TicketState } from '../../api/support.ts';
import {
  messageMove,
  ticketMachine,
  type CloseRequest,
  type ReopenRequest,
  type SendThreadRequest,
  type TicketCallResult,
  type TicketEvent,
  type TicketInput,
  type TicketRole,
} from '../../machines/ticket/ticket.machine.ts';
import { TicketConversationView } from '../../src/features/support/ticket-view.tsx';
import { i18n } from '../../src/lib/i18n.ts';
import { auditMachine } from '../../scripts/audit-pack/model.ts';
import { listTransitions } from '../../scripts/machine-graph.ts';
import { coveringAcrossInputs, edgeCoveringPaths, matchesPath, runPathCheckingEveryStep, transitionsTaken } from './coverage.ts';
import { AnswerQueue } from './support.ts';

type Snap = SnapshotFrom<typeof ticketMachine>;
type SystemEvent = { type: `xstate.${string}`; output?: unknown; error?: unknown };
type ModelEvent = TicketEvent | SystemEvent;

/* ------------------------------------------------------------------------------ fixtures */

const NOW = Date.parse('2026-11-28T10:00:00.000Z');
const RECENT = new Date(NOW - 24 * 3600_000).toISOString();
const OLD = new Date(NOW - REOPEN_WINDOW_MS - 24 * 3600_000).toISOString();
const TEXT = 'My card does not work';
const FILE = { key: 'k1', name: 'scan.pdf', size: 3, file: new Blob(['pdf']) };

const THREADS: Thread[] = [
  {
    id: 1,
    ticketId: 7,
    author: { kind: 'customer', name: 'Anna Demo' },
    visibility: 'public',
    content: 'Hello, I need help.',
    createdAt: '2026-11-27T09:00:00.000Z',
    attachments: [],
  },
  { id: 2, ticketId: 7, author: { kind: 'agent', name: 'Sam Agent' }, visibility: 'public', content: 'How can we help?', createdAt: '2026-11-27T10:00:00.000Z', attachments: [] },
];
const NOTE: Thread = {
  id: 3,
  ticketId: 7,
  author: { kind: 'agent', name: 'Sam Agent' },
  visibility: 'internal',
  content: 'Check the card logs.',
  createdAt: '2026-11-27T11:00:00.000Z',
  attachments: [],
};

interface Variant {
  name: string;
  role: TicketRole;
  state: TicketState;
  closedAt: string | null;
}
const VARIANTS: Variant[] = [
  { name: 'customer, new', role: 'customer', state: 'new', closedAt: null },
  { name: 'customer, open', role: 'customer', state: 'open', closedAt: null },
  { name: 'customer, waiting on the customer', role: 'customer', state: 'waitingOnCustomer', closedAt: null },
  { name: 'customer, closed within the window', role: 'customer', state: 'closed', closedAt: RECENT },
  { name: 'customer, closed long ago', role: 'customer', state: 'closed', closedAt: OLD },
  { name: 'customer, closed without reply', role: 'customer', state: 'closedNoReply', closedAt: RECENT },
  { name: 'agent, new', role: 'agent', state: 'new', closedAt: null },
  { name: 'agent, waiting on the agent', role: 'agent', state: 'waitingOnAgent', closedAt: null },
];
const inputOf = (v: Variant): TicketInput => ({ ticketId: 7, role: v.role, state: v.state, closedAt: v.closedAt, nowMs: NOW });

const LIFE = ['new', 'open', 'waitingOnCustomer', 'waitingOnAgent', 'closed', 'closedNoReply'] as const;
const STATE_NAMES: Record<TicketState, string> = {
  new: 'New',
  open: 'Open',
  waitingOnCustomer: 'Waiting for the customer',
  waitingOnAgent: 'Waiting for support',
  closed: 'Closed',
  closedNoReply: 'Closed without reply',
};
const closedState = (s: TicketState) => s === 'closed' || s === 'closedNoReply';

/* ------------------------------------------------------------------------------ the events */

const ok = (state: TicketState, closedAt: string | null, files?: boolean): TicketCallResult => ({
  ok: true,
  state,
  closedAt,
  ...(files ? { files: [{ key: FILE.key, status: 'uploaded' as const, uploadId: 11, reason: null }] } : {}),
});

function answersFor(s: Snap): SystemEvent[] {
  const c = s.context;
  const done = (id: string, output: TicketCallResult): SystemEvent => ({ type: `xstate.done.actor.${id}`, output });
  const error = (id: string): SystemEvent => ({ type: `xstate.error.actor.${id}`, error: new Error('offline') });
  const hasFile = c.files.length > 0;
  const rejected: TicketCallResult = { ok: false, code: 'rejected', files: [{ key: FILE.key, status: 'rejected', uploadId: null, reason: 'type' }] };
  if (s.matches('sending')) {
    const next = ticketMove(c.state, messageMove(c))!;
    return [
      done('sendThread', ok(next, null, hasFile)),
      ...(hasFile ? [done('sendThread', rejected)] : []),
      done('sendThread', { ok: false, code: 'failed', detail: 'Refused by the desk' }),
      error('sendThread'),
    ];
  }
  if (s.matches('reopening'))
    return [
      done('reopenTicket', ok('waitingOnAgent', null, hasFile)),
      ...(hasFile ? [done('reopenTicket', rejected)] : []),
      done('reopenTicket', { ok: false, code: 'rateLimited' }),
      error('reopenTicket'),
    ];
  if (s.matches('closing'))
    return [
      done('closeTicket', ok(c.noReply ? 'closedNoReply' : 'closed', new Date(NOW).toISOString())),
      done('closeTicket', { ok: false, code: 'conflict' }),
      error('closeTicket'),
    ];
  if (s.matches('assigning')) return [done('assignTicket', ok(ticketMove(c.state, 'assign')!, null)), done('assignTicket', { ok: false, code: 'network' }), error('assignTicket')];
  return [];
}

/** The events of a snapshot, kept to what matters (one text, one file, each control once). */
function eventsFor(s: Snap): ModelEvent[] {
  const c = s.context;
  const busy = answersFor(s);
  if (busy.length) return busy;
  if (s.matches('confirmingClose')) return [{ type: 'CLOSE.CONFIRM' }, { type: 'CLOSE.CANCEL' }];
  const all: ModelEvent[] = [];
  const agent = c.role === 'agent';
  // a message box is there when the ticket is not closed, or the customer may reopen it
  const box = !closedState(c.state) || (!agent && c.closedAt !== null && NOW - Date.parse(c.closedAt) <= REOPEN_WINDOW_MS);
  if (box) {
    if (c.content === '') all.push({ type: 'DRAFT.CHANGE', content: TEXT });
    if (!agent && c.files.length === 0) all.push({ type: 'FILES.ADD', files: [FILE] });
    if (c.files.length > 0) all.push({ type: 'FILE.REMOVE', key: FILE.key });
    all.push({ type: 'SEND' });
  }
  if (!closedState(c.state)) {
    if (agent) all.push({ type: 'INTERNAL.CHANGE', internal: !c.internal }, { type: 'ASSIGN' });
    all.push({ type: 'CLOSE' });
    if (agent && c.state === 'waitingOnCustomer') all.push({ type: 'CLOSE.NO_REPLY' });
  }
  // the page read the ticket again: the other side moved it (an agent answered; the customer answered a closed one)
  if (c.content === '' && c.files.length === 0 && c.error === null)
    all.push({ type: 'TICKET.SYNC', state: closedState(c.state) ? 'waitingOnAgent' : 'closed', closedAt: closedState(c.state) ? null : RECENT });
  return all;
}

const serialize = (s: Snap) =>
  JSON.stringify({
    value: s.value,
    state: s.context.state,
    closedAt: s.context.closedAt,
    content: s.context.content !== '',
    files: s.context.files.map((f) => f.status),
    internal: s.context.internal,
    noReply: s.context.noReply,
    error: s.context.error,
  });

/* ------------------------------------------------------------------------------ what the test did */

interface Did {
  role: TicketRole;
  state: TicketState;
  closedAt: string | null;
  content: string;
  file: 'none' | 'pending' | 'uploaded' | 'rejected';
  internal: boolean;
  noReply: boolean;
  error: 'empty' | 'rejected' | 'failed' | 'network' | 'rateLimited' | 'conflict' | null;
}

function record(did: Did, event: ModelEvent): void {
  const out = (event as SystemEvent).output as TicketCallResult | undefined;
  switch (event.type) {
    case 'DRAFT.CHANGE':
      Object.assign(did, { content: TEXT, error: null });
      return;
    case 'FILES.ADD':
      Object.assign(did, { file: 'pending', error: null });
      return;
    case 'FILE.REMOVE':
      Object.assign(did, { file: 'none', error: null });
      return;
    case 'INTERNAL.CHANGE':
      did.internal = !did.internal;
      return;
    case 'SEND':
      if (did.content === '') did.error = 'empty';
      else if (did.file === 'rejected') did.error = 'rejected';
      else did.error = null;
      return;
    case 'CLOSE':
    case 'CLOSE.NO_REPLY':
      Object.assign(did, { noReply: event.type === 'CLOSE.NO_REPLY', error: null });
      return;
    case 'ASSIGN':
      did.error = null;
      return;
    case 'TICKET.SYNC':
      Object.assign(did, { state: (event as Extract<TicketEvent, { type: 'TICKET.SYNC' }>).state, closedAt: (event as Extract<TicketEvent, { type: 'TICKET.SYNC' }>).closedAt });
      return;
  }
  if (event.type.startsWith('xstate.error')) {
    did.error = 'network';
    return;
  }
  if (!out) return;
  const message = event.type.endsWith('sendThread') || event.type.endsWith('reopenTicket');
  if (out.ok) {
    Object.assign(did, { state: out.state, closedAt: out.closedAt });
    if (message) Object.assign(did, { content: '', file: 'none', internal: false, error: null });
    else did.error = null;
  } else if (out.code === 'rejected') Object.assign(did, { file: 'rejected', error: 'rejected' });
  else did.error = out.code === 'failed' ? 'failed' : out.code;
}

/* ------------------------------------------------------------------------------ the page */

function mount(v: Variant) {
  const q = {
    sendThread: new AnswerQueue<SendThreadRequest, TicketCallResult>(),
    reopenTicket: new AnswerQueue<ReopenRequest, TicketCallResult>(),
    closeTicket: new AnswerQueue<CloseRequest, TicketCallResult>(),
    assignTicket: new AnswerQueue<{ ticketId: number }, TicketCallResult>(),
  };
  const logic = ticketMachine.provide({
    actors: {
      sendThread: fromPromise(({ input }) => q.sendThread.next(input)),
      reopenTicket: fromPromise(({ input }) => q.reopenTicket.next(input)),
      closeTicket: fromPromise(({ input }) => q.closeTicket.next(input)),
      assignTicket: fromPromise(({ input }) => q.assignTicket.next(input)),
    },
  });
  const actor = createActor(logic, { input: inputOf(v) }).start();
  const user = userEvent.setup({ delay: null });
  const threads = v.role === 'agent' ? [...THREADS, NOTE] : THREADS;
  render(
    <I18nProvider i18n={i18n}>
      <TicketConversationView
        actor={actor}
        subject="Card blocked"
        ticketNumber="1001"
        threads={threads}
        customerName="Anna Demo"
        onDownload={() => undefined}
        onOpenNew={() => undefined}
      />
    </I18nProvider>,
  );
  const did: Did = { role: v.role, state: v.state, closedAt: v.closedAt, content: '', file: 'none', internal: false, noReply: false, error: null };
  return { q, actor, user, did };
}
type H = ReturnType<typeof mount>;

const textarea = () => document.querySelector('textarea[name=message]') as HTMLTextAreaElement | null;
const button = (name: string | RegExp) => screen.queryByRole('button', { name });
const reopenable = (did: Did) => did.role === 'customer' && closedState(did.state) && did.closedAt !== null && NOW - Date.parse(did.closedAt) <= REOPEN_WINDOW_MS;

/** The page in a state of the ticket's life, as the test expects it from what it did. */
async function lifeCheck(h: H) {
  const did = h.did;
  const conversation = screen.getByRole('list', { name: 'Conversation' });
  expect(within(conversation).getAllByRole('article')).toHaveLength(did.role === 'agent' ? 3 : 2);
  if (did.role === 'agent') expect(within(conversation).getByText('Internal note')).toBeTruthy();
  else expect(within(conversation).getByRole('heading', { name: 'You' })).toBeTruthy();
  await waitFor(() => expect(document.querySelector('.support-meta .badge')?.textContent).toBe(STATE_NAMES[did.state]));
  expect(screen.queryByRole('dialog')).toBeNull();
  const closed = closedState(did.state);
  // the buttons the role may press in this state (api/support.ts ticketMove)
  expect(button('Close the ticket') !== null).toBe(!closed);
  expect(button('Assign to me') !== null).toBe(did.role === 'agent' && !closed);
  expect(button('Close without reply') !== null).toBe(did.role === 'agent' && did.state === 'waitingOnCustomer');
  const replying = !closed;
  const reopening = reopenable(did);
  const sendName = reopening ? 'Reopen with a message' : did.role === 'agent' && did.internal ? 'Add the note' : 'Send';
  if (replying || reopening) {
    expect(textarea()?.value).toBe(did.content);
    expect(button(sendName)).toBeTruthy();
    expect((button(sendName) as HTMLButtonElement).disabled).toBe(false);
    if (did.role === 'agent') expect((screen.getByRole('switch', { name: /Internal note/ }) as HTMLInputElement).checked).toBe(did.internal);
    const files = screen.queryByRole('list', { name: 'Attached files' });
    if (did.file === 'none') expect(files).toBeNull();
    else {
      expect(files?.textContent).toContain('scan.pdf');
      expect(files?.textContent).toContain({ pending: 'Pending', uploaded: 'Uploaded', rejected: 'Rejected' }[did.file]);
      if (did.file === 'rejected') expect(files?.textContent).toContain('This type of file is not accepted');
    }
  } else {
    expect(textarea()).toBeNull();
    if (did.role === 'customer') expect(button('Open a new ticket')).toBeTruthy();
  }
  const alert = screen.queryByRole('alert');
  const expected = {
    empty: null,
    rejected: 'Remove the rejected files, then send again.',
    failed: 'Refused by the desk',
    network: 'Support did not answer.',
    rateLimited: 'Support is busy.',
    conflict: 'The ticket changed meanwhile.',
  } as const;
  if (did.error === 'empty') expect(document.querySelector('.field-error')?.textContent).toContain('Write a message first.');
  const text = did.error ? expected[did.error] : null;
  if (text && (replying || reopening || did.error !== null)) expect(alert?.textContent ?? '').toContain(text);
  if (!did.error) expect(alert).toBeNull();
}

function stateChecks(h: H) {
  const life = Object.fromEntries(
    LIFE.map((state) => [
      state,
      async (s: Snap) => {
        expect(s.context.state).toBe(state);
        await lifeCheck(h);
      },
    ]),
  );
  return {
    ...life,
    sending: async () => {
      await waitFor(() => expect(screen.getByRole('button', { name: h.did.role === 'agent' && h.did.internal ? 'Add the note' : 'Send' }).getAttribute('aria-busy')).toBe('true'));
      expect(h.q.sendThread.calls.at(-1)).toMatchObject({ ticketId: 7, content: TEXT, internal: h.did.role === 'agent' && h.did.internal });
      expect(h.q.sendThread.calls.at(-1)!.files.length).toBe(h.did.file === 'none' ? 0 : 1);
    },
    reopening: async () => {
      await waitFor(() => expect(screen.getByRole('button', { name: 'Reopen with a message' }).getAttribute('aria-busy')).toBe('true'));
      expect(h.q.reopenTicket.calls.at(-1)).toMatchObject({ ticketId: 7, content: TEXT });
    },
    confirmingClose: async () => {
      const dialog = await screen.findByRole('dialog');
      expect(within(dialog).getByRole('heading').textContent).toBe(h.did.noReply ? 'Close without reply?' : 'Close the ticket?');
      expect(within(dialog).getByRole('button', { name: 'Keep it open' })).toBeTruthy();
    },
    closing: async () => {
      const dialog = await screen.findByRole('dialog');
      await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Close' }).getAttribute('aria-busy')).toBe('true'));
      expect(h.q.closeTicket.calls.at(-1)).toEqual({ ticketId: 7, noReply: h.did.noReply });
    },
    assigning: async () => {
      await waitFor(() => expect(screen.getByRole('button', { name: 'Assign to me' }).getAttribute('aria-busy')).toBe('true'));
      expect(h.q.assignTicket.calls.at(-1)).toEqual({ ticketId: 7 });
    },
  } satisfies Record<string, (s: Snap) => Promise<void>>;
}

function eventExecutors(h: H) {
  const answer =
    (id: keyof H['q']) =>
    async ({ event }: { event: ModelEvent }) => {
      record(h.did, event);
      const e = event as SystemEvent;
      const queue = h.q[id] as AnswerQueue<unknown, unknown>;
      // the file outcomes name the page's own key of the file (the view makes it), as the real actor's do
      const sentFiles = (queue.calls.at(-1) as { files?: { key: string }[] } | undefined)?.files ?? [];
      const output = e.output as TicketCallResult | undefined;
      const keyed = output && 'files' in output && output.files ? { ...output, files: output.files.map((f, i) => ({ ...f, key: sentFiles[i]?.key ?? f.key })) } : output;
      await act(async () => {
        if (e.type.startsWith('xstate.error')) queue.fail(e.error);
        else queue.answer(keyed);
      });
    };
  const click =
    (name: () => string) =>
    async ({ event }: { event: ModelEvent }) => {
      const label = name();
      record(h.did, event);
      await h.user.click(screen.getByRole('button', { name: label }));
    };
  return {
    'DRAFT.CHANGE': async ({ event }: { event: ModelEvent }) => {
      record(h.did, event);
      await h.user.clear(textarea()!);
      await h.user.type(textarea()!, TEXT);
    },
    'FILES.ADD': async ({ event }: { event: ModelEvent }) => {
      record(h.did, event);
      await h.user.upload(document.querySelector('input[type=file]') as HTMLInputElement, new File(['pdf'], 'scan.pdf', { type: 'application/pdf' }));
    },
    'FILE.REMOVE': click(() => 'Remove scan.pdf'),
    'INTERNAL.CHANGE': async ({ event }: { event: ModelEvent }) => {
      record(h.did, event);
      await h.user.click(screen.getByRole('switch', { name: /Internal note/ }));
    },
    SEND: click(() => (reopenable(h.did) ? 'Reopen with a message' : h.did.role === 'agent' && h.did.internal ? 'Add the note' : 'Send')),
    CLOSE: click(() => 'Close the ticket'),
    'CLOSE.NO_REPLY': click(() => 'Close without reply'),
    'CLOSE.CONFIRM': click(() => 'Close'),
    'CLOSE.CANCEL': click(() => 'Keep it open'),
    ASSIGN: click(() => 'Assign to me'),
    'TICKET.SYNC': async ({ event }: { event: ModelEvent }) => {
      record(h.did, event);
      await act(async () => h.actor.send(event as TicketEvent));
    },
    ...Object.fromEntries(
      (['sendThread', 'reopenTicket', 'closeTicket', 'assignTicket'] as const).flatMap((id) => [
        [`xstate.done.actor.${id}`, answer(id)],
        [`xstate.error.actor.${id}`, answer(id)],
      ]),
    ),
  };
}

/* ------------------------------------------------------------------------------ the paths */

const sequences: { variant: Variant; events: ModelEvent[] }[] = [];
const labelOf = (e: ModelEvent) => {
  const short = e.type.replace(/^xstate\.(done|error)\.actor\.(\w+).*/, '$1.$2');
  const o = (e as SystemEvent).output as TicketCallResult | undefined;
  if (o) return `${short}(${o.ok ? o.state : o.code})`;
  if ('state' in e) return `${short}(${e.state})`;
  return short;
};

// every starting point's paths, then the fewest of them all that take every transition (the
// starting points share most transitions: each one's own cover ran 111 paths, about 80 s)
const candidates = VARIANTS.flatMap((variant) => {
  const model = new TestModel(ticketMachine, {
    input: inputOf(variant),
    events: (s) => eventsFor(s as Snap) as never,
    serializeState: (s) => serialize(s as Snap),
    stateMatcher: (s, key) => matchesPath(s as Snap, key),
  });
  return edgeCoveringPaths(model, (s) => serialize(s as Snap), { all: true }).map((path) => ({ variant, input: inputOf(variant), path }));
});
const chosen = coveringAcrossInputs(ticketMachine, candidates);

for (const variant of VARIANTS) {
  const paths = chosen.filter((c) => c.variant === variant).map((c) => c.path);
  if (paths.length === 0) continue;
  describe(`ticket model (${variant.name})`, () => {
    paths.forEach((path, i) => {
      const events = path.steps.map((st) => st.event as ModelEvent).filter((e) => e.type !== 'xstate.init');
      sequences.push({ variant, events });
      const last = path.steps.at(-1)?.state as Snap | undefined;
      it(`#${i} ${events.map(labelOf).join(' → ') || 'initial'} ⇒ ${JSON.stringify(last?.value)}`, async () => {
        const h = mount(variant);
        await runPathCheckingEveryStep(path, stateChecks(h), eventExecutors(h));
        h.actor.stop();
      });
    });
  });
}

describe('ticket model: the chart', () => {
  it('every transition of the chart is taken by some path', () => {
    const taken = new Set<string>();
    for (const variant of VARIANTS) {
      const events = sequences.filter((q) => q.variant === variant).map((q) => q.events);
      for (const key of transitionsTaken(ticketMachine, inputOf(variant), events as never)) taken.add(key);
    }
    const missing = listTransitions(ticketMachine)
      .filter((t) => !taken.has(t.key))
      .map((t) => t.key);
    expect(missing).toEqual([]);
  });

  it('every state and transition has a description, the root its spec sections', () => {
    const model = auditMachine(ticketMachine);
    expect({ states: model.states.filter((s) => !s.description).map((s) => s.path), transitions: model.transitions.filter((t) => !t.description).map((t) => t.key) }).toEqual({
      states: [],
      transitions: [],
    });
    for (const ref of [...model.spec, ...model.states.flatMap((s) => s.spec)]) expect(ref).toMatch(/^document [123] §\d+(\.\d+)*$/);
  });
});
