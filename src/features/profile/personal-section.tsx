/** Personal data (read-only: a change of name or birth date is an identity change) and the tax number. */
import { useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useLingui } from '@lingui/react/macro';
import { callMethod } from '../../lib/request.ts';
import { Button } from '../../ui/button.tsx';
import { TextField } from '../../ui/text-field.tsx';
import { customerInfoQuery } from './queries.ts';
import { ChangeError, Loaded, ProfileSection } from './section.tsx';
import { TaxCertificationSummary, type SelfCertificationLink } from './tax-certification-summary.tsx';
import { useChange } from './use-change.ts';

export function PersonalSection({ acting, countryName, taxLink }: { acting: number | null; countryName(code: string): string; taxLink?: SelfCertificationLink | undefined }) {
  const { t, i18n } = useLingui();
  const query = useQuery(customerInfoQuery(acting));
  return (
    <ProfileSection id="personal" title={t`Personal data`}>
      <Loaded query={query}>
        {(c) => (
          <>
            <dl className="facts">
              <dt>{t`Name`}</dt>
              <dd>{c.customerType === 'business' ? c.businessName : `${c.firstName ?? ''} ${c.lastName ?? ''}`.trim()}</dd>
              <dt>{t`Birth date`}</dt>
              <dd>{c.birthDay ? i18n.date(`${c.birthDay}T00:00:00Z`, { dateStyle: 'long', timeZone: 'UTC' }) : t`Not given`}</dd>
              <dt>{t`Country of residence`}</dt>
              <dd>{c.residenceCountryCode ? countryName(c.residenceCountryCode) : t`Not given`}</dd>
              <dt>{t`Customer type`}</dt>
              <dd>{c.customerType === 'personal' ? t`Personal` : t`Business`}</dd>
              <dt>{t`Tax number`}</dt>
              <dd>{c.taxId ?? t`Not given`}</dd>
            </dl>
            {/* Not shown in the spec: names and birth date are what the identity documents prove, so they change through /profile-update when the provider asks, not here. */}
            <p className="field-hint">{t`To correct your name or birth date, contact support: we check them against your identity document.`}</p>
            {/* The profile's tax section (/profile#taxCertification): the self-certification's standing with its link (the questions and forms are /self-certification), and the tax number. */}
            <div id="taxCertification">
              <h3 tabIndex={-1}>{t`Tax residence`}</h3>
              {c.customerType === 'personal' ? <TaxCertificationSummary Link={taxLink} /> : null}
              <p>{t`Your tax identification number in your country of tax residence.`}</p>
              <TaxNumberForm current={c.taxId ?? ''} />
            </div>
          </>
        )}
      </Loaded>
    </ProfileSection>
  );
}

function TaxNumberForm({ current }: { current: string }) {
  const { t } = useLingui();
  const [open, setOpen] = useState(false);
  const [taxId, setTaxId] = useState(current);
  const change = useChange((vars: { taxId: string }) => callMethod('customerTaxNumberUpdate', vars), () => setOpen(false));
  if (!open) {
    return (
      <div className="actions">
        <Button
          variant="secondary"
          onClick={() => {
            change.reset();
            setTaxId(current);
            setOpen(true);
          }}
        >
          {current ? t`Change tax number` : t`Add tax number`}
        </Button>
        {change.done ? <p role="status">{t`Tax number saved.`}</p> : null}
      </div>
    );
  }
  const submit = (e: FormEvent) => {
    e.preventDefault();
    change.run({ taxId });
  };
  const fieldError = change.fieldError('taxId');
  return (
    <form onSubmit={submit} noValidate aria-label={t`Tax number`}>
      {fieldError ? null : <ChangeError text={change.errorText} />}
      <TextField label={t`Tax number`} name="taxId" value={taxId} onChange={setTaxId} required maxLength={30} error={fieldError} autoComplete="off" />
      <div className="actions">
        <Button type="submit" busy={change.busy}>
          {t`Save`}
        </Button>
        <Button variant="secondary" onClick={() => setOpen(false)}>
          {t`Cancel`}
        </Button>
      </div>
    </form>
  );
}
