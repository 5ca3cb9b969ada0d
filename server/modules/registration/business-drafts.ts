/**
 * The business registration wizard's saved draft (api/business-registration.ts
 * businessRegistrationDraftGet/Save/Delete; document 3 §4 "The draft persists", issue 17 item 1).
 *
 * - Keyed by the e-mail address and the sha-256 of the device secret: a caller who knows only an
 *   e-mail reads nothing; the wrong secret reads as no draft (the same answer as none at all).
 * - A draft lives BUSINESS_DRAFT_TTL_DAYS from its last save. An expired one reads as none; the
 *   transfers sweeper's periodic run deletes it (deleteExpiredDrafts, wired in server/app.ts).
 * - Limits on everything: at most BUSINESS_DRAFT_MAX_BYTES of JSON (VF draftTooLarge), at most
 *   MAX_DRAFTS_PER_EMAIL devices per e-mail (the oldest save goes), and DRAFT_SAVES_PER_MINUTE saves
 *   and deletes per client address (the calls are public: nobody may fill the table or the audit log).
 * - The audit entry of a save or delete holds no e-mail and no draft (the endpoint writes it).
 */
import { and, asc, eq, lte, inArray } from 'drizzle-orm';
import { BUSINESS_DRAFT_MAX_BYTES, BUSINESS_DRAFT_TTL_DAYS, type businessRegistrationMethods } from '../../../api/business-registration.ts';
import { ResponseCode } from '../../../api/envelope.ts';
import { VfCode } from '../../../api/errors.ts';
import type { Db, Tx } from '../../db/types.ts';
import { sha256Hex } from '../auth/crypto.ts';
import { MethodFailure, vfFailure, type HandlerTable } from '../method-types.ts';
import { businessRegistrationDrafts } from './business-registration.tables.ts';
import { createAddressLimiter, RegistrationMessages } from './registration.service.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Devices one e-mail keeps a draft on; a save from one more device drops the oldest. */
export const MAX_DRAFTS_PER_EMAIL = 5;
/** Draft saves per client address per minute (the wizard saves when a form is left, not per keystroke). */
export const DRAFT_SAVES_PER_MINUTE = 60;
/** Expired drafts one sweep deletes at most (the next run takes the rest). */
const DELETE_BATCH = 500;

export interface BusinessDraftOptions {
  now: () => number;
  draftSavesPerMinute?: number;
}

/** The JSON size of a draft in bytes (what the platform keeps). */
export function draftBytes(draft: unknown): number {
  return Buffer.byteLength(JSON.stringify(draft), 'utf8');
}

/** Deletes the drafts whose time is up at `nowMs` (the sweeper's run); returns how many. */
export async function deleteExpiredDrafts(db: Db, nowMs: number): Promise<number> {
  const due = await db
    .select({ id: businessRegistrationDrafts.id })
    .from(businessRegistrationDrafts)
    .where(lte(businessRegistrationDrafts.expiresAt, new Date(nowMs)))
    .orderBy(asc(businessRegistrationDrafts.expiresAt))
    .limit(DELETE_BATCH);
  if (due.length === 0) return 0;
  const deleted = await db
    .delete(businessRegistrationDrafts)
    .where(
      and(
        inArray(
          businessRegistrationDrafts.id,
          due.map((d) => d.id),
        ),
        lte(businessRegistrationDrafts.expiresAt, new Date(nowMs)),
      ),
    )
    .returning({ id: businessRegistrationDrafts.id });
  return deleted.length;
}

/** A registration went through: the drafts kept for its e-mail addresses are of no use any more. */
export async function deleteDraftsOf(tx: Db | Tx, emails: readonly string[]): Promise<void> {
  if (emails.length === 0) return;
  await tx.delete(businessRegistrationDrafts).where(inArray(businessRegistrationDrafts.email, [...new Set(emails)]));
}

export function createBusinessDraftHandlers(options: BusinessDraftOptions): HandlerTable<typeof businessRegistrationMethods> {
  const { now } = options;
  const limiter = createAddressLimiter(options.draftSavesPerMinute ?? DRAFT_SAVES_PER_MINUTE, now);
  const keyOf = (input: { email: string; deviceSecret: string }) =>
    and(eq(businessRegistrationDrafts.email, input.email), eq(businessRegistrationDrafts.deviceSecretHash, sha256Hex(input.deviceSecret)));

  return {
    async businessRegistrationDraftGet(input, ctx) {
      const [row] = await ctx.db.select().from(businessRegistrationDrafts).where(keyOf(input)).limit(1);
      // An expired draft reads as none (the sweeper deletes it).
      if (!row || row.expiresAt.getTime() <= now()) return { draft: null, savedAt: null };
      return { draft: { version: row.version, data: row.data }, savedAt: row.savedAt.toISOString() };
    },

    async businessRegistrationDraftSave(input, ctx) {
      if (!limiter.take(ctx.ip)) throw new MethodFailure(ResponseCode.unknown, RegistrationMessages.tooMany);
      const bytes = draftBytes(input.draft);
      if (bytes > BUSINESS_DRAFT_MAX_BYTES) throw vfFailure('draft', VfCode.draftTooLarge, { maxKb: Math.floor(BUSINESS_DRAFT_MAX_BYTES / 1024) });
      const savedAt = new Date(now());
      const expiresAt = new Date(now() + BUSINESS_DRAFT_TTL_DAYS * DAY_MS);
      const deviceSecretHash = sha256Hex(input.deviceSecret);
      await ctx.db
        .insert(businessRegistrationDrafts)
        .values({ email: input.email, deviceSecretHash, version: input.draft.version, data: input.draft.data, savedAt, expiresAt })
        .onConflictDoUpdate({
          target: [businessRegistrationDrafts.email, businessRegistrationDrafts.deviceSecretHash],
          set: { version: input.draft.version, data: input.draft.data, savedAt, expiresAt },
        });
      // One e-mail keeps drafts on MAX_DRAFTS_PER_EMAIL devices: the oldest saves beyond go.
      const kept = await ctx.db
        .select({ id: businessRegistrationDrafts.id })
        .from(businessRegistrationDrafts)
        .where(eq(businessRegistrationDrafts.email, input.email))
        .orderBy(asc(businessRegistrationDrafts.savedAt), asc(businessRegistrationDrafts.id));
      const surplus = kept.slice(0, Math.max(0, kept.length - MAX_DRAFTS_PER_EMAIL)).map((r) => r.id);
      if (surplus.length > 0) await ctx.db.delete(businessRegistrationDrafts).where(inArray(businessRegistrationDrafts.id, surplus));
      // No e-mail and no draft in the audit log: its size only.
      ctx.audit({ draftSaved: true, bytes });
      return { savedAt: savedAt.toISOString() };
    },

    async businessRegistrationDraftDelete(input, ctx) {
      if (!limiter.take(ctx.ip)) throw new MethodFailure(ResponseCode.unknown, RegistrationMessages.tooMany);
      const deleted = await ctx.db.delete(businessRegistrationDrafts).where(keyOf(input)).returning({ id: businessRegistrationDrafts.id });
      ctx.audit({ draftDeleted: deleted.length > 0 });
      return {};
    },
  };
}
