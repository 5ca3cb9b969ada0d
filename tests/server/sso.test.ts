/** Single sign-on (api/security.ts; document 1 §2 /auth/sei, §7). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_SSO_CLIENT_ID, DEMO_SSO_REDIRECT_PATH } from '../../server/modules/security/sso.service.ts';
import { createTestApp, postJson, signIn, type SignedIn, type TestApp } from './harness.ts';

let t: TestApp;
let boris: SignedIn;
let anna: SignedIn;

const authorizeUrl = (params: Record<string, string>) => `/auth/sei?${new URLSearchParams(params).toString()}`;
const demo = { client_id: DEMO_SSO_CLIENT_ID, redirect_uri: DEMO_SSO_REDIRECT_PATH, state: 'st-1', scope: 'profile' };

async function authorize(token: string, params: Record<string, string> = demo) {
  return postJson(t.app, '/auth/sei/authorize', { authorizeUrl: authorizeUrl(params) }, { token });
}

beforeAll(async () => {
  t = await createTestApp({ demo: true });
  boris = await signIn(t.app, 'boris');
  anna = await signIn(t.app, 'anna');
});
afterAll(async () => {
  await t?.close();
});

describe('POST /auth/sei/authorize', () => {
  it('names the registered client and the scope', async () => {
    const res = await authorize(boris.accessToken);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ clientName: 'Demo Partner', scope: 'profile' });
  });

  it('answers 404 for an unknown client or an unregistered redirect address', async () => {
    expect((await authorize(boris.accessToken, { ...demo, client_id: 'nobody' })).statusCode).toBe(404);
    const evil = await authorize(boris.accessToken, { ...demo, redirect_uri: 'https://evil.example/cb' });
    expect(evil.statusCode).toBe(404);
    expect(evil.json()).toEqual({ message: 'Unknown client or redirect address' });
    expect((await authorize(boris.accessToken, { state: 'x' })).statusCode).toBe(404);
  });

  it('needs a signed-in user', async () => {
    expect((await postJson(t.app, '/auth/sei/authorize', { authorizeUrl: authorizeUrl(demo) })).statusCode).toBe(401);
  });
});

describe('the decision and the exchange', () => {
  it('approve: a code and the state on the redirect; the partner exchanges the code once', async () => {
    const { authorizationId } = (await authorize(boris.accessToken)).json() as { authorizationId: string };
    // Another user cannot answer it.
    expect((await postJson(t.app, `/auth/sei/authorize/${authorizationId}`, { params: { approve: true } }, { token: anna.accessToken })).statusCode).toBe(404);
    const decided = await postJson(t.app, `/auth/sei/authorize/${authorizationId}`, { params: { approve: true } }, { token: boris.accessToken });
    expect(decided.statusCode).toBe(200);
    const redirect = new URL((decided.json() as { redirect_uri: string }).redirect_uri, 'http://x.invalid');
    expect(redirect.pathname).toBe(DEMO_SSO_REDIRECT_PATH);
    expect(redirect.searchParams.get('state')).toBe('st-1');
    const code = redirect.searchParams.get('code')!;
    expect(code.length).toBeGreaterThan(30);
    // Answered once.
    expect((await postJson(t.app, `/auth/sei/authorize/${authorizationId}`, { params: { approve: true } }, { token: boris.accessToken })).statusCode).toBe(404);

    expect((await postJson(t.app, '/auth/sei/token', { client_id: 'nobody', code })).statusCode).toBe(404);
    const token = await postJson(t.app, '/auth/sei/token', { client_id: DEMO_SSO_CLIENT_ID, code });
    expect(token.statusCode).toBe(200);
    expect(token.json()).toMatchObject({ email: 'boris@demo.test', firstName: expect.any(String), lastName: expect.any(String), sub: expect.stringMatching(/^\d+$/) });
    expect((await postJson(t.app, '/auth/sei/token', { client_id: DEMO_SSO_CLIENT_ID, code })).statusCode).toBe(404);
  });

  it('deny: access_denied and the state, no code', async () => {
    const { authorizationId } = (await authorize(boris.accessToken)).json() as { authorizationId: string };
    const decided = await postJson(t.app, `/auth/sei/authorize/${authorizationId}`, { params: { approve: false } }, { token: boris.accessToken });
    expect((decided.json() as { redirect_uri: string }).redirect_uri).toBe(`${DEMO_SSO_REDIRECT_PATH}?error=access_denied&state=st-1`);
  });

  it('answers 404 for an unknown authorisation id', async () => {
    const res = await postJson(t.app, '/auth/sei/authorize/00000000-0000-4000-8000-000000000000', { params: { approve: true } }, { token: boris.accessToken });
    expect(res.statusCode).toBe(404);
    expect((await postJson(t.app, '/auth/sei/authorize/nope', { params: { approve: true } }, { token: boris.accessToken })).statusCode).toBe(404);
  });
});

describe('the demo partner page (development only)', () => {
  it('exchanges the code server-side and shows who signed in, escaped, without script', async () => {
    const { authorizationId } = (await authorize(boris.accessToken)).json() as { authorizationId: string };
    const { redirect_uri } = (
      await postJson(t.app, `/auth/sei/authorize/${authorizationId}`, { params: { approve: true } }, { token: boris.accessToken })
    ).json() as { redirect_uri: string };
    const page = await t.app.inject({ method: 'GET', url: redirect_uri });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('boris@demo.test');
    expect(page.body).not.toContain('<script');
    const reused = await t.app.inject({ method: 'GET', url: redirect_uri });
    expect(reused.body).toContain('The code was refused');
    const injected = await t.app.inject({ method: 'GET', url: `${DEMO_SSO_REDIRECT_PATH}?error=${encodeURIComponent('<b>x</b>')}` });
    expect(injected.body).toContain('&lt;b&gt;x&lt;/b&gt;');
  });

  it('is not served outside demo mode', async () => {
    const plain = await createTestApp({ devMailbox: true });
    try {
      const res = await plain.app.inject({ method: 'GET', url: DEMO_SSO_REDIRECT_PATH });
      expect(res.statusCode).toBe(404);
    } finally {
      await plain.close();
    }
  });
});
