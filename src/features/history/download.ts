/**
 * File downloads over REST (api/history.ts: the export's CSV and the month's statement PDF): a GET
 * with the same headers as the named-method calls (src/lib/request.ts): the bearer token, the
 * UI language, the client version and, when acting for a company, the Customer-Id header. A 401
 * refreshes the session once and replays (document 1 §4). Error bodies are the envelope's
 * `{ responseCode, responseDescription }` (server/modules/history/history.routes.ts): 404 an
 * unknown (or another customer's) export, account or month, 409 an export not done. The answer is read as a Blob and saved
 * through an object URL under a file name; the URL is revoked afterwards. Expected failures come
 * back as values; the token is sent, never logged.
 */
import * as v from 'valibot';
import { AuthErrorSchema } from '../../../api/auth.ts';
import { FailureSchema } from '../../../api/envelope.ts';
import { CLIENT_VERSION, CLIENT_VERSION_HEADER, CUSTOMER_ID_HEADER, REQUEST_TIMEOUT_MS } from '../../../api/http.ts';
import { getApiOrigin } from '../../lib/api-base.ts';
import { getUiLanguageTag } from '../../lib/i18n.ts';
import { describeFailure, type RequestHooks } from '../../lib/request.ts';

/** What a download needs from the session (the route passes sessionRequestHooks). */
export type DownloadAccess = Pick<RequestHooks, 'getAccessToken' | 'refresh' | 'getActingCustomerId'>;

export type FileResult =
  | { ok: true; blob: Blob; fileName: string | null }
  | { ok: false; code: 'network' | 'refused' | 'notFound'; detail: string | null };

/** Object URLs are revoked this long after the click (some browsers read the file after click() returns). */
export const REVOKE_AFTER_MS = 40_000;

function headersFor(access: DownloadAccess, accept: string): Headers {
  const headers = new Headers({ Accept: accept, 'Accept-Language': getUiLanguageTag(), [CLIENT_VERSION_HEADER]: CLIENT_VERSION });
  const token = access.getAccessToken();
  if (token) headers.set('Authorization', `Bearer ${token}`);
  const acting = access.getActingCustomerId();
  if (acting !== null) headers.set(CUSTOMER_ID_HEADER, String(acting));
  return headers;
}

/** `attachment; filename="history-1.csv"` -> history-1.csv (quoted or bare; null when absent). */
export function fileNameOf(contentDisposition: string | null): string | null {
  if (!contentDisposition) return null;
  const match = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(contentDisposition);
  if (!match?.[1]) return null;
  try {
    return safeFileName(decodeURIComponent(match[1]));
  } catch {
    return safeFileName(match[1]);
  }
}

/** Letters, digits, dot, dash and underscore only; never a path. */
export function safeFileName(name: string): string | null {
  const base = name.split(/[\\/]/).pop() ?? '';
  const cleaned = base.replace(/[^\w.-]+/g, '_').replace(/^\.+/, '').slice(0, 120);
  return cleaned.length > 0 ? cleaned : null;
}

/** The text of an error body: the envelope's (responseDescription, validation errors), or a `{ message }`. */
function failureText(body: unknown): string | null {
  const failure = v.safeParse(FailureSchema, body);
  if (failure.success) return describeFailure(failure.output);
  const message = v.safeParse(AuthErrorSchema, body);
  return message.success && message.output.message ? message.output.message : null;
}

/** GET `path` (a path of the platform, e.g. exportFilePath(id)) as a Blob. */
export async function fetchFile(access: DownloadAccess, path: string, accept: string): Promise<FileResult> {
  const url = `${getApiOrigin()}${path}`;
  const send = async (): Promise<Response | null> => {
    try {
      return await globalThis.fetch(url, { method: 'GET', headers: headersFor(access, accept), signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    } catch {
      return null;
    }
  };
  let response = await send();
  if (response?.status === 401 && (await access.refresh().catch(() => false))) response = await send();
  if (response === null) return { ok: false, code: 'network', detail: null };
  if (!response.ok) return { ok: false, code: response.status === 404 ? 'notFound' : 'refused', detail: failureText(await response.json().catch(() => undefined)) };
  try {
    return { ok: true, blob: await response.blob(), fileName: fileNameOf(response.headers.get('Content-Disposition')) };
  } catch {
    return { ok: false, code: 'network', detail: null };
  }
}

/** Saves a Blob as a file: a temporary link with the download attribute, clicked once. */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  link.hidden = true;
  document.body.append(link);
  try {
    link.click();
  } finally {
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), REVOKE_AFTER_MS);
  }
}

/** Fetches and saves; the file name is the platform's when it sends one, else `fallbackName`. */
export async function downloadFile(access: DownloadAccess, path: string, accept: string, fallbackName: string): Promise<Exclude<FileResult, { ok: true }> | { ok: true }> {
  const result = await fetchFile(access, path, accept);
  if (!result.ok) return result;
  saveBlob(result.blob, result.fileName ?? fallbackName);
  return { ok: true };
}
