/**
 * The main navigation of the signed-in shell, grouped by task (issue 13): Accounts, Payments and
 * Settings today; Cards and Business join as their issues add them. One <nav> for every width: a
 * sidebar on wide screens, a panel the menu button opens on phones (shell.css), so the links exist
 * once for assistive technology.
 */
import { useId, type ReactNode } from 'react';
import { Link } from '@tanstack/react-router';
import { useLingui } from '@lingui/react/macro';

interface NavItem {
  to: '/home' | '/history' | '/statements' | '/transfer/p2p' | '/transfer/account' | '/profile' | '/setting' | '/login-history' | '/admin-overview';
  label: string;
  search?: Record<string, unknown>;
}

function NavGroup({ title, items }: { title: string; items: NavItem[] }) {
  const id = useId();
  return (
    <div className="nav-group">
      <p className="nav-group-title" id={id}>
        {title}
      </p>
      <ul aria-labelledby={id}>
        {items.map((item) => (
          <li key={item.to}>
            <Link to={item.to} search={item.search as never} className="nav-link" activeProps={{ 'aria-current': 'page' }}>
              {item.label}
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}

export function MainNav({ id, isAdmin, open, footer }: { id: string; isAdmin: boolean; open: boolean; footer?: ReactNode }) {
  const { t } = useLingui();
  return (
    <nav id={id} className="main-nav" aria-label={t`Main`} data-open={open}>
      <NavGroup
        title={t`Accounts`}
        items={[
          { to: '/home', label: t`Home` },
          { to: '/history', label: t`History` },
          { to: '/statements', label: t`Statements` },
        ]}
      />
      <NavGroup
        title={t`Payments`}
        items={[
          { to: '/transfer/p2p', label: t`Send money` },
          { to: '/transfer/account', label: t`Between accounts` },
        ]}
      />
      <NavGroup
        title={t`Your account`}
        items={[
          { to: '/profile', label: t`Profile` },
          { to: '/setting', label: t`Settings` },
          { to: '/login-history', label: t`Sign-in history`, search: { page: 1 } },
        ]}
      />
      {isAdmin ? <NavGroup title={t`Administration`} items={[{ to: '/admin-overview', label: t`Admin overview`, search: { page: 1 } }]} /> : null}
      {footer}
    </nav>
  );
}
