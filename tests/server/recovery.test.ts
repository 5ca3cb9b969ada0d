/**
 * Password reset, account recovery and password change (api/recovery.ts) over HTTP: codes from
 * the outbox, wrong, expired, reused and dead codes, unknown e-mails answered like known ones,
 * another user's request key, and sessions ended by a new password.
 *
 * Proof it can fail: with revokeFamilies made a no-op on purpose, the two session tests went red
 * (2 of 11 then); restored since.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, desc, eq, sql } from 'drizzle-orm';
import { demoUserByKey } from '../../server/db/demo-users.ts';
import { accountRecoveryTasks, oneTimeCodes, signInFailures } from '../../server/modules/auth/auth.tables.ts';
import { FAMILY_CHECK_TTL_MS } from '../../server/modules/auth/tokens.service.ts';
import { customers, users } from '../../server/modules/customers/customers.tables.ts';
import { PASSWORD_RESET_MAX_REQUESTS } from '../../api/recovery.ts';
import { auditLog, outbox } from '../../server/modules/platform/platform.tables.ts';
import type { PushMessage } from '../../server/modules/push/publisher.ts';
import { callMethod, createTestApp, pkcePair, postJson, signIn, totpCode, type TestApp } from './harness.ts';

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
    const [task] = await t.db.select().from(accountRecoveryTasks).where(eq(accountRecoveryTasks.taskId, String(unknown.body.taskId)));
    expect(task?.userId).toBeNull();

    const known = await callMethod(t.app, 'passwordChangeRequest', { email: ' Boris@Demo.test ' });
    expect(known.body.responseCode).toBe('00');
    expect(Object.keys(known.body).sort()).toEqual(['recoveryEmail', 'responseCode', 'taskId']);
    expect(known.body.recoveryEmail).toBe('b***@demo.test');
    expect(await outboxCount(t)).toBe(before + 1);
    // The status of either task tells nothing about the account.
    const s1 = await callMethod(t.app, 'accountRecoveryStatus', { taskId: unknown.body.taskId });
    const s2 = await callMethod(t.app, 'accountRecoveryStatus', { taskId: known.body.taskId });
    expect(s1.body.verificationStatus).toBe(s2.body.verificationStatus);
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

describe('account recovery with personal data', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  const personal = { firstName: 'Boris', lastName: 'Petrov', dob: '1985-11-03' };

  it('rejects a mismatch, counts attempts, and stops comparing after three', async () => {
    const before = await outboxCount(t);
    const first = await callMethod(t.app, 'accountRecoveryRequest', { email: boris.email, recoveryEmail: 'boris.new@mail.test', ...personal, dob: '1985-11-04' });
    expect(first.body).toMatchObject({ responseCode: '00', verificationStatus: 'rejected', rejectReason: 'personalDataMismatch', isRetryable: true });
    expect(first.body.emailId).toBe(first.body.taskId);
    const second = await callMethod(t.app, 'accountRecoveryRequest', { email: boris.email, recoveryEmail: 'boris.new@mail.test', ...personal, lastName: 'Petrova' });
    expect(second.body).toMatchObject({ taskId: first.body.taskId, isRetryable: true });
    const third = await callMethod(t.app, 'accountRecoveryRequest', { email: boris.email, recoveryEmail: 'boris.new@mail.test', ...personal, firstName: 'Bob' });
    expect(third.body).toMatchObject({ verificationStatus: 'rejected', rejectReason: 'personalDataMismatch', isRetryable: false });
    // the right data now is not even compared
    const fourth = await callMethod(t.app, 'accountRecoveryRequest', { email: boris.email, recoveryEmail: 'boris.new@mail.test', ...personal });
    expect(fourth.body).toMatchObject({ verificationStatus: 'rejected', rejectReason: 'tooManyAttempts', isRetryable: false });
    expect(await outboxCount(t)).toBe(before);
    const status = await callMethod(t.app, 'accountRecoveryStatus', { taskId: first.body.taskId });
    expect(status.body).toMatchObject({ verificationStatus: 'rejected', isRetryable: false, email: 'b***@demo.test', recoveryEmail: 'b***@mail.test' });
  });

  it('answers an unknown e-mail like a mismatch', async () => {
    const res = await callMethod(t.app, 'accountRecoveryRequest', { email: 'ghost@demo.test', recoveryEmail: 'ghost@mail.test', ...personal });
    expect(res.body).toMatchObject({ verificationStatus: 'rejected', rejectReason: 'personalDataMismatch', isRetryable: true });
    const unknownTask = await callMethod(t.app, 'accountRecoveryStatus', { taskId: '00000000-0000-4000-8000-000000000000' });
    expect(unknownTask.body.responseCode).toBe('TA1');
  });

  it('verifies matching data (names case- and space-insensitive), mails the code to the recovery e-mail and a notice to the old one', async () => {
    const anna = demoUserByKey.anna;
    const res = await callMethod(t.app, 'accountRecoveryRequest', {
      email: anna.email,
      recoveryEmail: 'anna.private@mail.test',
      firstName: '  aNNa ',
      lastName: 'KOWALSKA',
      dob: '1990-04-12',
    });
    expect(res.body).toMatchObject({ verificationStatus: 'verified', isRetryable: false });
    expect(res.body.rejectReason).toBeUndefined();
    const [notice] = await t.db.select().from(outbox).where(eq(outbox.recipient, anna.email)).orderBy(desc(outbox.id)).limit(1);
    expect(notice?.subject).toContain('account recovery started');
    expect(notice?.body).not.toMatch(/Your code/);
    const code = await lastCodeTo(t, 'anna.private@mail.test');
    expect((await callMethod(t.app, 'passwordCodeCheck', { email: anna.email, code })).body.responseCode).toBe('00');
    // a sign-in with the old password, waiting for its second step
    const { verifier, challenge } = pkcePair();
    const halfway = await postJson(t.app, '/auth/login', { client: 'spa', username: anna.email, password: anna.password, codeChallenge: challenge });
    expect(halfway.statusCode).toBe(200);
    const done = await callMethod(t.app, 'passwordChangeWithCode', { email: anna.email, code, password: 'Anna-New-2027' });
    expect(done.body.responseCode).toBe('00');
    const finish = await postJson(t.app, '/auth/token', { code: halfway.json().code, codeVerifier: verifier, otp: totpCode(anna.totpSecret, Date.now()) });
    expect(finish.statusCode).not.toBe(200);
    const status = await callMethod(t.app, 'accountRecoveryStatus', { taskId: res.body.taskId });
    expect(status.body).toMatchObject({ verificationStatus: 'verified' });
  });

  it('caps the codes a correct recovery can mail within the code lifetime', async () => {
    const mila = demoUserByKey.mila;
    const data = { email: mila.email, recoveryEmail: 'mila.new@mail.test', firstName: 'Mila', lastName: 'Marin' };
    const [row] = await t.db.select({ birthDay: customers.birthDay }).from(customers).innerJoin(users, eq(users.customerId, customers.id)).where(eq(users.email, mila.email));
    const dob = row?.birthDay ?? '1990-01-01';
    if (!row?.birthDay) await t.db.update(customers).set({ birthDay: dob }).where(eq(customers.id, (await userIdOf(t, mila.email)).customerId));
    for (let i = 0; i < PASSWORD_RESET_MAX_REQUESTS; i++) {
      const ok = await callMethod(t.app, 'accountRecoveryRequest', { ...data, dob });
      expect(ok.body.verificationStatus).toBe('verified');
    }
    const capped = await callMethod(t.app, 'accountRecoveryRequest', { ...data, dob });
    expect(capped.body).toMatchObject({ verificationStatus: 'rejected', rejectReason: 'tooManyAttempts', isRetryable: false });
    const mails = await t.db.select().from(outbox).where(eq(outbox.recipient, 'mila.new@mail.test'));
    expect(mails).toHaveLength(PASSWORD_RESET_MAX_REQUESTS);
  });

  it('validates the form', async () => {
    const res = await callMethod(t.app, 'accountRecoveryRequest', { email: 'x', recoveryEmail: 'y@mail.test', firstName: '', lastName: 'L', dob: '1990-02-30' });
    expect(res.body.responseCode).toBe('VF');
    const params = (res.body.validationErrors as { param: string }[]).map((e) => e.param).sort();
    expect(params).toEqual(['dob', 'email', 'firstName']);
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

  it('refuses a wrong current password and counts it as a failed sign-in', async () => {
    const me = await signInBoris(t, boris.password);
    const res = await callMethod(t.app, 'passwordChange', { currentPassword: 'nope', newPassword: 'Changed-2027' }, { token: me.accessToken });
    expect(res.body.validationErrors).toEqual([{ param: 'currentPassword', description: 'is wrong', code: 'passwordWrong', params: {} }]);
    const failures = await t.db.select().from(signInFailures).where(eq(signInFailures.username, boris.email));
    expect(failures).toHaveLength(1);
    const same = await callMethod(t.app, 'passwordChange', { currentPassword: boris.password, newPassword: boris.password }, { token: me.accessToken });
    expect(same.body.validationErrors).toEqual([{ param: 'newPassword', description: 'must differ from the current password', code: 'samePassword', params: {} }]);
    const anonymous = await callMethod(t.app, 'passwordChange', { currentPassword: boris.password, newPassword: 'Changed-2027' });
    expect(anonymous.status).toBe(401);
  });

  it('sends a code, confirms it, keeps the caller signed in, ends other sessions and publishes PasswordChange', async () => {
    const other = await signInBoris(t, boris.password);
    const me = await signInBoris(t, boris.password);
    const { customerId } = await userIdOf(t, boris.email);
    const events: PushMessage[] = [];
    const off = t.publisher.subscribe(customerId, (e) => events.push(e));
    try {
      const started = await callMethod(t.app, 'passwordChange', { currentPassword: boris.password, newPassword: 'Changed-2027' }, { token: me.accessToken });
      expect(started.body).toMatchObject({ responseCode: '00', sentTo: 'b***@demo.test', expiresInS: 600 });
      expect(events).toEqual([]);
      const code = await lastCodeTo(t, boris.email);
      const requestKey = started.body.requestKey;
      const wrong = await callMethod(t.app, 'passwordChangeConfirm', { requestKey, code: wrongCodeLike(code) }, { token: me.accessToken });
      expect(wrong.body.validationErrors).toEqual([{ param: 'code', description: 'is wrong', code: 'codeWrong', params: {} }]);
      // still the old password until confirmed
      await expect(signInBoris(t, boris.password)).resolves.toHaveProperty('accessToken');

      const ok = await callMethod(t.app, 'passwordChangeConfirm', { requestKey, code }, { token: me.accessToken });
      expect(ok.body).toEqual({ responseCode: '00' });
      await new Promise((r) => setTimeout(r, 20));
      expect(events).toEqual([{ type: 'PasswordChange', status: 'changed' }]);
      const reused = await callMethod(t.app, 'passwordChangeConfirm', { requestKey, code }, { token: me.accessToken });
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
      const started = await callMethod(t.app, 'passwordChange', { currentPassword: 'Changed-2027', newPassword: 'Third-2028' }, { token: me.accessToken });
      const code = await lastCodeTo(t, boris.email);
      const requestKey = started.body.requestKey;

      const anna = await signIn(t.app, 'anna');
      const foreign = await callMethod(t.app, 'passwordChangeConfirm', { requestKey, code }, { token: anna.accessToken });
      expect(foreign.body.validationErrors).toEqual([{ param: 'requestKey', description: 'is wrong', code: 'codeWrong', params: {} }]);
      const foreignCancel = await callMethod(t.app, 'passwordChangeCancel', { requestKey }, { token: anna.accessToken });
      expect(foreignCancel.body.responseCode).toBe('VF');

      const canceled = await callMethod(t.app, 'passwordChangeCancel', { requestKey }, { token: me.accessToken });
      expect(canceled.body).toEqual({ responseCode: '00' });
      await new Promise((r) => setTimeout(r, 20));
      expect(events).toEqual([{ type: 'PasswordChange', status: 'canceled' }]);
      const afterCancel = await callMethod(t.app, 'passwordChangeConfirm', { requestKey, code }, { token: me.accessToken });
      expect(afterCancel.body.responseCode).toBe('VF');

      const next = await callMethod(t.app, 'passwordChange', { currentPassword: 'Changed-2027', newPassword: 'Third-2028' }, { token: me.accessToken });
      const nextCode = await lastCodeTo(t, boris.email);
      await t.db.update(oneTimeCodes).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(oneTimeCodes.id, String(next.body.requestKey)));
      const expired = await callMethod(t.app, 'passwordChangeConfirm', { requestKey: next.body.requestKey, code: nextCode }, { token: me.accessToken });
      expect(expired.body.validationErrors).toEqual([{ param: 'code', description: 'has expired: ask for a new one', code: 'codeExpired', params: {} }]);
      // the password stayed
      await expect(signInBoris(t, 'Changed-2027')).resolves.toHaveProperty('accessToken');
    } finally {
      off();
    }
  });
});
