/**
 * The notification settings as the platform reads them (api/notifications.ts NOTIFICATION_SETTINGS):
 * a user's stored value, else the setting's default; a locked setting is on whatever is stored.
 */
import { and, eq, inArray } from 'drizzle-orm';
import { NOTIFICATION_SETTINGS, notificationSettingDef, type NotificationSetting } from '../../../api/notifications.ts';
import type { Db, Tx } from '../../db/types.ts';
import { notificationSettings } from './notifications.tables.ts';

/** Every setting of one user, as notificationSettingsGet answers it. */
export async function userSettings(db: Db | Tx, userId: number): Promise<NotificationSetting[]> {
  const rows = await db.select().from(notificationSettings).where(eq(notificationSettings.userId, userId));
  const stored = new Map(rows.map((r) => [r.identified, r.value]));
  return NOTIFICATION_SETTINGS.map((s) => ({ group: s.group, identified: s.identified, value: s.locked ? true : (stored.get(s.identified) ?? s.defaultValue), locked: s.locked }));
}

/** One setting's value for each user given (the default for users who never set it). */
export async function settingFor(db: Db | Tx, userIds: readonly number[], identified: string): Promise<Map<number, boolean>> {
  const def = notificationSettingDef(identified);
  if (!def) throw new Error(`notification setting ${identified} is not in the catalogue`);
  const values = new Map(userIds.map((id) => [id, def.defaultValue]));
  if (def.locked || userIds.length === 0) {
    if (def.locked) for (const id of userIds) values.set(id, true);
    return values;
  }
  const rows = await db
    .select({ userId: notificationSettings.userId, value: notificationSettings.value })
    .from(notificationSettings)
    .where(and(inArray(notificationSettings.userId, [...userIds]), eq(notificationSettings.identified, identified)));
  for (const r of rows) values.set(r.userId, r.value);
  return values;
}
