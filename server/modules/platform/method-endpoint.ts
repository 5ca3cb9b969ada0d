/**
 * The named-method endpoint `POST /api/v1/?{methodName}` (document 1 §7): JSON, or multipart
 * with the JSON in a `data` part. Order: method lookup (IM) -> authentication (401 AU) ->
 * admin check (13) -> body validation (VF, every bad field) -> acting-customer check (ENOA) ->
 * one transaction with the handler, the response check and, for a mutation, the audit entry.
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
import type { MethodDef } from '../../../api/method.ts';
import { isMethodName, methods } from '../../../api/registry.ts';
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENCY_KEY_PATTERN, IDEMPOTENT_METHODS } from '../../../api/transfers.ts';
import { and, eq, gt, sql } from 'drizzle-orm';
import type { Db } from '../../db/types.ts';
import { executeNamed } from '../../db/prepared.ts';
import { customerAccess } from '../customers/customers.tables.ts';
import type { UiLanguage } from '../dictionaries/dictionaries.tables.ts';
import { MethodFailure, type Caller, type MethodContext, type MethodHandler, type UploadedFile } from '../method-types.ts';
import type { PushMessage, PushPublisher } from '../push/publisher.ts';
import { RestrictionMessages, type TokenService } from '../auth/tokens.service.ts';
import { auditLog } from './platform.tables.ts';
import { idempotencyKeys } from '../transfers/transfers.tables.ts';
import { safeError } from './log.ts';

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
}

/** Reads the bearer token of a request. */
export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match ? match[1]! : null;
}

/** May this caller act for that customer? Its own, or a customer_access row with rights > 0. */
export async function mayActFor(db: Db, caller: Caller, customerId: number): Promise<boolean> {
  if (customerId === caller.customerId || caller.isAdmin) return true;
  const rows = await db
    .select({ id: customerAccess.id })
    .from(customerAccess)
    .where(and(eq(customerAccess.userId, caller.userId), eq(customerAccess.customerId, customerId), gt(customerAccess.accessRights, 0)))
    .limit(1);
  return rows.length > 0;
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

async function readBody(request: FastifyRequest): Promise<{ body: unknown; files: UploadedFile[] } | { errors: CodedValidationError[] }> {
  if (!request.isMultipart()) return { body: request.body ?? {}, files: [] };
  let data: string | undefined;
  const files: UploadedFile[] = [];
  const errors: CodedValidationError[] = [];
  // A file over the limit is cut short and its rest discarded (throwFileSizeLimit false): the
  // request is read to its end and answered VF naming the file's field, like the document checks.
  // (@fastify/multipart reads throwFileSizeLimit from these options; its typings leave it out.)
  const partOptions: Parameters<FastifyRequest['parts']>[0] & { throwFileSizeLimit: boolean } = {
    limits: { fileSize: MULTIPART_FILE_LIMIT_BYTES, files: MULTIPART_MAX_FILES, fieldSize: JSON_BODY_LIMIT_BYTES },
    throwFileSizeLimit: false,
  };
  const parts = request.parts(partOptions);
  try {
    for await (const part of parts) {
      if (part.type === 'file') {
        const content = await part.toBuffer();
        if (part.file.truncated) errors.push(fileTooLarge(part.fieldname));
        else files.push({ fieldName: part.fieldname, fileName: part.filename, mimeType: part.mimetype, content });
      } else if (part.fieldname === 'data') {
        data = String(part.value);
      }
    }
  } catch (err) {
    if ((err as { code?: unknown }).code !== 'FST_FILES_LIMIT') throw err;
    errors.push(vf('files', VfCode.tooManyFiles, { max: MULTIPART_MAX_FILES }));
  }
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

  app.post(`${API_VERSION_PATH}/`, async (request, reply) => {
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

    const read = await readBody(request);
    if ('errors' in read) {
      return fail(reply, { responseCode: ResponseCode.validation, responseDescription: 'Invalid request', validationErrors: read.errors });
    }
    const parsed = v.safeParse(def.request, read.body, { abortEarly: false });
    const headerCustomer = request.headers[CUSTOMER_ID_HEADER.toLowerCase()];
    const headerErrors: CodedValidationError[] =
      headerCustomer !== undefined && !(typeof headerCustomer === 'string' && /^[1-9]\d{0,9}$/.test(headerCustomer))
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
    if (!parsed.success || headerErrors.length > 0) {
      return fail(reply, {
        responseCode: ResponseCode.validation,
        responseDescription: 'Invalid request',
        validationErrors: [...(parsed.success ? [] : issuesToValidationErrors(parsed.issues)), ...headerErrors],
      });
    }
    const input = parsed.output as Record<string, unknown> & { fromCustomerId?: number; lang?: string };

    let customerId: number | null = caller?.customerId ?? null;
    const requested = input.fromCustomerId ?? (typeof headerCustomer === 'string' ? Number(headerCustomer) : undefined);
    if (caller && requested !== undefined) {
      if (!(await mayActFor(db, caller, requested))) {
        return fail(reply, { responseCode: ResponseCode.noAccess, responseDescription: 'No access to this customer' });
      }
      customerId = requested;
    }

    let auditDetails: Record<string, unknown> = {};
    let toPublish: { customerId: number; event: PushMessage }[] = [];
    // The idempotency key is the caller's: the same key of two users are two keys.
    const idempotency =
      idempotent && caller && typeof idempotencyHeader === 'string'
        ? {
            userId: caller.userId,
            key: idempotencyHeader,
            // What makes a request "the same": the method, the acting customer and the validated body.
            requestHash: createHash('sha256')
              .update(canonicalJson({ method: name, customerId, body: { ...input, lang: undefined } }))
              .digest('hex'),
          }
        : null;
    /** A failure to answer after the transaction committed its changes (KeptFailure). */
    let kept: KeptFailure | null = null;
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
        const ctx: MethodContext = {
          db: tx,
          caller,
          customerId,
          lang: languageOf(request, input.lang),
          audit: (details) => Object.assign(auditDetails, details),
          publish: (target, event) => toPublish.push({ customerId: target, event }),
          files: read.files,
          ip: request.ip,
        };
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
            outcome = await db.transaction((tx) => run(tx));
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
      if (!(err instanceof ResponseMismatch)) request.log.error({ error: safeError(err), method: name }, 'method failed');
      return fail(reply, { responseCode: ResponseCode.unknown, responseDescription: 'Unknown error' });
    }
  });
}

class ResponseMismatch extends Error {}
/** The key was claimed by a transaction that then rolled back between our insert and our read: run again. */
class RetryableRace extends Error {}
