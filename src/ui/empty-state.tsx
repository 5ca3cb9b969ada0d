import type { ReactNode } from 'react';
import type { IconComponent } from './icons-core.tsx';

export interface EmptyStateProps {
  icon?: IconComponent;
  title: string;
  text?: ReactNode;
  /** what to do about it: a button or a link */
  action?: ReactNode;
  headingLevel?: 2 | 3;
}

/** Nothing to show yet: says so plainly and offers the next step, instead of an empty table. */
export function EmptyState({ icon: Icon, title, text, action, headingLevel = 2 }: EmptyStateProps) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <div className="empty-state">
      {Icon ? (
        <span className="empty-state-icon">
          <Icon />
        </span>
      ) : null}
      <Heading className="empty-state-title">{title}</Heading>
      {text ? <p className="empty-state-text">{text}</p> : null}
      {action ? <div className="btn-group">{action}</div> : null}
    </div>
  );
}
