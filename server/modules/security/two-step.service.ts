/**
 * Two-step verification mode changes (document 1 §7: the mode is set, then confirmed at a path
 * with {reqId} and a code; document 2 "Security settings"). Modes: push 1, sms 2, otp 3,
 * approvalCode 4.
 *
 * - otp: a new authenticator secret is made; the first code from it proves the app holds it, and
 *   only then does it replace users.totp_secret (a half-finished enrolment never locks anyone out);
 * - sms: a 6-digit code goes through the SMS outbox to the primary confirmed phone;
 * - approvalCode: the user chooses a 6-digit code and types it again (argon2id, like a password);
 * - push: a linked phone approves the change (approvals.service.ts calls approvedByDevice in the
 *   transaction that records the answer); the browser learns it from TwoStepVerificationConfirmed.
 * Confirmation sets the customer's two-step and transaction-approval modes, the user's sign-in
 * mode (approvalCode leaves sign-in as it is), lifts the 'setup2fa' restriction and, when the user
 * holds no unused recovery codes, makes ten and answers them once.
 */
import { checkCurrentPassword } from '../auth/current-password.ts';
import { randomInt, randomUUID, timingSafeEqual } from 'node:crypto';
import { and, count, eq, gt, isNull, sql } from 'drizzle-orm';
import {
  TwoStepMessages,
  TWO_STEP_MAX_ATTEMPTS,
  TWO_STEP_MAX_REQUESTS_PER_WINDOW,
  TWO_STEP_REQUEST_TTL_S,
  type TwoStepConfirmResponse,
  type TwoStepModeCode,
  type TwoStepSetResponse,
} from '../../../api/security.ts';
import { ApproveMethod } from '../../../api/devices.ts';
import type { Db, Tx } from '../../db/types.ts';
import { enqueueSms } from '../../adapters/outbox.ts';
import { countryOfIp } from '../../adapters/ip-info.ts';
import { approvalRequests, devices, twoStepRequests } from '../auth/auth.tables.ts';
import { hashPassword, sha256Hex, verifyPassword } from '../auth/crypto.ts';
import { generateTotpSecret, matchTotpStep } from '../auth/totp.ts';
import { AuthFailure, maskPhone } from '../auth/tokens.service.ts';
import { customers, phones, users } from '../customers/customers.tables.ts';
import type { Caller } from '../method-types.ts';
import type { PushMessage, PushPublisher } from '../push/publisher.ts';
import { countUnusedRecoveryCodes, issueRecoveryCodes } from './recovery-codes.ts';

/** The issuer an authenticator app shows: the same for every white-label variant of the platform. */
export const TOTP_ISSUER = 'Web Banking';
/** After a device approves, how long to wait for that transaction to commit before giving up the push event. */
const AFTER_COMMIT_POLL_MS = 100;
const AFTER_COMMIT_POLLS = 50;

/** The token service's messages for these paths (the web app maps them to its codes). */
export { TwoStepMessages };

const MODE_NAMES = { 1: 'push', 2: 'sms', 3: 'otp', 4: 'approvalCode' } as const;

/** What the approvals service offers here (server/modules/auth/approvals.service.ts). */
export interface TwoStepApprovals {
  createTwoStepApproval(
    tx: Tx,
    input: { userId: number; mode: number; details: { ip: string; countryCode: string | null; userAgent: string } },
  ): Promise<{ key: string; keyHash: string; expiresAt: Date }>;
}

export interface RequestMeta {
  ip: string;
  userAgent: string;
}

export interface Publication {
  customerId: number;
  event: PushMessage;
}

export interface TwoStepServiceDeps {
  db: Db;
  now: () => number;
  publisher: PushPublisher;
  /** null until the approvals service is wired: push mode then answers 'Link a phone first' */
  approvals: TwoStepApprovals | null;
}

export type TwoStepService = ReturnType<typeof createTwoStepService>;


export function otpauthUri(email: string, secret: string): string {
  const label = encodeURIComponent(`${TOTP_ISSUER}:${email}`);
  return `otpauth://totp/${label}?secret=${secret}&issuer=${encodeURIComponent(TOTP_ISSUER)}&algorithm=SHA1&digits=6&period=30`;
}

function sameSha256(hashHex: string, code: string): boolean {
  const a = Buffer.from(hashHex, 'hex');
  const b = Buffer.from(sha256Hex(code), 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function createTwoStepService({ db, now, publisher, approvals }: TwoStepServiceDeps) {
  const at = (ms: number) => new Date(ms);

  /** Sets the customer's and the user's modes for a confirmed request, in the caller's transaction. */
  async function applyMode(
    tx: Tx,
    request: typeof twoStepRequests.$inferSelect,
    customerId: number,
  ): Promise<void> {
    const mode = request.mode as TwoStepModeCode;
    const name = MODE_NAMES[mode];
    await tx.update(customers).set({ twoStepVerificationMode: mode, transactionApproveMode: name }).where(eq(customers.id, customerId));
    await tx
      .update(users)
      .set({
        twoStepSetupRequired: false,
        ...(name === 'approvalCode' ? {} : { login2faMode: name }),
        ...(mode === 3 && request.pendingTotpSecret ? { totpSecret: request.pendingTotpSecret } : {}),
        ...(mode === 4 && request.codeHash ? { approvalCodeHash: request.codeHash } : {}),
      })
      .where(eq(users.id, request.userId));
  }

  /** Recovery codes for the confirm answer: only when the user holds none unused. */
  async function recoveryCodesIfNone(tx: Tx, userId: number): Promise<string[] | undefined> {
    return (await countUnusedRecoveryCodes(tx, userId)) === 0 ? issueRecoveryCodes(tx, userId) : undefined;
  }

  /**
   * The approvals hook runs inside the device's answer transaction, so the event must wait for
   * that commit: poll the request until its confirmation is visible (or give up: rolled back).
   */
  function publishConfirmedAfterCommit(reqId: string, customerId: number, mode: number): void {
    let polls = 0;
    const poll = async () => {
      polls++;
      const [row] = await db.select({ confirmedAt: twoStepRequests.confirmedAt }).from(twoStepRequests).where(eq(twoStepRequests.reqId, reqId));
      if (row?.confirmedAt) {
        await publisher.publish(customerId, { type: 'TwoStepVerificationConfirmed', mode });
        return;
      }
      if (polls < AFTER_COMMIT_POLLS) setTimeout(() => void poll().catch(() => undefined), AFTER_COMMIT_POLL_MS).unref();
    };
    setTimeout(() => void poll().catch(() => undefined), 0).unref();
  }

  /**
   * The current password, checked before a change of sign-in security: counted before the check
   * in one statement and capped like sign-in (server/modules/auth/current-password.ts).
   */
  async function requireCurrentPassword(user: { id: number; passwordHash: string }, password: string): Promise<void> {
    const current = await checkCurrentPassword(db, user, password, at(now()));
    if (current === 'limited') throw new AuthFailure(429, TwoStepMessages.tooManyPasswords);
    if (current === 'wrong') throw new AuthFailure(403, TwoStepMessages.wrongPassword);
  }

  return {
    /** POST /auth/two-step-verification */
    async start(
      caller: Caller,
      input: { mode?: number; typeMode?: number; approvalCode?: string; password: string },
      meta: RequestMeta,
    ): Promise<{ answer: TwoStepSetResponse; publish: Publication[] }> {
      const mode = (input.mode ?? input.typeMode) as TwoStepModeCode;
      const [user] = await db.select().from(users).where(eq(users.id, caller.userId));
      if (!user) throw new AuthFailure(404, TwoStepMessages.unknownRequest);
      await requireCurrentPassword(user, input.password);
      // After a recovery-code sign-in the user must have a real second sign-in step again.
      if (user.twoStepSetupRequired && mode === 4) throw new AuthFailure(403, TwoStepMessages.signInModeRequired);
      // argon2id is slow: hash before the transaction holds locks.
      const approvalHash = mode === 4 && input.approvalCode ? await hashPassword(input.approvalCode) : null;

      const answer = await db.transaction(async (tx) => {
        const windowStart = at(now() - TWO_STEP_REQUEST_TTL_S * 1000);
        const [recent] = await tx
          .select({ n: count() })
          .from(twoStepRequests)
          .where(and(eq(twoStepRequests.userId, user.id), gt(twoStepRequests.createdAt, windowStart)));
        if ((recent?.n ?? 0) >= TWO_STEP_MAX_REQUESTS_PER_WINDOW) throw new AuthFailure(429, TwoStepMessages.tooManyRequests);
        // One change at a time: a new one ends the earlier pending ones.
        await tx
          .update(twoStepRequests)
          .set({ expiresAt: at(now()) })
          .where(and(eq(twoStepRequests.userId, user.id), isNull(twoStepRequests.confirmedAt), gt(twoStepRequests.expiresAt, at(now()))));

        const reqId = randomUUID();
        const expiresAt = at(now() + TWO_STEP_REQUEST_TTL_S * 1000);
        const base = { reqId, userId: user.id, mode, createdAt: at(now()), expiresAt };
        const result: TwoStepSetResponse = { reqId, mode, expiresInS: TWO_STEP_REQUEST_TTL_S };

        if (mode === 3) {
          const secret = generateTotpSecret();
          await tx.insert(twoStepRequests).values({ ...base, pendingTotpSecret: secret });
          return { ...result, otpauthUri: otpauthUri(user.email, secret), secret };
        }
        if (mode === 2) {
          const [phone] = await tx
            .select()
            .from(phones)
            .where(and(eq(phones.customerId, user.customerId), eq(phones.status, 'primary'), eq(phones.confirmed, true)))
            .limit(1);
          if (!phone) throw new AuthFailure(403, TwoStepMessages.noPhone);
          const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
          await tx.insert(twoStepRequests).values({ ...base, codeHash: sha256Hex(code) });
          await enqueueSms(tx, {
            to: `+${phone.phoneCountryCode}${phone.phone}`,
            text: `${code} is your code to confirm SMS two-step verification. It expires in ${TWO_STEP_REQUEST_TTL_S / 60} minutes. Never share it.`,
          });
          return { ...result, sentTo: maskPhone(phone.phoneCountryCode, phone.phone) };
        }
        if (mode === 4) {
          await tx.insert(twoStepRequests).values({ ...base, codeHash: approvalHash });
          return result;
        }
        // push
        const [linked] = await tx
          .select({ n: count() })
          .from(devices)
          .where(
            and(
              eq(devices.userId, user.id),
              eq(devices.status, 'approved'),
              sql`${devices.approveMethodIds} @> ${JSON.stringify([ApproveMethod.twoStepMode])}::jsonb`,
            ),
          );
        const deviceCount = linked?.n ?? 0;
        if (deviceCount === 0 || !approvals) throw new AuthFailure(403, TwoStepMessages.linkPhone);
        const approval = await approvals.createTwoStepApproval(tx, {
          userId: user.id,
          mode,
          details: { ip: meta.ip, countryCode: countryOfIp(meta.ip), userAgent: meta.userAgent },
        });
        await tx.insert(twoStepRequests).values({ ...base, approvalKeyHash: approval.keyHash });
        return { ...result, deviceCount };
      });
      return {
        answer,
        publish: [{ customerId: user.customerId, event: { type: 'TwoStepVerificationModeSet', mode, reqId: answer.reqId } }],
      };
    },

    /** POST /auth/two-step-verification/{reqId}/confirm */
    async confirm(caller: Caller, reqId: string, code: string | undefined): Promise<{ answer: TwoStepConfirmResponse; publish: Publication[] }> {
      if (!UUID_PATTERN.test(reqId)) throw new AuthFailure(404, TwoStepMessages.unknownRequest);
      const [request] = await db
        .select()
        .from(twoStepRequests)
        .where(and(eq(twoStepRequests.reqId, reqId), eq(twoStepRequests.userId, caller.userId)));
      // Another user's request looks exactly like an unknown one.
      if (!request || request.expiresAt.getTime() <= now()) throw new AuthFailure(404, TwoStepMessages.unknownRequest);
      const mode = request.mode as TwoStepModeCode;

      if (mode === 1) {
        // The phone confirmed it (approvedByDevice); the browser collects the answer.
        if (request.confirmedAt) {
          const recoveryCodes = await db.transaction((tx) => recoveryCodesIfNone(tx, request.userId));
          return { answer: { mode, ...(recoveryCodes ? { recoveryCodes } : {}) }, publish: [] };
        }
        const [approval] = request.approvalKeyHash
          ? await db.select().from(approvalRequests).where(eq(approvalRequests.keyHash, request.approvalKeyHash))
          : [];
        if (approval && (approval.status === 'declined' || approval.status === 'expired' || approval.expiresAt.getTime() <= now())) {
          await db.update(twoStepRequests).set({ expiresAt: at(now()) }).where(eq(twoStepRequests.reqId, reqId));
          throw new AuthFailure(403, TwoStepMessages.declined);
        }
        throw new AuthFailure(403, TwoStepMessages.waitingForPhone);
      }

      if (request.confirmedAt || request.failedAttempts >= TWO_STEP_MAX_ATTEMPTS) throw new AuthFailure(404, TwoStepMessages.unknownRequest);
      if (!code) throw new AuthFailure(403, TwoStepMessages.codeRequired);
      let matches = false;
      if (mode === 3 && request.pendingTotpSecret) matches = matchTotpStep(request.pendingTotpSecret, code, now()) !== null;
      else if (mode === 2 && request.codeHash) matches = /^\d{6}$/.test(code) && sameSha256(request.codeHash, code);
      else if (mode === 4 && request.codeHash) matches = /^\d{6}$/.test(code) && (await verifyPassword(request.codeHash, code));

      const outcome = await db.transaction(async (tx) => {
        if (!matches) {
          const [counted] = await tx
            .update(twoStepRequests)
            .set({ failedAttempts: sql`${twoStepRequests.failedAttempts} + 1` })
            .where(and(eq(twoStepRequests.reqId, reqId), isNull(twoStepRequests.confirmedAt)))
            .returning({ failedAttempts: twoStepRequests.failedAttempts });
          return { ok: false as const, dead: (counted?.failedAttempts ?? TWO_STEP_MAX_ATTEMPTS) >= TWO_STEP_MAX_ATTEMPTS };
        }
        // Single use, atomically: of two concurrent confirmations only one updates the row.
        const [confirmed] = await tx
          .update(twoStepRequests)
          .set({ confirmedAt: at(now()) })
          .where(
            and(
              eq(twoStepRequests.reqId, reqId),
              isNull(twoStepRequests.confirmedAt),
              gt(twoStepRequests.expiresAt, at(now())),
              sql`${twoStepRequests.failedAttempts} < ${TWO_STEP_MAX_ATTEMPTS}`,
            ),
          )
          .returning();
        if (!confirmed) return { ok: false as const, gone: true };
        await applyMode(tx, confirmed, caller.customerId);
        return { ok: true as const, recoveryCodes: await recoveryCodesIfNone(tx, caller.userId) };
      });
      if (!outcome.ok) {
        if ('gone' in outcome) throw new AuthFailure(404, TwoStepMessages.unknownRequest);
        throw new AuthFailure(403, outcome.dead ? TwoStepMessages.tooManyWrong : TwoStepMessages.wrongCode);
      }
      return {
        answer: { mode, ...(outcome.recoveryCodes ? { recoveryCodes: outcome.recoveryCodes } : {}) },
        publish: [{ customerId: caller.customerId, event: { type: 'TwoStepVerificationConfirmed', mode } }],
      };
    },

    /**
     * approvals.service.ts onApproved.twoStepMode: a linked phone approved a push mode change.
     * Runs in the transaction that records the answer.
     */
    async approvedByDevice(tx: Tx, row: { keyHash: string; userId: number }): Promise<void> {
      const [confirmed] = await tx
        .update(twoStepRequests)
        .set({ confirmedAt: at(now()) })
        .where(
          and(
            eq(twoStepRequests.approvalKeyHash, row.keyHash),
            eq(twoStepRequests.userId, row.userId),
            isNull(twoStepRequests.confirmedAt),
            gt(twoStepRequests.expiresAt, at(now())),
          ),
        )
        .returning();
      if (!confirmed) return;
      const [user] = await tx.select({ customerId: users.customerId }).from(users).where(eq(users.id, row.userId));
      if (!user) return;
      await applyMode(tx, confirmed, user.customerId);
      publishConfirmedAfterCommit(confirmed.reqId, user.customerId, confirmed.mode);
    },

    /** GET /auth/recovery-codes */
    async recoveryCodesStatus(caller: Caller): Promise<{ unused: number }> {
      return { unused: await countUnusedRecoveryCodes(db, caller.userId) };
    },

    /**
     * POST /auth/recovery-codes: ten new codes, the old unused ones gone. The current password is
     * required, so a stolen access token alone cannot mint a way in; wrong passwords are capped.
     */
    async regenerateRecoveryCodes(caller: Caller, password: string): Promise<{ recoveryCodes: string[] }> {
      const [user] = await db.select({ id: users.id, passwordHash: users.passwordHash }).from(users).where(eq(users.id, caller.userId));
      if (!user) throw new AuthFailure(404, TwoStepMessages.unknownRequest);
      await requireCurrentPassword(user, password);
      return { recoveryCodes: await db.transaction((tx) => issueRecoveryCodes(tx, caller.userId)) };
    },
  };
}
