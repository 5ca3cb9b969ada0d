/**
 * /login (document 1 §2): already signed in -> the tokens are refreshed and the user goes home;
 * otherwise the sign-in screen, then the start page decides where to go. A `code` plus
 * `codeVerifier` in the query signs the user in without the form.
 *
 * What the sign-in still requires goes first (its session is restricted until then):
 * - a recovery code was used (AccessClaims.rst 'setup2fa') -> /setting, to set up two-step
 *   verification again;
 * - a soft or strict push 2FA migration -> /scp, with the login result in sessionStorage
 *   (LOGIN_RESULT_STORAGE_KEY: /scp is open only while a login result exists).
 */
import { lazy, Suspense, useState } from 'react';
import { useLingui } from '@lingui/react/macro';
import { createFileRoute, redirect, useNavigate } from '@tanstack/react-router';
import { PKCE_PATTERN } from '../../../api/auth.ts';
import { activeVariant } from '../../../variants/index.ts';
import type { LoginOutcome } from '../../../machines/login/login.machine.ts';
import type { StartErrorCode, StartTarget } from '../../../machines/start-page/start-page.machine.ts';
import { pushToast } from '../../lib/notify.ts';
import { LoginView } from '../../features/auth/login-view.tsx';
import { isSignedIn, logout, refreshSession } from '../../features/auth/session-actor.ts';
import { storeLoginResult } from '../../features/devices/login-result.ts';

// The start page runs after sign-in: its machine and routes load then, not with the sign-in form.
const StartPageView = lazy(() => import('../../features/auth/start-page-view.tsx').then((m) => ({ default: m.StartPageView })));
const loadStartRoutes = () => import('../../features/auth/start-routes.ts');

/** A login code is short; anything longer is not one (limit on everything). */
const MAX_CODE_LENGTH = 512;
/** The recovery-code notice stays long enough to be read; the settings section repeats it. */
const RECOVERY_NOTICE_MS = 20_000;

interface LoginSearch {
  code?: string;
  codeVerifier?: string;
}

export const Route = createFileRoute('/_external/login')({
  validateSearch: (search: Record<string, unknown>): LoginSearch => {
    const code = typeof search.code === 'string' && search.code.length > 0 && search.code.length <= MAX_CODE_LENGTH ? search.code : undefined;
    const verifier =
      typeof search.codeVerifier === 'string' &&
      search.codeVerifier.length >= 43 &&
      search.codeVerifier.length <= 128 &&
      PKCE_PATTERN.test(search.codeVerifier)
        ? search.codeVerifier
        : undefined;
    return code && verifier ? { code, codeVerifier: verifier } : {};
  },
  beforeLoad: async ({ context }) => {
    if (isSignedIn(context.session) && (await refreshSession(context.session))) {
      throw redirect({ to: '/home' });
    }
  },
  component: LoginPage,
});

type Phase = { kind: 'login'; notice: StartErrorCode | null; attempt: number } | { kind: 'start'; attempt: number };

function LoginPage() {
  const { session } = Route.useRouteContext();
  const search = Route.useSearch();
  const navigate = useNavigate();
  const { t } = useLingui();
  const [phase, setPhase] = useState<Phase>({ kind: 'login', notice: null, attempt: 0 });
  // The query code is single-use: only the first attempt uses it.
  const queryCode = phase.attempt === 0 && search.code && search.codeVerifier ? { code: search.code, codeVerifier: search.codeVerifier } : null;

  async function go(target: StartTarget) {
    const { destinationOf } = await loadStartRoutes();
    const destination = destinationOf(target);
    if (destination.kind === 'app') {
      await navigate({ href: destination.href, replace: true });
    } else if (destination.kind === 'external') {
      window.location.assign(destination.url);
    } else {
      await logout(session);
      setPhase({ kind: 'login', notice: target.kind === 'login' ? target.reason : null, attempt: phase.attempt + 1 });
    }
  }

  async function signedIn(outcome: LoginOutcome) {
    storeLoginResult(outcome.migration);
    if (outcome.recoveryUsed) {
      pushToast({
        title: t`You signed in with a recovery code`,
        body: t`Set up two-step verification again to use your account fully. Your linked phones and authenticator app no longer sign you in.`,
        tone: 'info',
        timeoutMs: RECOVERY_NOTICE_MS,
      });
      await navigate({ href: '/setting', replace: true });
    } else if (outcome.migration && outcome.migration.requirement !== 'none') {
      await navigate({ href: '/scp', replace: true });
    } else {
      setPhase({ kind: 'start', attempt: phase.attempt });
    }
  }

  if (phase.kind === 'start') {
    return (
      <Suspense fallback={null}>
        <StartPageView key={phase.attempt} session={session} onTarget={(target) => void go(target)} />
      </Suspense>
    );
  }
  return (
    <LoginView
      key={phase.attempt}
      session={session}
      queryCode={queryCode}
      notice={phase.notice}
      onSignedIn={(outcome) => void signedIn(outcome)}
      allowRegistration={activeVariant.registration.allowRegistration}
    />
  );
}
