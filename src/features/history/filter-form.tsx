/**
 * The history filter form (document 2 §3 "History filter"): account, keyword, type, dates,
 * amounts, direction and status. It edits a copy; Apply checks it (nothing is sent while a field
 * is wrong; focus goes to the first wrong field) and hands the filter to the route, which puts it
 * in the URL; Reset clears it. The route remounts the form when the URL's filter changes (back
 * and forward buttons), so the fields always show the filter the results are for.
 */
import { useId, useRef, useState, type FormEvent } from 'react';
import { useLingui } from '@lingui/react/macro';
import type { Account } from '../../../api/accounts.ts';
import { Button } from '../../ui/button.tsx';
import { TextField } from '../../ui/text-field.tsx';
import { FILTER_KEYS, KEYWORD_MAX, formOf, readFilterForm, type FilterForm, type FilterFormErrors, type HistoryFilter } from './filter.ts';
import { OPERATION_TYPES, TRANSFER_STATUSES, useAccountLabel, useDirectionNames, useFilterErrors, useOperationTypeNames, useStatusNames } from './messages.ts';
import { SelectField } from '../../ui/select-field.tsx';

export interface FilterFormProps {
  filter: HistoryFilter;
  accounts: readonly Account[];
  onApply(filter: HistoryFilter): void;
  onReset(): void;
}

export function HistoryFilterForm({ filter, accounts, onApply, onReset }: FilterFormProps) {
  const { t } = useLingui();
  const id = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const [form, setForm] = useState<FilterForm>(() => formOf(filter));
  const [errors, setErrors] = useState<FilterFormErrors>({});
  const errorText = useFilterErrors();
  const typeNames = useOperationTypeNames();
  const statusNames = useStatusNames();
  const directionNames = useDirectionNames();
  const accountLabel = useAccountLabel();

  const set = (key: keyof FilterForm) => (value: string) => {
    setForm((f) => ({ ...f, [key]: value }));
    // A changed field's error goes; the others stay until the next Apply.
    setErrors(({ [key]: _gone, ...rest }) => rest);
  };
  const error = (key: keyof FilterForm) => (errors[key] ? errorText[errors[key]] : undefined);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const read = readFilterForm(form);
    if (!read.ok) {
      setErrors(read.errors);
      const first = FILTER_KEYS.find((key) => read.errors[key]);
      if (first) formRef.current?.querySelector<HTMLElement>(`[name="${first}"]`)?.focus();
      return;
    }
    setErrors({});
    onApply(read.filter);
  };

  return (
    <form ref={formRef} className="history-filter" role="search" aria-labelledby={`${id}-title`} onSubmit={submit} noValidate>
      <h2 id={`${id}-title`}>{t`Filter`}</h2>
      <div className="filter-grid">
        <SelectField
          label={t`Account`}
          name="accountId"
          value={form.accountId}
          onChange={set('accountId')}
          options={[{ value: '', label: t`All accounts` }, ...accounts.map((a) => ({ value: String(a.accountId), label: accountLabel(a) }))]}
        />
        <TextField
          label={t`Keyword`}
          name="keyword"
          value={form.keyword}
          onChange={set('keyword')}
          hint={t`A name, e-mail address, note or reference`}
          maxLength={KEYWORD_MAX}
          error={error('keyword')}
        />
        <SelectField
          label={t`Type`}
          name="transactionType"
          value={form.transactionType}
          onChange={set('transactionType')}
          options={[{ value: '', label: t`All types` }, ...OPERATION_TYPES.map((type) => ({ value: type, label: typeNames[type] }))]}
        />
        <TextField label={t`From date`} name="fromDate" type="date" value={form.fromDate} onChange={set('fromDate')} error={error('fromDate')} />
        <TextField label={t`To date`} name="toDate" type="date" value={form.toDate} onChange={set('toDate')} error={error('toDate')} />
        <TextField label={t`Smallest amount`} name="fromAmount" inputMode="decimal" value={form.fromAmount} onChange={set('fromAmount')} error={error('fromAmount')} />
        <TextField label={t`Largest amount`} name="toAmount" inputMode="decimal" value={form.toAmount} onChange={set('toAmount')} error={error('toAmount')} />
        <SelectField
          label={t`Direction`}
          name="transactionDirection"
          value={form.transactionDirection}
          onChange={set('transactionDirection')}
          options={[
            { value: '', label: t`Incoming and outgoing` },
            { value: 'in', label: directionNames.in },
            { value: 'out', label: directionNames.out },
          ]}
        />
        <SelectField
          label={t`Status`}
          name="status"
          value={form.status}
          onChange={set('status')}
          options={[{ value: '', label: t`All statuses` }, ...TRANSFER_STATUSES.map((status) => ({ value: status, label: statusNames[status] }))]}
        />
      </div>
      <div className="actions">
        <Button type="submit">{t`Apply`}</Button>
        <Button
          variant="secondary"
          onClick={() => {
            setForm(formOf({}));
            setErrors({});
            onReset();
          }}
        >
          {t`Reset`}
        </Button>
      </div>
    </form>
  );
}
