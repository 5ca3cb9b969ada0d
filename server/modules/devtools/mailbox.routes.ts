/**
 * The development mailbox: the outbox (mail and SMS) as a page of its own, so one-time codes and
 * activation links can be read without a real mail server or SMS provider.
 *
 * It shows message bodies, which hold one-time codes: it exists in demo mode (on by default there,
 * DEV_MAILBOX=false turns it off) and in NODE_ENV=development with DEV_MAILBOX=true, never with real
 * data otherwise (server/modules/platform/demo-mode.ts); the platform logs a warning at start when it is on. Plain server-rendered HTML without script (the
 * Content-Security-Policy allows none inline), escaped; `GET /dev/mailbox.json` gives the same rows
 * to tests and tools.
 */
import { and, desc, eq, type SQL } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import * as v from 'valibot';
import type { Db } from '../../db/types.ts';
import { outbox } from '../platform/platform.tables.ts';

export const MAILBOX_PAGE_SIZE = 100;

const QuerySchema = v.object({
  to: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(254))),
  channel: v.optional(v.picklist(['mail', 'sms'])),
});

const html = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

async function latest(db: Db, query: v.InferOutput<typeof QuerySchema>) {
  const filters: SQL[] = [];
  if (query.to) filters.push(eq(outbox.recipient, query.to.toLowerCase()));
  if (query.channel) filters.push(eq(outbox.channel, query.channel));
  return db
    .select({
      id: outbox.id,
      channel: outbox.channel,
      recipient: outbox.recipient,
      subject: outbox.subject,
      body: outbox.body,
      status: outbox.status,
      createdAt: outbox.createdAt,
    })
    .from(outbox)
    .where(filters.length ? and(...filters) : undefined)
    .orderBy(desc(outbox.id))
    .limit(MAILBOX_PAGE_SIZE);
}

export async function mailboxRoutes(app: FastifyInstance, { db }: { db: Db }): Promise<void> {
  app.get('/dev/mailbox.json', async (request, reply) => {
    const query = v.safeParse(QuerySchema, request.query);
    if (!query.success) return reply.code(400).send({ message: 'to must be an address, channel mail or sms' });
    return { messages: await latest(db, query.output) };
  });

  app.get('/dev/mailbox', async (request, reply) => {
    const query = v.safeParse(QuerySchema, request.query);
    const rows = query.success ? await latest(db, query.output) : [];
    const items = rows
      .map(
        (m) => `<li><article aria-labelledby="m${m.id}">
  <h2 id="m${m.id}">${html(m.subject ?? (m.channel === 'sms' ? 'SMS' : '(no subject)'))}</h2>
  <p>${m.channel === 'sms' ? 'SMS' : 'E-mail'} to <strong>${html(m.recipient)}</strong> · ${html(m.createdAt.toISOString())} · ${html(m.status)}</p>
  <pre>${html(m.body)}</pre>
</article></li>`,
      )
      .join('\n');
    reply.type('text/html; charset=utf-8');
    return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Development mailbox</title></head>
<body><main>
<h1>Development mailbox</h1>
<p>The newest ${MAILBOX_PAGE_SIZE} messages of the outbox (mail and SMS), newest first. Development only.</p>
<form method="get" action="/dev/mailbox"><label for="to">Recipient</label> <input id="to" name="to" type="text" value="${html(query.success ? (query.output.to ?? '') : '')}"> <button type="submit">Filter</button></form>
${rows.length ? `<ol>${items}</ol>` : '<p>No messages.</p>'}
</main></body></html>`;
  });
}
