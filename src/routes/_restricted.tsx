import { Outlet, createFileRoute, useNavigate } from '@tanstack/react-router';
import { useLingui } from '@lingui/react/macro';
import { activeVariant } from '../../variants/index.ts';
import { requireSignedIn } from '../app/guards.ts';
import { LanguageSwitcher } from '../app/language-switcher.tsx';
import { SiteFooter } from '../app/site-footer.tsx';
import { logout } from '../features/auth/session-actor.ts';
import { Button } from '../ui/button.tsx';

/** Restricted layout: signed in, outside the main layout (admin overview, account chooser, SCP). */
export const Route = createFileRoute('/_restricted')({
  beforeLoad: ({ context, location }) => requireSignedIn(context.session, location.href),
  component: RestrictedLayout,
});

function RestrictedLayout() {
  const { t } = useLingui();
  const { session } = Route.useRouteContext();
  const navigate = useNavigate();
  return (
    <div className="external-shell">
      <header className="app-header">
        <span className="app-brand">{activeVariant.projectName}</span>
        <div className="app-user">
          <LanguageSwitcher signedIn />
          <Button
            variant="secondary"
            onClick={async () => {
              await logout(session);
              await navigate({ to: '/login' });
            }}
          >
            {t`Sign out`}
          </Button>
        </div>
      </header>
      <main id="main" tabIndex={-1} className="app-main restricted-main">
        <Outlet />
      </main>
      <SiteFooter />
    </div>
  );
}
