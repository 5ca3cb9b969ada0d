/**
 * The agents' desk (api/support.ts supportDesk*, access 'admin'): the provider's administrators
 * work the built-in desk from the administrator's area. An agent sees only the tickets whose
 * provider is the agent's (the variant's id): one deployment serves one provider, so today every
 * ticket is the provider's; the check is there for a desk shared by several providers.
 *
 * Each change runs in the endpoint's one transaction with the ticket's row locked, goes through
 * ticketMove (a move the state does not allow: VF requestNotActive naming `ticket`, nothing
 * changed), and gets the endpoint's audit entry (the details say which ticket and what). A public
 * reply and a close notify the customer (notifications/notify.ts: ticketReply, ticketClosed, the
 * toast leading to the ticket); an internal note notifies nobody.
 */
import type { supportMethods } from '../../../api/support.ts';
import { activeVariant } from '../../../variants/index.ts';
import type { Tx } from '../../db/types.ts';
import { MethodFailure, type HandlerTable, type MethodContext } from '../method-types.ts';
import { notify } from '../notifications/notify.ts';
import { agentAssign, agentClose, agentQueue, agentTicket, agentWrite, lockAgentTicket, SupportRefusal, threadsOf, type TicketRow } from './support.service.ts';

export interface SupportHandlerOptions {
  now: () => number;
  /** the provider whose tickets the agents see (the variant's id) */
  provider: string;
}

function agentOf(ctx: MethodContext): number {
  if (!ctx.caller?.isAdmin) throw new MethodFailure('13', 'Administrators only');
  return ctx.caller.userId;
}

/** The service's refusals as the method's answers. */
async function answering<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (!(err instanceof SupportRefusal)) throw err;
    if (err.kind === 'notFound') throw new MethodFailure('ENOA', 'Ticket not found');
    throw new MethodFailure('VF', err.kind === 'state' ? err.message : 'Invalid request', err.validationErrors);
  }
}

const ticketTarget = (row: TicketRow) => ({ kind: 'ticket' as const, ticketNumber: row.ticketNumber });

export function createSupportHandlers(options: SupportHandlerOptions): HandlerTable<typeof supportMethods> {
  const { now, provider } = options;
  const tx = (ctx: MethodContext) => ctx.db as Tx;

  return {
    async supportDeskQueue(input, ctx) {
      const agentUserId = agentOf(ctx);
      return agentQueue(ctx.db, provider, { states: input.states, assignedToMe: input.assignedToMe, page: input.page, agentUserId }, now());
    },

    async supportDeskTicket(input, ctx) {
      agentOf(ctx);
      return answering(async () => {
        const ticket = await agentTicket(ctx.db, provider, input.ticketId, now());
        return { ticket, threads: await threadsOf(ctx.db, ticket.id, { forAgent: true }) };
      });
    },

    async supportDeskAssign(input, ctx) {
      const agentUserId = agentOf(ctx);
      return answering(async () => {
        const row = await lockAgentTicket(tx(ctx), provider, input.ticketId);
        const to = input.agentUserId === undefined ? agentUserId : input.agentUserId;
        await agentAssign(tx(ctx), row, to, now());
        ctx.audit({ ticketId: row.id, ticketNumber: row.ticketNumber, assignedTo: to, from: row.state });
        return { ticket: await agentTicket(ctx.db, provider, row.id, now()) };
      });
    },

    async supportDeskReply(input, ctx) {
      const agentUserId = agentOf(ctx);
      return answering(async () => {
        const row = await lockAgentTicket(tx(ctx), provider, input.ticketId);
        const threadId = await agentWrite(tx(ctx), row, agentUserId, input.content, input.internal, now());
        ctx.audit({ ticketId: row.id, ticketNumber: row.ticketNumber, threadId, internal: input.internal, from: row.state });
        if (!input.internal) {
          await notify(tx(ctx), ctx.publish, {
            customerId: row.customerId,
            type: 'ticketReply',
            params: { ticketNumber: row.ticketNumber, subject: row.subject },
            target: ticketTarget(row),
            nowMs: now(),
          });
        }
        const [thread] = await threadsOf(ctx.db, row.id, { forAgent: true, threadId });
        return { ticket: await agentTicket(ctx.db, provider, row.id, now()), thread: thread! };
      });
    },

    async supportDeskClose(input, ctx) {
      agentOf(ctx);
      return answering(async () => {
        const row = await lockAgentTicket(tx(ctx), provider, input.ticketId);
        await agentClose(tx(ctx), row, input.noReply, now());
        ctx.audit({ ticketId: row.id, ticketNumber: row.ticketNumber, noReply: input.noReply, from: row.state });
        await notify(tx(ctx), ctx.publish, {
          customerId: row.customerId,
          type: 'ticketClosed',
          params: { ticketNumber: row.ticketNumber, subject: row.subject },
          target: ticketTarget(row),
          nowMs: now(),
        });
        return { ticket: await agentTicket(ctx.db, provider, row.id, now()) };
      });
    },
  };
}

export const supportHandlers = createSupportHandlers({ now: Date.now, provider: activeVariant.id });
