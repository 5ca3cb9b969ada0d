/**
 * The real actors of the signing page (machines/e-signature): the built-in e-signature's REST
 * calls (api/esign.ts, server/modules/esign/esign.routes.ts). No bearer token: the sign URL's token
 * in the path authorises. The same headers as the named-method calls (language, client version).
 * Tokens are sent, never logged.
 */
import * as v from 'valibot';
import { fromPromise } from 'xstate';
import { FailureSchema, type Failure } from '../../../api/envelope.ts';
import { esignPdfPath, esignSignPath, esignStatePath, EsignSignedSchema, EsignStateSchema } from '../../../api/esign.ts';
import { CLIENT_VERSION, CLIENT_VERSION_HEADER, REQUEST_TIMEOUT_MS } from '../../../api/http.ts';
import { eSignatureMachine, type LoadSigningResult, type SubmitSignatureRequest, type SubmitSignatureResult } from '../../../machines/e-signature/e-signature.machine.ts';
import { getApiOrigin } from '../../lib/api-base.ts';
import { getUiLanguageTag } from '../../lib/i18n.ts';

/** The PDF of a token, for the page's frame and its download link. */
export const esignPdfUrl = (token: string) => `${getApiOrigin()}${esignPdfPath(token)}`;

async function send(path: string, init: { method: 'GET' | 'POST'; body?: unknown }): Promise<Response | null> {
  const headers = new Headers({ Accept: 'application/json', 'Accept-Language': getUiLanguageTag(), [CLIENT_VERSION_HEADER]: CLIENT_VERSION });
  if (init.body !== undefined) headers.set('Content-Type', 'application/json');
  try {
    return await globalThis.fetch(`${getApiOrigin()}${path}`, {
      method: init.method,
      headers,
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      credentials: 'omit',
    });
  } catch {
    return null;
  }
}

/** Reads an answer's body the code does not need: an unread body keeps the request open (the page never settles). */
async function drain(response: Response): Promise<void> {
  await response.arrayBuffer().catch(() => undefined);
}

async function failureOf(response: Response): Promise<Failure | null> {
  const body: unknown = await response.json().catch(() => undefined);
  const failure = v.safeParse(FailureSchema, body);
  return failure.success ? failure.output : null;
}

export async function loadSigning(token: string): Promise<LoadSigningResult> {
  const response = await send(esignStatePath(token), { method: 'GET' });
  if (response === null) return { ok: false, code: 'network' };
  if (response.status === 404) return drain(response).then(() => ({ ok: false, code: 'notFound' }));
  if (!response.ok) return { ok: false, code: 'failed', failure: await failureOf(response) };
  const state = v.safeParse(EsignStateSchema, await response.json().catch(() => undefined));
  return state.success ? { ok: true, state: state.output } : { ok: false, code: 'failed', failure: null };
}

export async function submitSignature(request: SubmitSignatureRequest): Promise<SubmitSignatureResult> {
  const { token, ...body } = request;
  const response = await send(esignSignPath(token), { method: 'POST', body });
  if (response === null) return { ok: false, code: 'network' };
  if (response.status === 409) return drain(response).then(() => ({ ok: false, code: 'alreadySigned' }));
  if (response.status === 410) return drain(response).then(() => ({ ok: false, code: 'expired' }));
  if (!response.ok) return { ok: false, code: 'failed', failure: await failureOf(response) };
  const signed = v.safeParse(EsignSignedSchema, await response.json().catch(() => undefined));
  return signed.success ? { ok: true, signed: signed.output } : { ok: false, code: 'failed', failure: null };
}

/** The signing chart with the app's actors. */
export function createESignatureLogic() {
  return eSignatureMachine.provide({
    actors: {
      loadSigning: fromPromise<LoadSigningResult, { token: string }>(({ input }) => loadSigning(input.token)),
      submitSignature: fromPromise<SubmitSignatureResult, SubmitSignatureRequest>(({ input }) => submitSignature(input)),
    },
  });
}
