import type { ReactNode } from 'react';

export interface AlertProps {
  tone: 'error' | 'info' | 'warning' | 'success';
  title?: string;
  children?: ReactNode;
}

/** An inline message. Errors use role=alert (announced at once), the others role=status. */
export function Alert({ tone, title, children }: AlertProps) {
  return (
    <div className={`alert alert-${tone}`} role={tone === 'error' ? 'alert' : 'status'}>
      {title ? <p className="alert-title"><strong>{title}</strong></p> : null}
      {children}
    </div>
  );
}
