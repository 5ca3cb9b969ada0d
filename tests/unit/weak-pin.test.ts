/**
 * The weak-PIN rule (api/cards.ts isWeakPin): one rule for the platform's changePin (VF pinWeak)
 * and the PIN screens. Proof it can fail (2026-11-27): I let isWeakPin accept runs down (the -1
 * step dropped): the 4321, 9876 and 3210 rows went red; restored since. The common PINs moved here
 * from the platform (one list for both sides).
 */
import { describe, expect, it } from 'vitest';
import { isWeakPin } from '../../api/cards.ts';

describe('isWeakPin', () => {
  it.each(['0000', '1111', '9999', '1234', '0123', '6789', '4321', '9876', '3210'])('%s is weak', (pin) => {
    expect(isWeakPin(pin)).toBe(true);
  });

  it.each(['2580', '1212', '1984', '2468'])('%s is weak: one of the commonest PINs', (pin) => {
    expect(isWeakPin(pin)).toBe(true);
  });

  it.each(['1233', '7890', '0987', '4826', '9990', '0001', '5173'])('%s is not weak', (pin) => {
    expect(isWeakPin(pin)).toBe(false);
  });

  it("judges digits only (the format is PinSchema's)", () => {
    expect(isWeakPin('')).toBe(false);
    expect(isWeakPin('12a4')).toBe(false);
    expect(isWeakPin('aaaa')).toBe(false);
  });
});
