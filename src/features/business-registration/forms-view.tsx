/**
 * The wizard's four root forms (general, financial information, due diligence, terms) and the
 * person and company forms the hubs open. Thin: each keeps what is typed until it is saved, then
 * sends the machine its event; errors come from the machine (business-registration.select.ts).
 */
import { createContext, useContext, useEffect, useRef, useState, type FormEvent, type MutableRefObject, type ReactNode } from 'react';
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

/**
 * Leaving a form unsaved (another section chosen in the list, "Continue to", "Review and send")
 * keeps what was typed: the wizard calls the shown form's flush first, which sends its save event
 * when the values differ from those the wizard holds (valid or not: the machine stores them as typed
 * and the section says what is wrong). The view provides the slot; each of the four root forms fills it.
 */
export const LeaveFormContext = createContext<MutableRefObject<(() => void) | null> | null>(null);

function useKeepOnLeave<T>(values: T, stored: T, save: (values: T) => void) {
  const slot = useContext(LeaveFormContext);
  const latest = useRef({ values, stored, save });
  latest.current = { values, stored, save };
  useEffect(() => {
    if (!slot) return;
    // only what differs from what the wizard holds (a form saved with errors is held as typed)
    const flush = () => {
      const { values, stored, save } = latest.current;
      if (JSON.stringify(values) !== JSON.stringify(stored)) save(values);
    };
    slot.current = flush;
    return () => {
      if (slot.current === flush) slot.current = null;
    };
  }, [slot]);
}

/** The keys of a form's values that hold text. */
type TextKeys<T> = { [K in keyof T]: T[K] extends string ? K : never }[keyof T] & string;

/** A form's values as the customer edits them, and each text field's binding (name, value, onChange, error). */
function useFormValues<T extends object>(initial: T, errors: FieldErrors) {
  const [f, setF] = useState<T>(initial);
  const err = useFieldError(errors);
  const set = (k: TextKeys<T>) => (value: string) => setF((x) => ({ ...x, [k]: value }));
  const bind = (k: TextKeys<T>, name: string = k) => ({ name, value: f[k] as string, onChange: set(k), error: err(k) });
  return { f, setF, set, err, bind };
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
  const { f, set, err, bind } = useFormValues<GeneralValues>(view.data.general, view.errors.general);
  const countryOptions = countries.map((c) => ({ value: c.code, label: c.name }));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    actor.send({ type: 'GENERAL.SAVE', values: f });
  };
  useKeepOnLeave(f, view.data.general, (values) => actor.send({ type: 'GENERAL.SAVE', values }));
  return (
    <form noValidate onSubmit={submit} className="wizard-form">
      <fieldset className="wizard-fieldset">
        <legend>{t`The company`}</legend>
        <TextField label={t`Company name`} {...bind('name')} required maxLength={200} autoComplete="organization" />
        <TextField label={t`Trading name (optional)`} {...bind('tradingName')} maxLength={200} />
        <SelectField label={t`Country of registration`} {...bind('registrationCountryCode')} options={countryOptions} placeholder={t`Choose a country`} />
        <TextField label={t`Registration number`} {...bind('registrationNumber')} required maxLength={50} />
        <TextField label={t`Date of registration`} {...bind('registrationDate')} type="date" required />
        <TextField label={t`Tax number (optional)`} {...bind('businessTaxId')} maxLength={50} />
        <TextField label={t`Company e-mail address`} {...bind('email', 'companyEmail')} type="email" required maxLength={254} />
        <TextField label={t`Website (optional)`} {...bind('website')} maxLength={200} />
        <TextField label={t`Phone country code`} {...bind('phoneCountryCode')} inputMode="tel" maxLength={8} required />
        <TextField label={t`Company phone number`} {...bind('phone')} type="tel" maxLength={32} required />
      </fieldset>
      <fieldset className="wizard-fieldset">
        <legend>{t`Registered address`}</legend>
        <TextField label={t`Address`} {...bind('address1')} required maxLength={200} autoComplete="address-line1" />
        <TextField label={t`Address line 2 (optional)`} {...bind('address2')} maxLength={200} autoComplete="address-line2" />
        <TextField label={t`City`} {...bind('city')} required maxLength={100} autoComplete="address-level2" />
        <TextField label={t`Postal code`} {...bind('postalCode')} required maxLength={20} autoComplete="postal-code" />
        <SelectField label={t`Country`} {...bind('countryCode')} options={countryOptions} placeholder={t`Choose a country`} />
      </fieldset>
      <fieldset className="wizard-fieldset">
        <legend>{t`You, the person registering the company`}</legend>
        <TextField label={t`Your first name`} {...bind('repFirstName')} required maxLength={100} autoComplete="given-name" />
        <TextField label={t`Your last name`} {...bind('repLastName')} required maxLength={100} autoComplete="family-name" />
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
        <TextField label={t`Your date of birth`} {...bind('repBirthday')} type="date" required autoComplete="bday" />
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
  const { f, setF, err, bind } = useFormValues<FinancialValues>(view.data.financial, view.errors.financial);
  const answer = (id: string) => (value: string) => setF((x) => ({ ...x, answers: { ...x.answers, [id]: value } }));
  const industries = d.industries.flatMap((g) => g.industries.map((i) => ({ value: String(i.id), label: `${g.name}: ${i.name}` })));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    actor.send({ type: 'FINANCIAL.SAVE', values: f });
  };
  useKeepOnLeave(f, view.data.financial, (values) => actor.send({ type: 'FINANCIAL.SAVE', values }));
  return (
    <form noValidate onSubmit={submit} className="wizard-form">
      <TextField label={t`Money coming in each month`} {...bind('monthlyDepositAmount')} inputMode="decimal" required hint={t`An amount, for example 25000 or 25000.50`} />
      <TextField label={t`Money going out each month`} {...bind('monthlyWithdrawalAmount')} inputMode="decimal" required />
      <SelectField label={t`Currency of these amounts`} {...bind('currency')} options={CURRENCIES.map((c) => ({ value: c, label: c }))} placeholder={t`Choose a currency`} />
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
      <SelectField label={t`Industry`} {...bind('industry')} options={industries} placeholder={t`Choose an industry`} />
      <TextArea label={t`What the company does (optional)`} {...bind('specifications')} />
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
  useKeepOnLeave(f, view.data.dueDiligence, (values) => actor.send({ type: 'DUE_DILIGENCE.SAVE', values }));
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
  useKeepOnLeave(f, view.data.legal, (values) => actor.send({ type: 'LEGAL.SAVE', values }));
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
  const { f, setF, err, bind } = useFormValues<PersonValues>(form.values, view.errors.person);
  const isRegistrant = form.isRegistrant;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    actor.send({ type: 'PERSON.SAVE', values: f });
  };
  const chosen = (id: number) => f.sourcesOfFunds.find((s) => s.sourceId === id);
  const describe = (source: string) => t`Describe: ${source}`;
  return (
    <form noValidate onSubmit={submit} className="wizard-form">
      <TextField label={t`First name`} {...bind('firstName')} required maxLength={100} />
      <TextField label={t`Last name`} {...bind('lastName')} required maxLength={100} />
      <TextField label={t`Date of birth`} {...bind('birthday')} type="date" required />
      {form.role.share ? (
        <TextField label={t`Share (percent)`} {...bind('share')} inputMode="decimal" required hint={t`Above 0 and at most 100, with at most two decimals.`} />
      ) : null}
      <TextField
        label={form.role.user ? t`E-mail address (the user signs in with it)` : t`E-mail address (optional)`}
        {...bind('email')}
        type="email"
        required={form.role.user}
        maxLength={254}
      />
      {form.role.user ? (
        <SelectField
          label={t`Access rights`}
          {...bind('accessRights')}
          options={([1, 2, 3, 4] as const).map((r) => ({ value: String(r), label: i18n._(rightsNames[r]) }))}
          placeholder={t`Choose the rights`}
          disabled={isRegistrant}
        />
      ) : null}
      <TextField label={t`Phone country code (optional)`} {...bind('phoneCountryCode')} inputMode="tel" maxLength={8} />
      <TextField label={t`Phone number (optional)`} {...bind('phone', 'personPhone')} type="tel" maxLength={32} />
      <TextField label={t`Tax number (optional)`} {...bind('taxId')} maxLength={50} />
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
  const { f, setF, err, bind } = useFormValues<CompanyValues>(form.values, view.errors.company);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    actor.send({ type: 'COMPANY.SAVE', values: f });
  };
  return (
    <form noValidate onSubmit={submit} className="wizard-form">
      <TextField label={t`Company name`} {...bind('name')} required maxLength={200} />
      <TextField label={t`Registration number (optional)`} {...bind('registrationNumber')} maxLength={50} />
      <SelectField
        label={t`Country of registration`}
        {...bind('registrationCountryCode')}
        options={countries.map((c) => ({ value: c.code, label: c.name }))}
        placeholder={t`Choose a country`}
      />
      <TextField label={t`Share (percent)`} {...bind('share')} inputMode="decimal" required hint={t`Above 0 and at most 100, with at most two decimals.`} />
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
