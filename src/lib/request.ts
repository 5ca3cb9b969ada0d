/**
 * The request wrapper of the named-method API (document 1 §5, §7, §8).
 *
 * - POST `${origin}/api/v1/?{methodName}`, JSON, or multipart with a `data` part holding the JSON
 *   when the payload carries a File or Blob (each file in its own part named by its dotted path).
 * - Headers: Accept-Language (the UI language), X-Client-Version 2.1.2, Bearer when signed in,
 *   Customer-Id when acting for a company (then the body carries fromCustomerId too).
 * - `lang` in the body for dictionary methods.
 * - null, undefined and NaN fields are dropped, deeply, before sending.
 * - 5-minute time-out.
 * - 401: one refresh through the session's hooks, then one replay; a second 401 answers AU.
 * - 500: 'Server is not available'. No answer at all: AE.
 * - Numeric-looking strings in answers become numbers, except name- and address-style fields.
 * - A success is parsed with the method's response schema; a mismatch is a UE (and a console
 *   error naming the method and paths, never the values).
 *
 * Expected failures are returned, never thrown.
 */
import * as v from 'valibot';
import { t } from '@lingui/core/macro';
import { FailureSchema, ResponseCode, type Failure } from '../../api/envelope.ts';
import { REQUEST_TIMEOUT_MS, methodHeaders } from '../../api/http.ts';
import { REPRESENTATIVE_SECRET_METHODS, type RequestOf, type ResponseOf } from '../../api/method.ts';
import type { MethodName, Methods } from '../../api/registry.ts';
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENCY_KEY_PATTERN, IDEMPOTENT_METHODS } from '../../api/idempotency.ts';
import { getMethodUrl } from './api-base.ts';
import { getUiLanguage, getUiLanguageTag } from './i18n.ts';
import { validationMessages } from './validation-messages.ts';
import { requestHooks } from './request-hooks.ts';
import { takeEarlyRead } from './early-reads.ts';

export { configureRequest, type RequestHooks } from './request-hooks.ts';

let fetchImpl: typeof fetch = (...args) => globalThis.fetch(...args);

/** Tests swap the transport; the product always uses the global fetch. */
export function setFetchForTests(impl: typeof fetch | null): void {
  fetchImpl = impl ?? ((...args) => globalThis.fetch(...args));
}

export type MethodResult<N extends MethodName> = ResponseOf<Methods[N]> | Failure;

/* ----------------------------------------------------------------------------------------- */
/* Payload cleaning                                                                           */
/* ----------------------------------------------------------------------------------------- */

/** Nesting deeper than this is refused: no payload of the contract comes close. */
const MAX_DEPTH = 32;

function isBinary(value: unknown): value is Blob {
  return typeof Blob !== 'undefined' && value instanceof Blob;
}

/** Drops null, undefined and NaN fields (and array items) at every depth. Files are kept as is. */
export function dropEmpty(value: unknown, depth = 0): unknown {
  if (depth > MAX_DEPTH) throw new RangeError('payload is nested too deeply');
  if (Array.isArray(value)) {
    return value.filter((item) => !isEmptyValue(item)).map((item) => dropEmpty(item, depth + 1));
  }
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      if (!isEmptyValue(item)) out[key] = dropEmpty(item, depth + 1);
    }
    return out;
  }
  return value;
}

function isEmptyValue(value: unknown): boolean {
  return value === null || value === undefined || (typeof value === 'number' && Number.isNaN(value));
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** Splits the files out of a payload: the JSON keeps everything else. */
export function splitFiles(value: unknown, path = '', files: [string, Blob][] = []): { json: unknown; files: [string, Blob][] } {
  if (isBinary(value)) {
    files.push([path, value]);
    return { json: undefined, files };
  }
  if (Array.isArray(value)) {
    // A file's slot stays as null so the other items keep the index their path names.
    const json = value.map((item, i) => splitFiles(item, path ? `${path}.${i}` : String(i), files).json ?? null);
    return { json, files };
  }
  if (isPlainObject(value)) {
    const json: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      const inner = splitFiles(item, path ? `${path}.${key}` : key, files).json;
      if (inner !== undefined) json[key] = inner;
    }
    return { json, files };
  }
  return { json: value, files };
}

/* ----------------------------------------------------------------------------------------- */
/* Answer normalisation                                                                       */
/* ----------------------------------------------------------------------------------------- */

/**
 * Fields whose values stay strings even when they look like numbers (document 1 §5: "except
 * address and name style fields"). balance, accountBalanceMin and pendingAmount are decimal
 * strings in the api/ schemas (amounts are exact: converting them to binary floats would lose
 * money), so they stay strings too. responseCode ('00', '13') is a code, not a number.
 */
export const keepAsString: ReadonlySet<string> = new Set([
  'responseCode',
  'responseDescription',
  'address1',
  'address2',
  'city',
  'postalCode',
  'stateCode',
  'stateName',
  'firstName',
  'lastName',
  'businessName',
  // a company's and its representatives' identifiers (api/business.ts): '11223344' stays a string
  'registrationNumber',
  'companyName',
  'tradingName',
  'businessTaxId',
  'name',
  'customerName',
  'customerUsername',
  'employeeFirstName',
  'employeeLastName',
  'login',
  'username',
  'desiredUsername',
  'email',
  'emailAddress',
  'phone',
  'phoneCode',
  'phoneCountryCode',
  // a phone's country calling code ('44' stays '44'); ISO country codes never look numeric
  'countryCode',
  'taxId',
  'accessToken',
  'refreshToken',
  'temporaryToken',
  'code',
  'reqId',
  'identifier',
  'number',
  'iban',
  'description',
  'param',
  'title',
  'body',
  'balance',
  'accountBalanceMin',
  'pendingAmount',
  // money movement (api/transfers.ts, api/history.ts): decimal strings stay strings
  'amount',
  'fee',
  'toAmount',
  'rate',
  'maxAmount',
  'minAmount',
  'dailyLimit',
  'dailyRemaining',
  // payouts (api/payouts.ts, api/external.ts, api/history.ts): a fee call's total, the blocked
  // card BINs ('400005'), a rail's reason code ('05', '14')
  'total',
  'bins',
  'railReason',
  // beneficiaryList: the last amount sent to each payee
  'lastAmount',
  // the support desk's agents (api/support.ts supportDesk*): the ticket's number ('10042377'), its subject and a thread's text as written
  'ticketNumber',
  'subject',
  'content',
  // a mass batch's total with its fees (api/mass.ts)
  'grandTotal',
  // global pay (api/global-pay.ts): the fee held for a payment, a payee's quote
  'heldFee',
  'maximumTrxFee',
  'exchangeRate',
  'estimatedTotal',
  'extraFxMarkupPercent',
  // the payee's submission (32 hex digits), a withdrawal's details as the rail was told them, a
  // returned payout's reason code
  'operationId',
  'cardBin',
  'cardLast4',
  'accountNumber',
  'sortCode',
  'bsb',
  'routingNumber',
  'institutionNumber',
  'transitNumber',
  'bankCode',
  'branchCode',
  'instantKey',
  'reasonCode',
  // a VF code's parameters (api/errors.ts): amounts left as written ('12.50' stays '12.50')
  'left',
  'exportId',
  'note',
  'reference',
  'templateName',
  'address',
  'counterparty',
  'toName',
  'name',
  // cards (api/cards.ts): a product's limits, a block's refund, a card payment's merchant category
  // ('5411'), a virtual card's name (it may be '2024'), and the secrets a reveal answers (a PIN
  // '0420' or a CVV '123' as the card has them, never a number)
  'perPayment',
  'perDay',
  'refundedAmount',
  'merchantCategoryCode',
  'cardAliasName',
  'pinCode',
  'cardNumber',
  'cvv',
  'binNumber',
  // a company's tax certification (api/tax-certification.ts): a ticker may be all digits (Tokyo's
  // '7203'), and an explanation is what was typed
  'companyTicket',
  'ticket',
  'tinMissingExplanation',
  // a person's (api/tax-certification.ts): what was typed, even all digits
  'cityOfBirth',
  'usCitizenshipAbsenceExplanation',
]);

/**
 * Plain decimals without a leading zero (a leading zero marks a code such as '007'), at most 15
 * significant digits so the binary float holds the value exactly as written.
 */
const NUMERIC = /^-?(0|[1-9]\d*)(\.\d+)?$/;
const MAX_SIGNIFICANT_DIGITS = 15;

export function looksNumeric(value: string): boolean {
  return NUMERIC.test(value) && value.replace(/[-.]/g, '').replace(/^0+/, '').length <= MAX_SIGNIFICANT_DIGITS;
}

/**
 * Maps of free answers a customer gave (a company's additional questions, due diligence, financial
 * details: api/business.ts): every value in them is what was typed or chosen, kept as it came.
 */
export const keepTreeAsIs: ReadonlySet<string> = new Set(['additionalQuestionAnswers', 'dueDiligenceQuestionnaire', 'financialDetail']);

export function normaliseAnswer(value: unknown, key: string | null = null, depth = 0): unknown {
  if (depth > MAX_DEPTH) return value;
  if (key !== null && keepTreeAsIs.has(key)) return value;
  if (typeof value === 'string') {
    if (key !== null && keepAsString.has(key)) return value;
    return looksNumeric(value) ? Number(value) : value;
  }
  if (Array.isArray(value)) return value.map((item) => normaliseAnswer(item, key, depth + 1));
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, item] of Object.entries(value)) out[k] = normaliseAnswer(item, k, depth + 1);
    return out;
  }
  return value;
}

/* ----------------------------------------------------------------------------------------- */
/* Failures                                                                                   */
/* ----------------------------------------------------------------------------------------- */

function failure(responseCode: Failure['responseCode'], responseDescription: string): Failure {
  return { responseCode, responseDescription };
}

export function isFailure(answer: { responseCode: string }): answer is Failure {
  return answer.responseCode !== ResponseCode.success;
}

/**
 * The text of a failure in the customer's language: its validation errors as sentences
 * (src/lib/validation-messages.ts), else the app's words for its response code. The platform's
 * responseDescription is English, so it is shown as is only to English readers.
 */
export function describeFailure(f: Failure): string {
  if (f.validationErrors && f.validationErrors.length > 0) return validationMessages(f.validationErrors);
  if (f.responseDescription && isEnglish()) return f.responseDescription;
  switch (f.responseCode) {
    case ResponseCode.network:
      return t`Network error. Check your connection and try again.`;
    case ResponseCode.auth:
      return t`Your session has ended. Please sign in again.`;
    case ResponseCode.noAccess:
    case ResponseCode.accessDenied:
      return t`You do not have access to this.`;
    case ResponseCode.validation:
      return t`Check the details you entered.`;
    case ResponseCode.invalidParams:
      return t`The request was not accepted.`;
    case ResponseCode.closedAccount:
      return t`The account is closed.`;
    default:
      return t`Unknown error`;
  }
}

/** The platform writes its responseDescription in English. */
export function isEnglish(): boolean {
  const lang = getUiLanguage();
  return lang === 'en' || lang === 'au';
}

/* ----------------------------------------------------------------------------------------- */
/* The call                                                                                   */
/* ----------------------------------------------------------------------------------------- */

function buildBody(name: MethodName, payload: unknown, actingId: number | null, extraFiles: readonly (readonly [string, Blob])[] = []): BodyInit {
  // Document 1 §7: the body carries the method's name beside the path's ?{methodName}.
  const fields: Record<string, unknown> = { ...(isPlainObject(payload) ? payload : {}), method: name };
  if (REPRESENTATIVE_SECRET_METHODS.has(name)) {
    const secret = requestHooks().getRepresentativeSecret?.() ?? null;
    if (secret) {
      fields.fromEmail ??= secret.fromEmail;
      fields.authSecret ??= secret.authSecret;
    }
  }
  if (name.startsWith('dictionar') && fields.lang === undefined) {
    const ui = getUiLanguage();
    fields.lang = ui === 'au' ? 'en' : ui;
  }
  if (actingId !== null && fields.fromCustomerId === undefined) fields.fromCustomerId = actingId;
  const cleaned = dropEmpty(fields);
  const { json, files } = splitFiles(cleaned);
  files.push(...extraFiles.map(([part, file]) => [part, file] as [string, Blob]));
  if (files.length === 0) return JSON.stringify(json);
  const form = new FormData();
  form.append('data', JSON.stringify(json));
  for (const [path, file] of files) form.append(path, file);
  return form;
}

async function send(
  name: MethodName,
  payload: unknown,
  idempotency: { header: string; key: string } | null,
  extraFiles: readonly (readonly [string, Blob])[] = [],
): Promise<Response | Failure> {
  const actingId = requestHooks().getActingCustomerId();
  const body = buildBody(name, payload, actingId, extraFiles);
  const url = getMethodUrl(name);
  const plainHeaders = methodHeaders({ languageTag: getUiLanguageTag(), accessToken: requestHooks().getAccessToken(), actingCustomerId: actingId, json: typeof body === 'string' });
  // the answer src/early-start.ts asked for at the start, when this is that very call (early-reads.ts)
  if (idempotency === null && typeof body === 'string') {
    const early = await takeEarlyRead(url, body, plainHeaders);
    if (early) return early;
  }
  const headers = new Headers(plainHeaders);
  if (idempotency) headers.set(idempotency.header, idempotency.key);
  try {
    return await fetchImpl(url, {
      method: 'POST',
      headers,
      body,
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
  } catch (error) {
    const timedOut = error instanceof DOMException && error.name === 'TimeoutError';
    return failure(ResponseCode.network, timedOut ? t`The server took too long to answer.` : t`Network error. Check your connection and try again.`);
  }
}

/**
 * The registry holds every domain's schemas; it is loaded with the first call, not with the page
 * (the sign-in page makes no named-method call before it is interactive).
 */
let registry: Promise<typeof import('../../api/registry.ts')> | null = null;
const loadRegistry = () => (registry ??= import('../../api/registry.ts'));
/** Loads the registry ahead of the first call (request-later.ts preloadRequest); a failed load is tried again by that call. */
export function preloadRegistry(): void {
  loadRegistry().catch(() => {
    registry = null;
  });
}
/** The money contract (which methods need an idempotency key), in the registry's chunk. */

export interface CallOptions {
  /**
   * The Idempotency-Key of a money-moving call (api/transfers.ts IDEMPOTENT_METHODS). The caller
   * makes one per submit attempt and passes the same key to every retry of that attempt; the
   * platform answers a retry with the first answer, so money never moves twice.
   */
  idempotencyKey?: string;
  /**
   * File parts sent beside the payload, by part name (the call goes multipart). For a part whose
   * name is also a JSON field, e.g. customerAddressCreateOrReplace's `mainDocument`: its metadata
   * is the JSON field and its file the part of the same name, which a Blob in the payload (named
   * by its path) cannot express.
   */
  files?: readonly (readonly [string, Blob])[];
}

/**
 * Calls a named method. A money-moving method called without a well-formed idempotency key is a
 * programming error: it throws (TypeError) and nothing is sent.
 */
export async function callMethod<N extends MethodName>(name: N, payload: RequestOf<Methods[N]>, options: CallOptions = {}): Promise<MethodResult<N>> {
  const { methods } = await loadRegistry();
  const def = methods[name];
  if (!def) return failure(ResponseCode.invalidMethod, t`Unknown error`);
  const key = options.idempotencyKey;
  if (key === undefined ? IDEMPOTENT_METHODS.has(name) : !IDEMPOTENCY_KEY_PATTERN.test(key)) {
    throw new TypeError(`${name} moves money: it needs an idempotency key of 8-100 characters [A-Za-z0-9_-]`);
  }
  const idempotency = key === undefined ? null : { header: IDEMPOTENCY_KEY_HEADER, key };
  requestHooks().onActivity?.();

  const extraFiles = options.files ?? [];
  let response = await send(name, payload, idempotency, extraFiles);
  if (!(response instanceof Response)) return response;

  if (response.status === 401) {
    // One refresh, one replay (document 1 §4). The session shares one refresh between callers.
    const refreshed = await requestHooks().refresh().catch(() => false);
    if (!refreshed) return failure(ResponseCode.auth, t`Your session has ended. Please sign in again.`);
    response = await send(name, payload, idempotency, extraFiles);
    if (!(response instanceof Response)) return response;
    if (response.status === 401) return failure(ResponseCode.auth, t`Your session has ended. Please sign in again.`);
  }
  if (response.status >= 500) return failure(ResponseCode.unknown, t`Server is not available`);

  let raw: unknown;
  try {
    raw = await response.json();
  } catch {
    return failure(ResponseCode.unknown, t`Unknown error`);
  }
  const answer = normaliseAnswer(raw);
  if (isPlainObject(answer) && answer.responseCode === ResponseCode.success) {
    const parsed = v.safeParse(def.response, answer);
    if (parsed.success) return parsed.output as MethodResult<N>;
    // Paths only: values may be personal data.
    console.error(`[request] ${name}: the answer does not match the contract at`, parsed.issues.map((i) => v.getDotPath(i) ?? '(root)'));
    return failure(ResponseCode.unknown, t`Unknown error`);
  }
  // '92' (a confirmation is needed) is an answer of the method's own contract where it has one
  // (globalPayUpload: the identical batch's id and date), kept whole rather than cut to a failure
  if (isPlainObject(answer) && answer.responseCode === ResponseCode.confirm) {
    const parsed = v.safeParse(def.response, answer);
    if (parsed.success) return parsed.output as MethodResult<N>;
  }
  const parsedFailure = v.safeParse(FailureSchema, answer);
  if (parsedFailure.success) return parsedFailure.output;
  console.error(`[request] ${name}: unexpected answer with HTTP status ${response.status}`);
  return failure(ResponseCode.unknown, t`Unknown error`);
}

/* ----------------------------------------------------------------------------------------- */
/* For TanStack Query: a failure becomes a thrown error carrying the failure                  */
/* ----------------------------------------------------------------------------------------- */

export class MethodCallError extends Error {
  constructor(readonly failure: Failure) {
    super(`named method failed with ${failure.responseCode}`);
    this.name = 'MethodCallError';
  }
}

/** callMethod for query functions: resolves with the success answer, throws MethodCallError. */
export async function callMethodOrThrow<N extends MethodName>(name: N, payload: RequestOf<Methods[N]>): Promise<ResponseOf<Methods[N]>> {
  const answer = await callMethod(name, payload);
  if (isFailure(answer)) throw new MethodCallError(answer);
  return answer as ResponseOf<Methods[N]>;
}
