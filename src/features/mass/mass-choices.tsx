/**
 * /transfer/mass: the kinds of batch (document 2 §2 the children wire, eft, oct, digital and
 * /transfer/mass/p2p), each a card with what it pays and how. Global pay (/transfer/mass/global)
 * is listed once its calls exist (issue 15 §5).
 */
import { Link } from '@tanstack/react-router';
import { useLingui } from '@lingui/react/macro';
import { MASS_KINDS } from '../../../api/mass.ts';
import { StepHeading } from '../../ui/step-heading.tsx';
import { MASS_PAGE } from './mass-route.tsx';
import { useMassTitles } from './messages.ts';
import './mass.css';

export function MassChoices() {
  const { t } = useLingui();
  const titles = useMassTitles();
  const hints = {
    p2p: t`To people who bank with us, by their e-mail address. Paid at once.`,
    wire: t`To bank accounts anywhere, by IBAN or account number and SWIFT code.`,
    eft: t`To bank accounts on each country's own payment system.`,
    oct: t`To Visa and Mastercard cards. Usually within minutes.`,
    digital: t`To crypto wallet addresses.`,
  };
  return (
    <div className="transfer-page mass-page">
      <StepHeading>{t`Pay many people at once`}</StepHeading>
      <p className="mass-intro">{t`Upload a CSV file with one payment a line (up to 1,000). Every line is checked and priced before you confirm; you approve the batch once.`}</p>
      <nav aria-label={t`Kinds of batch`} className="mass-choices">
        {MASS_KINDS.map((kind) => (
          <Link key={kind} to={MASS_PAGE[kind]} className="mass-choice">
            <strong>{titles[kind]}</strong>
            <span>{hints[kind]}</span>
          </Link>
        ))}
      </nav>
    </div>
  );
}
