/**
 * The push outbox (publisher.ts): on PostgreSQL every push event is a row here, written in the
 * transaction of the change it tells about, with a NOTIFY that PostgreSQL delivers at that
 * commit. Listeners deliver from the NOTIFY; one whose LISTEN connection was lost reads the rows
 * it missed from here once it has re-subscribed. Rows are only needed for that catch-up, so they
 * are pruned after PUSH_EVENT_RETENTION_MS (publisher.ts).
 */
import { bigserial, index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

export const pushEvents = pgTable(
  'push_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** publisher.ts channelKey: customer:<id>, device:<id> or attempt:<sha256 hex> */
    channel: text('channel').notNull(),
    event: jsonb('event').$type<Record<string, unknown> & { type: string }>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('push_events_created_at').on(t.createdAt)],
);
