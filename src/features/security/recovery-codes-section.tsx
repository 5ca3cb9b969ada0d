/**
 * Settings: "Recovery codes" (document 2 "Security settings"). Shows how many unused codes are
 * left (a plain read: recoveryCodesStatusQuery) and gets ten new ones through the recovery codes
 * machine: the current password, then the new codes once (RecoveryCodesView). The old unused
 * codes stop working when the new ones are made, so the count is read again then.
 * Reads through recovery-codes.select.ts; sends events only.
 */
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useSelector } from '@xstate/react';
import { useFlowActor } from '../../lib/actors.ts';
import { Plural, useLingui } from '@lingui/react/macro';
import { recoveryCodesMachine, type RecoveryCodesMachine } from '../../../machines/recovery-codes/recovery-codes.machine.ts';
import { selectRecoveryCodesView } from '../../../machines/recovery-codes/recovery-codes.select.ts';
import { Alert } from '../../ui/alert.tsx';
import { Button } from '../../ui/button.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { StepHeading } from '../../ui/step-heading.tsx';
import { TextField } from '../../ui/text-field.tsx';
import { createRecoveryCodesActors } from './actors.ts';
import { useRecoveryCodesErrors } from './messages.ts';
import { recoveryCodesStatusQuery } from './recovery-codes-queries.ts';
import { RecoveryCodesView } from './recovery-codes-view.tsx';
import type { SessionAccess } from './rest.ts';

export interface RecoveryCodesSectionProps {
  session: SessionAccess;
  /** tests provide the machine with their own actors */
  logic?: RecoveryCodesMachine;
}

export function RecoveryCodesSection({ session, logic }: RecoveryCodesSectionProps) {
  const { t } = useLingui();
  const id = useId();
  const queryClient = useQueryClient();
  const statusQuery = useMemo(() => recoveryCodesStatusQuery(session), [session]);
  const status = useQuery(statusQuery);
  const machine = useMemo(() => logic ?? recoveryCodesMachine.provide({ actors: createRecoveryCodesActors(session) }), [logic, session]);
  const actor = useFlowActor(machine);
  const snapshot = useSelector(actor, (s) => s);
  const view = selectRecoveryCodesView(snapshot);
  const errors = useRecoveryCodesErrors();
  // The current password; cleared once sent (the machine never keeps it).
  const [password, setPassword] = useState('');
  const passwordRef = useRef<HTMLInputElement>(null);
  const errorText = view.error ? errors[view.error] : undefined;

  // New codes are shown: the old ones are gone on the platform, so the count is read again.
  useEffect(() => {
    if (view.step === 'codes') void queryClient.invalidateQueries({ queryKey: statusQuery.queryKey });
  }, [view.step, queryClient, statusQuery]);

  // Every refusal (also the same one again) puts focus on the password field, where the next try
  // starts and whose error is read out with it. In this step only a submit or its answer makes a
  // new snapshot, so typing never moves focus.
  const refusedNow = view.step === 'password' && view.error !== null;
  useEffect(() => {
    if (refusedNow) passwordRef.current?.focus();
  }, [refusedNow, snapshot]);

  return (
    <section className="card settings-section" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t`Recovery codes`}</h2>

      {view.step === 'idle' ? (
        <div>
          <p>{t`A recovery code signs you in once when you cannot use your phone or authenticator app.`}</p>
          {status.isPending ? (
            <Spinner label={t`Loading your recovery codes`} />
          ) : status.isError ? (
            <p>{t`The number of unused recovery codes could not be loaded.`}</p>
          ) : (
            <p>
              <UnusedCount unused={status.data.unused} />
            </p>
          )}
          {view.renewed ? <Alert tone="success">{t`Your new recovery codes are active. The old ones no longer work.`}</Alert> : null}
          <Button
            onClick={() => {
              setPassword('');
              actor.send({ type: 'RENEW.START' });
            }}
          >
            {t`Get new recovery codes`}
          </Button>
        </div>
      ) : null}

      {view.step === 'password' ? (
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            actor.send({ type: 'PASSWORD.SUBMIT', password });
            setPassword('');
          }}
        >
          <StepHeading level={2}>{t`Confirm with your password`}</StepHeading>
          <Alert tone="warning">
            <p>{t`Your current recovery codes stop working as soon as the new ones are made.`}</p>
          </Alert>
          {errorText && !view.errorOnField ? <Alert tone="error">{errorText}</Alert> : null}
          <TextField
            ref={passwordRef}
            label={t`Current password`}
            name="currentPassword"
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={setPassword}
            required
            maxLength={256}
            error={view.errorOnField ? errorText : undefined}
            disabled={view.busy}
          />
          <div className="actions">
            <Button type="submit" busy={view.busy}>
              {t`Get new codes`}
            </Button>
            <Button variant="secondary" onClick={() => actor.send({ type: 'RENEW.CANCEL' })} disabled={view.busy}>
              {t`Cancel`}
            </Button>
          </div>
        </form>
      ) : null}

      {view.step === 'codes' && view.recoveryCodes ? (
        <RecoveryCodesView
          codes={view.recoveryCodes}
          saved={view.codesSaved}
          canContinue={view.canContinue}
          onSavedChange={(saved) => actor.send({ type: 'CODES.SAVED', saved })}
          onContinue={() => actor.send({ type: 'CODES.CONTINUE' })}
        />
      ) : null}
    </section>
  );
}

/** Its own component so the plural's placeholder is named `unused` for the translators. */
function UnusedCount({ unused }: { unused: number }) {
  return (
    <Plural
      value={unused}
      _0="You have no unused recovery codes."
      one="You have # unused recovery code."
      other="You have # unused recovery codes."
    />
  );
}
