import { useDeferredValue, type ReactNode } from 'react';

/**
 * Draws `children` one step after the rest of the page (issue 12: /home's first paint on a phone).
 * The first render shows `fallback`; React then draws the children at once in a transition
 * (useDeferredValue's initial value), in slices of a few milliseconds that let the browser paint
 * and answer input in between, instead of inside the page's one long task. The fallback must
 * hold the children's place (same size), so nothing moves when they arrive.
 */
export function Deferred({ children, fallback = null }: { children: ReactNode; fallback?: ReactNode }) {
  const ready = useDeferredValue(true, false);
  return <>{ready ? children : fallback}</>;
}
