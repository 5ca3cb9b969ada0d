import { Outlet, createFileRoute } from '@tanstack/react-router';
import { requireSignedIn, requireUnrestricted } from '../app/guards.ts';
import { ensureAppCatalog } from '../lib/i18n.ts';
import { ensureQueryClient } from '../app/app-query-client.ts';
import { RestrictedShell } from '../app/restricted-shell.tsx';

/** Restricted layout: signed in, outside the main layout (admin overview, account chooser, SCP). */
export const Route = createFileRoute('/_restricted')({
  beforeLoad: async ({ context, location }) => {
    requireSignedIn(context.session, location.href);
    requireUnrestricted(context.session, location.pathname);
    // The signed-in screens' words are in the app catalog part (src/lib/i18n.ts); their data is
    // read through the query client, loaded with its library now (app-query-client.ts).
    const [, queries] = await Promise.all([ensureAppCatalog(), ensureQueryClient(context)]);
    return queries;
  },
  component: RestrictedLayout,
});

function RestrictedLayout() {
  const { session } = Route.useRouteContext();
  return (
    <RestrictedShell session={session}>
      <Outlet />
    </RestrictedShell>
  );
}
