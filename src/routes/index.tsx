import { createFileRoute, redirect } from '@tanstack/react-router';

/** The root path goes home; the guarded layout sends a signed-out user to login from there. */
export const Route = createFileRoute('/')({
  beforeLoad: () => {
    throw redirect({ to: '/home' });
  },
});
