import { createFileRoute, Link } from '@tanstack/react-router';
import { useLingui } from '@lingui/react/macro';
import { PersonalSplashView } from '../../features/tax/personal-splash-view.tsx';

/** /self-certification-splash (document 3 §2, restricted layout): where the start page sends a person whose FATCA section needs action (rule 7). */
export const Route = createFileRoute('/_restricted/self-certification-splash')({
  component: SelfCertificationSplashRoute,
});

function SelfCertificationSplashRoute() {
  const { t } = useLingui();
  return (
    <PersonalSplashView
      start={
        <Link to="/self-certification" className="btn btn-primary">
          {t`Start`}
        </Link>
      }
      later={
        // Not shown in the spec: the splash does not lock the customer out; home shows the tax action in the verification banner until it is done.
        <Link to="/home" className="btn btn-secondary">
          {t`Not now`}
        </Link>
      }
    />
  );
}
