import type { ReactNode } from 'react';

export interface CardProps {
  children: ReactNode;
  /** a heading at the top of the card (h2 unless headingLevel says otherwise) */
  title?: ReactNode;
  headingLevel?: 2 | 3;
  /** something at the heading's end: a link or a small button */
  action?: ReactNode;
  /** section (a landmark-free region with its own heading) or a plain div */
  as?: 'section' | 'div' | 'article';
  className?: string;
  id?: string;
}

/** A raised surface that groups one thing: an account, a form, a list. */
export function Card({ children, title, headingLevel = 2, action, as: Tag = 'div', className, id }: CardProps) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <Tag className={['card', className].filter(Boolean).join(' ')} id={id}>
      {title || action ? (
        <div className="card-header">
          {title ? <Heading className="card-title">{title}</Heading> : <span />}
          {action}
        </div>
      ) : null}
      {children}
    </Tag>
  );
}
