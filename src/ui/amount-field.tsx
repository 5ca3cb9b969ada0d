import { useId, type Ref } from 'react';
import { Field } from './field.tsx';

export interface AmountFieldProps {
  label: string;
  name: string;
  value: string;
  onChange(value: string): void;
  /** ISO code shown after the number, e.g. "EUR" (part of the field's description) */
  currency: string;
  error?: string;
  hint?: string;
  required?: boolean;
  disabled?: boolean;
  autoFocus?: boolean;
  ref?: Ref<HTMLInputElement>;
}

/**
 * An amount of money: a text input with the decimal keypad on phones (inputmode=decimal; a
 * type=number input would drop "12," in some locales and spin on the mouse wheel), its currency
 * as a suffix inside the box, read as part of the field's description. The caller parses and
 * validates the text (src/lib money helpers) and passes the error back.
 */
export function AmountField({ label, name, value, onChange, currency, error, hint, required, disabled, autoFocus, ref }: AmountFieldProps) {
  const suffixId = `${useId()}-currency`;
  return (
    <Field label={label} hint={hint} error={error} describedBy={suffixId} className="field-amount">
      {(control) => (
        <span className="amount-control">
          <input
            {...control}
            ref={ref}
            name={name}
            type="text"
            inputMode="decimal"
            autoComplete="off"
            spellCheck={false}
            value={value}
            onChange={(e) => onChange(e.currentTarget.value)}
            required={required}
            aria-required={required || undefined}
            disabled={disabled}
            // eslint-disable-next-line jsx-a11y/no-autofocus -- used only where a step starts with this field
            autoFocus={autoFocus}
          />
          <span id={suffixId} className="amount-suffix">
            {currency}
          </span>
        </span>
      )}
    </Field>
  );
}
