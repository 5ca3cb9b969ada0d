/**
 * Linked devices (api/devices.ts; document 1 §3 Device, §5): the customer's phone running the
 * device companion. Linking is a pending device with a short code the companion proves; the
 * approved device receives a secret once (only its sha256 is kept) and signs in with it for
 * device tokens: HS256 like access tokens, typ 'device', 300 s, each sign-in a token family so a
 * revoked device or family stops working at once.
 */
import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { and, asc, count, desc, eq, gt, inArray, isNotNull, isNull, lt, lte, ne, or, sql } from 'drizzle-orm';
import { ACCESS_TOKEN_TTL_S, LINK_CODE_TTL_S } from '../../../api/auth.ts';
import { ApproveMethod, DEVICE_COMPANION_PATH, type Device } from '../../../api/devices.ts';
import { TwoStepMode } from '../../../api/customer.ts';
import type { PushEvent } from '../../../api/push.ts';
import { countryOfIp } from '../../adapters/ip-info.ts';
import { checkPhoneNumber, enqueueSms, OutboxInputError } from '../../adapters/outbox.ts';
import type { Db, Tx } from '../../db/types.ts';
import { customers, users } from '../customers/customers.tables.ts';
import { auditLog } from '../platform/platform.tables.ts';
import type { PushPublisher } from '../push/publisher.ts';
import { devices, refreshTokens, tokenFamilies } from './auth.tables.ts';
import { sha256Hex } from './crypto.ts';
import { signHs256, verifyHs256 } from './jwt.ts';
import { AuthFailure } from './tokens.service.ts';

/** Device tokens live as long as access tokens; the companion signs in again with its secret. */
export const DEVICE_TOKEN_TTL_S = ACCESS_TOKEN_TTL_S;
/** Wrong linking codes a pending device survives. */
export const MAX_LINK_ATTEMPTS = 5;
/** Linking codes waiting per user; starting one more expires the oldest. */
export const MAX_PENDING_LINKS = 5;
/** SMS with the companion's link per user per hour (POST /auth/stores-urls/send). */
export const MAX_STORE_LINK_SMS_PER_HOUR = 3;
/** Devices listed per user: far more than anyone links; a bound on the answer all the same. */
const MAX_DEVICES_LISTED = 100;
/** lastActivityAt is written at most this often per device (not on every call). */
const ACTIVITY_WRITE_INTERVAL_MS = 60_000;
const STORE_LINK_AUDIT = 'auth.storesUrlsSend';
/** Device sign-in families outlive their 300 s tokens by far before they are pruned. */
const FAMILY_RETENTION_MS = 24 * 60 * 60 * 1000;
const PRUNE_PROBABILITY = 0.01;

/** A–Z and 2–9 without the look-alikes I, O, 0, 1: 32 symbols, so `byte & 31` is unbiased. */
const LINK_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
const LINK_CODE_LENGTH = 8;
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export const DeviceMessages = {
  unknownDevice: 'Unknown device',
  linkExpired: 'The linking code has expired; start linking again',
  wrongCode: 'Wrong linking code',
  unknownSecret: 'Unknown device secret',
  unknownMethod: 'Unknown approval method',
  onlyItself: 'A device may unlink only itself',
  tooManySms: 'Too many links sent by SMS; try again in an hour',
  lastSignInDevice: 'This is the only phone that approves your sign-ins; choose another two-step verification method first',
} as const;

/** Who a device token belongs to. */
export interface DeviceCaller {
  deviceId: number;
  userId: number;
  customerId: number;
  familyId: string;
}

export type DeviceRow = typeof devices.$inferSelect;
export type DeviceService = ReturnType<typeof createDeviceService>;

export interface DeviceServiceDeps {
  db: Db;
  signingKey: Uint8Array;
  now: () => number;
  publisher: PushPublisher;
  log?: (err: unknown) => void;
}

export function toWireDevice(row: DeviceRow): Device {
  return {
    id: row.id,
    // Revoked devices are never answered; the wire knows pending and approved only.
    status: row.status === 'approved' ? 'approved' : 'pending',
    type: row.type,
    name: row.name,
    location: row.location,
    lastActivityAt: row.lastActivityAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    approveMethodIds: row.approveMethodIds,
    hasPushToken: row.pushToken !== null,
  };
}

function linkCode(): string {
  const bytes = randomBytes(LINK_CODE_LENGTH);
  return Array.from(bytes, (b) => LINK_ALPHABET[b & 31]).join('');
}

/** What a person may type: any case, with spaces or dashes between groups. */
function normaliseCode(code: string): string {
  return code.toUpperCase().replace(/[\s-]/g, '');
}

export function createDeviceService({ db, signingKey, now, publisher, log }: DeviceServiceDeps) {
  const at = (ms: number) => new Date(ms);
  const report = (err: unknown) => log?.(err);
  const publishTo = (channel: Parameters<PushPublisher['publishTo']>[0], event: PushEvent) =>
    publisher.publishTo(channel, event).catch(report);

  /** Devices the user sees: approved ones and pending links still in time. */
  const visible = (userId: number) =>
    and(
      eq(devices.userId, userId),
      or(eq(devices.status, 'approved'), and(eq(devices.status, 'pending'), gt(devices.linkExpiresAt, at(now())))),
    );

  async function ownDevice(userId: number, id: number): Promise<DeviceRow> {
    const [row] = await db
      .select()
      .from(devices)
      .where(and(eq(devices.id, id), visible(userId)));
    if (!row) throw new AuthFailure(404, DeviceMessages.unknownDevice);
    return row;
  }

  async function touch(deviceId: number): Promise<void> {
    await db
      .update(devices)
      .set({ lastActivityAt: at(now()) })
      .where(
        and(
          eq(devices.id, deviceId),
          or(isNull(devices.lastActivityAt), lt(devices.lastActivityAt, at(now() - ACTIVITY_WRITE_INTERVAL_MS))),
        ),
      );
  }

  /** A pending device with a fresh code; the oldest waiting links expire beyond MAX_PENDING_LINKS. */
  async function startLink(userId: number, name: string): Promise<{ device: Device; code: string; expiresInS: number }> {
    const code = linkCode();
    const row = await db.transaction(async (tx) => {
      // Links that never completed (expired, or dead after wrong codes) are deleted rather than
      // kept: nothing refers to them, and so a user's rows stay few however often linking starts.
      await tx
        .delete(devices)
        .where(
          and(
            eq(devices.userId, userId),
            isNull(devices.secretHash),
            or(eq(devices.status, 'revoked'), and(eq(devices.status, 'pending'), lte(devices.linkExpiresAt, at(now())))),
          ),
        );
      const waiting = await tx
        .select({ id: devices.id })
        .from(devices)
        .where(and(eq(devices.userId, userId), eq(devices.status, 'pending'), gt(devices.linkExpiresAt, at(now()))))
        .orderBy(desc(devices.createdAt), desc(devices.id));
      const expire = waiting.slice(MAX_PENDING_LINKS - 1).map((d) => d.id);
      if (expire.length > 0) await tx.delete(devices).where(inArray(devices.id, expire));
      const [created] = await tx
        .insert(devices)
        .values({
          userId,
          name,
          status: 'pending',
          linkCodeHash: sha256Hex(code),
          linkExpiresAt: at(now() + LINK_CODE_TTL_S * 1000),
          createdAt: at(now()),
        })
        .returning();
      return created!;
    });
    return { device: toWireDevice(row), code, expiresInS: LINK_CODE_TTL_S };
  }

  /**
   * A user who signs in by push approval keeps at least one phone that approves sign-ins: without
   * one, every sign-in would end on "no phone is linked" with only recovery codes to finish it (a
   * user linked through the push migration holds none), i.e. locked out. Removing the last such
   * phone (unlinking it, or switching off its sign-in approval) waits until the user has chosen
   * another two-step method. A lost phone is what recovery codes are for (they unlink every phone).
   * The user's row is locked first, so two phones removed at once are counted one after the other.
   */
  async function assertKeepsSignInDevice(tx: Tx, userId: number, leavingId: number): Promise<void> {
    const [user] = await tx.select({ login2faMode: users.login2faMode }).from(users).where(eq(users.id, userId)).for('update');
    if (user?.login2faMode !== 'push') return;
    const signInDevices = await tx
      .select({ id: devices.id })
      .from(devices)
      .where(
        and(
          eq(devices.userId, userId),
          eq(devices.status, 'approved'),
          isNotNull(devices.type),
          sql`${devices.approveMethodIds} @> ${JSON.stringify([ApproveMethod.login])}::jsonb`,
        ),
      );
    const leaving = signInDevices.some((d) => d.id === leavingId);
    if (leaving && signInDevices.length === 1) throw new AuthFailure(403, DeviceMessages.lastSignInDevice);
  }

  /** Revokes a device of the user; its socket hears DeviceUnlinked and is closed. */
  async function revoke(userId: number, id: number): Promise<void> {
    const revoked = await db.transaction(async (tx) => {
      await assertKeepsSignInDevice(tx, userId, id);
      const [row] = await tx
        .update(devices)
        .set({ status: 'revoked', revokedAt: at(now()), linkCodeHash: null, pushToken: null })
        .where(and(eq(devices.id, id), eq(devices.userId, userId), ne(devices.status, 'revoked')))
        .returning({ id: devices.id });
      return row;
    });
    if (!revoked) throw new AuthFailure(404, DeviceMessages.unknownDevice);
    await publishTo({ kind: 'device', id }, { type: 'DeviceUnlinked', deviceId: id });
  }

  return {
    async list(userId: number): Promise<{ devices: Device[] }> {
      const rows = await db.select().from(devices).where(visible(userId)).orderBy(asc(devices.id)).limit(MAX_DEVICES_LISTED);
      return { devices: rows.map(toWireDevice) };
    },

    async get(userId: number, id: number): Promise<Device> {
      return toWireDevice(await ownDevice(userId, id));
    },

    /** POST /auth/devices: qrLink opens the companion at `#link=id.code`. */
    async create(userId: number, name: string, origin: string) {
      const started = await startLink(userId, name);
      return { ...started, qrLink: `${origin}${DEVICE_COMPANION_PATH}#link=${started.device.id}.${started.code}` };
    },

    /** POST /auth/scp/request: the same link, as the deeplink the /scp-mobile page opens. */
    async scpRequest(userId: number, origin: string) {
      const started = await startLink(userId, 'Phone');
      return {
        deeplink: `${origin}/scp-mobile#link=${started.device.id}.${started.code}`,
        code: started.code,
        deviceId: started.device.id,
        expiresInS: started.expiresInS,
      };
    },

    unlink: revoke,

    /** DELETE /device-api/device/{id}: a device unlinks itself, never another. */
    async unlinkSelf(device: DeviceCaller, id: number): Promise<void> {
      if (id !== device.deviceId) throw new AuthFailure(403, DeviceMessages.onlyItself);
      await revoke(device.userId, id);
    },

    /**
     * POST /auth/devices/{id}/approve: the companion proves the code. A wrong code counts; the
     * pending device dies at MAX_LINK_ATTEMPTS (8 characters of 32 symbols: guessing in 5 tries is
     * hopeless, and a dead link needs the signed-in user to start again).
     */
    async approve(
      id: number,
      input: { code: string; type: 'android' | 'ios'; name?: string | undefined; pushToken?: string | undefined },
      ip: string,
    ): Promise<{ device: Device; secret: string }> {
      const [row] = await db.select().from(devices).where(eq(devices.id, id));
      if (!row || row.status !== 'pending' || !row.linkCodeHash || !row.linkExpiresAt) throw new AuthFailure(404, DeviceMessages.unknownDevice);
      if (row.linkExpiresAt.getTime() <= now()) throw new AuthFailure(403, DeviceMessages.linkExpired);
      const codeHash = sha256Hex(normaliseCode(input.code));
      if (!timingSafeEqual(Buffer.from(codeHash, 'hex'), Buffer.from(row.linkCodeHash, 'hex'))) {
        // One statement, so concurrent guesses all count.
        await db
          .update(devices)
          .set({
            linkFailedAttempts: sql`${devices.linkFailedAttempts} + 1`,
            status: sql`case when ${devices.linkFailedAttempts} + 1 >= ${MAX_LINK_ATTEMPTS} then 'revoked' else ${devices.status} end`,
            revokedAt: sql`case when ${devices.linkFailedAttempts} + 1 >= ${MAX_LINK_ATTEMPTS} then ${at(now()).toISOString()}::timestamptz else null end`,
          })
          .where(and(eq(devices.id, id), eq(devices.status, 'pending')));
        throw new AuthFailure(403, DeviceMessages.wrongCode);
      }
      const secret = randomBytes(32).toString('base64url');
      const { linked, customerId } = await db.transaction(async (tx) => {
        // Conditional on the code still waiting: of two concurrent approvals one links.
        const [approved] = await tx
          .update(devices)
          .set({
            status: 'approved',
            type: input.type,
            name: input.name ? input.name : row.name,
            pushToken: input.pushToken ?? null,
            approveMethodIds: [ApproveMethod.login, ApproveMethod.twoStepMode],
            secretHash: sha256Hex(secret),
            linkCodeHash: null,
            linkExpiresAt: null,
            location: countryOfIp(ip),
            lastActivityAt: at(now()),
          })
          .where(and(eq(devices.id, id), eq(devices.status, 'pending'), eq(devices.linkCodeHash, codeHash), gt(devices.linkExpiresAt, at(now()))))
          .returning();
        if (!approved) throw new AuthFailure(404, DeviceMessages.unknownDevice);
        if (input.pushToken) {
          // A push token names one app install: it now belongs to this device only.
          await tx
            .update(devices)
            .set({ pushToken: null })
            .where(and(eq(devices.userId, approved.userId), eq(devices.pushToken, input.pushToken), ne(devices.id, id)));
        }
        const [user] = await tx.select().from(users).where(eq(users.id, approved.userId));
        if (!user) throw new AuthFailure(404, DeviceMessages.unknownDevice);
        // Linking a phone completes the provider's push 2FA migration (document 1 §3: the deadline
        // asks exactly for a linked phone approving sign-ins), and for a user without any second
        // step it is the way sign-in approval gets enabled (/scp): from now on sign-ins go to push.
        if (user.pushMigrationDeadline !== null || user.login2faMode === 'no') {
          await tx.update(users).set({ login2faMode: 'push', pushMigrationDeadline: null }).where(eq(users.id, user.id));
          // The customer's two-step verification mode (what Settings shows as the current method)
          // follows, as when push is chosen there (two-step.service.ts applyMode): otherwise Settings
          // would still name the authenticator, or no method, while sign-ins wait for this phone.
          await tx
            .update(customers)
            .set({ twoStepVerificationMode: TwoStepMode.push, transactionApproveMode: 'push' })
            .where(eq(customers.id, user.customerId));
        }
        await tx.insert(auditLog).values({
          userId: user.id,
          customerId: user.customerId,
          method: 'auth.deviceLinked',
          details: { deviceId: id, type: input.type },
        });
        return { linked: approved, customerId: user.customerId };
      });
      await publisher.publish(customerId, { type: 'DeviceLinked', deviceId: linked.id, name: linked.name } satisfies PushEvent).catch(report);
      return { device: toWireDevice(linked), secret };
    },

    /** PATCH /auth/devices/{id}/approve/{methodId}: turns one approval method on or off. */
    async setApproveMethod(userId: number, id: number, methodId: number, enabled: boolean): Promise<{ device: Device }> {
      if (!(Object.values(ApproveMethod) as number[]).includes(methodId)) throw new AuthFailure(404, DeviceMessages.unknownMethod);
      const row = await ownDevice(userId, id);
      if (row.status !== 'approved') throw new AuthFailure(404, DeviceMessages.unknownDevice);
      const methods = new Set(row.approveMethodIds);
      if (enabled) methods.add(methodId);
      else methods.delete(methodId);
      const updated = await db.transaction(async (tx) => {
        if (!enabled && methodId === ApproveMethod.login) await assertKeepsSignInDevice(tx, userId, id);
        const [changed] = await tx
          .update(devices)
          .set({ approveMethodIds: [...methods].sort((a, b) => a - b) })
          .where(and(eq(devices.id, id), eq(devices.status, 'approved')))
          .returning();
        return changed;
      });
      if (!updated) throw new AuthFailure(404, DeviceMessages.unknownDevice);
      return { device: toWireDevice(updated) };
    },

    approveMethods() {
      return {
        methods: (Object.entries(ApproveMethod) as [keyof typeof ApproveMethod, number][]).map(([name, id]) => ({ id, name })),
      };
    },

    /** POST /auth/token { secret }: a device token, one new family per sign-in. */
    async signInDevice(secret: string): Promise<{ accessToken: string; deviceId: number }> {
      const [row] = await db
        .select({ device: devices, customerId: users.customerId, disabled: users.disabled })
        .from(devices)
        .innerJoin(users, eq(users.id, devices.userId))
        .where(and(eq(devices.secretHash, sha256Hex(secret)), eq(devices.status, 'approved')));
      if (!row || row.disabled) throw new AuthFailure(403, DeviceMessages.unknownSecret);
      const familyId = randomUUID();
      await db.transaction(async (tx) => {
        await tx.insert(tokenFamilies).values({ id: familyId, userId: row.device.userId, createdAt: at(now()) });
        await tx.update(devices).set({ lastActivityAt: at(now()) }).where(eq(devices.id, row.device.id));
      });
      // Every device sign-in leaves a family (one per ~5 minutes per phone). Now and then drop those
      // long past their token's expiry: a device family is one without refresh tokens.
      if (Math.random() < PRUNE_PROBABILITY) {
        setImmediate(() => {
          db.delete(tokenFamilies)
            .where(
              and(
                lt(tokenFamilies.createdAt, at(now() - FAMILY_RETENTION_MS)),
                sql`not exists (select 1 from ${refreshTokens} where ${refreshTokens.familyId} = ${tokenFamilies.id})`,
              ),
            )
            .catch(report);
        });
      }
      const issuedAtS = Math.floor(now() / 1000);
      const accessToken = signHs256(
        {
          sub: String(row.device.userId),
          cid: row.customerId,
          fam: familyId,
          typ: 'device',
          dev: row.device.id,
          iat: issuedAtS,
          exp: issuedAtS + DEVICE_TOKEN_TTL_S,
        },
        signingKey,
      );
      return { accessToken, deviceId: row.device.id };
    },

    /** True for a validly signed, unexpired device token (user endpoints refuse these). */
    isDeviceToken(token: string): boolean {
      return verifyHs256(token, signingKey, now())?.typ === 'device';
    },

    /**
     * The device of a device token, or null: bad signature, expired, not a device token, revoked
     * family, device no longer approved, or its user disabled. One indexed query.
     */
    async authenticateDevice(token: string | null | undefined): Promise<DeviceCaller | null> {
      if (!token) return null;
      const claims = verifyHs256(token, signingKey, now());
      if (!claims || claims.typ !== 'device') return null;
      const { dev, fam, sub, cid } = claims;
      if (typeof dev !== 'number' || !Number.isInteger(dev) || typeof fam !== 'string' || !UUID_PATTERN.test(fam)) return null;
      if (typeof sub !== 'string' || !/^\d+$/.test(sub) || typeof cid !== 'number') return null;
      const [row] = await db
        .select({
          userId: devices.userId,
          status: devices.status,
          customerId: users.customerId,
          disabled: users.disabled,
          familyUserId: tokenFamilies.userId,
          familyRevokedAt: tokenFamilies.revokedAt,
        })
        .from(devices)
        .innerJoin(users, eq(users.id, devices.userId))
        .innerJoin(tokenFamilies, eq(tokenFamilies.id, fam))
        .where(eq(devices.id, dev));
      if (!row || row.status !== 'approved' || row.disabled || row.familyRevokedAt !== null) return null;
      if (row.userId !== Number(sub) || row.familyUserId !== row.userId || row.customerId !== cid) return null;
      return { deviceId: dev, userId: row.userId, customerId: row.customerId, familyId: fam };
    },

    /** GET /device-api/device: the device itself and its user's login (pending requests: the route). */
    async describe(device: DeviceCaller): Promise<{ device: DeviceRow; login: string }> {
      const [row] = await db
        .select({ device: devices, login: users.email })
        .from(devices)
        .innerJoin(users, eq(users.id, devices.userId))
        .where(eq(devices.id, device.deviceId));
      if (!row) throw new AuthFailure(404, DeviceMessages.unknownDevice);
      await touch(device.deviceId);
      return row;
    },

    touch,

    /** The user's approved device holding this secret (the direct sign-in flow), or null. */
    async findApprovedDeviceBySecret(tx: Tx | Db, userId: number, secret: string): Promise<DeviceRow | null> {
      const [row] = await tx
        .select()
        .from(devices)
        .where(and(eq(devices.userId, userId), eq(devices.secretHash, sha256Hex(secret)), eq(devices.status, 'approved')));
      return row ?? null;
    },

    /**
     * POST /auth/stores-urls/send: the companion's address by SMS through the outbox. At most
     * MAX_STORE_LINK_SMS_PER_HOUR per user, counted on audit entries written with each SMS; the
     * user's row is locked first so concurrent requests count one after another.
     */
    async sendCompanionLink(userId: number, phoneNumber: string, origin: string): Promise<void> {
      const digits = phoneNumber.replace(/\s/g, '');
      let to: string;
      try {
        to = checkPhoneNumber(digits.startsWith('+') ? digits : `+${digits}`);
      } catch (err) {
        if (err instanceof OutboxInputError) throw new AuthFailure(403, 'phoneNumber: must be an international number with its country code');
        throw err;
      }
      await db.transaction(async (tx) => {
        const [user] = await tx.select({ customerId: users.customerId }).from(users).where(eq(users.id, userId)).for('update');
        if (!user) throw new AuthFailure(404, DeviceMessages.unknownDevice);
        const [sent] = await tx
          .select({ n: count() })
          .from(auditLog)
          .where(and(eq(auditLog.userId, userId), eq(auditLog.method, STORE_LINK_AUDIT), gt(auditLog.at, at(now() - 60 * 60 * 1000))));
        if ((sent?.n ?? 0) >= MAX_STORE_LINK_SMS_PER_HOUR) throw new AuthFailure(429, DeviceMessages.tooManySms);
        await enqueueSms(tx, { to, text: `Link your phone to approve sign-ins: open ${origin}${DEVICE_COMPANION_PATH}` });
        await tx.insert(auditLog).values({ userId, customerId: user.customerId, method: STORE_LINK_AUDIT, details: {}, at: at(now()) });
      });
    },
  };
}
