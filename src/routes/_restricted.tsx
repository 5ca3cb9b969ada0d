import { Outlet, createFileRoute } from '@tanstack/react-router';
import { activeVariant } from '../../variants/index.ts';
import { requireSignedIn, requireUnrestricted } from '../app/guards.ts';
import { ensureAppCatalog } from '../lib/i18n.ts';
import { LanguageSwitcher } from '../app/language-switcher.tsx';
import { SignOutButton, useSavedLanguage } from '../app/session-controls.tsx';
import { SiteFooter } from '../app/site-footer.tsx';
import { useSessionCustomer } from '../features/auth/session-actor.ts';

/** Restricted layout: signed in, outside the main layout (admin overview, account chooser, SCP). */
export const Route = createFileRoute('/_restricted')({
  beforeLoad: async ({ context, location }) => {
    requireSignedIn(context.session, location.href);
    requireUnrestricted(context.session, location.pathname);
    // The signed-in screens' words are in the app catalog part (src/lib/i18n.ts).
    await ensureAppCatalog();
  },
  component: RestrictedLayout,
});

function RestrictedLayout() {
  const { session } = Route.useRouteContext();
  useSavedLanguage(useSessionCustomer(session));
  return (
    <div className="external-shell">
      <header className="app-header">
        <span className="app-brand">{activeVariant.projectName}</span>
        <div className="app-user">
          <LanguageSwitcher signedIn />
          <SignOutButton session={session} />
        </div>
      </header>
      <main id="main" tabIndex={-1} className="app-main restricted-main">
        <Outlet />
      </main>
      <SiteFooter />
    </div>
  );
}
