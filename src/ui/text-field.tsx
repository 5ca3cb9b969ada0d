import type { HTMLAttributes, HTMLInputTypeAttribute, Ref } from 'react';
import { Field } from './field.tsx';

export interface TextFieldProps {
  label: string;
  name: string;
  value: string;
  onChange(value: string): void;
  type?: HTMLInputTypeAttribute;
  error?: string;
  hint?: string;
  autoComplete?: string;
  inputMode?: HTMLAttributes<HTMLInputElement>['inputMode'];
  autoFocus?: boolean;
  required?: boolean;
  maxLength?: number;
  disabled?: boolean;
  ref?: Ref<HTMLInputElement>;
}

/**
 * A labelled input. The hint and the error are tied to the input with aria-describedby, and an
 * error sets aria-invalid so screen readers announce it when the field takes focus.
 */
export function TextField({ label, name, value, onChange, type = 'text', error, hint, autoComplete, inputMode, autoFocus, required, maxLength, disabled, ref }: TextFieldProps) {
  return (
    <Field label={label} hint={hint} error={error}>
      {(control) => (
        <input
          {...control}
          ref={ref}
          name={name}
          type={type}
          value={value}
          onChange={(e) => onChange(e.currentTarget.value)}
          autoComplete={autoComplete}
          inputMode={inputMode}
          // eslint-disable-next-line jsx-a11y/no-autofocus -- used only where a step starts with this field
          autoFocus={autoFocus}
          required={required}
          aria-required={required || undefined}
          maxLength={maxLength}
          disabled={disabled}
        />
      )}
    </Field>
  );
}
