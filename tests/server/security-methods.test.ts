/** loginHistory and ipInfo (api/security.ts; document 1 §3 client IP info, §5 privacy check). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { decodeJwt } from 'jose';
import { ipPrivacyRanges, loginHistory, users } from '../../server/db/schema.ts';
import { demoUserByKey } from '../../server/db/demo-users.ts';
import { callMethod, createTestApp, signIn, type SignedIn, type TestApp } from './harness.ts';
import { loadPrivacyRanges, parsePrivacyRanges, PRIVACY_FLAGS } from '../../server/adapters/ip-info.ts';

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
    expect(first.body.pageNumber).toBe(1);
    expect(first.body.pageSize).toBe(20);
    expect(first.body.total).toBe(all.length);
    const items = first.body.items as { date: string; ip: string; result: string }[];
    expect(items).toHaveLength(20);
    const dates = items.map((i) => Date.parse(i.date));
    expect([...dates].sort((a, b) => b - a)).toEqual(dates);
    const lastPage = Math.ceil(all.length / 20);
    const last = await callMethod(t.app, 'loginHistory', { pageNumber: lastPage }, { token: boris.accessToken });
    const lastItems = last.body.items as { ip: string; userAgent: string; authFlow: string }[];
    expect(lastItems).toHaveLength(all.length - 20 * (lastPage - 1));
    // The oldest known row comes last; anna's row never appears.
    expect(lastItems.at(-1)).toMatchObject({ ip: '198.51.100.0', userAgent: 'agent 0', authFlow: 'simple' });
    const everything = [...items, ...lastItems];
    expect(everything.some((i) => i.ip === '192.0.2.1')).toBe(false);
  });

  it('needs a sign-in and a sensible page', async () => {
    expect((await callMethod(t.app, 'loginHistory', {})).status).toBe(401);
    const zero = await callMethod(t.app, 'loginHistory', { pageNumber: 0 }, { token: boris.accessToken });
    expect(zero.body).toMatchObject({ responseCode: 'VF', validationErrors: [{ param: 'pageNumber' }] });
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

  // Document 1 §5: any flag other than service fails the check; each flag on its own.
  it.each(PRIVACY_FLAGS.map((flag, i) => [flag, i] as const))('an address in a %s range is %s', async (flag, i) => {
    const { ranges, errors } = parsePrivacyRanges(`# provider list\n198.18.${i}.0/24,${flag},test ${flag}\n`);
    expect(errors).toEqual([]);
    await loadPrivacyRanges(t.db, ranges, { replace: false });
    const res = await callMethod(t.app, 'ipInfo', {}, { remoteAddress: `198.18.${i}.9` });
    expect(res.body.privacy).toMatchObject({ [flag]: true });
    expect(res.body.allowed).toBe(flag === 'service');
  });

  it('a range flagged service and vpn still fails', async () => {
    await loadPrivacyRanges(t.db, parsePrivacyRanges('198.19.0.0/16,service|vpn').ranges, { replace: false });
    expect((await callMethod(t.app, 'ipInfo', {}, { remoteAddress: '198.19.4.4' })).body.allowed).toBe(false);
  });
});

describe('privacy range lists', () => {
  it('reports every bad line by number and loads nothing from such a list', () => {
    const { errors } = parsePrivacyRanges(['10.0.0.0/8,vpn', '10.0.0.0/33,vpn', 'not-an-ip,tor', '10.1.0.0/16,cloud', '10.2.0.0/16,'].join('\n'));
    expect(errors.map((e) => e.split(':')[0])).toEqual(['line 2', 'line 3', 'line 4', 'line 5']);
  });

  it('reads bare addresses and IPv6 blocks', () => {
    const { ranges, errors } = parsePrivacyRanges('192.0.2.10,proxy\n2001:db8::/32,hosting|relay,lab');
    expect(errors).toEqual([]);
    expect(ranges).toEqual([
      { cidr: '192.0.2.10/32', flags: ['proxy'], note: '' },
      { cidr: '2001:db8::/32', flags: ['hosting', 'relay'], note: 'lab' },
    ]);
  });

  it('replace leaves exactly the new list', async () => {
    await loadPrivacyRanges(t.db, parsePrivacyRanges('100.64.0.0/10,hosting').ranges, { replace: true });
    expect((await callMethod(t.app, 'ipInfo', {}, { remoteAddress: '198.18.0.9' })).body.allowed).toBe(true);
    expect((await callMethod(t.app, 'ipInfo', {}, { remoteAddress: '100.64.1.1' })).body).toMatchObject({ privacy: { hosting: true }, allowed: false });
    expect(await t.db.select().from(ipPrivacyRanges)).toHaveLength(1);
  });
});

