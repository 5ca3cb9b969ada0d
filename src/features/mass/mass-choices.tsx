/**
 * /transfer/mass: the kinds of batch (document 2 §2 the children wire, eft, oct, digital and
 * /transfer/mass/p2p), each a card with what it pays and how; global pay (/transfer/mass/global,
 * issue 15 §5) when the acting user holds its flag mass.global (document 2 §6: the platform refuses
 * it otherwise), read from moneyPermissions.
 */
import { Link } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import { useLingui } from '@lingui/react/macro';
import { MASS_KINDS } from '../../../api/mass.ts';
import { StepHeading } from '../../ui/step-heading.tsx';
import { moneyPermissionsQuery } from '../accounts/queries.ts';
import { MASS_PAGE } from './mass-route.tsx';
import { useMassTitles } from './messages.ts';
import './mass.css';

export function MassChoices({ actingCustomerId }: { actingCustomerId: number | null }) {
  const { t } = useLingui();
  const titles = useMassTitles();
  const permissions = useQuery(moneyPermissionsQuery(actingCustomerId));
  const global = permissions.data?.mass.global === true;
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
        {global ? (
          <Link to="/transfer/mass/global" className="mass-choice">
            <strong>{t`Global pay`}</strong>
            <span>{t`To people anywhere who need no account with us, by e-mail: each chooses how to take the money.`}</span>
          </Link>
        ) : null}
      </nav>
    </div>
  );
}
