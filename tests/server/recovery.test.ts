/**
 * Password reset, account recovery and password change (api/recovery.ts) over HTTP: codes from
 * the outbox, wrong, expired, reused and dead codes, unknown e-mails answered like known ones,
 * another user's request key, and sessions ended by a new password.
 *
 * Proof it can fail: with revokeFamilies made a no-op on purpose, the two session tests went red
 * (2 of 11 then); restored since. Issue 11 (the personal-data takeover): with the old automatic
 * decision put back (a code mailed to the recovery e-mail on a match), the rate-limit check made to
 * pass always, the cancel window ignored and an unknown e-mail answered without a task, the seven
 * personal-data recovery tests went red (probe, approval, rejection, cancel, both limits, unknown
 * e-mail); restored since.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, desc, eq, sql } from 'drizzle-orm';
import { decodeJwt } from 'jose';
import type { PgTable } from 'drizzle-orm/pg-core';
import { demoUserByKey } from '../../server/db/demo-users.ts';
import { accountRecoveryTasks, oneTimeCodes } from '../../server/modules/auth/auth.tables.ts';
import { CURRENT_PASSWORD_SCOPE, currentPasswordKey } from '../../server/modules/auth/current-password.ts';
import { DEFAULT_SIGN_IN_LIMITS } from '../../server/modules/auth/sign-in-throttle.ts';
import { rateLimitCounters } from '../../server/modules/recovery/recovery.tables.ts';
import { accountRecoveryFiles } from '../../server/modules/recovery/recovery.tables.ts';
import { customerEmails } from '../../server/modules/profile/profile.tables.ts';
import { FAMILY_CHECK_TTL_MS } from '../../server/modules/auth/tokens.service.ts';
import { customers, users } from '../../server/modules/customers/customers.tables.ts';
import { ACCOUNT_RECOVERY_MAX_ATTEMPTS, ACCOUNT_RECOVERY_MAX_PER_ADDRESS, PASSWORD_RESET_MAX_REQUESTS, RECOVERY_RATE_LIMITED } from '../../api/recovery.ts';
import { auditLog, outbox } from '../../server/modules/platform/platform.tables.ts';
import type { PushMessage } from '../../server/modules/push/publisher.ts';
import { callMethod, callMultipart, createTestApp, pkcePair, postJson, signIn, totpCode, type MethodAnswer, type TestApp } from './harness.ts';

const boris = demoUserByKey.boris;

async function outboxCount(t: TestApp): Promise<number> {
  const rows = await t.db.select({ n: sql<number>`count(*)::int` }).from(outbox);
  return rows[0]!.n;
}

/** The code in the newest mail to this address. */
async function lastCodeTo(t: TestApp, address: string): Promise<string> {
  const [mail] = await t.db.select().from(outbox).where(eq(outbox.recipient, address)).orderBy(desc(outbox.id)).limit(1);
  const match = /code[^:\n]*: ([0-9A-Z]{8})/.exec(mail?.body ?? '');
  if (!match) throw new Error(`no code mailed to ${address}`);
  return match[1]!;
}

function wrongCodeLike(code: string): string {
  return code.startsWith('2') ? `3${code.slice(1)}` : `2${code.slice(1)}`;
}

async function userIdOf(t: TestApp, email: string): Promise<{ id: number; customerId: number }> {
  const [row] = await t.db.select({ id: users.id, customerId: users.customerId }).from(users).where(eq(users.email, email));
  return row!;
}

async function signInBoris(t: TestApp, password: string) {
  return signIn(t.app, { ...boris, password });
}

async function refreshWorks(t: TestApp, refreshToken: string): Promise<boolean> {
  const res = await postJson(t.app, '/auth/refresh', { refreshToken });
  return res.statusCode === 200;
}

describe('password reset by e-mail code', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers unknown e-mails exactly like known ones and mails nothing for them', async () => {
    const before = await outboxCount(t);
    const unknown = await callMethod(t.app, 'passwordChangeRequest', { email: 'nobody@demo.test' });
    expect(unknown.body.responseCode).toBe('00');
    expect(Object.keys(unknown.body).sort()).toEqual(['recoveryEmail', 'responseCode', 'taskId']);
    expect(unknown.body.recoveryEmail).toBe('n***@demo.test');
    expect(await outboxCount(t)).toBe(before);
    // Nothing is kept for a reset request (tests/server/public-email.test.ts counts every table).
    const [task] = await t.db.select().from(accountRecoveryTasks).where(eq(accountRecoveryTasks.taskId, String(unknown.body.taskId)));
    expect(task).toBeUndefined();

    const known = await callMethod(t.app, 'passwordChangeRequest', { email: ' Boris@Demo.test ' });
    expect(known.body.responseCode).toBe('00');
    expect(Object.keys(known.body).sort()).toEqual(['recoveryEmail', 'responseCode', 'taskId']);
    expect(known.body.recoveryEmail).toBe('b***@demo.test');
    expect(await outboxCount(t)).toBe(before + 1);
    // The status of either task tells nothing about the account.
    const s1 = await callMethod(t.app, 'accountRecoveryStatus', { taskId: unknown.body.taskId });
    const s2 = await callMethod(t.app, 'accountRecoveryStatus', { taskId: known.body.taskId });
    expect(s1.body).toEqual(s2.body);
    // Only the hash is stored.
    const code = await lastCodeTo(t, boris.email);
    const stored = await t.db.select().from(oneTimeCodes).where(eq(oneTimeCodes.purpose, 'passwordReset'));
    expect(JSON.stringify(stored)).not.toContain(code);
  });

  it('checks codes: wrong, dead after five, an older code retired by a newer one', async () => {
    await callMethod(t.app, 'passwordChangeRequest', { email: boris.email });
    const first = await lastCodeTo(t, boris.email);
    await callMethod(t.app, 'passwordChangeRequest', { email: boris.email });
    const second = await lastCodeTo(t, boris.email);
    expect(second).not.toBe(first);
    const old = await callMethod(t.app, 'passwordCodeCheck', { email: boris.email, code: first });
    expect(old.body.responseCode).toBe('VF');
    // case and spaces do not matter
    const ok = await callMethod(t.app, 'passwordCodeCheck', { email: boris.email, code: ` ${second.toLowerCase()} ` });
    expect(ok.body).toEqual({ responseCode: '00' });
    // the unknown e-mail gets the same VF as a wrong code
    const unknown = await callMethod(t.app, 'passwordCodeCheck', { email: 'nobody@demo.test', code: second });
    expect(unknown.body.validationErrors).toEqual([{ param: 'code', description: 'is wrong', code: 'codeWrong', params: {} }]);

    // The retired code above was the first wrong try against the live code; three more, then the fifth kills it.
    const wrong = wrongCodeLike(second);
    for (let i = 2; i <= 4; i++) {
      const res = await callMethod(t.app, 'passwordCodeCheck', { email: boris.email, code: wrong });
      expect(res.body.validationErrors).toEqual([{ param: 'code', description: 'is wrong', code: 'codeWrong', params: {} }]);
    }
    const fifth = await callMethod(t.app, 'passwordCodeCheck', { email: boris.email, code: wrong });
    expect(fifth.body.validationErrors).toEqual([{ param: 'code', description: 'was entered wrong too many times: ask for a new one', code: 'codeTooManyWrong', params: {} }]);
    // dead: even the right code fails now
    const right = await callMethod(t.app, 'passwordCodeCheck', { email: boris.email, code: second });
    expect(right.body.responseCode).toBe('VF');
  });

  it('refuses an expired code and a malformed one', async () => {
    await callMethod(t.app, 'passwordChangeRequest', { email: boris.email });
    const code = await lastCodeTo(t, boris.email);
    const { id } = await userIdOf(t, boris.email);
    await t.db
      .update(oneTimeCodes)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(and(eq(oneTimeCodes.userId, id), eq(oneTimeCodes.purpose, 'passwordReset')));
    const expired = await callMethod(t.app, 'passwordChangeWithCode', { email: boris.email, code, password: 'New-Pass-2027' });
    expect(expired.body.validationErrors).toEqual([{ param: 'code', description: 'has expired: ask for a new one', code: 'codeExpired', params: {} }]);
    const malformed = await callMethod(t.app, 'passwordCodeCheck', { email: boris.email, code: '12' });
    expect(malformed.body.responseCode).toBe('VF');
    expect(malformed.body.validationErrors).toEqual([{ param: 'code', description: 'is wrong', code: 'codeWrong', params: {} }]);
  });

  it('sets the new password, spends the code, ends every session and mails a notice', async () => {
    const session = await signInBoris(t, boris.password);
    await callMethod(t.app, 'passwordChangeRequest', { email: boris.email });
    const code = await lastCodeTo(t, boris.email);
    const weak = await callMethod(t.app, 'passwordChangeWithCode', { email: boris.email, code, password: 'short' });
    expect(weak.body.responseCode).toBe('VF');
    const done = await callMethod(t.app, 'passwordChangeWithCode', { email: boris.email, code, password: 'New-Pass-2027' });
    expect(done.body).toEqual({ responseCode: '00' });
    const [notice] = await t.db.select().from(outbox).where(eq(outbox.recipient, boris.email)).orderBy(desc(outbox.id)).limit(1);
    expect(notice?.subject).toContain('your password was changed');
    // reused code
    const again = await callMethod(t.app, 'passwordChangeWithCode', { email: boris.email, code, password: 'Other-Pass-2028' });
    expect(again.body.responseCode).toBe('VF');
    // the old session is over: refresh at once, the access token once the family check expires
    expect(await refreshWorks(t, session.refreshToken)).toBe(false);
    await new Promise((r) => setTimeout(r, FAMILY_CHECK_TTL_MS + 50));
    const info = await callMethod(t.app, 'getCustomerInfo', {}, { token: session.accessToken });
    expect(info.status).toBe(401);
    // the old password no longer signs in; the new one does
    await expect(signInBoris(t, boris.password)).rejects.toThrow(/403/);
    await expect(signInBoris(t, 'New-Pass-2027')).resolves.toHaveProperty('accessToken');
    const audits = await t.db.select().from(auditLog).where(eq(auditLog.method, 'passwordChangeWithCode'));
    expect(audits).toHaveLength(1);
    expect(JSON.stringify(audits)).not.toContain(code);
  });
});

/** A named method called as multipart: the JSON in `data`, the files as parts (no token: public). */
function upload(t: TestApp, name: string, data: Record<string, unknown>, parts: { field: string; fileName: string; content: Buffer }[], remoteAddress?: string): Promise<MethodAnswer> {
  return callMultipart(t.app, name, data, parts.map((p) => ({ ...p, mime: 'image/png' })), { remoteAddress });
}

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(100, 1)]);
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(100, 2)]);
const goodFiles = [
  { field: 'document', fileName: 'passport.jpg', content: JPEG },
  { field: 'selfie', fileName: 'me.png', content: PNG },
];

/** The cancel code in the newest notice to this address. */
async function cancelCodeTo(t: TestApp, address: string): Promise<string> {
  const mails = await t.db.select().from(outbox).where(eq(outbox.recipient, address)).orderBy(desc(outbox.id));
  const match = mails.map((m) => /cancel code: ([0-9A-Z]{8})/.exec(m.body)).find((m) => m !== null);
  if (!match) throw new Error(`no cancel code mailed to ${address}`);
  return match[1]!;
}

async function mailsTo(t: TestApp, address: string) {
  return t.db.select().from(outbox).where(eq(outbox.recipient, address));
}

/** Row counts of every table a recovery call could write, but the rate-limit counters. */
async function footprint(t: TestApp) {
  const n = async (table: PgTable) => (await t.db.select({ n: sql<number>`count(*)::int` }).from(table))[0]!.n;
  return { outbox: await n(outbox), codes: await n(oneTimeCodes), audit: await n(auditLog), files: await n(accountRecoveryFiles) };
}

describe('account recovery with personal data: a pending task an administrator decides', () => {
  let t: TestApp;
  let admin: string;
  let ipSeq = 0;
  /** A fresh client address per test: the per-address limits of one test do not touch another. */
  const nextIp = () => `10.9.0.${++ipSeq}`;
  beforeAll(async () => {
    t = await createTestApp();
    admin = (await signIn(t.app, 'admin')).accessToken;
  });
  afterAll(async () => {
    await t.close();
  });

  const borisData = { email: boris.email, firstName: 'Boris', lastName: 'Petrov', dob: '1985-11-03' };
  const request = (body: Record<string, unknown>, ip: string) => callMethod(t.app, 'accountRecoveryRequest', body, { remoteAddress: ip });
  const decide = (body: Record<string, unknown>) => callMethod(t.app, 'adminRecoveryTaskDecide', body, { token: admin });

  it('the probe: three unauthenticated requests with the right personal data no longer take the account over', async () => {
    const anna = demoUserByKey.anna;
    const ip = nextIp();
    const attacker = 'attacker@evil.test';
    // 1. personal data (public knowledge for many people) and the attacker's address
    const asked = await request({ email: anna.email, recoveryEmail: attacker, firstName: 'Anna', lastName: 'Kowalska', dob: '1990-04-12' }, ip);
    expect(asked.body).toMatchObject({ responseCode: '00', verificationStatus: 'pending', isRetryable: false, documentsUploaded: false });
    // 2. and 3. the old path: a code check and a password change with whatever code the attacker has
    expect(await mailsTo(t, attacker)).toEqual([]);
    const guess = await callMethod(t.app, 'passwordCodeCheck', { email: anna.email, code: 'ABCDEFGH' }, { remoteAddress: ip });
    expect(guess.body.responseCode).toBe('VF');
    const change = await callMethod(t.app, 'passwordChangeWithCode', { email: anna.email, code: 'ABCDEFGH', password: 'Taken-Over-2027' }, { remoteAddress: ip });
    expect(change.body.responseCode).toBe('VF');
    // Even with documents uploaded nothing goes to the attacker until an administrator approves.
    expect((await upload(t, 'accountRecoveryDocuments', { taskId: asked.body.taskId }, goodFiles, ip)).body).toMatchObject({ verificationStatus: 'pending', documentsUploaded: true });
    expect(await mailsTo(t, attacker)).toEqual([]);
    await expect(signIn(t.app, 'anna')).resolves.toHaveProperty('accessToken');
    // The owner was told at once, with a way to cancel.
    const [notice] = await mailsTo(t, anna.email);
    expect(notice?.subject).toContain('someone asked to recover your account');
    expect(notice?.body).toContain('/account-recovery/cancel?taskId=');
    expect(notice?.body).toContain('a***@evil.test');
  });

  it('approval: documents, the review queue, a code to the new address only then, the new password with it', async () => {
    const ip = nextIp();
    const { customerId } = await userIdOf(t, boris.email);
    // A confirmed second address is told too; an unconfirmed one is not.
    await t.db.insert(customerEmails).values([
      { customerId, emailAddress: 'boris.home@mail.test', status: 'secondary', confirmed: true },
      { customerId, emailAddress: 'boris.unconfirmed@mail.test', status: 'secondary', confirmed: false },
    ]);
    const asked = await request({ ...borisData, recoveryEmail: 'boris.new@mail.test' }, ip);
    expect(asked.body).toMatchObject({ verificationStatus: 'pending', email: 'b***@demo.test', recoveryEmail: 'b***@mail.test', documentsUploaded: false });
    expect(asked.body.emailId).toBe(asked.body.taskId);
    const taskId = String(asked.body.taskId);
    expect((await mailsTo(t, boris.email)).at(-1)?.subject).toContain('recover your account');
    expect((await mailsTo(t, 'boris.home@mail.test')).at(-1)?.subject).toContain('recover your account');
    expect(await mailsTo(t, 'boris.unconfirmed@mail.test')).toEqual([]);
    expect(await mailsTo(t, 'boris.new@mail.test')).toEqual([]);
    // Nothing waits in the queue before the documents.
    expect(((await callMethod(t.app, 'adminRecoveryTaskList', {}, { token: admin })).body.tasks as { taskId: string }[]).map((x) => x.taskId)).not.toContain(taskId);
    expect((await decide({ taskId, decision: 'approve' })).body.responseCode).toBe('TA1');

    // Files are checked like document uploads: a text file is refused and nothing is stored.
    const bad = await upload(t, 'accountRecoveryDocuments', { taskId }, [{ field: 'document', fileName: 'id.png', content: Buffer.from('not an image') }, goodFiles[1]!], ip);
    expect(bad.body.responseCode).toBe('VF');
    expect(bad.body.validationErrors).toEqual([{ param: 'document', description: 'must be a PDF, JPEG or PNG file', code: 'fileWrongType', params: {} }]);
    const missing = await upload(t, 'accountRecoveryDocuments', { taskId }, [goodFiles[0]!], ip);
    expect(missing.body.validationErrors).toEqual([{ param: 'selfie', description: 'is required', code: 'required', params: {} }]);
    expect(await t.db.select({ id: accountRecoveryFiles.id }).from(accountRecoveryFiles).where(eq(accountRecoveryFiles.taskId, taskId))).toEqual([]);
    const uploaded = await upload(t, 'accountRecoveryDocuments', { taskId }, goodFiles, ip);
    expect(uploaded.body).toMatchObject({ responseCode: '00', verificationStatus: 'pending', documentsUploaded: true });
    expect((await upload(t, 'accountRecoveryDocuments', { taskId }, goodFiles, ip)).body.responseCode).toBe('TA1');

    const queue = await callMethod(t.app, 'adminRecoveryTaskList', {}, { token: admin });
    const item = (queue.body.tasks as Record<string, unknown>[]).find((x) => x.taskId === taskId);
    expect(item).toMatchObject({ email: boris.email, recoveryEmail: 'boris.new@mail.test', customerId, personalDataMatches: true, recordDob: '1985-11-03' });
    expect(item?.files).toEqual([
      { kind: 'document', mimeType: 'image/jpeg', sizeBytes: JPEG.length },
      { kind: 'selfie', mimeType: 'image/png', sizeBytes: PNG.length },
    ]);
    const file = await t.app.inject({ method: 'GET', url: `/api/v1/admin/account-recovery/${taskId}/files/selfie`, headers: { authorization: `Bearer ${admin}` } });
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.equals(PNG)).toBe(true);
    const stranger = await t.app.inject({ method: 'GET', url: `/api/v1/admin/account-recovery/${taskId}/files/selfie` });
    expect(stranger.statusCode).toBe(401);
    // customers may not decide
    const borisToken = (await signIn(t.app, 'boris')).accessToken;
    expect((await callMethod(t.app, 'adminRecoveryTaskDecide', { taskId, decision: 'approve' }, { token: borisToken })).body.responseCode).toBe('13');

    const approved = await decide({ taskId, decision: 'approve' });
    expect(approved.body).toMatchObject({ responseCode: '00', verificationStatus: 'verified' });
    expect((await decide({ taskId, decision: 'approve' })).body.responseCode).toBe('TA1');
    const status = await callMethod(t.app, 'accountRecoveryStatus', { taskId });
    expect(status.body).toMatchObject({ verificationStatus: 'verified', documentsUploaded: true });
    expect((await mailsTo(t, boris.email)).at(-1)?.subject).toContain('account recovery approved');
    // The code confirms the new address, then sets the password.
    const code = await lastCodeTo(t, 'boris.new@mail.test');
    expect((await callMethod(t.app, 'passwordCodeCheck', { email: boris.email, code })).body.responseCode).toBe('00');
    expect((await callMethod(t.app, 'passwordChangeWithCode', { email: boris.email, code, password: 'Boris-New-2027' })).body.responseCode).toBe('00');
    await expect(signInBoris(t, 'Boris-New-2027')).resolves.toHaveProperty('accessToken');
    const [row] = await t.db.select().from(accountRecoveryTasks).where(eq(accountRecoveryTasks.taskId, taskId));
    expect(row?.completedAt).not.toBeNull();
    // Too late to cancel once the password changed.
    const cancel = await callMethod(t.app, 'accountRecoveryCancel', { taskId, cancelCode: await cancelCodeTo(t, 'boris.home@mail.test') }, { remoteAddress: ip });
    expect(cancel.body.validationErrors).toEqual([{ param: 'cancelCode', description: 'is too late: the recovery was completed; contact support', code: 'cancelTooLate', params: {} }]);
    // No file content, code or cancel code in the audit trail.
    const audits = JSON.stringify(await t.db.select().from(auditLog));
    expect(audits).not.toContain(code);
  });

  it('rejection: the reason and whether a retry is allowed reach the caller; nothing is mailed to the new address', async () => {
    const ip = nextIp();
    const mila = demoUserByKey.mila;
    const asked = await request({ email: mila.email, recoveryEmail: 'mila.new@mail.test', firstName: 'Mila', lastName: 'Marin', dob: '1991-01-01' }, ip);
    const taskId = String(asked.body.taskId);
    await upload(t, 'accountRecoveryDocuments', { taskId }, goodFiles, ip);
    expect((await decide({ taskId, decision: 'reject' })).body.validationErrors).toEqual([{ param: 'reason', description: 'is required to reject', code: 'requiredToReject', params: {} }]);
    const rejected = await decide({ taskId, decision: 'reject', reason: 'The selfie does not show the face on the document', isRetryable: true });
    expect(rejected.body).toMatchObject({ responseCode: '00', verificationStatus: 'rejected', isRetryable: true });
    const status = await callMethod(t.app, 'accountRecoveryStatus', { taskId });
    expect(status.body).toMatchObject({
      verificationStatus: 'rejected',
      rejectReason: 'identityNotConfirmed',
      rejectComment: 'The selfie does not show the face on the document',
      isRetryable: true,
    });
    expect(await mailsTo(t, 'mila.new@mail.test')).toEqual([]);
    expect((await decide({ taskId, decision: 'approve' })).body.responseCode).toBe('TA1');
    // A final rejection says no retry.
    const again = await request({ email: mila.email, recoveryEmail: 'mila.new@mail.test', firstName: 'Mila', lastName: 'Marin', dob: '1991-01-01' }, ip);
    await upload(t, 'accountRecoveryDocuments', { taskId: again.body.taskId }, goodFiles, ip);
    await decide({ taskId: again.body.taskId, decision: 'reject', reason: 'Forged document' });
    expect((await callMethod(t.app, 'accountRecoveryStatus', { taskId: again.body.taskId })).body).toMatchObject({ verificationStatus: 'rejected', isRetryable: false });
  });

  it('cancel: a current e-mail ends the task within 24 hours (an approved code dies too); refused after', async () => {
    const ip = nextIp();
    const sam = demoUserByKey.sam;
    const asked = await request({ email: sam.email, recoveryEmail: 'sam.thief@evil.test', firstName: 'Sam', lastName: 'X', dob: '1980-01-01' }, ip);
    const taskId = String(asked.body.taskId);
    const cancelCode = await cancelCodeTo(t, sam.email);
    await upload(t, 'accountRecoveryDocuments', { taskId }, goodFiles, ip);
    // Approved by mistake: the thief's address gets a code...
    expect((await decide({ taskId, decision: 'approve' })).body.responseCode).toBe('00');
    const code = await lastCodeTo(t, 'sam.thief@evil.test');
    // ...the owner cancels with the mailed code (a wrong one is refused)...
    const wrong = await callMethod(t.app, 'accountRecoveryCancel', { taskId, cancelCode: wrongCodeLike(cancelCode) }, { remoteAddress: ip });
    expect(wrong.body.validationErrors).toEqual([{ param: 'cancelCode', description: 'is wrong', code: 'codeWrong', params: {} }]);
    const canceled = await callMethod(t.app, 'accountRecoveryCancel', { taskId, cancelCode: cancelCode.toLowerCase() }, { remoteAddress: ip });
    expect(canceled.body).toEqual({ responseCode: '00' });
    // ...a second click of the link answers the same...
    expect((await callMethod(t.app, 'accountRecoveryCancel', { taskId, cancelCode }, { remoteAddress: ip })).body.responseCode).toBe('00');
    expect((await callMethod(t.app, 'accountRecoveryStatus', { taskId })).body).toMatchObject({ verificationStatus: 'rejected', rejectReason: 'canceled', isRetryable: false });
    // ...and the thief's code no longer works.
    expect((await callMethod(t.app, 'passwordChangeWithCode', { email: sam.email, code, password: 'Stolen-Pass-2027' })).body.responseCode).toBe('VF');

    // A task whose 24 hours have passed cannot be canceled.
    const later = await request({ email: sam.email, recoveryEmail: 'sam.thief@evil.test', firstName: 'Sam', lastName: 'X', dob: '1980-01-01' }, ip);
    const lateCode = await cancelCodeTo(t, sam.email);
    await t.db
      .update(accountRecoveryTasks)
      .set({ cancelUntil: new Date(Date.now() - 1000) })
      .where(eq(accountRecoveryTasks.taskId, String(later.body.taskId)));
    const late = await callMethod(t.app, 'accountRecoveryCancel', { taskId: later.body.taskId, cancelCode: lateCode }, { remoteAddress: ip });
    expect(late.body.validationErrors).toEqual([{ param: 'cancelCode', description: 'has expired: the 24 hours to cancel have passed; contact support', code: 'cancelExpired', params: {} }]);
    expect((await callMethod(t.app, 'accountRecoveryStatus', { taskId: later.body.taskId })).body).toMatchObject({ verificationStatus: 'pending' });
  });

  it('limits requests per account (known or not alike), counted in one statement even under concurrency', async () => {
    for (const [k, email] of [demoUserByKey.tom.email, 'nobody.here@demo.test'].entries()) {
      // Each from its own address: only the per-account limit can refuse them.
      const answers = await Promise.all(
        Array.from({ length: ACCOUNT_RECOVERY_MAX_ATTEMPTS + 3 }, (_, i) => request({ email, recoveryEmail: 'x@mail.test', firstName: 'A', lastName: 'B', dob: '1990-01-01' }, `10.8.${k}.${i + 1}`)),
      );
      const codes = answers.map((a) => a.body.responseCode).sort();
      expect(codes).toEqual([...Array(ACCOUNT_RECOVERY_MAX_ATTEMPTS).fill('00'), ...Array(3).fill('13')]);
      expect(answers.find((a) => a.body.responseCode === '13')?.body.responseDescription).toBe(RECOVERY_RATE_LIMITED);
    }
  });

  it('limits requests per client address', async () => {
    const ip = nextIp();
    for (let i = 0; i < ACCOUNT_RECOVERY_MAX_PER_ADDRESS; i++) {
      expect((await request({ email: `spray${i}@demo.test`, recoveryEmail: 'x@mail.test', firstName: 'A', lastName: 'B', dob: '1990-01-01' }, ip)).body.responseCode).toBe('00');
    }
    const over = await request({ email: 'spray-last@demo.test', recoveryEmail: 'x@mail.test', firstName: 'A', lastName: 'B', dob: '1990-01-01' }, ip);
    expect(over.body.responseCode).toBe('13');
    // another address is not affected
    expect((await request({ email: 'spray-last@demo.test', recoveryEmail: 'x@mail.test', firstName: 'A', lastName: 'B', dob: '1990-01-01' }, nextIp())).body.responseCode).toBe('00');
  });

  it('an e-mail no account has: the same answers all the way, no mail, no code, no trace but an ownerless task', async () => {
    const ip = nextIp();
    const rita = demoUserByKey.rita;
    const before = await footprint(t);
    const unknown = await request({ email: 'ghost@demo.test', recoveryEmail: 'ghost@mail.test', firstName: 'Rita', lastName: 'R', dob: '1990-01-01' }, ip);
    const afterUnknown = await footprint(t);
    const known = await request({ email: rita.email, recoveryEmail: 'ghost@mail.test', firstName: 'Rita', lastName: 'R', dob: '1990-01-01' }, ip);
    const shape = (b: Record<string, unknown>) => ({ ...b, taskId: 'x', emailId: 'x', email: 'x' });
    expect(shape(unknown.body)).toEqual(shape(known.body));
    expect(Object.keys(unknown.body).sort()).toEqual(Object.keys(known.body).sort());
    // nothing mailed, no code; the one audit entry each call writes (known or not alike)
    expect(afterUnknown).toEqual({ ...before, audit: before.audit + 1 });
    const [ghostTask] = await t.db.select().from(accountRecoveryTasks).where(eq(accountRecoveryTasks.taskId, String(unknown.body.taskId)));
    expect(ghostTask?.userId).toBeNull();
    // status and uploads answer alike
    const s1 = await callMethod(t.app, 'accountRecoveryStatus', { taskId: unknown.body.taskId });
    const s2 = await callMethod(t.app, 'accountRecoveryStatus', { taskId: known.body.taskId });
    expect(shape(s1.body)).toEqual(shape(s2.body));
    const u1 = await upload(t, 'accountRecoveryDocuments', { taskId: unknown.body.taskId }, goodFiles, ip);
    const u2 = await upload(t, 'accountRecoveryDocuments', { taskId: known.body.taskId }, goodFiles, ip);
    expect(shape(u1.body)).toEqual(shape(u2.body));
    expect(await mailsTo(t, 'ghost@mail.test')).toEqual([]);
    // The administrator sees no account behind it and can only reject it.
    const item = ((await callMethod(t.app, 'adminRecoveryTaskList', {}, { token: admin })).body.tasks as Record<string, unknown>[]).find((x) => x.taskId === unknown.body.taskId);
    expect(item).toMatchObject({ customerId: null, customerName: null, personalDataMatches: false });
    expect((await decide({ taskId: unknown.body.taskId, decision: 'approve' })).body.responseCode).toBe('TA1');
  });

  it('validates the form', async () => {
    const res = await callMethod(t.app, 'accountRecoveryRequest', { email: 'x', recoveryEmail: 'y@mail.test', firstName: '', lastName: 'L', dob: '1990-02-30' });
    expect(res.body.responseCode).toBe('VF');
    const params = (res.body.validationErrors as { param: string }[]).map((e) => e.param).sort();
    expect(params).toEqual(['dob', 'email', 'firstName']);
    expect((await callMethod(t.app, 'accountRecoveryStatus', { taskId: '00000000-0000-4000-8000-000000000000' })).body.responseCode).toBe('TA1');
  });
});

describe('password change from settings', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('refuses a wrong current password and counts it (a right one gives its count back)', async () => {
    const me = await signInBoris(t, boris.password);
    const res = await callMethod(t.app, 'changePassword', { currentPassword: 'nope', newPassword: 'Changed-2027' }, { token: me.accessToken });
    expect(res.body.validationErrors).toEqual([{ param: 'currentPassword', description: 'is wrong', code: 'passwordWrong', params: {} }]);
    const counted = async () =>
      (await t.db.select().from(rateLimitCounters).where(and(eq(rateLimitCounters.scope, CURRENT_PASSWORD_SCOPE), eq(rateLimitCounters.key, currentPasswordKey(Number(decodeJwt(me.accessToken).sub))))))[0]?.count;
    expect(await counted()).toBe(1);
    const same = await callMethod(t.app, 'changePassword', { currentPassword: boris.password, newPassword: boris.password }, { token: me.accessToken });
    expect(same.body.validationErrors).toEqual([{ param: 'newPassword', description: 'must differ from the current password', code: 'samePassword', params: {} }]);
    expect(await counted()).toBe(1);
    const anonymous = await callMethod(t.app, 'changePassword', { currentPassword: boris.password, newPassword: 'Changed-2027' });
    expect(anonymous.status).toBe(401);
  });

  // Issue 11 finding 4 for the current password: 20 parallel guesses, the right password 12th.
  // Each guess is counted before its hash is checked, so at most the allowance is ever verified;
  // before, every one was checked (on PostgreSQL) and the right one went through.
  it('checks at most the allowance of 20 parallel current-password guesses, the right one among them', async () => {
    const anna = await signIn(t.app, 'anna');
    const guesses = Array.from({ length: 20 }, (_, i) => (i === 11 ? demoUserByKey.anna.password : `guess-${i}`));
    const answers = await Promise.all(
      guesses.map((currentPassword) => callMethod(t.app, 'changePassword', { currentPassword, newPassword: 'Changed-2027' }, { token: anna.accessToken })),
    );
    const verified = answers.filter((a) => a.body.responseCode === '00' || (a.body.validationErrors as { param: string }[] | undefined)?.[0]?.param === 'currentPassword');
    expect(verified.length).toBeLessThanOrEqual(DEFAULT_SIGN_IN_LIMITS.perAccount);
    expect(answers.filter((a) => a.body.responseCode === '13').length).toBeGreaterThanOrEqual(guesses.length - DEFAULT_SIGN_IN_LIMITS.perAccount);
  });

  it('sends a code, confirms it, keeps the caller signed in, ends other sessions and publishes PasswordChange', async () => {
    const other = await signInBoris(t, boris.password);
    const me = await signInBoris(t, boris.password);
    const { customerId } = await userIdOf(t, boris.email);
    const events: PushMessage[] = [];
    const off = t.publisher.subscribe(customerId, (e) => events.push(e));
    try {
      const started = await callMethod(t.app, 'changePassword', { currentPassword: boris.password, newPassword: 'Changed-2027' }, { token: me.accessToken });
      expect(started.body).toMatchObject({ responseCode: '00', sentTo: 'b***@demo.test', expiresInS: 600 });
      expect(events).toEqual([]);
      const code = await lastCodeTo(t, boris.email);
      const requestKey = started.body.requestKey;
      const wrong = await callMethod(t.app, 'changePasswordConfirm', { requestKey, code: wrongCodeLike(code) }, { token: me.accessToken });
      expect(wrong.body.validationErrors).toEqual([{ param: 'code', description: 'is wrong', code: 'codeWrong', params: {} }]);
      // still the old password until confirmed
      await expect(signInBoris(t, boris.password)).resolves.toHaveProperty('accessToken');

      const ok = await callMethod(t.app, 'changePasswordConfirm', { requestKey, code }, { token: me.accessToken });
      expect(ok.body).toEqual({ responseCode: '00' });
      await expect.poll(() => events).toEqual([{ type: 'PasswordChange', status: 'changed' }]);
      const reused = await callMethod(t.app, 'changePasswordConfirm', { requestKey, code }, { token: me.accessToken });
      expect(reused.body.validationErrors).toEqual([{ param: 'requestKey', description: 'is wrong', code: 'codeWrong', params: {} }]);

      expect(await refreshWorks(t, other.refreshToken)).toBe(false);
      expect(await refreshWorks(t, me.refreshToken)).toBe(true);
      await new Promise((r) => setTimeout(r, FAMILY_CHECK_TTL_MS + 50));
      expect((await callMethod(t.app, 'getCustomerInfo', {}, { token: other.accessToken })).status).toBe(401);
      expect((await callMethod(t.app, 'getCustomerInfo', {}, { token: me.accessToken })).body.responseCode).toBe('00');
      await expect(signInBoris(t, 'Changed-2027')).resolves.toHaveProperty('accessToken');
    } finally {
      off();
    }
  });

  it('cancels a pending change, refuses an expired code, and never accepts another user\'s request key', async () => {
    const me = await signInBoris(t, 'Changed-2027');
    const { customerId } = await userIdOf(t, boris.email);
    const events: PushMessage[] = [];
    const off = t.publisher.subscribe(customerId, (e) => events.push(e));
    try {
      const started = await callMethod(t.app, 'changePassword', { currentPassword: 'Changed-2027', newPassword: 'Third-2028' }, { token: me.accessToken });
      const code = await lastCodeTo(t, boris.email);
      const requestKey = started.body.requestKey;

      const anna = await signIn(t.app, 'anna');
      const foreign = await callMethod(t.app, 'changePasswordConfirm', { requestKey, code }, { token: anna.accessToken });
      expect(foreign.body.validationErrors).toEqual([{ param: 'requestKey', description: 'is wrong', code: 'codeWrong', params: {} }]);
      const foreignCancel = await callMethod(t.app, 'passwordChangeCancel', { requestKey }, { token: anna.accessToken });
      expect(foreignCancel.body.responseCode).toBe('VF');

      const canceled = await callMethod(t.app, 'passwordChangeCancel', { requestKey }, { token: me.accessToken });
      expect(canceled.body).toEqual({ responseCode: '00' });
      await expect.poll(() => events).toEqual([{ type: 'PasswordChange', status: 'canceled' }]);
      const afterCancel = await callMethod(t.app, 'changePasswordConfirm', { requestKey, code }, { token: me.accessToken });
      expect(afterCancel.body.responseCode).toBe('VF');

      const next = await callMethod(t.app, 'changePassword', { currentPassword: 'Changed-2027', newPassword: 'Third-2028' }, { token: me.accessToken });
      const nextCode = await lastCodeTo(t, boris.email);
      await t.db.update(oneTimeCodes).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(oneTimeCodes.id, String(next.body.requestKey)));
      const expired = await callMethod(t.app, 'changePasswordConfirm', { requestKey: next.body.requestKey, code: nextCode }, { token: me.accessToken });
      expect(expired.body.validationErrors).toEqual([{ param: 'code', description: 'has expired: ask for a new one', code: 'codeExpired', params: {} }]);
      // the password stayed
      await expect(signInBoris(t, 'Changed-2027')).resolves.toHaveProperty('accessToken');
    } finally {
      off();
    }
  });
});
