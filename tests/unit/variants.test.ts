import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { getVariant, variantInputs } from '../../variants/index.ts';
import { STAGING_COUNT, VariantSchema, contrastRatio, stagingBase, variantIds } from '../../variants/schema.ts';

describe('variants', () => {
  it('there are six, one per id', () => {
    expect(Object.keys(variantInputs).sort()).toEqual([...variantIds].sort());
  });

  it.each(variantIds)('%s is valid against the schema', (id) => {
    const result = v.safeParse(VariantSchema, variantInputs[id]);
    expect(result.issues?.map((i) => `${v.getDotPath(i)}: ${i.message}`) ?? []).toEqual([]);
    expect(getVariant(id).id).toBe(id);
  });

  it.each(variantIds)('%s meets WCAG AA contrast', (id) => {
    const t = getVariant(id).theme;
    // text: 4.5:1
    expect(contrastRatio(t.fg, t.bg)).toBeGreaterThanOrEqual(4.5);
    expect(contrastRatio(t.fg, t.surface)).toBeGreaterThanOrEqual(4.5);
    expect(contrastRatio(t.muted, t.bg)).toBeGreaterThanOrEqual(4.5);
    expect(contrastRatio(t.muted, t.surface)).toBeGreaterThanOrEqual(4.5);
    expect(contrastRatio(t.primaryFg, t.primary)).toBeGreaterThanOrEqual(4.5);
    expect(contrastRatio(t.primary, t.bg)).toBeGreaterThanOrEqual(4.5);
    expect(contrastRatio(t.primary, t.surface)).toBeGreaterThanOrEqual(4.5);
    expect(contrastRatio(t.danger, t.bg)).toBeGreaterThanOrEqual(4.5);
    expect(contrastRatio(t.success, t.bg)).toBeGreaterThanOrEqual(4.5);
    expect(contrastRatio(t.warning, t.bg)).toBeGreaterThanOrEqual(4.5);
    // non-text (input borders, focus ring): 3:1
    expect(contrastRatio(t.border, t.bg)).toBeGreaterThanOrEqual(3);
    expect(contrastRatio(t.focus, t.bg)).toBeGreaterThanOrEqual(3);
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
