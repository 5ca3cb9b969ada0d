/**
 * A labelled select: the hint and the error are tied to it with aria-describedby, and an error
 * sets aria-invalid (the same layout and rules as TextField).
 */
import { useId } from 'react';

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
