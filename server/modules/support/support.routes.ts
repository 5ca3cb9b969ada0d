/**
 * The support desk over REST (document 3 §7 Support; api/support.ts has the paths and shapes).
 *
 * Through the product server (the platform's access token as Authorization: Bearer; errors are the
 * envelope's `{ responseCode, responseDescription }`):
 * - GET zoho/jwt?widgetId&fromCustomerId   the remote-auth jwt (desk-token.ts), DESK_JWT_SECONDS
 * - GET zoho/agent                          the agent who last answered the customer, the support e-mail
 * - GET zoho/tickets/stats                  { stats }: unreadTicketNumbers and the counts by statusId
 * - GET zoho/tickets?from&limit&filter      the customer's tickets (as the desk's GET /tickets)
 * The acting customer is the caller's own, or `fromCustomerId` (document 3 §6) or the Customer-Id
 * header when the caller may act for it (mayActFor). Any access right to the company reads and
 * writes its tickets, read-only (1) included: asking for help moves no money and changes nothing
 * of the company's, and a user who can only look should still be able to ask.
 *
 * The built-in desk (BUILTIN_DESK_BASE + DESK_PATHS): POST /me exchanges the jwt for a desk token,
 * once (a jwt exchanged before answers 401 AU, as an invalid one: support_desk_jwts);
 * every other desk path takes ONLY the desk token (Authorization: Bearer), never the platform's
 * access token (and the product paths never take a desk token: desk-token.ts signs with a key of
 * its own). Each desk call re-checks that the user is enabled, that the sign-in the jwt was asked
 * in is not signed out (the session family in both tokens), and that the user still acts for the customer.
 * A customer sees only the tickets of the customer in its token (another's answers 404 ENOA, as
 * an unknown id does) and never an internal note. Errors are DeskErrorSchema: `{ errorCode,
 * message, responseCode }` (VF 400 with validationErrors, AU 401/403, ENOA 404, 409 for a move
 * the ticket's state does not allow (errorCode TICKET_STATE, validationErrors naming `ticket`),
 * TA1 429 when rate limited). Each desk path allows DESK_RATE_PER_MINUTE requests a minute per
 * address (document 3 §4: the app stops on a 429 until a call succeeds).
 *
 * Uploads are checked exactly as customer documents are (profile/documents.service.ts checkFile:
 * size, type by magic bytes, active PDF content, the name sanitised); a refused file answers 400
 * VF naming its field and is recorded nowhere. Each change is one transaction with an audit entry.
 *
 * Also (ours, for the agents' desk in the administrator's area): GET
 * /api/v1/support/attachments/{attachmentId}/content with an administrator's access token, any
 * attachment of the provider's tickets.
 *
 * Not done (ours): a customer's reply to an assigned ticket does not e-mail the agent; the agents
 * work from the queue.
 */
import { rm } from 'node:fs/promises';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { and, eq, lt } from 'drizzle-orm';
import * as v from 'valibot';
import { DOCUMENT_MAX_BYTES } from '../../../api/documents.ts';
import { issuesToValidationErrors } from '../../../api/envelope.ts';
import { vf, VfCode, type CodedValidationError } from '../../../api/errors.ts';
import { API_VERSION_PATH, CUSTOMER_ID_HEADER } from '../../../api/http.ts';
import { isIdText } from '../../../api/method.ts';
import {
  ATTACHMENTS_MAX,
  BUILTIN_DESK_BASE,
  CONVERSATION_LIMIT,
  DESK_JWT_SECONDS,
  DESK_PATHS,
  DESK_TOKEN_SECONDS,
  DeskMeBodySchema,
  SUPPORT_ROUTES,
  TICKET_PAGE_SIZE,
  TicketCreateSchema,
  TicketListQuerySchema,
  TicketUpdateSchema,
  ThreadCreateSchema,
} from '../../../api/support.ts';
import { activeVariant } from '../../../variants/index.ts';
import { isConnectionError, replyUnavailable } from '../../db/outage.ts';
import type { Db, Tx } from '../../db/types.ts';
import type { TokenService } from '../auth/tokens.service.ts';
import { tokenFamilies } from '../auth/auth.tables.ts';
import { customers, users } from '../customers/customers.tables.ts';
import type { Caller } from '../method-types.ts';
import { bearerToken } from '../platform/bearer.ts';
import { safeError } from '../platform/log.ts';
import { mayActFor } from '../platform/method-endpoint.ts';
import { auditLog } from '../platform/platform.tables.ts';
import { createUploadBudget, createUploadDir, loadFiles, readMultipart, releaseUploads, UploadRefused, UPLOAD_RETRY_AFTER_S, type HeldUploads } from '../platform/uploads.ts';
import { checkFile, type CheckedFile } from '../profile/documents.service.ts';
import { attachmentDisposition } from '../profile/profile.routes.ts';
import { deskKeyOf, signDeskJwt, signDeskToken, verifyDeskJwt, verifyDeskToken, type DeskIdentity } from './desk-token.ts';
import {
  agentAttachment,
  createTicket,
  customerAttachment,
  customerClose,
  customerRead,
  customerReply,
  customerStats,
  customerTicket,
  customerTickets,
  lastAgentOf,
  publicThreadCountOf,
  storeUpload,
  SupportRefusal,
  threadsOf,
  ticketToWire,
  type DeskActor,
} from './support.service.ts';
import { supportDeskJwts } from './support.tables.ts';

/** Requests a minute per address on each desk path (ours). */
export const DESK_RATE_PER_MINUTE = 120;
/** The file bytes of one desk call: ATTACHMENTS_MAX documents of the largest size. */
const DESK_REQUEST_MAX_BYTES = ATTACHMENTS_MAX * DOCUMENT_MAX_BYTES;
const DESK_IN_FLIGHT_MAX_BYTES = 64 * 1024 * 1024;
const WIDGET_ID_MAX = 200;

export interface SupportRoutesOptions {
  db: Db;
  tokens: Pick<TokenService, 'authenticate'>;
  /** the platform's signing key: the desk's own key is derived from it (desk-token.ts) */
  signingKey: Uint8Array;
  now?: () => number;
  /** the provider whose desk this is (the variant's id) */
  provider?: string;
  supportEmail?: string | null;
}

/** The product server's refusals (the envelope). */
class ProductAnswer extends Error {
  constructor(
    readonly statusCode: 400 | 401 | 403,
    readonly responseCode: string,
    message: string,
    readonly validationErrors: CodedValidationError[] = [],
  ) {
    super(message);
  }
}

/** The desk's refusals (DeskErrorSchema). */
class DeskAnswer extends Error {
  constructor(
    readonly statusCode: 400 | 401 | 403 | 404 | 409 | 429 | 503,
    readonly errorCode: string,
    readonly responseCode: string | undefined,
    message: string,
    readonly validationErrors: CodedValidationError[] = [],
  ) {
    super(message);
  }
}

const deskVf = (errors: CodedValidationError[]) => new DeskAnswer(400, 'INVALID_DATA', 'VF', 'Invalid request', errors);
const deskNotFound = () => new DeskAnswer(404, 'NOT_FOUND', 'ENOA', 'Not found');
const deskUnauthorised = () => new DeskAnswer(401, 'UNAUTHORIZED', 'AU', 'A valid desk token is required');

function deskRefusal(err: SupportRefusal): DeskAnswer {
  if (err.kind === 'notFound') return deskNotFound();
  if (err.kind === 'state') return new DeskAnswer(409, 'TICKET_STATE', undefined, err.message, err.validationErrors);
  return deskVf(err.validationErrors);
}

function sendDeskError(reply: FastifyReply, err: DeskAnswer) {
  return reply
    .code(err.statusCode)
    .header('Cache-Control', 'no-store')
    .send({
      errorCode: err.errorCode,
      message: err.message,
      ...(err.responseCode ? { responseCode: err.responseCode } : {}),
      ...(err.validationErrors.length > 0 ? { validationErrors: err.validationErrors } : {}),
    });
}

/** A query's value when given once (an array or an object is no value). */
function queryText(request: FastifyRequest, name: string): string | undefined {
  const value = (request.query as Record<string, unknown>)[name];
  return typeof value === 'string' ? value : undefined;
}

function listQuery(request: FastifyRequest): { from: number; limit: number; filter: 'all' | 'open' | 'new' | 'closed' } | CodedValidationError[] {
  const raw: Record<string, string> = {};
  for (const name of ['from', 'limit', 'filter'] as const) {
    const value = queryText(request, name);
    if (value !== undefined && value !== '') raw[name] = value;
  }
  const parsed = v.safeParse(TicketListQuerySchema, raw);
  if (!parsed.success) return issuesToValidationErrors(parsed.issues);
  return { from: parsed.output.from ?? 1, limit: parsed.output.limit ?? TICKET_PAGE_SIZE, filter: parsed.output.filter ?? 'all' };
}

const idParam = (request: FastifyRequest, name: string): number => {
  const value = (request.params as Record<string, string>)[name];
  if (typeof value !== 'string' || !isIdText(value)) throw deskNotFound();
  return Number(value);
};

export async function supportRoutes(app: FastifyInstance, options: SupportRoutesOptions): Promise<void> {
  const { db, tokens } = options;
  const now = options.now ?? Date.now;
  const provider = options.provider ?? activeVariant.id;
  const supportEmail = options.supportEmail === undefined ? activeVariant.support.email : options.supportEmail;
  const deskKey = deskKeyOf(options.signingKey);

  const audit = (tx: Tx, actor: DeskActor, method: string, details: Record<string, unknown>) =>
    tx.insert(auditLog).values({ userId: actor.userId, customerId: actor.customerId, method, details });

  // ------------------------------------------------------------ the product server's paths

  await app.register(async (product) => {
    /** The caller and the customer it acts for: fromCustomerId, else the Customer-Id header, else its own. */
    const acting = async (request: FastifyRequest): Promise<{ caller: Caller; actor: DeskActor }> => {
      const caller = await tokens.authenticate(bearerToken(request));
      if (!caller) throw new ProductAnswer(401, 'AU', 'Sign-in required');
      if (caller.restriction) throw new ProductAnswer(403, '13', 'Not available in this session');
      const fromQuery = queryText(request, 'fromCustomerId');
      const header = request.headers[CUSTOMER_ID_HEADER.toLowerCase()];
      const named = fromQuery !== undefined && fromQuery !== '' ? fromQuery : header;
      if (named === undefined) return { caller, actor: { userId: caller.userId, customerId: caller.customerId, provider } };
      if (typeof named !== 'string' || !isIdText(named)) throw new ProductAnswer(403, 'ENOA', 'No access to this customer');
      const customerId = Number(named);
      if (!(await mayActFor(db, caller, customerId))) throw new ProductAnswer(403, 'ENOA', 'No access to this customer');
      return { caller, actor: { userId: caller.userId, customerId, provider } };
    };

    const handle = (run: (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply>) => async (request: FastifyRequest, reply: FastifyReply) => {
      try {
        return await run(request, reply);
      } catch (err) {
        if (err instanceof ProductAnswer) {
          return reply
            .code(err.statusCode)
            .send({ responseCode: err.responseCode, responseDescription: err.message, ...(err.validationErrors.length > 0 ? { validationErrors: err.validationErrors } : {}) });
        }
        if (isConnectionError(err)) return replyUnavailable(reply);
        request.log.error({ error: safeError(err) }, 'support call failed');
        return reply.code(500).send({ responseCode: 'UE', responseDescription: 'Unknown error' });
      }
    };
    const noStore = (reply: FastifyReply) => reply.code(200).header('Cache-Control', 'no-store');

    product.get(
      SUPPORT_ROUTES.jwt,
      handle(async (request, reply) => {
        const { caller, actor } = await acting(request);
        if (!caller.familyId) throw new ProductAnswer(401, 'AU', 'Sign-in required');
        const widgetId = queryText(request, 'widgetId');
        if (widgetId !== undefined && widgetId.length > WIDGET_ID_MAX)
          throw new ProductAnswer(400, 'VF', 'Invalid request', [vf('widgetId', VfCode.tooLong, { max: WIDGET_ID_MAX })]);
        return noStore(reply).send({ responseCode: '00', jwt: signDeskJwt(deskKey, { ...actor, familyId: caller.familyId }, now()), expiresIn: DESK_JWT_SECONDS });
      }),
    );

    product.get(
      SUPPORT_ROUTES.agent,
      handle(async (request, reply) => {
        const { actor } = await acting(request);
        return noStore(reply).send({ responseCode: '00', agent: await lastAgentOf(db, actor), supportEmail });
      }),
    );

    product.get(
      SUPPORT_ROUTES.stats,
      handle(async (request, reply) => {
        const { actor } = await acting(request);
        return noStore(reply).send({ responseCode: '00', stats: await customerStats(db, actor, now()) });
      }),
    );

    product.get(
      SUPPORT_ROUTES.tickets,
      handle(async (request, reply) => {
        const { actor } = await acting(request);
        const query = listQuery(request);
        if (Array.isArray(query)) throw new ProductAnswer(400, 'VF', 'Invalid request', query);
        const { data, count } = await customerTickets(db, actor, query, now());
        return noStore(reply).send({ responseCode: '00', tickets: data, count });
      }),
    );

    // The agents' download of an attachment (administrators, the provider's tickets).
    product.get(
      `${API_VERSION_PATH}/support/attachments/:attachmentId/content`,
      handle(async (request, reply) => {
        const caller = await tokens.authenticate(bearerToken(request));
        if (!caller) throw new ProductAnswer(401, 'AU', 'Sign-in required');
        if (!caller.isAdmin || caller.restriction) throw new ProductAnswer(403, '13', 'Administrators only');
        const value = (request.params as { attachmentId: string }).attachmentId;
        if (!isIdText(value)) return reply.code(404).send({ responseCode: 'ENOA', responseDescription: 'Not found' });
        try {
          const file = await agentAttachment(db, provider, Number(value));
          return reply
            .code(200)
            .header('Content-Type', file.contentType)
            .header('Content-Disposition', attachmentDisposition(file.fileName))
            .header('X-Content-Type-Options', 'nosniff')
            .header('Cache-Control', 'no-store')
            .send(file.content);
        } catch (err) {
          if (err instanceof SupportRefusal) return reply.code(404).send({ responseCode: 'ENOA', responseDescription: 'Not found' });
          throw err;
        }
      }),
    );
  });

  // ------------------------------------------------------------ the built-in desk's paths

  const uploadDir = await createUploadDir();
  const uploadBudget = createUploadBudget(DESK_IN_FLIGHT_MAX_BYTES);
  app.addHook('onClose', async () => rm(uploadDir, { recursive: true, force: true }));

  await app.register(async (desk) => {
    // This scope's errors (a 429 of the rate limiter, a body that is not JSON) in the desk's shape.
    desk.setErrorHandler((err, request, reply) => {
      const statusCode = (err as { statusCode?: number }).statusCode ?? 500;
      if (isConnectionError(err)) return replyUnavailable(reply);
      if (statusCode === 429) return sendDeskError(reply, new DeskAnswer(429, 'TOO_MANY_REQUESTS', 'TA1', 'Too many requests; try again later'));
      if (statusCode >= 400 && statusCode < 500) {
        return sendDeskError(reply, deskVf([statusCode === 413 ? vf('body', VfCode.requestTooLarge, { maxMb: 1 }) : vf('body', VfCode.notJsonBody)]));
      }
      request.log.error({ error: safeError(err) }, 'desk call failed');
      return reply.code(500).send({ errorCode: 'INTERNAL', message: 'Unknown error', responseCode: 'UE' });
    });

    const routeOptions = { config: { rateLimit: { max: DESK_RATE_PER_MINUTE, timeWindow: 60_000 } } };
    const path = (p: string) => `${BUILTIN_DESK_BASE}${p}`;

    /** The desk token's user, still enabled and still acting for the token's customer. */
    const deskActor = async (request: FastifyRequest): Promise<DeskActor & { name: string; email: string }> => {
      const token = bearerToken(request);
      const who = token ? verifyDeskToken(deskKey, token, now()) : null;
      if (!who || who.provider !== provider) throw deskUnauthorised();
      return checkedActor(who);
    };

    const checkedActor = async (who: DeskIdentity): Promise<DeskActor & { name: string; email: string }> => {
      const [user] = await db
        .select({
          customerId: users.customerId,
          isAdmin: users.isAdmin,
          disabled: users.disabled,
          email: users.email,
          firstName: customers.firstName,
          lastName: customers.lastName,
          revokedAt: tokenFamilies.revokedAt,
        })
        .from(users)
        .innerJoin(customers, eq(customers.id, users.customerId))
        .innerJoin(tokenFamilies, and(eq(tokenFamilies.id, who.familyId), eq(tokenFamilies.userId, users.id)))
        .where(eq(users.id, who.userId));
      // signing out (or a revoked session) ends the desk token with it
      if (!user || user.disabled || user.revokedAt !== null) throw deskUnauthorised();
      if (!(await mayActFor(db, { userId: who.userId, customerId: user.customerId, isAdmin: user.isAdmin }, who.customerId))) {
        throw new DeskAnswer(403, 'FORBIDDEN', 'AU', 'No access to this customer');
      }
      return { userId: who.userId, customerId: who.customerId, provider: who.provider, name: `${user.firstName} ${user.lastName}`.trim(), email: user.email };
    };

    const handle = (run: (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply>) => async (request: FastifyRequest, reply: FastifyReply) => {
      try {
        return await run(request, reply);
      } catch (err) {
        if (err instanceof DeskAnswer) return sendDeskError(reply, err);
        if (err instanceof SupportRefusal) return sendDeskError(reply, deskRefusal(err));
        if (err instanceof UploadRefused) {
          reply.header('connection', 'close');
          if (err.cap === 'process') {
            reply.header('retry-after', String(UPLOAD_RETRY_AFTER_S));
            return sendDeskError(reply, new DeskAnswer(503, 'BUSY', 'UE', 'Too many files are being received right now; try again in a few seconds'));
          }
          return sendDeskError(reply, deskVf([vf('files', VfCode.requestTooLarge, { maxMb: Math.floor(DESK_REQUEST_MAX_BYTES / 1_000_000) })]));
        }
        if (isConnectionError(err)) return replyUnavailable(reply);
        request.log.error({ error: safeError(err) }, 'desk call failed');
        return reply.code(500).send({ errorCode: 'INTERNAL', message: 'Unknown error', responseCode: 'UE' });
      }
    };
    const ok = (reply: FastifyReply) => reply.code(200).header('Cache-Control', 'no-store');
    /** A route of the signed-in desk caller (the desk token's customer user): errors answered by `handle`. */
    const customerRoute = (
      method: 'GET' | 'POST' | 'PUT',
      url: string,
      run: (actor: Awaited<ReturnType<typeof deskActor>>, request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply>,
    ) => desk.route({ method, url: path(url), ...routeOptions, handler: handle(async (request, reply) => run(await deskActor(request), request, reply)) });

    /** A JSON body parsed with its schema, or 400 VF. */
    const bodyOf = <S extends v.GenericSchema>(schema: S, body: unknown): v.InferOutput<S> => {
      if (typeof body !== 'object' || body === null || Array.isArray(body)) throw deskVf([vf('body', VfCode.notJsonBody)]);
      const parsed = v.safeParse(schema, body);
      if (!parsed.success) throw deskVf(issuesToValidationErrors(parsed.issues));
      return parsed.output;
    };

    /** A multipart body: its `data` JSON and its files, each checked as a customer document; the temporary files released after. */
    const withMultipart = async <T>(request: FastifyRequest, run: (data: unknown, files: CheckedFile[]) => Promise<T>): Promise<T> => {
      if (!request.isMultipart()) throw deskVf([vf('body', VfCode.invalid)]);
      const held: HeldUploads = { paths: [], bytes: 0 };
      try {
        const read = await readMultipart(request, {
          dir: uploadDir,
          limits: { requestMaxBytes: DESK_REQUEST_MAX_BYTES, inFlightMaxBytes: DESK_IN_FLIGHT_MAX_BYTES },
          budget: uploadBudget,
          held,
          fileMaxBytes: DOCUMENT_MAX_BYTES,
          maxFiles: ATTACHMENTS_MAX,
          fieldMaxBytes: 1024 * 1024,
        });
        if (read.errors.length > 0) throw deskVf(read.errors);
        let data: unknown = undefined;
        if (read.data !== undefined) {
          try {
            data = JSON.parse(read.data);
          } catch {
            throw deskVf([vf('data', VfCode.notJson)]);
          }
        }
        const errors: CodedValidationError[] = [];
        const checked = (await loadFiles(read.files)).map((f) => checkFile(f, f.fieldName, errors));
        if (errors.length > 0) throw deskVf(errors);
        return await run(data, checked as CheckedFile[]);
      } finally {
        await releaseUploads(held, uploadBudget);
      }
    };

    desk.post(
      path(DESK_PATHS.me),
      routeOptions,
      handle(async (request, reply) => {
        const { jwt } = bodyOf(DeskMeBodySchema, request.body);
        const who = verifyDeskJwt(deskKey, jwt, now());
        const refused = () => new DeskAnswer(401, 'UNAUTHORIZED', 'AU', 'The jwt is not valid');
        if (!who || who.provider !== provider) throw refused();
        const actor = await checkedActor(who);
        // single use: the jwt's id recorded once (the primary key decides between concurrent exchanges); the expired ones dropped
        const first = await db.transaction(async (tx) => {
          await tx.delete(supportDeskJwts).where(lt(supportDeskJwts.expiresAt, new Date(now())));
          const recorded = await tx
            .insert(supportDeskJwts)
            .values({ jwtId: who.jwtId, usedAt: new Date(now()), expiresAt: new Date(who.expiresAtMs) })
            .onConflictDoNothing()
            .returning({ jwtId: supportDeskJwts.jwtId });
          return recorded.length > 0;
        });
        if (!first) throw refused();
        return ok(reply).send({ token: signDeskToken(deskKey, who, now()), expiresIn: DESK_TOKEN_SECONDS, contact: { id: actor.userId, name: actor.name, email: actor.email } });
      }),
    );

    customerRoute('POST', DESK_PATHS.uploads, async (actor, request, reply) => {
      const attachment = await withMultipart(request, async (_data, files) => {
        if (files.length !== 1) throw deskVf([files.length === 0 ? vf('file', VfCode.required) : vf('file', VfCode.tooManyFiles, { max: 1 })]);
        return db.transaction(async (tx) => {
          const stored = await storeUpload(tx, actor, files[0]!, now());
          await audit(tx, actor, 'deskUpload', { attachmentId: stored.id, size: stored.size, contentType: stored.contentType });
          return stored;
        });
      });
      return ok(reply).send(attachment);
    });

    const created = async (actor: DeskActor, input: { subject: string; description: string; uploads: number[] }, files: CheckedFile[]) =>
      db.transaction(async (tx) => {
        const row = await createTicket(tx, actor, { ...input, files }, now());
        await audit(tx, actor, 'deskTicketCreate', { ticketId: row.id, ticketNumber: row.ticketNumber, uploads: input.uploads.length, files: files.length });
        return ticketToWire(row, 1, now());
      });

    customerRoute('POST', DESK_PATHS.tickets, async (actor, request, reply) => {
      const input = bodyOf(TicketCreateSchema, request.body);
      return ok(reply).send(await created(actor, input, []));
    });

    customerRoute('POST', DESK_PATHS.compose, async (actor, request, reply) => {
      const ticket = await withMultipart(request, async (data, files) => created(actor, bodyOf(TicketCreateSchema, data ?? {}), files));
      return ok(reply).send(ticket);
    });

    customerRoute('GET', DESK_PATHS.tickets, async (actor, request, reply) => {
      const query = listQuery(request);
      if (Array.isArray(query)) throw deskVf(query);
      return ok(reply).send(await customerTickets(db, actor, query, now()));
    });

    customerRoute('GET', DESK_PATHS.ticket, async (actor, request, reply) => {
      return ok(reply).send(await customerTicket(db, actor, idParam(request, 'id'), now()));
    });

    customerRoute('GET', DESK_PATHS.conversations, async (actor, request, reply) => {
      const ticket = await customerTicket(db, actor, idParam(request, 'id'), now());
      const raw: Record<string, string> = {};
      for (const name of ['from', 'limit'] as const) {
        const value = queryText(request, name);
        if (value !== undefined && value !== '') raw[name] = value;
      }
      const page = v.safeParse(ConversationQuerySchema, raw);
      if (!page.success) throw deskVf(issuesToValidationErrors(page.issues));
      const data = await threadsOf(db, ticket.id, { forAgent: false, from: page.output.from ?? 1, limit: page.output.limit ?? CONVERSATION_LIMIT });
      return ok(reply).send({ data });
    });

    customerRoute('GET', DESK_PATHS.thread, async (actor, request, reply) => {
      const ticket = await customerTicket(db, actor, idParam(request, 'id'), now());
      const [thread] = await threadsOf(db, ticket.id, { forAgent: false, threadId: idParam(request, 'threadId') });
      if (!thread) throw deskNotFound();
      return ok(reply).send(thread);
    });

    customerRoute('GET', DESK_PATHS.attachmentContent, async (actor, request, reply) => {
      const file = await customerAttachment(db, actor, idParam(request, 'id'), idParam(request, 'threadId'), idParam(request, 'attachmentId'));
      return reply
        .code(200)
        .header('Content-Type', file.contentType)
        .header('Content-Disposition', attachmentDisposition(file.fileName))
        .header('X-Content-Type-Options', 'nosniff')
        .header('Cache-Control', 'no-store')
        .send(file.content);
    });

    customerRoute('POST', DESK_PATHS.threads, async (actor, request, reply) => {
      const ticketId = idParam(request, 'id');
      const input = bodyOf(ThreadCreateSchema, request.body);
      const threadId = await db.transaction(async (tx) => {
        const { threadId } = await customerReply(tx, actor, ticketId, { ...input, move: 'customerReply' }, now());
        await audit(tx, actor, 'deskTicketReply', { ticketId, threadId, uploads: input.uploads.length });
        return threadId;
      });
      const [thread] = await threadsOf(db, ticketId, { forAgent: false, threadId });
      return ok(reply).send(thread);
    });

    customerRoute('PUT', DESK_PATHS.ticket, async (actor, request, reply) => {
      const ticketId = idParam(request, 'id');
      const input = bodyOf(TicketUpdateSchema, request.body);
      const row = await db.transaction(async (tx) => {
        if (input.action === 'read') return customerRead(tx, actor, ticketId, now());
        if (input.action === 'close') {
          const closed = await customerClose(tx, actor, ticketId, now());
          await audit(tx, actor, 'deskTicketClose', { ticketId });
          return closed;
        }
        const { ticket, threadId } = await customerReply(tx, actor, ticketId, { content: input.content, uploads: input.uploads, move: 'reopen' }, now());
        await audit(tx, actor, 'deskTicketReopen', { ticketId, threadId });
        return ticket;
      });
      return ok(reply).send(ticketToWire(row, await publicThreadCountOf(db, row.id), now()));
    });
  });
}

const ConversationQuerySchema = v.object({
  from: v.optional(v.pipe(v.string(), v.transform(Number), v.integer(VfCode.notInteger), v.minValue(1, VfCode.tooSmall))),
  limit: v.optional(v.pipe(v.string(), v.transform(Number), v.integer(VfCode.notInteger), v.minValue(1, VfCode.tooSmall), v.maxValue(CONVERSATION_LIMIT, VfCode.tooLarge))),
});
