/**
 * Notifications, announcements and notification settings (document 2 §3 Notification setting,
 * §7 Announcements and notifications, Security settings; document 3 §2 the toast and its targets,
 * §3 Notification, §4 "Notifications trigger data refreshes and navigation", §7 Push connection).
 *
 * Wire names: the spec's six (operations.tsv: announcementsList, announcementGet,
 * announcementAccept, notificationsCount, notificationSettingsGet, notificationSettingsSet) and two
 * of ours for the notification centre the count belongs to (notificationsList, notificationsRead;
 * the spec shows the count, not how the counted notifications are read).
 *
 * Decisions where the spec is silent (noted here once):
 * - A notification belongs to a customer (the one acted for) and, optionally, to one user of it
 *   (e.g. the maker of a payment). A caller sees the acting customer's notifications meant for
 *   every user of it or for the caller; reading one marks it read for the customer (a company's
 *   users share its notification centre, as they share its history).
 * - Announcements are the provider's news for an audience: 'all', 'personal' or 'business' (the
 *   acting customer's type). Read state and a choice are the user's own (a person accepts terms).
 * - The count is the unread notifications of the acting customer for the caller plus the unread
 *   announcements of the caller: what the bell shows.
 *
 * The settings catalogue (NOTIFICATION_SETTINGS): per group an 'email' and a 'push' setting, each
 * `identified` as `<group>.<channel>`:
 * - security: sign-in from a new device, password and two-step changes. Locked on: a bank must
 *   tell a customer about changes to their access whatever they chose (the platform refuses VF
 *   notAllowed to switch them off; the app shows them on and disabled with that reason);
 * - account: a document rejected by review, a username change that failed (they go to profile);
 * - payments: a mass or global-pay batch finished with failures, a payment waiting for approval;
 * - contracts: revenue-split contract events (created, signed, active, rejected, ended...);
 * - support: replies to the customer's support tickets and their closing;
 * - news: the provider's announcements (e-mail off by default: news is read in the app).
 * Absent rows answer the default. The platform reads them before it sends: a push only to the
 * users whose `<group>.push` is on (the notification is still written for the centre), an e-mail
 * (contract and support types, NOTIFICATION_TYPES[type].email) only when `<group>.email` is on.
 */
import * as v from 'valibot';
import { VfCode } from './errors.ts';
import { Id, defineMethod } from './method.ts';
import { NotificationTargetSchema, type NotificationTarget } from './push.ts';

export const NOTIFICATION_GROUPS = ['security', 'account', 'payments', 'contracts', 'support', 'news'] as const;
export type NotificationGroup = (typeof NOTIFICATION_GROUPS)[number];
export const NOTIFICATION_CHANNELS = ['email', 'push'] as const;
export type NotificationChannel = (typeof NOTIFICATION_CHANNELS)[number];

export interface NotificationSettingDef {
  group: NotificationGroup;
  channel: NotificationChannel;
  /** `<group>.<channel>` */
  identified: string;
  defaultValue: boolean;
  /** always on: the customer cannot switch it off (security messages) */
  locked: boolean;
}

const setting = (group: NotificationGroup, channel: NotificationChannel, defaultValue = true, locked = false): NotificationSettingDef => ({
  group,
  channel,
  identified: `${group}.${channel}`,
  defaultValue,
  locked,
});

/** Every setting, in the order the settings page shows them. */
export const NOTIFICATION_SETTINGS: readonly NotificationSettingDef[] = [
  setting('security', 'email', true, true),
  setting('security', 'push', true, true),
  setting('account', 'email'),
  setting('account', 'push'),
  setting('payments', 'email'),
  setting('payments', 'push'),
  setting('contracts', 'email'),
  setting('contracts', 'push'),
  setting('support', 'email'),
  setting('support', 'push'),
  setting('news', 'email', false),
  setting('news', 'push'),
];

export function notificationSettingDef(identified: string): NotificationSettingDef | undefined {
  return NOTIFICATION_SETTINGS.find((s) => s.identified === identified);
}

/**
 * Every notification type a module may send (server/modules/notifications/notify.ts), its group
 * (which settings apply) and whether it is also e-mailed (when `<group>.email` is on). The params
 * each type's words use are listed beside it; a target's id (contractId, ticketNumber, batchId) is
 * also available to the words.
 */
export const NOTIFICATION_TYPES = {
  // contracts (document 3 §2: smart-contract events go to the contract); params: contractId, counterparty?
  contractCreated: { group: 'contracts', email: true },
  contractSigned: { group: 'contracts', email: true },
  contractActive: { group: 'contracts', email: true },
  contractRejected: { group: 'contracts', email: true },
  contractCancelled: { group: 'contracts', email: true },
  contractTerminating: { group: 'contracts', email: true },
  contractTerminated: { group: 'contracts', email: true },
  contractExpired: { group: 'contracts', email: true },
  // support; params: ticketNumber, subject?
  ticketReply: { group: 'support', email: true },
  ticketClosed: { group: 'support', email: true },
  // a mass or global-pay batch finished with failures (document 3 §2: a partial batch goes to the batch); params: batchId, failed, total
  batchPartial: { group: 'payments', email: false },
  // document and username problems go to profile (document 3 §2); params: reason?
  documentRejected: { group: 'account', email: false },
  usernameChangeFailed: { group: 'account', email: false },
} as const satisfies Record<string, { group: NotificationGroup; email: boolean }>;
export type NotificationType = keyof typeof NOTIFICATION_TYPES;

export function isNotificationType(type: string): type is NotificationType {
  return Object.hasOwn(NOTIFICATION_TYPES, type);
}

/** The group of any type; a type sent without an entry here is a payments notice (e.g. the maker-checker notices). */
export function notificationGroupOf(type: string): NotificationGroup {
  return isNotificationType(type) ? NOTIFICATION_TYPES[type].group : 'payments';
}

export const NOTIFICATIONS_PAGE_SIZE = 20;
/** notificationsRead takes at most this many ids at once (else `all`). */
export const NOTIFICATIONS_READ_MAX_IDS = 100;

export { NotificationTargetSchema, type NotificationTarget };

const ParamsSchema = v.record(v.string(), v.nullable(v.union([v.string(), v.number()])));

/** document 3 §3 Notification: type, status, title, body; ours: id, params (the words' values), target, createdAt. */
export const NotificationSchema = v.object({
  id: v.number(),
  /** NotificationType (or another module's type) */
  type: v.string(),
  status: v.picklist(['unread', 'read']),
  /** the words in the customer's language when it was sent; the app says it in the reader's from type and params */
  title: v.string(),
  body: v.string(),
  params: ParamsSchema,
  target: v.nullable(NotificationTargetSchema),
  /** ISO 8601 */
  createdAt: v.string(),
});
export type Notification = v.InferOutput<typeof NotificationSchema>;

export const AnnouncementSchema = v.object({
  id: v.number(),
  /** in the reader's language (English when the provider wrote none in it) */
  title: v.string(),
  body: v.string(),
  audience: v.picklist(['all', 'personal', 'business']),
  /** the reader is asked to accept or decline */
  requiresChoice: v.boolean(),
  /** ISO 8601 */
  publishedAt: v.string(),
  expiresAt: v.nullable(v.string()),
  read: v.boolean(),
  /** the reader's answer (requiresChoice only) */
  choice: v.nullable(v.picklist(['accepted', 'declined'])),
});
export type Announcement = v.InferOutput<typeof AnnouncementSchema>;

/** document 2 §3 Notification setting: group, identified, value; ours: locked. */
export const NotificationSettingSchema = v.object({
  group: v.picklist(NOTIFICATION_GROUPS),
  identified: v.string(),
  value: v.boolean(),
  /** always on (security): shown on and disabled */
  locked: v.boolean(),
});
export type NotificationSetting = v.InferOutput<typeof NotificationSettingSchema>;

/** The provider's announcements for the acting customer's audience, newest first, with the caller's read state and choice. */
export const announcementsList = defineMethod({
  name: 'announcementsList',
  access: 'customer',
  mutation: false,
  request: {},
  response: { announcements: v.array(AnnouncementSchema) },
});

/** One announcement; the caller has read it from now on. */
export const announcementGet = defineMethod({
  name: 'announcementGet',
  access: 'customer',
  mutation: true,
  request: { id: Id },
  response: { announcement: AnnouncementSchema },
});

/** Accept or decline an announcement that asks (requiresChoice), once: VF decidedAlready after, notOffered where none is asked. */
export const announcementAccept = defineMethod({
  name: 'announcementAccept',
  access: 'customer',
  mutation: true,
  request: { id: Id, choice: v.picklist(['accept', 'decline'], VfCode.notAllowed) },
  response: { announcement: AnnouncementSchema },
});

/** The bell's number: unread notifications of the acting customer for the caller plus unread announcements. */
export const notificationsCount = defineMethod({
  name: 'notificationsCount',
  access: 'customer',
  mutation: false,
  request: {},
  response: { count: v.number(), notifications: v.number(), announcements: v.number() },
});

/** Ours: the notification centre, newest first, NOTIFICATIONS_PAGE_SIZE a page. */
export const notificationsList = defineMethod({
  name: 'notificationsList',
  access: 'customer',
  mutation: false,
  request: {
    pageNumber: v.optional(v.pipe(v.number(VfCode.wrongType), v.integer(VfCode.notInteger), v.minValue(1, VfCode.tooSmall), v.maxValue(10_000, VfCode.tooLarge)), 1),
    unreadOnly: v.optional(v.boolean(VfCode.wrongType), false),
  },
  response: { notifications: v.array(NotificationSchema), pageNumber: v.number(), pageSize: v.number(), total: v.number(), unread: v.number() },
});

/** Ours: marks notifications read: the ids given, or all of the acting customer's for the caller. */
export const notificationsRead = defineMethod({
  name: 'notificationsRead',
  access: 'customer',
  mutation: true,
  request: {
    ids: v.optional(v.pipe(v.array(Id, VfCode.wrongType), v.maxLength(NOTIFICATIONS_READ_MAX_IDS, VfCode.tooManyItems))),
    all: v.optional(v.boolean(VfCode.wrongType)),
  },
  response: { read: v.number(), unread: v.number() },
});

/** Every setting with its value (the default when never set). */
export const notificationSettingsGet = defineMethod({
  name: 'notificationSettingsGet',
  access: 'customer',
  mutation: false,
  request: {},
  response: { settings: v.array(NotificationSettingSchema) },
});

/** One setting: VF notAllowed for an unknown identified or a locked one switched off. */
export const notificationSettingsSet = defineMethod({
  name: 'notificationSettingsSet',
  access: 'customer',
  mutation: true,
  request: {
    identified: v.pipe(v.string(VfCode.required), v.trim(), v.minLength(1, VfCode.required), v.maxLength(50, VfCode.tooLong)),
    value: v.boolean(VfCode.required),
  },
  response: { setting: NotificationSettingSchema },
});

export const notificationMethods = {
  announcementsList,
  announcementGet,
  announcementAccept,
  notificationsCount,
  notificationsList,
  notificationsRead,
  notificationSettingsGet,
  notificationSettingsSet,
} as const;
