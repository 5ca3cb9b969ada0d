import { Outlet, createFileRoute } from '@tanstack/react-router';
import { requireKycDone, requireSignedIn } from '../app/guards.ts';

/** Guarded routes: signed in, and KYC done unless the route is a KYC route. */
export const Route = createFileRoute('/_guarded')({
  beforeLoad: ({ context, location }) => {
    requireSignedIn(context.session, location.href);
    requireKycDone(context.session, location.pathname);
  },
  component: Outlet,
});
