/**
 * The support desk's client and pages with fakes (document 3 §4, §7; api/support.ts):
 * - the desk client against a fake fetch: the zoho/jwt token is exchanged once at POST /me and
 *   the desk token reused; a 401 from the desk authenticates again once and replays (a second 401
 *   is an answer, not a loop); a business user's fromCustomerId on the zoho call; the 429 failure
 *   flag stops every request here until, after the support timer's tick, one succeeds;
 * - /messages (MessagesView) over the same fake: the filters send their query, new tickets are
 *   marked unread, a 429 shows "Support is busy" and the page tries again by itself after the tick;
 *   opening a new ticket marks it read (PUT {action: read});
 * - the agents' desk (AdminDeskView) over a fake named-method transport: the queue's tabs with
 *   their counts, a ticket's internal note marked, an internal note sent as one; a ticket's
 *   threads shown oldest first though the method answers newest first, so the agent's own reply
 *   is not announced as a new message from the customer.
 *
 * Proof it can fail (2026-11-28): I made the client forget to keep the desk token (no
 * `this.tokens.set`): "reuses the desk token" went red (two jwt calls, two /me); and I let a
 * flagged request through before the tick (`< SUPPORT_TIMER_MS` as `< 0`): the flag's test went
 * red (a fetch went out while flagged). Restored since. Without the desk's oldestFirst (queries.ts
 * deskTicketQuery) the threads' order went red, and, that check left out, so did the announcement
 * ("New message from Anna Demo" after the agent's own reply).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nProvider } from '@lingui/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { AgentTicket, Thread, Ticket } from '../../api/support.ts';
import { DeskClient, type DeskEnv } from '../../src/features/support/desk-client.ts';
import { MessagesView } from '../../src/features/support/messages-view.tsx';
import { AdminDeskView } from '../../src/features/support/admin-desk-view.tsx';
import { i18n } from '../../src/lib/i18n.ts';
import { configureRequest, setFetchForTests } from '../../src/lib/request.ts';
import { methodBody } from './method-body.ts';

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

interface Call {
  method: string;
  url: URL;
  auth: string | null;
  body: unknown;
}

/** A fake product server and desk: `answer` decides each reply; every call is recorded. */
function fakeDesk(answer: (call: Call, n: { jwt: number; me: number }) => Response | undefined, opts: { acting?: number | null; now?: () => number } = {}) {
  const calls: Call[] = [];
  const n = { jwt: 0, me: 0 };
  let clock = 1_000_000;
  const env: DeskEnv = {
    fetch: async (input, init) => {
      const url = new URL(input, 'https://bank.example');
      const call: Call = {
        method: init.method ?? 'GET',
        url,
        auth: new Headers(init.headers).get('Authorization'),
        body: typeof init.body === 'string' ? JSON.parse(init.body) : init.body,
      };
      calls.push(call);
      const own = answer(call, n);
      if (own) return own;
      if (url.pathname === '/api/v1/zoho/jwt') return json({ responseCode: '00', jwt: `jwt-${++n.jwt}`, expiresIn: 120 });
      if (url.pathname === '/api/v1/me') return json({ token: `desk-${++n.me}`, expiresIn: 3600, contact: { id: 1, name: 'Anna Demo', email: null } });
      return json({ errorCode: 'NOT_FOUND', message: 'Not found', responseCode: 'ENOA' }, 404);
    },
    now: opts.now ?? (() => clock),
    hooks: () => ({ getAccessToken: () => 'session-token', refresh: async () => false, getActingCustomerId: () => opts.acting ?? null }),
    origin: () => '',
    deskBase: () => '/api/v1',
  };
  return { client: new DeskClient(env), calls, n, tick: (ms: number) => (clock += ms) };
}

const ticket = (id: number, over: Partial<Ticket> = {}): Ticket => ({
  id,
  ticketNumber: String(1000 + id),
  subject: `Question ${id}`,
  status: 'Open',
  statusId: 'open',
  state: 'waitingOnAgent',
  createdAt: '2026-11-27T09:00:00.000Z',
  updatedAt: '2026-11-27T10:00:00.000Z',
  closedAt: null,
  lastThread: { createdAt: '2026-11-27T10:00:00.000Z', to: 'agent' },
  cf: { customerReadAt: null },
  customerId: 10,
  threadCount: 1,
  ...over,
});

const thread = (id: number, over: Partial<Thread> = {}): Thread => ({
  id,
  ticketId: 1,
  author: { kind: 'customer', name: 'Anna Demo' },
  visibility: 'public',
  content: `Message ${id}`,
  createdAt: `2026-11-27T0${id}:00:00.000Z`,
  attachments: [],
  ...over,
});

afterEach(() => {
  setFetchForTests(null);
});

describe('the desk client', () => {
  it('exchanges the jwt once at POST /me and reuses the desk token as Bearer', async () => {
    const desk = fakeDesk((call) => (call.url.pathname === '/api/v1/tickets' ? json({ data: [], count: 0 }) : undefined));
    const list = () => desk.client.desk({ method: 'GET', path: '/tickets', query: { from: 1, limit: 20 } });
    expect((await list()).ok).toBe(true);
    expect((await list()).ok).toBe(true);
    expect(desk.n).toEqual({ jwt: 1, me: 1 });
    const jwtCall = desk.calls.find((c) => c.url.pathname === '/api/v1/zoho/jwt')!;
    expect(jwtCall.auth).toBe('Bearer session-token');
    expect(jwtCall.url.searchParams.get('widgetId')).toBe('web');
    expect(jwtCall.url.searchParams.has('fromCustomerId')).toBe(false);
    expect(desk.calls.find((c) => c.url.pathname === '/api/v1/me')!.body).toEqual({ jwt: 'jwt-1' });
    const ticketCalls = desk.calls.filter((c) => c.url.pathname === '/api/v1/tickets');
    expect(ticketCalls.map((c) => c.auth)).toEqual(['Bearer desk-1', 'Bearer desk-1']);
  });

  it('asks for the company’s jwt with fromCustomerId when acting for it', async () => {
    const desk = fakeDesk((call) => (call.url.pathname === '/api/v1/tickets' ? json({ data: [], count: 0 }) : undefined), { acting: 42 });
    await desk.client.desk({ method: 'GET', path: '/tickets' });
    expect(desk.calls[0]!.url.searchParams.get('fromCustomerId')).toBe('42');
  });

  it('authenticates again once on a 401 from the desk and replays; a second 401 is the answer', async () => {
    let refusals = 1;
    const desk = fakeDesk((call) => {
      if (call.url.pathname !== '/api/v1/tickets') return undefined;
      if (refusals-- > 0) return json({ errorCode: 'UNAUTHORIZED', message: 'expired', responseCode: 'AU' }, 401);
      return json({ data: [], count: 0 });
    });
    expect((await desk.client.desk({ method: 'GET', path: '/tickets' })).ok).toBe(true);
    expect(desk.n).toEqual({ jwt: 2, me: 2 });
    expect(desk.calls.filter((c) => c.url.pathname === '/api/v1/tickets').map((c) => c.auth)).toEqual(['Bearer desk-1', 'Bearer desk-2']);

    refusals = 5;
    const again = await desk.client.desk({ method: 'GET', path: '/tickets' });
    expect(again).toMatchObject({ ok: false, code: 'auth', status: 401 });
    // one re-authentication, not a loop
    expect(desk.n).toEqual({ jwt: 3, me: 3 });
  });

  it('stops every request after a 429 until one succeeds; one probe goes out after the support timer’s tick', async () => {
    let limited = true;
    const desk = fakeDesk((call) => {
      if (call.url.pathname !== '/api/v1/tickets') return undefined;
      return limited ? json({ errorCode: 'TOO_MANY_REQUESTS', message: 'slow down', responseCode: 'TA1' }, 429) : json({ data: [], count: 0 });
    });
    const list = () => desk.client.desk({ method: 'GET', path: '/tickets' });
    expect(await list()).toMatchObject({ ok: false, code: 'rateLimited', status: 429 });
    expect(desk.client.rateLimited).toBe(true);
    const sent = desk.calls.length;
    // within the tick: stopped here, nothing reaches the network
    expect(await list()).toMatchObject({ ok: false, code: 'rateLimited', status: null });
    expect(await desk.client.product('/api/v1/zoho/tickets/stats', {} as never)).toMatchObject({ ok: false, code: 'rateLimited' });
    expect(desk.calls.length).toBe(sent);
    // after the tick one probe goes out: still 429, the flag stays (and the tick starts again)
    desk.tick(1000);
    expect(await list()).toMatchObject({ ok: false, code: 'rateLimited', status: 429 });
    expect(desk.calls.length).toBe(sent + 1);
    expect(await list()).toMatchObject({ ok: false, status: null });
    expect(desk.calls.length).toBe(sent + 1);
    // the next probe succeeds: the flag is cleared and requests go out again
    limited = false;
    desk.tick(1000);
    expect((await list()).ok).toBe(true);
    expect(desk.client.rateLimited).toBe(false);
    expect((await list()).ok).toBe(true);
    expect(desk.calls.length).toBe(sent + 3);
  });
});

function showMessages(client: DeskClient, ticketNumber: string | null = null, onOpen: (n: string | null) => void = () => undefined) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <I18nProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <MessagesView actingCustomerId={null} ticketNumber={ticketNumber} onOpen={onOpen} client={client} />
      </QueryClientProvider>
    </I18nProvider>,
  );
}

const TICKETS = [
  ticket(1, { statusId: 'new', subject: 'Card blocked', state: 'waitingOnCustomer' }),
  ticket(2, { subject: 'Fees question' }),
  ticket(3, { statusId: 'closed', state: 'closed', closedAt: '2026-11-27T11:00:00.000Z', subject: 'Old one' }),
];

describe('/messages', () => {
  it('lists the tickets with their status, marks the new ones unread, and each filter asks the desk for its tickets', async () => {
    const desk = fakeDesk((call) => {
      if (call.url.pathname === '/api/v1/zoho/agent') return json({ responseCode: '00', agent: { name: 'Sam Agent' }, supportEmail: 'help@bank.example' });
      if (call.url.pathname === '/api/v1/zoho/tickets/stats') return json({ responseCode: '00', stats: { unreadTicketNumbers: ['1001'], open: 1, new: 1, closed: 1 } });
      if (call.url.pathname !== '/api/v1/tickets') return undefined;
      const filter = call.url.searchParams.get('filter');
      const data = filter === 'new' ? TICKETS.filter((x) => x.statusId === 'new') : TICKETS;
      return json({ data, count: data.length });
    });
    const user = userEvent.setup();
    showMessages(desk.client);
    const list = await screen.findByRole('list', { name: 'Tickets' });
    const rows = within(list).getAllByRole('button');
    expect(rows).toHaveLength(3);
    expect(rows[0]!.textContent).toContain('Unread:');
    expect(rows[0]!.getAttribute('data-unread')).toBe('true');
    expect(rows[0]!.textContent).toContain('#1001');
    expect(rows[0]!.textContent).toContain('New');
    expect(rows[1]!.getAttribute('data-unread')).toBe('false');
    expect(rows[1]!.textContent).not.toContain('Unread:');
    expect(rows[2]!.textContent).toContain('Closed');
    expect(await screen.findByRole('link', { name: 'help@bank.example' })).toBeTruthy();
    expect(await screen.findByText('1 unread')).toBeTruthy();
    const query = (c: Call) => Object.fromEntries(c.url.searchParams);
    expect(query(desk.calls.filter((c) => c.url.pathname === '/api/v1/tickets').at(-1)!)).toEqual({ from: '1', limit: '20', filter: 'all' });

    await user.click(screen.getByRole('tab', { name: 'New' }));
    await waitFor(() => expect(within(screen.getByRole('list', { name: 'Tickets' })).getAllByRole('button')).toHaveLength(1));
    expect(query(desk.calls.filter((c) => c.url.pathname === '/api/v1/tickets').at(-1)!)).toEqual({ from: '1', limit: '20', filter: 'new' });
    await user.click(screen.getByRole('tab', { name: 'Closed' }));
    await waitFor(() => expect(query(desk.calls.filter((c) => c.url.pathname === '/api/v1/tickets').at(-1)!)).toEqual({ from: '1', limit: '20', filter: 'closed' }));
  });

  it('after a 429 says support is busy and tries again by itself after the tick', async () => {
    let limited = true;
    const desk = fakeDesk(
      (call) => {
        if (call.url.pathname !== '/api/v1/tickets') return undefined;
        return limited ? json({ errorCode: 'TOO_MANY_REQUESTS', message: 'slow down', responseCode: 'TA1' }, 429) : json({ data: TICKETS, count: 3 });
      },
      { now: () => Date.now() },
    );
    showMessages(desk.client);
    expect(await screen.findByText('Support is busy')).toBeTruthy();
    limited = false;
    const list = await screen.findByRole('list', { name: 'Tickets' }, { timeout: 4000 });
    expect(within(list).getAllByRole('button')).toHaveLength(3);
    expect(desk.client.rateLimited).toBe(false);
  });

  it('says support is not available when the desk cannot be reached, and tries again on request', async () => {
    let down = true;
    const desk = fakeDesk((call) => {
      if (call.url.pathname !== '/api/v1/tickets') return undefined;
      return down ? json({ errorCode: 'INTERNAL', message: 'Unknown error', responseCode: 'UE' }, 503) : json({ data: [], count: 0 });
    });
    const user = userEvent.setup();
    showMessages(desk.client);
    expect(await screen.findByText('Support is not available right now')).toBeTruthy();
    down = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('No tickets yet')).toBeTruthy();
  });

  it('opens the ticket of ?ticketNumber with its conversation and marks a new one read', async () => {
    const desk = fakeDesk((call) => {
      const p = call.url.pathname;
      if (p === '/api/v1/tickets') return json({ data: TICKETS, count: 3 });
      if (p === '/api/v1/tickets/1' && call.method === 'GET') return json(TICKETS[0]);
      if (p === '/api/v1/tickets/1' && call.method === 'PUT') return json({ ...TICKETS[0], statusId: 'open' });
      if (p === '/api/v1/tickets/1/conversations') return json({ data: [thread(2, { author: { kind: 'agent', name: 'Sam Agent' } }), thread(1)] });
      return undefined;
    });
    showMessages(desk.client, '1001');
    const conversation = await screen.findByRole('list', { name: 'Conversation' });
    const headings = within(conversation)
      .getAllByRole('heading')
      .map((h) => h.textContent);
    // oldest first; the customer's own messages are "You"
    expect(headings).toEqual(['You', 'Sam Agent']);
    await waitFor(() => expect(desk.calls.some((c) => c.method === 'PUT' && c.url.pathname === '/api/v1/tickets/1')).toBe(true));
    expect(desk.calls.find((c) => c.method === 'PUT')!.body).toEqual({ action: 'read' });
    expect(desk.calls.find((c) => c.url.pathname === '/api/v1/tickets/1/conversations')!.url.searchParams.get('limit')).toBe('100');
  });
});

/* ------------------------------------------------------------------ the agents' desk */

const agentTicket = (over: Partial<AgentTicket> = {}): AgentTicket => ({ ...ticket(5, { state: 'waitingOnAgent' }), customerName: 'Anna Demo', assignedAgent: null, ...over });

describe('the agents’ desk', () => {
  it('shows the queue by state with counts, a ticket’s internal notes marked, and sends an internal note', async () => {
    const asked: { name: string; body: Record<string, unknown> }[] = [];
    configureRequest({ getAccessToken: () => 'admin-token', refresh: async () => false, getActingCustomerId: () => null });
    setFetchForTests(async (input, init) => {
      const name = String(input).split('?').pop()!;
      const body = methodBody(name, init);
      asked.push({ name, body });
      if (name === 'supportDeskQueue')
        return json({ responseCode: '00', tickets: [agentTicket()], count: 1, counts: { new: 2, open: 1, waitingOnAgent: 1, waitingOnCustomer: 0, closed: 3, closedNoReply: 1 } });
      if (name === 'supportDeskTicket')
        return json({
          responseCode: '00',
          ticket: agentTicket(),
          threads: [thread(1), thread(2, { author: { kind: 'agent', name: 'Sam Agent' }, visibility: 'internal', content: 'Check the logs' })],
        });
      if (name === 'supportDeskReply')
        return json({ responseCode: '00', ticket: agentTicket(), thread: thread(3, { author: { kind: 'agent', name: 'Sam Agent' }, visibility: 'internal' }) });
      return json({ responseCode: 'IM', responseDescription: 'unknown' });
    });
    const user = userEvent.setup();
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    let opened: number | null = null;
    const view = (ticketId: number | null) => (
      <I18nProvider i18n={i18n}>
        <QueryClientProvider client={queryClient}>
          <AdminDeskView tab="waitingOnAgent" ticketId={ticketId} onTab={() => undefined} onOpen={(id) => (opened = id)} />
        </QueryClientProvider>
      </I18nProvider>
    );
    const { rerender } = render(view(null));
    expect(await screen.findByRole('tab', { name: 'New (2)' })).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'Closed (4)' })).toBeTruthy();
    expect(asked[0]).toEqual({ name: 'supportDeskQueue', body: { states: ['waitingOnAgent'], assignedToMe: false, page: 1 } });
    await user.click(screen.getByRole('switch', { name: 'Assigned to me' }));
    await waitFor(() => expect(asked.at(-1)).toEqual({ name: 'supportDeskQueue', body: { states: ['waitingOnAgent'], assignedToMe: true, page: 1 } }));
    await user.click(await screen.findByRole('button', { name: 'Question 5' }));
    expect(opened).toBe(5);

    rerender(view(5));
    const conversation = await screen.findByRole('list', { name: 'Conversation' });
    const note = within(conversation).getAllByRole('article')[1]!;
    expect(within(note).getByText('Internal note')).toBeTruthy();
    expect(note.textContent).toContain('Check the logs');
    await user.click(screen.getByRole('switch', { name: /Internal note/ }));
    await user.type(screen.getByLabelText('Note'), 'Asked the card team');
    await user.click(screen.getByRole('button', { name: 'Add the note' }));
    await waitFor(() => expect(asked.some((a) => a.name === 'supportDeskReply')).toBe(true));
    expect(asked.find((a) => a.name === 'supportDeskReply')!.body).toEqual({ ticketId: 5, content: 'Asked the card team', internal: true });
    await act(async () => undefined);
  });

  it('shows a ticket’s threads oldest first, as the method answers them newest first, and does not announce the agent’s own reply as the customer’s', async () => {
    // the platform's supportDeskTicket answers newest first (support.service.ts threadsOf)
    let threads = [thread(2, { author: { kind: 'agent', name: 'Sam Agent' }, visibility: 'internal', content: 'Check the logs' }), thread(1)];
    configureRequest({ getAccessToken: () => 'admin-token', refresh: async () => false, getActingCustomerId: () => null });
    setFetchForTests(async (input, init) => {
      const name = String(input).split('?').pop()!;
      methodBody(name, init);
      if (name === 'supportDeskTicket') return json({ responseCode: '00', ticket: agentTicket(), threads });
      if (name === 'supportDeskReply') {
        const reply = thread(3, { author: { kind: 'agent', name: 'Sam Agent' }, content: 'Here is the answer' });
        threads = [reply, ...threads];
        return json({ responseCode: '00', ticket: agentTicket({ state: 'waitingOnCustomer' }), thread: reply });
      }
      return json({ responseCode: 'IM', responseDescription: 'unknown' });
    });
    const user = userEvent.setup();
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <I18nProvider i18n={i18n}>
        <QueryClientProvider client={queryClient}>
          <AdminDeskView tab="waitingOnAgent" ticketId={5} onTab={() => undefined} onOpen={() => undefined} />
        </QueryClientProvider>
      </I18nProvider>,
    );
    const conversation = await screen.findByRole('list', { name: 'Conversation' });
    const texts = () =>
      within(conversation)
        .getAllByRole('article')
        .map((a) => a.querySelector('.support-thread-text')?.textContent);
    expect(texts()).toEqual(['Message 1', 'Check the logs']);

    await user.type(screen.getByLabelText('Your message'), 'Here is the answer');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(texts()).toEqual(['Message 1', 'Check the logs', 'Here is the answer']));
    // the live region announces the other side's new messages only: nothing for the agent's own
    expect(within(screen.getAllByRole('status').find((s) => s.getAttribute('aria-live') === 'polite')!).queryByText(/New message from/)).toBeNull();
  });
});
