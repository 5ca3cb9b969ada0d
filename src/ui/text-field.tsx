import { useId, type HTMLAttributes, type HTMLInputTypeAttribute, type Ref } from 'react';

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
      <input
        ref={ref}
        id={id}
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
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
      />
      {error ? (
        <span id={errorId} className="field-error">
          {error}
        </span>
      ) : null}
    </div>
  );
}
