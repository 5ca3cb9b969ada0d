/** loginHistory and ipInfo (api/security.ts; document 1 §3 client IP info, §5 privacy check). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { decodeJwt } from 'jose';
import { ipPrivacyRanges, loginHistory, users } from '../../server/db/schema.ts';
import { demoUserByKey } from '../../server/db/demo-users.ts';
import { callMethod, createTestApp, signIn, type SignedIn, type TestApp } from './harness.ts';

let t: TestApp;
let boris: SignedIn;
let borisId: number;

beforeAll(async () => {
  t = await createTestApp();
  boris = await signIn(t.app, 'boris');
  borisId = Number(decodeJwt(boris.accessToken).sub);
  const [annaRow] = await t.db.select().from(users).where(eq(users.email, demoUserByKey.anna.email));
  // Whatever sign-ins the platform recorded, plus 25 known ones an hour apart, and one of anna's.
  const base = Date.parse('2026-01-01T00:00:00Z');
  await t.db.insert(loginHistory).values(
    Array.from({ length: 25 }, (_, i) => ({
      userId: borisId,
      at: new Date(base + i * 3_600_000),
      ip: `198.51.100.${i}`,
      countryCode: null,
      userAgent: `agent ${i}`,
      authFlow: 'simple',
      result: i % 5 === 0 ? ('failure' as const) : ('success' as const),
    })),
  );
  await t.db.insert(loginHistory).values({ userId: annaRow!.id, ip: '192.0.2.1', authFlow: 'otp', result: 'success', at: new Date(base) });
});
afterAll(async () => {
  await t?.close();
});

describe('loginHistory', () => {
  it('pages the signed-in user’s own sign-ins, twenty a page, newest first', async () => {
    const all = await t.db.select().from(loginHistory).where(eq(loginHistory.userId, borisId));
    const first = await callMethod(t.app, 'loginHistory', {}, { token: boris.accessToken });
    expect(first.body.responseCode).toBe('00');
    expect(first.body.page).toBe(1);
    expect(first.body.pageSize).toBe(20);
    expect(first.body.total).toBe(all.length);
    const items = first.body.items as { date: string; ip: string; result: string }[];
    expect(items).toHaveLength(20);
    const dates = items.map((i) => Date.parse(i.date));
    expect([...dates].sort((a, b) => b - a)).toEqual(dates);
    const lastPage = Math.ceil(all.length / 20);
    const last = await callMethod(t.app, 'loginHistory', { page: lastPage }, { token: boris.accessToken });
    const lastItems = last.body.items as { ip: string; userAgent: string; authFlow: string }[];
    expect(lastItems).toHaveLength(all.length - 20 * (lastPage - 1));
    // The oldest known row comes last; anna's row never appears.
    expect(lastItems.at(-1)).toMatchObject({ ip: '198.51.100.0', userAgent: 'agent 0', authFlow: 'simple' });
    const everything = [...items, ...lastItems];
    expect(everything.some((i) => i.ip === '192.0.2.1')).toBe(false);
  });

  it('needs a sign-in and a sensible page', async () => {
    expect((await callMethod(t.app, 'loginHistory', {})).status).toBe(401);
    expect((await callMethod(t.app, 'loginHistory', { page: 0 }, { token: boris.accessToken })).body.responseCode).toBe('VF');
  });
});

describe('ipInfo', () => {
  it('answers the caller’s address and country without a sign-in', async () => {
    const res = await callMethod(t.app, 'ipInfo', {}, { remoteAddress: '8.8.8.8' });
    expect(res.body).toMatchObject({
      responseCode: '00',
      ip: '8.8.8.8',
      country_code: 'US',
      privacy: { vpn: false, proxy: false, tor: false, relay: false, hosting: false, service: false },
      allowed: true,
    });
  });

  it('fails the privacy check for any flag but service', async () => {
    await t.db.insert(ipPrivacyRanges).values([
      { cidr: '203.0.113.0/25', vpn: true, note: 'test vpn' },
      { cidr: '203.0.113.128/25', service: true, note: 'test gateway' },
    ]);
    const vpn = await callMethod(t.app, 'ipInfo', {}, { remoteAddress: '203.0.113.7' });
    expect(vpn.body).toMatchObject({ privacy: { vpn: true }, allowed: false });
    const gateway = await callMethod(t.app, 'ipInfo', {}, { remoteAddress: '203.0.113.200' });
    expect(gateway.body).toMatchObject({ privacy: { vpn: false, service: true }, allowed: true });
  });
});
