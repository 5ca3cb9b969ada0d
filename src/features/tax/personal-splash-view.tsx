/**
 * The personal self-certification's splash page (document 3 §2 /self-certification-splash, the
 * start page's rule 7: a FATCA section action is required): why the tax self-certification is asked,
 * in plain words, what it takes, and the way in.
 */
import type { ReactNode } from 'react';
import { useLingui } from '@lingui/react/macro';
import { StepHeading } from '../../ui/step-heading.tsx';
import './tax.css';

export function PersonalSplashView({ start, later }: { start: ReactNode; later?: ReactNode }) {
  const { t } = useLingui();
  return (
    <div className="tax-page tax-splash">
      <StepHeading>{t`Confirm your tax details`}</StepHeading>
      <p className="tax-lead">
        {t`Like every bank, we must know in which countries you pay tax. International agreements (the US FATCA law and the OECD Common Reporting Standard) require it, so that the tax authorities of those countries receive the information they are entitled to.`}
      </p>
      <ul className="tax-splash-points">
        <li>
          <span className="tax-splash-mark" aria-hidden="true">
            1
          </span>
          <span>
            <strong>{t`About 5 minutes`}</strong>
            <p>{t`A few questions about your birth, citizenships and tax residences.`}</p>
          </span>
        </li>
        <li>
          <span className="tax-splash-mark" aria-hidden="true">
            2
          </span>
          <span>
            <strong>{t`Have your tax numbers ready`}</strong>
            <p>{t`The tax identification number of each country where you are resident for tax. If you have none, you can say why.`}</p>
          </span>
        </li>
        <li>
          <span className="tax-splash-mark" aria-hidden="true">
            3
          </span>
          <span>
            <strong>{t`Sign online`}</strong>
            <p>{t`Your answers fill in the official forms (W-9 or W-8BEN, and the tax residency self-certification). You sign them on screen; no printing.`}</p>
          </span>
        </li>
      </ul>
      <p className="tax-lead">{t`Until this is done, some services of your account may be limited.`}</p>
      <div className="actions tax-step">
        {start}
        {later}
      </div>
    </div>
  );
}
