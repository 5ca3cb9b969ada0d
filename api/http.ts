/** Constants of the HTTP contract (document 1 §7, §9). */
export const CLIENT_VERSION = '2.1.2';
export const CLIENT_VERSION_HEADER = 'X-Client-Version';
/** The company a business user acts for, sent as a header alongside fromCustomerId. */
export const CUSTOMER_ID_HEADER = 'Customer-Id';
export const REQUEST_TIMEOUT_MS = 5 * 60 * 1000;
/** The versioned base of the named-method API under a platform's origin. */
export const API_VERSION_PATH = '/api/v1';

/**
 * The headers of a named-method call (document 1 §7): JSON, the UI language, the client's
 * version, the bearer token when signed in and the company acted for. The request wrapper
 * (src/lib/request.ts) sends them, and the early reads (src/main.tsx) the same.
 */
export function methodHeaders(o: { languageTag: string; accessToken: string | null; actingCustomerId: number | null; json: boolean }): Record<string, string> {
  return {
    Accept: 'application/json',
    'Accept-Language': o.languageTag,
    [CLIENT_VERSION_HEADER]: CLIENT_VERSION,
    // FormData sets its own multipart boundary
    ...(o.json ? { 'Content-Type': 'application/json' } : {}),
    ...(o.accessToken ? { Authorization: `Bearer ${o.accessToken}` } : {}),
    ...(o.actingCustomerId === null ? {} : { [CUSTOMER_ID_HEADER]: String(o.actingCustomerId) }),
  };
}
