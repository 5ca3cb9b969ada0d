/**
 * The icon factory and the icons the shared components draw (alerts, toasts, fields, selects).
 * The rest of the set is in icons.tsx, which re-exports these: a page's bundle takes one module
 * whole, so the sign-in page (130 kB budget) carries only these five, not every icon of the app.
 * The set: 24px stroke icons in currentColor, decorative (aria-hidden, never focusable). An icon
 * never carries meaning alone: the button or link around it has its own text or label.
 */
import type { ReactNode } from 'react';

export interface IconProps {
  /** CSS size (width and height); 1.25em by default (the .icon class) */
  size?: number | string;
  className?: string;
}

export type IconComponent = (props: IconProps) => ReactNode;

/** `body` is a function so that an icon no page uses is dropped from the bundle (the calls are pure). */
export function icon(name: string, body: () => ReactNode): IconComponent {
  function Icon({ size, className }: IconProps) {
    return (
      <svg
        xmlns="http://www.w3.org/2000/svg"
        viewBox="0 0 24 24"
        width={size}
        height={size}
        fill="none"
        stroke="currentColor"
        strokeWidth={1.75}
        strokeLinecap="round"
        strokeLinejoin="round"
        aria-hidden="true"
        focusable="false"
        className={['icon', `icon-${name}`, className].filter(Boolean).join(' ')}
      >
        {body()}
      </svg>
    );
  }
  Icon.displayName = `Icon(${name})`;
  return Icon;
}

export const ChevronDownIcon = /* @__PURE__ */ icon('chevron-down', () => <path d="m6 9 6 6 6-6" />);
export const CloseIcon = /* @__PURE__ */ icon('close', () => <path d="M6 6l12 12M18 6 6 18" />);
export const CheckIcon = /* @__PURE__ */ icon('check', () => <path d="m4.5 12.5 5 5 10-11" />);
export const AlertIcon = /* @__PURE__ */ icon('alert', () => <><path d="M10.3 4.2 2.6 17.5A2 2 0 0 0 4.3 20.5h15.4a2 2 0 0 0 1.7-3L13.7 4.2a2 2 0 0 0-3.4 0z" /><path d="M12 9.5v4M12 17h.01" /></>);
export const InfoIcon = /* @__PURE__ */ icon('info', () => <><circle cx="12" cy="12" r="9" /><path d="M12 11v5.5M12 7.5h.01" /></>);
