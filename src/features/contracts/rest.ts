/**
 * The contracts service's REST calls (api/contracts.ts CONTRACT_ROUTES; document 3 §7): the same
 * headers as the named-method calls (src/lib/request.ts): the bearer token, the UI language, the
 * client version and, when acting for a company, the Customer-Id header. A 401 refreshes the
 * session once and replays (document 1 §4), as the history's downloads do. Error bodies are the
 * contract's `{ responseCode, message, validationErrors? }`: 403 the caller may not, 404 an unknown
 * contract (or another customer's), 409 an action the contract's state no longer allows.
 * Expected failures come back as values; tokens are sent, never logged.
 */
import * as v from 'valibot';
import { CLIENT_VERSION, CLIENT_VERSION_HEADER, CUSTOMER_ID_HEADER, REQUEST_TIMEOUT_MS } from '../../../api/http.ts';
import { getApiOrigin } from '../../lib/api-base.ts';
import { getUiLanguageTag } from '../../lib/i18n.ts';
import { isEnglish, type RequestHooks } from '../../lib/request.ts';

/** What the calls need from the session (the routes pass sessionRequestHooks). */
export type ContractAccess = Pick<RequestHooks, 'getAccessToken' | 'refresh' | 'getActingCustomerId'>;

export type RestFailureCode = 'notFound' | 'forbidden' | 'conflict' | 'fields' | 'network' | 'failed';
export type FieldProblem = { param: string; code: string; params?: Record<string, string | number> };
export type RestResult<T> = { ok: true; value: T } | { ok: false; code: RestFailureCode; status: number | null; message: string | null; errors: FieldProblem[] };

/** The contract's error body, keeping each VF entry's parameters (max, min) for the sentences. */
const ErrorBodySchema = v.object({
  responseCode: v.optional(v.string()),
  message: v.optional(v.string()),
  responseDescription: v.optional(v.string()),
  validationErrors: v.optional(
    v.array(
      v.object({
        param: v.string(),
        code: v.optional(v.string()),
        description: v.optional(v.string()),
        params: v.optional(v.record(v.string(), v.union([v.string(), v.number()]))),
      }),
    ),
  ),
});

function headersFor(access: ContractAccess, json: boolean): Headers {
  const headers = new Headers({ Accept: 'application/json', 'Accept-Language': getUiLanguageTag(), [CLIENT_VERSION_HEADER]: CLIENT_VERSION });
  if (json) headers.set('Content-Type', 'application/json');
  const token = access.getAccessToken();
  if (token) headers.set('Authorization', `Bearer ${token}`);
  const acting = access.getActingCustomerId();
  if (acting !== null) headers.set(CUSTOMER_ID_HEADER, String(acting));
  return headers;
}

/** `path` with its query (undefined and empty values left out). */
export function withQuery(path: string, query: Record<string, string | number | undefined>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined && value !== '') params.set(key, String(value));
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

/** One call; the answer parsed with `schema` (a mismatch is a failure, never a throw). */
export async function contractRest<T>(
  access: ContractAccess,
  method: 'GET' | 'POST' | 'PUT',
  path: string,
  schema: v.GenericSchema<unknown, T>,
  body?: unknown,
): Promise<RestResult<T>> {
  const url = `${getApiOrigin()}${path}`;
  const send = async (): Promise<Response | null> => {
    try {
      return await globalThis.fetch(url, {
        method,
        headers: headersFor(access, body !== undefined),
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
    } catch {
      return null;
    }
  };
  let response = await send();
  if (response?.status === 401 && (await access.refresh().catch(() => false))) response = await send();
  if (response === null) return { ok: false, code: 'network', status: null, message: null, errors: [] };
  const data: unknown = await response.json().catch(() => undefined);
  if (!response.ok) {
    const parsed = v.safeParse(ErrorBodySchema, data);
    const text = parsed.success ? (parsed.output.message ?? parsed.output.responseDescription ?? null) : null;
    const errors: FieldProblem[] = parsed.success
      ? (parsed.output.validationErrors ?? []).map((e) => ({ param: e.param, code: e.code ?? 'invalid', ...(e.params ? { params: e.params } : {}) }))
      : [];
    const status = response.status;
    const code: RestFailureCode =
      status === 404
        ? 'notFound'
        : status === 403
          ? 'forbidden'
          : status === 409
            ? 'conflict'
            : status === 400 && errors.length > 0
              ? 'fields'
              : status === 401
                ? 'forbidden'
                : 'failed';
    // the platform's words are English: shown to English readers only
    return { ok: false, code, status, message: text && isEnglish() ? text : null, errors };
  }
  const parsed = v.safeParse(schema, data);
  return parsed.success ? { ok: true, value: parsed.output } : { ok: false, code: 'failed', status: response.status, message: null, errors: [] };
}

/** Thrown by the query functions (TanStack Query wants a throw): the page words its code. */
export class ContractReadError extends Error {
  constructor(readonly failure: Exclude<RestResult<unknown>, { ok: true }>) {
    super(`contracts read failed: ${failure.code}`);
    this.name = 'ContractReadError';
  }
}

export function orThrow<T>(r: RestResult<T>): T {
  if (!r.ok) throw new ContractReadError(r);
  return r.value;
}
