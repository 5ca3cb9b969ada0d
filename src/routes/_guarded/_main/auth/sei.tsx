import { useMemo } from 'react';
import { createFileRoute, useNavigate, useRouterState } from '@tanstack/react-router';
import { logout, sessionRequestHooks } from '../../../../features/auth/session-actor.ts';
import { SeiView } from '../../../../features/security/sei-view.tsx';

/**
 * /auth/sei (document 1 §2): a partner's single sign-on request. The guarded layout keeps the path
 * and sends an unsigned user to login first (src/app/guards.ts rememberSeiPath).
 */
export const Route = createFileRoute('/_guarded/_main/auth/sei')({
  component: SeiRoute,
});

function SeiRoute() {
  const { session } = Route.useRouteContext();
  const navigate = useNavigate();
  const href = useRouterState({ select: (s) => s.location.href });
  // The URL as first reached: the machine posts it once.
  const authorizeUrl = useMemo(() => href, []); // eslint-disable-line react-hooks/exhaustive-deps
  const access = useMemo(() => ({ ...sessionRequestHooks(session), logout: () => logout(session) }), [session]);
  return <SeiView authorizeUrl={authorizeUrl} session={access} onNotFound={() => void navigate({ to: '/' })} />;
}
