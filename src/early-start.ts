/**
 * The early reads' start (src/lib/early-reads.ts): a script of its own that index.early.html (the
 * page the platform serves for /home, api/early-read-pages.ts) loads `async` beside the app's
 * bundle (vite.config.ts earlyStart), so the page opened cold asks for its first screen's data as
 * soon as this small file has arrived, not after the whole app has. It reads the session the tab
 * kept and the plan the session actor keeps beside it; without either, or on a page that names
 * another company to act for in its address (the app decides that one), it does nothing and the
 * page reads as it always does. It also writes the page's heading, as the app last drew it in this
 * tab, into the boot shell, where the app then draws the same heading.
 */
import { EARLY_READ_PLAN_KEY, FIRST_HEADING_KEY, drawFirstHeading, startEarlyReads, type EarlyReadPlan, type EarlyReadSession } from './lib/early-reads.ts';

function readJson(storage: Storage, key: string): unknown {
  try {
    const raw = storage.getItem(key);
    return raw === null ? null : (JSON.parse(raw) as unknown);
  } catch {
    return null;
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isStringRecord = (value: unknown): value is Record<string, string> => isRecord(value) && Object.values(value).every((item) => typeof item === 'string');

function readPlan(storage: Storage): EarlyReadPlan | null {
  const plan = readJson(storage, EARLY_READ_PLAN_KEY);
  if (!isRecord(plan) || typeof plan.sessionKey !== 'string' || typeof plan.methodUrlPrefix !== 'string' || typeof plan.actingHeader !== 'string') return null;
  if (!isStringRecord(plan.headers)) return null;
  return { sessionKey: plan.sessionKey, methodUrlPrefix: plan.methodUrlPrefix, headers: plan.headers, actingHeader: plan.actingHeader };
}

/** The tab's session as session-actor.ts persists it: its access token and the company acted for. */
function readSession(storage: Storage, key: string): EarlyReadSession | null {
  const session = readJson(storage, key);
  if (!isRecord(session) || !isRecord(session.tokens) || typeof session.tokens.accessToken !== 'string') return null;
  const acting = session.actingCustomerId;
  return { accessToken: session.tokens.accessToken, actingCustomerId: typeof acting === 'number' && Number.isSafeInteger(acting) && acting > 0 ? acting : null };
}

function start(): void {
  let storage: Storage;
  try {
    storage = window.sessionStorage;
  } catch {
    return; // storage blocked: the app reads as it always does
  }
  if (new URLSearchParams(window.location.search).has('fromCustomerId')) return;
  const plan = readPlan(storage);
  const session = plan && readSession(storage, plan.sessionKey);
  // An expired token is not checked here (the app's check lives in the bundle this script runs
  // ahead of): its reads are answered 401, which the wrapper ignores before refreshing the token.
  if (!plan || !session) return;
  startEarlyReads(window.location.pathname, plan, session);
  drawFirstHeading(document, readJson(storage, FIRST_HEADING_KEY), window.location.pathname, session.actingCustomerId);
}

start();
