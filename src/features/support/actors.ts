/**
 * The real actors of the ticket charts (machines/ticket, machines/new-ticket) and the desk calls
 * the support pages make (api/support.ts):
 * - the customer's, on the desk with its token (desk-client.ts): attachments first (POST /uploads,
 *   one file each: a refused file answers 400 VF naming its type or size, document 3 §4), then
 *   POST /tickets, POST /tickets/{id}/threads, PUT /tickets/{id} {close | reopen | read};
 * - the agents', through the named methods supportDesk* (the administrator's area).
 * Each mutation invalidates the support queries it changes. Expected failures are values.
 */
import * as v from 'valibot';
import type { QueryClient } from '@tanstack/react-query';
import { fromPromise } from 'xstate';
import { ResponseCode } from '../../../api/envelope.ts';
import { VfCode } from '../../../api/errors.ts';
import { AttachmentSchema, DESK_PATHS, ThreadSchema, TicketSchema, type Ticket } from '../../../api/support.ts';
import { newTicketMachine, type CreateTicketRequest, type CreateTicketResult } from '../../../machines/new-ticket/new-ticket.machine.ts';
import {
  ticketMachine,
  type CloseRequest,
  type DraftFile,
  type FileOutcome,
  type RejectReason,
  type ReopenRequest,
  type SendThreadRequest,
  type TicketCallFailure,
  type TicketCallResult,
} from '../../../machines/ticket/ticket.machine.ts';
import { callMethod, describeFailure, isFailure } from '../../lib/request.ts';
import { validationMessages } from '../../lib/validation-messages.ts';
import { deskClient, deskPath, type DeskClient, type DeskFailure } from './desk-client.ts';

/** The query keys of the support reads (queries.ts): a change invalidates them all. */
export const SUPPORT_QUERY_KEY = ['support'] as const;

function invalidate(queryClient: QueryClient | null | undefined): void {
  void queryClient?.invalidateQueries({ queryKey: [...SUPPORT_QUERY_KEY] });
}

/** The text of a desk's refusal: its validation errors in the customer's language, else its message (document 3 §5: joined by commas). */
export function deskFailureText(f: DeskFailure): string | null {
  const errors = f.error?.validationErrors ?? [];
  if (errors.length > 0) return validationMessages(errors.map((e) => ({ param: e.param, description: e.description ?? '', ...(e.code ? { code: e.code } : {}) })) as never);
  return f.error?.message ?? null;
}

export function callFailureOf(f: DeskFailure): TicketCallFailure {
  switch (f.code) {
    case 'conflict':
      return { ok: false, code: 'conflict' };
    case 'rateLimited':
      return { ok: false, code: 'rateLimited' };
    case 'network':
    case 'unavailable':
      return { ok: false, code: 'network' };
    default:
      return { ok: false, code: 'failed', detail: deskFailureText(f) };
  }
}

function reasonOf(f: DeskFailure): RejectReason {
  const codes = (f.error?.validationErrors ?? []).map((e) => e.code);
  if (codes.includes(VfCode.fileTooLarge) || codes.includes(VfCode.requestTooLarge)) return 'size';
  if (codes.some((c) => c === VfCode.fileWrongType || c === VfCode.fileActivePdf || c === VfCode.filePolyglot)) return 'type';
  return 'other';
}

/**
 * Uploads the draft's files not uploaded yet, one at a time (POST /uploads, the file in the part
 * `file`). A refused file is rejected with its reason; nothing is sent then, and the files that
 * did upload keep their ids for the next attempt.
 */
export async function uploadDraftFiles(client: DeskClient, files: readonly DraftFile[]): Promise<{ ok: true; ids: number[]; outcomes: FileOutcome[] } | TicketCallFailure> {
  const outcomes: FileOutcome[] = [];
  for (const f of files) {
    if (f.status === 'uploaded' && f.uploadId !== null) {
      outcomes.push({ key: f.key, status: 'uploaded', uploadId: f.uploadId, reason: null });
      continue;
    }
    const form = new FormData();
    form.append('file', f.file, f.name);
    const answer = await client.desk({ method: 'POST', path: DESK_PATHS.uploads, body: { form }, schema: AttachmentSchema });
    if (answer.ok) {
      const rejected = answer.value.status === 'rejected';
      outcomes.push({ key: f.key, status: rejected ? 'rejected' : 'uploaded', uploadId: rejected ? null : answer.value.id, reason: rejected ? 'other' : null });
    } else if (answer.code === 'invalid' && answer.status !== null && answer.status < 500 && answer.error?.responseCode === ResponseCode.validation) {
      outcomes.push({ key: f.key, status: 'rejected', uploadId: null, reason: reasonOf(answer) });
    } else return callFailureOf(answer);
  }
  if (outcomes.some((o) => o.status === 'rejected')) return { ok: false, code: 'rejected', files: outcomes };
  return { ok: true, ids: outcomes.map((o) => o.uploadId!), outcomes };
}

/** The ticket's state now (GET /tickets/{id}), for the chart after a message. */
async function stateOf(client: DeskClient, ticketId: number, files: FileOutcome[]): Promise<TicketCallResult> {
  const ticket = await client.desk({ method: 'GET', path: deskPath(DESK_PATHS.ticket, { id: ticketId }), schema: TicketSchema });
  if (!ticket.ok) return callFailureOf(ticket);
  return { ok: true, state: ticket.value.state, closedAt: ticket.value.closedAt, files };
}

export interface SupportDeps {
  client?: DeskClient;
  queryClient?: QueryClient | null;
}

/** The customer's actors of machines/ticket. */
export function customerTicketActors({ client = deskClient, queryClient }: SupportDeps = {}) {
  return {
    sendThread: fromPromise<TicketCallResult, SendThreadRequest>(async ({ input }) => {
      const uploads = await uploadDraftFiles(client, input.files);
      if (!uploads.ok) return uploads;
      const sent = await client.desk({
        method: 'POST',
        path: deskPath(DESK_PATHS.threads, { id: input.ticketId }),
        body: { json: { content: input.content, uploads: uploads.ids } },
        schema: ThreadSchema,
      });
      if (!sent.ok) return callFailureOf(sent);
      invalidate(queryClient);
      return stateOf(client, input.ticketId, uploads.outcomes);
    }),
    reopenTicket: fromPromise<TicketCallResult, ReopenRequest>(async ({ input }) => {
      const uploads = await uploadDraftFiles(client, input.files);
      if (!uploads.ok) return uploads;
      const answer = await client.desk({
        method: 'PUT',
        path: deskPath(DESK_PATHS.ticket, { id: input.ticketId }),
        body: { json: { action: 'reopen', content: input.content, uploads: uploads.ids } },
        schema: TicketSchema,
      });
      if (!answer.ok) return callFailureOf(answer);
      invalidate(queryClient);
      return { ok: true, state: answer.value.state, closedAt: answer.value.closedAt, files: uploads.outcomes };
    }),
    closeTicket: fromPromise<TicketCallResult, CloseRequest>(async ({ input }) => {
      const answer = await client.desk({ method: 'PUT', path: deskPath(DESK_PATHS.ticket, { id: input.ticketId }), body: { json: { action: 'close' } }, schema: TicketSchema });
      if (!answer.ok) return callFailureOf(answer);
      invalidate(queryClient);
      return { ok: true, state: answer.value.state, closedAt: answer.value.closedAt };
    }),
    assignTicket: fromPromise<TicketCallResult, { ticketId: number }>(async () => ({ ok: false, code: 'failed', detail: null })),
  };
}

export const createCustomerTicketLogic = (deps: SupportDeps = {}) => ticketMachine.provide({ actors: customerTicketActors(deps) });

/** Marks a ticket read (PUT {action: read}): it stops counting as new (document 3 §3 customer-read-at). */
export async function markTicketRead(ticketId: number, { client = deskClient, queryClient }: SupportDeps = {}): Promise<boolean> {
  const answer = await client.desk({ method: 'PUT', path: deskPath(DESK_PATHS.ticket, { id: ticketId }), body: { json: { action: 'read' } }, schema: TicketSchema });
  if (answer.ok) invalidate(queryClient);
  return answer.ok;
}

export function newTicketActors({ client = deskClient, queryClient }: SupportDeps = {}) {
  return {
    createTicket: fromPromise<CreateTicketResult, CreateTicketRequest>(async ({ input }) => {
      const uploads = await uploadDraftFiles(client, input.files);
      if (!uploads.ok) return uploads;
      const answer = await client.desk({
        method: 'POST',
        path: DESK_PATHS.tickets,
        body: { json: { subject: input.subject, description: input.description, uploads: uploads.ids } },
        schema: TicketSchema,
      });
      if (!answer.ok) return callFailureOf(answer);
      invalidate(queryClient);
      return { ok: true, ticket: answer.value as Ticket };
    }),
  };
}

export const createNewTicketLogic = (deps: SupportDeps = {}) => newTicketMachine.provide({ actors: newTicketActors(deps) });

/* ------------------------------------------------------------------ the agents' (named methods) */

function methodFailure(answer: { responseCode: string } & Parameters<typeof describeFailure>[0]): TicketCallFailure {
  if (answer.responseCode === ResponseCode.network) return { ok: false, code: 'network' };
  if (answer.validationErrors?.some((e) => e.param === 'ticket')) return { ok: false, code: 'conflict' };
  return { ok: false, code: 'failed', detail: describeFailure(answer) };
}

/** The agents' actors of machines/ticket (supportDeskReply, supportDeskClose, supportDeskAssign). */
export function agentTicketActors({ queryClient }: Pick<SupportDeps, 'queryClient'> = {}) {
  const done = (ticket: { state: Ticket['state']; closedAt: string | null }): TicketCallResult => {
    invalidate(queryClient);
    return { ok: true, state: ticket.state, closedAt: ticket.closedAt };
  };
  return {
    sendThread: fromPromise<TicketCallResult, SendThreadRequest>(async ({ input }) => {
      const answer = await callMethod('supportDeskReply', { ticketId: input.ticketId, content: input.content, internal: input.internal });
      return isFailure(answer) ? methodFailure(answer) : done(answer.ticket);
    }),
    reopenTicket: fromPromise<TicketCallResult, ReopenRequest>(async () => ({ ok: false, code: 'failed', detail: null })),
    closeTicket: fromPromise<TicketCallResult, CloseRequest>(async ({ input }) => {
      const answer = await callMethod('supportDeskClose', { ticketId: input.ticketId, noReply: input.noReply });
      return isFailure(answer) ? methodFailure(answer) : done(answer.ticket);
    }),
    assignTicket: fromPromise<TicketCallResult, { ticketId: number }>(async ({ input }) => {
      const answer = await callMethod('supportDeskAssign', { ticketId: input.ticketId });
      return isFailure(answer) ? methodFailure(answer) : done(answer.ticket);
    }),
  };
}

export const createAgentTicketLogic = (deps: Pick<SupportDeps, 'queryClient'> = {}) => ticketMachine.provide({ actors: agentTicketActors(deps) });

/** The JSON Schema of a Thread, checked where the desk answers one (kept for the conversation reads). */
export const ThreadListSchema = v.array(ThreadSchema);
