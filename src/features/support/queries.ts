/**
 * The support reads (document 3 §3, §4, §7; api/support.ts) as TanStack Query options, keyed by
 * the acting customer (a business user's company has tickets of its own) under SUPPORT_QUERY_KEY
 * so a change invalidates them together.
 *
 * "Failures while initialising support return empty lists" (document 3 §4): the unread counts
 * (zoho/tickets/stats, the navigation's badge) and the agent's name and support e-mail
 * (zoho/agent) answer empty on any failure. The ticket list and a conversation throw a
 * SupportReadError, so the page can say support is not available (or rate limited) and retry.
 */
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import * as v from 'valibot';
import {
  AgentAnswerSchema,
  CONVERSATION_LIMIT,
  ConversationAnswerSchema,
  DESK_PATHS,
  StatsAnswerSchema,
  SUPPORT_ROUTES,
  TICKET_PAGE_SIZE,
  TicketListAnswerSchema,
  TicketSchema,
  type CustomerTicketFilter,
  type Thread,
  type TicketState,
  type TicketStats,
} from '../../../api/support.ts';
import { callMethodOrThrow } from '../../lib/request.ts';
import { SUPPORT_QUERY_KEY } from './actors.ts';
import { deskClient, deskPath, type DeskClient, type DeskFailure } from './desk-client.ts';

export class SupportReadError extends Error {
  constructor(readonly failure: DeskFailure) {
    super(`support read failed: ${failure.code}`);
    this.name = 'SupportReadError';
  }
}

async function orThrow<T>(p: Promise<{ ok: true; value: T } | DeskFailure>): Promise<T> {
  const r = await p;
  if (!r.ok) throw new SupportReadError(r);
  return r.value;
}

const EMPTY_STATS: TicketStats = { unreadTicketNumbers: [], open: 0, new: 0, closed: 0 };

/** A support read is not retried by the query library: the failure flag and the page's own timer decide. */
const noRetry = { retry: false } as const;

/** The customer's tickets, 20 a page (GET /tickets?from&limit&filter: `from` is the first ticket's 1-based position). */
export const ticketsQuery = (acting: number | null, filter: CustomerTicketFilter, page: number, client: DeskClient = deskClient) =>
  queryOptions({
    queryKey: [...SUPPORT_QUERY_KEY, 'tickets', acting, filter, page],
    queryFn: () =>
      orThrow(
        client.desk({
          method: 'GET',
          path: DESK_PATHS.tickets,
          query: { from: (page - 1) * TICKET_PAGE_SIZE + 1, limit: TICKET_PAGE_SIZE, filter },
          schema: TicketListAnswerSchema,
        }),
      ),
    placeholderData: keepPreviousData,
    ...noRetry,
  });

export const ticketQuery = (acting: number | null, ticketId: number, client: DeskClient = deskClient) =>
  queryOptions({
    queryKey: [...SUPPORT_QUERY_KEY, 'ticket', acting, ticketId],
    queryFn: () => orThrow(client.desk({ method: 'GET', path: deskPath(DESK_PATHS.ticket, { id: ticketId }), schema: TicketSchema })),
    ...noRetry,
  });

/** Threads oldest first, as a conversation is shown (ticket-view.tsx); the desk and the agents' method answer newest first. */
export function oldestFirst(threads: readonly Thread[]): Thread[] {
  return [...threads].sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt) || a.id - b.id);
}

/** A ticket's conversation, the last CONVERSATION_LIMIT threads, oldest first. */
export const conversationQuery = (acting: number | null, ticketId: number, client: DeskClient = deskClient) =>
  queryOptions({
    queryKey: [...SUPPORT_QUERY_KEY, 'conversation', acting, ticketId],
    queryFn: async () => {
      const answer = await orThrow(
        client.desk({ method: 'GET', path: deskPath(DESK_PATHS.conversations, { id: ticketId }), query: { from: 1, limit: CONVERSATION_LIMIT }, schema: ConversationAnswerSchema }),
      );
      return oldestFirst(answer.data);
    },
    ...noRetry,
  });

/** The unread counts (zoho/tickets/stats); empty when support cannot be read. */
export const supportStatsQuery = (acting: number | null, client: DeskClient = deskClient) =>
  queryOptions({
    queryKey: [...SUPPORT_QUERY_KEY, 'stats', acting],
    queryFn: async () => {
      const answer = await client.product(SUPPORT_ROUTES.stats, StatsAnswerSchema);
      return answer.ok ? answer.value.stats : EMPTY_STATS;
    },
    ...noRetry,
  });

/** Who answers (zoho/agent) and the provider's support e-mail; empty when support cannot be read. */
export const supportAgentQuery = (acting: number | null, client: DeskClient = deskClient) =>
  queryOptions({
    queryKey: [...SUPPORT_QUERY_KEY, 'agent', acting],
    queryFn: async (): Promise<{ agent: { name: string } | null; supportEmail: string | null }> => {
      const answer = await client.product(SUPPORT_ROUTES.agent, AgentAnswerSchema);
      return answer.ok ? { agent: answer.value.agent, supportEmail: answer.value.supportEmail } : { agent: null, supportEmail: null };
    },
    staleTime: 5 * 60_000,
    ...noRetry,
  });

/* ------------------------------------------------------------------ the agents' desk */

export const deskQueueQuery = (states: readonly TicketState[], assignedToMe: boolean, page: number) =>
  queryOptions({
    queryKey: [...SUPPORT_QUERY_KEY, 'deskQueue', [...states], assignedToMe, page],
    queryFn: () => callMethodOrThrow('supportDeskQueue', { states: [...states], assignedToMe, page }),
    placeholderData: keepPreviousData,
  });

/** One ticket for the agents with every thread, oldest first (the method answers newest first). */
export const deskTicketQuery = (ticketId: number) =>
  queryOptions({
    queryKey: [...SUPPORT_QUERY_KEY, 'deskTicket', ticketId],
    queryFn: async () => {
      const answer = await callMethodOrThrow('supportDeskTicket', { ticketId });
      return { ...answer, threads: oldestFirst(answer.threads) };
    },
  });

/** kept for the tests: the schema of a ticket list answer */
export type TicketListAnswer = v.InferOutput<typeof TicketListAnswerSchema>;
