/**
 * Account recovery's own tables: the files a personal-data recovery uploads (an identity document
 * and a selfie, kept like customer documents: content-typed, sized, hashed) and the counters that
 * rate-limit the public recovery calls.
 */
import { index, integer, pgTable, primaryKey, serial, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { accountRecoveryTasks } from '../auth/auth.tables.ts';
import { bytea } from '../profile/profile.tables.ts';

export const accountRecoveryFiles = pgTable(
  'account_recovery_files',
  {
    id: serial('id').primaryKey(),
    taskId: uuid('task_id')
      .notNull()
      .references(() => accountRecoveryTasks.taskId),
    /** 'document' (the identity document's photo page) or 'selfie' */
    kind: text('kind', { enum: ['document', 'selfie'] }).notNull(),
    fileName: text('file_name').notNull(),
    /** read from the content (documents.service.ts detectMime), never the name */
    mimeType: text('mime_type').notNull(),
    sizeBytes: integer('size_bytes').notNull(),
    sha256: text('sha256').notNull(),
    content: bytea('content').notNull(),
    uploadedAt: timestamp('uploaded_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('account_recovery_files_task').on(t.taskId)],
);

/**
 * Calls counted per key in fixed windows (scope 'accountRecoveryRequest', key 'account:<sha256 of
 * the e-mail>' or 'address:<ip>', window start). One upsert counts and answers the new count, so
 * two concurrent calls can never both pass the last free slot (the row lock orders them).
 */
export const rateLimitCounters = pgTable(
  'rate_limit_counters',
  {
    scope: text('scope').notNull(),
    key: text('key').notNull(),
    windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
    count: integer('count').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.scope, t.key, t.windowStart] }), index('rate_limit_counters_window').on(t.windowStart)],
);
