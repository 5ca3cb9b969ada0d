/** /account-recovery/ starts at the e-mail step. */
import { createFileRoute, redirect } from '@tanstack/react-router';

export const Route = createFileRoute('/_external/account-recovery/')({
  beforeLoad: () => {
    throw redirect({ to: '/account-recovery/email', replace: true });
  },
});
