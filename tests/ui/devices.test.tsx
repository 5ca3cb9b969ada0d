/**
 * The settings section "Linked phones" against a small in-memory platform double behind fetch:
 * the list shows approved phones only (name, type, location, last activity, approval methods),
 * toggling a method PATCHes it, unlinking asks first and DELETEs, a 401 refreshes once and
 * replays, and "Link a phone" opens the link dialog whose success refreshes the list.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nProvider } from '@lingui/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fromCallback, fromPromise } from 'xstate';
import type { Device } from '../../api/devices.ts';
import { linkDeviceMachine, type LinkDeviceEvent, type SendSmsResult, type StartLinkResult } from '../../machines/link-device/link-device.machine.ts';
import { LinkedDevicesSection } from '../../src/features/devices/linked-devices-section.tsx';
import { ScpView } from '../../src/features/devices/scp-view.tsx';
import { ScpMobileView } from '../../src/features/devices/scp-mobile-view.tsx';
import { parseCompanionHash, parseLinkCode } from '../../machines/device-companion/link-code.ts';
import { i18n } from '../../src/lib/i18n.ts';

const baseDevice: Device = {
  id: 1,
  status: 'approved',
  type: 'android',
  name: 'Pixel',
  location: 'LT',
  lastActivityAt: '2026-11-20T08:30:00Z',
  createdAt: '2026-11-01T10:00:00Z',
  approveMethodIds: [1, 2],
  hasPushToken: false,
};

interface Call {
  method: string;
  path: string;
  body: unknown;
  auth: string | null;
}

/** keepLastSignInPhone: the platform refuses (403) to remove the only phone approving sign-ins. */
function fakePlatform(devices: Device[], { keepLastSignInPhone = false } = {}) {
  const calls: Call[] = [];
  let expireNextToken = false;
  const fetchFn = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://bank.test');
    const method = init?.method ?? 'GET';
    const auth = new Headers(init?.headers).get('Authorization');
    const body = init?.body ? JSON.parse(String(init.body)) : undefined;
    calls.push({ method, path: url.pathname, body, auth });
    const json = (status: number, value?: unknown) =>
      new Response(value === undefined ? null : JSON.stringify(value), { status, headers: { 'Content-Type': 'application/json' } });
    if (expireNextToken && auth === 'Bearer old-token') return json(401, { message: 'expired' });
    if (url.pathname === '/auth/devices/approve-methods') return json(200, { methods: [{ id: 1, name: 'login' }, { id: 2, name: 'twoStepMode' }] });
    if (url.pathname === '/auth/devices' && method === 'GET') return json(200, { devices });
    const one = /^\/auth\/devices\/(\d+)$/.exec(url.pathname);
    const lastOne = { message: 'This is the only phone that approves your sign-ins; choose another two-step verification method first' };
    if (one && method === 'DELETE') {
      if (keepLastSignInPhone && devices.length === 1) return json(403, lastOne);
      const index = devices.findIndex((d) => d.id === Number(one[1]));
      if (index < 0) return json(404, { message: 'Unknown device' });
      devices.splice(index, 1);
      return json(204);
    }
    const toggle = /^\/auth\/devices\/(\d+)\/approve\/(\d+)$/.exec(url.pathname);
    if (toggle && method === 'PATCH') {
      const device = devices.find((d) => d.id === Number(toggle[1]));
      if (!device) return json(404, { message: 'Unknown device' });
      const methodId = Number(toggle[2]);
      if (keepLastSignInPhone && methodId === 1 && !(body as { enabled: boolean }).enabled) return json(403, lastOne);
      device.approveMethodIds = (body as { enabled: boolean }).enabled
        ? [...new Set([...device.approveMethodIds, methodId])]
        : device.approveMethodIds.filter((m) => m !== methodId);
      return json(200, { device });
    }
    return json(404, { message: 'Not found' });
  });
  return { calls, fetchFn, expire: () => (expireNextToken = true) };
}

let token = 'token-1';
const access = {
  getAccessToken: () => token,
  refresh: vi.fn(async () => {
    token = 'token-2';
    return true;
  }),
};

function mount(devices: Device[], linkLogic?: typeof linkDeviceMachine, options: { keepLastSignInPhone?: boolean } = {}) {
  const platform = fakePlatform(devices, options);
  vi.stubGlobal('fetch', platform.fetchFn);
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  render(
    <I18nProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <LinkedDevicesSection access={access} linkLogic={linkLogic} />
      </QueryClientProvider>
    </I18nProvider>,
  );
  return { platform, user: userEvent.setup() };
}

beforeEach(() => {
  token = 'token-1';
  access.refresh.mockClear();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('linked phones in settings', () => {
  it('lists the approved phones with their details and methods, not unfinished links', async () => {
    mount([baseDevice, { ...baseDevice, id: 2, name: 'Unfinished', status: 'pending' }, { ...baseDevice, id: 3, name: 'iPhone', type: 'ios', location: null, lastActivityAt: null, approveMethodIds: [1] }]);
    const list = await screen.findByRole('list', { name: /linked phones/i });
    const items = within(list).getAllByRole('listitem');
    expect(items.map((i) => within(i).getByRole('heading').textContent)).toEqual(['Pixel', 'iPhone']);
    const pixel = items[0] as HTMLElement;
    expect(within(pixel).getByText('Android')).toBeTruthy();
    expect(within(pixel).getByText('Lithuania')).toBeTruthy();
    expect(within(pixel).getByText(/2026/)).toBeTruthy();
    expect((await within(pixel).findByRole('checkbox', { name: /approve sign-ins/i }) as HTMLInputElement).checked).toBe(true);
    const iphone = items[1] as HTMLElement;
    expect(within(iphone).getByText('iPhone', { selector: 'dd' })).toBeTruthy();
    expect(within(iphone).getByText('Never')).toBeTruthy();
    expect((within(iphone).getByRole('checkbox', { name: /two-step/i }) as HTMLInputElement).checked).toBe(false);
  });

  it('says so when no phone is linked', async () => {
    mount([]);
    expect(await screen.findByText(/no phone is linked yet/i)).toBeTruthy();
  });

  it('turns an approval method off with PATCH and shows the platform state', async () => {
    const { platform, user } = mount([{ ...baseDevice }]);
    const box = (await screen.findByRole('checkbox', { name: /two-step/i })) as HTMLInputElement;
    await user.click(box);
    await waitFor(() => expect(platform.calls.some((c) => c.method === 'PATCH')).toBe(true));
    const patch = platform.calls.find((c) => c.method === 'PATCH');
    expect(patch).toMatchObject({ path: '/auth/devices/1/approve/2', body: { enabled: false }, auth: 'Bearer token-1' });
    await waitFor(() => expect((screen.getByRole('checkbox', { name: /two-step/i }) as HTMLInputElement).checked).toBe(false));
  });

  it('unlinks only after confirmation, then the list refreshes', async () => {
    const { platform, user } = mount([{ ...baseDevice }]);
    await user.click(await screen.findByRole('button', { name: /unlink pixel/i }));
    const dialog = await screen.findByRole('dialog', { name: /unlink this phone/i });
    await user.click(within(dialog).getByRole('button', { name: /cancel/i }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(platform.calls.some((c) => c.method === 'DELETE')).toBe(false);

    await user.click(screen.getByRole('button', { name: /unlink pixel/i }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: /^unlink$/i }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(platform.calls.find((c) => c.method === 'DELETE')?.path).toBe('/auth/devices/1');
    expect(await screen.findByText(/no phone is linked yet/i)).toBeTruthy();
  });

  it('keeps the only sign-in phone when the platform refuses, and says what to do instead', async () => {
    const { platform, user } = mount([{ ...baseDevice }], undefined, { keepLastSignInPhone: true });
    await user.click(await screen.findByRole('button', { name: /unlink pixel/i }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: /^unlink$/i }));
    // the dialog closes so the reason is read in the page, and the phone is still listed
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect((await screen.findByRole('alert')).textContent).toMatch(/only phone that approves your sign-ins\. Choose another two-step verification method first/);
    expect(screen.getByRole('heading', { name: 'Pixel' })).toBeTruthy();
    expect(platform.calls.filter((c) => c.method === 'DELETE')).toHaveLength(1);

    // switching off its sign-in approval is refused alike
    await user.click(screen.getByRole('checkbox', { name: /approve sign-ins/i }));
    await waitFor(() => expect(platform.calls.some((c) => c.method === 'PATCH')).toBe(true));
    await waitFor(() => expect((screen.getByRole('checkbox', { name: /approve sign-ins/i }) as HTMLInputElement).checked).toBe(true));
    expect(screen.getByRole('alert').textContent).toMatch(/only phone that approves your sign-ins/);
  });

  it('refreshes the session once on a 401 and replays the call', async () => {
    token = 'old-token';
    const platform = fakePlatform([{ ...baseDevice }]);
    platform.expire();
    vi.stubGlobal('fetch', platform.fetchFn);
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <I18nProvider i18n={i18n}>
        <QueryClientProvider client={queryClient}>
          <LinkedDevicesSection access={access} />
        </QueryClientProvider>
      </I18nProvider>,
    );
    expect(await screen.findByRole('heading', { name: 'Pixel' })).toBeTruthy();
    expect(access.refresh).toHaveBeenCalled();
    expect(platform.calls.filter((c) => c.path === '/auth/devices').map((c) => c.auth)).toEqual(['Bearer old-token', 'Bearer token-2']);
  });

  it('links a phone in a dialog and refreshes the list when it is linked', async () => {
    const devices = [{ ...baseDevice }];
    let sendBack: ((e: LinkDeviceEvent) => void) | null = null;
    const logic = linkDeviceMachine.provide({
      actors: {
        startLink: fromPromise<StartLinkResult>(async () => ({ ok: true, link: { deviceId: 9, code: 'KX7P9QMA', link: 'http://bank.test/device/#link=9.KX7P9QMA', expiresInS: 600 } })),
        waitForLink: fromCallback(({ sendBack: send }) => {
          sendBack = send;
          return () => undefined;
        }),
        expiryTimer: fromCallback(() => () => undefined),
      },
    });
    const { platform, user } = mount(devices, logic);
    await screen.findByRole('heading', { name: 'Pixel' });
    await user.click(screen.getByRole('button', { name: /link a phone/i }));
    const dialog = await screen.findByRole('dialog', { name: /link a phone/i });
    expect(await within(dialog).findByRole('img', { name: /qr code/i })).toBeTruthy();
    expect(within(dialog).getByText('9-KX7P9QMA')).toBeTruthy();
    const listCalls = platform.calls.filter((c) => c.path === '/auth/devices' && c.method === 'GET').length;
    devices.push({ ...baseDevice, id: 9, name: 'Galaxy' });
    await act(async () => sendBack?.({ type: 'DEVICE.LINKED', deviceId: 9 }));
    expect(await within(dialog).findByText(/phone linked/i)).toBeTruthy();
    expect(await screen.findByRole('heading', { name: 'Galaxy' })).toBeTruthy();
    expect(platform.calls.filter((c) => c.path === '/auth/devices' && c.method === 'GET').length).toBeGreaterThan(listCalls);
  });
});

describe('/scp and /scp-mobile', () => {
  const scpLogic = (sent: LinkDeviceEvent[] = []) => {
    let send: ((e: LinkDeviceEvent) => void) | null = null;
    const logic = linkDeviceMachine.provide({
      actors: {
        startLink: fromPromise<StartLinkResult>(async () => ({ ok: true, link: { deviceId: 5, code: 'ABCD2345', link: 'http://bank.test/scp-mobile#link=5.ABCD2345', expiresInS: 600 } })),
        sendSms: fromPromise<SendSmsResult, { phoneNumber: string }>(async ({ input }) => {
          sent.push({ type: 'SMS.SEND', phoneNumber: input.phoneNumber });
          return { ok: true };
        }),
        waitForLink: fromCallback(({ sendBack }) => {
          send = sendBack;
          return () => undefined;
        }),
        expiryTimer: fromCallback(() => () => undefined),
      },
    });
    return { logic, linked: () => send?.({ type: 'DEVICE.LINKED', deviceId: 5 }) };
  };

  it('soft: shows the days left and lets the user postpone', async () => {
    const continued: string[] = [];
    const { logic } = scpLogic();
    render(
      <I18nProvider i18n={i18n}>
        <ScpView migration={{ requirement: 'soft', daysLeft: 3, strategy: 'migrate' }} access={access} linkLogic={logic} onContinue={(r) => continued.push(r)} />
      </I18nProvider>,
    );
    expect(await screen.findByText(/3 days left/i)).toBeTruthy();
    expect(await screen.findByRole('img', { name: /qr code/i })).toBeTruthy();
    await userEvent.setup().click(screen.getByRole('button', { name: /not now/i }));
    expect(continued).toEqual(['postponed']);
  });

  it('strict: no way round, sends the link by SMS, continues once linked', async () => {
    const continued: string[] = [];
    const sent: LinkDeviceEvent[] = [];
    const { logic, linked } = scpLogic(sent);
    const user = userEvent.setup();
    render(
      <I18nProvider i18n={i18n}>
        <ScpView migration={{ requirement: 'strict', strategy: 'enable' }} access={access} linkLogic={logic} onContinue={(r) => continued.push(r)} />
      </I18nProvider>,
    );
    expect(await screen.findByText(/link a phone now to continue/i)).toBeTruthy();
    expect(screen.queryByRole('button', { name: /not now/i })).toBeNull();
    await user.type(await screen.findByLabelText(/phone number/i), '+370 600 00001');
    await user.click(screen.getByRole('button', { name: /send me the link by sms/i }));
    expect(await screen.findByText(/on its way/i)).toBeTruthy();
    expect(sent).toEqual([{ type: 'SMS.SEND', phoneNumber: '+370 600 00001' }]);
    await act(async () => linked());
    expect(continued).toEqual(['linked']);
  });

  it('/scp-mobile opens the companion with the same link', () => {
    render(
      <I18nProvider i18n={i18n}>
        <ScpMobileView hash="#link=5.ABCD2345" />
      </I18nProvider>,
    );
    expect(screen.getByRole('link', { name: /open the approval page/i }).getAttribute('href')).toBe('/device/#link=5.ABCD2345');
  });

  it('link codes: typed or scanned, only well-formed ones', () => {
    expect(parseLinkCode(' 42-kx7p 9qma ')).toEqual({ deviceId: 42, code: 'KX7P9QMA' });
    expect(parseLinkCode('422KX7P9QM')).toEqual({ deviceId: 42, code: '2KX7P9QM' });
    expect(parseLinkCode('42-KX7P')).toBeNull();
    expect(parseLinkCode('0-KX7P9QMA')).toBeNull();
    expect(parseCompanionHash('#link=42.KX7P9QMA')).toEqual({ kind: 'link', link: { deviceId: 42, code: 'KX7P9QMA' } });
    expect(parseCompanionHash('#approve=abc_-1')).toEqual({ kind: 'approve', key: 'abc_-1' });
    expect(parseCompanionHash('#approve=<script>')).toEqual({ kind: 'none' });
    expect(parseCompanionHash(`#link=${'1'.repeat(300)}`)).toEqual({ kind: 'none' });
  });
});
