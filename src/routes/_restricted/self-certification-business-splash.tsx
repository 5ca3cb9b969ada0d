import { Link, createFileRoute } from '@tanstack/react-router';
import { useLingui } from '@lingui/react/macro';
import { BusinessSplashView, type SplashStartLink } from '../../features/tax/business-splash-view.tsx';

/** /self-certification-business-splash (document 3 §2): why the company's FATCA/CRS self-certification is needed, and Start. */
export const Route = createFileRoute('/_restricted/self-certification-business-splash')({
  component: SelfCertificationBusinessSplashRoute,
});

const StartLink: SplashStartLink = ({ className, children }) => (
  <Link to="/self-certification-business" className={className}>
    {children}
  </Link>
);

function SelfCertificationBusinessSplashRoute() {
  const { t } = useLingui();
  return (
    <BusinessSplashView
      StartLink={StartLink}
      later={
        // Not shown in the spec: the splash does not lock the company's users out (a user without full
        // rights cannot certify at all); home keeps showing the company's tax item until it is done.
        <Link to="/home" className="btn btn-secondary">
          {t`Not now`}
        </Link>
      }
    />
  );
}
