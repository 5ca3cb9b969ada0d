/**
 * Applies a variant's theme tokens as CSS custom properties on :root. Written through the CSSOM
 * (style.setProperty), which a strict Content-Security-Policy allows, unlike inline <style>.
 */
import type { Theme } from '../../variants/schema.ts';

export function themeProperties(theme: Theme): Record<string, string> {
  return {
    '--color-bg': theme.bg,
    '--color-surface': theme.surface,
    '--color-fg': theme.fg,
    '--color-muted': theme.muted,
    '--color-border': theme.border,
    '--color-primary': theme.primary,
    '--color-primary-fg': theme.primaryFg,
    '--color-danger': theme.danger,
    '--color-success': theme.success,
    '--color-warning': theme.warning,
    '--color-focus': theme.focus,
    '--radius': `${theme.radiusPx}px`,
  };
}

export function applyTheme(theme: Theme, root: HTMLElement = document.documentElement): void {
  for (const [name, value] of Object.entries(themeProperties(theme))) root.style.setProperty(name, value);
}
