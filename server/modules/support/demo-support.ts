/**
 * The demo's support desk (demo mode only, server/db/seed.ts): a demo person has two tickets, both
 * through the real service functions (createTicket, agentWrite, agentClose) so that they obey
 * ticketMove like any other:
 * - one the demo administrator answered an hour ago, not read yet (new for the customer: the
 *   /messages list marks it, the stats count it);
 * - one the person closed after the administrator answered, a month ago.
 */
import type { Tx } from '../../db/types.ts';
import { agentAssign, agentWrite, createTicket, customerClose, lockAgentTicket } from './support.service.ts';

export interface DemoSupportInput {
  customerId: number;
  userId: number;
  /** the demo administrator, who answers */
  agentUserId: number;
  provider: string;
  nowMs: number;
}

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

export async function seedDemoSupport(tx: Tx, input: DemoSupportInput): Promise<void> {
  const actor = { userId: input.userId, customerId: input.customerId, provider: input.provider };

  const closedAt = input.nowMs - 30 * DAY;
  const old = await createTicket(
    tx,
    actor,
    { subject: 'Card delivery address', description: 'Hello, can my new card be sent to my office address instead?', uploads: [], files: [] },
    closedAt - 2 * DAY,
  );
  await agentAssign(tx, await lockAgentTicket(tx, input.provider, old.id), input.agentUserId, closedAt - 2 * DAY + HOUR);
  await agentWrite(
    tx,
    await lockAgentTicket(tx, input.provider, old.id),
    input.agentUserId,
    'Hello, yes: change the delivery address under Cards before the card is produced, and it will be sent there.',
    false,
    closedAt - DAY,
  );
  await customerClose(tx, actor, old.id, closedAt);

  const answered = await createTicket(
    tx,
    actor,
    { subject: 'Statement for my landlord', description: 'I need a statement of my EUR account for the last three months. Where do I find it?', uploads: [], files: [] },
    input.nowMs - DAY,
  );
  await agentWrite(
    tx,
    await lockAgentTicket(tx, input.provider, answered.id),
    input.agentUserId,
    'Hello, open the account in History and choose Statements: each month is a PDF you can download and send.',
    false,
    input.nowMs - HOUR,
  );
}
