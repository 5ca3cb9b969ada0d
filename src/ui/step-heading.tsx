import { useEffect, useRef, type ReactNode } from 'react';

/**
 * Whether the person has not acted on this page yet (no click, key or tap since it loaded): the
 * User Activation API's sticky flag, which a new page load resets. Without the API (jsdom, old
 * browsers) this is false, so the heading takes focus as before.
 */
function notActedYet(): boolean {
  const activation = (navigator as Navigator & { userActivation?: { hasBeenActive: boolean } }).userActivation;
  return activation !== undefined && !activation.hasBeenActive;
}

/**
 * The heading of a step or page. It takes focus when it mounts so that keyboard and screen-reader
 * users land at the start of the new step instead of on a button that no longer exists.
 *
 * Not on a page opened cold, before the person has done anything: focus has nowhere to come back
 * from, a screen reader starts such a page at its top anyway, and focusing would force a layout
 * of the whole page in the middle of its first paint (issue 12: a 30-40 ms task on a phone).
 */
export function StepHeading({ children, level = 1, id }: { children: ReactNode; level?: 1 | 2; id?: string }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (notActedYet()) return;
    ref.current?.focus();
  }, []);
  const Tag = level === 1 ? 'h1' : 'h2';
  return (
    <Tag ref={ref} id={id} tabIndex={-1} className="step-heading">
      {children}
    </Tag>
  );
}
