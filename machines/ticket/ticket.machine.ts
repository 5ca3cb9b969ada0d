/**
 * A support ticket's life and what its conversation page may do with it (document 3 §3 Support
 * ticket, §4 Support tickets, §7 Support; issue 19 item 3): the customer's /messages and the
 * provider's agents' desk in the administrator's area use this one chart, each with its role.
 *
 * ```
 * starting ─(the ticket's state)─▶ new | open | waitingOnCustomer | waitingOnAgent | closed | closedNoReply
 *
 * new, open, waitingOnCustomer, waitingOnAgent (the ticket is not closed)
 *   ─SEND (a message; the agent's may be an internal note)─▶ sending ─▶ routing
 *   ─CLOSE / CLOSE.NO_REPLY (agent)─▶ confirmingClose ─CLOSE.CONFIRM─▶ closing ─▶ routing
 *                                                      └─CLOSE.CANCEL─▶ routing
 *   ─ASSIGN (agent)─▶ assigning ─▶ routing
 * closed, closedNoReply ─SEND (the customer, within the reopen window: reopen with a message)─▶ reopening ─▶ routing
 * routing ─(the ticket's state after the answer)─▶ one of the six
 * any of the six ─TICKET.SYNC (the page read the ticket again: an agent answered meanwhile)─▶ routing
 * ```
 *
 * Every move is allowed exactly as api/support.ts `ticketMove` allows it, the function the
 * platform applies too, so the page offers nothing the desk would refuse (409). The state after a
 * call is the one the desk answers. A message's attachments are uploaded first (POST /uploads),
 * each shown pending until its answer, then uploaded or rejected (document 3 §4); a rejected file
 * stops the message: nothing is sent until it is removed.
 */
import { assign, fromPromise, setup } from 'xstate';
import { ATTACHMENTS_MAX, REOPEN_WINDOW_MS, ticketMove, type TicketMove, type TicketState } from '../../api/support.ts';

export type TicketRole = 'customer' | 'agent';
export type AttachmentStatus = 'pending' | 'uploaded' | 'rejected';
/** why the desk refused a file: its type, its size, or anything else it said */
export type RejectReason = 'type' | 'size' | 'other';

export interface DraftFile {
  /** the page's own key for the file (not the desk's id) */
  key: string;
  name: string;
  size: number;
  file: Blob;
  status: AttachmentStatus;
  /** the desk's upload id once uploaded (sent again with the next attempt, not uploaded twice) */
  uploadId: number | null;
  reason: RejectReason | null;
}

export interface FileOutcome {
  key: string;
  status: 'uploaded' | 'rejected';
  uploadId: number | null;
  reason: RejectReason | null;
}

export type TicketCallFailure =
  /** a file was refused: nothing was sent (each file's outcome) */
  | { ok: false; code: 'rejected'; files: FileOutcome[] }
  /** the desk's ticket moved on meanwhile (409): the page reads it again */
  | { ok: false; code: 'conflict' }
  /** 429: the failure flag is set; the page tries again after the support timer's tick */
  | { ok: false; code: 'rateLimited' }
  | { ok: false; code: 'network' }
  | { ok: false; code: 'failed'; detail: string | null };

export type TicketCallResult = { ok: true; state: TicketState; closedAt: string | null; files?: FileOutcome[] } | TicketCallFailure;

export interface SendThreadRequest {
  ticketId: number;
  content: string;
  files: DraftFile[];
  /** the agent's internal note */
  internal: boolean;
}
export interface ReopenRequest {
  ticketId: number;
  content: string;
  files: DraftFile[];
}
export interface CloseRequest {
  ticketId: number;
  noReply: boolean;
}

export type TicketEvent =
  | { type: 'DRAFT.CHANGE'; content: string }
  | { type: 'FILES.ADD'; files: { key: string; name: string; size: number; file: Blob }[] }
  | { type: 'FILE.REMOVE'; key: string }
  | { type: 'INTERNAL.CHANGE'; internal: boolean }
  | { type: 'SEND' }
  | { type: 'CLOSE' }
  | { type: 'CLOSE.NO_REPLY' }
  | { type: 'CLOSE.CONFIRM' }
  | { type: 'CLOSE.CANCEL' }
  | { type: 'ASSIGN' }
  | { type: 'TICKET.SYNC'; state: TicketState; closedAt: string | null };

export type TicketError = 'empty' | 'rejected' | 'tooMany' | 'conflict' | 'rateLimited' | 'network' | 'failed';

export interface TicketContext {
  ticketId: number;
  role: TicketRole;
  state: TicketState;
  closedAt: string | null;
  /** when the page showed the ticket: the reopen window is judged against it */
  nowMs: number;
  content: string;
  files: DraftFile[];
  internal: boolean;
  /** the close being confirmed is the agent's "closed without reply" */
  noReply: boolean;
  error: TicketError | null;
  detail: string | null;
}

export interface TicketInput {
  ticketId: number;
  role: TicketRole;
  state: TicketState;
  closedAt: string | null;
  nowMs: number;
}

/** Which role makes which move (the customer reopens; the agents assign, note and close unanswered). */
const MOVES_OF: Record<TicketRole, readonly TicketMove[]> = {
  customer: ['customerReply', 'close', 'reopen'],
  agent: ['agentReply', 'agentNote', 'assign', 'close', 'closeNoReply'],
};

/** The role may make the move and api/support.ts ticketMove allows it from the ticket's state (the platform's own rule). */
export function mayMove(c: Pick<TicketContext, 'role' | 'state'>, move: TicketMove): boolean {
  return MOVES_OF[c.role].includes(move) && ticketMove(c.state, move) !== null;
}

/** The move a message makes: the customer's reply, or the agent's reply or internal note. */
export function messageMove(c: Pick<TicketContext, 'role' | 'internal'>): TicketMove {
  return c.role === 'customer' ? 'customerReply' : c.internal ? 'agentNote' : 'agentReply';
}

/** A closed ticket is reopened by the customer within REOPEN_WINDOW_MS of its closing; later, a new ticket is opened. */
export function mayReopen(c: Pick<TicketContext, 'role' | 'state' | 'closedAt' | 'nowMs'>): boolean {
  return mayMove(c, 'reopen') && c.closedAt !== null && c.nowMs - Date.parse(c.closedAt) <= REOPEN_WINDOW_MS;
}

const CLEAR_DRAFT = { content: '', files: [] as DraftFile[], internal: false, error: null, detail: null };

function withOutcomes(files: DraftFile[], outcomes: FileOutcome[] | undefined): DraftFile[] {
  if (!outcomes) return files;
  return files.map((f) => {
    const o = outcomes.find((x) => x.key === f.key);
    return o ? { ...f, status: o.status, uploadId: o.uploadId, reason: o.reason } : f;
  });
}

const LIFE = ['new', 'open', 'waitingOnCustomer', 'waitingOnAgent', 'closed', 'closedNoReply'] as const;

/** The chart names its calls; the app attaches the real ones (src/features/support/actors.ts, machine.provide), tests their own (DESIGN.md: machines do no I/O). */
function providedByTheApp<I>(name: string) {
  return fromPromise<TicketCallResult, I>(async () => {
    throw new Error(`${name} is provided by the app`);
  });
}

export const ticketMachine = setup({
  types: {
    context: {} as TicketContext,
    events: {} as TicketEvent,
    input: {} as TicketInput,
  },
  actors: {
    sendThread: providedByTheApp<SendThreadRequest>('sendThread'),
    reopenTicket: providedByTheApp<ReopenRequest>('reopenTicket'),
    closeTicket: providedByTheApp<CloseRequest>('closeTicket'),
    assignTicket: providedByTheApp<{ ticketId: number }>('assignTicket'),
  },
  guards: {
    isState: ({ context }, state: TicketState) => context.state === state,
    draftEmpty: ({ context }) => context.content.trim() === '',
    hasRejectedFile: ({ context }) => context.files.some((f) => f.status === 'rejected'),
    mayMessage: ({ context }) => mayMove(context, messageMove(context)),
    mayReopen: ({ context }) => mayReopen(context),
    mayClose: ({ context }) => mayMove(context, 'close'),
    mayCloseNoReply: ({ context }) => mayMove(context, 'closeNoReply'),
    mayAssign: ({ context }) => mayMove(context, 'assign'),
    isAgent: ({ context }) => context.role === 'agent',
    isOk: (_, r: TicketCallResult) => r.ok,
    isRejected: (_, r: TicketCallResult) => !r.ok && r.code === 'rejected',
  },
  actions: {
    setContent: assign((_, content: string) => ({ content, error: null, detail: null })),
    addFiles: assign(({ context }, files: { key: string; name: string; size: number; file: Blob }[]) => {
      const room = ATTACHMENTS_MAX - context.files.length;
      const added = files.slice(0, Math.max(room, 0)).map((f) => ({ ...f, status: 'pending' as const, uploadId: null, reason: null }));
      return { files: [...context.files, ...added], error: files.length > room ? ('tooMany' as const) : null, detail: null };
    }),
    removeFile: assign(({ context }, key: string) => ({ files: context.files.filter((f) => f.key !== key), error: null, detail: null })),
    setInternal: assign((_, internal: boolean) => ({ internal })),
    setError: assign((_, p: { error: TicketError; detail?: string | null }) => ({ error: p.error, detail: p.detail ?? null })),
    clearError: assign({ error: null, detail: null }),
    askNoReply: assign((_, noReply: boolean) => ({ noReply, error: null, detail: null })),
    /** the desk's answer: the ticket's state; the draft is sent and cleared */
    storeDone: assign((_, r: TicketCallResult) => (r.ok ? { state: r.state, closedAt: r.closedAt, ...CLEAR_DRAFT } : {})),
    storeMoved: assign((_, r: TicketCallResult) => (r.ok ? { state: r.state, closedAt: r.closedAt, error: null, detail: null } : {})),
    storeRejected: assign(({ context }, r: TicketCallResult) =>
      !r.ok && r.code === 'rejected' ? { files: withOutcomes(context.files, r.files), error: 'rejected' as const, detail: null } : {},
    ),
    storeFailure: assign((_, r: TicketCallResult) =>
      r.ok ? {} : r.code === 'failed' ? { error: 'failed' as const, detail: r.detail } : r.code === 'rejected' ? {} : { error: r.code, detail: null },
    ),
    sync: assign((_, p: { state: TicketState; closedAt: string | null }) => ({ state: p.state, closedAt: p.closedAt })),
  },
}).createMachine({
  id: 'ticket',
  description:
    "A support ticket's conversation page: the customer (or one of the provider's agents) writes to it with attachments, closes it, reopens it with a message, and the agent also takes it and writes internal notes; each move as the platform's ticketMove allows it.",
  meta: { spec: ['document 3 §3', 'document 3 §4', 'document 3 §7'] },
  context: ({ input }) => ({ ...input, content: '', files: [], internal: false, noReply: false, error: null, detail: null }),
  initial: 'starting',
  states: {
    starting: {
      description: 'The page opens the ticket in the state the desk answered.',
      always: LIFE.map((state) => ({ guard: { type: 'isState' as const, params: state }, target: state, description: `The ticket is ${state}.` })),
    },
    new: lifeState('new', 'A ticket nobody has answered yet: it waits for an agent to take it or answer.'),
    open: lifeState('open', 'An agent has taken the ticket.'),
    waitingOnCustomer: lifeState('waitingOnCustomer', 'An agent answered: the ticket waits for the customer.'),
    waitingOnAgent: lifeState('waitingOnAgent', 'The customer answered (or reopened the ticket): it waits for an agent.'),
    closed: lifeState('closed', 'The ticket is closed; the customer may reopen it with a message within the reopen window, or else opens a new ticket.'),
    closedNoReply: lifeState(
      'closedNoReply',
      'An agent closed the ticket after the customer did not answer; it counts as new for the customer for two weeks (document 3 §9), and may be reopened like a closed one.',
    ),
    sending: {
      description: "The message's attachments are uploaded (each pending, then uploaded or rejected), then the message is sent to the ticket.",
      meta: { spec: ['document 3 §4', 'document 3 §7'] },
      tags: ['busy'],
      invoke: {
        id: 'sendThread',
        src: 'sendThread',
        input: ({ context }) => ({ ticketId: context.ticketId, content: context.content.trim(), files: context.files, internal: context.role === 'agent' && context.internal }),
        onDone: [
          {
            guard: { type: 'isOk', params: ({ event }) => event.output },
            target: 'routing',
            actions: { type: 'storeDone', params: ({ event }) => event.output },
            description: 'The message is in the conversation; the ticket is in the state the desk answered.',
          },
          {
            guard: { type: 'isRejected', params: ({ event }) => event.output },
            target: 'routing',
            actions: { type: 'storeRejected', params: ({ event }) => event.output },
            description: 'The desk refused a file (its type or size): nothing was sent; each file shows whether it was uploaded or rejected.',
          },
          {
            target: 'routing',
            actions: { type: 'storeFailure', params: ({ event }) => event.output },
            description: 'The desk refused the message, did not answer, answered 429 or found the ticket moved on: the message is kept to send again.',
          },
        ],
        onError: { target: 'routing', actions: { type: 'setError', params: { error: 'network' } }, description: 'The call failed without an answer; the message is kept.' },
      },
    },
    reopening: {
      description: "The closed ticket is reopened with the customer's message (its attachments uploaded first).",
      meta: { spec: ['document 3 §4', 'document 3 §7'] },
      tags: ['busy'],
      invoke: {
        id: 'reopenTicket',
        src: 'reopenTicket',
        input: ({ context }) => ({ ticketId: context.ticketId, content: context.content.trim(), files: context.files }),
        onDone: [
          {
            guard: { type: 'isOk', params: ({ event }) => event.output },
            target: 'routing',
            actions: { type: 'storeDone', params: ({ event }) => event.output },
            description: 'The ticket is open again and waits for an agent; the message is in the conversation.',
          },
          {
            guard: { type: 'isRejected', params: ({ event }) => event.output },
            target: 'routing',
            actions: { type: 'storeRejected', params: ({ event }) => event.output },
            description: 'The desk refused a file: the ticket stays closed, nothing was sent.',
          },
          {
            target: 'routing',
            actions: { type: 'storeFailure', params: ({ event }) => event.output },
            description: 'The desk refused the reopening (e.g. the window passed meanwhile), did not answer or answered 429: the ticket stays closed, the message is kept.',
          },
        ],
        onError: { target: 'routing', actions: { type: 'setError', params: { error: 'network' } }, description: 'The call failed without an answer.' },
      },
    },
    confirmingClose: {
      description: 'The person is asked to confirm closing the ticket (the agent: with or without a reply from the customer).',
      meta: { spec: ['document 3 §4'] },
      on: {
        'CLOSE.CONFIRM': { target: 'closing', description: 'The person confirms: the ticket is closed.' },
        'CLOSE.CANCEL': { target: 'routing', description: 'The person keeps the ticket open.' },
      },
    },
    closing: {
      description: "The ticket is being closed (PUT {action: close}; the agent's supportDeskClose).",
      meta: { spec: ['document 3 §4', 'document 3 §7'] },
      tags: ['busy'],
      invoke: {
        id: 'closeTicket',
        src: 'closeTicket',
        input: ({ context }) => ({ ticketId: context.ticketId, noReply: context.noReply }),
        onDone: [
          {
            guard: { type: 'isOk', params: ({ event }) => event.output },
            target: 'routing',
            actions: { type: 'storeMoved', params: ({ event }) => event.output },
            description: 'The ticket is closed (or closed without reply).',
          },
          {
            target: 'routing',
            actions: { type: 'storeFailure', params: ({ event }) => event.output },
            description: 'The desk refused, did not answer, answered 429 or found the ticket moved on: it stays as it was.',
          },
        ],
        onError: { target: 'routing', actions: { type: 'setError', params: { error: 'network' } }, description: 'The call failed without an answer.' },
      },
    },
    assigning: {
      description: 'The agent takes the ticket (supportDeskAssign to the caller).',
      meta: { spec: ['document 3 §7'] },
      tags: ['busy'],
      invoke: {
        id: 'assignTicket',
        src: 'assignTicket',
        input: ({ context }) => ({ ticketId: context.ticketId }),
        onDone: [
          {
            guard: { type: 'isOk', params: ({ event }) => event.output },
            target: 'routing',
            actions: { type: 'storeMoved', params: ({ event }) => event.output },
            description: "The ticket is the agent's (a new one is open now).",
          },
          {
            target: 'routing',
            actions: { type: 'storeFailure', params: ({ event }) => event.output },
            description: 'The platform refused or did not answer: the ticket stays as it was.',
          },
        ],
        onError: { target: 'routing', actions: { type: 'setError', params: { error: 'network' } }, description: 'The call failed without an answer.' },
      },
    },
    routing: {
      description: 'After a call (or a fresh read), the page shows the ticket in the state it is now in.',
      always: LIFE.map((state) => ({ guard: { type: 'isState' as const, params: state }, target: state, description: `The ticket is ${state} now.` })),
    },
  },
});

/**
 * One of the six states of the ticket's life: what the page may do in it. A move's transition is
 * there only where api/support.ts ticketMove allows the move from this state at all (the guards
 * then check the role and the draft).
 */
function lifeState(state: TicketState, description: string) {
  const closed = ticketMove(state, 'reopen') !== null;
  const draft = {
    'DRAFT.CHANGE': {
      actions: { type: 'setContent' as const, params: ({ event }: { event: Extract<TicketEvent, { type: 'DRAFT.CHANGE' }> }) => event.content },
      description: 'The person writes the message.',
    },
    'FILES.ADD': {
      actions: { type: 'addFiles' as const, params: ({ event }: { event: Extract<TicketEvent, { type: 'FILES.ADD' }> }) => event.files },
      description: `The person attaches files (at most ${ATTACHMENTS_MAX}; more are not taken and the person is told); each is pending until the message is sent.`,
    },
    'FILE.REMOVE': {
      actions: { type: 'removeFile' as const, params: ({ event }: { event: Extract<TicketEvent, { type: 'FILE.REMOVE' }> }) => event.key },
      description: 'The person removes an attached file (a rejected one must be removed before sending).',
    },
    'TICKET.SYNC': {
      target: 'routing',
      actions: { type: 'sync' as const, params: ({ event }: { event: Extract<TicketEvent, { type: 'TICKET.SYNC' }> }) => ({ state: event.state, closedAt: event.closedAt }) },
      description: 'The page read the ticket again (the other side wrote or closed it meanwhile): the page follows its state.',
    },
  };
  const refusals = [
    {
      guard: 'draftEmpty' as const,
      actions: { type: 'setError' as const, params: { error: 'empty' as const } },
      description: 'Nothing is written: the person is told and nothing is sent.',
    },
    {
      guard: 'hasRejectedFile' as const,
      actions: { type: 'setError' as const, params: { error: 'rejected' as const } },
      description: 'A rejected file is still attached: it must be removed first.',
    },
  ];
  if (closed)
    return {
      description,
      meta: { spec: ['document 3 §4'] },
      on: {
        ...draft,
        SEND: [...refusals, { guard: 'mayReopen' as const, target: 'reopening', description: 'The customer reopens the closed ticket with a message, within the reopen window.' }],
      },
    };
  return {
    description,
    meta: { spec: ['document 3 §4'] },
    on: {
      ...draft,
      'INTERNAL.CHANGE': {
        guard: 'isAgent' as const,
        actions: { type: 'setInternal' as const, params: ({ event }: { event: Extract<TicketEvent, { type: 'INTERNAL.CHANGE' }> }) => event.internal },
        description: 'The agent chooses between a reply to the customer and an internal note.',
      },
      SEND: [...refusals, { guard: 'mayMessage' as const, target: 'sending', actions: 'clearError' as const, description: "The message (or the agent's internal note) is sent." }],
      CLOSE: {
        guard: 'mayClose' as const,
        target: 'confirmingClose',
        actions: { type: 'askNoReply' as const, params: false },
        description: 'The person asks to close the ticket.',
      },
      ...(ticketMove(state, 'closeNoReply') === null
        ? {}
        : {
            'CLOSE.NO_REPLY': {
              guard: 'mayCloseNoReply' as const,
              target: 'confirmingClose',
              actions: { type: 'askNoReply' as const, params: true },
              description: 'The agent asks to close a ticket the customer never answered (closed without reply).',
            },
          }),
      ASSIGN: { guard: 'mayAssign' as const, target: 'assigning', actions: 'clearError' as const, description: 'The agent takes the ticket.' },
    },
  };
}

export type TicketMachine = typeof ticketMachine;
