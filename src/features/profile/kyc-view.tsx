/**
 * /kyc (document 1 §2: a guarded route outside the main layout; while KYC is needed every other
 * guarded route leads here): the provider's request (kycRequestGet: its reason), the questionnaire
 * (kycInfoUpdate), then the customer info is read again (the session's copy opens the other
 * routes) and the customer goes home.
 */
import { useQuery } from '@tanstack/react-query';
import { useLingui } from '@lingui/react/macro';
import type { Customer } from '../../../api/customer.ts';
import { callMethodOrThrow } from '../../lib/request.ts';
import { Alert } from '../../ui/alert.tsx';
import { StepHeading } from '../../ui/step-heading.tsx';
import { KycForm } from './kyc-form.tsx';
import { kycInfoQuery, kycRequestQuery } from './queries.ts';
import { Loaded } from './section.tsx';
import './profile.css';

export interface KycPageProps {
  actingCustomerId: number | null;
  onDone(customer: Customer): void;
}

export function KycPage({ actingCustomerId, onDone }: KycPageProps) {
  const { t } = useLingui();
  const request = useQuery(kycRequestQuery(actingCustomerId));
  const info = useQuery(kycInfoQuery(actingCustomerId));
  return (
    <div className="profile-page">
      <StepHeading>{t`Tell us about you`}</StepHeading>
      <p>{t`The law asks us to know our customers. Answer these questions to keep using your account.`}</p>
      {request.data && request.data.status === 'open' ? (
        <Alert tone="info" title={t`Why we ask`}>
          <p>{request.data.reason}</p>
        </Alert>
      ) : null}
      <Loaded query={info}>
        {({ kycInfo }) => <KycForm initial={kycInfo} submitLabel={t`Send and continue`} onSaved={() => void callMethodOrThrow('getCustomerInfo', {}).then((a) => onDone(a.customer))} />}
      </Loaded>
    </div>
  );
}
