import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { getVariant, variantInputs } from '../../variants/index.ts';
import { STAGING_COUNT, VariantSchema, contrastRatio, stagingBase, variantIds } from '../../variants/schema.ts';
import { colourTokens, variantTokensCss, type ColourTokens } from '../../variants/tokens.ts';
import { variantManifest, variantMarkPath } from '../../variants/vite-plugin.ts';

describe('variants', () => {
  it('there are six, one per id', () => {
    expect(Object.keys(variantInputs).sort()).toEqual([...variantIds].sort());
  });

  it.each(variantIds)('%s is valid against the schema', (id) => {
    const result = v.safeParse(VariantSchema, variantInputs[id]);
    expect(result.issues?.map((i) => `${v.getDotPath(i)}: ${i.message}`) ?? []).toEqual([]);
    expect(getVariant(id).id).toBe(id);
  });

  /**
   * Every text/background pair the components draw (src/ui/tokens.css lists them), on the tokens
   * the build really writes (variants/tokens.ts derives the tints from the variant's colours).
   * Text: 4.5:1 (WCAG 2.2 AA 1.4.3); control boundaries and the focus ring: 3:1 (1.4.11).
   */
  const TEXT_PAIRS: readonly [keyof ColourTokens, keyof ColourTokens][] = [
    ['fg', 'bg'], ['fg', 'surface'], ['fg', 'surface-raised'], ['fg', 'info-bg'], ['fg', 'primary-soft'],
    ['fg', 'danger-bg'], ['fg', 'success-bg'], ['fg', 'warning-bg'],
    ['muted', 'bg'], ['muted', 'surface'], ['muted', 'surface-raised'],
    ['primary-fg', 'primary'], ['primary-fg', 'primary-hover'],
    ['primary', 'bg'], ['primary', 'surface'], ['primary', 'surface-raised'], ['primary', 'primary-soft'], ['primary', 'info-bg'],
    ['danger', 'danger-bg'], ['danger', 'bg'], ['danger', 'surface'], ['bg', 'danger'],
    ['success', 'success-bg'], ['success', 'bg'],
    ['warning', 'warning-bg'], ['warning', 'bg'], ['bg', 'warning'],
  ];
  const NON_TEXT_PAIRS: readonly [keyof ColourTokens, keyof ColourTokens][] = [
    ['focus', 'bg'], ['focus', 'surface'], ['border-strong', 'bg'], ['border-strong', 'surface'], ['primary', 'surface-raised'],
  ];
  const failures = (tokens: ColourTokens) => [
    ...TEXT_PAIRS.map(([fg, bg]) => ({ pair: `${fg} on ${bg}`, ratio: contrastRatio(tokens[fg], tokens[bg]), min: 4.5 })),
    ...NON_TEXT_PAIRS.map(([fg, bg]) => ({ pair: `${fg} against ${bg}`, ratio: contrastRatio(tokens[fg], tokens[bg]), min: 3 })),
  ].filter((check) => check.ratio < check.min).map((check) => `${check.pair}: ${check.ratio.toFixed(2)} < ${check.min}`);

  it.each(variantIds)('%s meets WCAG 2.2 AA contrast on every pair the components use', (id) => {
    expect(failures(colourTokens(getVariant(id).theme))).toEqual([]);
  });

  it('the contrast check fails a variant whose colours are too light', () => {
    const pale = { ...getVariant('wallet').theme, primary: '#7fb2e5', muted: '#9aa3ad' };
    expect(failures(colourTokens(pale))).toEqual(expect.arrayContaining([expect.stringMatching(/^primary-fg on primary: /), expect.stringMatching(/^muted on surface: /)]));
  });

  it.each(variantIds)('%s has its own logo mark in its brand colour, and its token stylesheet', (id) => {
    const variant = getVariant(id);
    const svg = readFileSync(variantMarkPath(variant), 'utf8');
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    // the mark's tile is the brand's primary, its glyph the primary's text colour (white)
    expect(svg).toContain(`fill="${variant.theme.primary}"`);
    expect(variant.theme.primaryFg.toLowerCase()).toBe('#ffffff');
    const css = variantTokensCss(variant.theme);
    expect(css).toContain(`--color-primary: ${variant.theme.primary};`);
    expect(css).toContain(`--radius: ${variant.theme.radiusPx}px;`);
    expect(variantManifest(variant)).toMatchObject({ name: variant.projectName, theme_color: variant.theme.primary, icons: [{ src: '/favicon.svg', type: 'image/svg+xml' }] });
  });

  it('the marks differ from variant to variant', () => {
    const marks = variantIds.map((id) => readFileSync(variantMarkPath(getVariant(id)), 'utf8').replace(/fill="#[0-9a-f]{6}"/, ''));
    expect(new Set(marks).size).toBe(variantIds.length);
  });

  it('two variants disable registration, some offer only English and Spanish', () => {
    const all = variantIds.map(getVariant);
    expect(all.filter((x) => !x.registration.allowRegistration)).toHaveLength(2);
    expect(all.some((x) => x.languages.length === 2 && x.languages.includes('en') && x.languages.includes('es'))).toBe(true);
    expect(all.every((x) => x.api.production === '')).toBe(true);
  });

  it('staging bases cover 1-15 and nothing else', () => {
    const variant = getVariant('bank');
    expect(stagingBase(variant, 1)).toBe('https://test1.harbourline-bank.example');
    expect(stagingBase(variant, STAGING_COUNT)).toBe('https://test15.harbourline-bank.example');
    expect(() => stagingBase(variant, 0)).toThrow(RangeError);
    expect(() => stagingBase(variant, 16)).toThrow(RangeError);
  });

  it('rejects an invalid variant', () => {
    const broken = { ...variantInputs.wallet, languages: ['es'], support: { ...variantInputs.wallet.support, email: 'nope' } };
    const result = v.safeParse(VariantSchema, broken);
    expect(result.success).toBe(false);
    expect(result.issues?.map((i) => v.getDotPath(i))).toEqual(expect.arrayContaining(['languages', 'support.email']));
    expect(() => getVariant('nope')).toThrow(/unknown variant/);
  });

  it('contrastRatio matches known values', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#767676', '#ffffff')).toBeCloseTo(4.54, 2);
  });
});
