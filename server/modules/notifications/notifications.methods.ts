/**
 * The notification centre, the announcements and the notification settings (api/notifications.ts;
 * document 2 §3, §7; document 3 §2-§4, §7).
 *
 * Who: the centre is the acting customer's (its notifications for every user of it, or for the
 * caller alone); the announcements' read state and choices and the settings are the caller's own
 * (rights: api/rights.ts). An announcement is for the acting customer's audience (its type).
 */
import { and, count, desc, eq, gt, inArray, isNull, lte, or, type SQL } from 'drizzle-orm';
import { vf, VfCode } from '../../../api/errors.ts';
import {
  notificationSettingDef,
  NOTIFICATIONS_PAGE_SIZE,
  NotificationTargetSchema,
  type Announcement,
  type Notification,
  type notificationMethods,
} from '../../../api/notifications.ts';
import * as v from 'valibot';
import type { Db, Tx } from '../../db/types.ts';
import { customers } from '../customers/customers.tables.ts';
import type { UiLanguage } from '../dictionaries/dictionaries.tables.ts';
import { MethodFailure, vfFailure, type HandlerTable, type MethodContext } from '../method-types.ts';
import { announcementReads, announcements, notifications, notificationSettings } from './notifications.tables.ts';
import { userSettings } from './settings.ts';

export interface NotificationHandlerOptions {
  now: () => number;
}

function requireCaller(ctx: MethodContext): { userId: number; customerId: number } {
  if (!ctx.caller || ctx.customerId === null) throw new MethodFailure('AU', 'Sign-in required');
  return { userId: ctx.caller.userId, customerId: ctx.customerId };
}

/** The acting customer's notifications the caller sees: for every user of it, or for the caller. */
function visibleTo(customerId: number, userId: number): SQL {
  return and(eq(notifications.customerId, customerId), or(isNull(notifications.userId), eq(notifications.userId, userId)))!;
}

type NotificationRow = typeof notifications.$inferSelect;

function notificationWire(r: NotificationRow): Notification {
  const { target: rawTarget, ...params } = r.params ?? {};
  let target: Notification['target'] = null;
  if (typeof rawTarget === 'string') {
    try {
      const parsed = v.safeParse(NotificationTargetSchema, JSON.parse(rawTarget));
      if (parsed.success) target = parsed.output;
    } catch {
      target = null;
    }
  }
  return { id: r.id, type: r.type, status: r.status === 'read' ? 'read' : 'unread', title: r.title, body: r.body, params, target, createdAt: r.createdAt.toISOString() };
}

async function audienceOf(db: Db | Tx, customerId: number): Promise<'personal' | 'business'> {
  const [c] = await db.select({ type: customers.customerType }).from(customers).where(eq(customers.id, customerId));
  return c?.type === 'business' ? 'business' : 'personal';
}

/** Published, not expired, for this audience. */
function liveFor(audience: 'personal' | 'business', nowMs: number): SQL {
  const now = new Date(nowMs);
  return and(lte(announcements.publishedAt, now), or(isNull(announcements.expiresAt), gt(announcements.expiresAt, now)), inArray(announcements.audience, ['all', audience]))!;
}

type AnnouncementRow = typeof announcements.$inferSelect;
type ReadRow = typeof announcementReads.$inferSelect;

function announcementWire(a: AnnouncementRow, read: ReadRow | null | undefined, lang: UiLanguage): Announcement {
  const words = a.texts[lang] ?? a.texts.en ?? Object.values(a.texts)[0] ?? { title: '', body: '' };
  const audience = a.audience === 'personal' || a.audience === 'business' ? a.audience : 'all';
  const choice = read?.choice === 'accepted' || read?.choice === 'declined' ? read.choice : null;
  return {
    id: a.id,
    title: words.title,
    body: words.body,
    audience,
    requiresChoice: a.requiresChoice,
    publishedAt: a.publishedAt.toISOString(),
    expiresAt: a.expiresAt ? a.expiresAt.toISOString() : null,
    read: Boolean(read),
    choice,
  };
}

async function unreadCount(db: Db | Tx, customerId: number, userId: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(notifications)
    .where(and(visibleTo(customerId, userId), eq(notifications.status, 'unread')));
  return row?.n ?? 0;
}

export function createNotificationHandlers(options: NotificationHandlerOptions): HandlerTable<typeof notificationMethods> {
  const { now } = options;

  /** The live announcement for the caller (VF unknownReference otherwise) and the caller's read row. */
  async function liveAnnouncement(db: Db | Tx, id: number, customerId: number, userId: number) {
    const audience = await audienceOf(db, customerId);
    const [a] = await db
      .select()
      .from(announcements)
      .where(and(eq(announcements.id, id), liveFor(audience, now())));
    if (!a) throw vfFailure('id', VfCode.unknownReference);
    const [read] = await db
      .select()
      .from(announcementReads)
      .where(and(eq(announcementReads.announcementId, id), eq(announcementReads.userId, userId)));
    return { a, read: read ?? null };
  }

  return {
    async announcementsList(_input, ctx) {
      const { userId, customerId } = requireCaller(ctx);
      const audience = await audienceOf(ctx.db, customerId);
      const rows = await ctx.db
        .select({ a: announcements, read: announcementReads })
        .from(announcements)
        .leftJoin(announcementReads, and(eq(announcementReads.announcementId, announcements.id), eq(announcementReads.userId, userId)))
        .where(liveFor(audience, now()))
        .orderBy(desc(announcements.publishedAt), desc(announcements.id))
        .limit(100);
      return { announcements: rows.map((r) => announcementWire(r.a, r.read, ctx.lang)) };
    },

    async announcementGet(input, ctx) {
      const { userId, customerId } = requireCaller(ctx);
      const tx = ctx.db as Tx;
      const { a, read } = await liveAnnouncement(tx, input.id, customerId, userId);
      if (read) return { announcement: announcementWire(a, read, ctx.lang) };
      const [row] = await tx
        .insert(announcementReads)
        .values({ announcementId: a.id, userId, readAt: new Date(now()) })
        .onConflictDoNothing()
        .returning();
      ctx.audit({ announcementId: a.id, read: true });
      return { announcement: announcementWire(a, row ?? { announcementId: a.id, userId, readAt: new Date(now()), choice: null, choiceAt: null }, ctx.lang) };
    },

    async announcementAccept(input, ctx) {
      const { userId, customerId } = requireCaller(ctx);
      const tx = ctx.db as Tx;
      const { a, read } = await liveAnnouncement(tx, input.id, customerId, userId);
      if (!a.requiresChoice) throw vfFailure('id', VfCode.notOffered);
      if (read?.choice) throw vfFailure('choice', VfCode.decidedAlready);
      const choice = input.choice === 'accept' ? 'accepted' : 'declined';
      const stamp = new Date(now());
      // Once: a concurrent answer of the same user finds the row chosen and changes nothing.
      const [row] = await tx
        .insert(announcementReads)
        .values({ announcementId: a.id, userId, readAt: stamp, choice, choiceAt: stamp })
        .onConflictDoUpdate({
          target: [announcementReads.announcementId, announcementReads.userId],
          set: { choice, choiceAt: stamp },
          setWhere: isNull(announcementReads.choice),
        })
        .returning();
      if (!row) throw vfFailure('choice', VfCode.decidedAlready);
      ctx.audit({ announcementId: a.id, choice });
      return { announcement: announcementWire(a, row, ctx.lang) };
    },

    async notificationsCount(_input, ctx) {
      const { userId, customerId } = requireCaller(ctx);
      const audience = await audienceOf(ctx.db, customerId);
      const [unread, [news]] = await Promise.all([
        unreadCount(ctx.db, customerId, userId),
        ctx.db
          .select({ n: count() })
          .from(announcements)
          .leftJoin(announcementReads, and(eq(announcementReads.announcementId, announcements.id), eq(announcementReads.userId, userId)))
          .where(and(liveFor(audience, now()), isNull(announcementReads.userId))),
      ]);
      const announcementsUnread = news?.n ?? 0;
      return { count: unread + announcementsUnread, notifications: unread, announcements: announcementsUnread };
    },

    async notificationsList(input, ctx) {
      const { userId, customerId } = requireCaller(ctx);
      const where = input.unreadOnly ? and(visibleTo(customerId, userId), eq(notifications.status, 'unread'))! : visibleTo(customerId, userId);
      const page = input.pageNumber;
      const [rows, [total], unread] = await Promise.all([
        ctx.db
          .select()
          .from(notifications)
          .where(where)
          .orderBy(desc(notifications.createdAt), desc(notifications.id))
          .limit(NOTIFICATIONS_PAGE_SIZE)
          .offset((page - 1) * NOTIFICATIONS_PAGE_SIZE),
        ctx.db.select({ n: count() }).from(notifications).where(where),
        unreadCount(ctx.db, customerId, userId),
      ]);
      return { notifications: rows.map(notificationWire), pageNumber: page, pageSize: NOTIFICATIONS_PAGE_SIZE, total: total?.n ?? 0, unread };
    },

    async notificationsRead(input, ctx) {
      const { userId, customerId } = requireCaller(ctx);
      const tx = ctx.db as Tx;
      if (input.all !== true && (!input.ids || input.ids.length === 0)) {
        throw new MethodFailure('VF', 'Invalid request', [vf('ids', VfCode.oneRequired)]);
      }
      // Ids of other customers' (or other users') notifications match nothing: no oracle, no change.
      const which = input.all === true ? visibleTo(customerId, userId) : and(visibleTo(customerId, userId), inArray(notifications.id, input.ids!))!;
      const changed = await tx
        .update(notifications)
        .set({ status: 'read', readAt: new Date(now()) })
        .where(and(which, eq(notifications.status, 'unread')))
        .returning({ id: notifications.id });
      ctx.audit({ read: changed.length, all: input.all === true });
      return { read: changed.length, unread: await unreadCount(tx, customerId, userId) };
    },

    async notificationSettingsGet(_input, ctx) {
      const { userId } = requireCaller(ctx);
      return { settings: await userSettings(ctx.db, userId) };
    },

    async notificationSettingsSet(input, ctx) {
      const { userId } = requireCaller(ctx);
      const tx = ctx.db as Tx;
      const def = notificationSettingDef(input.identified);
      if (!def) throw vfFailure('identified', VfCode.notAllowed);
      // Security messages go out whatever is chosen: switching them off is refused, on is a no-op.
      if (def.locked && !input.value) throw vfFailure('value', VfCode.notAllowed);
      if (!def.locked) {
        await tx
          .insert(notificationSettings)
          .values({ userId, group: def.group, identified: def.identified, value: input.value, updatedAt: new Date(now()) })
          .onConflictDoUpdate({ target: [notificationSettings.userId, notificationSettings.identified], set: { value: input.value, updatedAt: new Date(now()) } });
      }
      ctx.audit({ identified: def.identified, value: input.value });
      return { setting: { group: def.group, identified: def.identified, value: def.locked ? true : input.value, locked: def.locked } };
    },
  };
}

/** With the wall clock (the method table's defaults; app.ts registers them with its own clock). */
export const notificationHandlers = createNotificationHandlers({ now: Date.now });
