/**
 * The frame every labelled control shares (TextField, SelectField, AmountField): the label, the
 * hint and the error, tied to the control with aria-describedby; an error sets aria-invalid so
 * screen readers announce it when the control takes focus. The control itself is rendered by
 * `children`.
 */
import { useId, type ReactNode } from 'react';
import { AlertIcon } from './icons-core.tsx';

export interface ControlProps {
  id: string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
}

export interface FieldProps {
  label: string;
  hint?: string | undefined;
  error?: string | undefined;
  /** more ids that describe the control (AmountField's currency) */
  describedBy?: string | undefined;
  className?: string;
  children(control: ControlProps): ReactNode;
}

export function Field({ label, hint, error, describedBy, className, children }: FieldProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedByIds = [hint ? hintId : null, describedBy ?? null, error ? errorId : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className={['field', className].filter(Boolean).join(' ')}>
      <label htmlFor={id}>{label}</label>
      {hint ? (
        <span id={hintId} className="field-hint">
          {hint}
        </span>
      ) : null}
      {children({ id, 'aria-invalid': error ? true : undefined, 'aria-describedby': describedByIds })}
      {error ? (
        <span id={errorId} className="field-error">
          <AlertIcon />
          <span>{error}</span>
        </span>
      ) : null}
    </div>
  );
}
