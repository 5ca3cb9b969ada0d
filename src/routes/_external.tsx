import { lazy, Suspense } from 'react';
import { Outlet, createFileRoute, useNavigate, useRouterState } from '@tanstack/react-router';
import { LanguageSwitcher } from '../app/language-switcher.tsx';
import { SiteFooter } from '../app/site-footer.tsx';
import { Brand } from '../app/shell/brand.tsx';
import { clearAuthSecret, parseActivationQuery } from '../features/registration/activation-query.ts';
import { useActivatedNotice } from '../features/registration/activated-notice.ts';
import { ensureAppCatalog } from '../lib/i18n.ts';

// Loaded only when a link carries an activation query action (the sign-in page stays small).
const ActivationPage = lazy(() =>
  Promise.all([import('../features/registration/activation-view.tsx'), ensureAppCatalog()]).then(([m]) => ({ default: m.ActivationPage })),
);

/** External layout: pages that need no sign-in (login, registration, recovery...). */
export const Route = createFileRoute('/_external')({
  // Document 1 §2: a query action of activation, activationBusiness or activationEmployee
  // activates the account, and any authentication secret is cleared.
  beforeLoad: ({ location }) => {
    if (parseActivationQuery(location.search as Record<string, unknown>)) clearAuthSecret();
  },
  component: ExternalLayout,
});

/** The query action's activation in place of the page; done, the user goes to a clean /login. */
function ExternalOutlet() {
  const search = useRouterState({ select: (s) => s.location.search as Record<string, unknown> });
  const navigate = useNavigate();
  const notifyActivated = useActivatedNotice();
  const query = parseActivationQuery(search);
  if (!query) return <Outlet />;
  const activation = (
    <Suspense fallback={null}>
      <ActivationPage
      key={`${query.kind}:${query.email}:${query.code}`}
      input={{ ...query, fromQuery: true }}
      onFinished={(outcome) => {
        if (outcome === 'activated') notifyActivated();
        void navigate({ to: '/login', search: {}, replace: true });
      }}
      />
    </Suspense>
  );
  // activationEmployee is a popup (document 3 §2): the page stays behind it.
  return query.kind === 'employee' ? (
    <>
      <Outlet />
      {activation}
    </>
  ) : (
    activation
  );
}

function ExternalLayout() {
  return (
    <div className="external-shell">
      <header className="shell-topbar">
        <Brand home={false} />
        <LanguageSwitcher signedIn={false} />
      </header>
      <main id="main" tabIndex={-1} className="external-main">
        <ExternalOutlet />
      </main>
      <SiteFooter />
    </div>
  );
}
