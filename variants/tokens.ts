/**
 * A variant's design tokens: the CSS custom properties the build writes for it (variants/
 * vite-plugin.ts) and the colour pairs the contrast test checks (tests/unit/variants.test.ts).
 * Both read this one function, so the test checks exactly the colours a customer sees.
 *
 * A variant gives its brand colours (schema.ts Theme); the rest is derived here so that a new
 * brand needs a handful of colours, not thirty: the hover shade, the soft tints behind selected
 * items and messages, the raised surface of cards and the subtle divider. Pure data, no DOM.
 */
import type { Theme } from './schema.ts';

/** The colour tokens (without the `--color-` prefix) and their #rrggbb values. */
export interface ColourTokens {
  bg: string;
  surface: string;
  'surface-raised': string;
  fg: string;
  muted: string;
  border: string;
  'border-strong': string;
  primary: string;
  'primary-hover': string;
  'primary-fg': string;
  'primary-soft': string;
  danger: string;
  'danger-bg': string;
  success: string;
  'success-bg': string;
  warning: string;
  'warning-bg': string;
  'info-bg': string;
  focus: string;
}

function channels(hex: string): [number, number, number] {
  return [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)) as [number, number, number];
}

function toHex(rgb: readonly number[]): string {
  return `#${rgb.map((c) => Math.round(Math.min(255, Math.max(0, c))).toString(16).padStart(2, '0')).join('')}`;
}

/** `weight` of `a` mixed with the rest of `b`, in sRGB (what CSS color-mix does by default). */
export function mix(a: string, b: string, weight: number): string {
  const [ca, cb] = [channels(a), channels(b)];
  return toHex(ca.map((c, i) => c * weight + (cb[i] as number) * (1 - weight)));
}

export function colourTokens(theme: Theme): ColourTokens {
  return {
    bg: theme.bg,
    surface: theme.surface,
    // Cards sit on the tinted page surface; white-ish paper reads as "raised" with a soft shadow.
    'surface-raised': theme.bg,
    fg: theme.fg,
    muted: theme.muted,
    // Dividers and card outlines are decoration (no contrast requirement); control boundaries
    // use border-strong, the variant's own border, which keeps 3:1 against the background.
    border: mix(theme.border, theme.bg, 0.3),
    'border-strong': theme.border,
    primary: theme.primary,
    // Darker on hover: primary-fg keeps (in fact gains) contrast on it.
    'primary-hover': mix(theme.primary, '#000000', 0.82),
    'primary-fg': theme.primaryFg,
    'primary-soft': mix(theme.primary, theme.bg, 0.1),
    danger: theme.danger,
    'danger-bg': mix(theme.danger, '#ffffff', 0.09),
    success: theme.success,
    'success-bg': mix(theme.success, '#ffffff', 0.1),
    warning: theme.warning,
    // a warm amber tint whatever the brand's warning text colour (a brown mixed with white is grey)
    'warning-bg': mix(mix(theme.warning, '#ffb020', 0.15), '#ffffff', 0.16),
    'info-bg': mix(theme.primary, '#ffffff', 0.08),
    focus: theme.focus,
  };
}

/** Radii from the variant's one corner radius: small for chips, larger for cards and dialogs. */
export function radiusTokens(theme: Theme): { sm: string; md: string; lg: string } {
  const md = theme.radiusPx;
  return {
    sm: `${Math.max(2, Math.round(md / 2))}px`,
    md: `${md}px`,
    // even a square-cornered brand gets slightly rounded cards: sharp cards read as a form
    lg: `${Math.min(24, Math.max(8, md * 2))}px`,
  };
}

/** The variant's token stylesheet: one `:root` rule in the tokens layer (after the defaults). */
export function variantTokensCss(theme: Theme): string {
  const colours = Object.entries(colourTokens(theme)).map(([name, value]) => `  --color-${name}: ${value};`);
  const radius = radiusTokens(theme);
  return [
    '/* generated from the variant at build time (variants/tokens.ts) */',
    '@layer tokens {',
    ':root {',
    ...colours,
    `  --radius-sm: ${radius.sm};`,
    `  --radius: ${radius.md};`,
    `  --radius-lg: ${radius.lg};`,
    '}',
    '}',
    '',
  ].join('\n');
}
