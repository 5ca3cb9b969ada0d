/**
 * The pieces of a screen that shows a secret for a short time (a card's PIN, number and CVV:
 * src/features/cards): the secret's value with an optional copy button, the countdown to its
 * hiding, the live region that says it was hidden, and the PIN input (digits only, hidden while
 * typed unless the customer shows it, never autocompleted). They hold no secret themselves: the
 * value comes from the caller and is gone from the DOM as soon as the caller stops passing it.
 */
import { useEffect, useState } from 'react';
import { useLingui } from '@lingui/react/macro';
import { Button } from './button.tsx';
import { Field } from './field.tsx';
import './secret-fields.css';

/** One revealed value, in digits, with a copy button when `copyable` (the card number only). */
export function SecretValue({ label, value, shown, copyable = false }: { label: string; value: string; shown?: string; copyable?: boolean }) {
  const { t } = useLingui();
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  };
  return (
    <div className="secret-value">
      <span className="secret-value-label">{label}</span>
      <span className="secret-value-digits" translate="no">
        {shown ?? value}
      </span>
      {copyable ? (
        <Button variant="secondary" size="sm" onClick={() => void copy()}>
          {copied ? t`Copied` : t`Copy`}
        </Button>
      ) : null}
    </div>
  );
}

/** Whole seconds left of `totalMs` since `visible` turned true (display only: the chart hides the secret). */
export function useSecondsLeft(visible: boolean, totalMs: number): number {
  const full = Math.ceil(totalMs / 1000);
  const [left, setLeft] = useState(full);
  useEffect(() => {
    if (!visible) return;
    setLeft(full);
    const started = Date.now();
    const timer = setInterval(() => setLeft(Math.max(0, full - Math.floor((Date.now() - started) / 1000))), 1000);
    return () => clearInterval(timer);
  }, [visible, full]);
  return left;
}

/** The visible countdown beside a shown secret. */
export function SecretCountdown({ seconds }: { seconds: number }) {
  const { t } = useLingui();
  return (
    <p className="secret-countdown" aria-hidden="true">
      {t`Hidden again in ${seconds} s`}
    </p>
  );
}

/**
 * A polite live region kept in the DOM for the whole screen: it says `message` once a shown
 * secret is hidden again (a region added together with its text is not announced).
 */
export function SecretAnnouncer({ message }: { message: string | null }) {
  return (
    <p className="visually-hidden" aria-live="polite" role="status">
      {message ?? ''}
    </p>
  );
}

export interface PinFieldProps {
  label: string;
  name: string;
  value: string;
  onChange(value: string): void;
  error?: string | undefined;
  hint?: string | undefined;
  disabled?: boolean;
  autoFocus?: boolean;
  /** digits accepted (4 for a PIN) */
  length?: number;
}

/** A PIN input: digits only, the numeric keypad, hidden while typed with a show toggle, never autocompleted. */
export function PinField({ label, name, value, onChange, error, hint, disabled, autoFocus, length = 4 }: PinFieldProps) {
  const { t } = useLingui();
  const [show, setShow] = useState(false);
  return (
    <Field label={label} hint={hint} error={error}>
      {(control) => (
        <span className="pin-control">
          <input
            {...control}
            name={name}
            type={show ? 'text' : 'password'}
            inputMode="numeric"
            pattern="[0-9]*"
            autoComplete="off"
            spellCheck={false}
            maxLength={length}
            value={value}
            onChange={(e) => onChange(e.currentTarget.value.replace(/\D/g, '').slice(0, length))}
            // eslint-disable-next-line jsx-a11y/no-autofocus -- used only where a step starts with this field
            autoFocus={autoFocus}
            disabled={disabled}
            required
            aria-required
          />
          <Button variant="link" size="sm" onClick={() => setShow((s) => !s)} aria-pressed={show} disabled={disabled}>
            {show ? t`Hide` : t`Show`}
          </Button>
        </span>
      )}
    </Field>
  );
}
