/**
 * /register and its children (document 1 §2): one guard for all of them. With allowRegistration
 * false (variants/*.ts) every registration route goes back to login (document 1 §1).
 * The type chooser itself is register/index.tsx.
 */
import { Outlet, createFileRoute, redirect } from '@tanstack/react-router';
import { activeVariant } from '../../../variants/index.ts';

export const Route = createFileRoute('/_external/register')({
  beforeLoad: () => {
    if (!activeVariant.registration.allowRegistration) throw redirect({ to: '/login', replace: true });
  },
  component: Outlet,
});
