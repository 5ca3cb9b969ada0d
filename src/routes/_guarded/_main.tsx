import { useEffect, useId, useRef, useState } from 'react';
import { Outlet, createFileRoute, useRouterState } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { selectActingCustomerId, selectActingForName } from '../../../machines/session/session.select.ts';
import { useLingui } from '@lingui/react/macro';
import { LanguageSwitcher } from '../../app/language-switcher.tsx';
import { SignOutButton, useSavedLanguage } from '../../app/session-controls.tsx';
import { SiteFooter } from '../../app/site-footer.tsx';
import { AccountMenu } from '../../app/shell/account-menu.tsx';
import { Brand } from '../../app/shell/brand.tsx';
import { MainNav } from '../../app/shell/main-nav.tsx';
import { CloseIcon, MenuIcon } from '../../ui/icons.tsx';
import { IdleWarning } from '../../features/auth/idle-warning.tsx';
import { useSessionCustomer } from '../../features/auth/session-actor.ts';
import { customerDisplayName } from '../../features/home/display-name.ts';
import { AppStatusBanner } from '../../features/verification/app-status-banner.tsx';
import { CompanyActionNotice } from '../../features/company/company-view.tsx';
import { mayDecideBusinessPayments } from '../../../api/business-checker.ts';
import { NotificationBell } from '../../features/notifications/notification-bell.tsx';
import { NotificationListener } from '../../features/notifications/notification-listener.tsx';

/**
 * Main layout (issue 13): a top bar with the brand, the company acted for and the account menu
 * (name, language, profile, settings, sign-out); the main navigation grouped by task, a sidebar on
 * wide screens and a panel behind the menu button on phones (src/app/shell/shell.css).
 */
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
  // maker-checker (issue 17 item 6): the owner or a user with full rights sees /transfer/approved
  const actingRights = useSelector(session, (s) => s.context.accessInfo?.accessRights ?? null);
  const mayApprove = customer
    ? mayDecideBusinessPayments({ userType: customer.userType, actingForOther: actingCustomerId !== null && actingCustomerId !== customer.customerId, accessRights: actingRights })
    : false;
  // the company's pages (issue 17 items 4-5): a business customer, or a user acting for a company
  const isCompany = customer ? customer.customerType === 'business' || (actingCustomerId !== null && actingCustomerId !== customer.customerId) : false;
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  const [navOpen, setNavOpen] = useState(false);
  const menuButton = useRef<HTMLButtonElement>(null);
  const navId = useId();
  // a page change closes the phone's menu panel
  useEffect(() => setNavOpen(false), [pathname]);
  useEffect(() => {
    if (!navOpen) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setNavOpen(false);
      menuButton.current?.focus();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [navOpen]);
  const name = customer ? customerDisplayName(customer) : null;
  return (
    <div className="shell">
      <header className="shell-topbar">
        <button
          ref={menuButton}
          type="button"
          className="shell-menu-button"
          aria-expanded={navOpen}
          aria-controls={navId}
          onClick={() => setNavOpen((open) => !open)}
        >
          {navOpen ? <CloseIcon size={24} /> : <MenuIcon size={24} />}
          <span className="visually-hidden">{t`Menu`}</span>
        </button>
        <Brand />
        <div className="shell-topbar-end">
          {actingFor ? <span className="shell-acting-for">{t`Acting for ${actingFor}`}</span> : null}
          <NotificationBell actingCustomerId={actingCustomerId} />
          <AccountMenu
            name={name}
            email={customer?.login ?? null}
            actingFor={actingFor}
            language={<LanguageSwitcher signedIn />}
            signOut={<SignOutButton session={session} />}
          />
        </div>
      </header>
      <MainNav id={navId} isAdmin={customer?.isAdmin === true} mayApprove={mayApprove} isCompany={isCompany} open={navOpen} />
      <main id="main" tabIndex={-1} className="shell-main">
        {/* Document 1 §4: the verification status banner on every page of the main layout. */}
        <AppStatusBanner pathname={pathname} actingCustomerId={actingCustomerId} />
        {/* Document 3 §5: what the company still has to provide, on every page but its own (they list each item). */}
        {isCompany && !pathname.startsWith('/company') ? <CompanyActionNotice actingCustomerId={actingCustomerId} /> : null}
        <Outlet />
      </main>
      <SiteFooter />
      <IdleWarning session={session} />
      {/* CustomerNotification pushes: the toast with its target, and the reads they make stale (document 3 §2, §4). */}
      <NotificationListener />
    </div>
  );
}
