/**
 * Support (issue 19 item 5's e2e): a customer opens a ticket with an attachment, an agent answers
 * it from the administrator's desk, and the customer is told and reads the answer. Anna opens
 * /messages, writes a new ticket with a small PNG (given to the file field as a buffer), sends it
 * and sees it listed and open with her file; the administrator, in a browser context of his own,
 * finds it in /admin-support's queue, opens it, downloads the attachment (the same bytes), writes
 * an internal note and then a reply to the customer (the conversation reads oldest first). Anna,
 * meanwhile on /home, gets the reply's toast (its 10 s) and its Open button leads to the ticket's
 * conversation, where she reads the reply (not the note); the notification is read (the bell's
 * count as before) and the ticket list, read afresh, no longer marks the ticket unread. axe
 * (WCAG 2.2 AA) on every step; E2E_SHOTS=<dir> also saves each step at 390 and 1366 pixels wide.
 *
 * The toast comes over the push connection (GraphQL over WebSocket at /graphql), which the app
 * opens after sign-in and again after each full page load, and which says nothing on screen when
 * it is up. A reply published before the subscription is registered would reach nobody, so the
 * agent replies only once anna's page has sent its subscription on the socket that is open now
 * (watchPush: the browser's own WebSocket frames, looked at from outside the app).
 */
import type { Browser, Page } from '@playwright/test';
import { expect, test } from './support/test.ts';
import { demoUserByKey } from '../server/db/demo-users.ts';
import { signInAdministrator, signInWithAuthenticator } from './models/login-page.ts';
import { MainLayout } from './models/main-layout.ts';
import { latestMessage } from './support/mailbox.ts';
import { step } from './support/step.ts';

const anna = demoUserByKey.anna;
const run = Date.now().toString(36);
const subject = `Card payment receipt ${run}`;
const question = `The receipt of a card payment is attached (${run}). Why was it charged twice?`;
const note = `Checked the card log: one charge is a hold (${run}).`;
const reply = `Hello Anna, the second line is a hold that will drop off within a few days (${run}).`;

/** A real 1×1 PNG (one opaque pixel): what a customer attaches. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

/**
 * Whether an address opens the ticket: ?ticketNumber=N as the toast's target writes it, or as the
 * router writes a string search value that looks like a number (JSON: "N", to read back a string).
 */
function namesTicket(url: URL, ticketNumber: string): boolean {
  const value = url.searchParams.get('ticketNumber');
  return value === ticketNumber || value === JSON.stringify(ticketNumber);
}

/** Whether the page's push socket now open has sent its subscription (set again for every socket the page opens). */
function watchPush(page: Page): () => boolean {
  let subscribed = false;
  page.on('websocket', (socket) => {
    if (new URL(socket.url()).pathname !== '/graphql') return;
    subscribed = false;
    socket.on('framesent', (frame) => {
      if (typeof frame.payload === 'string' && (JSON.parse(frame.payload) as { type?: string }).type === 'subscribe') subscribed = true;
    });
    socket.on('close', () => (subscribed = false));
  });
  return () => subscribed;
}

/**
 * Anna signs in (the next step's code when another journey on this platform used this step's) and
 * reads the app in English: the sign-in journey, which may have run first on this platform, leaves
 * her saved language Spanish, and the app applies the saved language after sign-in (once per
 * session: src/app/session-controls.tsx useSavedLanguage), so once it has, she switches back.
 */
async function signInAnna(page: Page): Promise<void> {
  await signInWithAuthenticator(page, anna, async () => /\/home$/.test(page.url()));
  await expect(page).toHaveURL(/\/home$/);
  await expect.poll(() => page.evaluate(() => sessionStorage.getItem('savedLanguageApplied')), { message: 'the saved language applied' }).not.toBeNull();
  const saved = await page.evaluate(() => (JSON.parse(sessionStorage.getItem('wlb.session') ?? '{}') as { customer?: { language?: string } }).customer?.language ?? 'en');
  if (saved !== 'en') {
    await expect(page.locator('html')).toHaveAttribute('lang', saved === 'ua' ? 'uk' : saved);
    await new MainLayout(page).switchLanguage('English');
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  }
  await expect(page.getByRole('heading', { level: 1, name: 'Welcome, Anna Kowalska' })).toBeVisible();
}

async function openAgentPage(browser: Browser, baseURL: string): Promise<Page> {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  await signInAdministrator(page);
  return page;
}

test('a customer opens a ticket with an attachment, an agent replies, the customer is told and reads the reply', async ({ page, browser, baseURL, request }) => {
  test.setTimeout(240_000);
  const pushSubscribed = watchPush(page);
  await signInAnna(page);

  // /messages: her tickets (the demo's among them), none selected yet
  const nav = page.getByRole('navigation', { name: 'Main' });
  await nav.getByRole('link', { name: 'Messages' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Messages' })).toBeVisible();
  const tickets = page.getByRole('list', { name: 'Tickets' });
  await expect(tickets.getByRole('button', { name: /Statement for my landlord/ })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Choose a ticket' })).toBeVisible();
  await step(page, 'support-messages');

  // a new ticket: subject, message and a PNG
  await page.getByRole('button', { name: 'New ticket' }).click();
  const form = page.getByRole('form', { name: 'New ticket' });
  await expect(form.getByRole('heading', { level: 2, name: 'New ticket' })).toBeVisible();
  await form.getByLabel('Subject').fill(subject);
  await form.getByLabel('Your message').fill(question);
  await form.getByLabel('Attach files').setInputFiles({ name: 'receipt.png', mimeType: 'image/png', buffer: PNG });
  const files = form.getByRole('list', { name: 'Attached files' });
  await expect(files.getByRole('listitem')).toHaveCount(1);
  await expect(files.getByRole('listitem')).toContainText('receipt.png');
  await step(page, 'support-new-ticket');
  await form.getByRole('button', { name: 'Send' }).click();

  // sent: its conversation opens (the address names its number) and the list shows it open, read
  const conversation = page.getByRole('region', { name: subject });
  const numbered = conversation.getByText(/^Ticket \d{8}$/);
  await expect(numbered).toBeVisible();
  const ticketNumber = (await numbered.innerText()).slice('Ticket '.length);
  await expect(page).toHaveURL((url) => url.pathname === '/messages' && namesTicket(url, ticketNumber));
  // the ticket's state on the desk: new until an agent takes or answers it
  await expect(conversation.getByText('New', { exact: true })).toBeVisible();
  const threads = conversation.getByRole('list', { name: 'Conversation' });
  const mine = threads.getByRole('article', { name: 'You' });
  await expect(mine).toContainText(question);
  await expect(mine.getByRole('button', { name: 'Download receipt.png' })).toBeVisible();
  const listed = tickets.getByRole('button', { name: new RegExp(subject) });
  await expect(listed).toContainText(`#${ticketNumber}`);
  await expect(listed).toContainText('Open');
  await expect(listed).not.toContainText('Unread:');
  await step(page, 'support-ticket-sent');

  // anna goes on to /home (in the app: its push socket stays); the bell shows her unread count
  await nav.getByRole('link', { name: 'Home' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Welcome, Anna Kowalska' })).toBeVisible();
  const bellCount = page.getByTestId('bell-count');
  // her unread notifications (the demo's among them): the count is there once the bell has read it
  await expect(bellCount).toHaveText(/^\d+$/);
  const unreadBefore = Number(await bellCount.innerText());
  await expect.poll(pushSubscribed, { message: "anna's page has subscribed to its push events" }).toBe(true);

  // the administrator's desk: the new ticket in the queue
  const agent = await openAgentPage(browser, baseURL!);
  await agent.goto('/admin-support');
  await expect(agent.getByRole('heading', { level: 1, name: 'Support desk' })).toBeVisible();
  await expect(agent.getByRole('tab', { name: /^New \(\d+\)$/ })).toHaveAttribute('aria-selected', 'true');
  const row = agent.getByRole('row').filter({ has: agent.getByRole('button', { name: subject }) });
  await expect(row).toContainText(`#${ticketNumber}`);
  await expect(row).toContainText('Anna Kowalska');
  await expect(row).toContainText('Nobody');
  await step(agent, 'support-desk-queue');
  await row.getByRole('button', { name: subject }).click();

  // the ticket: anna's message with her file, the same bytes she sent
  await expect(agent).toHaveURL(/\/admin-support\?.*ticketId=\d+/);
  const deskConversation = agent.getByRole('region', { name: subject });
  await expect(agent.getByText('Customer: Anna Kowalska')).toBeVisible();
  const annasMessage = deskConversation.getByRole('article', { name: 'Anna Kowalska' });
  await expect(annasMessage).toContainText(question);
  const downloading = agent.waitForEvent('download');
  await annasMessage.getByRole('button', { name: 'Download receipt.png' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('receipt.png');
  const saved = await download.createReadStream();
  const chunks: Buffer[] = [];
  for await (const chunk of saved) chunks.push(chunk as Buffer);
  expect(Buffer.concat(chunks).equals(PNG), 'the attachment the agent downloads is the file anna sent').toBe(true);
  await step(agent, 'support-desk-ticket');

  // an internal note (for the agents only), then the reply to the customer
  const internal = agent.getByRole('switch', { name: 'Internal note (not shown to the customer)' });
  await internal.check();
  await agent.getByLabel('Note', { exact: true }).fill(note);
  await agent.getByRole('button', { name: 'Add the note' }).click();
  const noteThread = deskConversation.getByRole('listitem').filter({ hasText: note });
  await expect(noteThread.getByText('Internal note', { exact: true })).toBeVisible();
  // the draft is cleared, the next message a reply again
  await expect(internal).not.toBeChecked();
  await agent.getByLabel('Your message').fill(reply);
  await step(agent, 'support-desk-replying');
  await agent.getByRole('button', { name: 'Send' }).click();
  const replyThread = deskConversation.getByRole('listitem').filter({ hasText: reply });
  await expect(replyThread).toBeVisible();
  await expect(replyThread.getByText('Internal note', { exact: true })).toHaveCount(0);
  await expect(deskConversation.getByText('Waiting for the customer', { exact: true })).toBeVisible();
  // the conversation reads oldest first, as the customer's does
  await expect(deskConversation.getByRole('list', { name: 'Conversation' }).getByRole('article')).toContainText([question, note, reply]);

  // anna, on /home: the toast names the reply's ticket; she presses Open while it is shown (its
  // 10 s: the checks that take longer come after)
  const toast = page.getByRole('region', { name: 'Notifications' }).getByRole('listitem').filter({ hasText: 'Support replied' });
  await expect(toast).toContainText(`There is a new reply in your support ticket ${ticketNumber}.`, { timeout: 10_000 });
  // the conversation marks the ticket read on the desk (PUT {action: read}) once its reply is shown
  const markedRead = page.waitForResponse(
    (response) => response.request().method() === 'PUT' && /\/tickets\/\d+$/.test(new URL(response.url()).pathname) && /"action":"read"/.test(response.request().postData() ?? ''),
  );
  await toast.getByRole('button', { name: 'Open' }).click();
  await expect(toast).toHaveCount(0);

  // the ticket's conversation: the agent's reply, never the note
  await expect(page).toHaveURL((url) => url.pathname === '/messages' && namesTicket(url, ticketNumber));
  const answered = page.getByRole('region', { name: subject });
  const answer = answered.getByRole('list', { name: 'Conversation' }).getByRole('listitem').filter({ hasText: reply });
  await expect(answer).toBeVisible();
  await expect(answer.getByRole('heading', { level: 3 })).not.toHaveText('You');
  await expect(answered.getByText(note)).toHaveCount(0);
  await expect(answered.getByText('Waiting for the customer', { exact: true })).toBeVisible();
  // Open marked the notification read: the bell is back to its count
  await expect(bellCount).toHaveText(String(unreadBefore));
  // the reply was also e-mailed (support.email is on for the demo users)
  await latestMessage(request, anna.email, 'mail', new RegExp(`new reply in your support ticket ${ticketNumber}`));
  await step(page, 'support-reply-read');
  expect((await markedRead).ok(), 'the desk took the read').toBe(true);

  // /messages read afresh from the desk (a new page: nothing cached, and no ticket open to mark
  // read): her ticket is no longer unread, while the demo's answered ticket she has not opened is
  await page.goto('/messages');
  await expect(page.getByRole('heading', { level: 1, name: 'Messages' })).toBeVisible();
  await expect(tickets.getByRole('button', { name: /Statement for my landlord/ })).toContainText('Unread:');
  const readNow = tickets.getByRole('button', { name: new RegExp(subject) });
  await expect(readNow).toContainText(`#${ticketNumber}`);
  await expect(readNow).toContainText('Open');
  await expect(readNow).not.toContainText('Unread:');

  await agent.context().close();
});
