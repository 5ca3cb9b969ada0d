/**
 * Builds the platform's Fastify app from its plugins, on a database given by the caller (main.ts
 * opens it; tests inject PGlite or PostgreSQL), and its background workers on the job queue the
 * caller started (main.ts, one per process): history export builders and the transfers' periodic
 * work. An app built without a queue runs none of them: tests drive the handlers themselves
 * (runExportJobs, expireDueTransfers, runDueSchedules).
 */
import { resolve as resolvePath } from 'node:path';
import type { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyInstance } from 'fastify';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import type { MethodDef } from '../api/method.ts';
import type { Db } from './db/types.ts';
import type { JobQueue } from './db/job-queue.ts';
import { createRefusalLog, isConnectionError, replyUnavailable } from './db/outage.ts';
import { authRoutes } from './modules/auth/auth.routes.ts';
import { loadDeviceCookieKey, loadSigningKey } from './modules/auth/signing-key.ts';
import { createTokenService, DEFAULT_SIGN_IN_LIMITS, type SignInLimits } from './modules/auth/tokens.service.ts';
import type { MethodHandler } from './modules/method-types.ts';
import { OneLinePerRequest, REDACT_PATHS, safeError } from './modules/platform/log.ts';
import { JSON_BODY_LIMIT_BYTES, MULTIPART_FILE_LIMIT_BYTES, MULTIPART_MAX_FILES, methodEndpoint } from './modules/platform/method-endpoint.ts';
import { methodTable } from './modules/platform/method-table.ts';
import { createRegistrationHandlers, DEFAULT_REGISTRATION_OPTIONS } from './modules/registration/registration.methods.ts';
import { securityHeaders } from './modules/platform/security-headers.ts';
import { fastifyTrustProxy, type TrustProxy } from './modules/platform/trust-proxy.ts';
import { DEFAULT_UPLOAD_LIMITS, type UploadLimits } from './modules/platform/uploads.ts';
import { serveWebApp } from './modules/platform/static.ts';
import { auditPackRoutes } from './modules/platform/audit-pack.ts';
import { createInProcessPublisher, type PushPublisher } from './modules/push/publisher.ts';
import { attachPush } from './modules/push/push.server.ts';
import { mailboxRoutes } from './modules/devtools/mailbox.routes.ts';
import { receivingBank } from './modules/rails/funding.methods.ts';
import type { PayoutService } from './modules/rails/payouts.service.ts';
import { simulatorRoutes } from './modules/rails/simulator.routes.ts';
import { createCardPayments } from './modules/cards/authorizations.service.ts';
import { terminalRoutes } from './modules/cards/terminal.routes.ts';
import { createPayoutHandlers } from './modules/rails/payout.methods.ts';
import { createMassHandlers } from './modules/transfers/mass.methods.ts';
import { createGlobalPayHandlers } from './modules/transfers/global-pay.methods.ts';
import { createGlobalPayService, expireDueGlobalPayments, type GlobalPayService } from './modules/transfers/global-pay.service.ts';
import { deleteExpiredDrafts } from './modules/registration/business-drafts.ts';
import { createApprovalService } from './modules/auth/approvals.service.ts';
import { createDeviceService } from './modules/auth/devices.service.ts';
import { deviceRoutes } from './modules/auth/devices.routes.ts';
import { activeVariant } from '../variants/index.ts';
import { createTwoStepService } from './modules/security/two-step.service.ts';
import { twoStepRoutes } from './modules/security/two-step.routes.ts';
import { createSsoService } from './modules/security/sso.service.ts';
import { ssoRoutes } from './modules/security/sso.routes.ts';
import { createTransferService } from './modules/transfers/transfers.service.ts';
import { createTransferHandlers } from './modules/transfers/transfers.methods.ts';
import { startTransferWorkers } from './modules/transfers/workers.ts';
import { createBusinessApprovalHandlers } from './modules/transfers/business-approvals.methods.ts';
import { createBusinessApprovalService } from './modules/transfers/business-approvals.service.ts';
import { createHistoryHandlers, DEFAULT_HISTORY_OPTIONS } from './modules/history/history.methods.ts';
import { historyRoutes } from './modules/history/history.routes.ts';
import { createDocumentHandlers } from './modules/profile/documents.methods.ts';
import { createRecoveryHandlers, DEFAULT_RECOVERY_OPTIONS } from './modules/recovery/recovery.methods.ts';
import { createRecoveryAdminHandlers } from './modules/recovery/recovery.admin.ts';
import { recoveryRoutes } from './modules/recovery/recovery.routes.ts';
import { createProfileHandlers } from './modules/profile/profile.methods.ts';
import { createBusinessHandlers } from './modules/business/business.methods.ts';
import { createTaxHandlers, defaultTaxHandlerOptions } from './modules/tax/tax.methods.ts';
import { createNotificationHandlers } from './modules/notifications/notifications.methods.ts';
import { profileRoutes } from './modules/profile/profile.routes.ts';
import { esignRoutes } from './modules/esign/esign.routes.ts';
import { contractRoutes } from './modules/contracts/contracts.routes.ts';
import { supportRoutes } from './modules/support/support.routes.ts';
import { createSupportHandlers } from './modules/support/support.methods.ts';
import { deleteStaleUploads } from './modules/support/support.service.ts';
import { createCardHandlers } from './modules/cards/cards.methods.ts';
import { createCardService, type CardService } from './modules/cards/cards.service.ts';
import { startCardWorkers } from './modules/cards/cards.workers.ts';
import { loadCardIssuer } from './modules/cards/issuer-adapters.ts';
import type { CardIssuer } from './modules/cards/issuer.ts';

export const DEFAULT_DIST_DIR = fileURLToPath(new URL('../dist', import.meta.url));

export interface AppOptions {
  db: Db;
  /** push fan-out; in-process when omitted */
  publisher?: PushPublisher;
  /** false for silence, or a level and a stream for the JSON log lines */
  logger?: false | { level?: string; stream?: Writable };
  /** the clock in ms: tests move it to expire codes and tokens */
  now?: () => number;
  signInLimits?: Partial<SignInLimits>;
  /** requests per minute per address over everything; false turns it off */
  globalRateLimitPerMinute?: number | false;
  /** HS256 secret; generated once and stored in the database when omitted */
  jwtSecret?: string;
  /** HMAC secret of the sign-in device cookies; generated once and stored in the database when omitted */
  deviceCookieSecret?: string;
  /** device cookies carry Secure even over http (production behind a TLS proxy without trustProxy) */
  secureCookies?: boolean;
  /** the built web app; null serves none */
  distDir?: string | null;
  /** check every method answer with its response schema (on by default outside production) */
  validateResponses?: boolean;
  /**
   * Behind proxies: which X-Forwarded-For / -Proto / -Host hops to believe (trust-proxy.ts): a hop
   * count or the proxies' addresses and CIDRs; false (the default) believes none. Never `true`:
   * that takes the left-most address, which the client writes.
   */
  trustProxy?: TrustProxy;
  /** caps on multipart file bytes, per call and in flight at once (platform/uploads.ts) */
  uploads?: Partial<UploadLimits>;
  /** where uploads are written while a call runs (tests look into it); a temporary folder when omitted */
  uploadDir?: string;
  /** production mode: HSTS on every answer; NODE_ENV=production when omitted */
  production?: boolean;
  /** serve the development mailbox at /dev/mailbox (message bodies hold codes: demo mode and development only) */
  devMailbox?: boolean;
  /**
   * Demo mode (modules/platform/demo-mode.ts): the demo SSO partner's page, and the web app's pages
   * say so (the Demo bar; static.ts marks the HTML it serves).
   */
  demo?: boolean;
  /** how often an open push socket re-checks its token (expiry, revoked session); see push.server.ts */
  pushRecheckMs?: number;
  /** replaces named-method handlers (tests use it to make a handler fail after writing) */
  handlerOverrides?: Record<string, MethodHandler<MethodDef>>;
  /** registration open (document 1 §1); the variant's allowRegistration when omitted */
  allowRegistration?: boolean;
  /** the web app's public origin, for links in e-mails (activation); http://127.0.0.1:3000 when omitted */
  publicUrl?: string;
  /**
   * The platform's job queue (db/job-queue.ts; main.ts starts it once per process): the app's
   * workers run on it (history exports, the transfer workers) and new export rows send their jobs
   * with it. Without one the app runs no worker (tests drive the handlers themselves).
   */
  jobQueue?: JobQueue;
  /**
   * The transfer workers (expiry sweeper, recurring schedules; transfers/workers.ts) as periodic
   * jobs on `jobQueue`, driven by `now`; false runs none, and none run without a queue (tests call
   * expireDueTransfers / runDueSchedules themselves).
   */
  transferWorkers?: false | { expiryIntervalMs?: number; scheduleIntervalMs?: number };
  /**
   * The rails' payout service (rails/payouts.service.ts, on the job queue main.ts starts); in demo
   * mode it also serves the simulator's incoming payments (rails/simulator.routes.ts).
   */
  payouts?: PayoutService;
  /** the card issuer; loaded from the environment when omitted (cards/issuer-adapters.ts: the simulator unless CARD_ISSUER_ADAPTER) */
  cardIssuer?: CardIssuer;
  /**
   * The queue the cards' production stages go through (card.stage); `jobQueue` when omitted, whose
   * worker the app then starts. Tests give one and drain it themselves (cards.workers.ts drainCardJobs).
   */
  cardQueue?: Pick<JobQueue, 'send'> | null;
}

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { db } = options;
  const now = options.now ?? Date.now;
  const publisher = options.publisher ?? createInProcessPublisher();
  const ownsPublisher = !options.publisher;

  const production = options.production ?? process.env.NODE_ENV === 'production';
  const app = Fastify({
    // One log line per request, not Fastify's two (platform/log.ts OneLinePerRequest).
    logController: new OneLinePerRequest(production),
    logger:
      options.logger === false || options.logger === undefined
        ? false
        : {
            level: options.logger.level ?? 'info',
            ...(options.logger.stream ? { stream: options.logger.stream } : {}),
            redact: { paths: REDACT_PATHS, censor: '[redacted]' },
          },
    bodyLimit: JSON_BODY_LIMIT_BYTES,
    trustProxy: fastifyTrustProxy(options.trustProxy ?? false),
    routerOptions: { ignoreTrailingSlash: true },
    // Request ids let log lines of one request be found together without logging its content.
    requestIdHeader: false,
  });

  securityHeaders(app, { production });

  const refusals = createRefusalLog();
  app.setErrorHandler((err, request, reply) => {
    const statusCode = (err as { statusCode?: number }).statusCode ?? 500;
    const isApi = request.url.startsWith('/api/');
    if (isConnectionError(err)) {
      const refused = refusals();
      if (refused !== null) request.log.warn({ error: safeError(err), refused }, 'database unavailable: requests refused with 503');
      return replyUnavailable(reply, isApi);
    }
    if (statusCode >= 500) request.log.error({ error: safeError(err) }, 'request failed');
    if (statusCode === 429) {
      return reply.code(429).send(isApi ? { responseCode: 'UE', responseDescription: 'Too many requests' } : { message: 'Too many requests' });
    }
    if (statusCode >= 400 && statusCode < 500) {
      const description = statusCode === 413 ? 'The request is too large' : 'The request is malformed';
      return reply.code(statusCode).send(isApi ? { responseCode: 'VF', responseDescription: description } : { message: description });
    }
    return reply.code(500).send(isApi ? { responseCode: 'UE', responseDescription: 'Unknown error' } : { message: 'Server error' });
  });

  if (options.globalRateLimitPerMinute !== false) {
    await app.register(rateLimit, { global: true, max: options.globalRateLimitPerMinute ?? 1200, timeWindow: 60_000 });
  }
  await app.register(multipart, {
    limits: { fileSize: MULTIPART_FILE_LIMIT_BYTES, files: MULTIPART_MAX_FILES, fieldSize: JSON_BODY_LIMIT_BYTES, parts: 50 },
  });

  const signingKey = await loadSigningKey(db, options.jwtSecret);
  // Linked devices and approval requests; the token service's push and direct flows use them.
  const approvals = createApprovalService({
    db,
    publisher,
    now,
    signingKey,
    // A phone approving a two-step mode change confirms it; twoStep is created below and only called later.
    // A phone answering a transfer's request posts or rejects it (transfers is created below too).
    onApproved: {
      twoStepMode: (tx, row) => twoStep.approvedByDevice(tx, row),
      // A key is a transfer's or a company checker's (businessApprovals, created below): each hook ignores the other's.
      transfer: {
        lock: async (tx, row) => {
          await transfers.lockForDevice(tx, row.keyHash);
          await businessApprovals.lockForDevice(tx, row.keyHash);
        },
        answered: async (tx, row, approved) => (await transfers.answeredByDevice(tx, row.keyHash, approved)) ?? (await businessApprovals.answeredByDevice(tx, row.keyHash, approved)),
      },
    },
    log: (err) => app.log.error({ error: safeError(err) }, 'approval delivery failed'),
  });
  // Transfers with this app's clock (expiry), push approvals and publisher (background events);
  // an approved global-pay batch's payments are released by the global-pay service (created below).
  let globalPay: GlobalPayService | null = null;
  // Cards (created below): a card's fee transfer booked or voided moves its card.
  let cardService: CardService | null = null;
  const transfers = createTransferService({
    now,
    approvals,
    publisher,
    payouts: options.payouts ?? null,
    globalPay: { approved: (tx, t) => globalPay!.approved(tx, t) },
    cards: { feePaid: (tx, t) => cardService!.feePaid(tx, t), feeVoided: (tx, t) => cardService!.feeVoided(tx, t) },
    log: (err) => app.log.error({ error: safeError(err) }, 'transfer background work failed'),
  });
  // Maker-checker decisions on the same transfer service, push approvals (a checker's phone) and publisher
  const businessApprovals = createBusinessApprovalService({ now, transfers, approvals, publisher });
  // Global pay with this app's clock, rails and origin (the beneficiary's link).
  globalPay = createGlobalPayService({
    transfers,
    payouts: options.payouts ?? null,
    now,
    publicUrl: (options.publicUrl ?? DEFAULT_RECOVERY_OPTIONS.publicUrl).replace(/\/+$/, ''),
  });
  // The card issuer (the simulator by default) and the card lifecycle; production stages on the job queue.
  const cardIssuer = options.cardIssuer ?? (await loadCardIssuer(db, process.env, now));
  cardService = createCardService({
    issuer: cardIssuer,
    now,
    queue: options.cardQueue === undefined ? (options.jobQueue ?? null) : options.cardQueue,
    transfers: () => transfers,
    publisher,
  });
  const devices = createDeviceService({ db, signingKey, now, publisher, log: (err) => app.log.error({ error: safeError(err) }, 'device push failed') });
  const tokens = createTokenService({
    db,
    signingKey,
    deviceCookieKey: await loadDeviceCookieKey(db, options.deviceCookieSecret),
    now,
    limits: { ...DEFAULT_SIGN_IN_LIMITS, ...options.signInLimits },
    approvals,
    devices,
    providerName: activeVariant.projectName,
  });

  await app.register(authRoutes, { tokens, secureCookies: options.secureCookies ?? process.env.NODE_ENV === 'production' });
  await app.register(deviceRoutes, { tokens, devices, approvals });
  await app.register(methodEndpoint, {
    db,
    tokens,
    publisher,
    handlers: {
      ...(methodTable as unknown as Record<string, MethodHandler<MethodDef>>),
      // Registration with this app's clock, switch and origin (the table holds the variant's defaults).
      ...(createRegistrationHandlers({
        ...DEFAULT_REGISTRATION_OPTIONS,
        now,
        ...(options.allowRegistration === undefined ? {} : { allowRegistration: options.allowRegistration }),
        ...(options.publicUrl ? { publicUrl: options.publicUrl.replace(/\/+$/, '') } : {}),
      }) as unknown as Record<string, MethodHandler<MethodDef>>),
      // History with this app's clock and origin (the export e-mail's link).
      ...(createHistoryHandlers({ ...DEFAULT_HISTORY_OPTIONS, now, jobs: options.jobQueue ?? null, ...(options.publicUrl ? { publicUrl: options.publicUrl } : {}) }) as unknown as Record<
        string,
        MethodHandler<MethodDef>
      >),
      // Account recovery with this app's clock and origin (the cancel link in the owner's notice).
      ...(createRecoveryHandlers({ ...DEFAULT_RECOVERY_OPTIONS, now, ...(options.publicUrl ? { publicUrl: options.publicUrl.replace(/\/+$/, '') } : {}) }) as unknown as Record<
        string,
        MethodHandler<MethodDef>
      >),
      ...(createRecoveryAdminHandlers({ now }) as unknown as Record<string, MethodHandler<MethodDef>>),
      ...(createTransferHandlers(transfers) as unknown as Record<string, MethodHandler<MethodDef>>),
      // Payouts through the same transfer service (its rails' side when the app has one).
      ...(createPayoutHandlers(transfers) as unknown as Record<string, MethodHandler<MethodDef>>),
      ...(createMassHandlers(transfers) as unknown as Record<string, MethodHandler<MethodDef>>),
      ...(createGlobalPayHandlers(globalPay) as unknown as Record<string, MethodHandler<MethodDef>>),
      // Maker-checker decisions on the same transfer service (its clock; expiry is the transfers sweeper's)
      ...(createBusinessApprovalHandlers(businessApprovals) as unknown as Record<string, MethodHandler<MethodDef>>),
      // The card calls on this app's issuer, clock and queue.
      ...(createCardHandlers(cardService) as unknown as Record<string, MethodHandler<MethodDef>>),
      // Profile and documents with this app's clock (document dates, code expiry).
      ...(createDocumentHandlers({ now }) as unknown as Record<string, MethodHandler<MethodDef>>),
      ...(createProfileHandlers({ now, providerName: activeVariant.projectName, cards: cardService }) as unknown as Record<string, MethodHandler<MethodDef>>),
      // A company's people and access with this app's clock and origin (an invited user's activation link).
      ...(createBusinessHandlers({
        now,
        registration: { ...DEFAULT_REGISTRATION_OPTIONS, now, ...(options.publicUrl ? { publicUrl: options.publicUrl.replace(/\/+$/, '') } : {}) },
      }) as unknown as Record<string, MethodHandler<MethodDef>>),
      // The tax self-certification with this app's clock and origin (the signing page's links).
      ...(createTaxHandlers(defaultTaxHandlerOptions({ now, ...(options.publicUrl ? { publicUrl: options.publicUrl.replace(/\/+$/, '') } : {}) })) as unknown as Record<string, MethodHandler<MethodDef>>),
      // Announcements, the notification centre and settings with this app's clock (expiry, read times).
      ...(createNotificationHandlers({ now }) as unknown as Record<string, MethodHandler<MethodDef>>),
      // The agents' support desk with this app's clock.
      ...(createSupportHandlers({ now, provider: activeVariant.id }) as unknown as Record<string, MethodHandler<MethodDef>>),
      ...options.handlerOverrides,
    },
    validateResponses: options.validateResponses ?? process.env.NODE_ENV !== 'production',
    // the app's clock: a representative link's expiry
    now,
    uploads: { ...DEFAULT_UPLOAD_LIMITS, ...options.uploads },
    ...(options.uploadDir ? { uploadDir: options.uploadDir } : {}),
  });
  // Two-step settings and single sign-on (server/modules/security); the demo SSO partner page exists in demo mode only, like its client.
  const twoStep = createTwoStepService({ db, now, publisher, approvals });
  await app.register(twoStepRoutes, { tokens, twoStep, publisher });
  await app.register(ssoRoutes, { tokens, sso: createSsoService({ db, now }), devPartner: options.demo ?? false });
  // History downloads (the export CSV, the monthly statement PDF) and the export builders on the job queue, stopped on close.
  await app.register(historyRoutes, { db, tokens, now, jobQueue: options.jobQueue ?? null });
  // Document downloads, phone verification and identity-verification jobs (server/modules/profile).
  await app.register(profileRoutes, { db, tokens, now, providerName: activeVariant.projectName, ...(options.publicUrl ? { publicUrl: options.publicUrl.replace(/\/+$/, '') } : {}) });
  await app.register(esignRoutes, { db, now });
  // Revenue-split contracts (document 3 §7) and their periodic status job on the queue.
  await app.register(contractRoutes, { db, tokens, publisher, now, jobQueue: options.jobQueue ?? null, ...(options.publicUrl ? { publicUrl: options.publicUrl.replace(/\/+$/, '') } : {}) });
  // The support desk: the product server's zoho/* paths and the built-in desk's paths (server/modules/support).
  await app.register(supportRoutes, { db, tokens, signingKey, now });
  await app.register(recoveryRoutes, { db, tokens });
  if (options.devMailbox) await app.register(mailboxRoutes, { db });
  if (options.demo && options.payouts) await app.register(simulatorRoutes, { db, payouts: options.payouts, bank: receivingBank });
  // The issuer simulator's terminal: paying by card with a card's number (cards/terminal.routes.ts), demo mode only.
  if (options.demo) await app.register(terminalRoutes, { db, payments: createCardPayments({ issuer: cardIssuer, now }) });
  // The statechart audit pack (dist/audit/), administrators only: before the web app's static files.
  const distDir = options.distDir === undefined ? DEFAULT_DIST_DIR : options.distDir;
  await app.register(auditPackRoutes, { tokens, auditDir: distDir === null ? null : resolvePath(distDir, 'audit') });
  await serveWebApp(app, distDir, { demo: options.demo ?? false, devMailbox: options.devMailbox ?? false });
  attachPush(app, { db, tokens, devices, approvals, publisher, now, ...(options.pushRecheckMs ? { recheckMs: options.pushRecheckMs } : {}) });
  if (options.transferWorkers !== false && options.jobQueue) {
    const workers = await startTransferWorkers({
      db,
      queue: options.jobQueue,
      service: transfers,
      now,
      // global-pay payments past their expireDays go back to their senders with the expiry sweep;
      // business registration drafts past their 30 days are deleted with it
      alsoExpire: async (nowMs) => (await expireDueGlobalPayments(db, nowMs, { publisher })) + (await deleteExpiredDrafts(db, nowMs)) + (await deleteStaleUploads(db, nowMs)),
      ...(options.transferWorkers ?? {}),
    });
    app.addHook('onClose', () => workers.stop());
  }
  // The production stages of physical cards, when the app runs on its own queue (main.ts: CARD_QUEUES).
  if (options.jobQueue && options.cardQueue === undefined) await startCardWorkers(db, options.jobQueue, cardService);
  if (ownsPublisher) app.addHook('onClose', () => publisher.close());
  return app;
}
