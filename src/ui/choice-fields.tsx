/**
 * Checkbox, radio group and switch: native inputs underneath (keyboard, forms and assistive
 * technology work as the platform does), drawn by components.css. Each is labelled, says its hint
 * and error through aria-describedby, and marks an error with aria-invalid.
 */
import { useId, type ReactNode, type Ref } from 'react';

function describedBy(...ids: (string | false | undefined)[]): string | undefined {
  return ids.filter(Boolean).join(' ') || undefined;
}

function FieldError({ id, error }: { id: string; error: string | undefined }) {
  return error ? (
    <span id={id} className="field-error">
      {error}
    </span>
  ) : null;
}

export interface CheckboxFieldProps {
  label: ReactNode;
  checked: boolean;
  onChange(checked: boolean): void;
  name?: string;
  value?: string;
  hint?: string;
  error?: string;
  disabled?: boolean;
  required?: boolean;
  ref?: Ref<HTMLInputElement>;
}

/** One checkbox beside its label, on the same line; hint and error under the label. */
export function CheckboxField({ label, checked, onChange, name, value, hint, error, disabled, required, ref }: CheckboxFieldProps) {
  const id = useId();
  return (
    <div className="check-field">
      <input
        ref={ref}
        id={id}
        type="checkbox"
        name={name}
        value={value}
        checked={checked}
        onChange={(e) => onChange(e.currentTarget.checked)}
        disabled={disabled}
        required={required}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(hint && `${id}-hint`, error && `${id}-error`)}
      />
      <label htmlFor={id}>{label}</label>
      {hint ? (
        <span id={`${id}-hint`} className="field-hint">
          {hint}
        </span>
      ) : null}
      <FieldError id={`${id}-error`} error={error} />
    </div>
  );
}

export interface RadioOption {
  value: string;
  label: ReactNode;
  hint?: string;
  disabled?: boolean;
}

export interface RadioGroupProps {
  legend: string;
  name: string;
  /** the chosen value; '' for none yet */
  value: string;
  onChange(value: string): void;
  options: readonly RadioOption[];
  hint?: string;
  error?: string;
  disabled?: boolean;
  /** options side by side (short labels such as Yes / No) */
  inline?: boolean;
}

/**
 * A group of radio buttons in a fieldset with its legend. Arrow keys move between the options
 * and choose (the browser's own radio-group behaviour; one tab stop for the group).
 */
export function RadioGroup({ legend, name, value, onChange, options, hint, error, disabled, inline = false }: RadioGroupProps) {
  const id = useId();
  return (
    <fieldset
      className={['radio-group', inline ? 'radio-group-inline' : null].filter(Boolean).join(' ')}
      aria-describedby={describedBy(hint && `${id}-hint`, error && `${id}-error`)}
      disabled={disabled}
    >
      <legend>{legend}</legend>
      {hint ? (
        <span id={`${id}-hint`} className="field-hint radio-group-hint">
          {hint}
        </span>
      ) : null}
      <div className="radio-options">
        {options.map((option, index) => {
          const optionId = `${id}-${index}`;
          return (
            <div key={option.value} className="radio-option">
              <input
                id={optionId}
                type="radio"
                name={name}
                value={option.value}
                checked={value === option.value}
                onChange={() => onChange(option.value)}
                disabled={option.disabled}
                aria-invalid={error ? true : undefined}
                aria-describedby={option.hint ? `${optionId}-hint` : undefined}
              />
              <label htmlFor={optionId}>{option.label}</label>
              {option.hint ? (
                <span id={`${optionId}-hint`} className="field-hint">
                  {option.hint}
                </span>
              ) : null}
            </div>
          );
        })}
      </div>
      <FieldError id={`${id}-error`} error={error} />
    </fieldset>
  );
}

export interface SwitchProps {
  label: string;
  checked: boolean;
  onChange(checked: boolean): void;
  name?: string;
  hint?: string;
  disabled?: boolean;
}

/**
 * An on/off setting that takes effect at once (not a form answer: that is a CheckboxField). A
 * checkbox with role=switch: Space toggles it, screen readers say "on" or "off".
 */
export function Switch({ label, checked, onChange, name, hint, disabled }: SwitchProps) {
  const id = useId();
  return (
    <div className="switch-field">
      <span className="switch-text">
        <label htmlFor={id}>{label}</label>
        {hint ? (
          <span id={`${id}-hint`} className="field-hint">
            {hint}
          </span>
        ) : null}
      </span>
      <input
        id={id}
        className="switch"
        type="checkbox"
        role="switch"
        name={name}
        checked={checked}
        aria-checked={checked}
        onChange={(e) => onChange(e.currentTarget.checked)}
        disabled={disabled}
        aria-describedby={hint ? `${id}-hint` : undefined}
      />
    </div>
  );
}
