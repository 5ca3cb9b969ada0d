/**
 * The frame every labelled control shares (TextField, SelectField): the label, the hint and the
 * error, tied to the control with aria-describedby; an error sets aria-invalid so screen readers
 * announce it when the control takes focus. The control itself is rendered by `children`.
 */
import { useId, type ReactNode } from 'react';

export interface ControlProps {
  id: string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
}

export function Field({ label, hint, error, children }: { label: string; hint?: string | undefined; error?: string | undefined; children(control: ControlProps): ReactNode }) {
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
      {children({ id, 'aria-invalid': error ? true : undefined, 'aria-describedby': describedBy })}
      {error ? (
        <span id={errorId} className="field-error">
          {error}
        </span>
      ) : null}
    </div>
  );
}
