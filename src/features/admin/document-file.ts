/**
 * A customer's document file for the administrator (api/documents.ts adminDocumentFileRoute:
 * GET /api/v1/admin/documents/{id}/file, bearer): fetched as a Blob and saved through an object
 * URL (revoked afterwards). A 401 refreshes once and replays. The content is never logged.
 */
import { recoveryFileRoute } from '../../../api/admin.ts';
import { adminDocumentFileRoute } from '../../../api/documents.ts';
import { CLIENT_VERSION, CLIENT_VERSION_HEADER, REQUEST_TIMEOUT_MS } from '../../../api/http.ts';
import { getApiOrigin } from '../../lib/api-base.ts';
import { getUiLanguageTag } from '../../lib/i18n.ts';
import type { RequestHooks } from '../../lib/request.ts';

export type FileAccess = Pick<RequestHooks, 'getAccessToken' | 'refresh'>;
export type FileOutcome = { ok: true } | { ok: false; code: 'network' | 'notFound' | 'refused' };

/** Object URLs are revoked this long after the click (some browsers read the file after click() returns). */
const REVOKE_AFTER_MS = 40_000;

export const adminDocumentFilePath = (documentId: number) => adminDocumentFileRoute.replace(':documentId', String(documentId));

export async function downloadDocumentFile(access: FileAccess, documentId: number, fileName: string): Promise<FileOutcome> {
  return downloadAdminFile(access, adminDocumentFilePath(documentId), fileName.replace(/[^\w.-]+/g, '_').slice(0, 120) || `document-${documentId}`);
}

/** The identity document or selfie of an account recovery (api/admin.ts recoveryFileRoute). */
export async function downloadRecoveryFile(access: FileAccess, taskId: string, kind: 'document' | 'selfie'): Promise<FileOutcome> {
  return downloadAdminFile(access, recoveryFileRoute.replace(':taskId', taskId).replace(':kind', kind), `recovery-${taskId.slice(0, 8)}-${kind}`);
}

/** An administrator's REST call with the session's token; a 401 refreshes once and asks again. Null: no answer. */
async function adminRequest(access: FileAccess, method: 'GET' | 'POST', path: string): Promise<Response | null> {
  const send = async (): Promise<Response | null> => {
    const headers = new Headers({ Accept: '*/*', 'Accept-Language': getUiLanguageTag(), [CLIENT_VERSION_HEADER]: CLIENT_VERSION });
    const token = access.getAccessToken();
    if (token) headers.set('Authorization', `Bearer ${token}`);
    try {
      return await globalThis.fetch(`${getApiOrigin()}${path}`, { method, headers, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    } catch {
      return null;
    }
  };
  const response = await send();
  return response?.status === 401 && (await access.refresh().catch(() => false)) ? send() : response;
}

async function downloadAdminFile(access: FileAccess, path: string, saveAs: string): Promise<FileOutcome> {
  const response = await adminRequest(access, 'GET', path);
  if (response === null) return { ok: false, code: 'network' };
  if (!response.ok) return { ok: false, code: response.status === 404 ? 'notFound' : 'refused' };
  let blob: Blob;
  try {
    blob = await response.blob();
  } catch {
    return { ok: false, code: 'network' };
  }
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = saveAs;
  link.rel = 'noopener';
  link.hidden = true;
  document.body.append(link);
  try {
    link.click();
  } finally {
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), REVOKE_AFTER_MS);
  }
  return { ok: true };
}

/**
 * Opens the statechart audit pack (issue 14; server/modules/platform/audit-pack.ts) in a new tab:
 * the administrator's token is posted to /audit/session, which answers with it in a cookie for
 * /audit/ only (a page load cannot carry the header), then the tab goes to /audit/. The tab is
 * opened at the click, before the request, so no pop-up blocker stops it; it is closed again when
 * the pack cannot be opened.
 */
export async function openAuditPack(access: FileAccess): Promise<FileOutcome> {
  const tab = window.open('', '_blank');
  const response = await adminRequest(access, 'POST', '/audit/session');
  if (!response || response.status !== 204) {
    tab?.close();
    return { ok: false, code: response === null ? 'network' : 'refused' };
  }
  if (tab) {
    tab.opener = null;
    tab.location.href = `${getApiOrigin()}/audit/`;
  }
  return { ok: true };
}
