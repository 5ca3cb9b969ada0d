import { useEffect, useRef, type ReactNode } from 'react';

/**
 * The heading of a step or page. It takes focus when it mounts so that keyboard and screen-reader
 * users land at the start of the new step instead of on a button that no longer exists.
 */
export function StepHeading({ children, level = 1, id }: { children: ReactNode; level?: 1 | 2; id?: string }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    ref.current?.focus();
  }, []);
  const Tag = level === 1 ? 'h1' : 'h2';
  return (
    <Tag ref={ref} id={id} tabIndex={-1} className="step-heading">
      {children}
    </Tag>
  );
}
