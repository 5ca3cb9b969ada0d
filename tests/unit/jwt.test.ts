import { createHmac } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import { signHs256, verifyHs256 } from '../../server/modules/auth/jwt.ts';

const key = new Uint8Array(32).fill(7);
const otherKey = new Uint8Array(32).fill(8);
const nowMs = 1_800_000_000_000;
const nowS = nowMs / 1000;
const claims = { sub: '12', cid: 3, fam: '0b7d6a4e-1111-4222-8333-944455556666', iat: nowS, exp: nowS + 300 };
const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');

describe('HS256 access tokens', () => {
  it('verifies its own tokens and returns the claims', () => {
    expect(verifyHs256(signHs256(claims, key), key, nowMs)).toEqual(claims);
  });

  it('interoperates with a standard implementation (jose) both ways', async () => {
    const ours = signHs256(claims, key);
    const { payload } = await jwtVerify(ours, key, { algorithms: ['HS256'], currentDate: new Date(nowMs) });
    expect(payload).toMatchObject(claims);
    const theirs = await new SignJWT({ cid: 3, fam: claims.fam })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('12')
      .setIssuedAt(nowS)
      .setExpirationTime(nowS + 300)
      .sign(key);
    expect(verifyHs256(theirs, key, nowMs)).toMatchObject({ sub: '12', cid: 3 });
  });

  it('refuses another key, a changed payload and a changed signature', () => {
    const token = signHs256(claims, key);
    expect(verifyHs256(token, otherKey, nowMs)).toBeNull();
    const [h, , s] = token.split('.');
    expect(verifyHs256(`${h}.${b64({ ...claims, cid: 4 })}.${s}`, key, nowMs)).toBeNull();
    expect(verifyHs256(`${token.slice(0, -2)}AA`, key, nowMs)).toBeNull();
  });

  it('refuses alg none and any other algorithm, even with a valid-looking signature', () => {
    const payload = b64(claims);
    expect(verifyHs256(`${b64({ alg: 'none' })}.${payload}.`, key, nowMs)).toBeNull();
    expect(verifyHs256(`${b64({ alg: 'none' })}.${payload}.AAAA`, key, nowMs)).toBeNull();
    // correctly HMAC-SHA256-signed with the right key, but the header names another algorithm
    for (const alg of ['HS512', 'none', 'RS256']) {
      const body = `${b64({ alg, typ: 'JWT' })}.${payload}`;
      const signature = createHmac('sha256', key).update(body).digest('base64url');
      expect(verifyHs256(`${body}.${signature}`, key, nowMs)).toBeNull();
    }
  });

  it('refuses expired tokens, tokens without exp and tokens not yet valid', () => {
    expect(verifyHs256(signHs256(claims, key), key, (claims.exp) * 1000)).toBeNull();
    expect(verifyHs256(signHs256({ ...claims, exp: undefined }, key), key, nowMs)).toBeNull();
    expect(verifyHs256(signHs256({ ...claims, nbf: nowS + 10 }, key), key, nowMs)).toBeNull();
    expect(verifyHs256(signHs256({ ...claims, nbf: nowS - 10 }, key), key, nowMs)).not.toBeNull();
  });

  it('refuses malformed input', () => {
    for (const bad of ['', 'a.b', 'a.b.c.d', 'é.b.c', `${'a'.repeat(5000)}.b.c`, `${b64('x')}.${b64(claims)}.x`, 'bm90LWpzb24.e30.AA']) {
      expect(verifyHs256(bad, key, nowMs)).toBeNull();
    }
  });
});
