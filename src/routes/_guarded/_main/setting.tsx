/**
 * /setting: the security settings. Each section is a feature's own component (features never
 * import each other; the route composes them): two-step verification and recovery codes, linked
 * phones, password change, and a link to the login history.
 */
import { useMemo } from 'react';
import { createFileRoute, Link } from '@tanstack/react-router';
import { useLingui } from '@lingui/react/macro';
import { useSelector } from '@xstate/react';
import { selectAccessToken, selectCustomer } from '../../../../machines/session/session.select.ts';
import { sessionRequestHooks } from '../../../features/auth/session-actor.ts';
import { LinkedDevicesSection } from '../../../features/devices/linked-devices-section.tsx';
import { PasswordChangeSection } from '../../../features/recovery/password-change-section.tsx';
import { RecoveryCodesSection } from '../../../features/security/recovery-codes-section.tsx';
import { readRestriction } from '../../../features/security/restriction.ts';
import { TwoStepSection } from '../../../features/security/two-step-section.tsx';
import { StepHeading } from '../../../ui/step-heading.tsx';

export const Route = createFileRoute('/_guarded/_main/setting')({
  component: SettingRoute,
});

function SettingRoute() {
  const { t } = useLingui();
  const { session } = Route.useRouteContext();
  // The token-service calls of the two-step, recovery-code and linked-phone sections go through the session.
  const access = useMemo(() => sessionRequestHooks(session), [session]);
  const twoStepMode = useSelector(session, (s) => selectCustomer(s)?.twoStepVerificationMode ?? null);
  // A restricted session (recovery-code sign-in) is here to set up two-step verification again.
  const restriction = readRestriction(useSelector(session, selectAccessToken));
  return (
    <div className="settings-page">
      <StepHeading>{t`Settings`}</StepHeading>
      <TwoStepSection session={access} currentMode={twoStepMode} restriction={restriction} />
      {/* Hidden in a restricted session, like the password change: it is here to set up two-step verification again. */}
      {restriction ? null : <RecoveryCodesSection session={access} />}
      <LinkedDevicesSection access={access} />
      {/* A restricted session may not change the password (the platform answers 13). */}
      {restriction ? null : <PasswordChangeSection />}
      <section className="card settings-section" aria-labelledby="settings-login-history">
        <h2 id="settings-login-history">{t`Login history`}</h2>
        <Link to="/login-history" search={{ page: 1 }}>{t`See where and when you signed in`}</Link>
      </section>
      <section className="card settings-section" aria-labelledby="settings-notifications">
        <h2 id="settings-notifications">{t`Notifications`}</h2>
        <Link to="/profile/notifications">{t`Choose which notifications reach you by e-mail and on screen`}</Link>
      </section>
    </div>
  );
}
