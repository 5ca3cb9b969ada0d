/**
 * The support desk (document 3 §3 Support ticket, §4 Support tickets, §7 Support, §9 constants).
 *
 * Two services, as the spec draws them:
 * - the product server (bearer token; a business user passes fromCustomerId as a query parameter):
 *   GET zoho/jwt (widgetId, fromCustomerId) answers the short-lived token the desk's remote auth
 *   takes; GET zoho/agent, GET zoho/tickets/stats, GET zoho/tickets. Served by
 *   server/modules/support/support.routes.ts under the versioned base (`/api/v1/zoho/jwt`).
 * - the support desk itself (the desk paths of document 3 §7): POST /me (remote auth: the jwt in,
 *   a desk token out), POST /composetickets, GET /tickets (limit 20, from 1), GET /tickets/{id},
 *   GET /tickets/{id}/conversations (limit 100, or 2), POST /tickets, POST /tickets/{id}/threads,
 *   PUT /tickets/{id}, GET /tickets/{id}/threads/{threadId}, POST /uploads (form encoded), and an
 *   attachment's content. The desk is an adapter: the built-in one (server/modules/support) stores
 *   the tickets in the platform's database and serves these paths under `/api/v1` with the desk
 *   token as `Authorization: Bearer`; a provider may point the app's desk base
 *   (variants: supportDeskBase) at an external desk speaking the same paths.
 *
 * The provider's agents work the built-in desk from the administrator's area through the
 * supportDesk* named methods below (access 'admin': an agent is an administrator of the provider
 * and sees only the provider's tickets).
 *
 * The ticket's life is machines/ticket (new, open, waitingOnCustomer, waitingOnAgent, closed,
 * closedNoReply) and the platform keeps the same states with `ticketMoves` below. What the
 * customer's list shows is document 3 §4's mapping (`customerTicketStatus`).
 */
import * as v from 'valibot';
import { VfCode } from './errors.ts';
import { API_VERSION_PATH } from './http.ts';
import { defineMethod, MAX_ID } from './method.ts';

// ---------------------------------------------------------------- paths

const base = API_VERSION_PATH;
/** The product server's support paths (document 3 §7 "Through the product server"). */
export const SUPPORT_ROUTES = {
  jwt: `${base}/zoho/jwt`,
  agent: `${base}/zoho/agent`,
  stats: `${base}/zoho/tickets/stats`,
  tickets: `${base}/zoho/tickets`,
} as const;

/** The desk's paths relative to its base (document 3 §7 "To the support desk"); the built-in desk's base is API_VERSION_PATH. */
export const DESK_PATHS = {
  me: '/me',
  compose: '/composetickets',
  tickets: '/tickets',
  ticket: '/tickets/:id',
  conversations: '/tickets/:id/conversations',
  threads: '/tickets/:id/threads',
  thread: '/tickets/:id/threads/:threadId',
  attachmentContent: '/tickets/:id/threads/:threadId/attachments/:attachmentId/content',
  uploads: '/uploads',
} as const;
export const BUILTIN_DESK_BASE = API_VERSION_PATH;

// ---------------------------------------------------------------- constants (document 3 §9)

export const TICKET_PAGE_SIZE = 20;
export const CONVERSATION_LIMIT = 100;
/** the short conversation read (the list's preview of the last messages) */
export const CONVERSATION_PREVIEW_LIMIT = 2;
/** a closed-no-reply ticket, or one whose last thread is addressed to the customer, counts as new this long */
export const TICKET_NEW_WINDOW_MS = 14 * 24 * 60 * 60 * 1000;
export const SUBJECT_MAX = 255;
export const MESSAGE_MAX = 32_000;
/** attachments per thread, and an attachment's size (checked as customer documents are: api/documents.ts) */
export const ATTACHMENTS_MAX = 5;
/** the support timer ticks every second (document 3 §9): the app's wait before it retries after a 429 */
export const SUPPORT_TIMER_MS = 1000;
/** the desk token's life (ours) */
export const DESK_TOKEN_SECONDS = 3600;
/** the zoho/jwt token's life: it is only exchanged at once for a desk token (ours) */
export const DESK_JWT_SECONDS = 120;
/** a closed ticket can be reopened this long after it closed (ours); later, a new ticket */
export const REOPEN_WINDOW_MS = 30 * 24 * 60 * 60 * 1000;

// ---------------------------------------------------------------- states and rules

/** The ticket's state (machines/ticket), kept by the platform. */
export const TICKET_STATES = ['new', 'open', 'waitingOnCustomer', 'waitingOnAgent', 'closed', 'closedNoReply'] as const;
export const TicketStateSchema = v.picklist(TICKET_STATES);
export type TicketState = v.InferOutput<typeof TicketStateSchema>;

/**
 * The desk's status word for each state (the wire's `status`, as an external desk names it):
 * document 3 §4 reads "Closed" and "closed-no-reply".
 */
export const DESK_STATUS: Record<TicketState, string> = {
  new: 'Open',
  open: 'Open',
  waitingOnCustomer: 'On Hold',
  waitingOnAgent: 'Open',
  closed: 'Closed',
  closedNoReply: 'closed-no-reply',
};

export type TicketMove = 'customerReply' | 'agentReply' | 'agentNote' | 'assign' | 'close' | 'closeNoReply' | 'reopen';

/**
 * Where a move takes the ticket from a state, or null when the state does not allow it (the
 * platform answers 409, the chart does not take the event). Ours, not shown in the spec:
 * - a new ticket is open once an agent takes it (assign) or answers;
 * - an agent's reply waits on the customer, the customer's reply waits on the agent;
 * - either side closes an open ticket; an agent closes one the customer never answered as
 *   closedNoReply; the customer reopens a closed one (with a reply) within REOPEN_WINDOW_MS;
 * - an internal note changes nothing the customer sees.
 */
export function ticketMove(state: TicketState, move: TicketMove): TicketState | null {
  const closed = state === 'closed' || state === 'closedNoReply';
  switch (move) {
    case 'customerReply':
      return closed ? null : state === 'new' ? 'new' : 'waitingOnAgent';
    case 'agentReply':
      return closed ? null : 'waitingOnCustomer';
    case 'agentNote':
      return closed ? null : state;
    case 'assign':
      return closed ? null : state === 'new' ? 'open' : state;
    case 'close':
      return closed ? null : 'closed';
    case 'closeNoReply':
      return state === 'waitingOnCustomer' ? 'closedNoReply' : null;
    case 'reopen':
      return closed ? 'waitingOnAgent' : null;
  }
}

export const CUSTOMER_FILTERS = ['all', 'open', 'new', 'closed'] as const;
export type CustomerTicketFilter = (typeof CUSTOMER_FILTERS)[number];

/**
 * Document 3 §4's status mapping for the customer's list: closed if the desk's status is Closed;
 * new if it is closed-no-reply (for TICKET_NEW_WINDOW_MS after it closed) or the last thread is
 * addressed to the customer, created within the window and after the customer last read the
 * ticket (the customer-read-at field); otherwise open.
 */
export function customerTicketStatus(t: { status: string; closedAt: string | null; lastThread: { createdAt: string; to: 'customer' | 'agent' } | null; customerReadAt: string | null }, nowMs: number): 'new' | 'open' | 'closed' {
  if (t.status === 'Closed') return 'closed';
  const recent = (iso: string | null) => iso !== null && nowMs - Date.parse(iso) <= TICKET_NEW_WINDOW_MS;
  if (t.status === 'closed-no-reply') return recent(t.closedAt) ? 'new' : 'closed';
  const last = t.lastThread;
  if (last && last.to === 'customer' && recent(last.createdAt) && (t.customerReadAt === null || Date.parse(t.customerReadAt) < Date.parse(last.createdAt))) return 'new';
  return 'open';
}

// ---------------------------------------------------------------- entities (document 3 §3)

export const AttachmentSchema = v.object({
  id: v.number(),
  name: v.string(),
  size: v.number(),
  contentType: v.string(),
  /** document 3 §4: uploaded, rejected, pending */
  status: v.picklist(['uploaded', 'rejected', 'pending']),
});
export type Attachment = v.InferOutput<typeof AttachmentSchema>;

export const TicketSchema = v.object({
  id: v.number(),
  ticketNumber: v.string(),
  subject: v.string(),
  /** the desk's word (DESK_STATUS) */
  status: v.string(),
  /** document 3 §3's derived statusId: customerTicketStatus */
  statusId: v.picklist(['new', 'open', 'closed']),
  /** ours: the chart's state */
  state: TicketStateSchema,
  createdAt: v.string(),
  updatedAt: v.string(),
  closedAt: v.nullable(v.string()),
  lastThread: v.nullable(v.object({ createdAt: v.string(), to: v.picklist(['customer', 'agent']) })),
  /** the custom field holding the customer-read-at timestamp */
  cf: v.object({ customerReadAt: v.nullable(v.string()) }),
  /** the customer it is for (the company when opened with fromCustomerId) */
  customerId: v.number(),
  threadCount: v.number(),
});
export type Ticket = v.InferOutput<typeof TicketSchema>;

export const ThreadSchema = v.object({
  id: v.number(),
  ticketId: v.number(),
  /** who wrote it */
  author: v.object({ kind: v.picklist(['customer', 'agent']), name: v.string() }),
  /** 'public'; agents also see their 'internal' notes */
  visibility: v.picklist(['public', 'internal']),
  content: v.string(),
  createdAt: v.string(),
  attachments: v.array(AttachmentSchema),
});
export type Thread = v.InferOutput<typeof ThreadSchema>;

export const TicketStatsSchema = v.object({
  /** the ticket numbers with something new for the customer (document 3 §3) */
  unreadTicketNumbers: v.array(v.string()),
  open: v.number(),
  new: v.number(),
  closed: v.number(),
});
export type TicketStats = v.InferOutput<typeof TicketStatsSchema>;

// ---------------------------------------------------------------- product server answers

export const DeskJwtAnswerSchema = v.object({ responseCode: v.literal('00'), jwt: v.string(), expiresIn: v.number() });
export const AgentAnswerSchema = v.object({
  responseCode: v.literal('00'),
  /** the agent who last answered the customer, or null (ours: the page's "who answers you") */
  agent: v.nullable(v.object({ name: v.string() })),
  /** the provider's support contact (variants) */
  supportEmail: v.nullable(v.string()),
});
export const StatsAnswerSchema = v.object({ responseCode: v.literal('00'), stats: TicketStatsSchema });
export const ProductTicketsAnswerSchema = v.object({ responseCode: v.literal('00'), tickets: v.array(TicketSchema), count: v.number() });

// ---------------------------------------------------------------- desk requests and answers

export const DeskMeBodySchema = v.object({ jwt: v.pipe(v.string(), v.nonEmpty(VfCode.required), v.maxLength(4096, VfCode.tooLong)) });
export const DeskMeAnswerSchema = v.object({ token: v.string(), expiresIn: v.number(), contact: v.object({ id: v.number(), name: v.string(), email: v.nullable(v.string()) }) });

const text = (max: number) => v.pipe(v.string(VfCode.wrongType), v.trim(), v.nonEmpty(VfCode.required), v.maxLength(max, VfCode.tooLong));
const uploadIds = v.optional(v.pipe(v.array(v.pipe(v.number(VfCode.wrongType), v.integer(VfCode.notInteger), v.minValue(1, VfCode.tooSmall), v.maxValue(MAX_ID, VfCode.tooLarge))), v.maxLength(ATTACHMENTS_MAX, VfCode.tooManyItems)), []);

/** POST /tickets (JSON; attachments uploaded first with POST /uploads). POST /composetickets takes the same as multipart: `data` (this JSON without uploads) and `file` parts. */
export const TicketCreateSchema = v.object({ subject: text(SUBJECT_MAX), description: text(MESSAGE_MAX), uploads: uploadIds });
export const ThreadCreateSchema = v.object({ content: text(MESSAGE_MAX), uploads: uploadIds });
/** PUT /tickets/{id}: close, reopen (with the reopening message as a thread: ThreadCreateSchema), or mark read */
export const TicketUpdateSchema = v.variant('action', [
  v.object({ action: v.literal('close') }),
  v.object({ action: v.literal('reopen'), content: text(MESSAGE_MAX), uploads: uploadIds }),
  v.object({ action: v.literal('read') }),
]);
export const TicketListQuerySchema = v.object({
  from: v.optional(v.pipe(v.string(), v.transform(Number), v.integer(VfCode.notInteger), v.minValue(1, VfCode.tooSmall))),
  limit: v.optional(v.pipe(v.string(), v.transform(Number), v.integer(VfCode.notInteger), v.minValue(1, VfCode.tooSmall), v.maxValue(TICKET_PAGE_SIZE, VfCode.tooLarge))),
  filter: v.optional(v.picklist(CUSTOMER_FILTERS, VfCode.notAllowed)),
});
export const TicketListAnswerSchema = v.object({ data: v.array(TicketSchema), count: v.number() });
export const ConversationAnswerSchema = v.object({ data: v.array(ThreadSchema) });
export const UploadAnswerSchema = AttachmentSchema;

/** The desk's error body: `{ errorCode, message }` (the envelope's responseCode alongside: VF with validationErrors, AU, ENOA, TA1 for 429). */
export const DeskErrorSchema = v.object({
  errorCode: v.string(),
  message: v.string(),
  responseCode: v.optional(v.string()),
  validationErrors: v.optional(v.array(v.object({ param: v.string(), code: v.optional(v.string()), description: v.optional(v.string()) }))),
});

// ---------------------------------------------------------------- the agents' desk (administrator's area)

const agentTicketId = v.pipe(v.number(), v.integer(), v.minValue(1, VfCode.tooSmall), v.maxValue(MAX_ID, VfCode.tooLarge));

export const AgentTicketSchema = v.object({
  ...TicketSchema.entries,
  customerName: v.string(),
  assignedAgent: v.nullable(v.object({ userId: v.number(), name: v.string() })),
});
export type AgentTicket = v.InferOutput<typeof AgentTicketSchema>;

/** The provider's queue by state, oldest waiting first, 20 a page. */
export const supportDeskQueue = defineMethod({
  name: 'supportDeskQueue',
  access: 'admin',
  mutation: false,
  request: {
    states: v.optional(v.array(TicketStateSchema)),
    assignedToMe: v.optional(v.boolean()),
    page: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1, VfCode.tooSmall), v.maxValue(MAX_ID, VfCode.tooLarge)), 1),
  },
  response: { tickets: v.array(AgentTicketSchema), count: v.number(), counts: v.record(v.string(), v.number()) },
});

export const supportDeskTicket = defineMethod({
  name: 'supportDeskTicket',
  access: 'admin',
  mutation: false,
  request: { ticketId: agentTicketId },
  response: { ticket: AgentTicketSchema, threads: v.array(ThreadSchema) },
});

export const supportDeskAssign = defineMethod({
  name: 'supportDeskAssign',
  access: 'admin',
  mutation: true,
  /** agentUserId absent: to the caller */
  request: { ticketId: agentTicketId, agentUserId: v.optional(v.nullable(agentTicketId)) },
  response: { ticket: AgentTicketSchema },
});

/** A reply to the customer (visibility public) or an internal note. */
export const supportDeskReply = defineMethod({
  name: 'supportDeskReply',
  access: 'admin',
  mutation: true,
  request: { ticketId: agentTicketId, content: text(MESSAGE_MAX), internal: v.optional(v.boolean(), false) },
  response: { ticket: AgentTicketSchema, thread: ThreadSchema },
});

export const supportDeskClose = defineMethod({
  name: 'supportDeskClose',
  access: 'admin',
  mutation: true,
  /** noReply: the customer never answered (closedNoReply) */
  request: { ticketId: agentTicketId, noReply: v.optional(v.boolean(), false) },
  response: { ticket: AgentTicketSchema },
});

export const supportMethods = { supportDeskQueue, supportDeskTicket, supportDeskAssign, supportDeskReply, supportDeskClose };
