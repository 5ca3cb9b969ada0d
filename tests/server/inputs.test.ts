/**
 * Issue 11, finding 9: the bounds every request gets, generated over the whole method registry.
 *
 * - every id is a positive 32-bit integer: 2^31 in any id field (fromCustomerId, *Id, id, *Ids
 *   items, at any depth) answers VF naming that field, never UE or HTTP 500; the same for the
 *   Customer-Id header and the REST path ids;
 * - text refuses control characters: a NUL in any string field answers VF naming the field.
 */
import { vf } from '../../api/errors.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { methods } from '../../api/registry.ts';
import type { MethodDef } from '../../api/method.ts';
import { MAX_ID } from '../../api/method.ts';
import { CUSTOMER_ID_HEADER } from '../../api/http.ts';
import { controlCharacterIssues, InputCheckMessages, MAX_BODY_DEPTH, MULTILINE_FIELDS } from '../../api/input-checks.ts';
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENT_METHODS } from '../../api/transfers.ts';
import { documentFileRoute, adminDocumentFileRoute } from '../../api/documents.ts';
import { callMethod, createTestApp, signIn, type SignedIn, type TestApp } from './harness.ts';
import { API_VERSION_PATH } from '../../api/http.ts';

const TOO_LARGE_ID = 2 ** 31;

type Schema = v.GenericSchema & { type: string; wrapped?: Schema; item?: Schema; entries?: Record<string, Schema>; options?: Schema[]; pipe?: { type: string }[] };

/** A leaf of a request schema: its path (keys and array positions) and its schema. */
interface Leaf {
  path: (string | number)[];
  schema: Schema;
}

/** Every leaf of an object schema (optional and nullable unwrapped, arrays entered at item 0). */
function leaves(schema: Schema, path: (string | number)[] = []): Leaf[] {
  if (schema.wrapped) return leaves(schema.wrapped, path);
  if (schema.type === 'object' && schema.entries) {
    return Object.entries(schema.entries).flatMap(([key, entry]) => leaves(entry, [...path, key]));
  }
  if (schema.type === 'array' && schema.item) return leaves(schema.item, [...path, 0]);
  return [{ path, schema }];
}

const isId = (leaf: Leaf) => {
  const key = [...leaf.path].reverse().find((p) => typeof p === 'string') as string;
  return leaf.schema.type === 'number' && /(^id$|Id$|Ids$|^ids$|^trxid$|Account$)/.test(key);
};
const isText = (leaf: Leaf) => leaf.schema.type === 'string';

/** A body holding `value` at the path and nothing else. */
function bodyAt(path: (string | number)[], value: unknown): Record<string, unknown> {
  let node: unknown = value;
  for (let i = path.length - 1; i >= 0; i--) {
    const key = path[i]!;
    node = typeof key === 'number' ? [node] : { [key]: node };
  }
  return node as Record<string, unknown>;
}

const allMethods = Object.values(methods) as MethodDef[];

let t: TestApp;
let anna: SignedIn;
let admin: SignedIn;

// every method x every bad input is more requests than a client address may send a minute (the rate limit has tests of its own)
beforeAll(async () => {
  t = await createTestApp({ globalRateLimitPerMinute: false });
  [anna, admin] = await Promise.all([signIn(t.app, 'anna'), signIn(t.app, 'admin')]);
});
afterAll(async () => {
  await t?.close();
});

function tokenFor(def: MethodDef): string | undefined {
  if (def.access === 'public') return undefined;
  return def.access === 'admin' ? admin.accessToken : anna.accessToken;
}

function headersFor(def: MethodDef): Record<string, string> {
  return IDEMPOTENT_METHODS.has(def.name) ? { [IDEMPOTENCY_KEY_HEADER]: `inputs-${def.name}-${Math.random().toString(36).slice(2)}` } : {};
}

const idCases = allMethods.flatMap((def) =>
  leaves(def.request as Schema)
    .filter(isId)
    .map((leaf) => ({ method: def.name, def, leaf, param: leaf.path.join('.') })),
);
const textCases = allMethods.flatMap((def) =>
  leaves(def.request as Schema)
    .filter(isText)
    .map((leaf) => ({ method: def.name, def, leaf, param: leaf.path.join('.') })),
);

describe('ids are positive 32-bit integers', () => {
  it('finds the id fields of every method (fromCustomerId on each, and the methods own ids)', () => {
    expect(idCases.filter((c) => c.param === 'fromCustomerId')).toHaveLength(allMethods.length);
    expect(idCases.length).toBeGreaterThan(allMethods.length + 30);
  });

  it.each(idCases.map((c) => [`${c.method} ${c.param}`, c] as const))('%s: 2^31 answers VF naming the field', async (_label, c) => {
    const res = await callMethod(t.app, c.method, bodyAt(c.leaf.path, TOO_LARGE_ID), { token: tokenFor(c.def), headers: headersFor(c.def) });
    expect(res.status).toBe(200);
    expect(res.body.responseCode).toBe('VF');
    expect((res.body.validationErrors as { param: string }[]).map((e) => e.param)).toContain(c.param);
  });

  it('MAX_ID itself is an id: fromCustomerId 2^31 - 1 passes validation (no such customer: ENOA)', async () => {
    const res = await callMethod(t.app, 'getCustomerInfo', { fromCustomerId: MAX_ID }, { token: anna.accessToken });
    expect(res.body.responseCode).toBe('ENOA');
  });

  it('the Customer-Id header past 2^31 - 1 answers VF naming it', async () => {
    const res = await callMethod(t.app, 'getCustomerInfo', {}, { token: anna.accessToken, headers: { [CUSTOMER_ID_HEADER]: String(TOO_LARGE_ID) } });
    expect(res.body.responseCode).toBe('VF');
    expect(res.body.validationErrors).toEqual([vf(CUSTOMER_ID_HEADER, InputCheckMessages.customerIdHeader)]);
  });

  it('REST path ids past 2^31 - 1 answer 404 and headers 403, never 500', async () => {
    const auth = { authorization: `Bearer ${anna.accessToken}` };
    const adminAuth = { authorization: `Bearer ${admin.accessToken}` };
    const big = String(TOO_LARGE_ID);
    const cases = [
      { url: documentFileRoute.replace(':documentId', big), headers: auth, status: 404 },
      { url: adminDocumentFileRoute.replace(':documentId', big), headers: adminAuth, status: 404 },
      { url: `/api/v1/statements/${big}/2026/1`, headers: auth, status: 404 },
      { url: `/auth/devices/${big}`, headers: auth, status: 404 },
      { url: documentFileRoute.replace(':documentId', '1'), headers: { ...auth, [CUSTOMER_ID_HEADER]: big }, status: 403 },
      { url: `/api/v1/statements/1/2026/1`, headers: { ...auth, [CUSTOMER_ID_HEADER]: big }, status: 403 },
    ];
    for (const c of cases) {
      const res = await t.app.inject({ method: 'GET', url: c.url, headers: c.headers });
      expect({ url: c.url, status: res.statusCode }).toEqual({ url: c.url, status: c.status });
    }
    const verify = await t.app.inject({ method: 'POST', url: `/api/v1/verification/phones/${big}/verify`, headers: auth, payload: {} });
    expect(verify.statusCode).toBe(404);
    const job = await t.app.inject({ method: 'POST', url: `/api/v1/customers/${big}/identity-verification`, headers: auth, payload: {} });
    expect(job.statusCode).toBe(403);
  });
});

describe('text refuses control characters', () => {
  it('finds the text fields of the methods', () => {
    expect(textCases.length).toBeGreaterThan(40);
  });

  it.each(textCases.map((c) => [`${c.method} ${c.param}`, c] as const))('%s: a NUL answers VF naming the field', async (_label, c) => {
    const res = await callMethod(t.app, c.method, bodyAt(c.leaf.path, 'a\u0000b'), { token: tokenFor(c.def), headers: headersFor(c.def) });
    expect(res.status).toBe(200);
    expect(res.body.responseCode).toBe('VF');
    expect((res.body.validationErrors as { param: string }[]).map((e) => e.param)).toContain(c.param);
  });

  it('tab, LF and CR are allowed in multi-line fields only; DEL and the other C0 controls nowhere', () => {
    const note = [...MULTILINE_FIELDS][0]!;
    expect(controlCharacterIssues({ [note]: 'line one\r\n\tline two' })).toEqual([]);
    expect(controlCharacterIssues({ name: 'line one\nline two' })).toHaveLength(1);
    expect(controlCharacterIssues({ [note]: 'bell\u0007' })).toHaveLength(1);
    expect(controlCharacterIssues({ [note]: 'del\u007f' })).toHaveLength(1);
    expect(controlCharacterIssues({ list: [{ city: 'ok' }, { city: 'x\u001b[31m' }] }).map((i) => v.getDotPath(i))).toEqual(['list.1.city']);
    expect(controlCharacterIssues({ name: 'Škoda – ünïcode ok' })).toEqual([]);
  });

  it('a body nested deeper than MAX_BODY_DEPTH answers VF at the depth it stops, not an unknown error (the walk keeps its own stack)', async () => {
    const deep = '{"a":['.repeat(20_000) + '1' + ']}'.repeat(20_000);
    const issues = controlCharacterIssues(JSON.parse(deep));
    expect(issues).toHaveLength(1);
    expect(v.getDotPath(issues[0]!)!.split('.')).toHaveLength(MAX_BODY_DEPTH);
    expect(controlCharacterIssues(JSON.parse('{"a":['.repeat(MAX_BODY_DEPTH / 2 - 1) + '"ok"' + ']}'.repeat(MAX_BODY_DEPTH / 2 - 1)))).toEqual([]);
    // A refused body is walked raw (every bad field at once): sent as text, since serialising such
    // an object would itself run out of stack.
    const res = await t.app.inject({ method: 'POST', url: `${API_VERSION_PATH}/?checkEmail`, headers: { 'content-type': 'application/json' }, payload: `{"email":"not an e-mail","extra":${deep}}` });
    expect(res.statusCode).toBe(200);
    expect(res.json().responseCode).toBe('VF');
    expect((res.json().validationErrors as { param: string }[]).map((e) => e.param)).toContain('email');
  });
});
