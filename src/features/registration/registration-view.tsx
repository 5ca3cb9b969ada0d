/**
 * Personal registration (/register/personal): the form, the e-mail existence check as the user
 * types, then "check your e-mail" with a resend. Reads the registration machine through
 * registration.select.ts and sends its events; the field values live here until submit.
 */
import { useId, useState, type FormEvent } from 'react';
import { useSelector } from '@xstate/react';
import { useFlowActor } from '../../lib/actors.ts';
import { useLingui } from '@lingui/react/macro';
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { EmailState, type PersonalType } from '../../../api/registration.ts';
import { registrationMachine, type RegistrationMachine } from '../../../machines/registration/registration.machine.ts';
import type { RegistrationField, RegistrationForm } from '../../../machines/registration/registration.rules.ts';
import { selectRegistrationView } from '../../../machines/registration/registration.select.ts';
import { Alert } from '../../ui/alert.tsx';
import { Button } from '../../ui/button.tsx';
import { CheckboxField } from '../../ui/choice-fields.tsx';
import { StepHeading } from '../../ui/step-heading.tsx';
import { TextField } from '../../ui/text-field.tsx';
import { checkEmailActor, createAccountActor, resendCodeActor } from './actors.ts';
import { registrationErrorMessages, registrationFieldMessages } from './messages.ts';
import type { ActorRefFrom } from 'xstate';

export const liveRegistrationMachine = registrationMachine.provide({
  actors: { checkEmail: checkEmailActor, createAccount: createAccountActor, resendCode: resendCodeActor },
});

export type RegistrationActor = ActorRefFrom<RegistrationMachine>;

export const personalTypeNames: Record<PersonalType, MessageDescriptor> = {
  individual: msg`Individual`,
  soleTrader: msg`Sole trader`,
};

export interface CountryOption {
  code: string;
  name: string;
  phoneCode: string;
}

export interface RegistrationViewProps {
  actor: RegistrationActor;
  personalTypes: readonly PersonalType[];
  countries: readonly CountryOption[];
  termsUrl: string;
  privacyUrl: string;
}

/** Owns the live actor: the page the route renders. */
export function PersonalRegistrationPage(props: Omit<RegistrationViewProps, 'actor'>) {
  const actor = useFlowActor(liveRegistrationMachine, { input: { personalTypes: props.personalTypes } });
  return <RegistrationView actor={actor} {...props} />;
}

const emptyForm = (types: readonly PersonalType[]): RegistrationForm => ({
  personalType: types.length === 1 ? types[0]! : '',
  firstName: '',
  lastName: '',
  email: '',
  password: '',
  residenceCountryCode: '',
  phoneCountryCode: '',
  phone: '',
  acceptTerms: false,
});

export function RegistrationView({ actor, personalTypes, countries, termsUrl, privacyUrl }: RegistrationViewProps) {
  const { t, i18n } = useLingui();
  const view = selectRegistrationView(useSelector(actor, (s) => s));
  const [form, setForm] = useState<RegistrationForm>(() => emptyForm(personalTypes));
  const ids = { type: useId(), country: useId() };

  const set = <K extends keyof RegistrationForm>(key: K, value: RegistrationForm[K]) => setForm((f) => ({ ...f, [key]: value }));
  const fieldError = (field: RegistrationField) => {
    const code = view.fieldErrors[field];
    return code ? i18n._(registrationFieldMessages[code]) : undefined;
  };

  if (view.step === 'sent') {
    const sentTo = view.sentTo ?? '';
    // keyed: a new step mounts anew, so its heading takes focus (StepHeading focuses on mount)
    return (
      <section key="sent" aria-labelledby="registration-sent-heading" className="registration">
        <StepHeading id="registration-sent-heading">{t`Check your e-mail`}</StepHeading>
        <p>{t`We sent an activation link and code to ${sentTo}. Open the link, or enter the code on the activation page.`}</p>
        <p>
          <a href={`/activate?email=${encodeURIComponent(sentTo)}`}>{t`Enter the activation code`}</a>
        </p>
        {view.resend === 'sent' ? <Alert tone="success">{t`We sent a new activation code.`}</Alert> : null}
        {view.resend === 'failed' ? <Alert tone="error">{t`We could not send a new code. Please try again.`}</Alert> : null}
        <Button variant="secondary" busy={view.resending} onClick={() => actor.send({ type: 'CODE.RESEND' })}>
          {t`Send the code again`}
        </Button>
      </section>
    );
  }

  const emailError = fieldError('email');
  const emailHint =
    view.emailState === EmailState.checking
      ? t`Checking the e-mail address…`
      : view.emailState === EmailState.free
        ? t`This e-mail address is free.`
        : view.emailState === EmailState.failed
          ? t`We could not check the e-mail address. You can continue.`
          : view.emailState === EmailState.exists
            ? t`This e-mail address is already registered. Sign in or recover your password.`
            : view.emailState === EmailState.employee
              ? t`This e-mail address belongs to an authorised user of a company. Sign in with it instead.`
              : undefined;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    actor.send({ type: 'FORM.SUBMIT', form });
  };

  const typeError = fieldError('personalType');
  const countryError = fieldError('residenceCountryCode');
  const termsError = fieldError('acceptTerms');

  return (
    <section key="form" aria-labelledby="registration-heading" className="registration" aria-busy={view.busy || undefined}>
      <StepHeading id="registration-heading">{t`Open a personal account`}</StepHeading>
      {view.error ? <Alert tone="error">{i18n._(registrationErrorMessages[view.error])}</Alert> : null}
      <form noValidate onSubmit={submit}>
        {personalTypes.length > 1 ? (
          <fieldset className="field" aria-describedby={typeError ? `${ids.type}-error` : undefined}>
            <legend>{t`Account type`}</legend>
            {personalTypes.map((type) => (
              <label key={type} className="field-radio">
                <input
                  type="radio"
                  name="personalType"
                  value={type}
                  checked={form.personalType === type}
                  onChange={() => set('personalType', type)}
                  aria-invalid={typeError ? true : undefined}
                />{' '}
                {i18n._(personalTypeNames[type])}
              </label>
            ))}
            {typeError ? (
              <span id={`${ids.type}-error`} className="field-error">
                {typeError}
              </span>
            ) : null}
          </fieldset>
        ) : null}
        <TextField label={t`First name`} name="firstName" value={form.firstName} onChange={(v) => set('firstName', v)} autoComplete="given-name" required maxLength={200} error={fieldError('firstName')} />
        <TextField label={t`Last name`} name="lastName" value={form.lastName} onChange={(v) => set('lastName', v)} autoComplete="family-name" required maxLength={200} error={fieldError('lastName')} />
        <TextField
          label={t`E-mail address`}
          name="email"
          type="email"
          value={form.email}
          onChange={(v) => {
            set('email', v);
            actor.send({ type: 'EMAIL.CHANGE', email: v });
          }}
          autoComplete="email"
          required
          maxLength={254}
          error={emailError}
          hint={emailError ? undefined : emailHint}
        />
        {/* The check's answer arrives while the user types: a status message, announced without
            moving focus (WCAG 4.1.3). Always in the DOM, so the change is read out. */}
        <p role="status" className="visually-hidden">
          {emailError || view.emailState === EmailState.checking ? '' : emailHint}
        </p>
        <TextField
          label={t`Password`}
          name="password"
          type="password"
          value={form.password}
          onChange={(v) => set('password', v)}
          autoComplete="new-password"
          required
          maxLength={128}
          hint={t`8 to 128 characters with at least one letter and one digit.`}
          error={fieldError('password')}
        />
        <div className="field">
          <label htmlFor={ids.country}>{t`Country of residence`}</label>
          <select
            id={ids.country}
            name="residenceCountryCode"
            value={form.residenceCountryCode}
            onChange={(e) => set('residenceCountryCode', e.currentTarget.value)}
            required
            aria-required
            aria-invalid={countryError ? true : undefined}
            aria-describedby={countryError ? `${ids.country}-error` : undefined}
          >
            <option value="">{t`Choose a country`}</option>
            {countries.map((c) => (
              <option key={c.code} value={c.code}>
                {c.name}
              </option>
            ))}
          </select>
          {countryError ? (
            <span id={`${ids.country}-error`} className="field-error">
              {countryError}
            </span>
          ) : null}
        </div>
        <TextField
          label={t`Phone country code (optional)`}
          name="phoneCountryCode"
          value={form.phoneCountryCode}
          onChange={(v) => set('phoneCountryCode', v)}
          inputMode="tel"
          autoComplete="tel-country-code"
          maxLength={8}
          error={fieldError('phoneCountryCode')}
        />
        <TextField
          label={t`Phone number (optional)`}
          name="phone"
          type="tel"
          value={form.phone}
          onChange={(v) => set('phone', v)}
          autoComplete="tel-national"
          maxLength={32}
          error={fieldError('phone')}
        />
        <CheckboxField
          name="acceptTerms"
          label={t`I accept the terms and the privacy policy`}
          checked={form.acceptTerms}
          onChange={(checked) => set('acceptTerms', checked)}
          error={termsError}
        />
        <p className="field-hint">
          <a href={termsUrl} target="_blank" rel="noreferrer noopener">
            {t`Terms`}
          </a>{' '}
          ·{' '}
          <a href={privacyUrl} target="_blank" rel="noreferrer noopener">
            {t`Privacy policy`}
          </a>
        </p>
        <Button type="submit" busy={view.busy}>
          {t`Open the account`}
        </Button>
      </form>
      <p>
        {t`Already have an account?`} <a href="/login">{t`Sign in`}</a>
      </p>
    </section>
  );
}
