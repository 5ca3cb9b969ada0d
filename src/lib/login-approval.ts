/**
 * The sign-in attempt's live channel (push and verifyDevice flows, document 1 §3 "approval over a
 * live channel"): graphql-ws at /graphql with connectionParams `{ temporaryToken }`; the one
 * subscription (api/push.ts PUSH_SUBSCRIPTION) yields LoginApproval for this attempt only.
 * Also POST /auth/push/re-send, which (re)sends the approval request to the phones.
 *
 * The platform closes the socket with 4403 when the attempt is unknown or no longer pending and
 * after the final LoginApproval, so 4403 is final (no retry). Other closes (network) retry with the
 * push client's capped backoff, at most LOGIN_APPROVAL_RETRY_ATTEMPTS times. The temporary token
 * authenticates this attempt: never logged.
 */
import * as v from 'valibot';
import { authPaths } from '../../api/auth.ts';
import { PushResendResponseSchema } from '../../api/devices.ts';
import { CLIENT_VERSION, CLIENT_VERSION_HEADER } from '../../api/http.ts';
import { openEventChannel } from './push-client.ts';

export type LoginApprovalStatus = 'approved' | 'declined' | 'expired';

/** A sign-in wait is short (APPROVAL_TTL_S); a few reconnections cover a network blip. */
export const LOGIN_APPROVAL_RETRY_ATTEMPTS = 8;
/** The platform's "this attempt is not (or no longer) pending" close code. */
export const CLOSE_NOT_PENDING = 4403;
/** A re-send answers quickly or not at all. */
export const RESEND_TIMEOUT_MS = 15_000;

export interface LoginApprovalOptions {
  url: string;
  temporaryToken: string;
  /** the final answer of the phone (or the platform's expiry); called at most once */
  onStatus(status: LoginApprovalStatus): void;
  /** the channel closed for good without an answer (not pending any more, or retries exhausted) */
  onLost(): void;
  /** tests inject a WebSocket implementation; browsers use their own */
  webSocketImpl?: unknown;
}

/** Connects and listens; returns a function that closes the channel (idempotent). */
export function connectLoginApproval(opts: LoginApprovalOptions): () => void {
  let answered = false;
  return openEventChannel({
    url: opts.url,
    connectionParams: { temporaryToken: opts.temporaryToken },
    retryAttempts: LOGIN_APPROVAL_RETRY_ATTEMPTS,
    refusedCloseCode: CLOSE_NOT_PENDING,
    onEvent: (event) => {
      if (event.type !== 'LoginApproval' || answered) return false;
      answered = true;
      opts.onStatus(event.status);
      return true;
    },
    onLost: opts.onLost,
    ...(opts.webSocketImpl ? { webSocketImpl: opts.webSocketImpl } : {}),
  });
}

export type ResendResult = { ok: true; expiresInS: number } | { ok: false; status: number };

export interface ResendDeps {
  /** full URL of a token-service path (src/lib/api-base.ts getAuthUrl) */
  authUrl(path: string): string;
  language(): string;
  fetchFn?: typeof fetch;
}

/** status 0: no answer (network, time-out); -1: an answer that does not match the contract. */
export async function resendLoginApproval(
  deps: ResendDeps,
  body: { temporaryToken: string; deviceId?: number },
): Promise<ResendResult> {
  const doFetch = deps.fetchFn ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
  let res: Response;
  try {
    res = await doFetch(deps.authUrl(authPaths.pushResend), {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Accept: 'application/json',
        'Accept-Language': deps.language(),
        [CLIENT_VERSION_HEADER]: CLIENT_VERSION,
      },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(RESEND_TIMEOUT_MS),
    });
  } catch {
    return { ok: false, status: 0 };
  }
  if (!res.ok) return { ok: false, status: res.status };
  const parsed = v.safeParse(PushResendResponseSchema, await res.json().catch(() => undefined));
  return parsed.success ? { ok: true, expiresInS: parsed.output.expiresInS } : { ok: false, status: -1 };
}
