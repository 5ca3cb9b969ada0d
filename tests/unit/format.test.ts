import { describe, expect, it } from 'vitest';
import { formatAmount } from '../../src/lib/format.ts';

// Intl may use narrow or non-breaking spaces; compare with plain spaces.
const plain = (s: string) => s.replace(/[\u00a0\u202f]/g, ' ');

describe('formatAmount', () => {
  it('shows at least 2 decimals', () => {
    expect(formatAmount('1234.5', 'EUR', 'en')).toBe('€1,234.50');
    expect(formatAmount('10', 'USD', 'en')).toBe('$10.00');
  });

  it('keeps up to 8 decimals exactly, trimming trailing zeros', () => {
    expect(plain(formatAmount('0.00012345', 'BTC', 'en'))).toBe('BTC 0.00012345');
    expect(plain(formatAmount('1.10000000', 'BTC', 'en'))).toBe('BTC 1.10');
    expect(plain(formatAmount('12345678901.12345678', 'ETH', 'en'))).toBe('ETH 12,345,678,901.12345678');
  });

  it('formats in the UI language', () => {
    expect(plain(formatAmount('1234.5', 'EUR', 'es'))).toBe('1234,50 €');
    expect(plain(formatAmount('1234567.5', 'EUR', 'ru'))).toBe('1 234 567,50 €');
    expect(plain(formatAmount('-5', 'RON', 'ro'))).toBe('-5,00 RON');
  });

  it('refuses what is not a decimal string', () => {
    expect(() => formatAmount('1e5', 'EUR', 'en')).toThrow(TypeError);
    expect(() => formatAmount('10', 'euro', 'en')).toThrow(TypeError);
  });
});
