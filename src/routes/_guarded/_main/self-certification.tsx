import { createFileRoute, Link } from '@tanstack/react-router';
import { useLingui } from '@lingui/react/macro';
import { PersonalCertificationFlow } from '../../../features/tax/personal-certification-view.tsx';
import { ensureAppCatalog } from '../../../lib/i18n.ts';

/**
 * /self-certification (document 3 §2: personal self-certification; "loads documents and birth
 * countries": the certification answer carries its documents, the view reads the birth countries).
 * Signing leaves the app for the signing page (the answer's first sign URL), which comes back here.
 */
export const Route = createFileRoute('/_guarded/_main/self-certification')({
  beforeLoad: () => ensureAppCatalog(),
  component: SelfCertificationRoute,
});

function SelfCertificationRoute() {
  const { t } = useLingui();
  return (
    <PersonalCertificationFlow
      today={new Date().toISOString().slice(0, 10)}
      onSign={(url) => window.location.assign(url)}
      exit={
        <Link to="/home" className="btn btn-link">
          {t`Go to my accounts`}
        </Link>
      }
    />
  );
}
