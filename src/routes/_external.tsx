import { Outlet, createFileRoute } from '@tanstack/react-router';
import { activeVariant } from '../../variants/index.ts';
import { LanguageSwitcher } from '../app/language-switcher.tsx';
import { SiteFooter } from '../app/site-footer.tsx';

/** External layout: pages that need no sign-in (login, registration, recovery...). */
export const Route = createFileRoute('/_external')({
  component: ExternalLayout,
});

function ExternalLayout() {
  return (
    <div className="external-shell">
      <header className="app-header">
        <span className="app-brand">{activeVariant.projectName}</span>
        <LanguageSwitcher signedIn={false} />
      </header>
      <main id="main" tabIndex={-1} className="app-main">
        <Outlet />
      </main>
      <SiteFooter />
    </div>
  );
}
