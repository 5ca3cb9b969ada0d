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
    />
  );
}
