/** The development mailbox: off unless asked for; shows the outbox escaped, filterable, without script. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueueMail, enqueueSms } from '../../server/adapters/outbox.ts';
import { outbox } from '../../server/modules/platform/platform.tables.ts';
import { createTestApp, type TestApp } from './harness.ts';

let off: TestApp;
let on: TestApp;

beforeAll(async () => {
  [off, on] = await Promise.all([createTestApp({ distDir: null }), createTestApp({ devMailbox: true, distDir: null })]);
  await on.db.transaction(async (tx) => {
    // the demo seed's own mail (its contracts' and tickets' notices) is not this test's
    await tx.delete(outbox);
    await enqueueMail(tx, { to: 'anna@demo.test', subject: 'Your code <script>alert(1)</script>', text: 'Code: 482913' });
    await enqueueMail(tx, { to: 'boris@demo.test', subject: 'Welcome', text: 'Hello Boris & co' });
    await enqueueSms(tx, { to: '+37060000012', text: 'SMS code 112233' });
  });
});
afterAll(async () => {
  await Promise.all([off?.close(), on?.close()]);
});

describe('the development mailbox', () => {
  it('does not exist unless the platform is started with it', async () => {
    expect((await off.app.inject({ method: 'GET', url: '/dev/mailbox.json' })).statusCode).toBe(404);
    const page = await off.app.inject({ method: 'GET', url: '/dev/mailbox' });
    expect(page.body).not.toContain('Development mailbox');
  });

  it('lists mail and SMS newest first, and filters by recipient and channel', async () => {
    const all = (await on.app.inject({ method: 'GET', url: '/dev/mailbox.json' })).json().messages as { recipient: string; body: string }[];
    expect(all.map((m) => m.recipient)).toEqual(['+37060000012', 'boris@demo.test', 'anna@demo.test']);
    const anna = (await on.app.inject({ method: 'GET', url: '/dev/mailbox.json?to=ANNA@demo.test' })).json().messages;
    expect(anna).toHaveLength(1);
    expect(anna[0].body).toBe('Code: 482913');
    const sms = (await on.app.inject({ method: 'GET', url: '/dev/mailbox.json?channel=sms' })).json().messages;
    expect(sms.map((m: { body: string }) => m.body)).toEqual(['SMS code 112233']);
    expect((await on.app.inject({ method: 'GET', url: '/dev/mailbox.json?channel=fax' })).statusCode).toBe(400);
  });

  it('renders the page escaped, with no script, under the Content-Security-Policy', async () => {
    const page = await on.app.inject({ method: 'GET', url: '/dev/mailbox' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.body).toContain('Your code &lt;script&gt;alert(1)&lt;/script&gt;');
    expect(page.body).toContain('Hello Boris &amp; co');
    expect(page.body).not.toMatch(/<script/i);
    expect(page.body).toContain('<label for="to">Recipient</label>');
  });
});
