/**
 * The web app's sign-in actor (src/features/auth/actors.ts, through the real token client) against
 * the real platform: each refusal of POST /auth/login becomes the login machine's own code, so the
 * customer is told what happened: a wrong password, an account still to activate, or a network the
 * privacy check refuses. Only the transport is swapped (fetch → app.inject from a chosen address).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createActor, toPromise } from 'xstate';
import { eq } from 'drizzle-orm';
import { signInActor } from '../../src/features/auth/actors.ts';
import { configureTokenClient } from '../../src/lib/token-client.ts';
import { ipPrivacyRanges, users } from '../../server/db/schema.ts';
import { demoUserByKey } from '../../server/db/demo-users.ts';
import { createTestApp, type TestApp } from './harness.ts';

let t: TestApp;
let fromAddress = '198.51.100.20';

beforeAll(async () => {
  t = await createTestApp();
  configureTokenClient({
    authUrl: (path) => `http://platform.test${path}`,
    language: () => 'en',
    fetchFn: async (input, init) => {
      const url = new URL(String(input));
      const res = await t.app.inject({
        method: (init?.method ?? 'GET') as 'POST',
        url: `${url.pathname}${url.search}`,
        headers: init?.headers as Record<string, string>,
        payload: init?.body as string | undefined,
        remoteAddress: fromAddress,
      });
      return new Response(res.statusCode === 204 ? null : res.body, { status: res.statusCode, headers: { 'content-type': 'application/json' } });
    },
  });
});
afterAll(async () => {
  await t?.close();
});

async function signInAs(username: string, password: string) {
  return toPromise(createActor(signInActor, { input: { username, password } }).start());
}

describe('sign-in refusals as the login machine sees them', () => {
  it('a wrong password is invalidCredentials', async () => {
    expect(await signInAs(demoUserByKey.boris.email, 'not-the-password')).toEqual({ ok: false, code: 'invalidCredentials' });
  });

  it('the right password of an account not activated yet is notActivated', async () => {
    await t.db.update(users).set({ activated: false }).where(eq(users.email, demoUserByKey.boris.email));
    try {
      expect(await signInAs(demoUserByKey.boris.email, demoUserByKey.boris.password)).toEqual({ ok: false, code: 'notActivated' });
    } finally {
      await t.db.update(users).set({ activated: true }).where(eq(users.email, demoUserByKey.boris.email));
    }
  });

  it('an address the privacy check flags is privacyRefused, whatever the password', async () => {
    fromAddress = '203.0.113.50';
    await t.db.insert(ipPrivacyRanges).values({ cidr: '203.0.113.0/24', tor: true, note: 'test' });
    expect(await signInAs(demoUserByKey.boris.email, demoUserByKey.boris.password)).toEqual({ ok: false, code: 'privacyRefused' });
    expect(await signInAs(demoUserByKey.boris.email, 'not-the-password')).toEqual({ ok: false, code: 'privacyRefused' });
  });

  it('and the same user from a clean address signs in', async () => {
    fromAddress = '198.51.100.21';
    const result = await signInAs(demoUserByKey.boris.email, demoUserByKey.boris.password);
    expect(result).toMatchObject({ ok: true, response: { authFlow: 'simple' } });
  });
});
