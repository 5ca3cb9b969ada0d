/** Card numbers: Luhn, brands and lengths, BIN, blocked BINs and the mask (api/payees/cards.ts; document 2 §5, §9). */
import { describe, expect, it } from 'vitest';
import { binOf, cardBrand, checkCardNumber, isBlockedBin, luhnValid, maskCardNumber } from '../../api/payees/cards.ts';

/** Test card numbers the card networks' acquirers publish (Luhn-valid, never issued to a person). */
const PUBLISHED: readonly [string, string][] = [
  ['4111111111111111', 'visa'],
  ['4242424242424242', 'visa'],
  ['4222222222222', 'visa'],
  ['5555555555554444', 'mastercard'],
  ['5105105105105100', 'mastercard'],
  ['2223003122003222', 'mastercard'],
  ['378282246310005', 'amex'],
  ['371449635398431', 'amex'],
  ['6011111111111117', 'discover'],
  ['6011000990139424', 'discover'],
  ['3530111333300000', 'jcb'],
  ['3566002020360505', 'jcb'],
  ['30569309025904', 'diners'],
  ['38520000023237', 'diners'],
  ['36227206271667', 'diners'],
  ['6200000000000005', 'unionpay'],
  ['6759649826438453', 'maestro'],
  ['5000550000000029', 'maestro'],
];

describe('a card number', () => {
  it('passes for published test numbers, with its brand and BIN', () => {
    for (const [number, brand] of PUBLISHED) expect(checkCardNumber(number)).toEqual({ ok: true, number, brand, bin: number.slice(0, 6) });
  });

  it('is read with its spaces removed', () => {
    expect(checkCardNumber(' 4111 1111 1111 1111 ')).toMatchObject({ ok: true, number: '4111111111111111' });
    expect(checkCardNumber('3782 822463 10005')).toMatchObject({ ok: true, brand: 'amex' });
  });

  it('fails the Luhn check for one mistyped digit or two swapped ones', () => {
    expect(checkCardNumber('4111111111111112')).toEqual({ ok: false, code: 'cardChecksum' });
    expect(checkCardNumber('5555555555554445')).toEqual({ ok: false, code: 'cardChecksum' });
    expect(checkCardNumber('378282246310050')).toEqual({ ok: false, code: 'cardChecksum' });
    expect(luhnValid('79927398713')).toBe(true); // the textbook example
    expect(luhnValid('79927398710')).toBe(false);
  });

  it('fails characters other than digits and spaces', () => {
    for (const text of ['4111-1111-1111-1111', '4111 1111 1111 111a', '', '   ']) expect(checkCardNumber(text)).toEqual({ ok: false, code: 'cardFormat' });
  });

  it('fails lengths outside 12 to 19, and lengths the brand does not issue', () => {
    expect(checkCardNumber('42424242424')).toEqual({ ok: false, code: 'cardLength' }); // 11 digits
    expect(checkCardNumber('41111111111111111111')).toEqual({ ok: false, code: 'cardLength' }); // 20
    // Luhn-valid, but an Amex has 15 digits and a Visa 13, 16 or 19
    expect(checkCardNumber('3782822463100052')).toEqual({ ok: false, code: 'cardLength' });
    expect(checkCardNumber('411111111111111118')).toEqual({ ok: false, code: 'cardLength' });
    // Maestro issues 12 digits
    expect(checkCardNumber('500000000009')).toMatchObject({ ok: true, brand: 'maestro' });
  });

  it('passes a Luhn-valid number of no known brand, without a brand', () => {
    expect(checkCardNumber('9000000000000001')).toEqual({ ok: true, number: '9000000000000001', brand: null, bin: '900000' });
  });
});

describe('the brand from the BIN ranges', () => {
  it('covers each range at its edges', () => {
    const brandOf = (prefix: string) => cardBrand(prefix.padEnd(16, '0'))?.brand ?? null;
    expect([brandOf('51'), brandOf('55'), brandOf('2221'), brandOf('2720')]).toEqual(['mastercard', 'mastercard', 'mastercard', 'mastercard']);
    expect([brandOf('50'), brandOf('56'), brandOf('58'), brandOf('6304'), brandOf('6759'), brandOf('676770'), brandOf('676774')]).toEqual(
      Array(7).fill('maestro'),
    );
    expect([brandOf('6011'), brandOf('644'), brandOf('649'), brandOf('65')]).toEqual(Array(4).fill('discover'));
    expect([brandOf('3528'), brandOf('3589')]).toEqual(['jcb', 'jcb']);
    expect([brandOf('36'), brandOf('300'), brandOf('305'), brandOf('38'), brandOf('39')]).toEqual(Array(5).fill('diners'));
    expect([brandOf('34'), brandOf('37'), brandOf('62'), brandOf('4')]).toEqual(['amex', 'amex', 'unionpay', 'visa']);
  });

  it('leaves the numbers just outside the ranges unbranded', () => {
    const brandOf = (prefix: string) => cardBrand(prefix.padEnd(16, '0'))?.brand ?? null;
    for (const prefix of ['2220', '2721', '3527', '3590', '306', '35', '643', '6010', '6305', '676771']) expect(brandOf(prefix), prefix).toBe(null);
  });
});

describe('the BIN and the blocked list', () => {
  it('is the first 6 digits with spaces removed (§5)', () => {
    expect(binOf('4111 11 11 1111 1111')).toBe('411111');
    expect(binOf('4111')).toBe('4111');
  });

  it('blocks a number whose BIN (or a longer listed prefix) is on the list', () => {
    expect(isBlockedBin('4111 1111 1111 1111', ['411111'])).toBe(true);
    expect(isBlockedBin('4111111111111111', ['555555', '41111111'])).toBe(true);
    expect(isBlockedBin('4111111111111111', ['411112', '41111112'])).toBe(false);
    expect(isBlockedBin('4111111111111111', [])).toBe(false);
    // an empty entry blocks nothing
    expect(isBlockedBin('4111111111111111', [''])).toBe(false);
  });
});

describe('the mask (§5, §9: threshold 16 characters)', () => {
  it('leaves a number shorter than 16 characters as it is', () => {
    expect(maskCardNumber('378282246310005')).toBe('378282246310005');
    expect(maskCardNumber('3782 822463 10005')).toBe('378282246310005');
  });

  it('shows the first 6 and last 4 digits of a longer one', () => {
    expect(maskCardNumber('4111111111111111')).toBe('411111******1111');
    expect(maskCardNumber('4111 1111 1111 1111')).toBe('411111******1111');
    expect(maskCardNumber('6759649826438453123')).toBe('675964*********3123');
  });
});
