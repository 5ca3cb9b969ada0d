/**
 * /account-recovery (document 1 §2): one account-recovery machine drives the children email,
 * status, reset, password and success. This layout owns the machine's actor and keeps the URL on
 * the machine's step (a typed or stale URL is put right; `?taskId=` on /status reloads a task).
 *
 * The step is rendered here, not by the child routes: a child's component would mount anew (and
 * load lazily) on every step change, dropping what the user typed meanwhile. The children give each
 * step its URL only.
 */
import { useEffect } from 'react';
import { Link, createFileRoute, useLocation, useNavigate } from '@tanstack/react-router';
import { ensureAppCatalog } from '../../lib/i18n.ts';
import { RECOVERY_CANCEL_PATH, RecoveryCancelView } from '../../features/recovery/recovery-cancel-view.tsx';
import {
  AccountRecoveryProvider,
  AccountRecoveryStep,
  useAccountRecoveryActor,
  useRecoveryLocation,
  type SignInLink,
} from '../../features/recovery/account-recovery-view.tsx';

const signInLink: SignInLink = ({ children, className }) => (
  <Link to="/login" className={className}>
    {children}
  </Link>
);

const TASK_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface RecoverySearch {
  taskId?: string;
  /** the cancel code of /account-recovery/cancel's link */
  code?: string;
}

const CANCEL_CODE = /^[0-9A-Za-z]{8}$/;

export const Route = createFileRoute('/_external/account-recovery')({
  validateSearch: (search: Record<string, unknown>): RecoverySearch => ({
    ...(typeof search.taskId === 'string' && TASK_ID.test(search.taskId) ? { taskId: search.taskId } : {}),
    ...(typeof search.code === 'string' && CANCEL_CODE.test(search.code) ? { code: search.code } : {}),
  }),
  // The words of these screens are in the app catalog part (src/lib/i18n.ts).
  beforeLoad: () => ensureAppCatalog(),
  component: AccountRecoveryLayout,
});

function AccountRecoveryLayout() {
  const { taskId, code } = Route.useSearch();
  const { pathname } = useLocation();
  // The owner's cancel page is not a step of the recovery chart: it stands alone.
  if (pathname.replace(/\/$/, '') === RECOVERY_CANCEL_PATH) return <RecoveryCancelView taskId={taskId ?? null} code={code ?? null} signInLink={signInLink} />;
  return (
    <AccountRecoveryProvider taskId={taskId ?? null}>
      <StepUrlSync />
      <AccountRecoveryStep signInLink={signInLink} />
    </AccountRecoveryProvider>
  );
}

function StepUrlSync() {
  const actor = useAccountRecoveryActor();
  const { step, taskId } = useRecoveryLocation(actor);
  const { pathname } = useLocation();
  const navigate = useNavigate();
  useEffect(() => {
    const target = `/account-recovery/${step}`;
    // Only inside this layout: a link out (sign in) changes the location before this unmounts.
    const inside = pathname === '/account-recovery' || pathname.startsWith('/account-recovery/');
    if (inside && pathname.replace(/\/$/, '') !== target) {
      void navigate({ to: target, search: step === 'status' && taskId ? { taskId } : {}, replace: true });
    }
  }, [step, taskId, pathname, navigate]);
  return null;
}
