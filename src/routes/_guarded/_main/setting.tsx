/**
 * /setting: the security settings. Each section is a feature's own component (features never
 * import each other; the route composes them): linked devices, two-step verification and recovery
 * codes, password change, and a link to the login history.
 */
import { createFileRoute } from '@tanstack/react-router';
import { useLingui } from '@lingui/react/macro';
import { StepHeading } from '../../../ui/step-heading.tsx';
// settings-section-imports (keep this line: each section adds its import below it)
import { PasswordChangeSection } from '../../../features/recovery/password-change-section.tsx';
import { LinkedDevicesSection } from '../../../features/devices/linked-devices-section.tsx';
import { useMemo } from 'react';
import { Link } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { selectAccessToken, selectCustomer } from '../../../../machines/session/session.select.ts';
import { sessionRequestHooks } from '../../../features/auth/session-actor.ts';
import { TwoStepSection } from '../../../features/security/two-step-section.tsx';
import { readRestriction } from '../../../features/security/restriction.ts';

export const Route = createFileRoute('/_guarded/_main/setting')({
  component: SettingRoute,
});

function SettingRoute() {
  const { t } = useLingui();
  const { session } = Route.useRouteContext();
  void session;
  // Two-step section (h6): session hooks for its token-service calls, the mode and the restriction to explain.
  const securityAccess = useMemo(() => sessionRequestHooks(session), [session]);
  const twoStepMode = useSelector(session, (s) => selectCustomer(s)?.twoStepVerificationMode ?? null);
  const restriction = readRestriction(useSelector(session, selectAccessToken));
  // Linked phones (h3): the same session hooks for the device endpoints.
  const devicesAccess = useMemo(() => sessionRequestHooks(session), [session]);
  return (
    <div className="settings-page">
      <StepHeading>{t`Settings`}</StepHeading>
      {/* settings-sections (keep this line: each section adds its element below it, in order: two-step, devices, password, login history) */}
      <TwoStepSection session={securityAccess} currentMode={twoStepMode} restriction={restriction} />
      <LinkedDevicesSection access={devicesAccess} />
      {/* Password change (h5): a restricted session may not call it (the platform answers 13). */}
      {restriction ? null : <PasswordChangeSection />}
      <section className="settings-section" aria-labelledby="settings-login-history">
        <h2 id="settings-login-history">{t`Login history`}</h2>
        <Link to="/login-history" search={{ page: 1 }}>{t`See where and when you signed in`}</Link>
      </section>
    </div>
  );
}
