/**
 * The verification status banner outside the statechart's paths: where it is hidden (login-type
 * routes and the SCP enable route, document 1 §2), and useVerificationStatus (the hook the app
 * shell will mount with the real userStatusGet): hidden until the answer, then the banner, and a
 * refresh that changes it. The banner's link is the router's Link, so the banner renders in a
 * memory router here; following the link (a click, or Enter from the keyboard) changes the route
 * without a page load.
 */
import { describe, expect, it } from 'vitest';
import type { ReactNode } from 'react';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryHistory, createRootRoute, createRoute, createRouter, Outlet, RouterProvider } from '@tanstack/react-router';
import { I18nProvider } from '@lingui/react';
import { createActor, fromPromise } from 'xstate';
import type { VerificationInputs } from '../../api/verification.ts';
import { verificationStatusMachine, type LoadStatusResult } from '../../machines/verification-status/verification-status.machine.ts';
import { bannerHiddenOn } from '../../src/features/verification/banner-routes.ts';
import { StatusBanner } from '../../src/features/verification/status-banner.tsx';
import { useVerificationStatus } from '../../src/features/verification/use-verification-status.ts';
import { i18n } from '../../src/lib/i18n.ts';
import { Deferred } from '../model/support.ts';
import { verifiedInputs } from '../verification-inputs.ts';

const checked: VerificationInputs = verifiedInputs;
/** an unconfirmed phone and no address: two required actions */
const twoActions: VerificationInputs = { ...checked, phoneConfirmed: false, address: 'missing' };

describe('bannerHiddenOn', () => {
  it.each([
    '/login',
    '/login/',
    '/register',
    '/register/personal',
    '/register/business',
    '/activate',
    '/account-recovery/email',
    '/receive/7f3a',
    '/video-identity-job/12',
    '/identity-verification/run-1/token-1',
    '/scp-mobile',
    '/self-certification-representative',
    '/scp',
  ])('hidden on %s', (path) => {
    expect(bannerHiddenOn(path)).toBe(true);
  });
  it.each(['/', '/home', '/profile', '/limited-account', '/history', '/settings', '/scpx', '/loginhistory', '/login-history', '/transfer/p2p'])('shown on %s', (path) => {
    expect(bannerHiddenOn(path)).toBe(false);
  });
});

/** A memory router at `pathname` rendering `banner` above the page (the pages the links lead to are headings). */
function inRouter(pathname: string, banner: () => ReactNode) {
  const root = createRootRoute({
    component: () => (
      <>
        {banner()}
        <Outlet />
      </>
    ),
  });
  const page = (path: string, title: string) => createRoute({ getParentRoute: () => root, path, component: () => <h1>{title}</h1> });
  const router = createRouter({
    routeTree: root.addChildren([page('/home', 'Home page'), page('/profile', 'Profile page'), page('/limited-account', 'Limited account page'), page('/login', 'Login page'), page('/scp', 'SCP page'), page('/register/personal', 'Registration page')]),
    history: createMemoryHistory({ initialEntries: [pathname] }),
  });
  return { router, element: <RouterProvider router={router} /> };
}

function renderBanner(pathname: string, inputs: VerificationInputs) {
  const actor = createActor(verificationStatusMachine.provide({ actors: { loadStatus: fromPromise<LoadStatusResult>(async () => ({ ok: true, inputs })) } })).start();
  const { router, element } = inRouter(pathname, () => <StatusBanner actor={actor} pathname={router.state.location.pathname} />);
  render(<I18nProvider i18n={i18n}>{element}</I18nProvider>);
  return { actor, router };
}

describe('StatusBanner routes', () => {
  it('warns on a signed-in page', async () => {
    const { actor } = renderBanner('/home', twoActions);
    expect(await screen.findByRole('status')).toBeTruthy();
    expect(screen.getByText('2 actions required')).toBeTruthy();
    actor.stop();
  });

  it('lists each required action by name, each linking to its place on the profile', async () => {
    const user = userEvent.setup();
    const { actor, router } = renderBanner('/home', twoActions);
    const banner = await screen.findByRole('status');
    const items = within(banner).getAllByRole('listitem');
    expect(items.map((li) => li.textContent)).toEqual(['Add your full home address', 'Confirm your phone number']);
    const phone = within(banner).getByRole('link', { name: 'Confirm your phone number' });
    expect(phone.getAttribute('href')).toBe('/profile#phones');
    expect(within(banner).getByRole('link', { name: 'Add your full home address' }).getAttribute('href')).toBe('/profile#address');
    await user.click(phone);
    await screen.findByRole('heading', { name: 'Profile page' });
    expect(router.state.location.hash).toBe('phones');
    actor.stop();
  });

  it('follows its link within the app: a click, or Enter from the keyboard', async () => {
    const user = userEvent.setup();
    const { actor, router } = renderBanner('/home', twoActions);
    await screen.findByRole('heading', { name: 'Home page' });
    // the router's own navigation (a plain anchor would leave the route as it is: jsdom loads no page)
    const link = await screen.findByRole('link', { name: 'Go to your profile' });
    expect(link.getAttribute('href')).toBe('/profile');
    await user.click(link);
    await screen.findByRole('heading', { name: 'Profile page' });
    expect(router.state.location.pathname).toBe('/profile');

    await act(async () => router.navigate({ to: '/home' }));
    await screen.findByRole('heading', { name: 'Home page' });
    // from the start of the page (the click left focus on the link)
    act(() => (document.activeElement as HTMLElement | null)?.blur());
    // past the two listed actions to the general link
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('link', { name: 'Add your full home address' }));
    await user.tab();
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('link', { name: 'Go to your profile' }));
    await user.keyboard('{Enter}');
    await screen.findByRole('heading', { name: 'Profile page' });
    expect(router.state.location.pathname).toBe('/profile');
    actor.stop();
  });

  it('links a limited account to /limited-account', async () => {
    const user = userEvent.setup();
    const limited: VerificationInputs = {
      ...checked,
      limited: true,
      limitReasons: [{ actionTypeId: 1, reason: 'expiredDocuments', requirementDocuments: [{ documentTypeId: 1, uploadedDocuments: [] }] }],
    };
    const { actor, router } = renderBanner('/home', limited);
    const link = await screen.findByRole('link', { name: 'See what is needed' });
    expect(link.getAttribute('href')).toBe('/limited-account');
    await user.click(link);
    await screen.findByRole('heading', { name: 'Limited account page' });
    expect(router.state.location.pathname).toBe('/limited-account');
    actor.stop();
  });

  it.each(['/login', '/scp', '/register/personal'])('is hidden on %s with the same status', async (path) => {
    const { actor } = renderBanner(path, twoActions);
    await screen.findByRole('heading', { name: /page$/ });
    await waitFor(() => expect(actor.getSnapshot().matches({ known: 'hasRequiredActions' })).toBe(true));
    expect(screen.queryByRole('status')).toBeNull();
    expect(screen.queryByText(/actions required/)).toBeNull();
    actor.stop();
  });
});

describe('useVerificationStatus', () => {
  function Shell({ loadStatus, onReady }: { loadStatus: () => Promise<LoadStatusResult>; onReady(refresh: () => void): void }) {
    const { actor, refresh } = useVerificationStatus(loadStatus);
    onReady(refresh);
    return <StatusBanner actor={actor} pathname="/home" />;
  }

  it('is hidden until the answer, shows the banner, and a refresh replaces it', async () => {
    const answers = [new Deferred<LoadStatusResult>(), new Deferred<LoadStatusResult>()];
    let calls = 0;
    let refresh: () => void = () => undefined;
    const { element } = inRouter('/home', () => <Shell loadStatus={() => answers[calls++]!.promise} onReady={(r) => (refresh = r)} />);
    render(<I18nProvider i18n={i18n}>{element}</I18nProvider>);
    await waitFor(() => expect(calls).toBe(1));
    expect(screen.queryByRole('status')).toBeNull();
    await act(async () => answers[0]!.resolve({ ok: true, inputs: twoActions }));
    expect(await screen.findByText('2 actions required')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to your profile' }).getAttribute('href')).toBe('/profile');
    // the phone is confirmed and the address entered: the shell refreshes after the change
    act(() => refresh());
    await waitFor(() => expect(calls).toBe(2));
    expect(screen.getByText('2 actions required')).toBeTruthy();
    await act(async () => answers[1]!.resolve({ ok: true, inputs: checked }));
    await waitFor(() => expect(screen.queryByRole('status')).toBeNull());
  });
});
