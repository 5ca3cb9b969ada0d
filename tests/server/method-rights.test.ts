/**
 * The rights table (api/rights.ts), generated over the whole registry: every method, called acting
 * for Northwind Trading by every kind of caller (no token, each access right 0-5 and no row at all,
 * the caller's own customer, an administrator), is refused exactly when the table says so, and a
 * refused call never reaches its handler. One app whose handlers only record that they ran (so
 * allowed calls change nothing), one seeded database; a second app with the real handlers shows
 * that a read-only viewer's preapprovedCancel and addCurrency change nothing.
 */
import { and, eq } from 'drizzle-orm';
import { decodeJwt } from 'jose';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CUSTOMER_ID_HEADER } from '../../api/http.ts';
import type { MethodDef } from '../../api/method.ts';
import { methods, type MethodName } from '../../api/registry.ts';
import { methodRights, rightAllows, RightsMessages, type ActingAccess } from '../../api/rights.ts';
import { buildApp } from '../../server/app.ts';
import { NORTHWIND_NAME } from '../../server/db/demo-users.ts';
import { accounts } from '../../server/modules/accounts/accounts.tables.ts';
import { customerAccess, customers } from '../../server/modules/customers/customers.tables.ts';
import type { MethodHandler } from '../../server/modules/method-types.ts';
import { transferSchedules } from '../../server/modules/transfers/transfers.tables.ts';
import { callMethod, createTestApp, signIn, type TestApp } from './harness.ts';

const names = Object.keys(methods) as MethodName[];
const ran: string[] = [];
const recording = Object.fromEntries(
  names.map((name) => [
    name,
    (async () => {
      ran.push(name);
      return {};
    }) as MethodHandler<MethodDef>,
  ]),
);

let t: TestApp;
let real: FastifyInstance;
let northwindId: number;
let boris: { token: string; userId: number; customerId: number };
let adminToken: string;
let viewerToken: string;
const rightsDescriptions: readonly string[] = Object.values(RightsMessages);

beforeAll(async () => {
  // No global rate limit: the test sends every method at every level from one address (well over 1200 a minute).
  t = await createTestApp({ handlerOverrides: recording, validateResponses: false, transferWorkers: false, globalRateLimitPerMinute: false });
  real = await buildApp({ db: t.db, publisher: t.publisher, logger: false, transferWorkers: false, distDir: null });
  await real.ready();
  const [nw] = await t.db.select().from(customers).where(eq(customers.businessName, NORTHWIND_NAME));
  northwindId = nw!.id;
  const [b, admin, viewer] = await Promise.all([signIn(t.app, 'boris'), signIn(t.app, 'admin'), signIn(t.app, 'viewer')]);
  const claims = decodeJwt(b.accessToken);
  boris = { token: b.accessToken, userId: Number(claims.sub), customerId: claims.cid as number };
  adminToken = admin.accessToken;
  viewerToken = viewer.accessToken;
});
afterAll(async () => {
  await real?.close();
  await t?.close();
});

type Answer = { code: string; description: string; handlerRan: boolean };

async function call(name: MethodName, token: string | undefined, customerId: number | undefined, via: 'header' | 'body' = 'header'): Promise<Answer> {
  ran.length = 0;
  const res = await callMethod(t.app, name, via === 'body' && customerId !== undefined ? { fromCustomerId: customerId } : {}, {
    ...(token ? { token } : {}),
    ...(via === 'header' && customerId !== undefined ? { headers: { [CUSTOMER_ID_HEADER]: String(customerId) } } : {}),
  });
  return { code: res.body.responseCode, description: String(res.body.responseDescription ?? ''), handlerRan: ran.includes(name) };
}

/** A refusal by the rights check: its code, before the handler. */
function expectRefused(a: Answer, code: 'ENOA' | '13', label: string) {
  expect(a.code, label).toBe(code);
  expect(a.handlerRan, label).toBe(false);
}

/** Not refused for rights: the handler ran, or the empty body failed validation. */
function expectAllowed(a: Answer, label: string) {
  expect(rightsDescriptions, label).not.toContain(a.description);
  expect(['00', 'VF'], label).toContain(a.code);
  if (a.code === '00') expect(a.handlerRan, label).toBe(true);
}

describe('the rights table', () => {
  it('names a right for every method, public and admin exactly where the contract says', () => {
    for (const name of names) {
      const def: MethodDef = methods[name];
      expect(methodRights[name] === 'public', name).toBe(def.access === 'public');
      expect(methodRights[name] === 'admin', name).toBe(def.access === 'admin');
    }
  });

  it('without a token: public methods answer, every other one is 401 AU before its handler', async () => {
    for (const name of names) {
      const a = await call(name, undefined, undefined);
      if (methodRights[name] === 'public') expectAllowed(a, name);
      else expect([a.code, a.handlerRan], name).toEqual(['AU', false]);
    }
  });

  // A plain user (boris) with each access right to Northwind, then no row at all.
  for (const rights of [0, 1, 2, 3, 4, 5, null] as const) {
    it(`acting for the company with access right ${rights ?? 'none (no row)'}: refused exactly as the table says`, async () => {
      await t.db.delete(customerAccess).where(and(eq(customerAccess.userId, boris.userId), eq(customerAccess.customerId, northwindId)));
      if (rights !== null) {
        await t.db.insert(customerAccess).values({ userId: boris.userId, customerId: northwindId, accessRights: rights, positionIds: [], permissions: {} });
      }
      const access: ActingAccess = { kind: 'user', rights: rights ?? 0 };
      for (const via of rights === 1 ? (['header', 'body'] as const) : (['header'] as const)) {
        for (const name of names) {
          const a = await call(name, boris.token, northwindId, via);
          const label = `${name} with right ${rights} (${via})`;
          if (methodRights[name] === 'admin') expectRefused(a, '13', label); // not an administrator
          else {
            const verdict = rightAllows(methodRights[name], access);
            if (verdict === 'allowed') expectAllowed(a, label);
            else expectRefused(a, verdict, label);
          }
        }
      }
    });
  }

  it('acting for the caller’s own customer needs no right', async () => {
    for (const name of names) {
      const a = await call(name, boris.token, boris.customerId);
      if (methodRights[name] === 'admin') expectRefused(a, '13', name);
      else expectAllowed(a, name);
    }
  });

  it('an administrator acting for the company: everything but money', async () => {
    for (const name of names) {
      const a = await call(name, adminToken, northwindId);
      if (methodRights[name] === 'money') expectRefused(a, '13', name);
      else expectAllowed(a, name);
    }
  });
});

describe('a read-only viewer (right 1) of Northwind, with the real handlers', () => {
  it('cannot cancel the company’s recurring payment or open a company account: 13, nothing changed', async () => {
    const nwAccounts = await t.db.select().from(accounts).where(eq(accounts.customerId, northwindId));
    const from = nwAccounts.find((a) => a.currency === 'EUR')!;
    // a monthly payment from the company to boris
    const [to] = await t.db.select().from(accounts).where(eq(accounts.customerId, boris.customerId));
    const [schedule] = await t.db
      .insert(transferSchedules)
      .values({
        kind: 'betweenAccounts',
        customerId: northwindId,
        userId: boris.userId,
        fromAccountId: from.accountId,
        toAccountId: to!.accountId,
        request: { toAmount: '5.00', currency: 'EUR' },
        frequency: 'monthly',
        endDate: '2027-12-31',
        transactionsTotal: 12,
        transactionsDone: 1,
        userCancel: true,
        status: 'active',
        nextRunAt: new Date(Date.UTC(2027, 2, 1)),
      })
      .returning();
    const as = (name: string, body: Record<string, unknown>) =>
      real.inject({ method: 'POST', url: `/api/v1/?${name}`, payload: { ...body, fromCustomerId: northwindId }, headers: { authorization: `Bearer ${viewerToken}` } });

    const cancel = await as('preapprovedCancel', { id: schedule!.id });
    expect(cancel.json()).toMatchObject({ responseCode: '13', responseDescription: RightsMessages.readOnly });
    const [after] = await t.db.select().from(transferSchedules).where(eq(transferSchedules.id, schedule!.id));
    expect(after!.status).toBe('active');

    const currency = nwAccounts.some((a) => a.currency === 'CHF') ? 'JPY' : 'CHF';
    const open = await as('addCurrency', { currencyCode: currency });
    expect(open.json()).toMatchObject({ responseCode: '13', responseDescription: RightsMessages.readOnly });
    expect(await t.db.select().from(accounts).where(and(eq(accounts.customerId, northwindId), eq(accounts.currency, currency)))).toHaveLength(0);

    // ...while reading the company's payments still works.
    expect((await as('preapprovedList', {})).json().responseCode).toBe('00');
  });
});
