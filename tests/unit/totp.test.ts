/**
 * TOTP through the otpauth package (server/modules/auth/totp.ts), checked against RFC 6238
 * Appendix B (SHA-1, 8 digits, 30-second steps, secret "12345678901234567890") and the 6-digit
 * codes the product uses (the same values' last six digits), plus the drift window, base32 per
 * RFC 4648 §10, and a demo user's secret against the e2e journey's independent implementation.
 */
import { describe, expect, it } from 'vitest';
import { Secret, TOTP } from 'otpauth';
import { base32Encode, generateTotpSecret, matchTotpStep, totpAt, totpStepAt } from '../../server/modules/auth/totp.ts';
import { demoUserByKey } from '../../server/db/demo-users.ts';
import { totp as independentTotp } from '../../e2e/support/totp.ts';

/** base32 of the ASCII bytes "12345678901234567890", the RFC's SHA-1 seed */
const RFC_SECRET = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';
const RFC_6238_SHA1: Array<[timeS: number, code: string]> = [
  [59, '94287082'],
  [1111111109, '07081804'],
  [1111111111, '14050471'],
  [1234567890, '89005924'],
  [2000000000, '69279037'],
  [20000000000, '65353130'],
];

describe('RFC 6238 Appendix B (SHA-1)', () => {
  it('the seed in base32 is the RFC seed', () => {
    expect(base32Encode(new TextEncoder().encode('12345678901234567890'))).toBe(RFC_SECRET);
  });

  it.each(RFC_6238_SHA1)('at %i s the 8-digit code is %s', (timeS, code) => {
    expect(TOTP.generate({ secret: Secret.fromBase32(RFC_SECRET), algorithm: 'SHA1', digits: 8, period: 30, timestamp: timeS * 1000 })).toBe(code);
  });

  it.each(RFC_6238_SHA1)('at %i s the product\'s 6-digit code is the last six digits of %s', (timeS, code) => {
    expect(totpAt(RFC_SECRET, timeS * 1000)).toBe(code.slice(-6));
    expect(matchTotpStep(RFC_SECRET, code.slice(-6), timeS * 1000)).toBe(totpStepAt(timeS * 1000));
  });
});

describe('matchTotpStep', () => {
  const atMs = 1_234_567_890_000;
  const step = totpStepAt(atMs);

  it('accepts one step of drift either way and names the step matched', () => {
    expect(matchTotpStep(RFC_SECRET, totpAt(RFC_SECRET, atMs - 30_000), atMs)).toBe(step - 1);
    expect(matchTotpStep(RFC_SECRET, totpAt(RFC_SECRET, atMs + 30_000), atMs)).toBe(step + 1);
  });

  it('refuses two steps off, a wrong code and anything but six digits', () => {
    expect(matchTotpStep(RFC_SECRET, totpAt(RFC_SECRET, atMs + 60_000), atMs)).toBeNull();
    expect(matchTotpStep(RFC_SECRET, totpAt(RFC_SECRET, atMs) === '000000' ? '111111' : '000000', atMs)).toBeNull();
    expect(matchTotpStep(RFC_SECRET, '12345', atMs)).toBeNull();
    expect(matchTotpStep(RFC_SECRET, '89005924', atMs)).toBeNull();
  });
});

describe('secrets', () => {
  it('base32 of RFC 4648 §10 test vectors (no padding)', () => {
    const ascii = (s: string) => new TextEncoder().encode(s);
    expect(base32Encode(ascii('f'))).toBe('MY');
    expect(base32Encode(ascii('foob'))).toBe('MZXW6YQ');
    expect(base32Encode(ascii('foobar'))).toBe('MZXW6YTBOI');
  });

  it('a new secret is 160 bits of base32, different each time', () => {
    const a = generateTotpSecret();
    expect(a).toMatch(/^[A-Z2-7]{32}$/);
    expect(generateTotpSecret()).not.toBe(a);
  });

  it('the demo users\' secrets give the codes an independent implementation gives', () => {
    const atMs = 1_700_000_000_000;
    for (const user of Object.values(demoUserByKey)) {
      if (!user.totpSecret) continue;
      expect(totpAt(user.totpSecret, atMs)).toBe(independentTotp(user.totpSecret, atMs));
    }
  });
});
