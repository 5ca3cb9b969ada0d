/**
 * Warns before the 15-minute idle expiry (document 1 §4) with a "stay signed in" button, and
 * returns to login when the session expires (idle, or a failed refresh). Rendered by the main
 * layout; reads the session only through session.select.ts.
 */
import { useEffect, useRef } from 'react';
import { useSelector } from '@xstate/react';
import { Plural, useLingui } from '@lingui/react/macro';
import { useRouter } from '@tanstack/react-router';
import { selectCanStay, selectShowIdleWarning, selectStatus } from '../../../machines/session/session.select.ts';
import { IDLE_GRACE_MS } from '../../../machines/session/session.machine.ts';
import { Dialog } from '../../ui/dialog.tsx';
import { Button } from '../../ui/button.tsx';
import type { SessionActor } from './session-actor.ts';

export function IdleWarning({ session, onExpired }: { session: SessionActor; onExpired?: () => void }) {
  const { t } = useLingui();
  const show = useSelector(session, selectShowIdleWarning);
  const canStay = useSelector(session, selectCanStay);
  const status = useSelector(session, selectStatus);
  const router = useRouter({ warn: false });
  const previous = useRef(status);

  useEffect(() => {
    const was = previous.current;
    previous.current = status;
    if (was === 'signedIn' && status === 'expired') {
      if (onExpired) onExpired();
      else void router?.navigate({ to: '/login' });
    }
  }, [status, onExpired, router]);

  const stay = () => session.send({ type: 'SESSION.STAY' });
  const minutes = Math.round(IDLE_GRACE_MS / 60_000);
  return (
    <Dialog
      open={show}
      title={t`Are you still there?`}
      onClose={stay}
      actions={
        <Button variant="primary" onClick={stay} disabled={!canStay}>
          {t`Stay signed in`}
        </Button>
      }
    >
      <p>
        <Plural
          value={minutes}
          one="For your security you will be signed out in # minute unless you choose to stay."
          other="For your security you will be signed out in # minutes unless you choose to stay."
        />
      </p>
    </Dialog>
  );
}
