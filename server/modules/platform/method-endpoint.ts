/**
 * The named-method endpoint `POST /api/v1/?{methodName}` (document 1 §7): JSON, or (methods
 * whose contract takes files only) multipart with the JSON in a `data` part. Order: method lookup
 * (IM) -> authentication (401 AU) -> admin check (13) -> multipart refused unread for a method
 * without files (415 VF) -> acting-customer rights from the Customer-Id header (api/rights.ts:
 * ENOA, 13) -> the body read (file parts streamed to disk under the caps of uploads.ts) -> the
 * same rights check for fromCustomerId -> body validation (VF, every bad field) -> one transaction
 * with the handler, the response check and, for a mutation, the audit entry.
 *
 * Money-moving methods (api/transfers.ts IDEMPOTENT_METHODS) need an Idempotency-Key header.
 * Inside the call's transaction the key is claimed first (user, key): a key already stored with
 * the same method and body hash answers the stored answer and changes nothing; with another
 * method or body it is refused (VF on the header). Otherwise the handler runs and its answer is
 * stored with the key in the same transaction, so the key exists exactly when the call's effects
 * do. A concurrent duplicate waits on the claimed key and then finds the stored answer. Failure
 * answers (MethodFailure) are not stored: nothing changed, and a retry is evaluated afresh.
 *
 * A mutation's transaction is re-run, at most MAX_TRANSACTION_ATTEMPTS times in all with a small
 * random backoff, when PostgreSQL aborts it for a unique violation (23505: a concurrent duplicate
 * won a race), a serialization failure (40001) or a deadlock (40P01); its audit details and push
 * events are collected afresh on each attempt.
 */
import { VfCode, vf, type CodedValidationError } from '../../../api/errors.ts';
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import * as v from 'valibot';
import { issuesToValidationErrors, ResponseCode, type Failure } from '../../../api/envelope.ts';
import { API_VERSION_PATH, CUSTOMER_ID_HEADER } from '../../../api/http.ts';
import { DOCUMENT_MAX_BYTES } from '../../../api/documents.ts';
import { isIdText, MAX_ID, METHOD_MISMATCH, REPRESENTATIVE_SECRET_METHODS, type MethodDef } from '../../../api/method.ts';
import { parseMethodRequest } from '../../../api/input-checks.ts';
import { isMethodName, methods, type MethodName } from '../../../api/registry.ts';
import { methodRights, rightAllows, RightsMessages, type ActingAccess } from '../../../api/rights.ts';
import { AccessRight } from '../../../api/customer.ts';
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENCY_KEY_PATTERN, IDEMPOTENT_METHODS } from '../../../api/transfers.ts';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/types.ts';
import { executeNamed } from '../../db/prepared.ts';
import { customerAccess } from '../customers/customers.tables.ts';
import type { UiLanguage } from '../dictionaries/dictionaries.tables.ts';
import { MethodFailure, type AuthenticatedRepresentative, type Caller, type MethodContext, type MethodHandler } from '../method-types.ts';
import { authenticateRepresentative } from '../business/representative-link.ts';
import type { PushMessage, PushPublisher } from '../push/publisher.ts';
import { RestrictionMessages, type TokenService } from '../auth/tokens.service.ts';
import { auditLog } from './platform.tables.ts';
import { idempotencyKeys } from '../transfers/transfers.tables.ts';
import { safeError } from './log.ts';
import { isConnectionError, replyUnavailable } from '../../db/outage.ts';
import { bearerToken } from './bearer.ts';
import {
  createUploadBudget,
  createUploadDir,
  DEFAULT_UPLOAD_LIMITS,
  loadFiles,
  readMultipart,
  releaseUploads,
  UPLOAD_RETRY_AFTER_S,
  UploadMessages,
  UploadRefused,
  type HeldUploads,
  type MultipartOptions,
  type StoredFile,
  type UploadLimits,
} from './uploads.ts';
import { rm } from 'node:fs/promises';

/** Attempts of one mutation's transaction (the first included) before its failure is answered. */
export const MAX_TRANSACTION_ATTEMPTS = 3;
/** PostgreSQL codes that abort a transaction which a re-run may well complete. */
const RETRYABLE_CODES: ReadonlySet<string> = new Set(['23505', '40001', '40P01']);


/**
 * A failure whose changes are kept: the transaction commits what the handler wrote before
 * throwing it (a wrong approval code counted, a transfer voided because it expired or had too
 * many wrong codes), then the failure is answered. Like any failure, it is not stored under an
 * idempotency key.
 */
export class KeptFailure extends MethodFailure {}

/**
 * A money-moving method may answer in ONE statement, without this endpoint's BEGIN/COMMIT (the
 * ledger's hot path, transfers.service.ts requestNow): given the key's claim, it claims the key,
 * does its work, writes the audit entry and stores its answer itself, all or nothing, and returns
 * what it did; or it returns null having written nothing, and the transactional path runs. Set as
 * the `oneStatement` property of the method's handler; re-run like a transaction (23505, 40001, 40P01).
 */
export type OneStatement<I = never> = (
  input: I,
  ctx: MethodContext,
  claim: { userId: number; key: string; requestHash: string; method: string },
) => Promise<{ replay: boolean; full: { responseCode: '00' } & Record<string, unknown> } | null>;

/** The PostgreSQL error code of an error, looking through drizzle's wrapper (DrizzleQueryError.cause). */
export function pgErrorCode(err: unknown): string | undefined {
  for (let e: unknown = err, depth = 0; e && typeof e === 'object' && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return undefined;
}

/** JSON with object keys sorted at every level: the same body always hashes alike. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * The largest file part: the document cap (api/documents.ts), so the endpoint and the document
 * service refuse the same files with the same answer (VF naming the file's field).
 */
export const MULTIPART_FILE_LIMIT_BYTES = DOCUMENT_MAX_BYTES;
export const MULTIPART_MAX_FILES = 10;
/** The VF of a file part over MULTIPART_FILE_LIMIT_BYTES (sizes in steps of 1000, document 1 §9). */
const fileTooLarge = (param: string) => vf(param, VfCode.fileTooLarge, { maxMb: MULTIPART_FILE_LIMIT_BYTES / 1_000_000 });
/** The JSON of the `data` part obeys the JSON body limit. */
export const JSON_BODY_LIMIT_BYTES = 1024 * 1024;

/** A Customer-Id header's value: a positive id of at most 10 digits. */
const CUSTOMER_ID_PATTERN = /^[1-9]\d{0,9}$/;

const UI_LANGUAGES: readonly UiLanguage[] = ['en', 'es', 'pt', 'ro', 'ru', 'uk'];

/**
 * The named methods a restricted session (Caller.restriction: recovery-code sign-in or strict
 * push migration) may call: enough to show who is signed in, in their language, with the terms.
 */
export const RESTRICTED_SESSION_METHODS: ReadonlySet<string> = new Set([
  'getCustomerInfo',
  'customerLanguageUpdate',
  'termsList',
  'termsAccept',
]);

export interface MethodEndpointOptions {
  db: Db;
  tokens: TokenService;
  publisher: PushPublisher;
  handlers: Record<string, MethodHandler<MethodDef>>;
  /** check every answer against the response schema (development and tests) */
  validateResponses: boolean;
  /** caps on the file bytes of multipart calls (uploads.ts); DEFAULT_UPLOAD_LIMITS when omitted */
  uploads?: UploadLimits;
  /** where file parts are written (a folder of its own under the OS tmpdir when omitted, removed on close) */
  uploadDir?: string;
  /** the clock in ms (a representative link's expiry); Date.now when omitted */
  now?: () => number;
}

/** The bearer parser moved to bearer.ts (one for every entry point); re-exported for its importers. */
export { bearerToken } from './bearer.ts';

/**
 * How the caller acts for a customer: 'own' (their own customer), as an administrator, or with the
 * rights of their customer_access row (0 when there is none): one query, read once per call.
 */
export async function actingAccess(db: Db, caller: Caller, customerId: number): Promise<'own' | ActingAccess> {
  if (customerId === caller.customerId) return 'own';
  if (caller.isAdmin) return { kind: 'admin' };
  // Beyond the id column's range no customer exists (and the query would fail).
  if (!Number.isSafeInteger(customerId) || customerId < 1 || customerId > 2_147_483_647) return { kind: 'user', rights: 0 };
  const [row] = await db
    .select({ rights: customerAccess.accessRights })
    .from(customerAccess)
    .where(and(eq(customerAccess.userId, caller.userId), eq(customerAccess.customerId, customerId)))
    .limit(1);
  return { kind: 'user', rights: row?.rights ?? 0 };
}

/** May this caller act for that customer at all? Its own, an administrator, or a customer_access row with rights > 0. */
export async function mayActFor(db: Db, caller: Caller, customerId: number): Promise<boolean> {
  const access = await actingAccess(db, caller, customerId);
  return access === 'own' || access.kind === 'admin' || access.rights > 0;
}

/**
 * The failure for a call of `name` acting for `customerId`, by the rights table (api/rights.ts),
 * or null when allowed. Runs before the body is validated and before the handler.
 */
async function actingRefusal(db: Db, caller: Caller, name: MethodName, customerId: number): Promise<Failure | null> {
  const access = await actingAccess(db, caller, customerId);
  if (access === 'own') return null;
  const required = methodRights[name];
  const verdict = rightAllows(required, access);
  if (verdict === 'allowed') return null;
  if (verdict === 'ENOA') return { responseCode: ResponseCode.noAccess, responseDescription: RightsMessages.noAccess };
  const description =
    access.kind === 'admin' ? RightsMessages.adminNoMoney : access.rights === AccessRight.read ? RightsMessages.readOnly : RightsMessages.tooLow;
  return { responseCode: ResponseCode.accessDenied, responseDescription: description };
}

function languageOf(request: FastifyRequest, bodyLang: string | undefined): UiLanguage {
  const fromBody = bodyLang === 'ua' ? 'uk' : bodyLang;
  if (fromBody && (UI_LANGUAGES as readonly string[]).includes(fromBody)) return fromBody as UiLanguage;
  const header = request.headers['accept-language'];
  if (typeof header === 'string') {
    for (const part of header.split(',').slice(0, 10)) {
      const tag = part.split(';')[0]!.trim().toLowerCase().slice(0, 2);
      const lang = tag === 'ua' ? 'uk' : tag;
      if ((UI_LANGUAGES as readonly string[]).includes(lang)) return lang as UiLanguage;
    }
  }
  return 'en';
}

function methodNameOf(request: FastifyRequest): string {
  const url = request.raw.url ?? '';
  const query = url.includes('?') ? url.slice(url.indexOf('?') + 1) : '';
  // `/?getCustomerInfo` or `/?getCustomerInfo&x=1`: the name is the first bare query item.
  const first = query.split('&')[0] ?? '';
  try {
    return decodeURIComponent(first).slice(0, 100);
  } catch {
    return '';
  }
}

function fail(reply: FastifyReply, failure: Failure, statusCode = 200) {
  return reply.code(statusCode).send(failure);
}

/**
 * The call's body: JSON as Fastify parsed it, or (methods whose contract takes files only, checked
 * by the caller) multipart with the JSON in its `data` part and the files streamed to disk.
 */
async function readBody(
  request: FastifyRequest,
  multipart: Omit<MultipartOptions, 'fileMaxBytes' | 'maxFiles' | 'fieldMaxBytes'>,
): Promise<{ body: unknown; files: StoredFile[] } | { errors: CodedValidationError[] }> {
  if (!request.isMultipart()) return { body: request.body ?? {}, files: [] };
  const { data, files, errors } = await readMultipart(request, {
    ...multipart,
    fileMaxBytes: MULTIPART_FILE_LIMIT_BYTES,
    maxFiles: MULTIPART_MAX_FILES,
    fieldMaxBytes: JSON_BODY_LIMIT_BYTES,
  });
  if (errors.length > 0) return { errors };
  if (data === undefined) return { body: {}, files };
  try {
    return { body: JSON.parse(data) as unknown, files };
  } catch {
    return { errors: [vf('data', VfCode.notJson)] };
  }
}

export async function methodEndpoint(app: FastifyInstance, options: MethodEndpointOptions): Promise<void> {
  const { db, tokens, publisher, handlers, validateResponses } = options;
  const now = options.now ?? Date.now;
  const uploadLimits = options.uploads ?? DEFAULT_UPLOAD_LIMITS;
  const uploadBudget = createUploadBudget(uploadLimits.inFlightMaxBytes);
  const uploadDir = options.uploadDir ?? (await createUploadDir());
  if (!options.uploadDir) app.addHook('onClose', async () => rm(uploadDir, { recursive: true, force: true }));

  /** Each call's temporary files and reserved bytes. */
  const heldBy = new WeakMap<FastifyRequest, HeldUploads>();
  // Released before the answer goes out (so a client that has its answer finds the files gone),
  // and again in the handler's finally for a call that ends without one.
  // Both wait for the same deletion: the first starts it.
  const releasing = new WeakMap<FastifyRequest, Promise<void>>();
  const release = (request: FastifyRequest): Promise<void> => {
    const held = heldBy.get(request);
    let done = releasing.get(request);
    if (!held || (!done && held.paths.length === 0 && held.bytes === 0)) return Promise.resolve();
    if (!done) {
      done = releaseUploads(held, uploadBudget);
      releasing.set(request, done);
    }
    return done;
  };

  // Synchronous unless the call holds uploads (no promise per answer on the hot path).
  const onSend = (request: FastifyRequest, _reply: FastifyReply, payload: unknown, done: (err: Error | null, payload?: unknown) => void) => {
    const held = heldBy.get(request);
    if (!releasing.has(request) && (!held || (held.paths.length === 0 && held.bytes === 0))) return done(null, payload);
    release(request).then(() => done(null, payload), done);
  };
  app.post(`${API_VERSION_PATH}/`, { onSend }, async (request, reply) => {
    const held: HeldUploads = { paths: [], bytes: 0 };
    heldBy.set(request, held);
    try {
      return await handleCall(request, reply, held);
    } catch (err) {
      if (!(err instanceof UploadRefused)) throw err;
      // The rest of the body is left unread: the connection closes after the answer.
      reply.header('connection', 'close');
      if (err.cap === 'process') {
        return reply.code(503).header('retry-after', String(UPLOAD_RETRY_AFTER_S)).send({ responseCode: ResponseCode.unknown, responseDescription: UploadMessages.busy });
      }
      return fail(reply, {
        responseCode: ResponseCode.validation,
        responseDescription: 'Invalid request',
        validationErrors: [vf('files', VfCode.requestTooLarge, { maxMb: Math.floor(uploadLimits.requestMaxBytes / 1_000_000) })],
      });
    } finally {
      await release(request);
    }
  });

  async function handleCall(request: FastifyRequest, reply: FastifyReply, held: HeldUploads) {
    const name = methodNameOf(request);
    if (!isMethodName(name) || !Object.hasOwn(handlers, name)) {
      return fail(reply, { responseCode: ResponseCode.invalidMethod, responseDescription: 'Unknown method' });
    }
    const def: MethodDef = methods[name];
    const handler = handlers[name]!;

    const token = bearerToken(request);
    const caller = token ? await tokens.authenticate(token) : null;
    if (def.access !== 'public' && !caller) {
      return fail(reply, { responseCode: ResponseCode.auth, responseDescription: 'Sign-in required' }, 401);
    }
    if (def.access === 'admin' && !caller?.isAdmin) {
      return fail(reply, { responseCode: ResponseCode.accessDenied, responseDescription: 'Administrators only' });
    }
    // Public methods answer anyone, so a restricted token gains nothing there.
    if (def.access !== 'public' && caller?.restriction && !RESTRICTED_SESSION_METHODS.has(name)) {
      return fail(reply, { responseCode: ResponseCode.accessDenied, responseDescription: RestrictionMessages[caller.restriction] });
    }

    // Multipart only for methods whose contract takes files, and only once the caller is known
    // (the checks above): anything else is answered without reading the body.
    if (request.isMultipart() && !def.files) {
      reply.header('connection', 'close');
      return fail(
        reply,
        { responseCode: ResponseCode.validation, responseDescription: 'This method takes no files', validationErrors: [vf('Content-Type', VfCode.notJsonBody)] },
        415,
      );
    }

    // Acting for another customer: the rights table (api/rights.ts) decides before the body is read
    // (the Customer-Id header) or validated (fromCustomerId), so a refused call never reaches the handler.
    const headerCustomer = request.headers[CUSTOMER_ID_HEADER.toLowerCase()];
    // A customer id past MAX_ID is no id (parseMethodRequest answers VF on it); never looked up.
    const headerCustomerId = typeof headerCustomer === 'string' && CUSTOMER_ID_PATTERN.test(headerCustomer) && isIdText(headerCustomer) ? Number(headerCustomer) : undefined;
    if (caller && headerCustomerId !== undefined) {
      const refusal = await actingRefusal(db, caller, name, headerCustomerId);
      if (refusal) return fail(reply, refusal);
    }

    const read = await readBody(request, { dir: uploadDir, limits: uploadLimits, budget: uploadBudget, held });
    if ('errors' in read) {
      return fail(reply, { responseCode: ResponseCode.validation, responseDescription: 'Invalid request', validationErrors: read.errors });
    }
    const bodyCustomerId = (read.body as { fromCustomerId?: unknown } | null)?.fromCustomerId;
    if (caller && typeof bodyCustomerId === 'number' && Number.isInteger(bodyCustomerId) && bodyCustomerId >= 1 && bodyCustomerId <= MAX_ID && bodyCustomerId !== headerCustomerId) {
      const refusal = await actingRefusal(db, caller, name, bodyCustomerId);
      if (refusal) return fail(reply, refusal);
    }
    const parsed = parseMethodRequest(def.request, read.body, request.headers);
    const headerErrors: CodedValidationError[] =
      headerCustomer !== undefined && !(typeof headerCustomer === 'string' && CUSTOMER_ID_PATTERN.test(headerCustomer))
        ? [vf(CUSTOMER_ID_HEADER, VfCode.notCustomerId)]
        : [];
    const idempotent = IDEMPOTENT_METHODS.has(name);
    const idempotencyHeader = request.headers[IDEMPOTENCY_KEY_HEADER.toLowerCase()];
    if (idempotent) {
      if (idempotencyHeader === undefined) headerErrors.push(vf(IDEMPOTENCY_KEY_HEADER, VfCode.idempotencyKeyRequired));
      else if (typeof idempotencyHeader !== 'string' || !IDEMPOTENCY_KEY_PATTERN.test(idempotencyHeader)) {
        headerErrors.push(vf(IDEMPOTENCY_KEY_HEADER, VfCode.idempotencyKeyMalformed));
      }
    }
    // Document 1 §7: the body repeats the method's name; another name is a request for something else.
    const bodyErrors: CodedValidationError[] = [];
    const body = read.body as Record<string, unknown> | null;
    if (body && typeof body === 'object') {
      if (typeof body.method === 'string' && body.method !== name) bodyErrors.push(vf('method', VfCode.methodMismatch));
      // fromEmail/authSecret belong to the representative's methods only, and go together.
      if (!REPRESENTATIVE_SECRET_METHODS.has(name)) {
        for (const param of ['fromEmail', 'authSecret'] as const) {
          if (body[param] !== undefined) bodyErrors.push(vf(param, VfCode.fieldNotTaken));
        }
      } else if ((body.fromEmail === undefined) !== (body.authSecret === undefined)) {
        bodyErrors.push(vf(body.fromEmail === undefined ? 'fromEmail' : 'authSecret', VfCode.required));
      }
    }
    headerErrors.unshift(...bodyErrors);
    if (!parsed.success || headerErrors.length > 0) {
      return fail(reply, {
        responseCode: ResponseCode.validation,
        responseDescription: 'Invalid request',
        validationErrors: [...(parsed.success ? [] : issuesToValidationErrors(parsed.issues)), ...headerErrors],
      });
    }
    const input = parsed.output as Record<string, unknown> & { fromCustomerId?: number; lang?: string; fromEmail?: string; authSecret?: string };

    // The representative's link (api/business-declarations.ts): the pair authenticates that
    // representative for this call only; any failure is one 401 (representative-link.ts).
    let representative: AuthenticatedRepresentative | undefined;
    if (REPRESENTATIVE_SECRET_METHODS.has(name) && typeof input.fromEmail === 'string' && typeof input.authSecret === 'string') {
      const found = await authenticateRepresentative(db, { fromEmail: input.fromEmail, authSecret: input.authSecret }, now());
      if (!found) return fail(reply, { responseCode: ResponseCode.auth, responseDescription: 'The representative link is not valid' }, 401);
      representative = found;
    }

    let customerId: number | null = caller?.customerId ?? null;
    const requested = input.fromCustomerId ?? (typeof headerCustomer === 'string' ? Number(headerCustomer) : undefined);
    if (caller && requested !== undefined) {
      // Checked above against the rights table (the header before the body, fromCustomerId after
      // it); checked here if neither check saw this id, so no acting customer goes unchecked.
      if (requested !== headerCustomerId && requested !== bodyCustomerId) {
        const refusal = await actingRefusal(db, caller, name, requested);
        if (refusal) return fail(reply, refusal);
      }
      customerId = requested;
    }
    // A representative's call acts for their company, whoever else is signed in.
    if (representative) customerId = representative.companyId;

    let auditDetails: Record<string, unknown> = {};
    let toPublish: { customerId: number; event: PushMessage }[] = [];
    // The files are read into memory only now: the caller, its rights and the body are checked.
    const files = read.files.length > 0 ? await loadFiles(read.files) : [];
    // The idempotency key is the caller's: the same key of two users are two keys.
    const idempotency =
      idempotent && caller && typeof idempotencyHeader === 'string'
        ? {
            userId: caller.userId,
            key: idempotencyHeader,
            // What makes a request "the same": the method, the acting customer, the validated body
            // and the files' contents (an upload: the same key with another file is another request).
            requestHash: createHash('sha256')
              .update(
                canonicalJson({
                  method: name,
                  customerId,
                  body: { ...input, lang: undefined, method: undefined },
                  ...(files.length > 0 ? { files: files.map((f) => [f.fieldName, createHash('sha256').update(f.content).digest('hex')]) } : {}),
                }),
              )
              .digest('hex'),
          }
        : null;
    /** A failure to answer after the transaction committed its changes (KeptFailure). */
    let kept: KeptFailure | null = null;
    const contextOf = (handle: Db): MethodContext => ({
      db: handle,
      caller,
      customerId,
      lang: languageOf(request, input.lang),
      audit: (details) => Object.assign(auditDetails, details),
      publish: (target, event) => toPublish.push({ customerId: target, event }),
      files,
      ip: request.ip,
      representative,
    });
    const oneStatement = (handler as { oneStatement?: OneStatement }).oneStatement;
    try {
      const run = async (tx: Db) => {
        if (idempotency) {
          // Claim the key first: a concurrent duplicate waits here until this transaction ends.
          const claimed = (
            (await executeNamed(tx, sql`
              insert into idempotency_keys (user_id, key, method, request_hash, response)
              values (${idempotency.userId}::integer, ${idempotency.key}, ${name}, ${idempotency.requestHash}, '{}'::jsonb)
              on conflict do nothing
              returning key`)) as { rows: unknown[] }
          ).rows;
          if (claimed.length === 0) {
            const [stored] = await tx
              .select()
              .from(idempotencyKeys)
              .where(and(eq(idempotencyKeys.userId, idempotency.userId), eq(idempotencyKeys.key, idempotency.key)));
            if (!stored) throw new RetryableRace();
            if (stored.method !== name || stored.requestHash !== idempotency.requestHash) {
              throw new MethodFailure(ResponseCode.validation, 'Invalid request', [vf(IDEMPOTENCY_KEY_HEADER, VfCode.idempotencyKeyReused)]);
            }
            return { replay: true as const, full: stored.response as { responseCode: '00' } & Record<string, unknown> };
          }
        }
        const ctx = contextOf(tx);
        let result: Awaited<ReturnType<typeof handler>>;
        try {
          result = await handler(input as never, ctx);
        } catch (err) {
          if (!(err instanceof KeptFailure)) throw err;
          // Commit what the handler wrote (the audit entry says what failed), answer the failure after.
          kept = err;
          if (def.mutation) {
            await tx.insert(auditLog).values({ userId: caller?.userId ?? null, customerId, method: name, details: { ...auditDetails, failed: err.responseCode } });
          }
          if (idempotency) {
            await tx.delete(idempotencyKeys).where(and(eq(idempotencyKeys.userId, idempotency.userId), eq(idempotencyKeys.key, idempotency.key)));
          }
          return { replay: false as const, full: null };
        }
        const full = { responseCode: ResponseCode.success, ...result };
        if (validateResponses) {
          const check = v.safeParse(def.response, full, { abortEarly: false });
          if (!check.success) {
            request.log.error({ method: name, issues: issuesToValidationErrors(check.issues) }, 'handler answer does not match the response schema');
            throw new ResponseMismatch();
          }
        }
        if (idempotency) {
          // The audit entry and the stored answer in one statement (one round trip on the hot path).
          await executeNamed(tx, sql`
            with audit as (
              insert into audit_log (user_id, customer_id, method, details)
              values (${caller?.userId ?? null}, ${customerId}, ${name}, ${JSON.stringify(auditDetails)}::jsonb)
            )
            update idempotency_keys set response = ${JSON.stringify(full)}::jsonb
            where user_id = ${idempotency.userId} and key = ${idempotency.key}`);
        } else if (def.mutation) {
          await tx.insert(auditLog).values({ userId: caller?.userId ?? null, customerId, method: name, details: auditDetails });
        }
        return { replay: false as const, full };
      };
      // One transaction per mutation (with its audit entry); reads run outside one (see MethodContext.db).
      let outcome: Awaited<ReturnType<typeof run>>;
      if (!def.mutation) {
        outcome = await run(db);
      } else {
        for (let attempt = 1; ; attempt++) {
          auditDetails = {};
          toPublish = [];
          kept = null;
          try {
            const direct = oneStatement && idempotency ? await oneStatement(input as never, contextOf(db), { ...idempotency, method: name }) : null;
            if (direct) {
              if (validateResponses && !direct.replay && !v.safeParse(def.response, direct.full, { abortEarly: false }).success) {
                request.log.error({ method: name }, 'one-statement answer does not match the response schema (committed)');
                throw new ResponseMismatch();
              }
              outcome = direct;
              break;
            }
            outcome = await db.transaction(async (tx) => {
              const done = await run(tx);
              // PostgreSQL writes the events with the change (push outbox): nothing to publish after it.
              if (!done.replay && toPublish.length > 0 && (await publisher.stage?.(tx, toPublish))) toPublish = [];
              return done;
            });
            break;
          } catch (err) {
            const retryable = err instanceof RetryableRace || RETRYABLE_CODES.has(pgErrorCode(err) ?? '');
            if (!retryable || attempt >= MAX_TRANSACTION_ATTEMPTS) throw err;
            request.log.info({ method: name, attempt, code: pgErrorCode(err) ?? 'race' }, 'transaction re-run');
            await sleep(5 + Math.floor(Math.random() * 20 * attempt));
          }
        }
      }
      if (!outcome.replay) {
        for (const p of toPublish) {
          publisher.publish(p.customerId, p.event).catch((err: unknown) => request.log.error({ error: safeError(err), method: name }, 'push publish failed'));
        }
      }
      if (kept) throw kept;
      return reply.code(200).send(outcome.full);
    } catch (err) {
      if (err instanceof MethodFailure) {
        const failure: Failure = { responseCode: err.responseCode, responseDescription: err.responseDescription };
        if (err.validationErrors) failure.validationErrors = err.validationErrors;
        if (err.terms) failure.terms = err.terms;
        return fail(reply, failure, err.responseCode === ResponseCode.auth ? 401 : 200);
      }
      // The database is away: 503, Retry-After; the transaction rolled back (db/outage.ts).
      if (isConnectionError(err)) return replyUnavailable(reply);
      if (!(err instanceof ResponseMismatch)) request.log.error({ error: safeError(err), method: name }, 'method failed');
      return fail(reply, { responseCode: ResponseCode.unknown, responseDescription: 'Unknown error' });
    }
  }
}

class ResponseMismatch extends Error {}
/** The key was claimed by a transaction that then rolled back between our insert and our read: run again. */
class RetryableRace extends Error {}
