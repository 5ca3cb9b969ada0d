/**
 * formatMoney (document 2 §5): 8 decimals then trimmed to at least 2, in the UI language's number
 * format, exact for any size of decimal string (never through a binary float).
 */
import { describe, expect, it } from 'vitest';
import { formatMoney } from '../../src/lib/format.ts';

// Intl may use narrow or non-breaking spaces; compare with plain spaces.
const plain = (s: string) => s.replace(/[\u00a0\u202f]/g, ' ');

describe('formatMoney', () => {
  it('shows at least 2 decimals and trims trailing zeros down to 2', () => {
    expect(formatMoney('1234.5', 'EUR', 'en')).toBe('€1,234.50');
    expect(formatMoney('10', 'USD', 'en')).toBe('$10.00');
    expect(formatMoney('0', 'GBP', 'en')).toBe('£0.00');
    expect(plain(formatMoney('1.10000000', 'BTC', 'en'))).toBe('BTC 1.10');
    expect(plain(formatMoney('1.123', 'ETH', 'en'))).toBe('ETH 1.123');
  });

  it('keeps 8 decimals, rounding half away from zero at the 8th', () => {
    expect(plain(formatMoney('0.00012345', 'BTC', 'en'))).toBe('BTC 0.00012345');
    expect(plain(formatMoney('0.000123456789', 'BTC', 'en'))).toBe('BTC 0.00012346');
    expect(plain(formatMoney('0.000123454999', 'BTC', 'en'))).toBe('BTC 0.00012345');
    expect(plain(formatMoney('0.999999995', 'BTC', 'en'))).toBe('BTC 1.00');
    expect(plain(formatMoney('-0.999999995', 'BTC', 'en'))).toBe('-BTC 1.00');
    expect(formatMoney('-0.000000004', 'EUR', 'en')).toBe('€0.00');
  });

  it('is exact beyond the 15 digits a float holds', () => {
    expect(plain(formatMoney('123456789012345.12345678', 'ETH', 'en'))).toBe('ETH 123,456,789,012,345.12345678');
    expect(formatMoney('999999999999999999.99', 'USD', 'en')).toBe('$999,999,999,999,999,999.99');
    expect(formatMoney('-90071992547409931.01', 'EUR', 'en')).toBe('-€90,071,992,547,409,931.01');
  });

  it('keeps the sign of amounts below one', () => {
    expect(formatMoney('-0.5', 'EUR', 'en')).toBe('-€0.50');
    expect(plain(formatMoney('-0.5', 'RON', 'ro'))).toBe('-0,50 RON');
    expect(formatMoney('0.5', 'EUR', 'en', { signDisplay: 'exceptZero' })).toBe('+€0.50');
  });

  it('says the direction with a sign on request, none on zero', () => {
    expect(formatMoney('25', 'EUR', 'en', { signDisplay: 'exceptZero' })).toBe('+€25.00');
    expect(formatMoney('-25.1', 'EUR', 'en', { signDisplay: 'exceptZero' })).toBe('-€25.10');
    expect(formatMoney('0.00', 'EUR', 'en', { signDisplay: 'exceptZero' })).toBe('€0.00');
  });

  it('formats in the UI language', () => {
    expect(plain(formatMoney('1234.5', 'EUR', 'es'))).toBe('1234,50 €');
    expect(plain(formatMoney('1234567.5', 'EUR', 'ru'))).toBe('1 234 567,50 €');
    expect(plain(formatMoney('-5', 'RON', 'ro'))).toBe('-5,00 RON');
    expect(plain(formatMoney('1234567.123456789', 'BTC', 'uk'))).toBe('1 234 567,12345679 BTC');
    expect(plain(formatMoney('1234.5', 'AUD', 'au'))).toBe('$1,234.50');
    expect(plain(formatMoney('1234.5', 'USD', 'pt'))).toBe('US$ 1.234,50');
  });

  it('refuses what is not a decimal string or a currency code', () => {
    expect(() => formatMoney('1e5', 'EUR', 'en')).toThrow(TypeError);
    expect(() => formatMoney('12.', 'EUR', 'en')).toThrow(TypeError);
    expect(() => formatMoney('', 'EUR', 'en')).toThrow(TypeError);
    expect(() => formatMoney('10', 'euro', 'en')).toThrow(TypeError);
  });
});
