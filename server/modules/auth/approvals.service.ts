/**
 * Approval requests (document 1 §3 push and verifyDevice, §7 two-step mode): something a linked
 * device approves or declines. A request is created inside the caller's transaction and delivered
 * (ApprovalRequested on each target device's channel) once that transaction has committed; the
 * answer (PUT /auth/login/{key}/confirm) flips it from pending atomically and tells the waiting
 * browser (LoginApproval on the attempt channel) and every device (ApprovalClosed).
 *
 * Kinds: login (push and verifyDevice sign-in), twoStepMode (a two-step mode change), transfer (a
 * pending transfer of a customer whose approve mode is push: transfers/approval.service.ts creates
 * it, the hook posts or rejects the transfer in the answering transaction).
 *
 * The key: devices and the browser's QR link carry it; only sha256(key) is stored. Because the
 * device companion lists pending requests and re-sends deliver them again, the key must be
 * producible later: it is an HMAC of a random nonce (kept in the row's details) under the platform
 * signing key, so the database alone (a leak, a backup) yields no key.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { and, desc, eq, gt, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import { APPROVAL_TTL_S, SECOND_STEP_TTL_S } from '../../../api/auth.ts';
import { ApproveMethod, type ApprovalRequest } from '../../../api/devices.ts';
import type { PushEvent } from '../../../api/push.ts';
import type { Db, Tx } from '../../db/types.ts';
import type { PushPublisher } from '../push/publisher.ts';
import { approvalRequests, devices } from './auth.tables.ts';
import { randomToken, sha256Hex } from './crypto.ts';
import { AuthFailure } from './tokens.service.ts';
import type { DeviceCaller } from './devices.service.ts';

/** A re-send (POST /auth/push/re-send) is refused within this many seconds of the last delivery. */
export const RESEND_INTERVAL_S = 10;
/** Requests a device lists at once (GET /device-api/device). */
const MAX_PENDING_LISTED = 50;
/** User agents are shown on the phone and stored: browsers send a few hundred characters at most. */
const MAX_USER_AGENT_LENGTH = 256;
/** Answered and expired requests are kept a day (the login history and support may look), then pruned. */
const RETENTION_MS = 24 * 60 * 60 * 1000;
const PRUNE_PROBABILITY = 0.01;
/** Delivery waits for the creating transaction to commit by polling for the row this long at most. */
const DELIVERY_WAIT_MS = 5_000;

export const ApprovalMessages = {
  unknownRequest: 'Unknown approval request',
  wrongDevice: 'This device may not answer this request',
  unknownAttempt: 'Unknown or finished sign-in attempt',
  attemptOver: 'This sign-in attempt has expired; sign in again',
  resendTooSoon: 'The request was just sent; wait a few seconds before sending it again',
} as const;

export type ApprovalKind = 'login' | 'twoStepMode' | 'transfer';
export type ApprovalRow = typeof approvalRequests.$inferSelect;
export type ApprovalStatus = ApprovalRow['status'];

export interface ApprovalDetails {
  ip: string;
  countryCode: string | null;
  userAgent: string;
}

/** What a transfer approval shows on the phone (api/devices.ts ApprovalTransferSchema). */
export interface TransferApprovalDetails {
  transactionId: number;
  amount: string;
  currency: string;
  fee?: string;
  payeeName: string;
}

/** What the details column holds beyond the wire details (never sent as such). */
interface StoredDetails extends ApprovalDetails {
  mode?: number;
  transfer?: TransferApprovalDetails;
  /** input of the key's HMAC (base64url) */
  nonce: string;
  /** ISO time of the last delivery to devices; absent while undelivered (verifyDevice before the choice) */
  sentAt?: string;
}

export interface ApprovalHooks {
  /** runs in the answering transaction when a twoStepMode request is approved (security/two-step.service.ts) */
  twoStepMode?: (tx: Tx, row: ApprovalRow) => Promise<void>;
  /** a transfer request's answer, approved or declined (transfers/approval.service.ts) */
  transfer?: TransferAnswerHook;
}

export interface TransferAnswerHook {
  /**
   * Runs first in the answering transaction, before the request's row is updated: it locks the
   * transfer, so that every path takes the transfer's lock before the request's (a cancel or an
   * expiry voids the transfer and then closes its request) and the two can never deadlock.
   */
  lock(tx: Tx, row: ApprovalRow): Promise<void>;
  /** Posts (approved) or rejects (declined) the transfer in the answering transaction; may return what to do after commit. */
  answered(tx: Tx, row: ApprovalRow, approved: boolean): Promise<(() => Promise<void>) | void>;
}

export interface ApprovalServiceDeps {
  db: Db;
  publisher: PushPublisher;
  now: () => number;
  /** the platform signing key (keys are derived from it); a per-process key when omitted (tests) */
  signingKey?: Uint8Array;
  onApproved?: ApprovalHooks;
  /** where delivery failures are reported (they never fail the request) */
  log?: (err: unknown) => void;
}

export type ApprovalService = ReturnType<typeof createApprovalService>;

/** The device approval method each kind needs (transfers: login, see api/devices.ts ApproveMethod). */
const KIND_METHOD: Readonly<Record<ApprovalKind, number>> = {
  login: ApproveMethod.login,
  twoStepMode: ApproveMethod.twoStepMode,
  transfer: ApproveMethod.login,
};
const methodOfKind = (kind: ApprovalKind): number => KIND_METHOD[kind];

export function createApprovalService({ db, publisher, now, signingKey, onApproved = {}, log }: ApprovalServiceDeps) {
  const keySecret = signingKey ?? randomBytes(32);
  const at = (ms: number) => new Date(ms);
  const detailsOf = (row: ApprovalRow) => row.details as StoredDetails;
  const keyOf = (row: ApprovalRow) => deriveKey(detailsOf(row).nonce);
  const report = (err: unknown) => log?.(err);

  function deriveKey(nonce: string): string {
    return createHmac('sha256', keySecret).update(`approval-key:${nonce}`).digest('base64url');
  }

  function toWire(row: ApprovalRow): ApprovalRequest {
    const details = detailsOf(row);
    return {
      key: keyOf(row),
      kind: row.kind,
      ip: details.ip,
      countryCode: details.countryCode,
      userAgent: details.userAgent,
      ...(details.mode !== undefined ? { mode: details.mode } : {}),
      ...(details.transfer ? { transfer: details.transfer } : {}),
      createdAt: row.createdAt.toISOString(),
      expiresAt: row.expiresAt.toISOString(),
    };
  }

  /** Approved devices of the user that may answer the row (its kind's method; the chosen device only). */
  async function targetDeviceIds(exec: Db | Tx, row: Pick<ApprovalRow, 'userId' | 'kind' | 'deviceId'>): Promise<number[]> {
    const rows = await exec
      .select({ id: devices.id, methods: devices.approveMethodIds })
      .from(devices)
      .where(
        and(
          eq(devices.userId, row.userId),
          eq(devices.status, 'approved'),
          row.deviceId === null ? undefined : eq(devices.id, row.deviceId),
        ),
      );
    return rows.filter((d) => d.methods.includes(methodOfKind(row.kind))).map((d) => d.id);
  }

  async function publishToDevices(ids: number[], event: PushEvent): Promise<void> {
    await Promise.all(ids.map((id) => publisher.publishTo({ kind: 'device', id }, event).catch(report)));
  }

  async function publishRequested(row: ApprovalRow): Promise<void> {
    await publishToDevices(await targetDeviceIds(db, row), { type: 'ApprovalRequested', request: toWire(row) });
  }

  /** The outcome to the waiting browser (login) and to every approved device of the user. */
  async function publishOutcome(row: ApprovalRow, status: 'approved' | 'declined' | 'expired'): Promise<void> {
    if (row.kind === 'login' && row.temporaryTokenHash) {
      await publisher.publishTo({ kind: 'attempt', id: row.temporaryTokenHash }, { type: 'LoginApproval', status }).catch(report);
    }
    const ids = await db
      .select({ id: devices.id })
      .from(devices)
      .where(and(eq(devices.userId, row.userId), eq(devices.status, 'approved')));
    await publishToDevices(
      ids.map((d) => d.id),
      { type: 'ApprovalClosed', key: keyOf(row), status },
    );
  }

  /**
   * The creating transaction belongs to the caller, so its commit is not visible here: delivery
   * waits until the row can be read outside it (PGlite runs a statement after the open
   * transaction; PostgreSQL sees the row once committed). A rolled-back request never appears and
   * is never delivered.
   */
  function deliverAfterCommit(keyHash: string): void {
    const startedMs = Date.now();
    let delayMs = 0;
    const attempt = async () => {
      try {
        const [row] = await db.select().from(approvalRequests).where(eq(approvalRequests.keyHash, keyHash));
        if (row) {
          if (row.status === 'pending') await publishRequested(row);
          return;
        }
      } catch (err) {
        report(err);
        return;
      }
      if (Date.now() - startedMs > DELIVERY_WAIT_MS) return;
      delayMs = Math.min(Math.max(delayMs * 2, 10), 500);
      setTimeout(() => void attempt(), delayMs).unref();
    };
    setImmediate(() => void attempt());
  }

  /** Like deliverAfterCommit: once the closed status is visible outside the caller's transaction, the devices drop it. */
  function closedAfterCommit(keyHash: string, status: 'declined' | 'expired'): void {
    const startedMs = Date.now();
    let delayMs = 0;
    const attempt = async () => {
      try {
        const [row] = await db.select().from(approvalRequests).where(eq(approvalRequests.keyHash, keyHash));
        if (row && row.status === status) {
          await publishOutcome(row, status);
          return;
        }
        if (row && row.status !== 'pending') return;
      } catch (err) {
        report(err);
        return;
      }
      if (Date.now() - startedMs > DELIVERY_WAIT_MS) return;
      delayMs = Math.min(Math.max(delayMs * 2, 10), 500);
      setTimeout(() => void attempt(), delayMs).unref();
    };
    setImmediate(() => void attempt());
  }

  async function insertRequest(
    tx: Tx | Db,
    input: {
      userId: number;
      kind: ApprovalKind;
      deviceId: number | null;
      temporaryTokenHash: string | null;
      details: ApprovalDetails & { mode?: number; transfer?: TransferApprovalDetails };
      deliver: boolean;
      /** APPROVAL_TTL_S from now unless given (a transfer's request lives as long as the transfer may wait) */
      expiresAt?: Date;
    },
  ): Promise<{ key: string; keyHash: string; expiresAt: Date; deviceCount: number }> {
    const nonce = randomBytes(16).toString('base64url');
    const key = deriveKey(nonce);
    const keyHash = sha256Hex(key);
    const expiresAt = input.expiresAt ?? at(now() + APPROVAL_TTL_S * 1000);
    const details: StoredDetails = {
      ip: input.details.ip,
      countryCode: input.details.countryCode,
      userAgent: input.details.userAgent.slice(0, MAX_USER_AGENT_LENGTH),
      ...(input.details.mode !== undefined ? { mode: input.details.mode } : {}),
      ...(input.details.transfer ? { transfer: input.details.transfer } : {}),
      nonce,
      ...(input.deliver ? { sentAt: at(now()).toISOString() } : {}),
    };
    await tx.insert(approvalRequests).values({
      keyHash,
      userId: input.userId,
      kind: input.kind,
      temporaryTokenHash: input.temporaryTokenHash,
      deviceId: input.deviceId,
      details,
      createdAt: at(now()),
      expiresAt,
    });
    const deviceCount = (await targetDeviceIds(tx, input)).length;
    if (input.deliver) deliverAfterCommit(keyHash);
    // Now and then, outside the caller's transaction, drop requests nobody can use any more.
    if (Math.random() < PRUNE_PROBABILITY) {
      setImmediate(() => void db.delete(approvalRequests).where(lt(approvalRequests.expiresAt, at(now() - RETENTION_MS))).catch(report));
    }
    return { key, keyHash, expiresAt, deviceCount };
  }

  /** Marks a pending request expired when its time is up; tells the browser and the devices once. */
  async function expireIfDue(keyHash: string): Promise<ApprovalRow | null> {
    const [expired] = await db
      .update(approvalRequests)
      .set({ status: 'expired' })
      .where(
        and(
          eq(approvalRequests.keyHash, keyHash),
          eq(approvalRequests.status, 'pending'),
          sql`${approvalRequests.expiresAt} <= ${at(now()).toISOString()}::timestamptz`,
        ),
      )
      .returning();
    if (expired) await publishOutcome(expired, 'expired');
    return expired ?? null;
  }

  return {
    /**
     * A sign-in approval (push, verifyDevice) in the caller's transaction. Delivered after commit
     * to the user's approved devices with the login method, or only to `deviceId`. `deliver: false`
     * (verifyDevice) creates it undelivered: the user first picks the phone, and POST
     * /auth/push/re-send with that deviceId sends it (at once, without the re-send wait).
     */
    async createLoginApproval(
      tx: Tx | Db,
      input: { userId: number; deviceId: number | null; details: ApprovalDetails; deliver?: boolean },
    ): Promise<{ key: string; keyHash: string; temporaryToken: string; expiresAt: Date; deviceCount: number }> {
      const temporaryToken = randomToken();
      const created = await insertRequest(tx, {
        userId: input.userId,
        kind: 'login',
        deviceId: input.deviceId,
        temporaryTokenHash: sha256Hex(temporaryToken),
        details: input.details,
        deliver: input.deliver ?? true,
      });
      return { ...created, temporaryToken };
    },

    /** A two-step mode confirmation (document 1 §7, push mode) for devices with the twoStepMode method. */
    async createTwoStepApproval(
      tx: Tx | Db,
      input: { userId: number; mode: number; details: ApprovalDetails },
    ): Promise<{ key: string; keyHash: string; expiresAt: Date; deviceCount: number }> {
      return insertRequest(tx, {
        userId: input.userId,
        kind: 'twoStepMode',
        deviceId: null,
        temporaryTokenHash: null,
        details: { ...input.details, mode: input.mode },
        deliver: true,
      });
    },

    /**
     * A pending transfer's approval (approve mode push) in the caller's transaction, delivered after
     * commit to the user's approved devices with the login method. It expires with the transfer.
     */
    async createTransferApproval(
      tx: Tx | Db,
      input: { userId: number; details: ApprovalDetails; transfer: TransferApprovalDetails; expiresAt: Date },
    ): Promise<{ key: string; keyHash: string; expiresAt: Date; deviceCount: number }> {
      return insertRequest(tx, {
        userId: input.userId,
        kind: 'transfer',
        deviceId: null,
        temporaryTokenHash: null,
        details: { ...input.details, transfer: input.transfer },
        deliver: true,
        expiresAt: input.expiresAt,
      });
    },

    /**
     * Ends a pending request in the caller's transaction (its transfer was canceled, expired or
     * rejected otherwise): a device's later answer finds it closed; the devices drop it after commit.
     */
    async closeRequest(tx: Tx, keyHash: string, status: 'declined' | 'expired'): Promise<void> {
      const [closed] = await tx
        .update(approvalRequests)
        .set({ status })
        .where(and(eq(approvalRequests.keyHash, keyHash), eq(approvalRequests.status, 'pending')))
        .returning({ keyHash: approvalRequests.keyHash });
      if (closed) closedAfterCommit(keyHash, status);
    },

    /** Delivers a pending request to the devices again (after the caller's commit); false when it is no longer pending. */
    async redeliver(tx: Tx, keyHash: string): Promise<boolean> {
      const [row] = await tx.select().from(approvalRequests).where(eq(approvalRequests.keyHash, keyHash));
      if (!row || row.status !== 'pending' || row.expiresAt.getTime() <= now()) return false;
      const details: StoredDetails = { ...detailsOf(row), sentAt: at(now()).toISOString() };
      await tx.update(approvalRequests).set({ details }).where(eq(approvalRequests.keyHash, keyHash));
      deliverAfterCommit(keyHash);
      return true;
    },

    /**
     * A device's answer. 404 for an unknown key; 403 when this device may not answer it (another
     * user's, not approved, lacking the kind's method, or not the chosen device). result false when
     * it was already answered or has expired: of two answers only the first counts.
     */
    async answer(device: DeviceCaller, key: string, result: boolean): Promise<{ result: boolean }> {
      const keyHash = sha256Hex(key);
      const outcome = await db.transaction(async (tx) => {
        const [row] = await tx.select().from(approvalRequests).where(eq(approvalRequests.keyHash, keyHash));
        if (!row) throw new AuthFailure(404, ApprovalMessages.unknownRequest);
        const [answering] = await tx.select().from(devices).where(eq(devices.id, device.deviceId));
        const allowed =
          answering !== undefined &&
          answering.userId === row.userId &&
          answering.status === 'approved' &&
          answering.approveMethodIds.includes(methodOfKind(row.kind)) &&
          (row.deviceId === null || row.deviceId === answering.id);
        if (!allowed) throw new AuthFailure(403, ApprovalMessages.wrongDevice);
        if (row.status !== 'pending') return { result: false, closed: null };
        if (row.expiresAt.getTime() <= now()) return { result: false, closed: null, expire: true };
        if (row.kind === 'transfer' && onApproved.transfer) await onApproved.transfer.lock(tx, row);
        // Conditional: of two concurrent answers only one finds the row still pending and in time.
        const [answered] = await tx
          .update(approvalRequests)
          .set({ status: result ? 'approved' : 'declined', answeredByDeviceId: answering.id, answeredAt: at(now()) })
          .where(
            and(
              eq(approvalRequests.keyHash, keyHash),
              eq(approvalRequests.status, 'pending'),
              gt(approvalRequests.expiresAt, at(now())),
            ),
          )
          .returning();
        if (!answered) return { result: false, closed: null };
        await tx.update(devices).set({ lastActivityAt: at(now()) }).where(eq(devices.id, answering.id));
        if (result && answered.kind === 'twoStepMode' && onApproved.twoStepMode) await onApproved.twoStepMode(tx, answered);
        const afterCommit = answered.kind === 'transfer' && onApproved.transfer ? await onApproved.transfer.answered(tx, answered, result) : undefined;
        return { result: true, closed: answered, afterCommit };
      });
      if ('expire' in outcome && outcome.expire) await expireIfDue(keyHash);
      if (outcome.closed) await publishOutcome(outcome.closed, result ? 'approved' : 'declined');
      if ('afterCommit' in outcome && outcome.afterCommit) await outcome.afterCommit().catch(report);
      return { result: outcome.result };
    },

    /**
     * POST /auth/push/re-send: the attempt's login approval again, with a new APPROVAL_TTL_S (an
     * expired one comes back to life), to one chosen device when deviceId is given. Refused within
     * RESEND_INTERVAL_S of the last delivery (429) and once the attempt's login code would have
     * expired (SECOND_STEP_TTL_S after sign-in), so a re-send can neither flood a phone nor extend
     * a sign-in forever.
     */
    async resend(temporaryToken: string, deviceId: number | undefined): Promise<{ expiresInS: number }> {
      const temporaryTokenHash = sha256Hex(temporaryToken);
      const updated = await db.transaction(async (tx) => {
        const [row] = await tx.select().from(approvalRequests).where(eq(approvalRequests.temporaryTokenHash, temporaryTokenHash));
        if (!row || row.kind !== 'login' || row.status === 'approved' || row.status === 'declined') {
          throw new AuthFailure(404, ApprovalMessages.unknownAttempt);
        }
        if (row.createdAt.getTime() + SECOND_STEP_TTL_S * 1000 <= now()) throw new AuthFailure(403, ApprovalMessages.attemptOver);
        if (deviceId !== undefined) {
          const targets = await targetDeviceIds(tx, { userId: row.userId, kind: 'login', deviceId });
          if (targets.length === 0) throw new AuthFailure(403, ApprovalMessages.wrongDevice);
        }
        const details = detailsOf(row);
        if (details.sentAt !== undefined && Date.parse(details.sentAt) + RESEND_INTERVAL_S * 1000 > now()) {
          throw new AuthFailure(429, ApprovalMessages.resendTooSoon);
        }
        const resent: StoredDetails = { ...details, sentAt: at(now()).toISOString() };
        // Conditional on the delivery time read above: of two concurrent re-sends one wins.
        const [next] = await tx
          .update(approvalRequests)
          .set({
            status: 'pending',
            expiresAt: at(now() + APPROVAL_TTL_S * 1000),
            deviceId: deviceId ?? row.deviceId,
            details: resent,
          })
          .where(
            and(
              eq(approvalRequests.keyHash, row.keyHash),
              eq(approvalRequests.status, row.status),
              sql`${approvalRequests.details}->>'sentAt' is not distinct from ${details.sentAt ?? null}`,
            ),
          )
          .returning();
        if (!next) throw new AuthFailure(429, ApprovalMessages.resendTooSoon);
        return next;
      });
      await publishRequested(updated);
      return { expiresInS: APPROVAL_TTL_S };
    },

    /** The login approval of a temporary token (the browser's live channel), or null. */
    async findAttempt(temporaryToken: string): Promise<ApprovalRow | null> {
      const [row] = await db
        .select()
        .from(approvalRequests)
        .where(and(eq(approvalRequests.temporaryTokenHash, sha256Hex(temporaryToken)), eq(approvalRequests.kind, 'login')));
      return row ?? null;
    },

    expireIfDue,

    /** Delivered, pending, unexpired requests this device may answer, newest first. */
    async pendingForDevice(device: DeviceCaller, methodIds: number[]): Promise<ApprovalRequest[]> {
      const kinds = (Object.keys(KIND_METHOD) as ApprovalKind[]).filter((k) => methodIds.includes(methodOfKind(k)));
      if (kinds.length === 0) return [];
      const rows = await db
        .select()
        .from(approvalRequests)
        .where(
          and(
            eq(approvalRequests.userId, device.userId),
            eq(approvalRequests.status, 'pending'),
            gt(approvalRequests.expiresAt, at(now())),
            inArray(approvalRequests.kind, kinds),
            or(isNull(approvalRequests.deviceId), eq(approvalRequests.deviceId, device.deviceId)),
            sql`${approvalRequests.details}->>'sentAt' is not null`,
          ),
        )
        .orderBy(desc(approvalRequests.createdAt))
        .limit(MAX_PENDING_LISTED);
      return rows.map(toWire);
    },
  };
}
