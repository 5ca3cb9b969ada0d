/**
 * JSON calls to the token service's REST paths (devices, approvals, two-step verification,
 * recovery codes, single sign-on). Expected failures come back as values: `{ ok: false, status,
 * message }` where status 0 means no answer (network, time-out) and -1 an answer that does not
 * match the contract; message is the service's `{ message }` (api/auth.ts AuthErrorSchema), ''
 * when there is none. Tokens are sent, never logged.
 */
import * as v from 'valibot';
import { AuthErrorSchema } from '../../api/auth.ts';
import { CLIENT_VERSION, CLIENT_VERSION_HEADER } from '../../api/http.ts';

export const NO_ANSWER = 0;
export const BAD_ANSWER = -1;
/** These calls answer at once or not at all; the general 5-minute time-out is for uploads. */
export const REST_TIMEOUT_MS = 30_000;

export type RestResult<T> = { ok: true; data: T } | { ok: false; status: number; message: string };

export interface RestCall<T> {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  token?: string | null;
  body?: unknown;
  /** null: the answer's body is not read */
  schema: v.GenericSchema<unknown, T> | null;
  language: string;
  fetchFn?: typeof fetch;
}

export async function restCall<T>(call: RestCall<T>): Promise<RestResult<T>> {
  const doFetch = call.fetchFn ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
  const headers: Record<string, string> = {
    Accept: 'application/json',
    'Accept-Language': call.language,
    [CLIENT_VERSION_HEADER]: CLIENT_VERSION,
  };
  if (call.body !== undefined) headers['Content-Type'] = 'application/json';
  if (call.token) headers.Authorization = `Bearer ${call.token}`;
  let res: Response;
  try {
    res = await doFetch(call.url, {
      method: call.method,
      headers,
      body: call.body === undefined ? undefined : JSON.stringify(call.body),
      signal: AbortSignal.timeout(REST_TIMEOUT_MS),
    });
  } catch {
    return { ok: false, status: NO_ANSWER, message: '' };
  }
  if (!res.ok) {
    const failure = v.safeParse(AuthErrorSchema, await res.json().catch(() => undefined));
    return { ok: false, status: res.status, message: failure.success ? failure.output.message : '' };
  }
  if (call.schema === null) return { ok: true, data: undefined as T };
  const parsed = v.safeParse(call.schema, await res.json().catch(() => undefined));
  return parsed.success ? { ok: true, data: parsed.output } : { ok: false, status: BAD_ANSWER, message: '' };
}

/** What a signed-in web-app call needs from the session (src/features/auth/session-actor.ts hooks). */
export interface SessionAccess {
  getAccessToken(): string | null;
  /** one shared refresh; true when a new access token is available */
  refresh(): Promise<boolean>;
}

/** A user-bearer call with one refresh and one replay on a 401 (document 1 §4). */
export async function sessionCall<T>(access: SessionAccess, call: Omit<RestCall<T>, 'token'>): Promise<RestResult<T>> {
  const first = await restCall({ ...call, token: access.getAccessToken() });
  if (first.ok || first.status !== 401) return first;
  if (!(await access.refresh().catch(() => false))) return first;
  return restCall({ ...call, token: access.getAccessToken() });
}
