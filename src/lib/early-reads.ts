/**
 * Early reads (issue 12: /home on a phone). A signed-in page opened cold (a reload, a link, a new
 * tab) cannot read anything before the app's bundle, the router, the route's loader and the
 * methods' contract have loaded: some 170 kB and three rounds of downloads before its first
 * request, and on a phone each round costs a network round trip. The first screen's reads are
 * known in advance (the route's loader asks for them), so a script of its own (src/early-start.ts,
 * a module with no imports but this one, loaded `async` beside the app's bundle by the page the
 * platform serves for these paths, api/early-read-pages.ts) starts them as soon as the page's HTML
 * has named it, in parallel with those downloads, with the session the tab kept.
 *
 * That script knows nothing of the app's configuration (the API's address, the language, the
 * headers): the session actor writes them into the tab's sessionStorage beside the session
 * (EarlyReadPlan, src/lib/early-read-plan.ts), and the script reads them back on the next load of
 * a signed-in page. A tab without a signed-in session has no plan and reads nothing early.
 *
 * The request wrapper (request.ts send) takes an early answer instead of asking again when the
 * same call would be sent: the same URL, the same JSON body and the same headers (the access
 * token, the acting company, the language). It takes each answer once, only a 200, and only
 * within EARLY_READ_TTL_MS of its start; anything else (an expired token's 401, an error, a
 * network failure, another body, a plan written before the language changed) is ignored and the
 * wrapper asks as it always does, so an early read can only save time, never change an answer.
 */
// No imports but a type: this module and early-start.ts are a chunk of their own (vite.config.ts),
// fetched beside the app's bundle, and whatever they imported would have to arrive first.
import type { EarlyReadPage } from '../../api/early-read-pages.ts';

/**
 * The recent activity's request (history filter.ts historyRequest({}, 1, HISTORY_PAGE_SIZE)),
 * written out: this chunk imports nothing. tests/ui/early-reads.test.tsx compares it with the one the view sends.
 */
const HOME_ACTIVITY_REQUEST: Record<string, unknown> = { pageNumber: 1, pageSize: 20 };

/** A read as the route's loader asks for it: its method and payload (plain JSON). */
export interface EarlyRead {
  method: string;
  payload: Record<string, unknown>;
}

/**
 * The first screen's reads by path: /home's loader (src/routes/_guarded/_main/home.tsx) reads the
 * customer, the accounts, the balance chart's default period and the verification status, and its
 * recent activity (src/features/history/recent-activity.tsx) the first page of the history.
 * tests/ui/early-reads.test.tsx checks that these are the page's calls, body for body.
 */
export const EARLY_READS: Readonly<Record<EarlyReadPage, readonly EarlyRead[]>> = {
  '/home': [
    { method: 'getCustomerInfo', payload: {} },
    { method: 'balanceInquiry', payload: {} },
    { method: 'balanceHistory', payload: { days: 90 } },
    { method: 'userStatusGet', payload: {} },
    { method: 'transactionHistory', payload: HOME_ACTIVITY_REQUEST },
  ],
};

/** How long an early answer waits to be taken (a loader that has not asked by then reads afresh). */
export const EARLY_READ_TTL_MS = 15_000;

/** sessionStorage key of the plan (what the early script needs to know of the app's configuration). */
export const EARLY_READ_PLAN_KEY = 'wlb.early-reads';

/** What the session actor keeps beside the session for the early script of the next load (early-read-plan.ts). */
export interface EarlyReadPlan {
  /** the sessionStorage key of the persisted session (session-actor.ts SESSION_STORAGE_KEY) */
  sessionKey: string;
  /** a method's URL less its name, as the request wrapper builds it (api-base.ts getMethodUrl('')) */
  methodUrlPrefix: string;
  /** the headers of a JSON read without a token or an acting company (api/http.ts methodHeaders) */
  headers: Record<string, string>;
  /** the header naming the company acted for (api/http.ts CUSTOMER_ID_HEADER) */
  actingHeader: string;
}

/**
 * sessionStorage key of the first heading: the page's heading as the app last drew it in this tab
 * (early-read-plan.ts rememberFirstHeading), which the early script writes into the boot shell
 * (vite.config.ts bootShell) so a reload shows it before the app has arrived.
 */
export const FIRST_HEADING_KEY = 'wlb.early-heading';

/** The first heading of a page for the company acted for (null: the customer's own). */
export interface FirstHeading {
  path: string;
  actingCustomerId: number | null;
  text: string;
}

/**
 * Writes the remembered heading into the boot shell's heading (`[data-boot-heading]`) when it was
 * drawn on this page for the same company acted for; as text, never as markup. Nothing when the
 * app has already replaced the boot shell.
 */
export function drawFirstHeading(document: Document, stored: unknown, path: string, actingCustomerId: number | null): void {
  if (typeof stored !== 'object' || stored === null) return;
  const { path: storedPath, actingCustomerId: storedActing, text } = stored as Partial<Record<keyof FirstHeading, unknown>>;
  if (storedPath !== path || storedActing !== actingCustomerId || typeof text !== 'string' || text === '') return;
  const heading = document.querySelector('[data-boot-heading]');
  if (heading) heading.textContent = text;
}

export interface EarlyReadSession {
  accessToken: string;
  actingCustomerId: number | null;
}

interface Pending {
  startedAt: number;
  response: Promise<Response | null>;
}

// On the global object: early-start.ts and the app may each have their own copy of this module
// (two entries of one build share it, but a test or a dev server may load it twice).
const PENDING = Symbol.for('wlb.early-reads');
function pending(): Map<string, Pending> {
  const host = globalThis as { [PENDING]?: Map<string, Pending> };
  host[PENDING] ??= new Map();
  return host[PENDING];
}

/** The body the request wrapper sends for a plain read (request.ts buildBody, without files or secrets). */
export function readBody(method: string, payload: Record<string, unknown>, actingCustomerId: number | null): string {
  const body: Record<string, unknown> = { ...payload, method };
  if (actingCustomerId !== null) body.fromCustomerId = actingCustomerId;
  return JSON.stringify(body);
}

/** The headers of a read for this session: the plan's, the token's and the acting company's. */
export function readHeaders(plan: EarlyReadPlan, session: EarlyReadSession): Record<string, string> {
  return {
    ...plan.headers,
    Authorization: `Bearer ${session.accessToken}`,
    ...(session.actingCustomerId === null ? {} : { [plan.actingHeader]: String(session.actingCustomerId) }),
  };
}

const headersKey = (headers: Record<string, string>) =>
  JSON.stringify(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]).sort(([a], [b]) => (a! < b! ? -1 : a! > b! ? 1 : 0)));
const keyOf = (url: string, body: string, headers: Record<string, string>) => `${url}\n${headersKey(headers)}\n${body}`;

/** Starts the reads of `path`'s first screen, when it has any. */
export function startEarlyReads(path: string, plan: EarlyReadPlan, session: EarlyReadSession): void {
  const reads = (EARLY_READS as Readonly<Record<string, readonly EarlyRead[] | undefined>>)[path];
  if (!reads) return;
  const headers = readHeaders(plan, session);
  for (const read of reads) {
    const url = `${plan.methodUrlPrefix}${read.method}`;
    const body = readBody(read.method, read.payload, session.actingCustomerId);
    const response = fetch(url, { method: 'POST', headers, body }).then(
      (r) => (r.status === 200 ? r : null),
      () => null,
    );
    pending().set(keyOf(url, body, headers), { startedAt: Date.now(), response });
  }
}

/** The early answer to this exact call (URL, body and headers), once; null when there is none (or it is no longer fresh). */
export async function takeEarlyRead(url: string, body: string, headers: Record<string, string>): Promise<Response | null> {
  const all = pending();
  if (all.size === 0) return null;
  const key = keyOf(url, body, headers);
  const found = all.get(key);
  if (!found) return null;
  all.delete(key);
  if (Date.now() - found.startedAt > EARLY_READ_TTL_MS) return null;
  return found.response;
}

/** Drops every answer not taken yet (tests start each case without any). */
export function forgetEarlyReads(): void {
  pending().clear();
}
