/**
 * /scp, the SCP enable route (document 1 §2 restricted layout: "only when a login result exists,
 * else login"). After the phone is linked (or "Not now" on a soft migration) the session's tokens
 * are refreshed (a strict session is restricted until linked: AccessClaims.rst 'scp') and the
 * start page decides where to go, as after any sign-in (the same StartPageView and destinations
 * as /login).
 */
import { useMemo, useState } from 'react';
import { createFileRoute, redirect, useNavigate } from '@tanstack/react-router';
import type { StartTarget } from '../../../machines/start-page/start-page.machine.ts';
import { StartPageView } from '../../features/auth/start-page-view.tsx';
import { destinationOf } from '../../features/auth/start-routes.ts';
import { logout, refreshSession, sessionRequestHooks } from '../../features/auth/session-actor.ts';
import { clearLoginResult, readLoginMigration } from '../../features/devices/login-result.ts';
import { ScpView } from '../../features/devices/scp-view.tsx';

export const Route = createFileRoute('/_restricted/scp')({
  beforeLoad: () => {
    const migration = readLoginMigration();
    if (!migration) throw redirect({ to: '/login' });
    return { migration };
  },
  component: ScpRoute,
});

function ScpRoute() {
  const { session, migration } = Route.useRouteContext();
  const navigate = useNavigate();
  const access = useMemo(() => sessionRequestHooks(session), [session]);
  const [phase, setPhase] = useState<'link' | 'start'>('link');

  async function proceed() {
    clearLoginResult();
    // The refresh lifts the 'scp' restriction once a phone is linked; a failure ends the session.
    if (!(await refreshSession(session))) {
      await navigate({ to: '/login', replace: true });
      return;
    }
    setPhase('start');
  }

  async function go(target: StartTarget) {
    const destination = destinationOf(target);
    if (destination.kind === 'app') await navigate({ href: destination.href, replace: true });
    else if (destination.kind === 'external') window.location.assign(destination.url);
    else {
      await logout(session);
      await navigate({ to: '/login', replace: true });
    }
  }

  if (phase === 'start') return <StartPageView session={session} onTarget={(target) => void go(target)} />;
  return <ScpView migration={migration} access={access} onContinue={() => void proceed()} />;
}
