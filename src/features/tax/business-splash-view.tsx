/**
 * The company's self-certification splash page (/self-certification-business-splash, document 3
 * §2 "splash pages in the restricted layout"; the business rule after access info sends a company
 * here while its self-certification is neither validated nor pending): why the bank asks for the
 * company's FATCA/CRS status, what it takes, and "Start" to /self-certification-business.
 */
import type { ReactNode } from 'react';
import { useLingui } from '@lingui/react/macro';
import { ButtonGroup } from '../../ui/button.tsx';
import { Card } from '../../ui/card.tsx';
import './business-certification.css';

/** The start link: the route passes one made with the router's Link; a plain anchor without one (tests). */
export type SplashStartLink = (props: { className: string; children: ReactNode }) => ReactNode;
const AnchorStart: SplashStartLink = ({ className, children }) => (
  <a href="/self-certification-business" className={className}>
    {children}
  </a>
);

export function BusinessSplashView({ StartLink = AnchorStart, later }: { StartLink?: SplashStartLink; later?: ReactNode }) {
  const { t } = useLingui();
  return (
    <div className="tax-business-splash">
      <h1>{t`Confirm your company's tax status`}</h1>
      <p>
        {t`Banks must know where their business customers are resident for tax. International rules (the US FATCA and the OECD's Common Reporting Standard, CRS) ask every company to certify its tax status before it uses its account.`}
      </p>
      <Card title={t`What it takes`} as="section">
        <ol className="tax-business-splash-steps">
          <li>{t`A few questions about the company: the kind of entity, whether it is publicly traded, and its US tax status.`}</li>
          <li>{t`The company's addresses and its tax numbers in each country where it is resident for tax.`}</li>
          <li>{t`For some companies, the people who control it, chosen from its shareholders and directors.`}</li>
          <li>{t`Signing the forms online: the W-9 or W-8BEN-E and the tax residency self-certification.`}</li>
        </ol>
        <p className="field-hint">{t`It takes about five minutes. Have the company's tax numbers at hand. A user with full access to the company gives the answers and signs.`}</p>
      </Card>
      <ButtonGroup>
        <StartLink className="btn btn-primary">{t`Start`}</StartLink>
        {later}
      </ButtonGroup>
    </div>
  );
}
