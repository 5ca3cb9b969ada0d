/**
 * The one way a module tells a customer something happened (document 3 §7 CustomerNotification,
 * §2 the toast's targets): `notify(tx, publish, input)` writes the notification in the caller's
 * transaction (the notification centre lists it) and hands the push event to `publish`, which the
 * caller's machinery sends after the commit (a named method's `publish`; a REST route's staged
 * publisher). A rolled-back change notifies nobody.
 *
 * Owned by the notifications module (server/modules/notifications): it renders the title and body
 * in the customer's language (notification-texts.ts) and honours the users' notification settings
 * (api/notifications.ts) before a push or an e-mail goes out:
 * - the row is always written (the centre shows what happened, whatever reached the phone);
 * - the push goes to the recipients whose `<group>.push` is on: to the whole customer channel when
 *   every recipient wants it, else only to those users' sockets (forUserIds), else to nobody;
 * - the types e-mailed (NOTIFICATION_TYPES[type].email) go, in the caller's transaction through the
 *   mail outbox, to each recipient whose `<group>.email` is on, in that user's own language.
 * Recipients: the user named, else every user who acts for the customer (its own users and those
 * with an access right above none).
 * Callers only name the type, its parameters and where the toast leads.
 */
import { and, eq, gt } from 'drizzle-orm';
import { isNotificationType, NOTIFICATION_TYPES, notificationGroupOf } from '../../../api/notifications.ts';
import type { NotificationTarget as WireTarget } from '../../../api/push.ts';
import { activeVariant } from '../../../variants/index.ts';
import { enqueueMail } from '../../adapters/outbox.ts';
import type { Tx } from '../../db/types.ts';
import { customerAccess, customers, users } from '../customers/customers.tables.ts';
import { toUiLanguage } from '../dictionaries/dictionaries.service.ts';
import type { UiLanguage } from '../dictionaries/dictionaries.tables.ts';
import { fill, MAIL_TEXTS, renderWords, type WordParams } from './notification-texts.ts';
import { notifications } from './notifications.tables.ts';
import { settingFor } from './settings.ts';

/** Where the toast and the centre's entry lead (document 3 §2: documents and username to profile, a partial batch to the batch, contract events to the contract; ours: a ticket reply to the ticket). */
export type NotificationTarget = WireTarget;

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

/** Title and body of a notification in a language (the type itself for a type without words). */
export type NotificationRenderer = (type: string, lang: UiLanguage, params: WordParams) => { title: string; body: string };

const defaultRenderer: NotificationRenderer = (type, lang, params) => renderWords(type, lang, params) ?? { title: type, body: '' };
let renderer: NotificationRenderer = defaultRenderer;

/** Replaces the words (tests); null restores notification-texts.ts. */
export function setNotificationRenderer(next: NotificationRenderer | null): void {
  renderer = next ?? defaultRenderer;
}

/** The ids a target carries, as parameters the words may use. */
function targetParams(target: NotificationTarget | null | undefined): WordParams {
  if (!target) return {};
  switch (target.kind) {
    case 'batch':
      return { batchId: target.batchId };
    case 'contract':
      return { contractId: target.contractId };
    case 'ticket':
      return { ticketNumber: target.ticketNumber };
    case 'news':
      return { announcementId: target.announcementId };
    case 'profile':
      return {};
  }
}

interface Recipient {
  userId: number;
  email: string;
  /** the user's own customer's settings language */
  language: UiLanguage;
}

/** The user named (when still enabled), else every enabled user who acts for the customer. */
async function recipientsOf(tx: Tx, customerId: number, userId: number | null): Promise<Recipient[]> {
  const own = tx
    .select({ userId: users.id, email: users.email, language: customers.language })
    .from(users)
    .innerJoin(customers, eq(customers.id, users.customerId))
    .where(and(eq(users.disabled, false), userId === null ? eq(users.customerId, customerId) : eq(users.id, userId)));
  const acting =
    userId === null
      ? tx
          .select({ userId: users.id, email: users.email, language: customers.language })
          .from(customerAccess)
          .innerJoin(users, eq(users.id, customerAccess.userId))
          .innerJoin(customers, eq(customers.id, users.customerId))
          .where(and(eq(customerAccess.customerId, customerId), gt(customerAccess.accessRights, 0), eq(users.disabled, false)))
      : Promise.resolve([]);
  const byId = new Map<number, Recipient>();
  for (const r of [...(await own), ...(await acting)]) byId.set(r.userId, { userId: r.userId, email: r.email, language: toUiLanguage(r.language) });
  return [...byId.values()].sort((a, b) => a.userId - b.userId);
}

/** Writes the notification and pushes it (CustomerNotification) after the commit; answers its id. */
export async function notify(tx: Tx, publish: PublishAfterCommit, input: NotifyInput): Promise<number> {
  const group = notificationGroupOf(input.type);
  const words: WordParams = { ...targetParams(input.target), ...(input.params ?? {}) };
  const [customer] = await tx.select({ language: customers.language }).from(customers).where(eq(customers.id, input.customerId));
  const { title, body } = renderer(input.type, toUiLanguage(customer?.language), words);
  const params = { ...(input.params ?? {}), ...(input.target ? { target: JSON.stringify(input.target) } : {}) };
  const [row] = await tx
    .insert(notifications)
    .values({ customerId: input.customerId, userId: input.userId ?? null, type: input.type, params, title, body, createdAt: new Date(input.nowMs) })
    .returning({ id: notifications.id });
  const id = row!.id;

  const recipients = await recipientsOf(tx, input.customerId, input.userId ?? null);
  const ids = recipients.map((r) => r.userId);
  const push = await settingFor(tx, ids, `${group}.push`);
  const pushTo = ids.filter((u) => push.get(u) === true);
  if (pushTo.length > 0) {
    // Everyone acting for the customer wants it (and nobody in particular was named): the whole
    // channel; otherwise only the sockets of those who do.
    const everyone = input.userId == null && pushTo.length === ids.length;
    publish(input.customerId, {
      type: 'CustomerNotification',
      notificationType: input.type,
      status: 'unread',
      title,
      body,
      id,
      target: input.target ?? null,
      params: input.params ?? {},
      ...(everyone ? {} : { forUserIds: pushTo }),
    });
  }

  if (isNotificationType(input.type) && NOTIFICATION_TYPES[input.type].email) {
    const email = await settingFor(tx, ids, `${group}.email`);
    for (const r of recipients) {
      if (email.get(r.userId) !== true) continue;
      const mail = MAIL_TEXTS[r.language];
      const own = renderer(input.type, r.language, words);
      await enqueueMail(tx, {
        to: r.email,
        subject: `${activeVariant.projectName}: ${own.title}`.slice(0, 200),
        text: [own.body, '', fill(mail.seeInApp, { provider: activeVariant.projectName }), '', mail.footer].join('\n'),
      });
    }
  }
  return id;
}
