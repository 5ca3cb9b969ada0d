/** The transfer pages' links with the router (the view itself knows no router: its tests run without one). */
import { Link } from '@tanstack/react-router';
import type { PageLink } from './transfer-view.tsx';

export const RouterPageLink: PageLink = ({ to, className, children }) => (
  <Link to={to} className={className}>
    {children}
  </Link>
);
