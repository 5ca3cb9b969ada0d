/**
 * The composition root. Order matters:
 * 1. the `api` query value (backend override) is applied before anything calls the API;
 * 2. the UI language is loaded before the first render (document 1 §1);
 * 3. the page title is set (the variant's colours and font are in the build's stylesheet,
 *    src/ui/styles.ts, so nothing is applied at run time);
 * 4. the dev inspector is set up (only with `?inspect`, only in development), then the session actor starts (restored from sessionStorage) and the request wrapper gets its hooks;
 * 5. the router renders.
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { activeVariant } from '../variants/index.ts';
import { createSessionActor, readPersistedSession, sessionRequestHooks } from './features/auth/session-actor.ts';
import { applyApiQuery } from './lib/api-base.ts';
import { initI18n } from './lib/i18n.ts';
import { configureRequest } from './lib/request-hooks.ts';
import { clearToasts } from './lib/notify.ts';
import { runSignOutHooks } from './lib/sign-out-hooks.ts';
import { AppRoot } from './app/app-root.tsx';
import { loadAppQueryClient, loadedAppQueryClient } from './app/app-query-client.ts';
import { preloadRequest } from './lib/request-later.ts';
import { createAppRouter } from './app/router.ts';
import './ui/styles.ts';

/** Pages a restored session does not stay on (the external layout's): nothing to load ahead. */
const SIGNED_OUT_PATHS = /^\/(login|register|account-recovery|activate)(\/|$)/;

async function start() {
  const apiQuery = new URLSearchParams(window.location.search).get('api');
  if (apiQuery !== null) applyApiQuery(apiQuery);

  // A restored session opening a signed-in page (a reload, a new tab's link): what that page
  // needs after the guard (the query client with its chunk, the app's words) loads now, in
  // parallel with the start, instead of one round trip later (issue 12: /home on a phone). Its
  // first screen's reads were started before this bundle arrived (src/early-start.ts, with the
  // plan the session actor keeps beside the session, src/lib/early-read-plan.ts).
  const persisted = readPersistedSession();
  const signedInPage = persisted?.tokens != null && !SIGNED_OUT_PATHS.test(window.location.pathname);
  if (signedInPage) {
    void loadAppQueryClient().catch(() => undefined);
    preloadRequest();
  }
  await initI18n({ allowed: activeVariant.languages, appCatalog: signedInPage });
  document.title = activeVariant.projectName;

  // before any actor starts: the session and every flow's actor report to it (src/lib/actors.ts)
  if (import.meta.env.DEV) await (await import('./app/inspector.ts')).installDevInspector();
  const session = createSessionActor({
    clearCaches: () => {
      // the query client exists once a route that reads through it was opened (app-query-client.ts)
      loadedAppQueryClient()?.clear();
      clearToasts();
      runSignOutHooks();
    },
  });
  configureRequest(sessionRequestHooks(session));

  const router = createAppRouter({ session });
  const container = document.getElementById('root');
  if (!container) throw new Error('index.html has no #root element');
  createRoot(container).render(
    <StrictMode>
      <AppRoot router={router} />
    </StrictMode>,
  );
}

void start();
