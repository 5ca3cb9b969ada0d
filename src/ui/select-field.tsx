/**
 * A labelled select in the shared field frame (field.tsx), like TextField. The native select
 * stays (keyboard, phones' pickers); only its arrow is drawn, the same in every browser.
 */
import { Field } from './field.tsx';
import { ChevronDownIcon } from './icons-core.tsx';

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
  return (
    <Field label={label} hint={hint} error={error}>
      {(control) => (
        <span className="select-control">
        <select {...control} name={name} value={value} onChange={(e) => onChange(e.currentTarget.value)} disabled={disabled}>
          {placeholder !== undefined ? <option value="">{placeholder}</option> : null}
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
        <ChevronDownIcon />
        </span>
      )}
    </Field>
  );
}
