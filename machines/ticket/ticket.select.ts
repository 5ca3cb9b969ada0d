/** Snapshot -> view facts for a ticket's conversation page (machines/ticket). */
import type { SnapshotFrom } from 'xstate';
import type { TicketState } from '../../api/support.ts';
import { mayMove, mayReopen, messageMove, type TicketMachine } from './ticket.machine.ts';

export type TicketSnapshot = SnapshotFrom<TicketMachine>;
export type TicketStep = 'idle' | 'sending' | 'reopening' | 'confirmingClose' | 'closing' | 'assigning';

const CLOSED: readonly TicketState[] = ['closed', 'closedNoReply'];

export function selectTicketView(s: TicketSnapshot) {
  const c = s.context;
  const step: TicketStep = (['sending', 'reopening', 'confirmingClose', 'closing', 'assigning'] as const).find((x) => s.matches(x)) ?? 'idle';
  const closed = CLOSED.includes(c.state);
  return {
    step,
    state: c.state,
    closed,
    busy: s.hasTag('busy'),
    role: c.role,
    content: c.content,
    files: c.files,
    internal: c.internal,
    noReply: c.noReply,
    error: c.error,
    detail: c.detail,
    /** the reply box is offered (a message, or the agent's internal note) */
    canMessage: !closed && (mayMove(c, messageMove({ role: c.role, internal: false })) || mayMove(c, 'agentNote')),
    /** a closed ticket the customer may reopen with a message */
    canReopen: closed && mayReopen(c),
    /** a closed ticket past its reopen window: the customer opens a new ticket instead */
    mustOpenNew: closed && c.role === 'customer' && !mayReopen(c),
    canClose: !closed && mayMove(c, 'close'),
    canCloseNoReply: mayMove(c, 'closeNoReply'),
    canAssign: mayMove(c, 'assign'),
  };
}

export type TicketView = ReturnType<typeof selectTicketView>;
