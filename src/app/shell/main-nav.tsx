/**
 * The main navigation of the signed-in shell, grouped by task (issue 13): Accounts (with Cards, issue
 * 16), Payments and Settings; Business joins as its issue adds it. One <nav> for every width: a
 * sidebar on wide screens, a panel the menu button opens on phones (shell.css), so the links exist
 * once for assistive technology.
 */
import { useId, type ReactNode } from 'react';
import { Link, useRouterState } from '@tanstack/react-router';
import { Deferred } from '../../ui/deferred.tsx';
import { useLingui } from '@lingui/react/macro';
import { BusinessIcon, CardIcon, CheckIcon, ExchangeIcon, GlobeIcon, HistoryIcon, HomeIcon, InfoIcon, LayersIcon, NewsIcon, PeopleIcon, PlusIcon, ProfileIcon, ReceiptIcon, SendIcon, SettingsIcon, StatementsIcon, type IconComponent } from '../../ui/icons.tsx';

interface NavItem {
  to: '/home' | '/cards' | '/add-money' | '/history' | '/history/batch-transfers' | '/statements' | '/transfer/p2p' | '/transfer/external' | '/transfer/mass' | '/transfer/account' | '/transfer/preapproved-payments' | '/transfer/approved' | '/company' | '/company-access' | '/profile' | '/setting' | '/login-history' | '/admin-overview' | '/messages' | '/news' | '/revenue-split';
  label: string;
  icon: IconComponent;
  search?: Record<string, unknown>;
  /** pages under this one that another item names: /history/batch-transfers is Batch payments, not History */
  notUnder?: string;
}

function NavGroup({ title, items }: { title: string; items: NavItem[] }) {
  const id = useId();
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  return (
    <div className="nav-group">
      <p className="nav-group-title" id={id}>
        {title}
      </p>
      <ul aria-labelledby={id}>
        {items.map((item) => (
          <li key={item.to}>
            <Link
              to={item.to}
              search={item.search as never}
              className="nav-link"
              activeProps={{ 'aria-current': 'page' }}
              activeOptions={item.notUnder !== undefined && pathname.startsWith(item.notUnder) ? { exact: true } : undefined}
            >
              <item.icon />
              {item.label}
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}

export function MainNav({ id, isAdmin, mayApprove = false, isCompany = false, open, footer }: { id: string; isAdmin: boolean; /** the company's checker (owner or full rights): payments to approve */ mayApprove?: boolean; /** a business customer or someone acting for a company: the Company group (issue 17 items 4-5) */ isCompany?: boolean; open: boolean; footer?: ReactNode }) {
  const { t } = useLingui();
  return (
    <nav id={id} className="main-nav" aria-label={t`Main`} data-open={open}>
      <div className="main-nav-inner">
      {/* the links one step after the page (src/ui/deferred.tsx): on a phone the panel is closed
          anyway, and on a wide screen the sidebar keeps its width meanwhile */}
      <Deferred>
      <NavGroup
        title={t`Accounts`}
        items={[
          { to: '/home', label: t`Home`, icon: HomeIcon },
          { to: '/cards', label: t`Cards`, icon: CardIcon },
          { to: '/add-money', label: t`Add money`, icon: PlusIcon },
          { to: '/history', label: t`History`, icon: HistoryIcon, notUnder: '/history/batch-transfers' },
          { to: '/statements', label: t`Statements`, icon: StatementsIcon },
          { to: '/history/batch-transfers', label: t`Batch payments`, icon: LayersIcon },
        ]}
      />
      <NavGroup
        title={t`Payments`}
        items={[
          { to: '/transfer/p2p', label: t`Send money`, icon: SendIcon },
          { to: '/transfer/external', label: t`To a bank or card`, icon: GlobeIcon },
          { to: '/transfer/mass', label: t`Pay many people`, icon: PeopleIcon },
          { to: '/transfer/account', label: t`Between accounts`, icon: ExchangeIcon },
          { to: '/transfer/preapproved-payments', label: t`Pre-approved payments`, icon: CheckIcon },
          { to: '/revenue-split', label: t`Revenue split`, icon: ReceiptIcon },
          ...(mayApprove ? [{ to: '/transfer/approved', label: t`Payments to approve`, icon: CheckIcon } as const] : []),
        ]}
      />
      {isCompany ? (
        <NavGroup
          title={t`Company`}
          items={[
            { to: '/company', label: t`Company details`, icon: BusinessIcon },
            { to: '/company-access', label: t`Users and access`, icon: PeopleIcon },
          ]}
        />
      ) : null}
      <NavGroup
        title={t`Your account`}
        items={[
          { to: '/profile', label: t`Profile`, icon: ProfileIcon },
          { to: '/messages', label: t`Messages`, icon: InfoIcon },
          { to: '/news', label: t`News`, icon: NewsIcon },
          { to: '/setting', label: t`Settings`, icon: SettingsIcon },
          { to: '/login-history', label: t`Sign-in history`, icon: ReceiptIcon, search: { page: 1 } },
        ]}
      />
      {isAdmin ? <NavGroup title={t`Administration`} items={[{ to: '/admin-overview', label: t`Admin overview`, icon: SettingsIcon, search: { page: 1 } }]} /> : null}
      </Deferred>
      {footer}
      </div>
    </nav>
  );
}
