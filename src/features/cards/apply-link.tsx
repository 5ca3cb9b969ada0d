/** The card application's links with the router (the views themselves know no router: their tests run without one). */
import { Link } from '@tanstack/react-router';
import type { ApplyLink } from './apply-view.tsx';

export const RouterApplyLink: ApplyLink = ({ target, className, children }) => {
  switch (target.page) {
    case 'card':
      return (
        <Link to="/cards/$accountId" params={{ accountId: String(target.accountId) }} className={className}>
          {children}
        </Link>
      );
    case 'confirm':
      return (
        <Link to="/confirm-card/$cardId" params={{ cardId: String(target.cardId) }} className={className}>
          {children}
        </Link>
      );
    case 'addMoney':
      return (
        <Link to="/add-money" className={className}>
          {children}
        </Link>
      );
    case 'openAccount':
      return (
        <Link to="/accounts/open" className={className}>
          {children}
        </Link>
      );
    case 'addresses':
      return (
        <Link to="/profile" hash="address" className={className}>
          {children}
        </Link>
      );
    case 'pendingPayments':
      return (
        <Link to="/transfer/approved" className={className}>
          {children}
        </Link>
      );
    case 'verification':
      return (
        <Link to="/unverified-account" className={className}>
          {children}
        </Link>
      );
    case 'history':
      return (
        <Link to="/history" className={className}>
          {children}
        </Link>
      );
  }
};
