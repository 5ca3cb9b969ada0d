import { Link, Outlet, createRootRouteWithContext, type ErrorComponentProps } from '@tanstack/react-router';
import { useLingui } from '@lingui/react/macro';
import type { RouterContext } from '../app/router-context.ts';
import { ToastRegion } from '../ui/toast-region.tsx';
import { StepHeading } from '../ui/step-heading.tsx';
import { Alert } from '../ui/alert.tsx';
import { DemoBanner } from '../ui/demo-banner.tsx';
import { Brand } from '../app/shell/brand.tsx';

export const Route = createRootRouteWithContext<RouterContext>()({
  component: RootLayout,
  notFoundComponent: NotFoundPage,
  errorComponent: RootError,
});

function SkipLink() {
  const { t } = useLingui();
  return (
    <a className="skip-link" href="#main">
      {t`Skip to main content`}
    </a>
  );
}

function RootLayout() {
  return (
    <>
      <SkipLink />
      <DemoBanner />
      <Outlet />
      <ToastRegion />
    </>
  );
}

/** The 404 page: any path no route matches (document 1 §2). */
export function NotFoundPage() {
  const { t } = useLingui();
  return (
    <div className="external-shell">
      <header className="shell-topbar">
        <Brand home={false} />
      </header>
      <main id="main" tabIndex={-1} className="external-main">
        <StepHeading>{t`Page not found`}</StepHeading>
        <p>{t`The page you asked for does not exist or has moved.`}</p>
        <p>
          <Link to="/home">{t`Go to the home page`}</Link>
        </p>
      </main>
    </div>
  );
}

function RootError({ reset }: ErrorComponentProps) {
  const { t } = useLingui();
  return (
    <main id="main" tabIndex={-1} className="external-main">
      <StepHeading>{t`Something went wrong`}</StepHeading>
      <Alert tone="error">{t`The page could not be shown. Try again; if it keeps happening, contact support.`}</Alert>
      <button type="button" className="btn btn-primary" onClick={() => reset()}>
        {t`Try again`}
      </button>
    </main>
  );
}
