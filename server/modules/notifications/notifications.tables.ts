/**
 * Notifications, announcements and notification settings (document 2 §3 Notification setting,
 * §7 Announcements and notifications; document 3 §3 Notification, §7 Push connection;
 * api/notifications.ts).
 *
 * - notifications: what happened to a customer (a document or username problem, a partial batch,
 *   a contract event, a ticket reply...), kept for the notification centre; each is also pushed as
 *   CustomerNotification when the user's settings allow. type and params are stored, so the app
 *   says it in the reader's language; title and body are the words in the customer's language when
 *   it was written (the push and e-mail carry them).
 * - announcements: the provider's news (/news), some asking to accept or decline.
 * - notification_settings: per user, per setting (group, identified), on or off; the platform reads
 *   them before it sends an e-mail or a push (absent: the group's default).
 */
import { bigserial, boolean, index, integer, jsonb, pgTable, primaryKey, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { customers, users } from '../customers/customers.tables.ts';

export const notifications = pgTable(
  'notifications',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id),
    /** for one user of the customer only (null: every user who acts for it) */
    userId: integer('user_id').references(() => users.id),
    /** api/notifications.ts NotificationType */
    type: text('type').notNull(),
    params: jsonb('params').$type<Record<string, string | number | null>>().notNull().default({}),
    title: text('title').notNull(),
    body: text('body').notNull(),
    /** 'unread' or 'read' */
    status: text('status').notNull().default('unread'),
    readAt: timestamp('read_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('notifications_customer').on(t.customerId, t.createdAt), index('notifications_unread').on(t.customerId, t.status)],
);

export const announcements = pgTable('announcements', {
  id: serial('id').primaryKey(),
  /** the provider's words per language: { en: { title, body }, es: {...}, ... } (English required) */
  texts: jsonb('texts').$type<Record<string, { title: string; body: string }>>().notNull(),
  /** 'all', 'personal' or 'business' */
  audience: text('audience').notNull().default('all'),
  /** the reader is asked to accept or decline (e.g. new terms of a service) */
  requiresChoice: boolean('requires_choice').notNull().default(false),
  publishedAt: timestamp('published_at', { withTimezone: true }).notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }),
  createdByUserId: integer('created_by_user_id').references(() => users.id),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
});

export const announcementReads = pgTable(
  'announcement_reads',
  {
    announcementId: integer('announcement_id')
      .notNull()
      .references(() => announcements.id),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    readAt: timestamp('read_at', { withTimezone: true }).notNull(),
    /** 'accepted' or 'declined' (null: read, no choice asked or made) */
    choice: text('choice'),
    choiceAt: timestamp('choice_at', { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.announcementId, t.userId] })],
);

export const notificationSettings = pgTable(
  'notification_settings',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    /** api/notifications.ts: the setting's group and its identifier within the product */
    group: text('group').notNull(),
    identified: text('identified').notNull(),
    value: boolean('value').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.identified] })],
);
