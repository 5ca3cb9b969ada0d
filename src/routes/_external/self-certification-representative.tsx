/**
 * /self-certification-representative (document 3 §2: "needs an authSecret query or an existing
 * one, otherwise goes to login. It loads the representative's certification and goes to login if
 * that fails"). The secret of the query is kept in this tab's sessionStorage (a later visit, or the
 * return from the signing page, finds it there) and dropped from the address.
 */
import { createFileRoute, redirect } from '@tanstack/react-router';
import { t } from '@lingui/core/macro';
import { ensureAppCatalog } from '../../lib/i18n.ts';
import { pushToast } from '../../lib/notify.ts';
import { RepresentativeCertificationPage } from '../../features/tax/personal-representative-view.tsx';
import { forgetRepresentative, keepAuthSecret, readAuthSecret } from '../../features/tax/personal-representative-store.ts';

interface RepresentativeSearch {
  authSecret?: string;
}
/** api/method.ts: a secret is 16 to 200 characters. */
const SECRET = /^[A-Za-z0-9_-]{16,200}$/;

export const Route = createFileRoute('/_external/self-certification-representative')({
  validateSearch: (search: Record<string, unknown>): RepresentativeSearch =>
    typeof search.authSecret === 'string' && SECRET.test(search.authSecret) ? { authSecret: search.authSecret } : {},
  beforeLoad: async ({ search }) => {
    if (search.authSecret) keepAuthSecret(search.authSecret);
    const authSecret = readAuthSecret();
    if (!authSecret) throw redirect({ to: '/login' });
    await ensureAppCatalog();
    // the secret leaves the address (history, screenshots) once kept
    if (search.authSecret) throw redirect({ to: '/self-certification-representative', search: {}, replace: true });
    return { authSecret };
  },
  component: RepresentativeRoute,
});

function RepresentativeRoute() {
  const { authSecret } = Route.useRouteContext();
  const navigate = Route.useNavigate();
  return (
    <RepresentativeCertificationPage
      authSecret={authSecret}
      today={new Date().toISOString().slice(0, 10)}
      onSign={(url) => window.location.assign(url)}
      onUnauthorised={() => {
        forgetRepresentative();
        pushToast({ tone: 'error', title: t`This link is no longer valid`, body: t`Ask the company for a new link, or sign in if you have an account.` });
        void navigate({ to: '/login', replace: true });
      }}
    />
  );
}
