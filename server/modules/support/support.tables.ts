/**
 * The built-in support desk (document 3 §3 Support ticket, §4 Support tickets, §7 Support;
 * api/support.ts). A ticket belongs to the customer it was opened for (the company when a business
 * user passes fromCustomerId) and to the provider whose agents answer it. Its state is the
 * platform's copy of machines/ticket's (new, open, waitingOnCustomer, waitingOnAgent, closed,
 * closedNoReply); `status` on the wire is the desk's own word for it (api/support.ts).
 *
 * Threads are the conversation: the customer's and the agents' messages, and the agents' internal
 * notes (never shown to the customer). Attachments are uploaded first (POST /uploads, checked as
 * customer documents are) and attached to the thread that sends them.
 *
 * support_desk_jwts: the remote-auth jwts already exchanged (single use, desk-token.ts).
 */
import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, serial, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { customers, users } from '../customers/customers.tables.ts';
import { bytea } from '../profile/profile.tables.ts';

export const supportTickets = pgTable(
  'support_tickets',
  {
    id: serial('id').primaryKey(),
    /** shown to people: a number of its own (not the row id), unique */
    ticketNumber: text('ticket_number').notNull(),
    /** the provider whose agents see it (the variant's id) */
    provider: text('provider').notNull(),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id),
    createdByUserId: integer('created_by_user_id').references(() => users.id),
    subject: text('subject').notNull(),
    /** api/support.ts TicketState */
    state: text('state').notNull(),
    assignedAgentUserId: integer('assigned_agent_user_id').references(() => users.id),
    /** the customer last read the conversation (the desk's custom field of document 3 §3) */
    customerReadAt: timestamp('customer_read_at', { withTimezone: true }),
    lastThreadAt: timestamp('last_thread_at', { withTimezone: true }),
    /** who the last public thread is addressed to: 'customer' (an agent wrote) or 'agent' */
    lastThreadTo: text('last_thread_to'),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('support_tickets_number').on(t.ticketNumber),
    index('support_tickets_customer').on(t.customerId, t.updatedAt),
    index('support_tickets_queue').on(t.provider, t.state, t.updatedAt),
  ],
);

export const supportThreads = pgTable(
  'support_threads',
  {
    id: serial('id').primaryKey(),
    ticketId: integer('ticket_id')
      .notNull()
      .references(() => supportTickets.id),
    /** 'customer' or 'agent' */
    authorKind: text('author_kind').notNull(),
    authorUserId: integer('author_user_id').references(() => users.id),
    /** 'public' (the conversation) or 'internal' (an agent's note: never shown to the customer) */
    visibility: text('visibility').notNull().default('public'),
    content: text('content').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('support_threads_ticket').on(t.ticketId, t.createdAt),
    check('support_threads_internal_agent', sql`${t.visibility} = 'public' or ${t.authorKind} = 'agent'`),
  ],
);

export const supportAttachments = pgTable(
  'support_attachments',
  {
    id: serial('id').primaryKey(),
    /** the customer (or provider, for an agent's upload) it was uploaded for */
    customerId: integer('customer_id').references(() => customers.id),
    uploadedByUserId: integer('uploaded_by_user_id')
      .notNull()
      .references(() => users.id),
    /** set when a thread sends it; an upload not attached within a day is deleted */
    threadId: integer('thread_id').references(() => supportThreads.id),
    fileName: text('file_name').notNull(),
    contentType: text('content_type').notNull(),
    size: integer('size').notNull(),
    sha256: text('sha256').notNull(),
    content: bytea('content').notNull(),
    /** document 3 §4 attachment states: uploaded, rejected, pending */
    status: text('status').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('support_attachments_thread').on(t.threadId), index('support_attachments_uploader').on(t.uploadedByUserId, t.createdAt)],
);

/**
 * The remote-auth jwts already exchanged for a desk token (desk-token.ts): POST /me inserts the
 * jwt's id and refuses a jwt whose id is here (the primary key decides between concurrent
 * exchanges). A row is kept until its jwt has expired (it could not be exchanged anyway), then
 * deleted by a later exchange.
 */
export const supportDeskJwts = pgTable(
  'support_desk_jwts',
  {
    jwtId: uuid('jwt_id').primaryKey(),
    usedAt: timestamp('used_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('support_desk_jwts_expires').on(t.expiresAt)],
);
