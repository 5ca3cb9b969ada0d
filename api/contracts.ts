/**
 * Revenue-split contracts: the contracts service of document 3 §7 (REST, bearer token; the acting
 * company in the Customer-Id header as for every other call), its entities (§3 Contract, create
 * payload, meta, customer lookup), states (§4) and create rules (§5). Served by
 * server/modules/contracts (contracts.routes.ts) under the versioned base, e.g.
 * `GET /api/v1/contract`; the web app's pages are /revenue-split, /revenue-split/new and
 * /revenue-split/{contractId}.
 *
 * The contract's life is machines/contract (the view's chart) and the platform keeps the same
 * states with the same guards: both decide with `contractActions` below.
 *
 * Not shown in the spec, decided here (and followed by both sides):
 * - Who may do what (`contractActions`): the initiator cancels before the contract is in force;
 *   the other party rejects while it has not signed; each party signs its own side once; either
 *   party asks to terminate an active contract with a note (it ends after TERMINATION_NOTICE_DAYS,
 *   status TERMINATING meanwhile); the party who asked may withdraw it (terminateCancel); the
 *   other party, or the beneficiary at any time while active (giving up its own share harms
 *   nobody), ends it at once (terminateNow).
 * - After both signatures the payer's signer is identified (identificationStatus): a payer whose
 *   identity the platform has already verified is SUCCESS at once; otherwise NEED_IDENTIFICATION
 *   until the identity check answers (identificationPush). Then SIGNED until activeFrom, ACTIVE
 *   from it. An UNSIGNED or WAITING contract not signed within SIGNING_DAYS expires (EXPIRED).
 * - `direction` and `actions` are the acting customer's view: PAY when it is the payer (sender).
 * - Errors: 400 `{ responseCode: 'VF', validationErrors, message }` for a bad field (the envelope's
 *   VF entries); 403 `{ responseCode: 'AU', message }` for a contract or action the caller may not
 *   touch, 404 `{ responseCode: 'ENOA', message }` for an unknown contract (also for another
 *   customer's: nothing is revealed), 409 `{ responseCode: 'VF', message, validationErrors: [{ param:
 *   'status', code: 'notAllowed' }] }` for an action the contract's state does not allow now
 *   (document 3 §7: "errors return 403 or 404 with a message field").
 */
import * as v from 'valibot';
import { VfCode } from './errors.ts';
import { API_VERSION_PATH } from './http.ts';
import { MAX_ID } from './method.ts';

// ---------------------------------------------------------------- paths (document 3 §7)

const base = API_VERSION_PATH;
export const CONTRACT_ROUTES = {
  list: `${base}/contract`, // GET (ContractListQuery) and PUT (create)
  stats: `${base}/contract/stats`, // GET
  verify: `${base}/contract/verify`, // POST { companyId, counterpartyId }
  checkSigner: `${base}/contract/:id/checkSigner`, // GET -> { canSign }
  one: `${base}/contract/:id`, // GET -> { contract } (ours: the detail page's read)
  cancel: `${base}/contract/:id/cancel`, // POST
  reject: `${base}/contract/:id/reject`, // POST
  terminate: `${base}/contract/:id/terminate`, // POST { note }
  terminateCancel: `${base}/contract/:id/terminateCancel`, // POST
  terminateNow: `${base}/contract/:id/terminateNow`, // POST
  pdfUrl: `${base}/contract/:id/pdfUrl`, // GET -> { pdfUrl }
  signUrl: `${base}/contract/:id/signUrl`, // GET -> { signUrl, clientId }
  identificationStarted: `${base}/contract/:id/identificationStarted`, // POST
  identificationPush: `${base}/contract/:contractId/identificationPush`, // POST { status } (the identity check's callback)
  signerIdentification: `${base}/split-pay-signer-identification`, // POST { contractId } -> { redirectUrl }
  companies: `${base}/company`, // GET { query, forCounterpartyCustomerId, page, pageSize }
  customerLookup: `${base}/customer/lookup`, // GET { email }
  pdfGenerator: `${base}/pdf/api/generator_pdf/:name`, // POST (name 'contract': a draft's preview) -> { redirectLink }
} as const;

export const contractPath = (id: number, action?: 'checkSigner' | 'cancel' | 'reject' | 'terminate' | 'terminateCancel' | 'terminateNow' | 'pdfUrl' | 'signUrl' | 'identificationStarted' | 'identificationPush') =>
  `${base}/contract/${id}${action ? `/${action}` : ''}`;

// ---------------------------------------------------------------- constants

/** getContracts {pageSize 1000} (document 3 §7, §9); the list's default page size. */
export const CONTRACT_PAGE_SIZE_MAX = 1000;
export const CONTRACT_PAGE_SIZE_DEFAULT = 100;
/** signer names up to 256 characters (document 3 §5) */
export const SIGNER_NAME_MAX = 256;
/** an obligation's text, and how many a side may list (ours) */
export const OBLIGATION_MAX = 1000;
export const OBLIGATIONS_MAX = 20;
export const CONTRACT_NOTE_MAX = 1000;
/** a termination takes effect this many days after it is asked (ours) */
export const TERMINATION_NOTICE_DAYS = 30;
/** an unsigned contract expires after this many days (ours) */
export const SIGNING_DAYS = 30;

export const CONTRACT_STATUSES = ['ACTIVE', 'EXPIRED', 'TERMINATED', 'TERMINATING', 'UNSIGNED', 'WAITING', 'CANCELLED', 'REJECTED', 'SIGNED', 'NEED_IDENTIFICATION'] as const;
export const ContractStatusSchema = v.picklist(CONTRACT_STATUSES);
export type ContractStatus = v.InferOutput<typeof ContractStatusSchema>;

export const IDENTIFICATION_STATUSES = ['NEW', 'PROCESSING', 'SUCCESS', 'FAILED'] as const;
export const IdentificationStatusSchema = v.picklist(IDENTIFICATION_STATUSES);
export type IdentificationStatus = v.InferOutput<typeof IdentificationStatusSchema>;

export const ContractDirectionSchema = v.picklist(['PAY', 'RECEIVE']);
export type ContractDirection = v.InferOutput<typeof ContractDirectionSchema>;

export const CONTRACT_ORDER_BY = ['COMPANY_NAME', 'INCOMING_FIRST', 'CREATED_AT'] as const;

/** The statuses of each meta count (document 3 §3 "Contracts meta"), as the list's filters use them. */
export const ENDED_STATUSES: readonly ContractStatus[] = ['TERMINATED', 'EXPIRED', 'CANCELLED', 'REJECTED'];
export const IN_FORCE_STATUSES: readonly ContractStatus[] = ['ACTIVE', 'TERMINATING'];
export const BEFORE_FORCE_STATUSES: readonly ContractStatus[] = ['UNSIGNED', 'WAITING', 'SIGNED', 'NEED_IDENTIFICATION'];

// ---------------------------------------------------------------- the rules both sides decide with

export type ContractSide = 'sender' | 'beneficiary';
export type ContractAction = 'sign' | 'cancel' | 'reject' | 'terminate' | 'terminateCancel' | 'terminateNow';

/** What the rules read of a contract. */
export interface ContractFacts {
  status: ContractStatus;
  initiatorId: number;
  senderId: number;
  beneficiaryId: number;
  senderSigned: boolean;
  beneficiarySigned: boolean;
  /** the party who asked to terminate (terminateInfo.terminatedBy) while TERMINATING */
  terminateRequestedBy: number | null;
}

/** The side the customer is on, or null for a customer who is neither party. */
export function contractSide(c: Pick<ContractFacts, 'senderId' | 'beneficiaryId'>, customerId: number): ContractSide | null {
  if (customerId === c.senderId) return 'sender';
  if (customerId === c.beneficiaryId) return 'beneficiary';
  return null;
}

/**
 * The actions the customer may take on the contract now (document 3 §4 "available actions"; the
 * rules are ours, see the module comment). `mayAct`: the caller acts for the customer with full
 * rights (a view-only business user may take none). Signing also needs checkSigner's canSign.
 */
export function contractActions(c: ContractFacts, customerId: number, mayAct = true): ContractAction[] {
  const side = contractSide(c, customerId);
  if (side === null || !mayAct) return [];
  const out: ContractAction[] = [];
  const ownSigned = side === 'sender' ? c.senderSigned : c.beneficiarySigned;
  const unsigned = c.status === 'UNSIGNED' || c.status === 'WAITING';
  if (unsigned && !ownSigned) out.push('sign');
  if (customerId === c.initiatorId && (unsigned || c.status === 'SIGNED' || c.status === 'NEED_IDENTIFICATION')) out.push('cancel');
  if (customerId !== c.initiatorId && unsigned && !ownSigned) out.push('reject');
  if (c.status === 'ACTIVE') out.push('terminate');
  if (c.status === 'TERMINATING' && c.terminateRequestedBy === customerId) out.push('terminateCancel');
  if ((c.status === 'TERMINATING' && c.terminateRequestedBy !== customerId) || ((c.status === 'ACTIVE' || c.status === 'TERMINATING') && side === 'beneficiary')) out.push('terminateNow');
  return out;
}

/** The status once both sides have signed (or one more has): before identification and activeFrom. */
export function statusAfterSignatures(o: { senderSigned: boolean; beneficiarySigned: boolean; identification: IdentificationStatus; activeFromMs: number; nowMs: number }): ContractStatus {
  if (!o.senderSigned && !o.beneficiarySigned) return 'UNSIGNED';
  if (!o.senderSigned || !o.beneficiarySigned) return 'WAITING';
  if (o.identification !== 'SUCCESS') return 'NEED_IDENTIFICATION';
  return o.nowMs >= o.activeFromMs ? 'ACTIVE' : 'SIGNED';
}

/** The meta count a status falls in for the viewer (document 3 §3 "Contracts meta"). */
export function contractCountsAs(c: ContractFacts, customerId: number): { requests: boolean; pending: boolean; active: boolean; ended: boolean; pay: boolean; receive: boolean } {
  const side = contractSide(c, customerId);
  const ownSigned = side === 'sender' ? c.senderSigned : side === 'beneficiary' ? c.beneficiarySigned : true;
  const before = BEFORE_FORCE_STATUSES.includes(c.status);
  const inForce = IN_FORCE_STATUSES.includes(c.status);
  const requests = (c.status === 'UNSIGNED' || c.status === 'WAITING') && !ownSigned;
  return {
    requests,
    pending: before && !requests,
    active: inForce,
    ended: ENDED_STATUSES.includes(c.status),
    pay: inForce && side === 'sender',
    receive: inForce && side === 'beneficiary',
  };
}

/** Percentage (0.01 to 100, two decimals at most) <-> basis points (1 to 10000). */
export const percentageToBp = (percentage: number) => Math.round(percentage * 100);
export const bpToPercentage = (bp: number) => bp / 100;

/**
 * The beneficiary's share of a payment: gross x bp / 10000 rounded half-even (to the even minor
 * unit on an exact half); the remainder stays with the payer. Integer arithmetic only.
 */
export function splitShare(grossMinor: bigint, bp: number): bigint {
  if (grossMinor <= 0n) return 0n;
  const n = grossMinor * BigInt(bp);
  const q = n / 10000n;
  const r = n - q * 10000n;
  if (2n * r > 10000n || (2n * r === 10000n && q % 2n === 1n)) return q + 1n;
  return q;
}

// ---------------------------------------------------------------- entities (document 3 §3)

const PartySchema = v.object({ id: v.number(), username: v.string(), name: v.string() });

export const ContractSchema = v.object({
  id: v.number(),
  status: ContractStatusSchema,
  identificationStatus: IdentificationStatusSchema,
  /** 0.01 to 100 */
  percentage: v.number(),
  initiatorId: v.number(),
  /** the acting customer's side: PAY for the payer (sender) */
  direction: ContractDirectionSchema,
  note: v.nullable(v.string()),
  /** ISO instants */
  activeFrom: v.string(),
  activeTo: v.nullable(v.string()),
  terminateInfo: v.nullable(v.object({ terminatedAt: v.nullable(v.string()), note: v.nullable(v.string()), terminatedBy: v.nullable(v.number()) })),
  updatedAt: v.string(),
  createdAt: v.string(),
  company: v.object({ id: v.number(), title: v.string(), logo: v.nullable(v.string()) }),
  sender: PartySchema,
  beneficiary: PartySchema,
  // ours: what the detail page shows and decides with
  senderSignerName: v.string(),
  senderObligations: v.array(v.string()),
  beneficiarySignerName: v.string(),
  beneficiaryObligations: v.array(v.string()),
  senderSignedAt: v.nullable(v.string()),
  beneficiarySignedAt: v.nullable(v.string()),
  /** contractActions for the acting customer and caller */
  actions: v.array(v.picklist(['sign', 'cancel', 'reject', 'terminate', 'terminateCancel', 'terminateNow'])),
  /** the split so far: one total per currency, in decimal text (ours) */
  splitTotals: v.array(v.object({ currency: v.string(), amount: v.string(), count: v.number() })),
});
export type Contract = v.InferOutput<typeof ContractSchema>;

export const ContractsMetaSchema = v.object({
  active: v.number(),
  total: v.number(),
  requests: v.number(),
  pending: v.number(),
  ended: v.number(),
  pay: v.number(),
  receive: v.number(),
});
export type ContractsMeta = v.InferOutput<typeof ContractsMetaSchema>;

// ---------------------------------------------------------------- requests

const trimmed = (max: number) => v.pipe(v.string(VfCode.wrongType), v.trim(), v.nonEmpty(VfCode.required), v.maxLength(max, VfCode.tooLong));
const id32 = v.pipe(v.number(VfCode.wrongType), v.integer(VfCode.notInteger), v.minValue(1, VfCode.tooSmall), v.maxValue(MAX_ID, VfCode.tooLarge));
const obligations = v.pipe(v.array(trimmed(OBLIGATION_MAX), VfCode.wrongType), v.minLength(1, VfCode.tooFewItems), v.maxLength(OBLIGATIONS_MAX, VfCode.tooManyItems));

/** PUT /contract (document 3 §3 create payload, §5 rules). activeFrom: a date, YYYY-MM-DD (the day it starts, in UTC), today or later. */
export const ContractCreateSchema = v.object({
  companyId: id32,
  senderId: id32,
  senderSignerName: trimmed(SIGNER_NAME_MAX),
  senderObligations: obligations,
  beneficiaryId: id32,
  beneficiarySignerName: trimmed(SIGNER_NAME_MAX),
  beneficiaryObligations: obligations,
  activeFrom: v.pipe(v.string(VfCode.wrongType), v.regex(/^\d{4}-\d{2}-\d{2}$/, VfCode.notDate)),
  percentage: v.pipe(v.number(VfCode.wrongType), v.gtValue(0, VfCode.tooSmall), v.maxValue(100, VfCode.tooLarge), v.check((p) => Math.abs(p * 100 - Math.round(p * 100)) < 1e-9, VfCode.amountFormat)),
  note: v.optional(v.nullable(v.pipe(v.string(VfCode.wrongType), v.trim(), v.maxLength(CONTRACT_NOTE_MAX, VfCode.tooLong)))),
});
export type ContractCreate = v.InferInput<typeof ContractCreateSchema>;

export const ContractVerifySchema = v.object({ companyId: id32, counterpartyId: id32 });
/** isValid false: why (ours): the counterparty is the company itself, unknown, closed, or already has an open contract with it in that direction */
export const ContractVerifyAnswerSchema = v.object({
  responseCode: v.literal('00'),
  isValid: v.boolean(),
  reason: v.optional(v.picklist(['sameCustomer', 'notFound', 'notActive', 'alreadyContracted'])),
});

/** GET /contract query: statuses comma-separated; page and pageSize at least 1 (document 3 §5). */
export const ContractListQuerySchema = v.object({
  statuses: v.optional(v.string()),
  companyName: v.optional(v.pipe(v.string(), v.maxLength(256, VfCode.tooLong))),
  counterpartyName: v.optional(v.pipe(v.string(), v.maxLength(256, VfCode.tooLong))),
  orderBy: v.optional(v.picklist(CONTRACT_ORDER_BY, VfCode.notAllowed)),
  orderDir: v.optional(v.picklist(['ASC', 'DESC'], VfCode.notAllowed)),
  page: v.optional(v.pipe(v.string(), v.transform(Number), v.integer(VfCode.notInteger), v.minValue(1, VfCode.tooSmall))),
  pageSize: v.optional(v.pipe(v.string(), v.transform(Number), v.integer(VfCode.notInteger), v.minValue(1, VfCode.tooSmall), v.maxValue(CONTRACT_PAGE_SIZE_MAX, VfCode.tooLarge))),
});

export const ContractListAnswerSchema = v.object({
  responseCode: v.literal('00'),
  contracts: v.array(ContractSchema),
  /** contracts matching the filters (for paging) */
  count: v.number(),
  page: v.number(),
  pageSize: v.number(),
  /** the acting customer's counts, whatever the filters */
  meta: ContractsMetaSchema,
});
export const ContractStatsAnswerSchema = v.object({ responseCode: v.literal('00'), meta: ContractsMetaSchema });
export const ContractAnswerSchema = v.object({ responseCode: v.literal('00'), contract: ContractSchema });
export const TerminateBodySchema = v.object({ note: trimmed(CONTRACT_NOTE_MAX) });
export const CheckSignerAnswerSchema = v.object({ responseCode: v.literal('00'), canSign: v.boolean() });
export const SignUrlAnswerSchema = v.object({ responseCode: v.literal('00'), signUrl: v.string(), clientId: v.string() });
/** a short-lived link to the contract's PDF (the signed one once both signed), openable without the bearer token */
export const PdfUrlAnswerSchema = v.object({ responseCode: v.literal('00'), pdfUrl: v.string() });
export const PdfGeneratorAnswerSchema = v.object({ responseCode: v.literal('00'), redirectLink: v.string() });
export const SignerIdentificationAnswerSchema = v.object({ responseCode: v.literal('00'), redirectUrl: v.string() });
export const IdentificationPushBodySchema = v.object({ status: v.picklist(['SUCCESS', 'FAILED'], VfCode.notAllowed) });

export const CustomerLookupAnswerSchema = v.object({
  responseCode: v.literal('00'),
  id: v.number(),
  type: v.picklist(['BUSINESS', 'PERSONAL']),
  /** ours: the name, so the person creating a contract sees who the e-mail belongs to */
  name: v.string(),
});

export const CompanyListAnswerSchema = v.object({
  responseCode: v.literal('00'),
  companies: v.array(v.object({ id: v.number(), title: v.string(), logo: v.nullable(v.string()) })),
  count: v.number(),
});

/** The error body of the contracts service (document 3 §7: 403 or 404 with a message field). */
export const ContractErrorSchema = v.object({
  responseCode: v.string(),
  message: v.string(),
  validationErrors: v.optional(v.array(v.object({ param: v.string(), code: v.optional(v.string()), description: v.optional(v.string()) }))),
});
