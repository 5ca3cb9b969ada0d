/**
 * Notifications in the app (document 3 §2, §4, §7; document 2 §7): a CustomerNotification push is
 * a toast for exactly NOTIFICATION_TOAST_MS (fake timers) whose Open button leads to its target,
 * for every target kind, in the reader's language; the bell shows the unread count; the settings
 * page saves a switch at once and says so. Only fetch is replaced (the platform's answers).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { I18nProvider } from '@lingui/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryHistory, createRootRoute, createRoute, createRouter, Outlet, RouterProvider } from '@tanstack/react-router';
import { NOTIFICATION_TOAST_MS, type NotificationTarget } from '../../api/push.ts';
import { NOTIFICATION_SETTINGS } from '../../api/notifications.ts';
import { NotificationBell } from '../../src/features/notifications/notification-bell.tsx';
import { NotificationListener } from '../../src/features/notifications/notification-listener.tsx';
import { NotificationSettingsView } from '../../src/features/notifications/settings-view.tsx';
import { deliverCustomerNotification } from '../../src/lib/customer-notifications.ts';
import { activateUiLanguage, i18n } from '../../src/lib/i18n.ts';
import { clearToasts } from '../../src/lib/notify.ts';
import { setFetchForTests } from '../../src/lib/request.ts';
import { ToastRegion } from '../../src/ui/toast-region.tsx';
import { methodBody } from './method-body.ts';

/** The wrapper loads on the first call: slow on a loaded machine. */
const waitFor = (check: () => void) => vi.waitFor(check, { timeout: 10_000 });

const calls: { name: string; body: Record<string, unknown> }[] = [];
const answers: Record<string, (body: Record<string, unknown>) => Record<string, unknown>> = {};

beforeEach(() => {
  calls.length = 0;
  setFetchForTests(async (input, init) => {
    const name = String(input).split('?').pop()!;
    const body = methodBody(name, init);
    calls.push({ name, body });
    const answer = answers[name]?.(body) ?? {};
    return new Response(JSON.stringify({ responseCode: '00', ...answer }), { status: 200, headers: { 'content-type': 'application/json' } });
  });
  answers.notificationsCount = () => ({ count: 3, notifications: 2, announcements: 1 });
  answers.notificationsRead = () => ({ read: 1, unread: 0 });
});
afterEach(async () => {
  vi.useRealTimers();
  setFetchForTests(null);
  clearToasts();
  await activateUiLanguage('en');
});

/** The signed-in layout's part under test: the listener, the bell and the toasts, on a memory router. */
async function showShell() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const root = createRootRoute({
    component: () => (
      <>
        <NotificationBell actingCustomerId={null} />
        <NotificationListener />
        <ToastRegion />
        <Outlet />
      </>
    ),
  });
  const page = (path: string) => createRoute({ getParentRoute: () => root, path, component: () => <p>page {path}</p> });
  const router = createRouter({
    routeTree: root.addChildren([page('/home'), page('/profile'), page('/news'), page('/messages'), page('/history/batch-transfers'), page('/revenue-split/$contractId')]),
    history: createMemoryHistory({ initialEntries: ['/home'] }),
  });
  render(
    <I18nProvider i18n={i18n}>
      <QueryClientProvider client={client}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </I18nProvider>,
  );
  await screen.findByText('page /home');
  return { router, client };
}

const push = (type: string, target: NotificationTarget | null, params: Record<string, string | number | null> = {}) =>
  act(() =>
    deliverCustomerNotification({ type: 'CustomerNotification', notificationType: type, status: 'unread', title: `${type} title`, body: `${type} body`, id: 41, target, params }),
  );

/** The toasts shown (the region's name is in the UI language). */
const toasts = () => within(document.querySelector<HTMLElement>('.toast-region')!).queryAllByRole('listitem');

describe('the notification toast', () => {
  it('stays exactly 10 seconds', async () => {
    await showShell();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    push('ticketReply', { kind: 'ticket', ticketNumber: 'T-7' });
    expect(toasts()).toHaveLength(1);
    expect(toasts()[0]!.textContent).toContain('There is a new reply in your support ticket T-7.');
    act(() => vi.advanceTimersByTime(NOTIFICATION_TOAST_MS - 1));
    expect(toasts()).toHaveLength(1);
    act(() => vi.advanceTimersByTime(1));
    expect(toasts()).toHaveLength(0);
  });

  it.each([
    ['documentRejected', { kind: 'profile' }, {}, '/profile'],
    ['usernameChangeFailed', { kind: 'profile' }, {}, '/profile'],
    ['batchPartial', { kind: 'batch', batchId: 12 }, { failed: 2, total: 5, batchKind: 'mass' }, '/history/batch-transfers?id=12'],
    ['contractSigned', { kind: 'contract', contractId: 9 }, { counterparty: 'Northwind' }, '/revenue-split/9'],
    ['ticketReply', { kind: 'ticket', ticketNumber: 'T-8' }, {}, '/messages?ticketNumber=T-8'],
    ['newsPublished', { kind: 'news', announcementId: 3 }, {}, '/news'],
  ] as const)('%s: its button leads to the target (%s)', async (type, target, params, href) => {
    const { router } = await showShell();
    push(type, target as NotificationTarget, params);
    fireEvent.click(within(toasts()[0]!).getByRole('button', { name: 'Open' }));
    await waitFor(() => expect(router.state.location.href).toBe(href));
    expect(toasts()).toHaveLength(0);
    // opened: marked read
    await waitFor(() => expect(calls).toContainEqual({ name: 'notificationsRead', body: { ids: [41] } }));
  });

  it('says it with the app’s words for its type (the reader’s catalog), falling back to the words sent for an unknown type; no target, no button', async () => {
    await showShell();
    push('contractSigned', { kind: 'contract', contractId: 9 }, { counterparty: 'Northwind' });
    expect(toasts()[0]!.textContent).toContain('Contract signed');
    expect(toasts()[0]!.textContent).toContain('Contract 9 was signed by Northwind.');
    expect(toasts()[0]!.textContent).not.toContain('contractSigned title');
    push('somethingNew', null);
    expect(toasts()[1]!.textContent).toContain('somethingNew title');
    expect(within(toasts()[1]!).queryByRole('button', { name: 'Open' })).toBeNull();
  });

  it('refreshes the bell’s count', async () => {
    await showShell();
    await waitFor(() => expect(calls.filter((c) => c.name === 'notificationsCount')).toHaveLength(1));
    push('ticketReply', { kind: 'ticket', ticketNumber: 'T-9' });
    await waitFor(() => expect(calls.filter((c) => c.name === 'notificationsCount')).toHaveLength(2));
  });
});

describe('the bell', () => {
  it('shows the unread count and opens the centre', async () => {
    const { router } = await showShell();
    const bell = await screen.findByRole('link', { name: 'Notifications: 3 unread' });
    expect(within(bell).getByTestId('bell-count').textContent).toBe('3');
    fireEvent.click(bell);
    await waitFor(() => expect(router.state.location.pathname).toBe('/news'));
  });

  it('shows no number when nothing is unread', async () => {
    answers.notificationsCount = () => ({ count: 0, notifications: 0, announcements: 0 });
    await showShell();
    await waitFor(() => expect(calls.some((c) => c.name === 'notificationsCount')).toBe(true));
    expect(await screen.findByRole('link', { name: 'Notifications' })).toBeTruthy();
    expect(screen.queryByTestId('bell-count')).toBeNull();
  });
});

describe('the notification settings', () => {
  it('saves a switch at once and says so; security is on and cannot be changed', async () => {
    const settings = NOTIFICATION_SETTINGS.map((s) => ({ group: s.group, identified: s.identified, value: s.locked || s.defaultValue, locked: s.locked }));
    answers.notificationSettingsGet = () => ({ settings });
    answers.notificationSettingsSet = (body) => ({ setting: { ...settings.find((s) => s.identified === body.identified)!, value: body.value } });
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <I18nProvider i18n={i18n}>
        <QueryClientProvider client={client}>
          <NotificationSettingsView />
        </QueryClientProvider>
      </I18nProvider>,
    );
    const support = (await screen.findByRole('heading', { name: 'Support messages' })).closest('section')!;
    const onScreen = within(support).getByRole('switch', { name: 'On screen' }) as HTMLInputElement;
    expect(onScreen.checked).toBe(true);
    fireEvent.click(onScreen);
    await waitFor(() => expect(calls).toContainEqual({ name: 'notificationSettingsSet', body: { identified: 'support.push', value: false } }));
    expect((await screen.findByRole('status')).textContent).toBe('Saved: Support messages: On screen is off.');
    await waitFor(() => expect((within(support).getByRole('switch', { name: 'On screen' }) as HTMLInputElement).checked).toBe(false));
    const security = screen.getByRole('heading', { name: 'Security' }).closest('section')!;
    for (const locked of within(security).getAllByRole('switch') as HTMLInputElement[]) {
      expect(locked.checked).toBe(true);
      expect(locked.disabled).toBe(true);
    }
    expect(within(security).getAllByText('Always on: we must tell you about the security of your account.')).toHaveLength(2);
  });
});
