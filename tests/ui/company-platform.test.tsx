/**
 * The company's pages against the REAL platform (PGlite), through the app's real route tree (issue
 * 17 items 4-5; document 3 §2, §3, §5): Northwind's owner opens /company-access from the
 * navigation and reads its users with their rights; changes the viewer's rights; is refused in
 * words (VF alreadyHasAccess on the e-mail field: the owner's row, whose lowering ownerRights
 * refuses, has no controls); invites Daniel Reed from the quick
 * choice; removes the clerk's access behind the confirmation. The viewer (read only) acting for
 * Northwind sees the list without controls. /company opens the documents; the sections show the
 * demo structure (the shareholder tree with Harbour Holdings' 60 % and Marta Lind's effective 30 %,
 * an ultimate beneficial owner). Each page without axe violations. Only the transport is swapped
 * (fetch -> app.inject).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { configure, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryHistory } from '@tanstack/react-router';
import { eq } from 'drizzle-orm';
import { customers } from '../../server/modules/customers/customers.tables.ts';
import { AppRoot } from '../../src/app/app-root.tsx';
import { createAppQueryClient } from '../../src/app/query-client.ts';
import { createAppRouter } from '../../src/app/router.ts';
import { SESSION_STORAGE_KEY, createSessionActor, sessionRequestHooks, type SessionActor } from '../../src/features/auth/session-actor.ts';
import { configureRequest, setFetchForTests } from '../../src/lib/request.ts';
import { callMethod, createTestApp, signIn, type TestApp } from '../server/harness.ts';
import { expectNoAxeViolations } from './axe.ts';
import { injectFetch } from './platform-transport.ts';
import { SilentWebSocket } from './silent-websocket.ts';

configure({ asyncUtilTimeout: 15_000 });

let t: TestApp;
let owner: { accessToken: string; refreshToken: string };
let viewer: { accessToken: string; refreshToken: string };
let rita: { accessToken: string; refreshToken: string };
let northwindId = 0;
let session: SessionActor | null = null;
const plain = (s: string | null | undefined) => (s ?? '').replace(/[\u00a0\u202f]/g, ' ');

beforeAll(async () => {
  t = await createTestApp();
  owner = await signIn(t.app, 'owner');
  viewer = await signIn(t.app, 'viewer');
  rita = await signIn(t.app, 'rita');
  const [northwind] = await t.db.select({ id: customers.id }).from(customers).where(eq(customers.businessName, 'Northwind Trading Ltd'));
  northwindId = northwind!.id;
  setFetchForTests(injectFetch(t.app));
  vi.stubGlobal('WebSocket', SilentWebSocket);
}, 60_000);
afterAll(async () => {
  session?.stop();
  setFetchForTests(null);
  vi.unstubAllGlobals();
  await t?.close();
});

async function renderApp(path: string, who: 'owner' | 'viewer' | 'rita' = 'owner') {
  session?.stop();
  const tokens = who === 'owner' ? owner : who === 'viewer' ? viewer : rita;
  const acting = who === 'viewer' ? northwindId : null;
  const options = { token: tokens.accessToken };
  const info = (await callMethod(t.app, 'getCustomerInfo', {}, options)).body as unknown as { customer: unknown };
  const access = acting === null ? null : ((await callMethod(t.app, 'userAccessInfoGet', { customerId: acting }, options)).body as unknown as { accessInfo: unknown }).accessInfo;
  sessionStorage.setItem(SESSION_STORAGE_KEY, JSON.stringify({ tokens, customer: info.customer, accessInfo: access, actingCustomerId: acting, rememberedPath: null }));
  const client = createAppQueryClient();
  session = createSessionActor({ clearCaches: () => client.clear() });
  configureRequest(sessionRequestHooks(session));
  const router = createAppRouter({ session, queryClient: client }, createMemoryHistory({ initialEntries: [path] }));
  const view = render(<AppRoot router={router} queryClient={client} />);
  return { router, view };
}

const rowOf = (text: string) => screen.getAllByRole('row').find((r) => within(r).queryAllByText(text, { exact: false }).length > 0)!;

describe('/company-access against the platform (Northwind)', () => {
  it('lists the users with their rights for the owner, linked in the navigation, without axe violations', async () => {
    const { view } = await renderApp('/company-access');
    await screen.findByRole('heading', { level: 1, name: 'Users and access' });
    const table = await screen.findByRole('table', { name: 'Users of the company' });
    expect(table).toBeTruthy();
    expect(plain(rowOf('Vera Vance').textContent)).toContain('Read only');
    expect(plain(rowOf('Carl Clarke').textContent)).toContain('Full access');
    expect(plain(rowOf('Olivia Owens').textContent)).toContain('The owner keeps full access.');
    expect(within(rowOf('Olivia Owens')).queryByRole('button')).toBeNull();
    expect((await screen.findByRole('link', { name: 'Users and access' })).getAttribute('aria-current')).toBe('page');
    expect(screen.getByRole('button', { name: 'Invite Daniel Reed' })).toBeTruthy();
    await expectNoAxeViolations('the access page');
    view.unmount();
  }, 60_000);

  it('changes the viewer’s rights, refuses an e-mail that already has access in words, invites Daniel Reed and removes the clerk behind a confirmation', async () => {
    const user = userEvent.setup();
    const { view } = await renderApp('/company-access');
    await screen.findByRole('table', { name: 'Users of the company' });

    // change rights: read only -> initiate payments; right 5 is not offered
    await user.click(within(rowOf('Vera Vance')).getByRole('button', { name: 'Change rights of Vera Vance' }));
    const change = await screen.findByRole('dialog', { name: 'Change the rights of Vera Vance' });
    const select = within(change).getByRole('combobox', { name: 'Rights' });
    expect([...(select as HTMLSelectElement).options].map((o) => o.textContent)).toEqual([
      'No access (remove the user)',
      'Read only',
      'Full access',
      'Initiate payments',
      'Confirmed payments',
    ]);
    await user.selectOptions(select, '3');
    await user.click(within(change).getByRole('button', { name: 'Save the rights' }));
    expect(await screen.findByText('Vera Vance now has the rights: Initiate payments.')).toBeTruthy();
    await waitFor(() => expect(plain(rowOf('Vera Vance').textContent)).toContain('Initiate payments'));

    // refused: the clerk already has access (VF alreadyHasAccess on the e-mail field)
    await user.type(screen.getByRole('textbox', { name: 'E-mail address' }), 'clerk@northwind.test');
    await user.type(screen.getByRole('textbox', { name: 'First name' }), 'Carl');
    await user.type(screen.getByRole('textbox', { name: 'Last name' }), 'Clarke');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Rights' }), '1');
    await user.click(screen.getByRole('button', { name: 'Send the invitation' }));
    expect(await screen.findByText('This person already has access to the company.')).toBeTruthy();
    expect(screen.getByRole('textbox', { name: 'E-mail address' }).getAttribute('aria-invalid')).toBe('true');

    // invite Daniel Reed from the quick choice
    await user.click(screen.getByRole('button', { name: 'Invite Daniel Reed' }));
    expect((screen.getByRole('textbox', { name: 'E-mail address' }) as HTMLInputElement).value).toBe('daniel.reed@northwind.test');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Rights' }), '3');
    await user.click(screen.getByRole('button', { name: 'Send the invitation' }));
    expect(await screen.findByText(/^An invitation was sent to daniel\.reed@northwind\.test\./)).toBeTruthy();
    await waitFor(() => expect(plain(rowOf('Daniel Reed').textContent)).toContain('Invited, not activated yet'));
    expect(screen.queryByRole('button', { name: 'Invite Daniel Reed' })).toBeNull();

    // remove the clerk's access: the confirmation first, kept once, then removed
    await user.click(within(rowOf('Carl Clarke')).getByRole('button', { name: 'Remove access of Carl Clarke' }));
    let confirm = await screen.findByRole('dialog', { name: 'Remove the access of Carl Clarke?' });
    await user.click(within(confirm).getByRole('button', { name: 'Keep the access' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(rowOf('Carl Clarke')).toBeTruthy();
    await user.click(within(rowOf('Carl Clarke')).getByRole('button', { name: 'Remove access of Carl Clarke' }));
    confirm = await screen.findByRole('dialog', { name: 'Remove the access of Carl Clarke?' });
    await user.click(within(confirm).getByRole('button', { name: 'Remove access' }));
    expect(await screen.findByText('Carl Clarke no longer has access to the company.')).toBeTruthy();
    await waitFor(() => expect(screen.queryAllByRole('row').some((r) => (r.textContent ?? '').includes('Carl Clarke'))).toBe(false));
    view.unmount();
  }, 60_000);
});

describe('read only (the viewer acting for Northwind)', () => {
  it('shows the users without controls or the invitation', async () => {
    const { view } = await renderApp('/company-access', 'viewer');
    await screen.findByRole('table', { name: 'Users of the company' });
    expect(screen.getByText('The people who may act for the company, with their rights. Only the owner or a user with full access can change them.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /^Change rights/ })).toBeNull();
    expect(screen.queryByRole('heading', { name: 'Invite a user' })).toBeNull();
    view.unmount();
  }, 60_000);
});

describe('/company against the platform (Northwind)', () => {
  it('opens the documents by default, with the action-required count, without axe violations', async () => {
    const { router, view } = await renderApp('/company');
    await screen.findByRole('heading', { level: 1, name: 'Documents' });
    expect(router.state.location.pathname).toBe('/company/documents');
    expect(screen.getByRole('link', { name: 'Documents' }).getAttribute('aria-current')).toBe('page');
    await screen.findByRole('heading', { name: "The company's documents" });
    await expectNoAxeViolations('the documents');
    view.unmount();
  }, 60_000);

  it('draws the shareholder tree with each share, the effective shares and the ultimate beneficial owners', async () => {
    const { view } = await renderApp('/company/shareholders');
    const tree = await screen.findByRole('list', { name: 'Shareholders of the company' });
    const olivia = within(tree).getByText('Olivia Owens').closest('li')!;
    expect(plain(olivia.textContent)).toContain('Holds 40%');
    expect(plain(olivia.textContent)).toContain('Effective share 40%');
    expect(plain(olivia.textContent)).toContain('Ultimate beneficial owner');
    const harbour = within(tree).getByText('Harbour Holdings Ltd').closest('li')!;
    expect(plain(harbour.textContent)).toContain('Holds 60%');
    const nested = within(harbour).getByRole('list', { name: 'Shareholders of Harbour Holdings Ltd' });
    const marta = within(nested).getByText('Marta Lind').closest('li')!;
    expect(plain(marta.textContent)).toContain('Holds 50%');
    expect(plain(marta.textContent)).toContain('Effective share 30%');
    expect(plain(marta.textContent)).toContain('Ultimate beneficial owner');
    await expectNoAxeViolations('the shareholders');
    view.unmount();
  }, 60_000);

  it('shows the information, directors, representatives, owners, users and e-mails of the demo structure', async () => {
    const user = userEvent.setup();
    const { view } = await renderApp('/company/information');
    await screen.findByRole('heading', { name: 'Company information' });
    expect(screen.getByText('09876543')).toBeTruthy();
    expect(screen.getByText('https://northwind.example')).toBeTruthy();
    await expectNoAxeViolations('the information');

    await user.click(screen.getByRole('link', { name: 'Directors' }));
    await screen.findByRole('heading', { level: 1, name: 'Directors' });
    expect(await screen.findByText('Daniel Reed')).toBeTruthy();
    expect(screen.getByText('Olivia Owens')).toBeTruthy();

    await user.click(screen.getByRole('link', { name: 'Representatives' }));
    const olivia = (await screen.findByRole('heading', { level: 3, name: 'Olivia Owens' })).closest('article')!;
    expect(plain(olivia.textContent)).toContain('Identity verified');
    expect(plain(olivia.textContent)).toContain('12 Harbour Street');
    expect(plain(olivia.textContent)).toContain('Director');
    expect(screen.getByRole('heading', { level: 3, name: 'Marta Lind' }).closest('article')).toBeTruthy();
    await expectNoAxeViolations('the representatives');

    await user.click(screen.getByRole('link', { name: 'Owners' }));
    await screen.findByRole('heading', { level: 1, name: 'Owners' });
    expect(plain((await screen.findByText('Marta Lind')).closest('li')!.textContent)).toContain('Effective share 30%');

    await user.click(screen.getByRole('link', { name: 'E-mails' }));
    await screen.findByRole('heading', { level: 1, name: 'Company e-mails' });
    expect(await screen.findByText('hello@northwind.test')).toBeTruthy();
    await expectNoAxeViolations('the e-mails');
    view.unmount();
  }, 60_000);
});

describe('the navigation and addresses', () => {
  it('an unknown section opens the documents; a personal customer has no Company group', async () => {
    const { router, view } = await renderApp('/company/nothing');
    await screen.findByRole('heading', { level: 1, name: 'Documents' });
    expect(router.state.location.pathname).toBe('/company/documents');
    expect(await screen.findByRole('link', { name: 'Company details' })).toBeTruthy();
    view.unmount();
    const personal = await renderApp('/home', 'rita');
    await screen.findByRole('link', { name: 'Send money' });
    expect(screen.queryByRole('link', { name: 'Company details' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Users and access' })).toBeNull();
    personal.view.unmount();
  }, 60_000);
});
