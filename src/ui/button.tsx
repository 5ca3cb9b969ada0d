import type { ButtonHTMLAttributes, ReactNode, Ref } from 'react';

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: 'primary' | 'secondary' | 'danger' | 'link';
  size?: 'md' | 'sm';
  /** The action is running: the button is disabled and says so to assistive technology. */
  busy?: boolean;
  ref?: Ref<HTMLButtonElement>;
}

/** A button that defaults to type="button" so it never submits a form by accident. */
export function Button({ variant = 'primary', size = 'md', busy = false, type = 'button', className, disabled, children, ...rest }: ButtonProps) {
  const classes = ['btn', `btn-${variant}`, size === 'sm' ? 'btn-sm' : null, className].filter(Boolean).join(' ');
  return (
    <button {...rest} type={type} className={classes} disabled={disabled || busy} aria-busy={busy || undefined}>
      {busy ? <span className="spinner-mark" aria-hidden="true" /> : null}
      {children}
    </button>
  );
}

/**
 * Buttons side by side: spaced, wrapping on a narrow screen. `align="end"` puts them at the end
 * (dialogs, form footers); `stackOnMobile` puts them one under the other on a phone, the first
 * (primary) action at the bottom, nearest the thumb.
 */
export function ButtonGroup({ children, align = 'start', stackOnMobile = false, className, label }: { children: ReactNode; align?: 'start' | 'end'; stackOnMobile?: boolean; className?: string; label?: string }) {
  const classes = ['btn-group', align === 'end' ? 'btn-group-end' : null, stackOnMobile ? 'btn-group-stack-mobile' : null, className].filter(Boolean).join(' ');
  return (
    <div className={classes} role={label ? 'group' : undefined} aria-label={label}>
      {children}
    </div>
  );
}
