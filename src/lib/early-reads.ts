/**
 * Early reads (issue 12: /home on a phone). A signed-in page opened cold (a reload, a link, a new
 * tab) cannot read anything before the router, the route's loader, the request wrapper and the
 * methods' contract have loaded: three rounds of downloads before its first request, and on a
 * phone each round costs a network round trip. The first screen's reads are known in advance
 * (the route's loader asks for them), so main.tsx starts them here at once, in parallel with
 * those downloads, with the session the tab kept.
 *
 * The request wrapper (request.ts send) takes an early answer instead of asking again when the
 * same call would be sent: the same method, the same JSON body, the same access token and acting
 * company. It takes each answer once, only a 200, and only within EARLY_READ_TTL_MS of its start;
 * anything else (an expired token's 401, an error, a network failure, another body) is ignored
 * and the wrapper asks as it always does, so an early read can only save time, never change an
 * answer.
 */
// No imports: this module is a chunk of its own (vite.config.ts), and whatever it imported would
// move into that chunk, away from the pages that need it first. main.tsx passes the URL and headers.

/** A read as the route's loader asks for it: its method and payload (plain JSON). */
export interface EarlyRead {
  method: string;
  payload: Record<string, unknown>;
}

/**
 * The first screen's reads by path: /home's loader (src/routes/_guarded/_main/home.tsx) reads the
 * customer, the accounts, the balance chart's default period and the verification status.
 * tests/ui/early-reads.test.tsx checks that these are the loader's calls, body for body.
 */
export const EARLY_READS: Readonly<Record<string, readonly EarlyRead[]>> = {
  '/home': [
    { method: 'getCustomerInfo', payload: {} },
    { method: 'balanceInquiry', payload: {} },
    { method: 'balanceHistory', payload: { days: 90 } },
    { method: 'userStatusGet', payload: {} },
  ],
};

/** How long an early answer waits to be taken (a loader that has not asked by then reads afresh). */
export const EARLY_READ_TTL_MS = 15_000;

interface Pending {
  startedAt: number;
  response: Promise<Response | null>;
}

const pending = new Map<string, Pending>();

/** The body the request wrapper sends for a plain read (request.ts buildBody, without files or secrets). */
export function readBody(method: string, payload: Record<string, unknown>, actingCustomerId: number | null): string {
  const body: Record<string, unknown> = { ...payload, method };
  if (actingCustomerId !== null) body.fromCustomerId = actingCustomerId;
  return JSON.stringify(body);
}

const keyOf = (url: string, body: string, token: string, actingCustomerId: number | null) => `${url}\n${token}\n${actingCustomerId ?? ''}\n${body}`;

export interface EarlyReadSession {
  accessToken: string;
  /** when the token expires (machines/session/access-token.ts readAccessExpiryMs), null when unreadable */
  expiresAtMs: number | null;
  actingCustomerId: number | null;
  /** the method's URL, as the request wrapper builds it (api-base.ts getMethodUrl) */
  methodUrl: (method: string) => string;
  /** the headers the request wrapper sends with a JSON read (request.ts buildHeaders) */
  headers: Record<string, string>;
}

/** Starts the reads of `path`'s first screen, when it has any and the token is alive. */
export function startEarlyReads(path: string, session: EarlyReadSession): void {
  const reads = EARLY_READS[path];
  // a token about to expire would only be refused: the wrapper refreshes it and asks itself
  if (!reads || session.expiresAtMs === null || session.expiresAtMs <= Date.now() + 10_000) return;
  for (const read of reads) {
    const url = session.methodUrl(read.method);
    const body = readBody(read.method, read.payload, session.actingCustomerId);
    const response = fetch(url, { method: 'POST', headers: session.headers, body }).then(
      (r) => (r.status === 200 ? r : null),
      () => null,
    );
    pending.set(keyOf(url, body, session.accessToken, session.actingCustomerId), { startedAt: Date.now(), response });
  }
}

/** The early answer to this exact call, once; null when there is none (or it is no longer fresh). */
export async function takeEarlyRead(url: string, body: string, token: string | null, actingCustomerId: number | null): Promise<Response | null> {
  if (token === null || pending.size === 0) return null;
  const key = keyOf(url, body, token, actingCustomerId);
  const found = pending.get(key);
  if (!found) return null;
  pending.delete(key);
  if (Date.now() - found.startedAt > EARLY_READ_TTL_MS) return null;
  return found.response;
}

/** Drops every answer not taken yet (tests start each case without any). */
export function forgetEarlyReads(): void {
  pending.clear();
}
