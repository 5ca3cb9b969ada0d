import { useLingui } from '@lingui/react/macro';

export interface SkeletonProps {
  /** number of text lines (the last one shorter) */
  lines?: number;
  /** 'text': lines; 'card': one block the size of a card; 'row': one tall line per entry */
  shape?: 'text' | 'card' | 'row';
  /** what is loading, for screen readers ("Loading your accounts"); "Loading" by default */
  label?: string;
}

/**
 * The shape of content that is on its way. The blocks are decoration (aria-hidden); a status
 * says "Loading" to screen readers instead. The shimmer stops for reduced motion (components.css).
 */
export function Skeleton({ lines = 3, shape = 'text', label }: SkeletonProps) {
  const { t } = useLingui();
  const blockClass = shape === 'card' ? 'skeleton-block skeleton-card' : shape === 'row' ? 'skeleton-block skeleton-block-lg' : 'skeleton-block';
  const count = shape === 'card' ? 1 : Math.max(1, lines);
  return (
    <div className="skeleton">
      <span role="status" className="visually-hidden">
        {label ?? t`Loading`}
      </span>
      {Array.from({ length: count }, (_, i) => (
        <span key={i} className={blockClass} aria-hidden="true" />
      ))}
    </div>
  );
}
