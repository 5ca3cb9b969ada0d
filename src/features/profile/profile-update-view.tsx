/**
 * /profile-update (document 1 §2 start page rule 5): the provider asks the customer to update their
 * personal info (isNeedPersonalInfoUpdate); kycCustomerPersonalInfoUpdate, then the customer info
 * is read again (the session's copy decides the start page) and the customer goes home.
 */
import { useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useLingui } from '@lingui/react/macro';
import type { Customer } from '../../../api/customer.ts';
import { callMethod, callMethodOrThrow } from '../../lib/request.ts';
import { Button } from '../../ui/button.tsx';
import { SelectField } from '../../ui/select-field.tsx';
import { StepHeading } from '../../ui/step-heading.tsx';
import { TextField } from '../../ui/text-field.tsx';
import { countriesQuery, customerInfoQuery } from './queries.ts';
import { ChangeError, Loaded } from './section.tsx';
import { useChange } from './use-change.ts';
import './profile.css';

export interface ProfileUpdatePageProps {
  actingCustomerId: number | null;
  /** the customer info read after the update: the route stores it in the session and goes home */
  onDone(customer: Customer): void;
}

export function ProfileUpdatePage({ actingCustomerId, onDone }: ProfileUpdatePageProps) {
  const { t } = useLingui();
  const customer = useQuery(customerInfoQuery(actingCustomerId));
  return (
    <div className="profile-page">
      <StepHeading>{t`Update your personal details`}</StepHeading>
      <p>{t`Please check your personal details and correct what has changed. We compare them with your identity document.`}</p>
      <Loaded query={customer}>{(c) => <PersonalInfoForm customer={c} onDone={onDone} />}</Loaded>
    </div>
  );
}

function PersonalInfoForm({ customer, onDone }: { customer: Customer; onDone(customer: Customer): void }) {
  const { t, i18n } = useLingui();
  const countries = useQuery(countriesQuery(i18n.locale));
  const [firstName, setFirstName] = useState(customer.firstName ?? '');
  const [lastName, setLastName] = useState(customer.lastName ?? '');
  const [birthDay, setBirthDay] = useState(customer.birthDay ?? '');
  const [country, setCountry] = useState(customer.residenceCountryCode ?? '');
  const change = useChange(
    async (vars: { firstName: string; lastName: string; birthDay: string; residenceCountryCode: string }) => callMethod('kycCustomerPersonalInfoUpdate', vars),
    () => void callMethodOrThrow('getCustomerInfo', {}).then((a) => onDone(a.customer)),
  );
  const submit = (e: FormEvent) => {
    e.preventDefault();
    // Names are trimmed and whitespace collapsed (document 1 §5).
    const clean = (s: string) => s.trim().replace(/\s+/g, ' ');
    change.run({ firstName: clean(firstName), lastName: clean(lastName), birthDay: birthDay.trim(), residenceCountryCode: country });
  };
  const params = ['firstName', 'lastName', 'birthDay', 'residenceCountryCode'];
  const anyFieldError = params.some((p) => change.fieldError(p) !== undefined);
  return (
    <form onSubmit={submit} noValidate aria-label={t`Personal details`}>
      {anyFieldError ? null : <ChangeError text={change.errorText} />}
      <TextField label={t`First name`} name="firstName" value={firstName} onChange={setFirstName} autoComplete="given-name" required maxLength={100} error={change.fieldError('firstName')} />
      <TextField label={t`Last name`} name="lastName" value={lastName} onChange={setLastName} autoComplete="family-name" required maxLength={100} error={change.fieldError('lastName')} />
      <TextField label={t`Birth date`} name="birthDay" type="date" value={birthDay} onChange={setBirthDay} autoComplete="bday" required error={change.fieldError('birthDay')} />
      <SelectField
        label={t`Country of residence`}
        name="residenceCountryCode"
        value={country}
        onChange={setCountry}
        placeholder={t`Choose a country`}
        options={(countries.data ?? []).map((c) => ({ value: c.code, label: c.name }))}
        error={change.fieldError('residenceCountryCode')}
      />
      <div className="actions">
        <Button type="submit" busy={change.busy || change.done}>
          {t`Save and continue`}
        </Button>
      </div>
    </form>
  );
}
