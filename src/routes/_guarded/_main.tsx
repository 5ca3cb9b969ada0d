import { Link, Outlet, createFileRoute, useRouterState } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { selectActingCustomerId, selectActingForName } from '../../../machines/session/session.select.ts';
import { useLingui } from '@lingui/react/macro';
import { activeVariant } from '../../../variants/index.ts';
import { LanguageSwitcher } from '../../app/language-switcher.tsx';
import { SignOutButton, useSavedLanguage } from '../../app/session-controls.tsx';
import { SiteFooter } from '../../app/site-footer.tsx';
import { IdleWarning } from '../../features/auth/idle-warning.tsx';
import { useSessionCustomer } from '../../features/auth/session-actor.ts';
import { customerDisplayName } from '../../features/home/display-name.ts';
import { AppStatusBanner } from '../../features/verification/app-status-banner.tsx';

/** Main layout: header with the customer's name, navigation, language switcher and sign-out. */
export const Route = createFileRoute('/_guarded/_main')({
  component: MainLayout,
});

function MainLayout() {
  const { t } = useLingui();
  const { session } = Route.useRouteContext();
  const customer = useSessionCustomer(session);
  useSavedLanguage(customer);
  const actingFor = useSelector(session, selectActingForName);
  const actingCustomerId = useSelector(session, selectActingCustomerId);
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  return (
    <>
      <header className="app-header">
        <Link to="/home" className="app-brand">
          {activeVariant.projectName}
        </Link>
        <nav className="app-nav" aria-label={t`Main`}>
          <ul>
            <li>
              <Link to="/home" activeProps={{ 'aria-current': 'page' }}>
                {t`Home`}
              </Link>
            </li>
            <li>
              <Link to="/transfer/account" activeProps={{ 'aria-current': 'page' }}>
                {t`Between accounts`}
              </Link>
            </li>
            <li>
              <Link to="/transfer/p2p" activeProps={{ 'aria-current': 'page' }}>
                {t`Send money`}
              </Link>
            </li>
            <li>
              <Link to="/history" activeProps={{ 'aria-current': 'page' }}>
                {t`History`}
              </Link>
            </li>
            <li>
              <Link to="/statements" activeProps={{ 'aria-current': 'page' }}>
                {t`Statements`}
              </Link>
            </li>
            <li>
              <Link to="/profile" activeProps={{ 'aria-current': 'page' }}>
                {t`Profile`}
              </Link>
            </li>
            <li>
              <Link to="/setting" activeProps={{ 'aria-current': 'page' }}>
                {t`Settings`}
              </Link>
            </li>
            {customer?.isAdmin ? (
              <li>
                <Link to="/admin-overview" search={{ page: 1 }} activeProps={{ 'aria-current': 'page' }}>
                  {t`Admin overview`}
                </Link>
              </li>
            ) : null}
          </ul>
        </nav>
        <div className="app-user">
          {customer ? <span className="app-user-name">{customerDisplayName(customer)}</span> : null}
          {actingFor ? <span className="app-acting-for">{t`Acting for ${actingFor}`}</span> : null}
          <LanguageSwitcher signedIn />
          <SignOutButton session={session} />
        </div>
      </header>
      <main id="main" tabIndex={-1} className="app-main">
        {/* Document 1 §4: the verification status banner on every page of the main layout. */}
        <AppStatusBanner pathname={pathname} actingCustomerId={actingCustomerId} />
        <Outlet />
      </main>
      <SiteFooter />
      <IdleWarning session={session} />
    </>
  );
}
