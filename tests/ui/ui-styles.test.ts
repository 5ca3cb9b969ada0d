/**
 * The design system's stylesheets, read as text (jsdom applies no CSS): components use tokens
 * only, every name the shell and the features rely on is defined, a heading that takes focus draws
 * no ring while controls keep theirs, and motion stops for reduced motion.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const uiDir = join(dirname(fileURLToPath(import.meta.url)), '../../src/ui');
const read = (file: string) => readFileSync(join(uiDir, file), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
const tokens = read('tokens.css');
const components = read('components.css');

describe('design system stylesheets', () => {
  it('defines every token the shell and the features are built against', () => {
    const names = [
      ...['bg', 'surface', 'surface-raised', 'fg', 'muted', 'border', 'border-strong', 'primary', 'primary-hover', 'primary-fg', 'primary-soft', 'danger', 'danger-bg', 'success', 'success-bg', 'warning', 'warning-bg', 'info-bg', 'focus'].map((n) => `--color-${n}`),
      '--font-family', ...['xs', 'sm', 'md', 'lg', 'xl', '2xl', '3xl'].map((n) => `--font-size-${n}`),
      ...['regular', 'medium', 'semibold', 'bold'].map((n) => `--font-weight-${n}`), '--line-height-tight', '--line-height-normal',
      ...[1, 2, 3, 4, 5, 6, 7].map((n) => `--space-${n}`),
      '--radius-sm', '--radius', '--radius-lg', '--radius-pill', '--shadow-1', '--shadow-2', '--shadow-3', '--motion-fast', '--motion-normal', '--ease-standard',
    ];
    const defined = new Set([...tokens.matchAll(/(--[a-z0-9-]+):/g)].map((m) => m[1]));
    expect(names.filter((n) => !defined.has(n))).toEqual([]);
    expect(tokens).toMatch(/--font-family: 'Inter Variable'/);
    expect(tokens).toMatch(/--space-1: 0\.25rem;[\s\S]*--space-5: 2\.5rem;[\s\S]*--space-6: 3rem;[\s\S]*--space-7: 4rem;/);
  });

  it('components read colours from tokens only', () => {
    expect(components.match(/#[0-9a-f]{3,8}\b|rgba?\(|hsla?\(/gi) ?? []).toEqual([]);
  });

  it('a heading that takes focus draws no ring; controls keep a visible one', () => {
    expect(components).toMatch(/:focus-visible \{\s*outline: 2px solid var\(--color-focus\);/);
    expect(components).toMatch(/:is\(h1, h2, h3, h4, h5, h6, dt\)\[tabindex='-1'\]:focus \{ outline: none; \}/);
    // no other rule takes the ring away
    expect(components.match(/outline: none/g)).toHaveLength(1);
  });

  it('reduced motion: the motion tokens become instant, the skeleton stops shimmering', () => {
    expect(tokens).toMatch(/@media \(prefers-reduced-motion: reduce\) \{\s*:root \{\s*--motion-fast: 0ms;\s*--motion-normal: 0ms;/);
    expect(components).toMatch(/@media \(prefers-reduced-motion: reduce\) \{ \.skeleton-block \{ animation: none;/);
  });
});
