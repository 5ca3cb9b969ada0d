/**
 * REST paths of the profile (api/documents.ts, api/profile.ts): document file downloads (the
 * customer's own; any for an administrator), phone verification with a PKCE challenge, and
 * identity-verification jobs. Bearer token as everywhere; the acting customer is the caller's own
 * or the Customer-Id header's company when the caller may act for it. Another customer's document,
 * phone or job answers 404 like an unknown one. Error bodies are the envelope's
 * { responseCode, responseDescription } (VF with validationErrors).
 *
 * Each change and each download writes an audit entry; nothing of a file's content is logged.
 */
import { downloadFileName } from './documents.service.ts';
import { isIdText } from '../../../api/method.ts';
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { and, desc, eq } from 'drizzle-orm';
import * as v from 'valibot';
import { issuesToValidationErrors } from '../../../api/envelope.ts';
import { VfCode, vf, type CodedValidationError } from '../../../api/errors.ts';
import { adminDocumentFileRoute, documentFileRoute } from '../../../api/documents.ts';
import { API_VERSION_PATH, CUSTOMER_ID_HEADER } from '../../../api/http.ts';
import { checkUrl, CheckUrlsBodySchema, CustomerVerifyBodySchema, PhoneVerifyBodySchema, PROFILE_CODE_TTL_S } from '../../../api/profile.ts';
import { enqueueMail, enqueueSms } from '../../adapters/outbox.ts';
import { identityProviderFromConfig, type IdentityVerificationProvider } from '../../adapters/identity-verification.ts';
import type { Db, Tx } from '../../db/types.ts';
import { randomToken, sha256Hex, timingSafeEqualText } from '../auth/crypto.ts';
import { maskPhone, type TokenService } from '../auth/tokens.service.ts';
import { customerAccess, phones, users } from '../customers/customers.tables.ts';
import { MethodFailure, type Caller } from '../method-types.ts';
import { safeError } from '../platform/log.ts';
import { isConnectionError, replyUnavailable } from '../../db/outage.ts';
import { bearerToken } from '../platform/bearer.ts';
import { mayActFor } from '../platform/method-endpoint.ts';
import { auditLog } from '../platform/platform.tables.ts';
import { customerDocuments, identityJobs } from './profile.tables.ts';
import { issueCode } from './profile.service.ts';

/** How long an identity-verification job's page works (not shown: a day). */
export const IDENTITY_JOB_TTL_S = 24 * 60 * 60;

export interface ProfileRoutesOptions {
  db: Db;
  tokens: Pick<TokenService, 'authenticate'>;
  now?: () => number;
  providerName: string;
  /** the identity-verification provider; from IDENTITY_VERIFICATION_PROVIDER when omitted */
  identityProvider?: IdentityVerificationProvider;
  /** the web app's public origin: a job link sent by e-mail or SMS is absolute */
  publicUrl?: string;
}

class HttpAnswer extends Error {
  constructor(
    readonly statusCode: 400 | 401 | 403 | 404 | 409 | 429,
    readonly responseCode: string,
    message: string,
    readonly validationErrors?: CodedValidationError[],
  ) {
    super(message);
  }
}

const notFound = () => new HttpAnswer(404, 'ENOA', 'Not found');

export const phoneVerifyRoute = `${API_VERSION_PATH}/verification/phones/:phoneId/verify`;
export const identityVerificationRoute = `${API_VERSION_PATH}/identity-verification`;
export const customerIdentityVerificationRoute = `${API_VERSION_PATH}/customers/:customerId/identity-verification`;
export const identityJobRoute = `${API_VERSION_PATH}/identity-verification/:workflowRunId/:token`;
export const videoIdentityJobRoute = `${API_VERSION_PATH}/video-identity-job/:id`;
export const customerVerifyRoute = `${API_VERSION_PATH}/verification/customer/:customerId/verify`;
export const checkUrlsRoute = `${API_VERSION_PATH}/service/check-urls`;

const JobBodySchema = v.object({
  kind: v.optional(v.picklist(['identity', 'video'], 'must be identity or video'), 'identity'),
  channel: v.optional(v.picklist(['email', 'sms', 'camera'], 'must be email, sms or camera'), 'camera'),
});

export async function profileRoutes(app: FastifyInstance, options: ProfileRoutesOptions): Promise<void> {
  const { db, tokens } = options;
  const now = options.now ?? Date.now;
  // A configured provider this build cannot serve fails the start, not the first customer.
  const provider = options.identityProvider ?? identityProviderFromConfig(process.env.IDENTITY_VERIFICATION_PROVIDER);

  const signedIn = async (request: FastifyRequest): Promise<Caller> => {
    const caller = await tokens.authenticate(bearerToken(request));
    if (!caller) throw new HttpAnswer(401, 'AU', 'Sign-in required');
    if (caller.restriction) throw new HttpAnswer(403, '13', 'Not available in this session');
    return caller;
  };
  const acting = async (request: FastifyRequest, explicit?: string): Promise<{ caller: Caller; customerId: number }> => {
    const caller = await signedIn(request);
    const header = explicit ?? request.headers[CUSTOMER_ID_HEADER.toLowerCase()];
    if (header === undefined) return { caller, customerId: caller.customerId };
    if (typeof header !== 'string' || !isIdText(header)) throw new HttpAnswer(403, 'ENOA', 'No access to this customer');
    const customerId = Number(header);
    if (!(await mayActFor(db, caller, customerId))) throw new HttpAnswer(403, 'ENOA', 'No access to this customer');
    return { caller, customerId };
  };
  /** acting(), for a change: read-only rights to a company (1) change nothing (as the rights table's 'change', api/rights.ts, for the named methods). */
  const actingToChange = async (request: FastifyRequest, explicit?: string): Promise<{ caller: Caller; customerId: number }> => {
    const acted = await acting(request, explicit);
    if (acted.customerId === acted.caller.customerId || acted.caller.isAdmin) return acted;
    const [row] = await db
      .select({ accessRights: customerAccess.accessRights })
      .from(customerAccess)
      .where(and(eq(customerAccess.userId, acted.caller.userId), eq(customerAccess.customerId, acted.customerId)));
    if (!row || row.accessRights <= 1) throw new HttpAnswer(403, '13', 'Your access to this customer is read-only');
    return acted;
  };
  const parse = <S extends v.GenericSchema>(schema: S, body: unknown): v.InferOutput<S> => {
    const r = v.safeParse(schema, body ?? {}, { abortEarly: false });
    if (!r.success) throw new HttpAnswer(400, 'VF', 'Invalid request', issuesToValidationErrors(r.issues));
    return r.output;
  };
  const handle =
    (run: (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply>) => async (request: FastifyRequest, reply: FastifyReply) => {
      try {
        return await run(request, reply);
      } catch (err) {
        if (err instanceof HttpAnswer) {
          return reply.code(err.statusCode).send({
            responseCode: err.responseCode,
            responseDescription: err.message,
            ...(err.validationErrors ? { validationErrors: err.validationErrors } : {}),
          });
        }
        if (err instanceof MethodFailure) {
          return reply.code(err.responseCode === 'TA1' ? 429 : 400).send({
            responseCode: err.responseCode,
            responseDescription: err.responseDescription,
            ...(err.validationErrors ? { validationErrors: err.validationErrors } : {}),
          });
        }
        if (isConnectionError(err)) return replyUnavailable(reply);
        request.log.error({ error: safeError(err) }, 'profile route failed');
        return reply.code(500).send({ responseCode: 'UE', responseDescription: 'Unknown error' });
      }
    };
  const audit = (tx: Db | Tx, caller: Caller | null, customerId: number, method: string, details: Record<string, unknown>) =>
    tx.insert(auditLog).values({ userId: caller?.userId ?? null, customerId, method, details });

  const sendFile = async (reply: FastifyReply, documentId: number, customerId: number | null) => {
    const [row] = await db
      .select({ id: customerDocuments.id, side: customerDocuments.side, customerId: customerDocuments.customerId, statusId: customerDocuments.statusId, mimeType: customerDocuments.mimeType, content: customerDocuments.content })
      .from(customerDocuments)
      .where(eq(customerDocuments.id, documentId));
    if (!row || row.statusId === 5 || (customerId !== null && row.customerId !== customerId)) throw notFound();
    return {
      row,
      send: () =>
        reply
          .code(200)
          .header('Content-Type', row.mimeType)
          .header('Content-Disposition', attachmentDisposition(downloadFileName(row)))
          .header('Cache-Control', 'no-store')
          .send(row.content),
    };
  };

  app.get(
    documentFileRoute,
    handle(async (request, reply) => {
      const { caller, customerId } = await acting(request);
      const { documentId } = request.params as { documentId: string };
      if (!isIdText(documentId)) throw notFound();
      const file = await sendFile(reply, Number(documentId), customerId);
      await audit(db, caller, customerId, 'documentDownload', { documentId: Number(documentId) });
      return file.send();
    }),
  );

  app.get(
    adminDocumentFileRoute,
    handle(async (request, reply) => {
      const caller = await signedIn(request);
      if (!caller.isAdmin) throw new HttpAnswer(403, '13', 'Administrators only');
      const { documentId } = request.params as { documentId: string };
      if (!isIdText(documentId)) throw notFound();
      const file = await sendFile(reply, Number(documentId), null);
      await audit(db, caller, file.row.customerId, 'adminDocumentDownload', { documentId: Number(documentId) });
      return file.send();
    }),
  );

  app.post(
    phoneVerifyRoute,
    handle(async (request, reply) => {
      const { caller, customerId } = await actingToChange(request);
      const { phoneId } = request.params as { phoneId: string };
      if (!isIdText(phoneId)) throw notFound();
      const body = parse(PhoneVerifyBodySchema, request.body);
      const sentTo = await db.transaction(async (tx) => {
        const [phone] = await tx
          .select()
          .from(phones)
          .where(and(eq(phones.id, Number(phoneId)), eq(phones.customerId, customerId)))
          .for('update');
        if (!phone) throw notFound();
        if (phone.confirmed) throw new HttpAnswer(409, 'TA1', 'The phone is confirmed already');
        const code = await issueCode(tx, { customerId, purpose: 'phone', targetId: phone.id, codeChallenge: body.codeChallenge, nowMs: now() });
        await enqueueSms(tx, {
          to: `+${phone.phoneCountryCode}${phone.phone}`,
          text: `${options.providerName}: ${code} is your code to confirm this phone number. It expires in ${PROFILE_CODE_TTL_S / 60} minutes. Never share it.`,
        });
        await audit(tx, caller, customerId, 'phoneVerify', { phoneId: phone.id, type: body.type });
        return maskPhone(phone.phoneCountryCode, phone.phone);
      });
      return reply.code(200).send({ responseCode: '00', sentTo, expiresInSeconds: PROFILE_CODE_TTL_S });
    }),
  );

  /** Starts a job: one transaction with the replaced job's expiry and the audit entry; `deliver` runs inside it. */
  const createJob = async (
    caller: Caller,
    customerId: number,
    body: { kind: 'identity' | 'video'; channel: 'email' | 'sms' | 'camera' },
    deliver?: (tx: Tx, url: string) => Promise<Record<string, unknown>>,
  ) => {
    const workflowRunId = randomUUID();
    const token = randomToken();
    const { url } = await provider.start({ workflowRunId, token, kind: body.kind });
    const delivered = await db.transaction(async (tx) => {
      await tx
        .update(identityJobs)
        .set({ status: 'expired' })
        .where(and(eq(identityJobs.customerId, customerId), eq(identityJobs.kind, body.kind), eq(identityJobs.status, 'pending')));
      await tx.insert(identityJobs).values({
        workflowRunId,
        tokenHash: sha256Hex(token),
        customerId,
        kind: body.kind,
        provider: provider.name,
        channel: body.channel,
        createdByUserId: caller.userId,
        createdAt: new Date(now()),
        expiresAt: new Date(now() + IDENTITY_JOB_TTL_S * 1000),
      });
      const extra = deliver ? await deliver(tx, url) : {};
      await audit(tx, caller, customerId, 'identityVerificationStart', { workflowRunId, kind: body.kind, provider: provider.name, channel: body.channel, ...('sentTo' in extra ? { sentTo: extra.sentTo } : {}) });
      return extra;
    });
    return { workflowRunId, token, url, delivered };
  };

  // POST verification/customer/{id}/verify: the job's link by the channel asked (CustomerVerifyBodySchema).
  app.post(
    customerVerifyRoute,
    handle(async (request, reply) => {
      const explicit = (request.params as { customerId: string }).customerId;
      if (!isIdText(explicit)) throw notFound();
      const { caller, customerId } = await actingToChange(request, explicit);
      const body = parse(CustomerVerifyBodySchema, request.body);
      const absolute = (url: string) => (/^https?:/.test(url) ? url : `${options.publicUrl ?? ''}${url}`);
      const deliver =
        body.type === 'camera'
          ? undefined
          : async (tx: Tx, url: string): Promise<Record<string, unknown>> => {
              if (body.type === 'email') {
                const [user] = await tx.select({ email: users.email }).from(users).where(eq(users.customerId, customerId)).orderBy(users.id).limit(1);
                if (!user) throw new HttpAnswer(409, 'TA1', 'The customer has no e-mail address');
                await enqueueMail(tx, {
                  to: user.email,
                  subject: `${options.providerName}: verify your identity`,
                  text: `Continue your identity verification here (the link works for ${IDENTITY_JOB_TTL_S / 3600} hours):\n\n${absolute(url)}\n\nIf you did not ask for it, ignore this message.`,
                });
                return { sentTo: user.email.replace(/^(.).*(@.*)$/, '$1***$2') };
              }
              const [phone] = await tx
                .select()
                .from(phones)
                .where(and(eq(phones.customerId, customerId), eq(phones.status, 'primary'), eq(phones.confirmed, true)));
              if (!phone) throw new HttpAnswer(409, 'TA1', 'The customer has no confirmed phone', [vf('type', VfCode.needsConfirmedPhone)]);
              await enqueueSms(tx, {
                to: `+${phone.phoneCountryCode}${phone.phone}`,
                text: `${options.providerName}: continue your identity verification at ${absolute(url)}`,
              });
              return { sentTo: maskPhone(phone.phoneCountryCode, phone.phone) };
            };
      const job = await createJob(caller, customerId, { kind: 'identity', channel: body.type }, deliver);
      return reply.code(200).send({
        responseCode: '00',
        workflowRunId: job.workflowRunId,
        provider: provider.name,
        type: body.type,
        // The link holds the job's secret: only the device that asked for camera gets it here.
        ...(body.type === 'camera' ? { token: job.token, url: job.url } : { sentTo: job.delivered.sentTo }),
      });
    }),
  );

  // POST /service/check-urls: which of the given addresses are public web addresses (checkUrl); no fetch.
  app.post(
    checkUrlsRoute,
    handle(async (request, reply) => {
      const body = parse(CheckUrlsBodySchema, request.body);
      return reply.code(200).send({ responseCode: '00', urls: body.urls.map(checkUrl) });
    }),
  );

  const startJob = async (request: FastifyRequest, reply: FastifyReply, explicitCustomer?: string) => {
    const { caller, customerId } = await actingToChange(request, explicitCustomer);
    const body = parse(JobBodySchema, request.body);
    const { workflowRunId, token, url } = await createJob(caller, customerId, body);
    return reply.code(200).send({ responseCode: '00', workflowRunId, token, provider: provider.name, url });
  };

  app.post(
    identityVerificationRoute,
    handle((request, reply) => startJob(request, reply)),
  );
  app.post(
    customerIdentityVerificationRoute,
    handle((request, reply) => startJob(request, reply, (request.params as { customerId: string }).customerId)),
  );

  const jobState = (job: typeof identityJobs.$inferSelect) => ({
    responseCode: '00',
    workflowRunId: job.workflowRunId,
    kind: job.kind,
    provider: job.provider,
    status: job.status === 'pending' && job.expiresAt.getTime() <= now() ? 'expired' : job.status,
    created: job.createdAt.toISOString(),
    expires: job.expiresAt.toISOString(),
    /** the administrator's decision (built-in provider) */
    decided: job.decidedAt?.toISOString() ?? null,
    rejectReason: job.status === 'rejected' ? job.rejectReason : null,
  });

  // The job's page is opened from a link (possibly on another device): its token authorises it.
  // The token is in the path: the request lines (info) of this route are not logged, so the URL
  // holding it never reaches a log.
  app.get(
    identityJobRoute,
    { logLevel: 'warn' },
    handle(async (request, reply) => {
      const { workflowRunId, token } = request.params as { workflowRunId: string; token: string };
      if (!/^[0-9a-f-]{36}$/.test(workflowRunId) || !/^[A-Za-z0-9_-]{20,100}$/.test(token)) throw notFound();
      const [job] = await db.select().from(identityJobs).where(eq(identityJobs.workflowRunId, workflowRunId));
      if (!job || !timingSafeEqualText(job.tokenHash, sha256Hex(token))) throw notFound();
      return reply.code(200).send(jobState(job));
    }),
  );

  app.get(
    videoIdentityJobRoute,
    handle(async (request, reply) => {
      const { customerId } = await acting(request);
      const { id } = request.params as { id: string };
      if (!/^[0-9a-f-]{36}$/.test(id)) throw notFound();
      const [job] = await db
        .select()
        .from(identityJobs)
        .where(and(eq(identityJobs.workflowRunId, id), eq(identityJobs.customerId, customerId), eq(identityJobs.kind, 'video')))
        .orderBy(desc(identityJobs.createdAt))
        .limit(1);
      if (!job) throw notFound();
      return reply.code(200).send(jobState(job));
    }),
  );
}

/**
 * `attachment` with the stored file name: an ASCII fallback (anything else as _) and the exact name
 * as RFC 5987 `filename*` (a Cyrillic name in a raw header would be refused by Node as an invalid
 * header character).
 */
export function attachmentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}`;
}
