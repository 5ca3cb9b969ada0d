/**
 * Starts the platform: opens the database (PGlite in ./data, or PostgreSQL when DATABASE_URL is
 * set), applies migrations, seeds reference data (and, in demo mode, the demo users into an empty
 * database), and listens on HOST:PORT. A production start with anything of the demo present is
 * refused (server/modules/platform/demo-mode.ts).
 */
import { resolve } from 'node:path';
import { existsSync } from 'node:fs';
import { buildApp, DEFAULT_DIST_DIR } from './app.ts';
import { connectionErrorFields, openPglite, openPostgres } from './db/open.ts';
import { startJobQueue } from './db/job-queue.ts';
import { safeError } from './modules/platform/log.ts';
import { loadRailAdapters, RailConfigError } from './modules/rails/adapters.ts';
import { createPayoutService, NotYetError } from './modules/rails/payouts.service.ts';
import { RAIL_QUEUES, startRailWorkers } from './modules/rails/workers.ts';
import { EXPORT_QUEUES } from './modules/history/exports.worker.ts';
import { TRANSFER_QUEUES } from './modules/transfers/workers.ts';
import { CARD_QUEUES } from './modules/cards/cards.workers.ts';
import { CONTRACT_QUEUES } from './modules/contracts/contracts.worker.ts';
import { seedDatabase } from './db/seed.ts';
import { createInProcessPublisher, createPgPublisher } from './modules/push/publisher.ts';
import { MAIL_QUEUES, startMailOutbox, type MailOutbox } from './adapters/mail-sender.ts';
import { activeVariant } from '../variants/index.ts';
import { DemoConfigError, demoDataIn, demoProductionProblems, demoProductionRefusal, demoSettings, type DemoSettings } from './modules/platform/demo-mode.ts';
import { parseTrustProxy, type TrustProxy } from './modules/platform/trust-proxy.ts';

const port = Number(process.env.PORT ?? 3000);
const host = process.env.HOST ?? '127.0.0.1';
const databaseUrl = process.env.DATABASE_URL;
const dataDir = resolve(process.env.DATA_DIR ?? 'data');
// The built web app; DIST_DIR lets parallel e2e runs each serve a build of their own.
const distDir = process.env.DIST_DIR ? resolve(process.env.DIST_DIR) : DEFAULT_DIST_DIR;

// TRUST_PROXY=true (believe every X-Forwarded-For hop) is refused here, before anything opens.
let trustProxy: TrustProxy;
try {
  trustProxy = parseTrustProxy(process.env.TRUST_PROXY);
} catch (err) {
  console.error((err as Error).message);
  process.exit(1);
}
function uploadInFlightMb(): number {
  const mb = Number(process.env.UPLOAD_IN_FLIGHT_MAX_MB);
  if (!Number.isInteger(mb) || mb < 10) throw new Error(`UPLOAD_IN_FLIGHT_MAX_MB must be a whole number of MB, at least 10, got ${process.env.UPLOAD_IN_FLIGHT_MAX_MB}`);
  return mb;
}
if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new Error(`PORT must be a port number, got ${process.env.PORT}`);

let demo: DemoSettings;
try {
  demo = demoSettings(process.env);
} catch (err) {
  if (!(err instanceof DemoConfigError)) throw err;
  console.error(err.message);
  process.exit(1);
}

const database = databaseUrl ? await openPostgres(databaseUrl, Number(process.env.DATABASE_POOL_MAX ?? 10)) : await openPglite(dataDir);
if (demo.production) {
  const problems = demoProductionProblems(process.env, demo, await demoDataIn(database.db));
  if (problems.length > 0) {
    console.error(demoProductionRefusal(problems));
    await database.close();
    process.exit(1);
  }
}
const seeded = await seedDatabase(database.db, { demo: demo.demo });
const publisher = databaseUrl ? await createPgPublisher(databaseUrl, (err) => console.error('push: database connection error', connectionErrorFields(err))) : createInProcessPublisher();

// The job queue (pg-boss on this database), once for the process: every background worker runs on
// it (db/job-queue.ts). The rails' workers start here: payouts go to each rail's adapter (the
// network simulator unless RAIL_ADAPTERS names a provider's module; rails/adapters.ts); buildApp
// starts the app's own (history exports, the transfers' periodic work), and the mail outbox after
// listen. JOB_EXPIRE_SECONDS: a dead worker's jobs are taken again after at most this long (each
// queue's own expiry otherwise, 5 minutes by default).
let adapterOf: Awaited<ReturnType<typeof loadRailAdapters>>;
try {
  adapterOf = await loadRailAdapters(process.env);
} catch (err) {
  if (!(err instanceof RailConfigError)) throw err;
  console.error(err.message);
  process.exit(1);
}
// A status event that arrives before its instruction was accepted is retried by design (NotYetError): not worth a log line.
const jobExpireSeconds = process.env.JOB_EXPIRE_SECONDS ? Number(process.env.JOB_EXPIRE_SECONDS) : undefined;
if (jobExpireSeconds !== undefined && !(Number.isInteger(jobExpireSeconds) && jobExpireSeconds >= 1)) {
  console.error(`JOB_EXPIRE_SECONDS must be a whole number of seconds, at least 1, got ${process.env.JOB_EXPIRE_SECONDS}`);
  process.exit(1);
}
const jobQueue = await startJobQueue(
  database,
  [...RAIL_QUEUES, ...MAIL_QUEUES, ...EXPORT_QUEUES, ...TRANSFER_QUEUES, ...CARD_QUEUES, ...CONTRACT_QUEUES],
  (err) => {
    if (!(err instanceof NotYetError)) console.error(JSON.stringify({ level: 50, msg: 'job failed', error: safeError(err) }));
  },
  jobExpireSeconds === undefined ? {} : { expireInSecondsMax: jobExpireSeconds },
);
const payouts = createPayoutService({ queue: jobQueue, adapterOf, now: Date.now });
await startRailWorkers(database.db, jobQueue, payouts, publisher);

const app = await buildApp({
  db: database.db,
  jobQueue,
  payouts,
  publisher,
  logger: { level: process.env.LOG_LEVEL ?? 'info' },
  trustProxy,
  ...(process.env.JWT_SECRET ? { jwtSecret: process.env.JWT_SECRET } : {}),
  ...(process.env.DEVICE_COOKIE_SECRET ? { deviceCookieSecret: process.env.DEVICE_COOKIE_SECRET } : {}),
  // Requests per minute per client address across the whole platform (sign-in has its own,
  // stricter limits in the database). RATE_LIMIT_PER_MINUTE=off disables it (benchmarks only).
  ...(process.env.RATE_LIMIT_PER_MINUTE
    ? { globalRateLimitPerMinute: process.env.RATE_LIMIT_PER_MINUTE === 'off' ? false : Number(process.env.RATE_LIMIT_PER_MINUTE) }
    : {}),
  distDir,
  demo: demo.demo,
  devMailbox: demo.devMailbox,
  // UPLOAD_IN_FLIGHT_MAX_MB: file bytes of every upload under way at once (platform/uploads.ts).
  ...(process.env.UPLOAD_IN_FLIGHT_MAX_MB ? { uploads: { inFlightMaxBytes: uploadInFlightMb() * 1024 * 1024 } } : {}),
  // ALLOW_REGISTRATION=true|false overrides the variant's allowRegistration (document 1 §1).
  ...(process.env.ALLOW_REGISTRATION === 'true' || process.env.ALLOW_REGISTRATION === 'false'
    ? { allowRegistration: process.env.ALLOW_REGISTRATION === 'true' }
    : {}),
  // Links in e-mails point here (not at the request's Host header, which a client can forge).
  publicUrl: process.env.PUBLIC_URL ?? `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}`,
});
if (demo.demo) app.log.warn('Demo mode: demo users with published passwords (README). Set DEMO_DATA=false for real data.');
if (demo.devMailbox) app.log.warn('The development mailbox is on: /dev/mailbox shows every message with its codes. Never in production.');

let closing = false;
// Queued mail goes out through SMTP when SMTP_HOST is set (on the job queue, started after listen).
let mailOutbox: MailOutbox | null = null;
async function shutdown(signal: string): Promise<void> {
  if (closing) return;
  closing = true;
  app.log.info({ signal }, 'shutting down');
  // A hung close must not keep the process alive forever.
  const force = setTimeout(() => process.exit(1), 10_000);
  force.unref();
  try {
    // the queue first: it waits for the jobs under way (a mail being sent among them)
    await jobQueue.stop();
    await mailOutbox?.stop();
    await app.close();
    await publisher.close();
    await database.close();
    process.exit(0);
  } catch (err) {
    console.error('shutdown failed', err);
    process.exit(1);
  }
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));

await app.listen({ port, host });
// Once serving: not the way errors are handled (every pool, client and worker has its own
// handlers, db/open.ts); one reaching here is a bug. It is logged loudly, and the process ends
// as Node would end it.
for (const event of ['uncaughtException', 'unhandledRejection'] as const) {
  process.on(event, (err: unknown) => {
    console.error(`FATAL ${event}: a bug, an error nobody handled; the process ends`, err);
    process.exit(1);
  });
}

mailOutbox = await startMailOutbox({ db: database.db, queue: jobQueue, logger: app.log, projectName: activeVariant.projectName });
const address = app.server.address();
const actualPort = typeof address === 'object' && address ? address.port : port;
const where = databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `PGlite in ${dataDir}`;
console.log(`Platform listening on http://${host}:${actualPort}/ — database: ${where}${seeded ? ' (demo data seeded)' : ''}`);
if (demo.demo) console.log(`Demo mode: sign in as a demo user (README)${demo.devMailbox ? `; mail and SMS at http://${host}:${actualPort}/dev/mailbox` : ''}. DEMO_DATA=false turns it off.`);
if (!existsSync(resolve(distDir, 'index.html'))) console.log('The web app is not built (no dist/): run `npm run build`; the API is up.');
