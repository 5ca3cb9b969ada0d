/**
 * JSON calls to the token service's security paths (api/security.ts). Expected failures come back
 * as values `{ ok: false, status, message }`: status 0 is no answer (network, time-out), -1 an
 * answer outside the contract. One refresh and one replay on a 401 (document 1 §4). Tokens are
 * sent, never logged.
 */
import * as v from 'valibot';
import { AuthErrorSchema } from '../../../api/auth.ts';
import { CLIENT_VERSION, CLIENT_VERSION_HEADER } from '../../../api/http.ts';
import { getAuthUrl } from '../../lib/api-base.ts';
import { getUiLanguageTag } from '../../lib/i18n.ts';

export const NO_ANSWER = 0;
export const BAD_ANSWER = -1;
/** These calls answer at once or not at all. */
export const SECURITY_TIMEOUT_MS = 30_000;

export type SecurityResult<T> = { ok: true; data: T } | { ok: false; status: number; message: string };

/** What a signed-in call needs from the session; the route passes it from the session actor. */
export interface SessionAccess {
  getAccessToken(): string | null;
  /** one shared refresh; true when a new access token is available */
  refresh(): Promise<boolean>;
}

async function once<T>(method: 'GET' | 'POST', path: string, token: string | null, body: unknown, schema: v.GenericSchema<unknown, T>): Promise<SecurityResult<T>> {
  const headers: Record<string, string> = {
    Accept: 'application/json',
    'Accept-Language': getUiLanguageTag(),
    [CLIENT_VERSION_HEADER]: CLIENT_VERSION,
  };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = `Bearer ${token}`;
  let res: Response;
  try {
    res = await fetch(getAuthUrl(path), {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(SECURITY_TIMEOUT_MS),
    });
  } catch {
    return { ok: false, status: NO_ANSWER, message: '' };
  }
  const json: unknown = await res.json().catch(() => undefined);
  if (!res.ok) {
    const failure = v.safeParse(AuthErrorSchema, json);
    return { ok: false, status: res.status, message: failure.success ? failure.output.message : '' };
  }
  const parsed = v.safeParse(schema, json);
  return parsed.success ? { ok: true, data: parsed.output } : { ok: false, status: BAD_ANSWER, message: '' };
}

export async function securityCall<T>(
  access: SessionAccess,
  method: 'GET' | 'POST',
  path: string,
  body: unknown,
  schema: v.GenericSchema<unknown, T>,
): Promise<SecurityResult<T>> {
  const first = await once(method, path, access.getAccessToken(), body, schema);
  // An expired access token answers 401: refresh once and replay (document 1 §4).
  if (first.ok || first.status !== 401) return first;
  if (!(await access.refresh().catch(() => false))) return first;
  return once(method, path, access.getAccessToken(), body, schema);
}
