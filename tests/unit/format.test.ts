import { describe, expect, it } from 'vitest';
import { formatMoney } from '../../src/lib/format.ts';

// Intl may use narrow or non-breaking spaces; compare with plain spaces.
const plain = (s: string) => s.replace(/[\u00a0\u202f]/g, ' ');

describe('formatMoney', () => {
  it('shows at least 2 decimals', () => {
    expect(formatMoney('1234.5', 'EUR', 'en')).toBe('€1,234.50');
    expect(formatMoney('10', 'USD', 'en')).toBe('$10.00');
  });

  it('keeps up to 8 decimals exactly, trimming trailing zeros', () => {
    expect(plain(formatMoney('0.00012345', 'BTC', 'en'))).toBe('BTC 0.00012345');
    expect(plain(formatMoney('1.10000000', 'BTC', 'en'))).toBe('BTC 1.10');
    expect(plain(formatMoney('12345678901.12345678', 'ETH', 'en'))).toBe('ETH 12,345,678,901.12345678');
  });

  it('formats in the UI language', () => {
    expect(plain(formatMoney('1234.5', 'EUR', 'es'))).toBe('1234,50 €');
    expect(plain(formatMoney('1234567.5', 'EUR', 'ru'))).toBe('1 234 567,50 €');
    expect(plain(formatMoney('-5', 'RON', 'ro'))).toBe('-5,00 RON');
  });

  it('refuses what is not a decimal string', () => {
    expect(() => formatMoney('1e5', 'EUR', 'en')).toThrow(TypeError);
    expect(() => formatMoney('10', 'euro', 'en')).toThrow(TypeError);
  });
});
