/**
 * /register and its children (document 1 §2): one guard for all of them. With allowRegistration
 * false (variants/*.ts) every registration route goes back to login (document 1 §1).
 * The type chooser itself is register/index.tsx.
 */
import { Outlet, createFileRoute, redirect } from '@tanstack/react-router';
import { activeVariant } from '../../../variants/index.ts';
import { ensureAppCatalog } from '../../lib/i18n.ts';

export const Route = createFileRoute('/_external/register')({
  beforeLoad: async () => {
    if (!activeVariant.registration.allowRegistration) throw redirect({ to: '/login', replace: true });
    // The words of these screens are in the app catalog part (src/lib/i18n.ts).
    await ensureAppCatalog();
  },
  component: Outlet,
});
