/**
 * The mail and SMS outbox over a real SMTP conversation: a minimal SMTP server (node:net, no TLS)
 * in this file receives what the worker's nodemailer transport sends. Deliveries are `outbox.mail`
 * jobs: most tests run them from a small in-memory queue on the test's clock (so a retry comes due
 * when the clock moves), the rest on the real job queue (pg-boss): a rolled-back mail leaves no
 * job, two instances deliver each row once, a stopping worker finishes its send. Runs on PGlite
 * and, when DATABASE_URL is set, on PostgreSQL (where the two-worker tests use two connection
 * pools, as two server processes would).
 */
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, testDriver, type TestApp } from './harness.ts';
import { outbox } from '../../server/modules/platform/platform.tables.ts';
import { enqueueMail, enqueueSms, OutboxInputError, setMailJobSender } from '../../server/adapters/outbox.ts';
import {
  createMailDelivery,
  createSmtpTransport,
  MAIL_QUEUE,
  MAIL_QUEUES,
  smtpSettingsFromEnv,
  startMailOutbox,
  type MailDeliveryOptions,
  type MailOutcome,
  type OutboxLogger,
  type SmtpTransport,
} from '../../server/adapters/mail-sender.ts';
import { startJobQueue, type JobQueue } from '../../server/db/job-queue.ts';
import type { Db } from '../../server/db/types.ts';

// ---------------------------------------------------------------------------------------------
// A minimal SMTP server

interface ReceivedMail {
  from: string;
  to: string[];
  /** the message as transmitted (headers, blank line, body), dot-unstuffed */
  data: string;
  subject: string;
  body: string;
}

interface TestSmtpServer {
  port: number;
  received: ReceivedMail[];
  /** DATA commands seen (accepted or not) */
  dataCommands: number;
  /** a reply line instead of 250 to RCPT TO, e.g. '550 5.1.1 no such user' */
  rcptReply: string | null;
  /** a reply line instead of 250 after the message data, e.g. '451 4.3.0 try again later' */
  dataReply: string | null;
  /** waits this long before answering the end of the message data */
  dataDelayMs: number;
  close(): Promise<void>;
}

async function startSmtpServer(): Promise<TestSmtpServer> {
  const sockets = new Set<Socket>();
  const state: TestSmtpServer = {
    port: 0,
    received: [],
    dataCommands: 0,
    rcptReply: null,
    dataReply: null,
    dataDelayMs: 0,
    close: async () => {},
  };
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    socket.setEncoding('utf8');
    let buffer = '';
    let inData = false;
    let busy = false;
    let from = '';
    let to: string[] = [];
    const reply = (line: string) => {
      if (!socket.destroyed) socket.write(`${line}\r\n`);
    };

    const endOfData = async (raw: string) => {
      busy = true;
      const data = raw.replace(/^\.\./gm, '.');
      if (state.dataDelayMs > 0) await new Promise((r) => setTimeout(r, state.dataDelayMs));
      if (state.dataReply) {
        reply(state.dataReply);
      } else {
        const split = data.indexOf('\r\n\r\n');
        const headers = data.slice(0, split);
        const subject = /^Subject: (.*)$/im.exec(headers)?.[1] ?? '';
        state.received.push({ from, to, data, subject, body: data.slice(split + 4) });
        reply('250 2.0.0 OK queued');
      }
      from = '';
      to = [];
      busy = false;
      process();
    };

    const process = () => {
      while (!busy) {
        if (inData) {
          const end = buffer.indexOf('\r\n.\r\n');
          if (end < 0) return;
          const raw = buffer.slice(0, end);
          buffer = buffer.slice(end + 5);
          inData = false;
          void endOfData(raw);
          return;
        }
        const eol = buffer.indexOf('\r\n');
        if (eol < 0) return;
        const line = buffer.slice(0, eol);
        buffer = buffer.slice(eol + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO' || verb === 'HELO') reply('250 test-smtp');
        else if (verb === 'MAIL') {
          from = /<(.*)>/.exec(line)?.[1] ?? '';
          reply('250 2.1.0 OK');
        } else if (verb === 'RCPT') {
          if (state.rcptReply) reply(state.rcptReply);
          else {
            to.push(/<(.*)>/.exec(line)?.[1] ?? '');
            reply('250 2.1.5 OK');
          }
        } else if (verb === 'DATA') {
          state.dataCommands++;
          inData = true;
          reply('354 End data with <CR><LF>.<CR><LF>');
        } else if (verb === 'RSET' || verb === 'NOOP') reply('250 OK');
        else if (verb === 'QUIT') {
          reply('221 Bye');
          socket.end();
          return;
        } else reply('502 5.5.2 Command not recognised');
      }
    };

    socket.on('data', (chunk: string) => {
      buffer += chunk;
      process();
    });
    reply('220 test-smtp ESMTP ready');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.port = (server.address() as AddressInfo).port;
  state.close = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    });
  return state;
}

// ---------------------------------------------------------------------------------------------

interface LogLine {
  level: 'info' | 'warn' | 'error';
  obj: Record<string, unknown>;
  msg: string;
}

function captureLogger(lines: LogLine[]): OutboxLogger {
  return {
    info: (obj, msg) => lines.push({ level: 'info', obj, msg }),
    warn: (obj, msg) => lines.push({ level: 'warn', obj, msg }),
    error: (obj, msg) => lines.push({ level: 'error', obj, msg }),
  };
}

const FROM = 'Test Bank <no-reply@bank.test>';

let testApp: TestApp;
let db: Db;
let smtp: TestSmtpServer;
let transport: SmtpTransport;
let logs: LogLine[];

function smtpTransport(port = smtp.port): SmtpTransport {
  return createSmtpTransport({ host: '127.0.0.1', port, secure: false, from: FROM }, { ignoreTLS: true });
}

interface BatchResult {
  claimed: number;
  sent: number;
  /** failed attempts that will be tried again */
  retrying: number;
  /** rows marked failed (attempts exhausted, rejected for good, or a last attempt that never came back) */
  failed: number;
}

function tally(outcomes: MailOutcome[]): BatchResult {
  const n = (...kinds: MailOutcome[]) => outcomes.filter((o) => kinds.includes(o)).length;
  return { claimed: n('sent', 'retrying', 'failed'), sent: n('sent'), retrying: n('retrying'), failed: n('failed', 'gaveUp') };
}

/** The job queue in memory, on the test's clock: a job comes due when the clock reaches it. */
const memoryQueue = {
  clock: () => Date.now(),
  jobs: [] as { outboxId: number; dueAt: number }[],
  async send(name: string, data: object, options: { afterMs?: number } = {}) {
    if (name !== MAIL_QUEUE) throw new Error(`unexpected job ${name}`);
    this.jobs.push({ outboxId: (data as { outboxId: number }).outboxId, dueAt: this.clock() + (options.afterMs ?? 0) });
  },
};

/** A mail worker on the in-memory queue: runOnce runs the jobs due on its clock. */
function worker(overrides: Partial<MailDeliveryOptions> = {}) {
  const delivery = createMailDelivery({ db, transport, logger: captureLogger(logs), queue: memoryQueue, maxAttempts: 3, ...overrides });
  if (overrides.now) memoryQueue.clock = overrides.now;
  return {
    async runOnce(): Promise<BatchResult> {
      const at = memoryQueue.clock();
      const due = memoryQueue.jobs.filter((j) => j.dueAt <= at);
      memoryQueue.jobs = memoryQueue.jobs.filter((j) => j.dueAt > at);
      const outcomes: MailOutcome[] = [];
      for (const job of due) outcomes.push(await delivery.deliver(job.outboxId));
      return tally(outcomes);
    },
  };
}

/** The real job queue on a test app's database (pg-boss). */
function realQueue(on: TestApp = testApp): Promise<JobQueue> {
  return startJobQueue(on.database.open, MAIL_QUEUES, (err) => logs.push({ level: 'error', obj: { error: String(err) }, msg: 'job failed' }));
}

/** enqueueMail sends its jobs to this queue. */
function sendMailJobsTo(queue: JobQueue) {
  setMailJobSender((tx, outboxId) => queue.send(MAIL_QUEUE, { outboxId }, { tx }));
}

/** Runs the due mail jobs of a real queue with a delivery of its own; the tally. */
async function runDue(queue: JobQueue, overrides: Partial<MailDeliveryOptions> = {}, limit = 100): Promise<BatchResult> {
  const delivery = createMailDelivery({ db, transport, logger: captureLogger(logs), queue, maxAttempts: 3, ...overrides });
  const outcomes: MailOutcome[] = [];
  await queue.runDue<{ outboxId: number }>(MAIL_QUEUE, async (job) => void outcomes.push(await delivery.deliver(job.data.outboxId)), limit);
  return tally(outcomes);
}

async function rows() {
  return db.select().from(outbox).orderBy(outbox.id);
}

async function rowById(id: number) {
  const [row] = await db.select().from(outbox).where(eq(outbox.id, id));
  if (!row) throw new Error(`no outbox row ${id}`);
  return row;
}

async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 10));
  }
}

beforeAll(async () => {
  testApp = await createTestApp();
  db = testApp.db;
  smtp = await startSmtpServer();
  transport = smtpTransport();
});

afterAll(async () => {
  setMailJobSender(null);
  transport?.close();
  await smtp?.close();
  await testApp?.close();
});

beforeEach(async () => {
  await db.delete(outbox);
  // enqueueMail sends each mail's job to the in-memory queue unless a test says otherwise
  memoryQueue.clock = () => Date.now();
  memoryQueue.jobs = [];
  setMailJobSender((_tx, outboxId) => memoryQueue.send(MAIL_QUEUE, { outboxId }));
  smtp.received.length = 0;
  smtp.dataCommands = 0;
  smtp.rcptReply = null;
  smtp.dataReply = null;
  smtp.dataDelayMs = 0;
  logs = [];
});

describe(`outbox (${testDriver})`, () => {
  it('delivers a queued mail once over SMTP and marks it sent', async () => {
    const id = await db.transaction((tx) =>
      enqueueMail(tx, { to: 'anna@demo.test', subject: 'Your sign-in code', text: 'Your code is 482913.\nIt expires in 5 minutes.' }),
    );
    const before = await rowById(id);
    expect(before).toMatchObject({ channel: 'mail', status: 'queued', attempts: 0, sentAt: null, lastError: null });

    const w = worker();
    expect(await w.runOnce()).toMatchObject({ claimed: 1, sent: 1, retrying: 0, failed: 0 });
    expect(smtp.received).toHaveLength(1);
    const mail = smtp.received[0]!;
    expect(mail.to).toEqual(['anna@demo.test']);
    expect(mail.from).toBe('no-reply@bank.test');
    expect(mail.subject).toBe('Your sign-in code');
    expect(mail.data).toMatch(/^From: Test Bank <no-reply@bank\.test>$/m);
    expect(mail.data).toMatch(/^To: anna@demo\.test$/m);
    expect(mail.data).toMatch(/^Auto-Submitted: auto-generated$/m);
    expect(mail.body).toContain('Your code is 482913.');

    const after = await rowById(id);
    expect(after).toMatchObject({ status: 'sent', attempts: 1, lastError: null });
    expect(after.sentAt).toBeInstanceOf(Date);

    // Nothing is left to send: a second round claims nothing and the server hears nothing more.
    expect(await w.runOnce()).toMatchObject({ claimed: 0, sent: 0 });
    expect(smtp.received).toHaveLength(1);

    // The log names the row, never the code, the body or the recipient.
    expect(logs.some((l) => l.obj.outboxId === id && l.obj.status === 'sent' && l.obj.channel === 'mail')).toBe(true);
    const logged = JSON.stringify(logs);
    expect(logged).not.toContain('482913');
    expect(logged).not.toContain('anna@demo.test');
  });

  it('a rolled-back transaction leaves no row and sends nothing', async () => {
    const queue = await realQueue();
    try {
      sendMailJobsTo(queue);
      await expect(
        db.transaction(async (tx) => {
          await enqueueMail(tx, { to: 'boris@demo.test', subject: 'Welcome', text: 'Hello' });
          await enqueueSms(tx, { to: '+37060000000', text: 'Code 111222' });
          throw new Error('the change failed after queueing its messages');
        }),
      ).rejects.toThrow('the change failed');
      expect(await rows()).toEqual([]);
      // no job either: the job was sent in the transaction that rolled back
      expect(await runDue(queue)).toMatchObject({ claimed: 0 });
      expect(smtp.received).toEqual([]);
      // a committed one has its job
      await db.transaction((tx) => enqueueMail(tx, { to: 'boris@demo.test', subject: 'Welcome', text: 'Hello' }));
      expect(await runDue(queue)).toMatchObject({ claimed: 1, sent: 1 });
    } finally {
      await queue.stop();
    }
  });

  it('retries a temporary SMTP failure (451) with backoff, then marks it failed with lastError', async () => {
    smtp.dataReply = '451 4.3.0 Mailbox temporarily unavailable';
    let clock = Date.parse('2030-01-01T00:00:00Z');
    const w = worker({ now: () => clock, maxAttempts: 3, retryDelayMs: (n) => n * 60_000 });
    const id = await enqueueMail(db, { to: 'anna@demo.test', subject: 'Statement', text: 'Your statement is ready.' });

    expect(await w.runOnce()).toMatchObject({ claimed: 1, retrying: 1, failed: 0 });
    let row = await rowById(id);
    expect(row).toMatchObject({ status: 'queued', attempts: 1 });
    expect(row.lastError).toContain('451');
    expect(row.sentAt?.getTime()).toBe(clock + 60_000);

    // Not due yet: the backoff holds it back.
    clock += 59_000;
    expect(await w.runOnce()).toMatchObject({ claimed: 0 });
    expect(smtp.dataCommands).toBe(1);

    clock += 1_000;
    expect(await w.runOnce()).toMatchObject({ claimed: 1, retrying: 1 });
    row = await rowById(id);
    expect(row).toMatchObject({ status: 'queued', attempts: 2 });
    expect(row.sentAt?.getTime()).toBe(clock + 120_000);

    clock += 120_000;
    expect(await w.runOnce()).toMatchObject({ claimed: 1, retrying: 0, failed: 1 });
    row = await rowById(id);
    expect(row).toMatchObject({ status: 'failed', attempts: 3, sentAt: null });
    expect(row.lastError).toContain('451 4.3.0');

    clock += 3_600_000;
    expect(await w.runOnce()).toMatchObject({ claimed: 0 });
    expect(smtp.dataCommands).toBe(3);
    expect(smtp.received).toEqual([]);
    expect(logs.filter((l) => l.obj.outboxId === id).map((l) => [l.obj.status, l.obj.smtpCode])).toEqual([
      ['queued', 451],
      ['queued', 451],
      ['failed', 451],
    ]);
  });

  it('fails at once when the server rejects the recipient for good (550)', async () => {
    smtp.rcptReply = '550 5.1.1 No such user here';
    const id = await enqueueMail(db, { to: 'nobody@demo.test', subject: 'Hello', text: 'Hello' });
    expect(await worker({ maxAttempts: 5 }).runOnce()).toMatchObject({ claimed: 1, failed: 1, retrying: 0 });
    const row = await rowById(id);
    expect(row).toMatchObject({ status: 'failed', attempts: 1, sentAt: null });
    expect(row.lastError).toContain('550 5.1.1');
    expect(smtp.dataCommands).toBe(0);
  });

  it('retries when the SMTP server cannot be reached', async () => {
    const closed = await startSmtpServer();
    const deadPort = closed.port;
    await closed.close();
    const deadTransport = smtpTransport(deadPort);
    let clock = Date.now();
    const w = worker({ transport: deadTransport, maxAttempts: 2, now: () => clock, retryDelayMs: () => 1_000 });
    const id = await enqueueMail(db, { to: 'anna@demo.test', subject: 'Hi', text: 'Hi' });
    expect(await w.runOnce()).toMatchObject({ retrying: 1 });
    expect((await rowById(id)).lastError).toMatch(/ECONNREFUSED|connect/i);
    clock += 1_000;
    expect(await w.runOnce()).toMatchObject({ failed: 1 });
    expect(await rowById(id)).toMatchObject({ status: 'failed', attempts: 2 });
    deadTransport.close();
  });

  it('leaves SMS rows queued (they wait for the SMS provider adapter)', async () => {
    const smsId = await enqueueSms(db, { to: '+44 7700 900123', text: 'Your code is 123456' });
    const mailId = await enqueueMail(db, { to: 'anna@demo.test', subject: 'Code', text: 'Your code is 654321' });
    expect(await worker().runOnce()).toMatchObject({ claimed: 1, sent: 1 });
    expect(smtp.received.map((m) => m.to)).toEqual([['anna@demo.test']]);
    expect(await rowById(smsId)).toMatchObject({
      channel: 'sms',
      recipient: '+447700900123',
      subject: null,
      status: 'queued',
      attempts: 0,
      sentAt: null,
    });
    expect(await rowById(mailId)).toMatchObject({ status: 'sent' });
  });

  it('two workers on one database never deliver a row twice', async () => {
    // On PostgreSQL the second worker has its own pool and queue, as a second server process would.
    const second = testApp.database.url ? await createTestApp({ shareDatabaseOf: testApp }) : null;
    const secondTransport = smtpTransport();
    const qa = await realQueue();
    const qb = await realQueue(second ?? testApp);
    try {
      sendMailJobsTo(qa);
      const total = 40;
      await db.transaction(async (tx) => {
        for (let i = 0; i < total; i++) await enqueueMail(tx, { to: `user${i}@demo.test`, subject: `mail ${i}`, text: `body ${i}` });
      });
      smtp.dataDelayMs = 5;
      let sentByA = 0;
      let sentByB = 0;
      for (;;) {
        const [ra, rb] = await Promise.all([runDue(qa, {}, 4), runDue(qb, { db: second?.db ?? db, transport: secondTransport }, 4)]);
        sentByA += ra.sent;
        sentByB += rb.sent;
        if (ra.claimed === 0 && rb.claimed === 0) break;
      }
      const subjects = smtp.received.map((m) => m.subject).sort();
      expect(subjects).toHaveLength(total);
      expect(new Set(subjects).size).toBe(total);
      expect(sentByA + sentByB).toBe(total);
      expect(sentByA).toBeGreaterThan(0);
      expect(sentByB).toBeGreaterThan(0);
      const all = await rows();
      expect(all.every((r) => r.status === 'sent' && r.attempts === 1)).toBe(true);
    } finally {
      await Promise.all([qa.stop(), qb.stop()]);
      secondTransport.close();
      await second?.close();
    }
  });

  it('two workers on the job queue drain the outbox together, each row once', async () => {
    const second = testApp.database.url ? await createTestApp({ shareDatabaseOf: testApp }) : null;
    const secondTransport = smtpTransport();
    const qa = await realQueue();
    const qb = await realQueue(second ?? testApp);
    try {
      sendMailJobsTo(qa);
      const a = createMailDelivery({ db, transport, logger: captureLogger(logs), queue: qa });
      const b = createMailDelivery({ db: second?.db ?? db, transport: secondTransport, logger: captureLogger(logs), queue: qb });
      await qa.work(MAIL_QUEUE, a.handler, { batchSize: 3, pollingIntervalMs: 500 });
      await qb.work(MAIL_QUEUE, b.handler, { batchSize: 3, pollingIntervalMs: 500 });
      smtp.dataDelayMs = 2;
      const total = 30;
      // queued while both work, in small committed transactions
      for (let i = 0; i < total; i++) await enqueueMail(db, { to: `poll${i}@demo.test`, subject: `poll ${i}`, text: `body ${i}` });
      await waitFor(async () => (await rows()).every((r) => r.status === 'sent'), 30_000);
      const subjects = smtp.received.map((m) => m.subject);
      expect(subjects).toHaveLength(total);
      expect(new Set(subjects).size).toBe(total);
    } finally {
      await Promise.all([qa.stop(), qb.stop()]);
      secondTransport.close();
      await second?.close();
    }
  });

  it('a stopping worker finishes the send in flight and leaves the other mail to the next', async () => {
    smtp.dataDelayMs = 300;
    const qa = await realQueue();
    let qb: JobQueue | null = null;
    try {
      sendMailJobsTo(qa);
      const ids: number[] = [];
      for (let i = 0; i < 3; i++) ids.push(await enqueueMail(db, { to: `stop${i}@demo.test`, subject: `stop ${i}`, text: 'x' }));
      const a = createMailDelivery({ db, transport, logger: captureLogger(logs), queue: qa });
      await qa.work(MAIL_QUEUE, a.handler, { batchSize: 1 });
      await waitFor(() => smtp.dataCommands >= 1);
      await qa.stop();
      // The mail in flight was completed, not abandoned; the other two are still queued, untried.
      expect(smtp.received.map((m) => m.subject)).toEqual(['stop 0']);
      expect(await rowById(ids[0]!)).toMatchObject({ status: 'sent', attempts: 1 });
      for (const id of ids.slice(1)) expect(await rowById(id)).toMatchObject({ status: 'queued', attempts: 0, sentAt: null });
      // A later worker sends them.
      smtp.dataDelayMs = 0;
      qb = await realQueue();
      expect(await runDue(qb)).toMatchObject({ claimed: 2, sent: 2 });
    } finally {
      await qa.stop();
      await qb?.stop();
    }
  });

  it('fails a row whose last allowed attempt never finished (a worker died mid-send)', async () => {
    let clock = Date.now();
    const id = await enqueueMail(db, { to: 'anna@demo.test', subject: 'Lost', text: 'x' });
    // the state a worker leaves when it dies after claiming the last attempt
    await db.update(outbox).set({ attempts: 3, sentAt: new Date(clock + 60_000) }).where(eq(outbox.id, id));
    const w = worker({ maxAttempts: 3, now: () => clock });
    expect(await w.runOnce()).toMatchObject({ claimed: 0 });
    expect(await rowById(id)).toMatchObject({ status: 'queued' });
    clock += 60_000;
    expect(await w.runOnce()).toMatchObject({ claimed: 0 });
    const row = await rowById(id);
    expect(row).toMatchObject({ status: 'failed', sentAt: null });
    expect(row.lastError).toBe('the last attempt did not finish');
    expect(smtp.dataCommands).toBe(0);
  });
});

describe('outbox input checks', () => {
  it('accepts good addresses and numbers and normalises phone numbers', async () => {
    const id = await enqueueSms(db, { to: '+1 (415) 555-0100', text: 'Hi' });
    expect((await rowById(id)).recipient).toBe('+14155550100');
    const mailId = await enqueueMail(db, { to: '  first.last+tag@mail.example.co.uk ', subject: ' Hi ', text: 'Line 1\r\nLine 2\tend' });
    expect(await rowById(mailId)).toMatchObject({ recipient: 'first.last+tag@mail.example.co.uk', subject: 'Hi' });
  });

  it.each([
    ['no at sign', { to: 'anna.demo.test', subject: 's', text: 't' }, 'to'],
    ['no domain dot', { to: 'anna@localhost', subject: 's', text: 't' }, 'to'],
    ['two at signs', { to: 'a@b@demo.test', subject: 's', text: 't' }, 'to'],
    ['a display name', { to: 'Anna <anna@demo.test>', subject: 's', text: 't' }, 'to'],
    ['a header injection', { to: 'anna@demo.test\r\nBcc: x@evil.test', subject: 's', text: 't' }, 'to'],
    ['a long address', { to: `${'a'.repeat(60)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}.test`, subject: 's', text: 't' }, 'to'],
    ['a long local part', { to: `${'a'.repeat(65)}@demo.test`, subject: 's', text: 't' }, 'to'],
    ['an empty subject', { to: 'anna@demo.test', subject: '  ', text: 't' }, 'subject'],
    ['a subject with a line break', { to: 'anna@demo.test', subject: 'Hi\r\nBcc: x@evil.test', text: 't' }, 'subject'],
    ['a long subject', { to: 'anna@demo.test', subject: 's'.repeat(201), text: 't' }, 'subject'],
    ['an empty text', { to: 'anna@demo.test', subject: 's', text: '' }, 'text'],
    ['a huge text', { to: 'anna@demo.test', subject: 's', text: 'x'.repeat(100_001) }, 'text'],
    ['a NUL in the text', { to: 'anna@demo.test', subject: 's', text: 'a\u0000b' }, 'text'],
  ])('refuses mail with %s', async (_name, input, field) => {
    const error = await enqueueMail(db, input).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(OutboxInputError);
    expect((error as OutboxInputError).field).toBe(field);
    // the message names the field, not the value
    expect((error as Error).message).not.toContain(input.to);
  });

  it.each([
    ['letters', { to: '+44 7700 CALLME', text: 't' }, 'to'],
    ['no plus', { to: '447700900123', text: 't' }, 'to'],
    ['too few digits', { to: '+4477009', text: 't' }, 'to'],
    ['too many digits', { to: '+4477009001234567', text: 't' }, 'to'],
    ['a leading zero country code', { to: '+0447700900123', text: 't' }, 'to'],
    ['an empty text', { to: '+447700900123', text: ' ' }, 'text'],
    ['a long text', { to: '+447700900123', text: 'x'.repeat(460) }, 'text'],
  ])('refuses SMS with %s', async (_name, input, field) => {
    const error = await enqueueSms(db, input).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(OutboxInputError);
    expect((error as OutboxInputError).field).toBe(field);
  });

  it('a refused input fails the whole transaction', async () => {
    await db.delete(outbox);
    await expect(
      db.transaction(async (tx) => {
        await enqueueMail(tx, { to: 'anna@demo.test', subject: 'ok', text: 'ok' });
        await enqueueMail(tx, { to: 'not an address', subject: 'bad', text: 'bad' });
      }),
    ).rejects.toBeInstanceOf(OutboxInputError);
    expect(await rows()).toEqual([]);
  });
});

describe('SMTP settings from the environment', () => {
  // the settings alone: a queue that takes nothing
  const idleQueue = { send: async () => {}, work: async () => {}, offWork: async () => {} };

  it('is off without SMTP_HOST and says so once in the log', async () => {
    expect(smtpSettingsFromEnv({}, 'Wallet')).toBeNull();
    const lines: LogLine[] = [];
    const outboxRunner = await startMailOutbox({ db, queue: idleQueue, logger: captureLogger(lines), env: {}, projectName: 'Wallet' });
    await outboxRunner.stop();
    expect(lines).toHaveLength(1);
    expect(lines[0]!.msg).toContain('SMTP_HOST is not set');
  });

  it('defaults to port 587, no implicit TLS and the project name as sender', () => {
    expect(smtpSettingsFromEnv({ SMTP_HOST: 'smtp.example.com' }, 'Amber Bank')).toEqual({
      host: 'smtp.example.com',
      port: 587,
      secure: false,
      from: 'Amber Bank <no-reply@localhost>',
    });
    expect(
      smtpSettingsFromEnv(
        { SMTP_HOST: 'smtp.example.com', SMTP_PORT: '465', SMTP_SECURE: 'true', SMTP_USER: 'u', SMTP_PASSWORD: 'p', MAIL_FROM: 'Bank <mail@bank.example>' },
        'Amber Bank',
      ),
    ).toEqual({ host: 'smtp.example.com', port: 465, secure: true, user: 'u', password: 'p', from: 'Bank <mail@bank.example>' });
  });

  it('refuses bad values', () => {
    expect(() => smtpSettingsFromEnv({ SMTP_HOST: 'h', SMTP_PORT: 'smtp' }, 'X')).toThrow(/SMTP_PORT/);
    expect(() => smtpSettingsFromEnv({ SMTP_HOST: 'h', SMTP_PORT: '70000' }, 'X')).toThrow(/SMTP_PORT/);
    expect(() => smtpSettingsFromEnv({ SMTP_HOST: 'h', SMTP_SECURE: 'yes' }, 'X')).toThrow(/SMTP_SECURE/);
    expect(() => smtpSettingsFromEnv({ SMTP_HOST: 'h', SMTP_USER: 'u' }, 'X')).toThrow(/SMTP_PASSWORD/);
  });

  it('logs where it sends, never the password', async () => {
    const lines: LogLine[] = [];
    const env = { SMTP_HOST: '127.0.0.1', SMTP_PORT: String(smtp.port), SMTP_USER: 'mailer', SMTP_PASSWORD: 'hunter2-secret' };
    const runner = await startMailOutbox({ db, queue: idleQueue, logger: captureLogger(lines), env, projectName: 'Wallet' });
    await runner.stop();
    expect(lines.some((l) => l.obj.smtpHost === '127.0.0.1' && l.obj.smtpAuth === true)).toBe(true);
    expect(JSON.stringify(lines)).not.toContain('hunter2-secret');
  });
});
