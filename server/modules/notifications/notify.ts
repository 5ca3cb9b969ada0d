/**
 * The one way a module tells a customer something happened (document 3 §7 CustomerNotification,
 * §2 the toast's targets): `notify(tx, publish, input)` writes the notification in the caller's
 * transaction (the notification centre lists it) and hands the push event to `publish`, which the
 * caller's machinery sends after the commit (a named method's `publish`; a REST route's staged
 * publisher). A rolled-back change notifies nobody.
 *
 * Owned by the notifications module (server/modules/notifications): it renders the title and body
 * in the customer's language and honours the users' notification settings before a push or an
 * e-mail goes out. Callers only name the type, its parameters and where the toast leads.
 */
import type { Tx } from '../../db/types.ts';
import { notifications } from './notifications.tables.ts';

/** Where the toast and the centre's entry lead (document 3 §2: documents and username to profile, a partial batch to the batch, contract events to the contract; ours: a ticket reply to the ticket). */
export type NotificationTarget = { kind: 'profile' } | { kind: 'batch'; batchId: number } | { kind: 'contract'; contractId: number } | { kind: 'ticket'; ticketNumber: string } | { kind: 'news'; announcementId: number };

export interface NotifyInput {
  customerId: number;
  /** only this user of the customer (null or absent: every user who acts for it) */
  userId?: number | null;
  /** api/notifications.ts NotificationType, e.g. 'contractSigned', 'ticketReply' */
  type: string;
  params?: Record<string, string | number | null>;
  target?: NotificationTarget | null;
  nowMs: number;
}

export type PublishAfterCommit = (customerId: number, event: Record<string, unknown> & { type: string }) => void;

/**
 * Title and body of a notification in the customer's language. The notifications module replaces
 * this plain rendering with its own texts (notification-texts.ts) through setNotificationRenderer.
 */
export type NotificationRenderer = (tx: Tx, input: NotifyInput) => Promise<{ title: string; body: string; deliver: boolean }>;

let renderer: NotificationRenderer = async (_tx, input) => ({ title: input.type, body: '', deliver: true });

export function setNotificationRenderer(next: NotificationRenderer): void {
  renderer = next;
}

/** Writes the notification and pushes it (CustomerNotification) after the commit; answers its id. */
export async function notify(tx: Tx, publish: PublishAfterCommit, input: NotifyInput): Promise<number> {
  const { title, body, deliver } = await renderer(tx, input);
  const params = { ...(input.params ?? {}), ...(input.target ? { target: JSON.stringify(input.target) } : {}) };
  const [row] = await tx
    .insert(notifications)
    .values({ customerId: input.customerId, userId: input.userId ?? null, type: input.type, params, title, body, createdAt: new Date(input.nowMs) })
    .returning({ id: notifications.id });
  if (deliver) publish(input.customerId, { type: 'CustomerNotification', notificationType: input.type, status: 'unread', title, body, id: row!.id, target: input.target ?? null });
  return row!.id;
}
