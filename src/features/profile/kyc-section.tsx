/** The profile's KYC section (kycCustomerInfoGet / kycInfoUpdate): the answers on file, and a change. */
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useLingui } from '@lingui/react/macro';
import { Button } from '../../ui/button.tsx';
import { KycForm } from './kyc-form.tsx';
import { kycInfoQuery, occupationsQuery } from './queries.ts';
import { Loaded, ProfileSection } from './section.tsx';

export function KycSection({ acting }: { acting: number | null }) {
  const { t, i18n } = useLingui();
  const query = useQuery(kycInfoQuery(acting));
  const occupations = useQuery(occupationsQuery(i18n.locale));
  const [editing, setEditing] = useState(false);
  const [saved, setSaved] = useState(false);
  return (
    <ProfileSection id="kyc" title={t`About you`}>
      <Loaded query={query}>
        {({ kycInfo }) =>
          editing ? (
            <KycForm
              initial={kycInfo}
              submitLabel={t`Save`}
              onSaved={() => {
                setEditing(false);
                setSaved(true);
              }}
            />
          ) : (
            <>
              <dl className="facts">
                <dt>{t`Occupation`}</dt>
                <dd>{kycInfo.occupationId === null ? t`Not given` : (occupations.data?.find((o) => o.id === kycInfo.occupationId)?.name ?? String(kycInfo.occupationId))}</dd>
                <dt>{t`Expected monthly turnover`}</dt>
                <dd>{kycInfo.expectedMonthlyTurnover ?? t`Not given`}</dd>
                <dt>{t`Politically exposed person`}</dt>
                <dd>{kycInfo.isPoliticallyExposed === null ? t`Not given` : kycInfo.isPoliticallyExposed ? t`Yes` : t`No`}</dd>
                <dt>{t`Last updated`}</dt>
                <dd>{kycInfo.updatedAt ? i18n.date(kycInfo.updatedAt, { dateStyle: 'medium' }) : t`Never`}</dd>
              </dl>
              {saved ? <p role="status">{t`Your answers were saved.`}</p> : null}
              <div className="actions">
                <Button
                  variant="secondary"
                  onClick={() => {
                    setSaved(false);
                    setEditing(true);
                  }}
                >
                  {t`Update your answers`}
                </Button>
              </div>
            </>
          )
        }
      </Loaded>
    </ProfileSection>
  );
}
