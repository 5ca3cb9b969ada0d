/**
 * The support desk (server/modules/support; api/support.ts; document 3 §3, §4, §7) over HTTP on
 * the real platform: the product server's zoho/* paths with the access token, the remote auth
 * (jwt → POST /me → desk token), the built-in desk's paths with the desk token only, uploads checked
 * as documents, the customer's list with document 3 §4's mapping (SQL filters and the wire's
 * statusId agree), the agents' named methods, and every move ticketMove refuses answered 409 (or
 * VF for an agent) with nothing changed.
 *
 * Proof it can fail (2026-11-28): I dropped the customer from the desk's scope (customerScope kept
 * only the provider) and the read marker from the SQL mapping: the company, the other customer's
 * and the stats cases went red; I dropped customerReply's ticketMove check: the refused-moves case
 * went red (200 where 409 was expected). Restored since.
 */
import { and, count, eq, isNotNull } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_VERSION_PATH } from '../../api/http.ts';
import { DESK_JWT_SECONDS, REOPEN_WINDOW_MS, TICKET_NEW_WINDOW_MS, type Thread, type Ticket } from '../../api/support.ts';
import { NORTHWIND_NAME } from '../../server/db/demo-users.ts';
import { customers, users } from '../../server/modules/customers/customers.tables.ts';
import { notifications } from '../../server/modules/notifications/notifications.tables.ts';
import { auditLog } from '../../server/modules/platform/platform.tables.ts';
import { DESK_RATE_PER_MINUTE } from '../../server/modules/support/support.routes.ts';
import { deleteStaleUploads } from '../../server/modules/support/support.service.ts';
import { supportAttachments, supportThreads, supportTickets } from '../../server/modules/support/support.tables.ts';
import { callMethod, createTestApp, postJson, signIn, type DemoKey, type TestApp } from './harness.ts';

const DAY = 24 * 60 * 60 * 1000;
const PDF = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(300, 0x20), Buffer.from('\n%%EOF\n')]);
const NOT_A_PDF = Buffer.from('MZ this is no document at all');

let t: TestApp;
let clock = Date.now();
const ids = { boris: 0, anna: 0, northwind: 0, adminUser: 0 };

async function customerOf(email: string) {
  const [u] = await t.db.select({ id: users.id, customerId: users.customerId }).from(users).where(eq(users.email, email));
  return u!;
}

const access: Partial<Record<DemoKey, string>> = {};
async function accessOf(who: DemoKey, fresh = false): Promise<string> {
  if (!access[who] || fresh) access[who] = (await signIn(t.app, who, { totpTimeMs: clock })).accessToken;
  return access[who]!;
}

const get = (url: string, token?: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url, headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers } });

async function jwtOf(accessToken: string, fromCustomerId?: number): Promise<LightMyRequestResponse> {
  return get(`${API_VERSION_PATH}/zoho/jwt?widgetId=w1${fromCustomerId ? `&fromCustomerId=${fromCustomerId}` : ''}`, accessToken);
}

async function deskTokenOf(who: DemoKey, fromCustomerId?: number): Promise<string> {
  const jwt = await jwtOf(await accessOf(who), fromCustomerId);
  expect(jwt.statusCode, jwt.body).toBe(200);
  const me = await desk('POST', '/me', undefined, { jwt: jwt.json().jwt });
  expect(me.statusCode, me.body).toBe(200);
  return me.json().token as string;
}

function desk(method: 'GET' | 'POST' | 'PUT', path: string, token: string | undefined, body?: unknown, remoteAddress?: string) {
  return t.app.inject({
    method,
    url: `${API_VERSION_PATH}${path}`,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
    ...(remoteAddress ? { remoteAddress } : {}),
  });
}

function multipart(path: string, token: string, data: Record<string, unknown> | null, files: { field: string; name: string; content: Buffer; mime?: string }[]) {
  const boundary = `----desk${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  if (data) chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="data"\r\n\r\n${JSON.stringify(data)}\r\n`));
  for (const f of files) {
    chunks.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${f.field}"; filename="${f.name}"\r\nContent-Type: ${f.mime ?? 'application/pdf'}\r\n\r\n`),
      f.content,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return t.app.inject({
    method: 'POST',
    url: `${API_VERSION_PATH}${path}`,
    headers: { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload: Buffer.concat(chunks),
  });
}

async function newTicket(token: string, subject: string, uploads: number[] = []): Promise<Ticket> {
  const res = await desk('POST', '/tickets', token, { subject, description: `About ${subject}`, uploads });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Ticket;
}

async function agent(name: string, body: Record<string, unknown>) {
  return callMethod(t.app, name, body, { token: await accessOf('admin') });
}

const conversation = async (token: string, ticketId: number) => (await desk('GET', `/tickets/${ticketId}/conversations`, token)).json().data as Thread[];
const ticketRow = async (id: number) => (await t.db.select().from(supportTickets).where(eq(supportTickets.id, id)))[0]!;
const threadCount = async (id: number) => (await t.db.select({ n: count() }).from(supportThreads).where(eq(supportThreads.ticketId, id)))[0]!.n;
const attachmentCount = async () => (await t.db.select({ n: count() }).from(supportAttachments))[0]!.n;

beforeAll(async () => {
  t = await createTestApp({ transferWorkers: false, now: () => clock });
  ids.boris = (await customerOf('boris@demo.test')).customerId;
  ids.anna = (await customerOf('anna@demo.test')).customerId;
  ids.adminUser = (await customerOf('admin@demo.test')).id;
  const [nw] = await t.db.select({ id: customers.id }).from(customers).where(eq(customers.businessName, NORTHWIND_NAME));
  ids.northwind = nw!.id;
});
afterAll(async () => {
  await t?.close();
});

describe('demo', () => {
  it('anna has a ticket answered by the demo admin (new for her) and a closed one', async () => {
    const anna = await deskTokenOf('anna');
    const list = (await desk('GET', '/tickets', anna)).json().data as Ticket[];
    expect(list.map((x) => [x.subject, x.statusId])).toEqual([
      ['Statement for my landlord', 'new'],
      ['Card delivery address', 'closed'],
    ]);
  });
});

describe('remote auth and the desk token', () => {
  it('exchanges the jwt for a desk token; the desk paths take only the desk token, the product paths never take it', async () => {
    const boris = await accessOf('boris');
    const jwt = await jwtOf(boris);
    expect(jwt.statusCode).toBe(200);
    expect(jwt.json()).toMatchObject({ responseCode: '00', expiresIn: DESK_JWT_SECONDS });
    const claims = JSON.parse(Buffer.from(String(jwt.json().jwt).split('.')[1]!, 'base64url').toString());
    expect(claims).toMatchObject({ customer: ids.boris, aud: 'desk' });

    const me = await desk('POST', '/me', undefined, { jwt: jwt.json().jwt });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ expiresIn: 3600, contact: { name: 'Boris Petrov', email: 'boris@demo.test' } });
    const token = me.json().token as string;

    // the desk token on the desk: yes; the platform's access token or the jwt there: no
    expect((await desk('GET', '/tickets', token)).statusCode).toBe(200);
    const refused = await desk('GET', '/tickets', boris);
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toMatchObject({ errorCode: 'UNAUTHORIZED', responseCode: 'AU' });
    expect((await desk('GET', '/tickets', jwt.json().jwt)).statusCode).toBe(401);
    expect((await desk('GET', '/tickets', undefined)).statusCode).toBe(401);

    // the desk token on the product server and the named methods: no
    expect((await get(`${API_VERSION_PATH}/zoho/tickets`, token)).statusCode).toBe(401);
    expect((await callMethod(t.app, 'getCustomerInfo', {}, { token })).status).toBe(401);

    // a desk token is no jwt, a forged or expired jwt no desk token
    expect((await desk('POST', '/me', undefined, { jwt: token })).statusCode).toBe(401);
    const forged = String(jwt.json().jwt).replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'));
    expect((await desk('POST', '/me', undefined, { jwt: forged })).statusCode).toBe(401);
    const bad = await desk('POST', '/me', undefined, { jwt: '' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ errorCode: 'INVALID_DATA', responseCode: 'VF', validationErrors: [{ param: 'jwt', code: 'required' }] });
    // signing out ends the desk token of that sign-in
    const signedIn = await signIn(t.app, 'boris', { totpTimeMs: clock });
    const second = await desk('POST', '/me', undefined, { jwt: (await jwtOf(signedIn.accessToken)).json().jwt });
    expect((await desk('GET', '/tickets', second.json().token)).statusCode).toBe(200);
    expect((await postJson(t.app, '/auth/logout', { refreshToken: signedIn.refreshToken }, { token: signedIn.accessToken })).statusCode).toBeLessThan(300);
    expect((await desk('GET', '/tickets', second.json().token)).statusCode).toBe(401);
    expect((await desk('GET', '/tickets', token)).statusCode).toBe(200);

    const unused = (await jwtOf(boris)).json().jwt as string;
    clock += (DESK_JWT_SECONDS + 1) * 1000;
    expect((await desk('POST', '/me', undefined, { jwt: unused })).statusCode).toBe(401);
  });

  it('exchanges a jwt once: a second exchange within its life, even at the same moment, answers 401 AU', async () => {
    const jwt = (await jwtOf(await accessOf('boris', true))).json().jwt as string;
    const first = await desk('POST', '/me', undefined, { jwt });
    expect(first.statusCode, first.body).toBe(200);
    const again = await desk('POST', '/me', undefined, { jwt });
    expect(again.statusCode).toBe(401);
    expect(again.json()).toMatchObject({ errorCode: 'UNAUTHORIZED', responseCode: 'AU' });
    // the desk token it gave still works
    expect((await desk('GET', '/tickets', first.json().token)).statusCode).toBe(200);

    // two exchanges of one jwt at once: one desk token
    const twice = (await jwtOf(await accessOf('boris'))).json().jwt as string;
    const both = await Promise.all([desk('POST', '/me', undefined, { jwt: twice }), desk('POST', '/me', undefined, { jwt: twice })]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 401]);
  });

  it('a company only with access to it: fromCustomerId checked, any right opens tickets', async () => {
    const refused = await jwtOf(await accessOf('boris'), ids.northwind);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ responseCode: 'ENOA' });
    expect((await get(`${API_VERSION_PATH}/zoho/tickets?fromCustomerId=${ids.northwind}`, await accessOf('boris'))).statusCode).toBe(403);

    const clerk = await deskTokenOf('clerk', ids.northwind);
    const ticket = await newTicket(clerk, 'Company statement');
    expect(ticket.customerId).toBe(ids.northwind);
    // the viewer (read only) asks for help too, and sees the company's tickets
    const viewer = await deskTokenOf('viewer', ids.northwind);
    await newTicket(viewer, 'Viewer question');
    const owner = await accessOf('owner');
    const list = await get(`${API_VERSION_PATH}/zoho/tickets?fromCustomerId=${ids.northwind}`, owner);
    expect(list.statusCode).toBe(200);
    expect((list.json().tickets as Ticket[]).map((x) => x.subject)).toEqual(['Viewer question', 'Company statement']);
    // the clerk's own tickets are not the company's
    expect((await get(`${API_VERSION_PATH}/zoho/tickets`, await accessOf('clerk'))).json().count).toBe(0);
    // the Customer-Id header names the company as well
    expect((await get(`${API_VERSION_PATH}/zoho/tickets`, owner, { 'customer-id': String(ids.northwind) })).json().count).toBe(2);
  });
});

describe('tickets of a customer', () => {
  let boris: string;
  beforeAll(async () => {
    boris = await deskTokenOf('boris');
  });

  it('creates a ticket with an uploaded attachment and with a composed file; a refused file writes nothing', async () => {
    const up = await multipart('/uploads', boris, null, [{ field: 'file', name: 'inv<o>ice.pdf', content: PDF }]);
    expect(up.statusCode, up.body).toBe(200);
    expect(up.json()).toMatchObject({ name: 'inv_o_ice.pdf', size: PDF.length, contentType: 'application/pdf', status: 'uploaded' });
    const ticket = await newTicket(boris, 'Card blocked', [up.json().id]);
    expect(ticket).toMatchObject({ state: 'new', status: 'Open', statusId: 'open', threadCount: 1 });
    expect(ticket.ticketNumber).toMatch(/^\d{6,}$/);
    expect(ticket.ticketNumber).not.toBe(String(ticket.id));
    const [first] = await conversation(boris, ticket.id);
    expect(first).toMatchObject({ author: { kind: 'customer', name: 'Boris Petrov' }, content: 'About Card blocked', attachments: [{ id: up.json().id }] });
    const file = await desk('GET', `/tickets/${ticket.id}/threads/${first!.id}/attachments/${up.json().id}/content`, boris);
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.equals(PDF)).toBe(true);
    expect(file.headers['content-disposition']).toMatch(/^attachment;/);
    expect(file.headers['x-content-type-options']).toBe('nosniff');
    // an upload is attached once
    const again = await desk('POST', '/tickets', boris, { subject: 'Again', description: 'x', uploads: [up.json().id] });
    expect(again.statusCode).toBe(400);
    expect(again.json().validationErrors).toEqual([expect.objectContaining({ param: 'uploads', code: 'invalid' })]);

    const composed = await multipart('/composetickets', boris, { subject: 'Composed', description: 'With a file' }, [{ field: 'file', name: 'scan.pdf', content: PDF }]);
    expect(composed.statusCode, composed.body).toBe(200);
    const [thread] = await conversation(boris, composed.json().id);
    expect(thread!.attachments).toHaveLength(1);

    const before = { files: await attachmentCount(), tickets: (await t.db.select({ n: count() }).from(supportTickets))[0]!.n };
    const refused = await multipart('/uploads', boris, null, [{ field: 'file', name: 'x.pdf', content: NOT_A_PDF }]);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ responseCode: 'VF', validationErrors: [{ param: 'file', code: 'fileWrongType' }] });
    const refusedCompose = await multipart('/composetickets', boris, { subject: 'Bad', description: 'Bad file' }, [
      { field: 'file', name: 'ok.pdf', content: PDF },
      { field: 'file2', name: 'x.pdf', content: NOT_A_PDF },
    ]);
    expect(refusedCompose.statusCode).toBe(400);
    expect(refusedCompose.json().validationErrors).toEqual([expect.objectContaining({ param: 'file2', code: 'fileWrongType' })]);
    expect(await attachmentCount()).toBe(before.files);
    expect((await t.db.select({ n: count() }).from(supportTickets))[0]!.n).toBe(before.tickets);
  });

  it('lists newest update first, pages and filters; another customer reads none of them', async () => {
    const a = await newTicket(boris, 'List A');
    const b = await newTicket(boris, 'List B');
    const page1 = await desk('GET', '/tickets?from=1&limit=2', boris);
    expect(page1.json().count).toBeGreaterThanOrEqual(4);
    expect((page1.json().data as Ticket[]).map((x) => x.id)).toEqual([b.id, a.id]);
    const page2 = await desk('GET', '/tickets?from=3&limit=2', boris);
    expect((page2.json().data as Ticket[]).map((x) => x.id)).not.toContain(a.id);
    expect((await desk('GET', '/tickets?filter=new', boris)).json().count).toBe(0);
    expect((await desk('GET', '/tickets?filter=open', boris)).json().count).toBe(page1.json().count);
    const bad = await desk('GET', '/tickets?limit=21&filter=x', boris);
    expect(bad.statusCode).toBe(400);
    expect((bad.json().validationErrors as { param: string }[]).map((e) => e.param).sort()).toEqual(['filter', 'limit']);

    const anna = await deskTokenOf('anna');
    const other = await desk('GET', `/tickets/${a.id}`, anna);
    expect(other.statusCode).toBe(404);
    expect(other.json()).toMatchObject({ errorCode: 'NOT_FOUND', responseCode: 'ENOA' });
    expect((await desk('GET', `/tickets/${a.id}/conversations`, anna)).statusCode).toBe(404);
    expect((await desk('POST', `/tickets/${a.id}/threads`, anna, { content: 'hi' })).statusCode).toBe(404);
    expect((await desk('PUT', `/tickets/${a.id}`, anna, { action: 'close' })).statusCode).toBe(404);
    expect((await ticketRow(a.id)).state).toBe('new');
    expect(((await desk('GET', '/tickets', anna)).json().data as Ticket[]).some((x) => x.id === a.id)).toBe(false);
  });
});

describe('agents and the conversation', () => {
  it("queue, assign, reply (a notification), internal note (not the customer's), read marker and stats", async () => {
    const boris = await deskTokenOf('boris');
    const ticket = await newTicket(boris, 'Transfer missing');

    const queue = await agent('supportDeskQueue', { states: ['new'] });
    expect(queue.body.responseCode).toBe('00');
    const listed = (queue.body.tickets as { id: number; customerName: string }[]).find((x) => x.id === ticket.id);
    expect(listed).toMatchObject({ customerName: 'Boris Petrov' });
    expect((queue.body.counts as Record<string, number>).new).toBeGreaterThanOrEqual(1);

    // not an agent
    expect((await callMethod(t.app, 'supportDeskQueue', {}, { token: await accessOf('boris') })).body.responseCode).toBe('13');

    const assigned = await agent('supportDeskAssign', { ticketId: ticket.id });
    expect(assigned.body.ticket).toMatchObject({ state: 'open', assignedAgent: { userId: ids.adminUser, name: 'Ada Admin' } });
    expect((await agent('supportDeskQueue', { assignedToMe: true })).body.tickets).toEqual(expect.arrayContaining([expect.objectContaining({ id: ticket.id })]));

    const note = await agent('supportDeskReply', { ticketId: ticket.id, content: 'Looks like a rail delay', internal: true });
    expect(note.body).toMatchObject({ responseCode: '00', ticket: { state: 'open' }, thread: { visibility: 'internal' } });
    const reply = await agent('supportDeskReply', { ticketId: ticket.id, content: 'It arrives tomorrow' });
    expect(reply.body).toMatchObject({ ticket: { state: 'waitingOnCustomer' }, thread: { visibility: 'public', author: { kind: 'agent', name: 'Ada Admin' } } });
    const [notice] = await t.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.customerId, ids.boris), eq(notifications.type, 'ticketReply')));
    expect(notice?.params).toMatchObject({
      ticketNumber: ticket.ticketNumber,
      subject: 'Transfer missing',
      target: JSON.stringify({ kind: 'ticket', ticketNumber: ticket.ticketNumber }),
    });
    const audits = await t.db.select().from(auditLog).where(eq(auditLog.method, 'supportDeskReply'));
    expect(audits.length).toBeGreaterThanOrEqual(2);

    // the customer: two public threads, the agent by first name, no note
    const threads = await conversation(boris, ticket.id);
    expect(threads.map((x) => x.content)).toEqual(['It arrives tomorrow', 'About Transfer missing']);
    expect(threads[0]!.author).toEqual({ kind: 'agent', name: 'Ada' });
    expect((await desk('GET', `/tickets/${ticket.id}/threads/${note.body.thread && (note.body.thread as Thread).id}`, boris)).statusCode).toBe(404);
    expect((await desk('GET', `/tickets/${ticket.id}/conversations?limit=1`, boris)).json().data).toHaveLength(1);
    const agentView = await agent('supportDeskTicket', { ticketId: ticket.id });
    expect((agentView.body.threads as Thread[]).map((x) => x.visibility)).toEqual(['public', 'internal', 'public']);
    const agentName = await get(`${API_VERSION_PATH}/zoho/agent`, await accessOf('boris'));
    expect(agentName.json()).toMatchObject({ responseCode: '00', agent: { name: 'Ada' } });

    // new for the customer until read
    const shown = (await desk('GET', `/tickets/${ticket.id}`, boris)).json() as Ticket;
    expect(shown).toMatchObject({ statusId: 'new', status: 'On Hold', lastThread: { to: 'customer' }, cf: { customerReadAt: null } });
    let stats = (await get(`${API_VERSION_PATH}/zoho/tickets/stats`, await accessOf('boris'))).json().stats;
    expect(stats.unreadTicketNumbers).toEqual([ticket.ticketNumber]);
    expect(((await desk('GET', '/tickets?filter=new', boris)).json().data as Ticket[]).map((x) => x.id)).toEqual([ticket.id]);
    const read = await desk('PUT', `/tickets/${ticket.id}`, boris, { action: 'read' });
    expect(read.json()).toMatchObject({ statusId: 'open', cf: { customerReadAt: new Date(clock).toISOString() } });
    stats = (await get(`${API_VERSION_PATH}/zoho/tickets/stats`, await accessOf('boris'))).json().stats;
    expect(stats.unreadTicketNumbers).toEqual([]);
    expect(stats.new).toBe(0);

    // the customer answers: waiting on the agent
    clock += 1000;
    const answer = await desk('POST', `/tickets/${ticket.id}/threads`, boris, { content: 'Thanks' });
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toMatchObject({ author: { kind: 'customer' }, content: 'Thanks' });
    expect((await ticketRow(ticket.id)).state).toBe('waitingOnAgent');

    // closeNoReply only while waiting on the customer: refused, nothing changed
    const refused = await agent('supportDeskClose', { ticketId: ticket.id, noReply: true });
    expect(refused.body).toMatchObject({ responseCode: 'VF', validationErrors: [{ param: 'ticket', code: 'requestNotActive' }] });
    expect((await ticketRow(ticket.id)).state).toBe('waitingOnAgent');
    const closed = await agent('supportDeskClose', { ticketId: ticket.id });
    expect(closed.body.ticket).toMatchObject({ state: 'closed', status: 'Closed', statusId: 'closed' });
    expect(
      (
        await t.db
          .select()
          .from(notifications)
          .where(and(eq(notifications.customerId, ids.boris), eq(notifications.type, 'ticketClosed')))
      ).length,
    ).toBe(1);
  });

  it('refuses every move the state does not allow (409 / VF) and changes nothing', async () => {
    const boris = await deskTokenOf('boris');
    const ticket = await newTicket(boris, 'Moves');
    // new: an agent cannot close it as no reply; the customer cannot reopen it
    expect((await agent('supportDeskClose', { ticketId: ticket.id, noReply: true })).body.responseCode).toBe('VF');
    const reopenOpen = await desk('PUT', `/tickets/${ticket.id}`, boris, { action: 'reopen', content: 'again' });
    expect(reopenOpen.statusCode).toBe(409);
    expect(reopenOpen.json()).toMatchObject({ errorCode: 'TICKET_STATE' });
    // closed by the customer: no reply, no second close, no agent reply, note or assignment
    expect((await desk('PUT', `/tickets/${ticket.id}`, boris, { action: 'close' })).json()).toMatchObject({ state: 'closed' });
    const before = { row: await ticketRow(ticket.id), threads: await threadCount(ticket.id) };
    expect((await desk('POST', `/tickets/${ticket.id}/threads`, boris, { content: 'late' })).statusCode).toBe(409);
    expect((await desk('PUT', `/tickets/${ticket.id}`, boris, { action: 'close' })).statusCode).toBe(409);
    for (const [name, body] of [
      ['supportDeskReply', { content: 'x' }],
      ['supportDeskReply', { content: 'x', internal: true }],
      ['supportDeskAssign', {}],
      ['supportDeskClose', {}],
      ['supportDeskClose', { noReply: true }],
    ] as const) {
      const res = await agent(name, { ticketId: ticket.id, ...body });
      expect(res.body, name).toMatchObject({ responseCode: 'VF', validationErrors: [{ param: 'ticket', code: 'requestNotActive' }] });
    }
    expect(await ticketRow(ticket.id)).toEqual(before.row);
    expect(await threadCount(ticket.id)).toBe(before.threads);

    // reopened with a message within the window: waiting on the agent
    clock += 1000;
    const reopened = await desk('PUT', `/tickets/${ticket.id}`, boris, { action: 'reopen', content: 'Still broken' });
    expect(reopened.statusCode, reopened.body).toBe(200);
    expect(reopened.json()).toMatchObject({ state: 'waitingOnAgent', closedAt: null, threadCount: 2 });
    // an unknown ticket and a bad id
    expect((await desk('GET', '/tickets/999999', boris)).statusCode).toBe(404);
    expect((await desk('GET', '/tickets/abc', boris)).statusCode).toBe(404);
    expect((await agent('supportDeskTicket', { ticketId: 999999 })).body.responseCode).toBe('ENOA');
  });
});

describe('time', () => {
  it('closed without reply counts as new for two weeks; a closed ticket reopens within the window only', async () => {
    const boris = await deskTokenOf('boris');
    const stale = (await multipart('/uploads', boris, null, [{ field: 'file', name: 'never-sent.pdf', content: PDF }])).json().id as number;
    const quiet = await newTicket(boris, 'Quiet customer');
    const closedLong = await newTicket(boris, 'Closed long ago');
    await agent('supportDeskReply', { ticketId: quiet.id, content: 'Is it solved?' });
    await desk('PUT', `/tickets/${quiet.id}`, boris, { action: 'read' });
    const closed = await agent('supportDeskClose', { ticketId: quiet.id, noReply: true });
    expect(closed.body.ticket).toMatchObject({ state: 'closedNoReply', status: 'closed-no-reply', statusId: 'new' });
    expect((await desk('PUT', `/tickets/${closedLong.id}`, boris, { action: 'close' })).statusCode).toBe(200);

    clock += TICKET_NEW_WINDOW_MS - 60_000;
    access.boris = undefined;
    let token = await deskTokenOf('boris');
    expect((await desk('GET', `/tickets/${quiet.id}`, token)).json().statusId).toBe('new');
    expect(((await desk('GET', '/tickets?filter=new', token)).json().data as Ticket[]).map((x) => x.id)).toContain(quiet.id);

    clock += 2 * 60_000;
    access.boris = undefined;
    token = await deskTokenOf('boris');
    expect((await desk('GET', `/tickets/${quiet.id}`, token)).json().statusId).toBe('closed');
    expect(((await desk('GET', '/tickets?filter=closed', token)).json().data as Ticket[]).map((x) => x.id)).toEqual(expect.arrayContaining([quiet.id, closedLong.id]));
    expect((await get(`${API_VERSION_PATH}/zoho/tickets/stats`, await accessOf('boris', true))).json().stats.unreadTicketNumbers).not.toContain(quiet.ticketNumber);

    // past the reopening window: 409, nothing changed
    clock += REOPEN_WINDOW_MS;
    access.boris = undefined;
    token = await deskTokenOf('boris');
    const before = await ticketRow(closedLong.id);
    const late = await desk('PUT', `/tickets/${closedLong.id}`, token, { action: 'reopen', content: 'Back again' });
    expect(late.statusCode).toBe(409);
    expect(await ticketRow(closedLong.id)).toEqual(before);
    access.admin = undefined;

    // an upload never attached is deleted by the sweeper; attached ones stay
    const attached = (await t.db.select({ n: count() }).from(supportAttachments).where(isNotNull(supportAttachments.threadId)))[0]!.n;
    expect(await deleteStaleUploads(t.db, clock)).toBeGreaterThanOrEqual(1);
    expect(await t.db.select().from(supportAttachments).where(eq(supportAttachments.id, stale))).toEqual([]);
    expect(await attachmentCount()).toBe(attached);
  });

  it('rate limits the desk per address with 429 TA1', async () => {
    access.boris = undefined;
    const token = await deskTokenOf('boris');
    let last: LightMyRequestResponse | undefined;
    for (let i = 0; i <= DESK_RATE_PER_MINUTE; i++) last = await desk('GET', '/tickets/1', token, undefined, '10.9.8.7');
    expect(last!.statusCode).toBe(429);
    expect(last!.json()).toMatchObject({ errorCode: 'TOO_MANY_REQUESTS', responseCode: 'TA1' });
  });
});
