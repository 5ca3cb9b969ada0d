import type { ReactNode } from 'react';
import { AlertIcon, CheckIcon, InfoIcon } from './icons-core.tsx';

export interface AlertProps {
  tone: 'error' | 'info' | 'warning' | 'success';
  title?: string;
  children?: ReactNode;
}

const icons = { error: AlertIcon, warning: AlertIcon, info: InfoIcon, success: CheckIcon } as const;

/** An inline message. Errors use role=alert (announced at once), the others role=status. */
export function Alert({ tone, title, children }: AlertProps) {
  const Icon = icons[tone];
  return (
    <div className={`alert alert-${tone} alert-with-icon`} role={tone === 'error' ? 'alert' : 'status'}>
      <Icon className="alert-icon" />
      <div className="alert-content">
        {title ? <p className="alert-title"><strong>{title}</strong></p> : null}
        {children}
      </div>
    </div>
  );
}
