/**
 * The wizard's four root forms (general, financial information, due diligence, terms) and the
 * person and company forms the hubs open. Thin: each keeps what is typed until it is saved, then
 * sends the machine its event; errors come from the machine (business-registration.select.ts).
 */
import { useState, type FormEvent, type ReactNode } from 'react';
import { useLingui } from '@lingui/react/macro';
import type { BusinessRegistrationView } from '../../../machines/business-registration/business-registration.select.ts';
import type {
  BusinessDictionaries,
  CompanyValues,
  DueDiligenceValues,
  FieldErrors,
  FinancialValues,
  GeneralValues,
  LegalValues,
  PersonValues,
  YesNo,
} from '../../../machines/business-registration/business-registration.rules.ts';
import { Button, ButtonGroup } from '../../ui/button.tsx';
import { CheckboxField, RadioGroup } from '../../ui/choice-fields.tsx';
import { Field } from '../../ui/field.tsx';
import { SelectField } from '../../ui/select-field.tsx';
import { TextField } from '../../ui/text-field.tsx';
import { fieldMessages, rightsNames } from './messages.ts';
import type { BusinessRegistrationActor } from './business-registration-view.tsx';

export interface CountryOption {
  code: string;
  name: string;
}

/** The currencies a business account may be opened in (document 3 §9 currency symbols). */
const CURRENCIES = ['EUR', 'USD', 'GBP', 'AUD', 'CAD', 'RON'] as const;

function useFieldError(errors: FieldErrors) {
  const { i18n } = useLingui();
  return (field: string) => {
    const code = errors[field];
    return code ? i18n._(fieldMessages[code]) : undefined;
  };
}

function TextArea({
  label,
  name,
  value,
  onChange,
  error,
  hint,
}: {
  label: string;
  name: string;
  value: string;
  onChange(v: string): void;
  error?: string | undefined;
  hint?: string;
}) {
  return (
    <Field label={label} error={error} hint={hint}>
      {(control) => <textarea {...control} name={name} value={value} rows={3} maxLength={2000} onChange={(e) => onChange(e.currentTarget.value)} />}
    </Field>
  );
}

function FormFooter({ children }: { children: ReactNode }) {
  return (
    <ButtonGroup align="end" stackOnMobile>
      {children}
    </ButtonGroup>
  );
}

export function GeneralForm({ actor, view, countries }: { actor: BusinessRegistrationActor; view: BusinessRegistrationView; countries: readonly CountryOption[] }) {
  const { t } = useLingui();
  const [f, setF] = useState<GeneralValues>(view.data.general);
  const set = (k: keyof GeneralValues) => (value: string) => setF((x) => ({ ...x, [k]: value }));
  const err = useFieldError(view.errors.general);
  const countryOptions = countries.map((c) => ({ value: c.code, label: c.name }));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    actor.send({ type: 'GENERAL.SAVE', values: f });
  };
  return (
    <form noValidate onSubmit={submit} className="wizard-form">
      <fieldset className="wizard-fieldset">
        <legend>{t`The company`}</legend>
        <TextField label={t`Company name`} name="name" value={f.name} onChange={set('name')} required maxLength={200} error={err('name')} autoComplete="organization" />
        <TextField label={t`Trading name (optional)`} name="tradingName" value={f.tradingName} onChange={set('tradingName')} maxLength={200} error={err('tradingName')} />
        <SelectField
          label={t`Country of registration`}
          name="registrationCountryCode"
          value={f.registrationCountryCode}
          onChange={set('registrationCountryCode')}
          options={countryOptions}
          placeholder={t`Choose a country`}
          error={err('registrationCountryCode')}
        />
        <TextField
          label={t`Registration number`}
          name="registrationNumber"
          value={f.registrationNumber}
          onChange={set('registrationNumber')}
          required
          maxLength={50}
          error={err('registrationNumber')}
        />
        <TextField
          label={t`Date of registration`}
          name="registrationDate"
          type="date"
          value={f.registrationDate}
          onChange={set('registrationDate')}
          required
          error={err('registrationDate')}
        />
        <TextField label={t`Tax number (optional)`} name="businessTaxId" value={f.businessTaxId} onChange={set('businessTaxId')} maxLength={50} error={err('businessTaxId')} />
        <TextField label={t`Company e-mail address`} name="companyEmail" type="email" value={f.email} onChange={set('email')} required maxLength={254} error={err('email')} />
        <TextField label={t`Website (optional)`} name="website" value={f.website} onChange={set('website')} maxLength={200} error={err('website')} />
        <TextField
          label={t`Phone country code`}
          name="phoneCountryCode"
          value={f.phoneCountryCode}
          onChange={set('phoneCountryCode')}
          inputMode="tel"
          maxLength={8}
          required
          error={err('phoneCountryCode')}
        />
        <TextField label={t`Company phone number`} name="phone" type="tel" value={f.phone} onChange={set('phone')} maxLength={32} required error={err('phone')} />
      </fieldset>
      <fieldset className="wizard-fieldset">
        <legend>{t`Registered address`}</legend>
        <TextField label={t`Address`} name="address1" value={f.address1} onChange={set('address1')} required maxLength={200} error={err('address1')} autoComplete="address-line1" />
        <TextField
          label={t`Address line 2 (optional)`}
          name="address2"
          value={f.address2}
          onChange={set('address2')}
          maxLength={200}
          error={err('address2')}
          autoComplete="address-line2"
        />
        <TextField label={t`City`} name="city" value={f.city} onChange={set('city')} required maxLength={100} error={err('city')} autoComplete="address-level2" />
        <TextField
          label={t`Postal code`}
          name="postalCode"
          value={f.postalCode}
          onChange={set('postalCode')}
          required
          maxLength={20}
          error={err('postalCode')}
          autoComplete="postal-code"
        />
        <SelectField
          label={t`Country`}
          name="countryCode"
          value={f.countryCode}
          onChange={set('countryCode')}
          options={countryOptions}
          placeholder={t`Choose a country`}
          error={err('countryCode')}
        />
      </fieldset>
      <fieldset className="wizard-fieldset">
        <legend>{t`You, the person registering the company`}</legend>
        <TextField
          label={t`Your first name`}
          name="repFirstName"
          value={f.repFirstName}
          onChange={set('repFirstName')}
          required
          maxLength={100}
          error={err('repFirstName')}
          autoComplete="given-name"
        />
        <TextField
          label={t`Your last name`}
          name="repLastName"
          value={f.repLastName}
          onChange={set('repLastName')}
          required
          maxLength={100}
          error={err('repLastName')}
          autoComplete="family-name"
        />
        <TextField
          label={t`Your e-mail address`}
          name="repEmail"
          type="email"
          value={f.repEmail}
          onChange={set('repEmail')}
          required
          maxLength={254}
          error={err('repEmail') ?? (view.registrantEmailState === 1 ? t`This e-mail address already has an account. Sign in, or use another address.` : undefined)}
          hint={view.registrantEmailState === 2 ? t`Checking the e-mail address…` : t`You sign in with it; the draft is kept under it.`}
          autoComplete="email"
        />
        <TextField
          label={t`Your date of birth`}
          name="repBirthday"
          type="date"
          value={f.repBirthday}
          onChange={set('repBirthday')}
          required
          error={err('repBirthday')}
          autoComplete="bday"
        />
      </fieldset>
      <FormFooter>
        <Button type="submit">{t`Save and continue`}</Button>
      </FormFooter>
    </form>
  );
}

function Checklist({
  legend,
  items,
  chosen,
  onChange,
  error,
}: {
  legend: string;
  items: readonly { id: number; name: string }[];
  chosen: number[];
  onChange(ids: number[]): void;
  error?: string | undefined;
}) {
  return (
    <fieldset className="wizard-fieldset" aria-invalid={error ? true : undefined}>
      <legend>{legend}</legend>
      {items.map((item) => (
        <CheckboxField
          key={item.id}
          label={item.name}
          checked={chosen.includes(item.id)}
          onChange={(on) => onChange(on ? [...chosen, item.id] : chosen.filter((x) => x !== item.id))}
        />
      ))}
      {error ? <p className="field-error">{error}</p> : null}
    </fieldset>
  );
}

export function FinancialForm({ actor, view }: { actor: BusinessRegistrationActor; view: BusinessRegistrationView }) {
  const { t } = useLingui();
  const d = view.dictionaries as BusinessDictionaries;
  const [f, setF] = useState<FinancialValues>(view.data.financial);
  const set = (k: 'monthlyDepositAmount' | 'monthlyWithdrawalAmount' | 'currency' | 'industry' | 'specifications') => (value: string) => setF((x) => ({ ...x, [k]: value }));
  const answer = (id: string) => (value: string) => setF((x) => ({ ...x, answers: { ...x.answers, [id]: value } }));
  const err = useFieldError(view.errors.financial);
  const industries = d.industries.flatMap((g) => g.industries.map((i) => ({ value: String(i.id), label: `${g.name}: ${i.name}` })));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    actor.send({ type: 'FINANCIAL.SAVE', values: f });
  };
  return (
    <form noValidate onSubmit={submit} className="wizard-form">
      <TextField
        label={t`Money coming in each month`}
        name="monthlyDepositAmount"
        value={f.monthlyDepositAmount}
        onChange={set('monthlyDepositAmount')}
        inputMode="decimal"
        required
        hint={t`An amount, for example 25000 or 25000.50`}
        error={err('monthlyDepositAmount')}
      />
      <TextField
        label={t`Money going out each month`}
        name="monthlyWithdrawalAmount"
        value={f.monthlyWithdrawalAmount}
        onChange={set('monthlyWithdrawalAmount')}
        inputMode="decimal"
        required
        error={err('monthlyWithdrawalAmount')}
      />
      <SelectField
        label={t`Currency of these amounts`}
        name="currency"
        value={f.currency}
        onChange={set('currency')}
        options={CURRENCIES.map((c) => ({ value: c, label: c }))}
        placeholder={t`Choose a currency`}
        error={err('currency')}
      />
      <Checklist
        legend={t`Sources of the company's funds`}
        items={d.sources}
        chosen={f.sourceIds}
        onChange={(ids) => setF((x) => ({ ...x, sourceIds: ids }))}
        error={err('sourceIds')}
      />
      <Checklist
        legend={t`Purposes of the account`}
        items={d.purposes}
        chosen={f.purposeIds}
        onChange={(ids) => setF((x) => ({ ...x, purposeIds: ids }))}
        error={err('purposeIds')}
      />
      <SelectField
        label={t`Industry`}
        name="industry"
        value={f.industry}
        onChange={set('industry')}
        options={industries}
        placeholder={t`Choose an industry`}
        error={err('industry')}
      />
      <TextArea label={t`What the company does (optional)`} name="specifications" value={f.specifications} onChange={set('specifications')} error={err('specifications')} />
      {d.questions.map((q) => (
        <div key={q.id}>
          {q.type === 'radio' ? (
            <RadioGroup
              legend={q.question}
              name={q.id}
              value={f.answers[q.id] ?? ''}
              onChange={answer(q.id)}
              options={(q.options ?? []).map((o) => ({ value: String(o.value), label: o.label }))}
              error={err(q.id)}
              inline
            />
          ) : (
            <TextArea label={q.question} name={q.id} value={f.answers[q.id] ?? ''} onChange={answer(q.id)} error={err(q.id)} />
          )}
          {q.followUp && (f.answers[q.id] ?? '') === String(q.followUp.when) ? (
            <TextArea label={q.followUp.question} name={q.followUp.id} value={f.answers[q.followUp.id] ?? ''} onChange={answer(q.followUp.id)} error={err(q.followUp.id)} />
          ) : null}
        </div>
      ))}
      <FormFooter>
        <Button type="submit">{t`Save and continue`}</Button>
      </FormFooter>
    </form>
  );
}

export function DueDiligenceForm({ actor, view }: { actor: BusinessRegistrationActor; view: BusinessRegistrationView }) {
  const { t } = useLingui();
  const [f, setF] = useState<DueDiligenceValues>(view.data.dueDiligence);
  const err = useFieldError(view.errors.dueDiligence);
  const yesNo = [
    { value: 'yes', label: t`Yes` },
    { value: 'no', label: t`No` },
  ];
  const radio = (k: 'government' | 'lawsuits' | 'taxPayers', legend: string) => (
    <RadioGroup legend={legend} name={k} value={f[k]} onChange={(v) => setF((x) => ({ ...x, [k]: v as YesNo }))} options={yesNo} error={err(k)} inline />
  );
  const submit = (e: FormEvent) => {
    e.preventDefault();
    actor.send({ type: 'DUE_DILIGENCE.SAVE', values: f });
  };
  return (
    <form noValidate onSubmit={submit} className="wizard-form">
      {radio('government', t`Does a person of the company hold, or did they hold, a public office?`)}
      {radio('lawsuits', t`Is the company or a person of it party to a lawsuit?`)}
      <TextArea
        label={t`Details (needed when either answer above is yes)`}
        name="details"
        value={f.details}
        onChange={(v) => setF((x) => ({ ...x, details: v }))}
        error={err('details')}
      />
      {radio('taxPayers', t`Are any of the company's owners US tax payers?`)}
      <FormFooter>
        <Button type="submit">{t`Save and continue`}</Button>
      </FormFooter>
    </form>
  );
}

export function LegalForm({ actor, view }: { actor: BusinessRegistrationActor; view: BusinessRegistrationView }) {
  const { t } = useLingui();
  const d = view.dictionaries as BusinessDictionaries;
  const [f, setF] = useState<LegalValues>(view.data.legal);
  const err = useFieldError(view.errors.legal);
  const accept = (term: string) => t`I accept: ${term}`;
  const read = (term: string) => t`Read: ${term}`;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    actor.send({ type: 'LEGAL.SAVE', values: f });
  };
  return (
    <form noValidate onSubmit={submit} className="wizard-form">
      {d.agreements.map((a) => (
        <div key={a.id}>
          <CheckboxField
            label={accept(a.name)}
            name={`term-${a.id}`}
            checked={f[String(a.id)] === true}
            onChange={(on) => setF((x) => ({ ...x, [String(a.id)]: on }))}
            error={err(String(a.id))}
          />
          <p className="field-hint">
            <a href={a.url} target="_blank" rel="noreferrer noopener">
              {read(a.name)}
            </a>
          </p>
        </div>
      ))}
      <FormFooter>
        <Button type="submit">{t`Save and continue`}</Button>
      </FormFooter>
    </form>
  );
}

export function PersonForm({ actor, view }: { actor: BusinessRegistrationActor; view: BusinessRegistrationView }) {
  const { t, i18n } = useLingui();
  const form = view.personForm!;
  const d = view.dictionaries as BusinessDictionaries;
  const [f, setF] = useState<PersonValues>(form.values);
  const set = (k: 'firstName' | 'lastName' | 'birthday' | 'email' | 'phoneCountryCode' | 'phone' | 'taxId' | 'accessRights' | 'share') => (value: string) =>
    setF((x) => ({ ...x, [k]: value }));
  const err = useFieldError(view.errors.person);
  const isRegistrant = form.isRegistrant;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    actor.send({ type: 'PERSON.SAVE', values: f });
  };
  const chosen = (id: number) => f.sourcesOfFunds.find((s) => s.sourceId === id);
  const describe = (source: string) => t`Describe: ${source}`;
  return (
    <form noValidate onSubmit={submit} className="wizard-form">
      <TextField label={t`First name`} name="firstName" value={f.firstName} onChange={set('firstName')} required maxLength={100} error={err('firstName')} />
      <TextField label={t`Last name`} name="lastName" value={f.lastName} onChange={set('lastName')} required maxLength={100} error={err('lastName')} />
      <TextField label={t`Date of birth`} name="birthday" type="date" value={f.birthday} onChange={set('birthday')} required error={err('birthday')} />
      {form.role.share ? (
        <TextField
          label={t`Share (percent)`}
          name="share"
          value={f.share}
          onChange={set('share')}
          inputMode="decimal"
          required
          hint={t`Above 0 and at most 100, with at most two decimals.`}
          error={err('share')}
        />
      ) : null}
      <TextField
        label={form.role.user ? t`E-mail address (the user signs in with it)` : t`E-mail address (optional)`}
        name="email"
        type="email"
        value={f.email}
        onChange={set('email')}
        required={form.role.user}
        maxLength={254}
        error={err('email')}
      />
      {form.role.user ? (
        <SelectField
          label={t`Access rights`}
          name="accessRights"
          value={f.accessRights}
          onChange={set('accessRights')}
          options={([1, 2, 3, 4] as const).map((r) => ({ value: String(r), label: i18n._(rightsNames[r]) }))}
          placeholder={t`Choose the rights`}
          error={err('accessRights')}
          disabled={isRegistrant}
        />
      ) : null}
      <TextField
        label={t`Phone country code (optional)`}
        name="phoneCountryCode"
        value={f.phoneCountryCode}
        onChange={set('phoneCountryCode')}
        inputMode="tel"
        maxLength={8}
        error={err('phoneCountryCode')}
      />
      <TextField label={t`Phone number (optional)`} name="personPhone" type="tel" value={f.phone} onChange={set('phone')} maxLength={32} error={err('phone')} />
      <TextField label={t`Tax number (optional)`} name="taxId" value={f.taxId} onChange={set('taxId')} maxLength={50} error={err('taxId')} />
      {form.role.ubo ? (
        <fieldset className="wizard-fieldset">
          <legend>{t`Sources of this person's funds`}</legend>
          <p className="field-hint">{t`Asked of every beneficial owner (25 percent or more): choose each source and describe it.`}</p>
          {d.personSources.map((s) => (
            <div key={s.id}>
              <CheckboxField
                label={s.name}
                checked={chosen(s.id) !== undefined}
                onChange={(on) =>
                  setF((x) => ({ ...x, sourcesOfFunds: on ? [...x.sourcesOfFunds, { sourceId: s.id, details: '' }] : x.sourcesOfFunds.filter((y) => y.sourceId !== s.id) }))
                }
              />
              {chosen(s.id) ? (
                <TextField
                  label={describe(s.name)}
                  name={`sourceDetails-${s.id}`}
                  value={chosen(s.id)!.details}
                  onChange={(v) => setF((x) => ({ ...x, sourcesOfFunds: x.sourcesOfFunds.map((y) => (y.sourceId === s.id ? { ...y, details: v } : y)) }))}
                  maxLength={1000}
                  error={err(`sourceDetails-${s.id}`)}
                />
              ) : null}
            </div>
          ))}
          {err('sourcesOfFunds') ? <p className="field-error">{err('sourcesOfFunds')}</p> : null}
        </fieldset>
      ) : null}
      <FormFooter>
        <Button variant="secondary" onClick={() => actor.send({ type: 'FORM.CANCEL' })}>
          {t`Cancel`}
        </Button>
        <Button type="submit">{t`Save the person`}</Button>
      </FormFooter>
    </form>
  );
}

export function CompanyForm({ actor, view, countries }: { actor: BusinessRegistrationActor; view: BusinessRegistrationView; countries: readonly CountryOption[] }) {
  const { t } = useLingui();
  const form = view.companyForm!;
  const [f, setF] = useState<CompanyValues>(form.values);
  const set = (k: 'name' | 'registrationNumber' | 'registrationCountryCode' | 'share') => (value: string) => setF((x) => ({ ...x, [k]: value }));
  const err = useFieldError(view.errors.company);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    actor.send({ type: 'COMPANY.SAVE', values: f });
  };
  return (
    <form noValidate onSubmit={submit} className="wizard-form">
      <TextField label={t`Company name`} name="name" value={f.name} onChange={set('name')} required maxLength={200} error={err('name')} />
      <TextField
        label={t`Registration number (optional)`}
        name="registrationNumber"
        value={f.registrationNumber}
        onChange={set('registrationNumber')}
        maxLength={50}
        error={err('registrationNumber')}
      />
      <SelectField
        label={t`Country of registration`}
        name="registrationCountryCode"
        value={f.registrationCountryCode}
        onChange={set('registrationCountryCode')}
        options={countries.map((c) => ({ value: c.code, label: c.name }))}
        placeholder={t`Choose a country`}
        error={err('registrationCountryCode')}
      />
      <TextField
        label={t`Share (percent)`}
        name="share"
        value={f.share}
        onChange={set('share')}
        inputMode="decimal"
        required
        hint={t`Above 0 and at most 100, with at most two decimals.`}
        error={err('share')}
      />
      <fieldset className="wizard-fieldset">
        <legend>{t`Its directors (at least one)`}</legend>
        <p className="field-hint">{t`Choose from the persons already named; add a new person as a director or shareholder first.`}</p>
        {view.persons.map((p) => (
          <CheckboxField
            key={p.id}
            label={p.name || p.email || p.id}
            checked={f.directorIds.includes(p.id)}
            onChange={(on) => setF((x) => ({ ...x, directorIds: on ? [...x.directorIds, p.id] : x.directorIds.filter((y) => y !== p.id) }))}
          />
        ))}
        {err('directorIds') ? <p className="field-error">{err('directorIds')}</p> : null}
      </fieldset>
      <FormFooter>
        <Button variant="secondary" onClick={() => actor.send({ type: 'FORM.CANCEL' })}>
          {t`Cancel`}
        </Button>
        <Button type="submit">{t`Save the company`}</Button>
      </FormFooter>
    </form>
  );
}
