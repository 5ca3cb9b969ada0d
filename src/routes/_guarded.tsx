import { Outlet, createFileRoute } from '@tanstack/react-router';
import { ensureAppCatalog } from '../lib/i18n.ts';
import { ensureQueryClient } from '../app/app-query-client.ts';
import { redirectToPendingSei, rememberSeiPath, requireKycDone, requireSignedIn, requireUnrestricted } from '../app/guards.ts';

/** Guarded routes: signed in, not restricted to one set-up screen, and KYC done unless the route is a KYC route. */
export const Route = createFileRoute('/_guarded')({
  beforeLoad: async ({ context, location }) => {
    rememberSeiPath(context.session, location.pathname, location.href);
    requireSignedIn(context.session, location.href);
    requireUnrestricted(context.session, location.pathname);
    redirectToPendingSei(context.session, location.pathname);
    requireKycDone(context.session, location.pathname);
    // The signed-in screens' words are in the app catalog part (src/lib/i18n.ts); their data is
    // read through the query client, loaded with its library now (app-query-client.ts).
    const [, queries] = await Promise.all([ensureAppCatalog(), ensureQueryClient(context)]);
    return queries;
  },
  component: Outlet,
});
