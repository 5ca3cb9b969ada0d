/**
 * The plan of the early reads (src/lib/early-reads.ts): what src/early-start.ts needs to know on
 * the next load of a signed-in page in this tab: the methods' address, the headers of a read in
 * the language now chosen, where the session is kept. The session actor writes it beside the
 * session whenever it keeps one with tokens (a sign-in, a restore, a token refresh), and a sign-out
 * clears it with the rest of the tab's storage. A later change of language or of the API's address
 * only makes one reload's early reads useless (the request wrapper compares URL, body and headers
 * before it takes an early answer).
 *
 * This module is part of the app's start; early-reads.ts is a chunk of its own that /login never
 * loads, so the storage key is written out here too (tests/ui/early-reads.test.tsx checks that
 * both are the same) and only the plan's type is imported.
 */
import type { EarlyReadPlan, FirstHeading } from './early-reads.ts';
import { getMethodUrl } from './api-base.ts';
import { getUiLanguageTag } from './i18n.ts';
import { CUSTOMER_ID_HEADER, methodHeaders } from '../../api/http.ts';

/** sessionStorage key of the plan (early-reads.ts EARLY_READ_PLAN_KEY). */
export const EARLY_READ_PLAN_STORAGE_KEY = 'wlb.early-reads';

/** The plan for the app as it is configured now, its session kept under `sessionKey`. */
export function earlyReadPlan(sessionKey: string): EarlyReadPlan {
  return {
    sessionKey,
    methodUrlPrefix: getMethodUrl(''),
    headers: methodHeaders({ languageTag: getUiLanguageTag(), accessToken: null, actingCustomerId: null, json: true }),
    actingHeader: CUSTOMER_ID_HEADER,
  };
}

/** sessionStorage key of the first heading (early-reads.ts FIRST_HEADING_KEY). */
export const FIRST_HEADING_STORAGE_KEY = 'wlb.early-heading';

/**
 * Remembers a page's heading as the app draws it (in the language chosen, for the company acted
 * for), which the early script draws in the boot shell on the next load of that page in this tab
 * (issue 12: /home's largest text waited for the app's whole script). `text` null forgets it: the
 * page drew something above its heading (a status banner) that the boot shell has no room for.
 */
export function rememberFirstHeading(path: string, actingCustomerId: number | null, text: string | null): void {
  try {
    if (text === null) sessionStorage.removeItem(FIRST_HEADING_STORAGE_KEY);
    else sessionStorage.setItem(FIRST_HEADING_STORAGE_KEY, JSON.stringify({ path, actingCustomerId, text } satisfies FirstHeading));
  } catch {
    // storage full or blocked: the next load draws its heading with the app
  }
}

export function writeEarlyReadPlan(storage: Storage, sessionKey: string): void {
  const plan = JSON.stringify(earlyReadPlan(sessionKey));
  try {
    if (storage.getItem(EARLY_READ_PLAN_STORAGE_KEY) !== plan) storage.setItem(EARLY_READ_PLAN_STORAGE_KEY, plan);
  } catch {
    // storage full or blocked: the next load reads as it always does
  }
}
