/**
 * Form parts of the transfer pages: a labelled select with its hint and error tied by
 * aria-describedby (like src/ui/text-field.tsx), and the amount formatter in the UI language.
 */
import { useId } from 'react';
import { formatAmount } from '../../lib/format.ts';
import { getUiLanguage } from '../../lib/i18n.ts';

export interface SelectFieldProps {
  label: string;
  name: string;
  value: string;
  onChange(value: string): void;
  options: readonly { value: string; label: string }[];
  /** an empty first choice ("Choose an account") */
  placeholder?: string;
  hint?: string;
  error?: string;
  disabled?: boolean;
}

export function SelectField({ label, name, value, onChange, options, placeholder, hint, error, disabled }: SelectFieldProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {hint ? (
        <span id={hintId} className="field-hint">
          {hint}
        </span>
      ) : null}
      <select
        id={id}
        name={name}
        value={value}
        onChange={(e) => onChange(e.currentTarget.value)}
        disabled={disabled}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
      >
        {placeholder !== undefined ? <option value="">{placeholder}</option> : null}
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      {error ? (
        <span id={errorId} className="field-error">
          {error}
        </span>
      ) : null}
    </div>
  );
}

/** An amount of the platform (a decimal string) in the UI language; the text as is if it is not one. */
export function money(amount: string, currency: string): string {
  try {
    return formatAmount(amount, currency, getUiLanguage());
  } catch {
    return `${amount} ${currency}`;
  }
}
