/**
 * The administrator's review of identity-verification and video identity jobs (the built-in
 * provider is the review queue): the queue lists pending jobs next to documents; approve, or
 * reject with a reason, audited; the job's pages, identityGet and userStatusGet follow. Refusals:
 * not an administrator (13), bad fields (VF), a job of an external provider, one decided already
 * or expired (TA1), another customer's job (404 / 403) — each changing nothing. The job page's
 * token never reaches a log.
 */
import { Writable } from 'node:stream';
import { asc, count, desc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_VERSION_PATH } from '../../api/http.ts';
import { customers, users } from '../../server/modules/customers/customers.tables.ts';
import { auditLog } from '../../server/modules/platform/platform.tables.ts';
import { identityJobs } from '../../server/modules/profile/profile.tables.ts';
import { callMethod, createTestApp, signIn, type MethodAnswer, type SignedIn, type TestApp } from './harness.ts';

let t: TestApp;
let app: FastifyInstance;
let uma: SignedIn;
let rita: SignedIn;
let boris: SignedIn;
let admin: SignedIn;
const logLines: string[] = [];

interface Job {
  workflowRunId: string;
  token: string;
  provider: string;
  url: string;
}

async function startJob(token: string, kind: 'identity' | 'video', path = `${API_VERSION_PATH}/identity-verification`): Promise<Job> {
  const res = await app.inject({ method: 'POST', url: path, payload: { kind, channel: 'camera' }, headers: { authorization: `Bearer ${token}` } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Job;
}

function expectCode(res: MethodAnswer, code: string): void {
  expect(res.body.responseCode, JSON.stringify(res.body)).toBe(code);
}

async function jobsSnapshot(): Promise<string> {
  const jobs = await t.db.select().from(identityJobs).orderBy(asc(identityJobs.id));
  const [audit] = await t.db.select({ n: count() }).from(auditLog);
  const people = await t.db.select({ id: customers.id, verified: customers.verified }).from(customers).orderBy(asc(customers.id));
  return JSON.stringify({ jobs, audit: audit!.n, people });
}

async function unchanged(run: () => Promise<void>): Promise<void> {
  const before = await jobsSnapshot();
  await run();
  expect(await jobsSnapshot()).toBe(before);
}

async function customerIdOf(email: string): Promise<number> {
  const [u] = await t.db.select({ customerId: users.customerId }).from(users).where(eq(users.email, email));
  return u!.customerId;
}

async function videoStatus(token: string) {
  const status = await callMethod(app, 'userStatusGet', {}, { token });
  const identity = await callMethod(app, 'identityGet', {}, { token });
  return {
    userStatus: (status.body.userStatus as { videoIdentity: string }).videoIdentity,
    identityGet: (identity.body.identity as { videoIdentity: { status: string; jobId: string | null; rejectReason?: string | null } }).videoIdentity,
  };
}

const queue = async (body: Record<string, unknown> = {}) => {
  const res = await callMethod(app, 'adminReviewQueue', body, { token: admin.accessToken });
  expectCode(res, '00');
  return res.body as unknown as { identityJobs: { workflowRunId: string; kind: string; customerId: number; customerName: string }[]; identityJobsTotal: number };
};

beforeAll(async () => {
  const logStream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logLines.push(chunk.toString());
      done();
    },
  });
  t = await createTestApp({ transferWorkers: false, logStream });
  app = t.app;
  uma = await signIn(app, 'uma');
  rita = await signIn(app, 'rita');
  boris = await signIn(app, 'boris');
  admin = await signIn(app, 'admin');
});

afterAll(async () => {
  await t?.close();
});

describe('video identity', () => {
  let video: Job;

  it('a started video job is pending on its page, in identityGet and userStatusGet, and queued for the administrator', async () => {
    video = await startJob(uma.accessToken, 'video');
    expect(video.provider).toBe('review');
    expect(video.url).toBe(`/video-identity-job/${video.workflowRunId}`);
    const page = await app.inject({ method: 'GET', url: `${API_VERSION_PATH}/video-identity-job/${video.workflowRunId}`, headers: { authorization: `Bearer ${uma.accessToken}` } });
    expect(page.statusCode).toBe(200);
    expect(page.json()).toMatchObject({ responseCode: '00', kind: 'video', status: 'pending', decided: null, rejectReason: null });
    expect(await videoStatus(uma.accessToken)).toEqual({ userStatus: 'pending', identityGet: { status: 'pending', jobId: video.workflowRunId, rejectReason: null } });
    const q = await queue();
    const item = q.identityJobs.find((j) => j.workflowRunId === video.workflowRunId);
    expect(item).toMatchObject({ kind: 'video', customerId: await customerIdOf('uma@demo.test'), customerName: 'Uma Urbonaite' });
    expect(q.identityJobsTotal).toBe(q.identityJobs.length);
    // One customer's queue only.
    expect((await queue({ customerId: await customerIdOf('rita@demo.test') })).identityJobs).toEqual([]);
  });

  it("another customer's job: its page answers 404, with no token 401, a malformed id 404", async () => {
    const other = await app.inject({ method: 'GET', url: `${API_VERSION_PATH}/video-identity-job/${video.workflowRunId}`, headers: { authorization: `Bearer ${rita.accessToken}` } });
    expect(other.statusCode).toBe(404);
    expect(other.json()).toMatchObject({ responseCode: 'ENOA' });
    const anonymous = await app.inject({ method: 'GET', url: `${API_VERSION_PATH}/video-identity-job/${video.workflowRunId}` });
    expect(anonymous.statusCode).toBe(401);
    const malformed = await app.inject({ method: 'GET', url: `${API_VERSION_PATH}/video-identity-job/not-a-job`, headers: { authorization: `Bearer ${uma.accessToken}` } });
    expect(malformed.statusCode).toBe(404);
    // Starting a job for another customer's id is refused.
    const foreign = await app.inject({ method: 'POST', url: `${API_VERSION_PATH}/customers/${await customerIdOf('uma@demo.test')}/identity-verification`, payload: { kind: 'video' }, headers: { authorization: `Bearer ${rita.accessToken}` } });
    expect(foreign.statusCode).toBe(403);
  });

  it('refusals change nothing: not an administrator (13), bad fields (VF), reject without a reason (VF), unknown job (TA1)', async () => {
    await unchanged(async () => {
      expectCode(await callMethod(app, 'adminIdentityJobDecide', { workflowRunId: video.workflowRunId, decision: 'approve' }, { token: uma.accessToken }), '13');
      expectCode(await callMethod(app, 'adminReviewQueue', {}, { token: rita.accessToken }), '13');
      const bad = await callMethod(app, 'adminIdentityJobDecide', { workflowRunId: 'nope', decision: 'maybe', reason: 'x'.repeat(501) }, { token: admin.accessToken });
      expectCode(bad, 'VF');
      expect((bad.body.validationErrors as { param: string }[]).map((e) => e.param).sort()).toEqual(['decision', 'reason', 'workflowRunId']);
      const noReason = await callMethod(app, 'adminIdentityJobDecide', { workflowRunId: video.workflowRunId, decision: 'reject', reason: '  ' }, { token: admin.accessToken });
      expectCode(noReason, 'VF');
      expect(noReason.body.validationErrors).toEqual([{ param: 'reason', description: 'is required', code: 'required', params: {} }]);
      const unknown = await callMethod(app, 'adminIdentityJobDecide', { workflowRunId: '00000000-0000-4000-8000-000000000000', decision: 'approve' }, { token: admin.accessToken });
      expectCode(unknown, 'TA1');
      expect(unknown.body.validationErrors).toEqual([{ param: 'workflowRunId', description: 'is not a job', code: 'notJob', params: {} }]);
    });
  });

  it('rejected with a reason: the page, identityGet and userStatusGet follow; it leaves the queue; audited', async () => {
    const res = await callMethod(app, 'adminIdentityJobDecide', { workflowRunId: video.workflowRunId, decision: 'reject', reason: 'The face was not visible' }, { token: admin.accessToken });
    expectCode(res, '00');
    expect(res.body).toMatchObject({ job: { workflowRunId: video.workflowRunId, kind: 'video', status: 'rejected', rejectReason: 'The face was not visible' }, customerVerified: false });
    expect(await videoStatus(uma.accessToken)).toEqual({ userStatus: 'rejected', identityGet: { status: 'rejected', jobId: video.workflowRunId, rejectReason: 'The face was not visible' } });
    const page = await app.inject({ method: 'GET', url: `${API_VERSION_PATH}/video-identity-job/${video.workflowRunId}`, headers: { authorization: `Bearer ${uma.accessToken}` } });
    expect(page.json()).toMatchObject({ status: 'rejected', rejectReason: 'The face was not visible' });
    expect((page.json() as { decided: string | null }).decided).not.toBeNull();
    expect((await queue()).identityJobs.map((j) => j.workflowRunId)).not.toContain(video.workflowRunId);
    const [audit] = await t.db.select().from(auditLog).where(eq(auditLog.method, 'adminIdentityJobDecide')).orderBy(desc(auditLog.id)).limit(1);
    expect(audit!.details).toEqual({ workflowRunId: video.workflowRunId, customerId: await customerIdOf('uma@demo.test'), kind: 'video', decision: 'reject', reason: 'The face was not visible', customerVerified: false });
    const [admins] = await t.db.select({ id: users.id }).from(users).where(eq(users.email, 'admin@demo.test'));
    expect(audit!.userId).toBe(admins!.id);
    const [row] = await t.db.select().from(identityJobs).where(eq(identityJobs.workflowRunId, video.workflowRunId));
    expect(row).toMatchObject({ status: 'rejected', decidedByUserId: admins!.id });
  });

  it('a decided job cannot be decided again (TA1), and nothing changes', async () => {
    await unchanged(async () => {
      const again = await callMethod(app, 'adminIdentityJobDecide', { workflowRunId: video.workflowRunId, decision: 'approve' }, { token: admin.accessToken });
      expectCode(again, 'TA1');
      expect(again.body.validationErrors).toEqual([{ param: 'workflowRunId', description: 'is rejected already', code: 'jobDecided', params: { status: 'rejected' } }]);
    });
  });

  it('a new video job is pending again; approved, the rejection is no longer an action', async () => {
    const second = await startJob(uma.accessToken, 'video');
    expect((await videoStatus(uma.accessToken)).userStatus).toBe('pending');
    const res = await callMethod(app, 'adminIdentityJobDecide', { workflowRunId: second.workflowRunId, decision: 'approve', reason: '' }, { token: admin.accessToken });
    expectCode(res, '00');
    expect(res.body).toMatchObject({ job: { status: 'approved', rejectReason: null } });
    expect(await videoStatus(uma.accessToken)).toEqual({ userStatus: 'approved', identityGet: { status: 'approved', jobId: second.workflowRunId, rejectReason: null } });
  });
});

describe('identity-verification jobs', () => {
  it('a job is listed with the documents and approved; its token page shows the decision', async () => {
    const job = await startJob(boris.accessToken, 'identity');
    expect((await queue()).identityJobs.map((j) => [j.workflowRunId, j.kind])).toContainEqual([job.workflowRunId, 'identity']);
    const res = await callMethod(app, 'adminIdentityJobDecide', { workflowRunId: job.workflowRunId, decision: 'approve' }, { token: admin.accessToken });
    expectCode(res, '00');
    const page = await app.inject({ method: 'GET', url: `${API_VERSION_PATH}/identity-verification/${job.workflowRunId}/${job.token}` });
    expect(page.json()).toMatchObject({ kind: 'identity', status: 'approved', rejectReason: null });
  });

  it('a job whose link expired, or of an external provider, is not the administrator to decide (TA1); nothing changes', async () => {
    const expired = await startJob(rita.accessToken, 'identity');
    await t.db.update(identityJobs).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(identityJobs.workflowRunId, expired.workflowRunId));
    expect((await queue()).identityJobs.map((j) => j.workflowRunId)).not.toContain(expired.workflowRunId);
    // A video job whose link lapsed reads none, like its page says expired.
    const lapsedVideo = await startJob(rita.accessToken, 'video');
    await t.db.update(identityJobs).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(identityJobs.workflowRunId, lapsedVideo.workflowRunId));
    expect(await videoStatus(rita.accessToken)).toEqual({ userStatus: 'none', identityGet: { status: 'none', jobId: lapsedVideo.workflowRunId, rejectReason: null } });
    const external = await startJob(rita.accessToken, 'video');
    await t.db.update(identityJobs).set({ provider: 'jmo' }).where(eq(identityJobs.workflowRunId, external.workflowRunId));
    expect((await queue()).identityJobs.map((j) => j.workflowRunId)).not.toContain(external.workflowRunId);
    await unchanged(async () => {
      const late = await callMethod(app, 'adminIdentityJobDecide', { workflowRunId: expired.workflowRunId, decision: 'approve' }, { token: admin.accessToken });
      expectCode(late, 'TA1');
      expect(late.body.validationErrors).toEqual([{ param: 'workflowRunId', description: 'has expired: the customer starts a new one', code: 'jobExpired', params: {} }]);
      const theirs = await callMethod(app, 'adminIdentityJobDecide', { workflowRunId: external.workflowRunId, decision: 'reject', reason: 'no' }, { token: admin.accessToken });
      expectCode(theirs, 'TA1');
      expect(theirs.body.validationErrors).toEqual([{ param: 'workflowRunId', description: 'is decided by its provider (jmo)', code: 'jobByProvider', params: { provider: 'jmo' } }]);
    });
    const page = await app.inject({ method: 'GET', url: `${API_VERSION_PATH}/identity-verification/${expired.workflowRunId}/${expired.token}` });
    expect(page.json()).toMatchObject({ status: 'expired' });
  });

  it("the job page's token and the start answer's token never reach the log or the audit", async () => {
    const job = await startJob(boris.accessToken, 'identity');
    const page = await app.inject({ method: 'GET', url: `${API_VERSION_PATH}/identity-verification/${job.workflowRunId}/${job.token}` });
    expect(page.statusCode).toBe(200);
    // Requests are logged (the video page's URL is there), so the check below can fail.
    expect(logLines.join('')).toContain('/video-identity-job/');
    expect(logLines.join('')).not.toContain(job.token);
    const audits = await t.db.select().from(auditLog).where(eq(auditLog.method, 'identityVerificationStart'));
    expect(audits.length).toBeGreaterThan(0);
    expect(JSON.stringify(audits.map((a) => a.details))).not.toContain(job.token);
  });
});
