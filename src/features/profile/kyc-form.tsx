/**
 * The KYC questionnaire (kycInfoUpdate): occupation, sources of funds, purposes of the account,
 * the expected monthly turnover and whether the customer is a politically exposed person. Used by
 * /kyc (the provider asks: isNeedKyc) and by the profile's KYC section (kept up to date).
 */
import { useId, useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useLingui } from '@lingui/react/macro';
import { callMethod } from '../../lib/request.ts';
import { Button } from '../../ui/button.tsx';
import { SelectField } from '../../ui/select-field.tsx';
import { TextField } from '../../ui/text-field.tsx';
import { occupationsQuery, purposesQuery, sourcesOfFundsQuery } from './queries.ts';
import { ChangeError, Loaded } from './section.tsx';
import { useChange } from './use-change.ts';

export interface KycAnswers {
  occupationId: number | null;
  sourceOfFundsIds: number[];
  purposeIds: number[];
  expectedMonthlyTurnover: string | null;
  isPoliticallyExposed: boolean | null;
}

export function KycForm({ initial, submitLabel, onSaved }: { initial: KycAnswers; submitLabel: string; onSaved(): void }) {
  const { t, i18n } = useLingui();
  const occupations = useQuery(occupationsQuery(i18n.locale));
  const sources = useQuery(sourcesOfFundsQuery(i18n.locale));
  const purposes = useQuery(purposesQuery(i18n.locale));
  const [occupationId, setOccupationId] = useState(initial.occupationId === null ? '' : String(initial.occupationId));
  const [sourceIds, setSourceIds] = useState<number[]>(initial.sourceOfFundsIds);
  const [purposeIds, setPurposeIds] = useState<number[]>(initial.purposeIds);
  const [turnover, setTurnover] = useState(initial.expectedMonthlyTurnover ?? '');
  const [pep, setPep] = useState<'' | 'yes' | 'no'>(initial.isPoliticallyExposed === null ? '' : initial.isPoliticallyExposed ? 'yes' : 'no');
  const [missing, setMissing] = useState<Record<string, boolean>>({});
  const change = useChange(
    (vars: { occupationId: number; sourceOfFundsIds: number[]; purposeIds: number[]; expectedMonthlyTurnover: string; isPoliticallyExposed: boolean }) => callMethod('kycInfoUpdate', vars),
    onSaved,
  );
  const submit = (e: FormEvent) => {
    e.preventDefault();
    // Checked here so nothing half-answered is sent; the platform checks again (VF on its field).
    const gaps = { occupationId: occupationId === '', sourceOfFundsIds: sourceIds.length === 0, purposeIds: purposeIds.length === 0, expectedMonthlyTurnover: turnover.trim() === '', isPoliticallyExposed: pep === '' };
    setMissing(gaps);
    if (Object.values(gaps).some(Boolean)) return;
    change.run({ occupationId: Number(occupationId), sourceOfFundsIds: sourceIds, purposeIds, expectedMonthlyTurnover: turnover.trim(), isPoliticallyExposed: pep === 'yes' });
  };
  const error = (param: string) => (missing[param] ? t`This is required.` : change.fieldError(param));
  const anyFieldError = ['occupationId', 'sourceOfFundsIds', 'purposeIds', 'expectedMonthlyTurnover', 'isPoliticallyExposed'].some((p) => change.fieldError(p) !== undefined);
  return (
    <form onSubmit={submit} noValidate aria-label={t`Know your customer`}>
      {anyFieldError ? null : <ChangeError text={change.errorText} />}
      <Loaded query={occupations}>
        {(list) => (
          <SelectField
            label={t`Occupation`}
            name="occupationId"
            value={occupationId}
            onChange={setOccupationId}
            placeholder={t`Choose your occupation`}
            options={list.map((o) => ({ value: String(o.id), label: o.name }))}
            error={error('occupationId')}
          />
        )}
      </Loaded>
      <Loaded query={sources}>{(list) => <CheckboxGroup legend={t`Sources of funds`} name="sourceOfFundsIds" items={list} value={sourceIds} onChange={setSourceIds} error={error('sourceOfFundsIds')} />}</Loaded>
      <Loaded query={purposes}>{(list) => <CheckboxGroup legend={t`Purposes of the account`} name="purposeIds" items={list} value={purposeIds} onChange={setPurposeIds} error={error('purposeIds')} />}</Loaded>
      <TextField label={t`Expected monthly turnover`} name="expectedMonthlyTurnover" value={turnover} onChange={setTurnover} maxLength={50} required hint={t`For example: up to 2 000 EUR`} error={error('expectedMonthlyTurnover')} />
      <RadioGroup
        legend={t`Are you, a family member or a close associate a politically exposed person?`}
        name="isPoliticallyExposed"
        value={pep}
        onChange={(v) => setPep(v as 'yes' | 'no')}
        options={[
          { value: 'no', label: t`No` },
          { value: 'yes', label: t`Yes` },
        ]}
        error={error('isPoliticallyExposed')}
      />
      <div className="actions">
        <Button type="submit" busy={change.busy}>
          {submitLabel}
        </Button>
      </div>
    </form>
  );
}

function CheckboxGroup({ legend, name, items, value, onChange, error }: { legend: string; name: string; items: readonly { id: number; name: string }[]; value: number[]; onChange(v: number[]): void; error: string | undefined }) {
  const id = useId();
  return (
    <fieldset className="profile-fieldset" aria-describedby={error ? `${id}-error` : undefined}>
      <legend>{legend}</legend>
      {items.map((item) => (
        <label key={item.id} className="checkbox">
          <input
            type="checkbox"
            name={name}
            value={item.id}
            checked={value.includes(item.id)}
            onChange={(e) => onChange(e.currentTarget.checked ? [...value, item.id] : value.filter((x) => x !== item.id))}
          />{' '}
          {item.name}
        </label>
      ))}
      {error ? (
        <span id={`${id}-error`} className="field-error">
          {error}
        </span>
      ) : null}
    </fieldset>
  );
}

function RadioGroup({ legend, name, value, onChange, options, error }: { legend: string; name: string; value: string; onChange(v: string): void; options: { value: string; label: string }[]; error: string | undefined }) {
  const id = useId();
  return (
    <fieldset className="profile-fieldset" role="radiogroup" aria-describedby={error ? `${id}-error` : undefined}>
      <legend>{legend}</legend>
      {options.map((o) => (
        <label key={o.value} className="checkbox">
          <input type="radio" name={name} value={o.value} checked={value === o.value} onChange={() => onChange(o.value)} /> {o.label}
        </label>
      ))}
      {error ? (
        <span id={`${id}-error`} className="field-error">
          {error}
        </span>
      ) : null}
    </fieldset>
  );
}

