/**
 * The contracts service of document 3 §7 over REST (api/contracts.ts CONTRACT_ROUTES, under
 * /api/v1), with the bearer token and the acting customer as the history downloads take them
 * (history.routes.ts): the caller's own customer, or the company in the Customer-Id header when
 * the caller may act for it.
 *
 * Rights (api/rights.ts levels): reading needs any access to the acting customer (an
 * administrator may read); every change (create, sign, cancel, reject, terminate*, the
 * identification) needs the acting customer to be the caller's own or a company the caller holds
 * full rights (2) to, as 'manage' does for a company's people: a contract binds the company. A
 * view-only user reads `actions: []` and gets 403 on a change; an administrator changes nothing.
 *
 * Answers: 200 `{ responseCode: '00', ... }`; 400 VF with each bad field; 401 without a valid
 * token; 403 `AU` for a company or an action the caller may not touch; 404 `ENOA` for an unknown
 * contract and for another customer's (nothing is revealed); 409 VF status notAllowed for an
 * action the contract's state does not allow now. Error bodies carry `message` (document 3 §7)
 * and the envelope's `responseDescription` alike.
 *
 * One transaction per call, the contract's row locked (SELECT ... FOR UPDATE) for every action;
 * what came due is applied first (contracts.service.ts advance); each change writes an audit entry
 * and notifies the other party; the pushes go out with the commit (the outbox on PostgreSQL).
 *
 * Decisions not shown in the spec:
 * - GET /company lists the customers the caller may create a contract for: their own customer (a
 *   person is a party like a company: customer lookup answers PERSONAL too) and every company
 *   they hold full rights to; forCounterpartyCustomerId leaves that customer out.
 * - GET /customer/lookup answers the active customer owning the e-mail: a company's own e-mail
 *   (its company details) first, then a user's login (the user's own customer: the company for
 *   its owner, the person otherwise), then a confirmed e-mail of a customer. It is rate limited
 *   per address (LOOKUP_RATE_PER_MINUTE) so it cannot be used to list who banks here.
 * - The PDF links (pdfUrl, generator_pdf's redirectLink) are `<audit id>.<random secret>`: the link
 *   is an audit entry of its own that keeps only the secret's SHA-256 and the expiry (5 minutes;
 *   a preview's entry also keeps the draft, so any instance renders it); the link works once (its
 *   download is an audit entry too, checked under a lock) and without the bearer token (a browser
 *   opens it in a new tab).
 * - identificationPush is the identity check's callback: the built-in check is the provider's
 *   review, so it is an administrator's call (the bearer token of an administrator); an external
 *   identity provider would call it through an administrator's service account.
 * - split-pay-signer-identification starts an identity-verification job for the payer (as POST
 *   /identity-verification does, same provider and table) and answers its page
 *   (/identity-verification/{workflowRunId}/{token} with the built-in provider).
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { and, eq, gte, inArray, sql } from 'drizzle-orm';
import * as v from 'valibot';
import {
  CONTRACT_PAGE_SIZE_DEFAULT,
  CONTRACT_PAGE_SIZE_MAX,
  CONTRACT_ROUTES,
  CONTRACT_STATUSES,
  ContractCreateSchema,
  ContractListQuerySchema,
  ContractVerifySchema,
  IdentificationPushBodySchema,
  TerminateBodySchema,
  contractActions,
  contractSide,
  percentageToBp,
  statusAfterSignatures,
  TERMINATION_NOTICE_DAYS,
  type Contract,
  type ContractAction,
  type ContractCreate,
  type ContractStatus,
} from '../../../api/contracts.ts';
import { AccessRight } from '../../../api/customer.ts';
import { issuesToValidationErrors } from '../../../api/envelope.ts';
import { vf, VfCode, type CodedValidationError } from '../../../api/errors.ts';
import { API_VERSION_PATH, CUSTOMER_ID_HEADER } from '../../../api/http.ts';
import { isIdText, MAX_ID } from '../../../api/method.ts';
import { activeVariant } from '../../../variants/index.ts';
import { identityProviderFromConfig, type IdentityVerificationProvider } from '../../adapters/identity-verification.ts';
import type { JobQueue } from '../../db/job-queue.ts';
import { isConnectionError, replyUnavailable } from '../../db/outage.ts';
import type { Db, Tx } from '../../db/types.ts';
import type { TokenService } from '../auth/tokens.service.ts';
import { randomToken, sha256Hex, timingSafeEqualText } from '../auth/crypto.ts';
import { businessCompanies } from '../business/business.tables.ts';
import { defaultSignatureAdapter } from '../esign/builtin.ts';
import { inlineDisposition } from '../esign/esign.routes.ts';
import type { SignatureAdapter } from '../esign/esign.ts';
import { customerAccess, customers, users } from '../customers/customers.tables.ts';
import { documentLanguage } from '../history/document-words.ts';
import type { Caller } from '../method-types.ts';
import type { PublishAfterCommit } from '../notifications/notify.ts';
import { bearerToken } from '../platform/bearer.ts';
import { safeError } from '../platform/log.ts';
import { actingAccess } from '../platform/method-endpoint.ts';
import { auditLog } from '../platform/platform.tables.ts';
import { customerEmails, identityJobs } from '../profile/profile.tables.ts';
import type { PushPublisher } from '../push/publisher.ts';
import { renderContractPdf } from './contract-pdf.ts';
import {
  DAY_MS,
  advance,
  advanceFor,
  auditContract,
  contractsOf,
  customerDisplayName,
  customerKind,
  factsOf,
  lockContract,
  metaOf,
  notifyBoth,
  notifyOther,
  openContractBetween,
  openSharesOf,
  partyNames,
  partyState,
  payerIdentified,
  serialise,
  type ContractRow,
} from './contracts.service.ts';
import { CONTRACT_PURPOSE, contractPdfData, setContractPublisher, signedPdfOf, startContractSigning } from './contracts.signing.ts';
import { contracts } from './contracts.tables.ts';
import { startContractWorker } from './contracts.worker.ts';

/** Lookups a minute per address (not shown in the spec): enough to type a few e-mails, too few to list customers. */
export const LOOKUP_RATE_PER_MINUTE = 20;
/** How long a PDF link works. */
export const PDF_LINK_TTL_MS = 5 * 60 * 1000;
/** The PDF download (our own path beside pdfUrl: the link it answers). */
export const contractPdfRoute = `${API_VERSION_PATH}/contract/:id/pdf`;

const PDF_LINK = /^([1-9][0-9]{0,14})\.([A-Za-z0-9_-]{43})$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export interface ContractRoutesOptions {
  db: Db;
  tokens: Pick<TokenService, 'authenticate'>;
  publisher: PushPublisher;
  now?: () => number;
  providerName?: string;
  /** the web app's public origin (the signing links) */
  publicUrl?: string;
  /** the e-signature adapter; the built-in one when omitted */
  signatureAdapter?: SignatureAdapter;
  identityProvider?: IdentityVerificationProvider;
  /** the platform's job queue: the periodic status job runs on it (none without) */
  jobQueue?: JobQueue | null;
}

class HttpAnswer extends Error {
  constructor(
    readonly statusCode: 400 | 401 | 403 | 404 | 409 | 410,
    readonly responseCode: string,
    message: string,
    readonly validationErrors?: CodedValidationError[],
  ) {
    super(message);
  }
}

const notFound = () => new HttpAnswer(404, 'ENOA', 'Contract not found');
const forbidden = (message = 'You may not do this for this customer') => new HttpAnswer(403, 'AU', message);
const notNow = () => new HttpAnswer(409, 'VF', 'The contract’s state does not allow this now', [vf('status', VfCode.notAllowed)]);
const invalid = (errors: CodedValidationError[]) => new HttpAnswer(400, 'VF', 'Invalid request', errors);

interface Acting {
  caller: Caller;
  customerId: number;
  /** the caller may change things for the customer (own, or full rights) */
  mayChange: boolean;
}

type LinkDetails = { ticketHash: string; expiresAt: number; contractId?: number; draft?: ContractCreate; lang?: string };

export async function contractRoutes(app: FastifyInstance, options: ContractRoutesOptions): Promise<void> {
  const { db, tokens, publisher } = options;
  const now = options.now ?? Date.now;
  const providerName = options.providerName ?? activeVariant.projectName;
  const adapter = options.signatureAdapter ?? defaultSignatureAdapter({ publicUrl: options.publicUrl ?? 'http://127.0.0.1:3000' });
  const identity = options.identityProvider ?? identityProviderFromConfig(process.env.IDENTITY_VERIFICATION_PROVIDER);
  setContractPublisher(publisher);

  const signedIn = async (request: FastifyRequest): Promise<Caller> => {
    const caller = await tokens.authenticate(bearerToken(request));
    if (!caller) throw new HttpAnswer(401, 'AU', 'Sign-in required');
    if (caller.restriction) throw forbidden('Not available in this session');
    return caller;
  };

  /** The caller and the customer it acts for (Customer-Id header), with whether it may change things for it. */
  const acting = async (request: FastifyRequest): Promise<Acting> => {
    const caller = await signedIn(request);
    const header = request.headers[CUSTOMER_ID_HEADER.toLowerCase()];
    if (header === undefined) return { caller, customerId: caller.customerId, mayChange: true };
    if (typeof header !== 'string' || !isIdText(header)) throw forbidden('No access to this customer');
    const customerId = Number(header);
    const access = await actingAccess(db, caller, customerId);
    if (access === 'own') return { caller, customerId, mayChange: true };
    if (access.kind === 'admin') return { caller, customerId, mayChange: false };
    if (access.rights <= AccessRight.none) throw forbidden('No access to this customer');
    return { caller, customerId, mayChange: access.rights === AccessRight.full };
  };

  const parse = <S extends v.GenericSchema>(schema: S, body: unknown): v.InferOutput<S> => {
    const r = v.safeParse(schema, body ?? {}, { abortEarly: false });
    if (!r.success) throw invalid(issuesToValidationErrors(r.issues));
    return r.output;
  };

  const idOf = (request: FastifyRequest, name = 'id'): number => {
    const text = (request.params as Record<string, string>)[name];
    if (typeof text !== 'string' || !isIdText(text)) throw notFound();
    return Number(text);
  };

  const handle = (run: (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply>) => async (request: FastifyRequest, reply: FastifyReply) => {
    try {
      return await run(request, reply);
    } catch (err) {
      if (err instanceof HttpAnswer) {
        return reply.code(err.statusCode).send({
          responseCode: err.responseCode,
          message: err.message,
          responseDescription: err.message,
          ...(err.validationErrors ? { validationErrors: err.validationErrors } : {}),
        });
      }
      if (isConnectionError(err)) return replyUnavailable(reply);
      request.log.error({ error: safeError(err) }, 'contracts call failed');
      return reply.code(500).send({ responseCode: 'UE', message: 'Unknown error', responseDescription: 'Unknown error' });
    }
  };

  /** One transaction; the notifications' pushes go with the commit (staged in it on PostgreSQL, else published after it). */
  const inTx = async <T>(run: (tx: Tx, publish: PublishAfterCommit) => Promise<T>): Promise<T> => {
    let events: { customerId: number; event: Record<string, unknown> & { type: string } }[] = [];
    const result = await db.transaction(async (tx) => {
      events = [];
      const out = await run(tx, (customerId, event) => events.push({ customerId, event }));
      if (events.length > 0 && (await publisher.stage?.(tx, events))) events = [];
      return out;
    });
    for (const e of events) publisher.publish(e.customerId, e.event).catch((err: unknown) => app.log.error({ error: safeError(err) }, 'contract push failed'));
    return result;
  };

  /** The contract locked, what is due applied; 404 unless the acting customer is a party. */
  const ours = async (tx: Tx, id: number, customerId: number, publish: PublishAfterCommit): Promise<ContractRow> => {
    const row = await lockContract(tx, id);
    if (!row || contractSide(row, customerId) === null) throw notFound();
    return advance(tx, row, now(), publish);
  };

  const one = async (tx: Tx, row: ContractRow, who: Acting): Promise<Contract> => (await serialise(tx, [row], who.customerId, who.mayChange))[0]!;

  // ------------------------------------------------------------------ reads

  app.get(
    CONTRACT_ROUTES.list,
    handle(async (request, reply) => {
      const who = await acting(request);
      const query = parse(ContractListQuerySchema, request.query);
      const statuses = query.statuses
        ?.split(',')
        .map((s) => s.trim())
        .filter((s) => s !== '');
      if (statuses?.some((s) => !(CONTRACT_STATUSES as readonly string[]).includes(s))) throw invalid([vf('statuses', VfCode.notAllowed)]);
      const page = query.page ?? 1;
      const pageSize = query.pageSize ?? CONTRACT_PAGE_SIZE_DEFAULT;
      const answer = await inTx(async (tx, publish) => {
        await advanceFor(tx, who.customerId, now(), publish);
        const rows = await contractsOf(tx, who.customerId);
        const meta = metaOf(rows, who.customerId);
        const all = await serialise(tx, rows, who.customerId, who.mayChange);
        const has = (text: string, part: string | undefined) => !part || text.toLocaleLowerCase().includes(part.trim().toLocaleLowerCase());
        const matching = all.filter(
          (c) =>
            (!statuses || statuses.length === 0 || statuses.includes(c.status)) &&
            has(c.company.title, query.companyName) &&
            has(c.direction === 'PAY' ? c.beneficiary.name : c.sender.name, query.counterpartyName),
        );
        const orderBy = query.orderBy ?? 'CREATED_AT';
        const dir = (query.orderDir ?? (orderBy === 'COMPANY_NAME' ? 'ASC' : 'DESC')) === 'ASC' ? 1 : -1;
        const byCreated = (a: Contract, b: Contract) => dir * (a.createdAt.localeCompare(b.createdAt) || a.id - b.id);
        matching.sort((a, b) => {
          if (orderBy === 'COMPANY_NAME') return dir * a.company.title.localeCompare(b.company.title) || b.id - a.id;
          // incoming (the acting customer receives) first whatever the direction of the dates
          if (orderBy === 'INCOMING_FIRST' && a.direction !== b.direction) return a.direction === 'RECEIVE' ? -1 : 1;
          return byCreated(a, b);
        });
        return { contracts: matching.slice((page - 1) * pageSize, page * pageSize), count: matching.length, meta };
      });
      return reply.code(200).send({ responseCode: '00', ...answer, page, pageSize });
    }),
  );

  app.get(
    CONTRACT_ROUTES.stats,
    handle(async (request, reply) => {
      const who = await acting(request);
      const meta = await inTx(async (tx, publish) => {
        await advanceFor(tx, who.customerId, now(), publish);
        return metaOf(await contractsOf(tx, who.customerId), who.customerId);
      });
      return reply.code(200).send({ responseCode: '00', meta });
    }),
  );

  app.get(
    CONTRACT_ROUTES.one,
    handle(async (request, reply) => {
      const who = await acting(request);
      const id = idOf(request);
      const contract = await inTx(async (tx, publish) => one(tx, await ours(tx, id, who.customerId, publish), who));
      return reply.code(200).send({ responseCode: '00', contract });
    }),
  );

  app.get(
    CONTRACT_ROUTES.checkSigner,
    handle(async (request, reply) => {
      const who = await acting(request);
      const id = idOf(request);
      const canSign = await inTx(async (tx, publish) => contractActions(factsOf(await ours(tx, id, who.customerId, publish)), who.customerId, who.mayChange).includes('sign'));
      return reply.code(200).send({ responseCode: '00', canSign });
    }),
  );

  // ------------------------------------------------------------------ create

  app.put(
    CONTRACT_ROUTES.list,
    handle(async (request, reply) => {
      const who = await acting(request);
      if (!who.mayChange) throw forbidden();
      const body = parse(ContractCreateSchema, request.body);
      if (body.companyId !== who.customerId) throw forbidden('A contract is created for the company you act for');
      const nowMs = now();
      const contract = await inTx(async (tx, publish) => {
        const errors: CodedValidationError[] = [];
        const otherField = body.senderId === who.customerId ? 'beneficiaryId' : 'senderId';
        const otherId = body.senderId === who.customerId ? body.beneficiaryId : body.senderId;
        if (body.senderId !== who.customerId && body.beneficiaryId !== who.customerId) errors.push(vf('companyId', VfCode.notAllowed));
        else if (body.senderId === body.beneficiaryId) errors.push(vf('beneficiaryId', VfCode.payeeSelf));
        else {
          const state = await partyState(tx, otherId);
          if (state === 'notFound') errors.push(vf(otherField, VfCode.notCustomer));
          else if (state === 'notActive') errors.push(vf(otherField, VfCode.accountClosed));
          else if (await openContractBetween(tx, body.senderId, body.beneficiaryId)) errors.push(vf('beneficiaryId', VfCode.duplicateEntry));
        }
        const from = Date.parse(`${body.activeFrom}T00:00:00Z`);
        const today = Date.parse(`${new Date(nowMs).toISOString().slice(0, 10)}T00:00:00Z`);
        if (!Number.isFinite(from) || new Date(from).toISOString().slice(0, 10) !== body.activeFrom) errors.push(vf('activeFrom', VfCode.notDate));
        else if (from < today) errors.push(vf('activeFrom', VfCode.notInPast));
        const bp = percentageToBp(body.percentage);
        const given = errors.some((e) => e.param === 'companyId' || e.param === 'beneficiaryId' || e.param === 'senderId') ? 0 : await openSharesOf(tx, body.senderId);
        // the payer's open contracts together never give away more than every payment
        if (given + bp > 10000) errors.push(vf('percentage', VfCode.tooLarge, { max: (10000 - given) / 100 }));
        if (errors.length > 0) throw invalid(errors);
        const at = new Date(nowMs);
        const [row] = await tx
          .insert(contracts)
          .values({
            companyId: body.companyId,
            initiatorId: who.customerId,
            createdByUserId: who.caller.userId,
            senderId: body.senderId,
            senderSignerName: body.senderSignerName,
            senderObligations: body.senderObligations,
            beneficiaryId: body.beneficiaryId,
            beneficiarySignerName: body.beneficiarySignerName,
            beneficiaryObligations: body.beneficiaryObligations,
            percentageBp: bp,
            note: body.note || null,
            status: 'UNSIGNED',
            identificationStatus: 'NEW',
            activeFrom: new Date(from),
            createdAt: at,
            updatedAt: at,
          })
          .returning();
        await auditContract(tx, who.caller.userId, who.customerId, 'contractCreate', {
          contractId: row!.id,
          senderId: body.senderId,
          beneficiaryId: body.beneficiaryId,
          percentageBp: bp,
        });
        await notifyOther(tx, publish, row!, who.customerId, 'contractCreated', nowMs);
        return one(tx, row!, who);
      });
      return reply.code(200).send({ responseCode: '00', contract });
    }),
  );

  app.post(
    CONTRACT_ROUTES.verify,
    handle(async (request, reply) => {
      const who = await acting(request);
      const body = parse(ContractVerifySchema, request.body);
      if (body.companyId !== who.customerId) throw forbidden('A contract is created for the company you act for');
      let reason: 'sameCustomer' | 'notFound' | 'notActive' | 'alreadyContracted' | undefined;
      if (body.companyId === body.counterpartyId) reason = 'sameCustomer';
      else {
        const state = await partyState(db, body.counterpartyId);
        if (state !== 'active') reason = state;
        // verify knows no direction: alreadyContracted when a new contract either way would be refused (PUT refuses a second open one in the same direction)
        else if ((await openContractBetween(db, body.companyId, body.counterpartyId)) && (await openContractBetween(db, body.counterpartyId, body.companyId)))
          reason = 'alreadyContracted';
      }
      return reply.code(200).send({ responseCode: '00', isValid: reason === undefined, ...(reason ? { reason } : {}) });
    }),
  );

  app.get(
    CONTRACT_ROUTES.customerLookup,
    { config: { rateLimit: { max: LOOKUP_RATE_PER_MINUTE, timeWindow: 60_000 } } },
    handle(async (request, reply) => {
      await acting(request);
      const raw = (request.query as { email?: unknown }).email;
      if (typeof raw !== 'string' || raw.trim() === '') throw invalid([vf('email', VfCode.required)]);
      const email = raw.trim().toLowerCase();
      if (email.length > 254 || !EMAIL.test(email)) throw invalid([vf('email', VfCode.notEmail)]);
      const candidates = [
        ...(await db
          .select({ id: businessCompanies.customerId })
          .from(businessCompanies)
          .where(sql`lower(${businessCompanies.email}) = ${email}`)),
        ...(await db
          .select({ id: users.customerId })
          .from(users)
          .where(and(eq(users.email, email), eq(users.disabled, false)))),
        ...(await db
          .select({ id: customerEmails.customerId })
          .from(customerEmails)
          .where(and(eq(customerEmails.emailAddress, email), eq(customerEmails.confirmed, true)))),
      ];
      for (const { id } of candidates) {
        if ((await partyState(db, id)) !== 'active') continue;
        const [c] = await db.select().from(customers).where(eq(customers.id, id));
        return reply.code(200).send({ responseCode: '00', id, type: customerKind(c!), name: customerDisplayName(c!) });
      }
      throw new HttpAnswer(404, 'ENOA', 'No customer with this e-mail');
    }),
  );

  app.get(
    CONTRACT_ROUTES.companies,
    handle(async (request, reply) => {
      const who = await acting(request);
      const q = request.query as Record<string, unknown>;
      const text = typeof q.query === 'string' ? q.query.trim().toLocaleLowerCase().slice(0, 256) : '';
      const excluded = typeof q.forCounterpartyCustomerId === 'string' && isIdText(q.forCounterpartyCustomerId) ? Number(q.forCounterpartyCustomerId) : null;
      const page = typeof q.page === 'string' && /^[1-9][0-9]{0,8}$/.test(q.page) ? Number(q.page) : 1;
      const pageSize = typeof q.pageSize === 'string' && /^[1-9][0-9]{0,3}$/.test(q.pageSize) ? Math.min(Number(q.pageSize), CONTRACT_PAGE_SIZE_MAX) : CONTRACT_PAGE_SIZE_DEFAULT;
      const full = await db
        .select({ id: customerAccess.customerId })
        .from(customerAccess)
        .where(and(eq(customerAccess.userId, who.caller.userId), eq(customerAccess.accessRights, AccessRight.full)));
      const ids = [who.caller.customerId, ...full.map((r) => r.id)];
      const rows = await db.select().from(customers).where(inArray(customers.id, ids));
      const companies = rows
        .filter((c) => c.id !== excluded && !c.isProvider)
        .map((c) => ({ id: c.id, title: customerDisplayName(c), logo: null }))
        .filter((c) => text === '' || c.title.toLocaleLowerCase().includes(text))
        .sort((a, b) => a.title.localeCompare(b.title) || a.id - b.id);
      return reply.code(200).send({ responseCode: '00', companies: companies.slice((page - 1) * pageSize, page * pageSize), count: companies.length });
    }),
  );

  // ------------------------------------------------------------------ actions

  const ACTION_NOTICE: Record<Exclude<ContractAction, 'sign'>, string> = {
    cancel: 'contractCancelled',
    reject: 'contractRejected',
    terminate: 'contractTerminating',
    // the other party's contract is in force again without an end date
    terminateCancel: 'contractActive',
    terminateNow: 'contractTerminated',
  };

  const action = (name: Exclude<ContractAction, 'sign'>, route: string) =>
    app.post(
      route,
      handle(async (request, reply) => {
        const who = await acting(request);
        const id = idOf(request);
        const note = name === 'terminate' ? parse(TerminateBodySchema, request.body).note : null;
        const contract = await inTx(async (tx, publish) => {
          const row = await ours(tx, id, who.customerId, publish);
          if (!who.mayChange) throw forbidden();
          if (!contractActions(factsOf(row), who.customerId).includes(name)) throw notNow();
          const nowMs = now();
          const at = new Date(nowMs);
          const set: Partial<ContractRow> =
            name === 'cancel'
              ? { status: 'CANCELLED', closedBy: who.customerId, closedAt: at }
              : name === 'reject'
                ? { status: 'REJECTED', closedBy: who.customerId, closedAt: at }
                : name === 'terminate'
                  ? {
                      status: 'TERMINATING',
                      terminatedBy: who.customerId,
                      terminateRequestedAt: at,
                      terminateNote: note,
                      activeTo: new Date(nowMs + TERMINATION_NOTICE_DAYS * DAY_MS),
                    }
                  : name === 'terminateCancel'
                    ? { status: 'ACTIVE', terminatedBy: null, terminateRequestedAt: null, terminateNote: null, activeTo: null }
                    : { status: 'TERMINATED', terminatedBy: who.customerId, terminatedAt: at, activeTo: at };
          const [next] = await tx
            .update(contracts)
            .set({ ...set, updatedAt: at })
            .where(eq(contracts.id, row.id))
            .returning();
          await auditContract(tx, who.caller.userId, who.customerId, `contract${name[0]!.toUpperCase()}${name.slice(1)}`, {
            contractId: row.id,
            from: row.status,
            to: next!.status,
          });
          await notifyOther(tx, publish, next!, who.customerId, ACTION_NOTICE[name], nowMs);
          return one(tx, next!, who);
        });
        return reply.code(200).send({ responseCode: '00', contract });
      }),
    );
  action('cancel', CONTRACT_ROUTES.cancel);
  action('reject', CONTRACT_ROUTES.reject);
  action('terminate', CONTRACT_ROUTES.terminate);
  action('terminateCancel', CONTRACT_ROUTES.terminateCancel);
  action('terminateNow', CONTRACT_ROUTES.terminateNow);

  // ------------------------------------------------------------------ signing

  app.get(
    CONTRACT_ROUTES.signUrl,
    handle(async (request, reply) => {
      const who = await acting(request);
      const id = idOf(request);
      const started = await inTx(async (tx, publish) => {
        const row = await ours(tx, id, who.customerId, publish);
        if (!contractActions(factsOf(row), who.customerId, who.mayChange).includes('sign')) throw forbidden('You cannot sign this contract');
        const [user] = await tx.select({ email: users.email }).from(users).where(eq(users.id, who.caller.userId));
        const side = contractSide(row, who.customerId)!;
        const signData = await startContractSigning(tx, { row, side, createdByUserId: who.caller.userId, signerEmail: user?.email ?? null, providerName, nowMs: now(), adapter });
        await auditContract(tx, who.caller.userId, who.customerId, 'contractSignStart', { contractId: row.id, side, clientId: signData.clientId, purpose: CONTRACT_PURPOSE });
        return signData;
      });
      return reply.code(200).send({ responseCode: '00', signUrl: started.signUrls[0], clientId: started.clientId });
    }),
  );

  // ------------------------------------------------------------------ the payer's identification

  app.post(
    CONTRACT_ROUTES.identificationStarted,
    handle(async (request, reply) => {
      const who = await acting(request);
      const id = idOf(request);
      const contract = await inTx(async (tx, publish) => {
        const row = await ours(tx, id, who.customerId, publish);
        if (!who.mayChange || row.senderId !== who.customerId) throw forbidden('Only the payer is identified');
        if (row.status !== 'NEED_IDENTIFICATION') throw notNow();
        const [next] = await tx
          .update(contracts)
          .set({ identificationStatus: 'PROCESSING', updatedAt: new Date(now()) })
          .where(eq(contracts.id, row.id))
          .returning();
        await auditContract(tx, who.caller.userId, who.customerId, 'contractIdentificationStarted', { contractId: row.id });
        return one(tx, next!, who);
      });
      return reply.code(200).send({ responseCode: '00', contract });
    }),
  );

  app.post(
    CONTRACT_ROUTES.signerIdentification,
    handle(async (request, reply) => {
      const who = await acting(request);
      const body = parse(
        v.object({ contractId: v.pipe(v.number(VfCode.wrongType), v.integer(VfCode.notInteger), v.minValue(1, VfCode.tooSmall), v.maxValue(MAX_ID, VfCode.tooLarge)) }),
        request.body,
      );
      const workflowRunId = randomUUID();
      const token = randomToken();
      const redirectUrl = await inTx(async (tx, publish) => {
        const row = await ours(tx, body.contractId, who.customerId, publish);
        if (!who.mayChange || row.senderId !== who.customerId) throw forbidden('Only the payer is identified');
        if (row.status !== 'NEED_IDENTIFICATION') throw notNow();
        const { url } = await identity.start({ workflowRunId, token, kind: 'identity' });
        const nowMs = now();
        // a newer job replaces the payer's pending one, as POST /identity-verification does
        await tx
          .update(identityJobs)
          .set({ status: 'expired' })
          .where(and(eq(identityJobs.customerId, row.senderId), eq(identityJobs.kind, 'identity'), eq(identityJobs.status, 'pending')));
        await tx.insert(identityJobs).values({
          workflowRunId,
          tokenHash: sha256Hex(token),
          customerId: row.senderId,
          kind: 'identity',
          provider: identity.name,
          channel: 'camera',
          createdByUserId: who.caller.userId,
          createdAt: new Date(nowMs),
          expiresAt: new Date(nowMs + DAY_MS),
        });
        await auditContract(tx, who.caller.userId, who.customerId, 'contractIdentificationJob', { contractId: row.id, workflowRunId, provider: identity.name });
        return url;
      });
      return reply.code(200).send({ responseCode: '00', redirectUrl });
    }),
  );

  // registered with the other routes' parameter name: one name per position of the router's tree
  // (two names there read as `:id|:contractId`); the path is the same
  app.post(
    CONTRACT_ROUTES.identificationPush.replace(':contractId', ':id'),
    handle(async (request, reply) => {
      const caller = await signedIn(request);
      if (!caller.isAdmin) throw forbidden('The identity check’s answer is an administrator’s call');
      const id = idOf(request);
      const body = parse(IdentificationPushBodySchema, request.body);
      await inTx(async (tx, publish) => {
        const locked = await lockContract(tx, id);
        if (!locked) throw notFound();
        const nowMs = now();
        const row = await advance(tx, locked, nowMs, publish);
        if (row.status !== 'NEED_IDENTIFICATION') throw notNow();
        const facts = factsOf(row);
        const status =
          body.status === 'SUCCESS'
            ? statusAfterSignatures({
                senderSigned: facts.senderSigned,
                beneficiarySigned: facts.beneficiarySigned,
                identification: 'SUCCESS',
                activeFromMs: row.activeFrom.getTime(),
                nowMs,
              })
            : 'NEED_IDENTIFICATION';
        const [next] = await tx
          .update(contracts)
          .set({ identificationStatus: body.status, status, updatedAt: new Date(nowMs) })
          .where(eq(contracts.id, row.id))
          .returning();
        await auditContract(tx, caller.userId, row.senderId, 'contractIdentificationPush', { contractId: row.id, identification: body.status, to: status });
        if (status === 'ACTIVE') await notifyBoth(tx, publish, next!, 'contractActive', nowMs);
      });
      return reply.code(200).send({ responseCode: '00' });
    }),
  );

  // ------------------------------------------------------------------ the PDF

  /** A link: an audit entry keeping the secret's hash and expiry; answers `<entry id>.<secret>`. */
  const link = async (tx: Tx, who: Acting, method: 'contractPdfLink' | 'contractPreviewLink', details: Omit<LinkDetails, 'ticketHash' | 'expiresAt'>): Promise<string> => {
    const secret = randomToken();
    const [entry] = await tx
      .insert(auditLog)
      .values({ userId: who.caller.userId, customerId: who.customerId, method, details: { ...details, ticketHash: sha256Hex(secret), expiresAt: now() + PDF_LINK_TTL_MS } })
      .returning({ id: auditLog.id });
    return `${entry!.id}.${secret}`;
  };

  /** The link's entry once: checked (secret, expiry, not used) and its use recorded, under a lock on the entry. */
  const useLink = async (tx: Tx, ticket: unknown, method: 'contractPdfLink' | 'contractPreviewLink'): Promise<{ customerId: number; details: LinkDetails }> => {
    const m = typeof ticket === 'string' ? PDF_LINK.exec(ticket) : null;
    if (!m) throw new HttpAnswer(404, 'ENOA', 'Unknown link');
    const entryId = Number(m[1]);
    await tx.execute(sql`select pg_advisory_xact_lock(19, ${entryId % 2_147_483_647}::int)`);
    const [entry] = await tx.select().from(auditLog).where(eq(auditLog.id, entryId));
    const details = entry?.details as LinkDetails | undefined;
    if (!entry || entry.method !== method || entry.customerId === null || !details || !timingSafeEqualText(details.ticketHash, sha256Hex(m[2]!)))
      throw new HttpAnswer(404, 'ENOA', 'Unknown link');
    if (details.expiresAt <= now()) throw new HttpAnswer(410, 'VF', 'This link has expired', [vf('ticket', VfCode.codeExpired)]);
    const [used] = await tx
      .select({ id: auditLog.id })
      .from(auditLog)
      .where(
        and(
          eq(auditLog.customerId, entry.customerId),
          gte(auditLog.at, entry.at),
          eq(auditLog.method, 'contractPdfDownload'),
          sql`${auditLog.details}->>'link' = ${String(entryId)}`,
        ),
      )
      .limit(1);
    if (used) throw new HttpAnswer(410, 'VF', 'This link was used already', [vf('ticket', VfCode.codeUsed)]);
    await tx.insert(auditLog).values({
      userId: entry.userId,
      customerId: entry.customerId,
      method: 'contractPdfDownload',
      details: { link: String(entryId), ...(details.contractId ? { contractId: details.contractId } : { preview: true }) },
    });
    return { customerId: entry.customerId, details };
  };

  const sendPdf = (reply: FastifyReply, pdf: Buffer, fileName: string) =>
    reply.code(200).header('Content-Type', 'application/pdf').header('Content-Disposition', inlineDisposition(fileName)).header('Cache-Control', 'no-store').send(pdf);

  app.get(
    CONTRACT_ROUTES.pdfUrl,
    handle(async (request, reply) => {
      const who = await acting(request);
      const id = idOf(request);
      const ticket = await inTx(async (tx, publish) => {
        const row = await ours(tx, id, who.customerId, publish);
        return link(tx, who, 'contractPdfLink', { contractId: row.id });
      });
      return reply.code(200).send({ responseCode: '00', pdfUrl: `${API_VERSION_PATH}/contract/${id}/pdf?ticket=${ticket}` });
    }),
  );

  // The signed contract once both have signed (the last signer's stamped PDF carries both
  // signatures: contracts.signing.ts), else the contract as it stands, unsigned.
  app.get(
    contractPdfRoute,
    { logLevel: 'warn' },
    handle(async (request, reply) => {
      const id = idOf(request);
      const { pdf, fileName } = await db.transaction(async (tx) => {
        const { details } = await useLink(tx, (request.query as { ticket?: unknown }).ticket, 'contractPdfLink');
        if (details.contractId !== id) throw new HttpAnswer(404, 'ENOA', 'Unknown link');
        const [row] = await tx.select().from(contracts).where(eq(contracts.id, id));
        if (!row) throw notFound();
        const data = await contractPdfData(tx, row, providerName);
        if (row.senderSignedAt && row.beneficiarySignedAt) {
          const last = row.senderSignedAt.getTime() > row.beneficiarySignedAt.getTime() ? row.senderSignedDocumentId : row.beneficiarySignedDocumentId;
          const signed = await signedPdfOf(tx, last);
          if (signed) return { pdf: signed, fileName: `revenue-split-contract-${row.id}-signed.pdf` };
        }
        const rendered = await renderContractPdf(data);
        return { pdf: rendered.pdf, fileName: rendered.fileName };
      });
      return sendPdf(reply, pdf, fileName);
    }),
  );

  app.post(
    CONTRACT_ROUTES.pdfGenerator,
    handle(async (request, reply) => {
      const who = await acting(request);
      if ((request.params as { name: string }).name !== 'contract') throw new HttpAnswer(404, 'ENOA', 'Unknown document');
      const draft = parse(ContractCreateSchema, request.body);
      const [me] = await db.select({ language: customers.language }).from(customers).where(eq(customers.id, who.customerId));
      const ticket = await db.transaction((tx) =>
        link(tx, who, 'contractPreviewLink', { draft, lang: documentLanguage(me?.language ?? 'en', request.headers['accept-language']) }),
      );
      return reply.code(200).send({ responseCode: '00', redirectLink: `${API_VERSION_PATH}/pdf/api/generator_pdf/contract?ticket=${ticket}` });
    }),
  );

  app.get(
    CONTRACT_ROUTES.pdfGenerator,
    { logLevel: 'warn' },
    handle(async (request, reply) => {
      if ((request.params as { name: string }).name !== 'contract') throw new HttpAnswer(404, 'ENOA', 'Unknown document');
      const pdf = await db.transaction(async (tx) => {
        const { details } = await useLink(tx, (request.query as { ticket?: unknown }).ticket, 'contractPreviewLink');
        const draft = details.draft!;
        const names = await partyNames(tx, [draft.senderId, draft.beneficiaryId]);
        const party = (id: number, signerName: string, obligations: string[]) => ({ id, name: names.get(id)?.name ?? `#${id}`, signerName, obligations });
        const rendered = await renderContractPdf({
          lang: documentLanguage(details.lang ?? 'en'),
          providerName,
          contractId: null,
          sender: party(draft.senderId, draft.senderSignerName, draft.senderObligations),
          beneficiary: party(draft.beneficiaryId, draft.beneficiarySignerName, draft.beneficiaryObligations),
          percentage: draft.percentage,
          activeFrom: draft.activeFrom,
          note: draft.note ?? null,
          generatedAt: new Date(now()),
        });
        return rendered.pdf;
      });
      return sendPdf(reply, pdf, 'revenue-split-draft.pdf');
    }),
  );

  // ------------------------------------------------------------------ the periodic job

  if (options.jobQueue) {
    const worker = await startContractWorker({ db, queue: options.jobQueue, now, publisher, log: (err) => app.log.error({ error: safeError(err) }, 'contracts job failed') });
    app.addHook('onClose', () => worker.stop());
  }
}
