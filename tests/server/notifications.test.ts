/**
 * Notifications, announcements and settings on the platform (api/notifications.ts): announcements
 * per audience with the caller's read state, accept or decline once and only where asked, the
 * bell's count, the centre's list and read, the settings' defaults, changes and refusals, and
 * notify() honouring them (a push not sent when `<group>.push` is off while the row is still
 * written; an e-mail sent or not per `<group>.email`, in the user's language); a user sees only
 * their acting customer's notifications, and among those only the ones for everyone or for them.
 */
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CUSTOMER_ID_HEADER } from '../../api/http.ts';
import { NOTIFICATION_SETTINGS } from '../../api/notifications.ts';
import { NORTHWIND_NAME, demoUserByKey } from '../../server/db/demo-users.ts';
import type { Tx } from '../../server/db/types.ts';
import { customers, users } from '../../server/modules/customers/customers.tables.ts';
import { announcementReads, announcements, notifications, notificationSettings } from '../../server/modules/notifications/notifications.tables.ts';
import { notify, type NotifyInput } from '../../server/modules/notifications/notify.ts';
import { outbox } from '../../server/modules/platform/platform.tables.ts';
import { callMethod, createTestApp, signIn, type TestApp } from './harness.ts';

let t: TestApp;
let anna: string;
let boris: string;
let owner: string;
let clerk: string;
let ids: { anna: number; annaUser: number; northwind: number; owner: number; clerk: number };
const DAY = 86_400_000;

async function userOf(key: keyof typeof demoUserByKey) {
  const [u] = await t.db.select().from(users).where(eq(users.email, demoUserByKey[key].email));
  return u!;
}

type Published = { customerId: number; event: Record<string, unknown> };

/** notify() in its own transaction, as a module would call it; answers what it handed to publish. */
async function send(input: Omit<NotifyInput, 'nowMs'>): Promise<{ id: number; published: Published[] }> {
  const published: Published[] = [];
  const id = await t.db.transaction((tx) => notify(tx as Tx, (customerId, event) => published.push({ customerId, event }), { ...input, nowMs: Date.now() }));
  return { id, published };
}

const call = (name: string, token: string, body: Record<string, unknown> = {}, customerId?: number) =>
  callMethod(t.app, name, body, { token, ...(customerId ? { headers: { [CUSTOMER_ID_HEADER]: String(customerId) } } : {}) });

async function mailsTo(email: string) {
  return t.db.select().from(outbox).where(eq(outbox.recipient, email));
}

beforeAll(async () => {
  t = await createTestApp();
  const [a, b, o, c] = await Promise.all([signIn(t.app, 'anna'), signIn(t.app, 'boris'), signIn(t.app, 'owner'), signIn(t.app, 'clerk')]);
  anna = a.accessToken;
  boris = b.accessToken;
  owner = o.accessToken;
  clerk = c.accessToken;
  const [annaUser, ownerUser, clerkUser] = await Promise.all([userOf('anna'), userOf('owner'), userOf('clerk')]);
  const [nw] = await t.db.select().from(customers).where(eq(customers.businessName, NORTHWIND_NAME));
  ids = { anna: annaUser.customerId, annaUser: annaUser.id, northwind: nw!.id, owner: ownerUser.id, clerk: clerkUser.id };
  // This suite's own announcements and notifications only (the demo's are seeded too).
  await t.db.delete(announcementReads);
  await t.db.delete(announcements);
  await t.db.delete(notifications);
  // a fresh platform and four sign-ins: slow on a loaded machine
}, 180_000);
afterAll(async () => {
  await t?.close();
});

describe('announcements', () => {
  let terms: number;
  let forPersons: number;
  let forBusiness: number;
  beforeAll(async () => {
    const now = Date.now();
    const text = (title: string) => ({ en: { title, body: `${title}: body` }, ru: { title: `${title} (ru)`, body: 'текст' } });
    const rows = await t.db
      .insert(announcements)
      .values([
        { texts: text('Terms'), audience: 'all', requiresChoice: true, publishedAt: new Date(now - DAY), createdAt: new Date(now - DAY) },
        { texts: text('Persons'), audience: 'personal', publishedAt: new Date(now - 2 * DAY), createdAt: new Date(now) },
        { texts: text('Business'), audience: 'business', publishedAt: new Date(now - 3 * DAY), createdAt: new Date(now) },
        { texts: text('Expired'), audience: 'all', publishedAt: new Date(now - 9 * DAY), expiresAt: new Date(now - DAY), createdAt: new Date(now) },
        { texts: text('Future'), audience: 'all', publishedAt: new Date(now + DAY), createdAt: new Date(now) },
      ])
      .returning({ id: announcements.id });
    [terms, forPersons, forBusiness] = rows.map((r) => r.id) as [number, number, number];
  });

  it('lists the published, unexpired ones of the acting customer’s audience, newest first, in the caller’s language', async () => {
    const personal = await call('announcementsList', anna);
    expect(personal.body.responseCode).toBe('00');
    const list = personal.body.announcements as { id: number; title: string; read: boolean; choice: string | null }[];
    expect(list.map((a) => a.title)).toEqual(['Terms', 'Persons']);
    expect(list.every((a) => !a.read && a.choice === null)).toBe(true);
    const business = await call('announcementsList', owner, {}, ids.northwind);
    expect((business.body.announcements as { id: number }[]).map((a) => a.id)).toEqual([terms, forBusiness]);
    const russian = await call('announcementsList', anna, { lang: 'ru' });
    expect((russian.body.announcements as { title: string }[])[0]!.title).toBe('Terms (ru)');
  });

  it('get marks read; another audience’s is unknown', async () => {
    const before = await call('notificationsCount', anna);
    const got = await call('announcementGet', anna, { id: forPersons });
    expect(got.body.responseCode).toBe('00');
    expect((got.body.announcement as { read: boolean }).read).toBe(true);
    const after = await call('notificationsCount', anna);
    expect(after.body.announcements).toBe((before.body.announcements as number) - 1);
    const other = await call('announcementGet', anna, { id: forBusiness });
    expect(other.body.responseCode).toBe('VF');
    expect(other.body.validationErrors).toEqual([expect.objectContaining({ param: 'id', code: 'unknownReference' })]);
  });

  it('accepts or declines once, and only where a choice is asked', async () => {
    const notAsked = await call('announcementAccept', anna, { id: forPersons, choice: 'accept' });
    expect(notAsked.body.responseCode).toBe('VF');
    expect(notAsked.body.validationErrors).toEqual([expect.objectContaining({ param: 'id', code: 'notOffered' })]);
    const declined = await call('announcementAccept', anna, { id: terms, choice: 'decline' });
    expect(declined.body.responseCode).toBe('00');
    expect(declined.body.announcement).toMatchObject({ read: true, choice: 'declined' });
    const again = await call('announcementAccept', anna, { id: terms, choice: 'accept' });
    expect(again.body.responseCode).toBe('VF');
    expect(again.body.validationErrors).toEqual([expect.objectContaining({ param: 'choice', code: 'decidedAlready' })]);
    const listed = await call('announcementsList', anna);
    expect((listed.body.announcements as { id: number; choice: string | null }[]).find((a) => a.id === terms)!.choice).toBe('declined');
    // the choice is the user's own: the owner is still asked
    const ownerList = await call('announcementsList', owner, {}, ids.northwind);
    expect((ownerList.body.announcements as { id: number; choice: string | null }[]).find((a) => a.id === terms)!.choice).toBeNull();
    const bad = await call('announcementAccept', owner, { id: terms, choice: 'maybe' }, ids.northwind);
    expect(bad.body.responseCode).toBe('VF');
  });
});

describe('the notification centre', () => {
  it('lists the acting customer’s notifications newest first, counts the unread, reads some or all', async () => {
    const first = await send({ customerId: ids.anna, type: 'ticketReply', target: { kind: 'ticket', ticketNumber: 'T-100' } });
    const second = await send({ customerId: ids.anna, userId: ids.annaUser, type: 'documentRejected', target: { kind: 'profile' } });
    const list = await call('notificationsList', anna);
    expect(list.body.responseCode).toBe('00');
    const items = list.body.notifications as { id: number; type: string; status: string; title: string; body: string; target: unknown; params: Record<string, unknown> }[];
    expect(items.map((n) => n.id)).toEqual([second.id, first.id]);
    expect(items[1]).toMatchObject({ type: 'ticketReply', status: 'unread', title: 'Support replied', target: { kind: 'ticket', ticketNumber: 'T-100' }, params: {} });
    expect(items[1]!.body).toContain('T-100');
    expect(list.body.unread).toBe(2);
    const count = await call('notificationsCount', anna);
    expect(count.body.notifications).toBe(2);
    expect(count.body.count).toBe((count.body.announcements as number) + 2);

    const one = await call('notificationsRead', anna, { ids: [first.id] });
    expect(one.body).toMatchObject({ responseCode: '00', read: 1, unread: 1 });
    const none = await call('notificationsRead', anna, {});
    expect(none.body.responseCode).toBe('VF');
    const all = await call('notificationsRead', anna, { all: true });
    expect(all.body).toMatchObject({ read: 1, unread: 0 });
    const unreadOnly = await call('notificationsList', anna, { unreadOnly: true });
    expect(unreadOnly.body.notifications).toEqual([]);
  });

  it('shows a user only their acting customer’s notifications: for everyone there, or for them', async () => {
    const forAll = await send({ customerId: ids.northwind, type: 'batchPartial', params: { failed: 2, total: 5 }, target: { kind: 'batch', batchId: 7 } });
    const forOwner = await send({ customerId: ids.northwind, userId: ids.owner, type: 'contractSigned', target: { kind: 'contract', contractId: 3 } });
    const ownerSees = await call('notificationsList', owner, {}, ids.northwind);
    expect((ownerSees.body.notifications as { id: number }[]).map((n) => n.id)).toEqual([forOwner.id, forAll.id]);
    const clerkSees = await call('notificationsList', clerk, {}, ids.northwind);
    expect((clerkSees.body.notifications as { id: number }[]).map((n) => n.id)).toEqual([forAll.id]);
    // boris acts for no company of theirs: his own list is empty, Northwind's is refused
    const borisOwn = await call('notificationsList', boris);
    expect(borisOwn.body.notifications).toEqual([]);
    const borisThere = await call('notificationsList', boris, {}, ids.northwind);
    expect(borisThere.body.responseCode).toBe('ENOA');
    // reading another customer's ids changes nothing
    const stolen = await call('notificationsRead', boris, { ids: [forAll.id, forOwner.id] });
    expect(stolen.body).toMatchObject({ responseCode: '00', read: 0 });
    const [row] = await t.db.select().from(notifications).where(eq(notifications.id, forAll.id));
    expect(row!.status).toBe('unread');
    // the clerk cannot read the owner's own one either
    await call('notificationsRead', clerk, { ids: [forOwner.id] }, ids.northwind);
    const [ownerRow] = await t.db.select().from(notifications).where(eq(notifications.id, forOwner.id));
    expect(ownerRow!.status).toBe('unread');
  });
});

describe('settings', () => {
  it('answers every setting with its default when never set; security is locked on', async () => {
    const got = await call('notificationSettingsGet', boris);
    const settings = got.body.settings as { group: string; identified: string; value: boolean; locked: boolean }[];
    expect(settings.map((s) => s.identified)).toEqual(NOTIFICATION_SETTINGS.map((s) => s.identified));
    expect(settings.find((s) => s.identified === 'support.push')).toEqual({ group: 'support', identified: 'support.push', value: true, locked: false });
    expect(settings.find((s) => s.identified === 'news.email')!.value).toBe(false);
    expect(settings.find((s) => s.identified === 'security.email')).toMatchObject({ value: true, locked: true });
  });

  it('sets one; refuses an unknown one and switching a locked one off', async () => {
    const set = await call('notificationSettingsSet', boris, { identified: 'contracts.email', value: false });
    expect(set.body).toMatchObject({ responseCode: '00', setting: { identified: 'contracts.email', value: false } });
    const got = await call('notificationSettingsGet', boris);
    expect((got.body.settings as { identified: string; value: boolean }[]).find((s) => s.identified === 'contracts.email')!.value).toBe(false);
    const unknown = await call('notificationSettingsSet', boris, { identified: 'weather.push', value: true });
    expect(unknown.body.responseCode).toBe('VF');
    expect(unknown.body.validationErrors).toEqual([expect.objectContaining({ param: 'identified', code: 'notAllowed' })]);
    const locked = await call('notificationSettingsSet', boris, { identified: 'security.email', value: false });
    expect(locked.body.responseCode).toBe('VF');
    expect(locked.body.validationErrors).toEqual([expect.objectContaining({ param: 'value', code: 'notAllowed' })]);
    const rows = await t.db
      .select()
      .from(notificationSettings)
      .where(inArray(notificationSettings.identified, ['weather.push', 'security.email']));
    expect(rows).toEqual([]);
  });

  it('are honoured before a push: off, the row is written and nothing is pushed', async () => {
    const on = await send({ customerId: ids.anna, type: 'ticketClosed', target: { kind: 'ticket', ticketNumber: 'T-200' } });
    expect(on.published).toEqual([{ customerId: ids.anna, event: expect.objectContaining({ type: 'CustomerNotification', notificationType: 'ticketClosed', id: on.id }) }]);
    expect(on.published[0]!.event).not.toHaveProperty('forUserIds');
    await call('notificationSettingsSet', anna, { identified: 'support.push', value: false });
    const off = await send({ customerId: ids.anna, type: 'ticketClosed', target: { kind: 'ticket', ticketNumber: 'T-201' } });
    expect(off.published).toEqual([]);
    const [row] = await t.db.select().from(notifications).where(eq(notifications.id, off.id));
    expect(row).toMatchObject({ type: 'ticketClosed', status: 'unread' });
    // another group still reaches her
    const contracts = await send({ customerId: ids.anna, type: 'contractActive', target: { kind: 'contract', contractId: 9 } });
    expect(contracts.published).toHaveLength(1);
    await call('notificationSettingsSet', anna, { identified: 'support.push', value: true });
  });

  it('push only to the company’s users who want it (forUserIds)', async () => {
    await call('notificationSettingsSet', clerk, { identified: 'payments.push', value: false });
    const sent = await send({ customerId: ids.northwind, type: 'batchPartial', params: { failed: 1, total: 2 }, target: { kind: 'batch', batchId: 8 } });
    const targets = sent.published[0]!.event.forUserIds as number[];
    expect(targets).toContain(ids.owner);
    expect(targets).not.toContain(ids.clerk);
  });

  it('are honoured before an e-mail, which is written in the user’s language', async () => {
    const email = demoUserByKey.anna.email;
    const before = (await mailsTo(email)).length;
    await send({ customerId: ids.anna, type: 'contractSigned', params: { counterparty: 'Northwind' }, target: { kind: 'contract', contractId: 12 } });
    const mails = await mailsTo(email);
    expect(mails).toHaveLength(before + 1);
    expect(mails.at(-1)!.subject).toContain('Contract signed');
    expect(mails.at(-1)!.body).toContain('signed by Northwind');
    // not e-mailed: a type without e-mail
    await send({ customerId: ids.anna, type: 'documentRejected', target: { kind: 'profile' } });
    expect(await mailsTo(email)).toHaveLength(before + 1);
    // switched off: none
    await call('notificationSettingsSet', anna, { identified: 'contracts.email', value: false });
    await send({ customerId: ids.anna, type: 'contractActive', target: { kind: 'contract', contractId: 12 } });
    expect(await mailsTo(email)).toHaveLength(before + 1);
    await call('notificationSettingsSet', anna, { identified: 'contracts.email', value: true });
    // in her language
    await t.db.update(customers).set({ language: 'ua' }).where(eq(customers.id, ids.anna));
    await send({ customerId: ids.anna, type: 'ticketReply', target: { kind: 'ticket', ticketNumber: 'T-300' } });
    const ukrainian = (await mailsTo(email)).at(-1)!;
    expect(ukrainian.subject).toContain('Відповідь підтримки');
    expect(ukrainian.body).toContain('T-300');
    await t.db.update(customers).set({ language: 'en' }).where(eq(customers.id, ids.anna));
  });
});
