/**
 * The payout part of the transfer form (/transfer/external; document 2 §2 the payee's steps:
 * country choice, payment method choice, extra fields): the payee's country, the methods offered
 * there in the source account's currency, and the chosen method's payee form rendered field by
 * field as the platform gives it (extraParams), each with its error. And the payee as the review
 * shows it. Reads the transfer view's facts, sends FORM.CHANGE and the lookups' retries.
 */
import { Fragment, useId } from 'react';
import { useLingui } from '@lingui/react/macro';
import type { ActorRefFrom } from 'xstate';
import type { PayoutMethod } from '../../../api/payees/payout-methods.ts';
import { printIban } from '../../../api/payees/iban.ts';
import type { TransferMachine } from '../../../machines/transfer/transfer.machine.ts';
import type { TransferView as TransferFacts } from '../../../machines/transfer/transfer.select.ts';
import type { FieldError, PayeeForm, PayeeFormField } from '../../../machines/transfer/transfer.rules.ts';
import { describeFailure } from '../../lib/request.ts';
import { Alert } from '../../ui/alert.tsx';
import { Button } from '../../ui/button.tsx';
import { RadioGroup } from '../../ui/choice-fields.tsx';
import { SelectField } from '../../ui/select-field.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { TextField } from '../../ui/text-field.tsx';
import { useFieldErrorText, useMethodNames, usePayeeFieldLabels, usePayeeOptionNames } from './messages.ts';

export interface CountryOption {
  code: string;
  name: string;
}

type Refusal = NonNullable<TransferFacts['methodsFailure']>;

/** A lookup that failed: what it was, the platform's words when it answered, and a retry. */
function LookupFailed({ title, failure, canRetry, onRetry }: { title: string; failure: Refusal; canRetry: boolean; onRetry(): void }) {
  const { t } = useLingui();
  return (
    <Alert tone="error" title={title}>
      {failure.code === 'failed' ? <p>{describeFailure(failure.failure)}</p> : null}
      {canRetry ? (
        <Button variant="secondary" onClick={onRetry}>
          {t`Try again`}
        </Button>
      ) : null}
    </Alert>
  );
}

/** Input hints per field: the keyboard a phone shows and what the browser may fill in. */
function inputProps(field: PayeeFormField): {
  type: string;
  inputMode?: 'numeric' | 'email' | 'tel';
  autoComplete: string;
} {
  if (field.kind === 'email') return { type: 'email', inputMode: 'email', autoComplete: 'off' };
  if (field.kind === 'phone') return { type: 'tel', inputMode: 'tel', autoComplete: 'off' };
  if (field.pattern === 'digits' || field.pattern === 'abaRouting' || field.pattern === 'cardNumber') return { type: 'text', inputMode: 'numeric', autoComplete: 'off' };
  return { type: 'text', autoComplete: 'off' };
}

/**
 * A payee form rendered field by field as the platform gives it (extraParams), each with its
 * error: the transfer form's payee, and the global-pay payee page's own details.
 */
export function PayeeFields({
  form,
  values,
  errors,
  onChange,
}: {
  form: Pick<PayeeForm, 'fields' | 'oneOf'>;
  values: Readonly<Record<string, string>>;
  /** each field's error, by the field's name */
  errors: Readonly<Record<string, FieldError | undefined>>;
  onChange(values: Record<string, string>): void;
}) {
  const { t } = useLingui();
  const errorText = useFieldErrorText();
  const label = usePayeeFieldLabels();
  const option = usePayeeOptionNames();
  const grouped = new Set(form.oneOf.flat());
  const set = (name: string, value: string) => onChange({ ...values, [name]: value });
  return (
    <fieldset className="payout-payee">
      <legend>{t`Payee's details`}</legend>
      {form.oneOf.map((group) => {
        const names = group.map(label).join(', ');
        return (
          <p key={group.join()} className="field-hint">
            {t`Fill in at least one of: ${names}.`}
          </p>
        );
      })}
      {form.fields.map((field) => {
        const error = errorText(errors[field.name]);
        const name = label(field.name);
        // bankName's label says it already
        const optional = !field.required && !grouped.has(field.name) && field.name !== 'bankName';
        const text = optional ? t`${name} (optional)` : name;
        if (field.kind === 'select') {
          return (
            <SelectField
              key={field.name}
              label={text}
              name={`payee.${field.name}`}
              value={values[field.name] ?? ''}
              onChange={(v) => set(field.name, v)}
              options={(field.options ?? []).map((code) => ({
                value: code,
                label: option(code),
              }))}
              placeholder={t`Choose`}
              error={error}
            />
          );
        }
        return (
          <TextField
            key={field.name}
            label={text}
            name={`payee.${field.name}`}
            maxLength={field.maxLength}
            value={values[field.name] ?? ''}
            onChange={(v) => set(field.name, v)}
            error={error}
            {...inputProps(field)}
          />
        );
      })}
    </fieldset>
  );
}

/** The transfer form's payee errors (`payee.<field>`) by field name. */
function payeeErrors(fe: TransferFacts['fieldErrors']): Record<string, FieldError | undefined> {
  const out: Record<string, FieldError | undefined> = {};
  for (const [key, error] of Object.entries(fe)) if (key.startsWith('payee.')) out[key.slice('payee.'.length)] = error;
  return out;
}

export function PayoutRoute({ view, actor, countries }: { view: TransferFacts; actor: ActorRefFrom<TransferMachine>; countries: readonly CountryOption[] }) {
  const { t } = useLingui();
  const id = useId();
  const errorText = useFieldErrorText();
  const methodNames = useMethodNames();
  const { form, fieldErrors: fe } = view;
  const currency = view.source?.currency ?? '';
  const countryName = countries.find((c) => c.code === form.countryCode)?.name ?? form.countryCode;
  return (
    <section className="payout-route" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`} className="visually-hidden">{t`Where the money goes`}</h2>
      <SelectField
        label={t`Payee's country`}
        name="countryCode"
        value={form.countryCode}
        onChange={(v) => actor.send({ type: 'FORM.CHANGE', patch: { countryCode: v } })}
        options={countries.map((c) => ({ value: c.code, label: c.name }))}
        placeholder={t`Choose a country`}
        error={errorText(fe.countryCode)}
      />
      {view.methodsBusy ? <Spinner label={t`Finding the ways to send money to ${countryName}…`} /> : null}
      {view.methodsFailure && !view.methodsBusy ? (
        <LookupFailed
          title={t`We could not find the ways to send money there.`}
          failure={view.methodsFailure}
          canRetry={view.canRetryMethods}
          onRetry={() => actor.send({ type: 'METHODS.RETRY' })}
        />
      ) : null}
      {view.methods?.length === 0 && !fe.countryCode ? (
        <Alert tone="warning">{t`We cannot send ${currency} to ${countryName}. Choose another country, or an account in another currency.`}</Alert>
      ) : null}
      {view.methods && view.methods.length > 0 ? (
        <RadioGroup
          legend={t`How to send`}
          name="method"
          value={form.method ?? ''}
          onChange={(v) =>
            actor.send({
              type: 'FORM.CHANGE',
              patch: { method: v as PayoutMethod },
            })
          }
          options={view.methods.map((m) => ({
            value: m,
            label: methodNames[m].name,
            hint: methodNames[m].hint,
          }))}
          error={errorText(fe.method)}
        />
      ) : null}
      {view.payeeFormBusy ? <Spinner label={t`Loading the payee's details form`} /> : null}
      {view.payeeFormFailure && !view.payeeFormBusy ? (
        <LookupFailed
          title={t`We could not load the payee's details form.`}
          failure={view.payeeFormFailure}
          canRetry={view.canRetryPayeeForm}
          onRetry={() => actor.send({ type: 'PAYEE_FORM.RETRY' })}
        />
      ) : null}
      {view.payeeForm ? (
        <PayeeFields
          form={view.payeeForm}
          values={form.payeeFields}
          errors={payeeErrors(fe)}
          onChange={(payeeFields) => actor.send({ type: 'FORM.CHANGE', patch: { payeeFields } })}
        />
      ) : null}
    </section>
  );
}

/** A card number as the review shows it: its last four digits only. */
const masked = (name: string, value: string) => (name === 'cardNumber' ? `•••• ${value.replace(/\D/g, '').slice(-4)}` : name === 'iban' ? printIban(value) : value);

/** The payee on the review: method, country and every detail given (rows of the summary's list). */
export function PayeeSummary({ view, countries }: { view: TransferFacts; countries: readonly CountryOption[] }) {
  const { t } = useLingui();
  const methodNames = useMethodNames();
  const label = usePayeeFieldLabels();
  const option = usePayeeOptionNames();
  const form = view.form;
  const country = countries.find((c) => c.code === form.countryCode)?.name ?? form.countryCode;
  const selects = new Set(view.payeeForm?.fields.filter((f) => f.kind === 'select').map((f) => f.name));
  const details = (view.payeeForm?.fields ?? []).flatMap((field) => {
    const value = form.payeeFields[field.name]?.trim() ?? '';
    return value
      ? [
          {
            name: field.name,
            value: selects.has(field.name) ? option(value) : masked(field.name, value),
          },
        ]
      : [];
  });
  return (
    <>
      <dt>{t`Method`}</dt>
      <dd>{form.method ? methodNames[form.method].name : ''}</dd>
      <dt>{t`Country`}</dt>
      <dd>{country}</dd>
      {details.map((d) => (
        <Fragment key={d.name}>
          <dt>{label(d.name)}</dt>
          <dd>{d.value}</dd>
        </Fragment>
      ))}
    </>
  );
}
