import type { ButtonHTMLAttributes, Ref } from 'react';

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: 'primary' | 'secondary' | 'link';
  /** The action is running: the button is disabled and says so to assistive technology. */
  busy?: boolean;
  ref?: Ref<HTMLButtonElement>;
}

/** A button that defaults to type="button" so it never submits a form by accident. */
export function Button({ variant = 'primary', busy = false, type = 'button', className, disabled, children, ...rest }: ButtonProps) {
  const classes = ['btn', `btn-${variant}`, className].filter(Boolean).join(' ');
  return (
    <button {...rest} type={type} className={classes} disabled={disabled || busy} aria-busy={busy || undefined}>
      {busy ? <span className="spinner-mark" aria-hidden="true" /> : null}
      {children}
    </button>
  );
}
