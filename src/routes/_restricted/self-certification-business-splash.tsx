import { Link, createFileRoute } from '@tanstack/react-router';
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
  return <BusinessSplashView StartLink={StartLink} />;
}
