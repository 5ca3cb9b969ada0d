/**
 * The built-in support desk's rules (document 3 §3 Support ticket, §4 Support tickets; api/support.ts),
 * shared by the desk's paths (support.routes.ts: the customer's side, the desk token) and the
 * agents' named methods (support.methods.ts): the wire shapes, the customer's list with document 3
 * §4's mapping (customerTicketStatus, also written in SQL for the filters and the counts: the two
 * must agree), and every change of a ticket.
 *
 * Every state change goes through ticketMove (api/support.ts), the same function the app's
 * statechart (machines/ticket) follows: a move it answers null for is refused (SupportRefusal
 * 'state': 409 on the desk, VF requestNotActive for an agent) and changes nothing. Each change runs
 * in the caller's transaction with the ticket's row locked (select ... for update), keeps
 * updated_at, and for a public thread last_thread_at and last_thread_to (who it is addressed to:
 * 'agent' after the customer wrote, 'customer' after an agent replied). Internal notes never reach
 * the customer's reads and leave last_thread_* as they were.
 *
 * Decisions (ours, not shown in the spec):
 * - A ticket number is eight random digits, unique (drawn again when taken), never the row id (it
 *   tells no one how many tickets there are); the row id is the desk's `id` in the paths.
 * - The customer's list is newest update first; a conversation is newest thread first (the short
 *   read, limit 2, is the last two messages); the agents' queue is oldest update first.
 * - Marking a ticket read changes customer_read_at only (not updated_at: reading does not move a
 *   ticket up the list).
 * - The customer sees an agent by first name; agents see everyone's full name.
 * - An upload is attached by the user who uploaded it, for the same customer, within
 *   UPLOAD_ATTACH_MS; later it is deleted (deleteStaleUploads, on the transfers sweeper's run).
 */
import { randomInt } from 'node:crypto';
import { and, asc, count, desc, eq, getTableColumns, gte, inArray, isNull, notInArray, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { vf, VfCode, type CodedValidationError } from '../../../api/errors.ts';
import {
  ATTACHMENTS_MAX,
  customerTicketStatus,
  DESK_STATUS,
  REOPEN_WINDOW_MS,
  TICKET_NEW_WINDOW_MS,
  TICKET_PAGE_SIZE,
  ticketMove,
  type AgentTicket,
  type Attachment,
  type CustomerTicketFilter,
  type Thread,
  type Ticket,
  type TicketMove,
  type TicketState,
  type TicketStats,
} from '../../../api/support.ts';
import type { Db, Tx } from '../../db/types.ts';
import { customers, users } from '../customers/customers.tables.ts';
import type { CheckedFile } from '../profile/documents.service.ts';
import { supportAttachments, supportThreads, supportTickets } from './support.tables.ts';

/** An upload not attached to a thread within this long is deleted. */
export const UPLOAD_ATTACH_MS = 24 * 60 * 60 * 1000;
const CLOSED_STATES: TicketState[] = ['closed', 'closedNoReply'];

export type TicketRow = typeof supportTickets.$inferSelect;

/** A refused desk action: 'notFound' (also another customer's ticket), 'state' (ticketMove said no), 'invalid' (VF). */
export class SupportRefusal extends Error {
  constructor(
    readonly kind: 'notFound' | 'state' | 'invalid',
    message: string,
    readonly validationErrors: CodedValidationError[] = [],
  ) {
    super(message);
  }
}

const notFound = () => new SupportRefusal('notFound', 'Ticket not found');
const refusedMove = (state: TicketState, move: TicketMove) =>
  new SupportRefusal('state', `The ticket is ${state}: ${move} is not allowed`, [vf('ticket', VfCode.requestNotActive, { status: state })]);

/** Who acts on the desk: the user, the customer the ticket is for, the provider whose desk it is. */
export interface DeskActor {
  userId: number;
  customerId: number;
  provider: string;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);
const cutoffOf = (nowMs: number) => new Date(nowMs - TICKET_NEW_WINDOW_MS).toISOString();

/**
 * Document 3 §4's mapping in SQL (customerTicketStatus in api/support.ts), for the filters and the
 * counts; the wire's statusId is computed by customerTicketStatus itself from the same columns.
 */
function statusIdSql(nowMs: number): SQL<'new' | 'open' | 'closed'> {
  const cutoff = sql`${cutoffOf(nowMs)}::timestamptz`;
  const t = supportTickets;
  return sql<'new' | 'open' | 'closed'>`(case
    when ${t.state} = 'closed' then 'closed'
    when ${t.state} = 'closedNoReply' then (case when ${t.closedAt} >= ${cutoff} then 'new' else 'closed' end)
    when ${t.lastThreadTo} = 'customer' and ${t.lastThreadAt} >= ${cutoff} and (${t.customerReadAt} is null or ${t.customerReadAt} < ${t.lastThreadAt}) then 'new'
    else 'open' end)`;
}

const publicThreadCount = sql<number>`(select count(*)::int from ${supportThreads} where ${supportThreads.ticketId} = ${supportTickets.id} and ${supportThreads.visibility} = 'public')`;
const allThreadCount = sql<number>`(select count(*)::int from ${supportThreads} where ${supportThreads.ticketId} = ${supportTickets.id})`;

export function ticketToWire(row: TicketRow, threadCount: number, nowMs: number): Ticket {
  const state = row.state as TicketState;
  const status = DESK_STATUS[state];
  const to: 'customer' | 'agent' | null = row.lastThreadTo === 'customer' ? 'customer' : row.lastThreadTo === 'agent' ? 'agent' : null;
  const lastThread = row.lastThreadAt && to ? { createdAt: row.lastThreadAt.toISOString(), to } : null;
  const closedAt = iso(row.closedAt);
  const customerReadAt = iso(row.customerReadAt);
  return {
    id: row.id,
    ticketNumber: row.ticketNumber,
    subject: row.subject,
    status,
    statusId: customerTicketStatus({ status, closedAt, lastThread, customerReadAt }, nowMs),
    state,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    closedAt,
    lastThread,
    cf: { customerReadAt },
    customerId: row.customerId,
    threadCount,
  };
}

// ---------------------------------------------------------------- the customer's reads

const customerScope = (actor: DeskActor) => and(eq(supportTickets.customerId, actor.customerId), eq(supportTickets.provider, actor.provider));

/** The customer's tickets, newest update first; filter by document 3 §4's mapping. `from` is 1-based. */
export async function customerTickets(
  db: Db | Tx,
  actor: DeskActor,
  query: { from: number; limit: number; filter: CustomerTicketFilter },
  nowMs: number,
): Promise<{ data: Ticket[]; count: number }> {
  const where = and(customerScope(actor), query.filter === 'all' ? undefined : sql`${statusIdSql(nowMs)} = ${query.filter}`);
  const rows = await db
    .select({ ...getTableColumns(supportTickets), threadCount: publicThreadCount })
    .from(supportTickets)
    .where(where)
    .orderBy(desc(supportTickets.updatedAt), desc(supportTickets.id))
    .limit(query.limit)
    .offset(query.from - 1);
  const [total] = await db.select({ n: count() }).from(supportTickets).where(where);
  return { data: rows.map((r) => ticketToWire(r, r.threadCount, nowMs)), count: total?.n ?? 0 };
}

/** unreadTicketNumbers (document 3 §3: statusId new) and the count of each statusId. */
export async function customerStats(db: Db | Tx, actor: DeskActor, nowMs: number): Promise<TicketStats> {
  const rows = await db
    .select({ ticketNumber: supportTickets.ticketNumber, statusId: statusIdSql(nowMs) })
    .from(supportTickets)
    .where(customerScope(actor))
    .orderBy(desc(supportTickets.updatedAt), desc(supportTickets.id));
  const stats: TicketStats = { unreadTicketNumbers: [], open: 0, new: 0, closed: 0 };
  for (const r of rows) {
    stats[r.statusId] += 1;
    if (r.statusId === 'new') stats.unreadTicketNumbers.push(r.ticketNumber);
  }
  return stats;
}

/** The agent who last answered the customer in public (first name), or null. */
export async function lastAgentOf(db: Db | Tx, actor: DeskActor): Promise<{ name: string } | null> {
  const [row] = await db
    .select({ firstName: customers.firstName })
    .from(supportThreads)
    .innerJoin(supportTickets, eq(supportTickets.id, supportThreads.ticketId))
    .innerJoin(users, eq(users.id, supportThreads.authorUserId))
    .innerJoin(customers, eq(customers.id, users.customerId))
    .where(and(customerScope(actor), eq(supportThreads.authorKind, 'agent'), eq(supportThreads.visibility, 'public')))
    .orderBy(desc(supportThreads.createdAt), desc(supportThreads.id))
    .limit(1);
  return row ? { name: row.firstName } : null;
}

/** The customer's ticket (another customer's or provider's reads as not found). */
export async function customerTicket(db: Db | Tx, actor: DeskActor, ticketId: number, nowMs: number): Promise<Ticket> {
  const [row] = await db
    .select({ ...getTableColumns(supportTickets), threadCount: publicThreadCount })
    .from(supportTickets)
    .where(and(customerScope(actor), eq(supportTickets.id, ticketId)));
  if (!row) throw notFound();
  return ticketToWire(row, row.threadCount, nowMs);
}

// ---------------------------------------------------------------- threads

const { content: _content, ...attachmentColumns } = getTableColumns(supportAttachments);

export function attachmentToWire(a: Pick<typeof supportAttachments.$inferSelect, 'id' | 'fileName' | 'size' | 'contentType' | 'status'>): Attachment {
  return { id: a.id, name: a.fileName, size: a.size, contentType: a.contentType, status: a.status as Attachment['status'] };
}

/**
 * A ticket's threads, newest first, with their attachments. `forAgent`: internal notes too and
 * full names; the customer's read shows public threads and an agent's first name only.
 */
export async function threadsOf(db: Db | Tx, ticketId: number, options: { forAgent: boolean; from?: number; limit?: number; threadId?: number }): Promise<Thread[]> {
  const author = alias(customers, 'author_customer');
  const where = and(
    eq(supportThreads.ticketId, ticketId),
    options.forAgent ? undefined : eq(supportThreads.visibility, 'public'),
    options.threadId === undefined ? undefined : eq(supportThreads.id, options.threadId),
  );
  let q = db
    .select({ thread: supportThreads, firstName: author.firstName, lastName: author.lastName })
    .from(supportThreads)
    .leftJoin(users, eq(users.id, supportThreads.authorUserId))
    .leftJoin(author, eq(author.id, users.customerId))
    .where(where)
    .orderBy(desc(supportThreads.createdAt), desc(supportThreads.id))
    .$dynamic();
  if (options.limit !== undefined) q = q.limit(options.limit);
  if (options.from !== undefined) q = q.offset(options.from - 1);
  const rows = await q;
  const ids = rows.map((r) => r.thread.id);
  const files =
    ids.length === 0 ? [] : await db.select(attachmentColumns).from(supportAttachments).where(inArray(supportAttachments.threadId, ids)).orderBy(asc(supportAttachments.id));
  return rows.map(({ thread, firstName, lastName }) => {
    const kind = thread.authorKind === 'agent' ? 'agent' : 'customer';
    const name = kind === 'agent' && !options.forAgent ? (firstName ?? '') : `${firstName ?? ''} ${lastName ?? ''}`.trim();
    return {
      id: thread.id,
      ticketId: thread.ticketId,
      author: { kind, name },
      visibility: thread.visibility === 'internal' ? 'internal' : 'public',
      content: thread.content,
      createdAt: thread.createdAt.toISOString(),
      attachments: files.filter((f) => f.threadId === thread.id).map(attachmentToWire),
    };
  });
}

// ---------------------------------------------------------------- uploads

/** Stores a checked file as an upload (not attached yet). */
export async function storeUpload(tx: Tx, actor: DeskActor, file: CheckedFile, nowMs: number, threadId: number | null = null): Promise<Attachment> {
  const [row] = await tx
    .insert(supportAttachments)
    .values({
      customerId: actor.customerId,
      uploadedByUserId: actor.userId,
      threadId,
      fileName: file.fileName,
      contentType: file.mimeType,
      size: file.content.length,
      sha256: file.sha256,
      content: file.content,
      status: 'uploaded',
      createdAt: new Date(nowMs),
    })
    .returning(attachmentColumns);
  return attachmentToWire(row!);
}

/** Attaches the actor's own recent uploads and stores the given files on a thread; VF `uploads` for anything else. */
async function attach(tx: Tx, actor: DeskActor, threadId: number, uploadIds: readonly number[], files: readonly CheckedFile[], nowMs: number): Promise<void> {
  const ids = [...new Set(uploadIds)];
  if (ids.length + files.length > ATTACHMENTS_MAX) throw new SupportRefusal('invalid', 'Invalid request', [vf('uploads', VfCode.tooManyItems, { max: ATTACHMENTS_MAX })]);
  if (ids.length > 0) {
    const usable = await tx
      .select({ id: supportAttachments.id })
      .from(supportAttachments)
      .where(
        and(
          inArray(supportAttachments.id, ids),
          eq(supportAttachments.uploadedByUserId, actor.userId),
          eq(supportAttachments.customerId, actor.customerId),
          isNull(supportAttachments.threadId),
          eq(supportAttachments.status, 'uploaded'),
          gte(supportAttachments.createdAt, new Date(nowMs - UPLOAD_ATTACH_MS)),
        ),
      )
      .for('update');
    if (usable.length !== ids.length) throw new SupportRefusal('invalid', 'Invalid request', [vf('uploads', VfCode.invalid)]);
    await tx.update(supportAttachments).set({ threadId }).where(inArray(supportAttachments.id, ids));
  }
  for (const f of files) await storeUpload(tx, actor, f, nowMs, threadId);
}

/** Deletes uploads never attached within UPLOAD_ATTACH_MS; answers how many. */
export async function deleteStaleUploads(db: Db, nowMs: number): Promise<number> {
  const gone = await db
    .delete(supportAttachments)
    .where(and(isNull(supportAttachments.threadId), sql`${supportAttachments.createdAt} < ${new Date(nowMs - UPLOAD_ATTACH_MS).toISOString()}::timestamptz`))
    .returning({ id: supportAttachments.id });
  return gone.length;
}

/** An attachment of a public thread of the customer's ticket, with its content. */
export async function customerAttachment(db: Db | Tx, actor: DeskActor, ticketId: number, threadId: number, attachmentId: number) {
  const [row] = await db
    .select({ fileName: supportAttachments.fileName, contentType: supportAttachments.contentType, content: supportAttachments.content })
    .from(supportAttachments)
    .innerJoin(supportThreads, eq(supportThreads.id, supportAttachments.threadId))
    .innerJoin(supportTickets, eq(supportTickets.id, supportThreads.ticketId))
    .where(
      and(
        customerScope(actor),
        eq(supportTickets.id, ticketId),
        eq(supportThreads.id, threadId),
        eq(supportThreads.visibility, 'public'),
        eq(supportAttachments.id, attachmentId),
        eq(supportAttachments.status, 'uploaded'),
      ),
    );
  if (!row) throw notFound();
  return row;
}

/** Any attachment of the provider's tickets (the agents' download). */
export async function agentAttachment(db: Db | Tx, provider: string, attachmentId: number) {
  const [row] = await db
    .select({ fileName: supportAttachments.fileName, contentType: supportAttachments.contentType, content: supportAttachments.content, ticketId: supportTickets.id })
    .from(supportAttachments)
    .innerJoin(supportThreads, eq(supportThreads.id, supportAttachments.threadId))
    .innerJoin(supportTickets, eq(supportTickets.id, supportThreads.ticketId))
    .where(and(eq(supportTickets.provider, provider), eq(supportAttachments.id, attachmentId)));
  if (!row) throw notFound();
  return row;
}

// ---------------------------------------------------------------- the customer's changes

/** A ticket number: eight random digits (no count of tickets shown); a taken one is drawn again. */
export function drawTicketNumber(): string {
  return String(randomInt(10_000_000, 100_000_000));
}

async function insertThread(
  tx: Tx,
  ticketId: number,
  authorKind: 'customer' | 'agent',
  authorUserId: number,
  visibility: 'public' | 'internal',
  content: string,
  nowMs: number,
): Promise<number> {
  const [row] = await tx
    .insert(supportThreads)
    .values({ ticketId, authorKind, authorUserId, visibility, content, createdAt: new Date(nowMs) })
    .returning({ id: supportThreads.id });
  return row!.id;
}

/** A new ticket (state new) with its first thread (the description) and attachments. */
export async function createTicket(
  tx: Tx,
  actor: DeskActor,
  input: { subject: string; description: string; uploads: readonly number[]; files: readonly CheckedFile[] },
  nowMs: number,
): Promise<TicketRow> {
  const now = new Date(nowMs);
  let row: TicketRow | undefined;
  for (let attempt = 0; !row; attempt++) {
    if (attempt === 10) throw new Error('no free ticket number');
    [row] = await tx
      .insert(supportTickets)
      .values({
        ticketNumber: drawTicketNumber(),
        provider: actor.provider,
        customerId: actor.customerId,
        createdByUserId: actor.userId,
        subject: input.subject,
        state: 'new',
        lastThreadAt: now,
        lastThreadTo: 'agent',
        createdAt: now,
        updatedAt: now,
      })
      // a number drawn twice: nothing inserted (the transaction goes on), draw again
      .onConflictDoNothing({ target: supportTickets.ticketNumber })
      .returning();
  }
  const threadId = await insertThread(tx, row.id, 'customer', actor.userId, 'public', input.description, nowMs);
  await attach(tx, actor, threadId, input.uploads, input.files, nowMs);
  return row;
}

async function lockCustomerTicket(tx: Tx, actor: DeskActor, ticketId: number): Promise<TicketRow> {
  const [row] = await tx
    .select()
    .from(supportTickets)
    .where(and(customerScope(actor), eq(supportTickets.id, ticketId)))
    .for('update');
  if (!row) throw notFound();
  return row;
}

/** The customer writes on the ticket (a reply, or the reopening message). */
export async function customerReply(
  tx: Tx,
  actor: DeskActor,
  ticketId: number,
  input: { content: string; uploads: readonly number[]; move: 'customerReply' | 'reopen' },
  nowMs: number,
): Promise<{ ticket: TicketRow; threadId: number }> {
  const row = await lockCustomerTicket(tx, actor, ticketId);
  const state = row.state as TicketState;
  const next = ticketMove(state, input.move);
  if (next === null) throw refusedMove(state, input.move);
  if (input.move === 'reopen' && (row.closedAt === null || nowMs - row.closedAt.getTime() > REOPEN_WINDOW_MS)) {
    throw new SupportRefusal('state', 'The ticket closed too long ago to reopen: open a new ticket', [vf('ticket', VfCode.requestNotActive, { status: state })]);
  }
  const threadId = await insertThread(tx, row.id, 'customer', actor.userId, 'public', input.content, nowMs);
  await attach(tx, actor, threadId, input.uploads, [], nowMs);
  const now = new Date(nowMs);
  const [ticket] = await tx
    .update(supportTickets)
    .set({ state: next, lastThreadAt: now, lastThreadTo: 'agent', updatedAt: now, ...(input.move === 'reopen' ? { closedAt: null } : {}) })
    .where(eq(supportTickets.id, row.id))
    .returning();
  return { ticket: ticket!, threadId };
}

export async function customerClose(tx: Tx, actor: DeskActor, ticketId: number, nowMs: number): Promise<TicketRow> {
  const row = await lockCustomerTicket(tx, actor, ticketId);
  const next = ticketMove(row.state as TicketState, 'close');
  if (next === null) throw refusedMove(row.state as TicketState, 'close');
  const now = new Date(nowMs);
  const [ticket] = await tx.update(supportTickets).set({ state: next, closedAt: now, updatedAt: now }).where(eq(supportTickets.id, row.id)).returning();
  return ticket!;
}

export async function customerRead(tx: Tx, actor: DeskActor, ticketId: number, nowMs: number): Promise<TicketRow> {
  const row = await lockCustomerTicket(tx, actor, ticketId);
  const [ticket] = await tx
    .update(supportTickets)
    .set({ customerReadAt: new Date(nowMs) })
    .where(eq(supportTickets.id, row.id))
    .returning();
  return ticket!;
}

export async function publicThreadCountOf(db: Db | Tx, ticketId: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(supportThreads)
    .where(and(eq(supportThreads.ticketId, ticketId), eq(supportThreads.visibility, 'public')));
  return row?.n ?? 0;
}

// ---------------------------------------------------------------- the agents' side

const agentCustomer = alias(customers, 'agent_customer');
const agentUser = alias(users, 'agent_user');

async function agentTicketRows(db: Db | Tx, where: SQL | undefined, page?: { limit: number; offset: number }) {
  let q = db
    .select({
      ...getTableColumns(supportTickets),
      threadCount: allThreadCount,
      customerFirstName: customers.firstName,
      customerLastName: customers.lastName,
      customerBusinessName: customers.businessName,
      agentFirstName: agentCustomer.firstName,
      agentLastName: agentCustomer.lastName,
    })
    .from(supportTickets)
    .innerJoin(customers, eq(customers.id, supportTickets.customerId))
    .leftJoin(agentUser, eq(agentUser.id, supportTickets.assignedAgentUserId))
    .leftJoin(agentCustomer, eq(agentCustomer.id, agentUser.customerId))
    .where(where)
    .orderBy(asc(supportTickets.updatedAt), asc(supportTickets.id))
    .$dynamic();
  if (page) q = q.limit(page.limit).offset(page.offset);
  return q;
}

type AgentTicketRow = Awaited<ReturnType<typeof agentTicketRows>>[number];

function agentTicketToWire(r: AgentTicketRow, nowMs: number): AgentTicket {
  return {
    ...ticketToWire(r, r.threadCount, nowMs),
    customerName: r.customerBusinessName?.trim() || `${r.customerFirstName} ${r.customerLastName}`.trim(),
    assignedAgent: r.assignedAgentUserId === null ? null : { userId: r.assignedAgentUserId, name: `${r.agentFirstName ?? ''} ${r.agentLastName ?? ''}`.trim() },
  };
}

/** The provider's queue by state (default: every state not closed), oldest update first, TICKET_PAGE_SIZE a page, with the count of each state. */
export async function agentQueue(
  db: Db | Tx,
  provider: string,
  input: { states?: TicketState[] | undefined; assignedToMe?: boolean | undefined; page: number; agentUserId: number },
  nowMs: number,
) {
  const states = input.states && input.states.length > 0 ? input.states : null;
  const where = and(
    eq(supportTickets.provider, provider),
    states ? inArray(supportTickets.state, states) : notInArray(supportTickets.state, CLOSED_STATES),
    input.assignedToMe ? eq(supportTickets.assignedAgentUserId, input.agentUserId) : undefined,
  );
  const rows = await agentTicketRows(db, where, { limit: TICKET_PAGE_SIZE, offset: (input.page - 1) * TICKET_PAGE_SIZE });
  const [total] = await db.select({ n: count() }).from(supportTickets).where(where);
  const byState = await db.select({ state: supportTickets.state, n: count() }).from(supportTickets).where(eq(supportTickets.provider, provider)).groupBy(supportTickets.state);
  const counts: Record<string, number> = { new: 0, open: 0, waitingOnCustomer: 0, waitingOnAgent: 0, closed: 0, closedNoReply: 0 };
  for (const s of byState) counts[s.state] = s.n;
  return { tickets: rows.map((r) => agentTicketToWire(r, nowMs)), count: total?.n ?? 0, counts };
}

export async function agentTicket(db: Db | Tx, provider: string, ticketId: number, nowMs: number): Promise<AgentTicket> {
  const [row] = await agentTicketRows(db, and(eq(supportTickets.provider, provider), eq(supportTickets.id, ticketId)));
  if (!row) throw notFound();
  return agentTicketToWire(row, nowMs);
}

/** The provider's ticket, locked (another provider's reads as not found: one deployment serves one provider, the check is for a shared desk). */
export async function lockAgentTicket(tx: Tx, provider: string, ticketId: number): Promise<TicketRow> {
  const [row] = await tx
    .select()
    .from(supportTickets)
    .where(and(eq(supportTickets.provider, provider), eq(supportTickets.id, ticketId)))
    .for('update');
  if (!row) throw notFound();
  return row;
}

export async function agentAssign(tx: Tx, row: TicketRow, agentUserId: number | null, nowMs: number): Promise<void> {
  const state = row.state as TicketState;
  const next = ticketMove(state, 'assign');
  if (next === null) throw refusedMove(state, 'assign');
  if (agentUserId !== null) {
    const [agent] = await tx.select({ isAdmin: users.isAdmin, disabled: users.disabled }).from(users).where(eq(users.id, agentUserId));
    if (!agent || !agent.isAdmin || agent.disabled) throw new SupportRefusal('invalid', 'Invalid request', [vf('agentUserId', VfCode.notAllowed)]);
  }
  // Taking a ticket opens it; giving it up leaves its state.
  await tx
    .update(supportTickets)
    .set({ assignedAgentUserId: agentUserId, state: agentUserId === null ? state : next, updatedAt: new Date(nowMs) })
    .where(eq(supportTickets.id, row.id));
}

/** An agent's public reply (agentReply: the ticket waits on the customer) or internal note (agentNote). An unassigned ticket is the replying agent's. */
export async function agentWrite(tx: Tx, row: TicketRow, agentUserId: number, content: string, internal: boolean, nowMs: number): Promise<number> {
  const state = row.state as TicketState;
  const move = internal ? 'agentNote' : 'agentReply';
  const next = ticketMove(state, move);
  if (next === null) throw refusedMove(state, move);
  const threadId = await insertThread(tx, row.id, 'agent', agentUserId, internal ? 'internal' : 'public', content, nowMs);
  const now = new Date(nowMs);
  await tx
    .update(supportTickets)
    .set({
      state: next,
      updatedAt: now,
      ...(internal ? {} : { lastThreadAt: now, lastThreadTo: 'customer', assignedAgentUserId: row.assignedAgentUserId ?? agentUserId }),
    })
    .where(eq(supportTickets.id, row.id));
  return threadId;
}

export async function agentClose(tx: Tx, row: TicketRow, noReply: boolean, nowMs: number): Promise<void> {
  const state = row.state as TicketState;
  const move = noReply ? 'closeNoReply' : 'close';
  const next = ticketMove(state, move);
  if (next === null) throw refusedMove(state, move);
  const now = new Date(nowMs);
  await tx.update(supportTickets).set({ state: next, closedAt: now, updatedAt: now }).where(eq(supportTickets.id, row.id));
}
