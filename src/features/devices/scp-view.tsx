/**
 * /scp (document 1 §2, §3 push 2FA migration): the provider requires sign-in approval on a linked
 * phone. Strict: the session is restricted until a phone is linked; soft: the user may postpone
 * ("Not now") while days are left. Linking runs the link-device statechart with POST
 * /auth/scp/request (its deeplink opens /scp-mobile on the phone) and can send the link by SMS.
 */
import { useMemo, useState } from 'react';
import { Plural, useLingui } from '@lingui/react/macro';
import type { PushMigration } from '../../../api/auth.ts';
import { linkDeviceMachine, type LinkDeviceMachine } from '../../../machines/link-device/link-device.machine.ts';
import { Button } from '../../ui/button.tsx';
import { StepHeading } from '../../ui/step-heading.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { createScpStartLinkActor, createSendSmsActor, createWaitForLinkActor, expiryTimerActor } from './actors.ts';
import { LinkDeviceView } from './link-device-view.tsx';
import type { SessionAccess } from '../../lib/token-service-rest.ts';

export interface ScpViewProps {
  migration: PushMigration;
  access: SessionAccess;
  /** linked, or postponed (soft only): the route refreshes the session and continues */
  onContinue(reason: 'linked' | 'postponed'): void;
  /** tests provide the link machine with their own actors */
  linkLogic?: LinkDeviceMachine;
}

export function ScpView({ migration, access, onContinue, linkLogic }: ScpViewProps) {
  const { t } = useLingui();
  const [continuing, setContinuing] = useState(false);
  const logic = useMemo(
    () =>
      linkLogic ??
      linkDeviceMachine.provide({
        actors: {
          startLink: createScpStartLinkActor(access),
          sendSms: createSendSmsActor(access),
          waitForLink: createWaitForLinkActor(access),
          expiryTimer: expiryTimerActor,
        },
      }),
    [linkLogic, access],
  );
  const soft = migration.requirement === 'soft';
  const days = migration.daysLeft ?? 0;

  const finish = (reason: 'linked' | 'postponed') => {
    setContinuing(true);
    onContinue(reason);
  };

  return (
    <section className="scp" aria-labelledby="scp-heading">
      <StepHeading id="scp-heading">{t`Approve sign-ins on your phone`}</StepHeading>
      {migration.strategy === 'migrate' ? (
        <p>{t`We are moving two-step verification to approval on your phone: instead of typing a code, you approve each sign-in with one tap on a linked phone.`}</p>
      ) : (
        <p>{t`To protect your account, each sign-in must be approved on a linked phone with one tap.`}</p>
      )}
      {soft ? (
        <p>
          <Plural value={days} one="You have # day left to link a phone." other="You have # days left to link a phone." />
        </p>
      ) : (
        <p>
          <strong>{t`Link a phone now to continue to your account.`}</strong>
        </p>
      )}
      {continuing ? (
        <Spinner label={t`Continuing…`} />
      ) : (
        <>
          <LinkDeviceView logic={logic} offerSms onLinked={() => finish('linked')} />
          {soft ? (
            <Button variant="secondary" onClick={() => finish('postponed')}>
              {t`Not now`}
            </Button>
          ) : null}
        </>
      )}
    </section>
  );
}
