/**
 * The identity-verification job pages' reads over REST (server/modules/profile/profile.routes.ts):
 * GET /api/v1/identity-verification/{workflowRunId}/{token} (the token in the link authorises it,
 * no sign-in) and GET /api/v1/video-identity-job/{id} (bearer: the signed-in customer's own jobs).
 * The same headers as the named-method calls; a 401 refreshes once and replays. Error bodies are
 * the envelope's; 404 is an unknown job (or another customer's). Tokens are sent, never logged.
 */
import { queryOptions } from '@tanstack/react-query';
import * as v from 'valibot';
import { FailureSchema } from '../../../api/envelope.ts';
import { API_VERSION_PATH, CLIENT_VERSION, CLIENT_VERSION_HEADER, CUSTOMER_ID_HEADER, REQUEST_TIMEOUT_MS } from '../../../api/http.ts';
import { getApiOrigin } from '../../lib/api-base.ts';
import { getUiLanguageTag } from '../../lib/i18n.ts';
import { describeFailure, type RequestHooks } from '../../lib/request.ts';

export type JobAccess = Pick<RequestHooks, 'getAccessToken' | 'refresh' | 'getActingCustomerId'>;

/**
 * A job's state as the routes answer it. The contract names the paths, not this body (api/profile.ts
 * documents it in words), so the page checks it here: unknown extra fields are ignored.
 */
export const JobStateSchema = v.object({
  workflowRunId: v.string(),
  kind: v.picklist(['identity', 'video']),
  provider: v.string(),
  status: v.picklist(['pending', 'approved', 'rejected', 'expired']),
  created: v.string(),
  expires: v.string(),
  decided: v.optional(v.nullable(v.string())),
  rejectReason: v.optional(v.nullable(v.string())),
});
export type JobState = v.InferOutput<typeof JobStateSchema>;

export type JobResult = { ok: true; job: JobState } | { ok: false; code: 'notFound' | 'signIn' | 'network' | 'refused'; detail: string | null };

/** Thrown by the query functions: the page shows the failure. */
export class JobReadError extends Error {
  constructor(readonly result: Exclude<JobResult, { ok: true }>) {
    super(`identity job read failed: ${result.code}`);
    this.name = 'JobReadError';
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const TOKEN = /^[A-Za-z0-9_-]{20,100}$/;

/** Path parameters that cannot name a job are refused before any call (the platform would answer 404). */
export const isJobId = (id: string): boolean => UUID.test(id);
export const isJobToken = (token: string): boolean => TOKEN.test(token);

async function getJob(path: string, access: JobAccess | null): Promise<JobResult> {
  const headers = (): Headers => {
    const h = new Headers({ Accept: 'application/json', 'Accept-Language': getUiLanguageTag(), [CLIENT_VERSION_HEADER]: CLIENT_VERSION });
    const token = access?.getAccessToken();
    if (token) h.set('Authorization', `Bearer ${token}`);
    const acting = access?.getActingCustomerId() ?? null;
    if (acting !== null) h.set(CUSTOMER_ID_HEADER, String(acting));
    return h;
  };
  const send = async (): Promise<Response | null> => {
    try {
      return await globalThis.fetch(`${getApiOrigin()}${path}`, { method: 'GET', headers: headers(), signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    } catch {
      return null;
    }
  };
  let response = await send();
  if (response?.status === 401 && access && (await access.refresh().catch(() => false))) response = await send();
  if (response === null) return { ok: false, code: 'network', detail: null };
  const body: unknown = await response.json().catch(() => undefined);
  if (response.status === 401) return { ok: false, code: 'signIn', detail: null };
  if (response.status === 404) return { ok: false, code: 'notFound', detail: null };
  if (!response.ok) {
    const failure = v.safeParse(FailureSchema, body);
    return { ok: false, code: 'refused', detail: failure.success ? describeFailure(failure.output) : null };
  }
  const job = v.safeParse(JobStateSchema, body);
  return job.success ? { ok: true, job: job.output } : { ok: false, code: 'refused', detail: null };
}

const orThrow = (r: JobResult): JobState => {
  if (!r.ok) throw new JobReadError(r);
  return r.job;
};

/** The job of an identity-verification link (no sign-in: the token authorises it). */
export const identityJobQuery = (workflowRunId: string, token: string) =>
  queryOptions({
    queryKey: ['identityJob', workflowRunId, token],
    queryFn: async () =>
      orThrow(await getJob(`${API_VERSION_PATH}/identity-verification/${encodeURIComponent(workflowRunId)}/${encodeURIComponent(token)}`, null)),
    // The administrator may decide while the page is open: it reads again when the window regains focus.
    refetchOnWindowFocus: true,
    staleTime: 0,
  });

/** A video identity job of the signed-in customer. */
export const videoJobQuery = (id: string, access: JobAccess) =>
  queryOptions({
    queryKey: ['videoIdentityJob', id, access.getActingCustomerId()],
    queryFn: async () => orThrow(await getJob(`${API_VERSION_PATH}/video-identity-job/${encodeURIComponent(id)}`, access)),
    refetchOnWindowFocus: true,
    staleTime: 0,
  });
