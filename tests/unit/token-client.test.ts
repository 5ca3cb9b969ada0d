import { describe, expect, it } from 'vitest';
import { createTokenClient, MALFORMED_STATUS, NETWORK_STATUS } from '../../src/lib/token-client.ts';

interface Seen {
  url: string;
  init: RequestInit;
}

function clientAnswering(status: number, body: unknown) {
  const seen: Seen[] = [];
  const client = createTokenClient({
    authUrl: (path) => `https://bank.example${path}`,
    language: () => 'ro',
    fetchFn: async (url, init) => {
      seen.push({ url: String(url), init: init ?? {} });
      return new Response(body === undefined ? null : JSON.stringify(body), { status });
    },
  });
  return { client, seen };
}

const tokens = { accessToken: 'a.b.c', refreshToken: 'r1' };
const loginReq = { client: 'spa' as const, username: 'anna@demo.test', password: 'pw', codeChallenge: 'x'.repeat(43) };

describe('token client', () => {
  it('posts JSON with Accept-Language and X-Client-Version', async () => {
    const { client, seen } = clientAnswering(200, { authFlow: 'otp', code: 'c1' });
    const res = await client.login(loginReq);
    expect(res).toEqual({ ok: true, data: { authFlow: 'otp', code: 'c1' } });
    expect(seen[0]?.url).toBe('https://bank.example/auth/login');
    expect(seen[0]?.init.method).toBe('POST');
    const headers = seen[0]?.init.headers as Record<string, string>;
    expect(headers['Accept-Language']).toBe('ro');
    expect(headers['X-Client-Version']).toBe('2.1.2');
    expect(JSON.parse(String(seen[0]?.init.body))).toMatchObject({ username: 'anna@demo.test', client: 'spa' });
  });

  it('exchanges a code and refreshes against their paths', async () => {
    const { client, seen } = clientAnswering(200, tokens);
    expect(await client.exchangeCode({ code: 'c', codeVerifier: 'v'.repeat(128), otp: '123456' })).toEqual({ ok: true, data: tokens });
    expect(await client.refresh('r0')).toEqual({ ok: true, data: tokens });
    expect(seen.map((s) => new URL(s.url).pathname)).toEqual(['/auth/token', '/auth/refresh']);
    expect(JSON.parse(String(seen[1]?.init.body))).toEqual({ refreshToken: 'r0' });
  });

  it('accepts 204 for logout', async () => {
    const { client } = clientAnswering(204, undefined);
    expect(await client.logout('r0')).toEqual({ ok: true, data: undefined });
  });

  it('returns the server message of a 403', async () => {
    const { client } = clientAnswering(403, { message: 'Invalid credentials' });
    expect(await client.login(loginReq)).toEqual({ ok: false, status: 403, message: 'Invalid credentials' });
  });

  it('says "bad status" when an error has no message', async () => {
    const { client } = clientAnswering(429, 'slow down');
    expect(await client.login(loginReq)).toEqual({ ok: false, status: 429, message: 'bad status' });
  });

  it('refuses an answer that breaks the contract', async () => {
    const { client } = clientAnswering(200, { authFlow: 'simple' });
    expect(await client.login(loginReq)).toEqual({ ok: false, status: MALFORMED_STATUS, message: 'strange error' });
  });

  it('turns a failed fetch into status 0', async () => {
    const client = createTokenClient({
      authUrl: (p) => p,
      language: () => 'en',
      fetchFn: async () => {
        throw new TypeError('fetch failed');
      },
    });
    expect(await client.refresh('r')).toEqual({ ok: false, status: NETWORK_STATUS, message: 'network error' });
  });
});
