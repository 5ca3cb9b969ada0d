/**
 * The Demo bar (src/ui/demo-banner.tsx): on every page when the platform marks the HTML as demo
 * mode (the same meta elements server/modules/platform/static.ts writes), absent otherwise.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import { createMemoryHistory } from '@tanstack/react-router';
import { DEMO_META, DEV_MAILBOX_META } from '../../server/modules/platform/static.ts';
import { AppRoot } from '../../src/app/app-root.tsx';
import { createAppQueryClient } from '../../src/app/query-client.ts';
import { createAppRouter } from '../../src/app/router.ts';
import { createSessionActor, sessionRequestHooks, type SessionActor } from '../../src/features/auth/session-actor.ts';
import { readDemoMarks } from '../../src/lib/demo-mode.ts';
import { activateUiLanguage } from '../../src/lib/i18n.ts';
import { configureRequest, setFetchForTests } from '../../src/lib/request.ts';
import { expectNoAxeViolations } from './axe.ts';

let session: SessionActor | null = null;

function markDocument(html: string): void {
  for (const meta of document.head.querySelectorAll('meta[name^="wlb-"]')) meta.remove();
  document.head.insertAdjacentHTML('beforeend', html);
}

function renderAt(path: string) {
  const client = createAppQueryClient();
  session = createSessionActor({ clearCaches: () => client.clear() });
  configureRequest(sessionRequestHooks(session));
  const router = createAppRouter({ session, queryClient: client }, createMemoryHistory({ initialEntries: [path] }));
  render(<AppRoot router={router} queryClient={client} />);
}

beforeEach(() => {
  sessionStorage.clear();
  setFetchForTests(async () => new Response(JSON.stringify({ responseCode: 'IM' }), { status: 200, headers: { 'Content-Type': 'application/json' } }));
});
afterEach(async () => {
  markDocument('');
  session?.stop();
  session = null;
  setFetchForTests(null);
  await activateUiLanguage('en');
});

describe('readDemoMarks', () => {
  it('reads the platform\'s marks', () => {
    markDocument(DEMO_META + DEV_MAILBOX_META);
    expect(readDemoMarks()).toEqual({ demo: true, mailboxPath: '/dev/mailbox' });
    markDocument(DEMO_META);
    expect(readDemoMarks()).toEqual({ demo: true, mailboxPath: null });
    markDocument('');
    expect(readDemoMarks()).toEqual({ demo: false, mailboxPath: null });
  });

  it('links to a path of this origin only', () => {
    markDocument(`${DEMO_META}<meta name="wlb-dev-mailbox" content="//evil.test/x">`);
    expect(readDemoMarks().mailboxPath).toBeNull();
    markDocument(`${DEMO_META}<meta name="wlb-dev-mailbox" content="https://evil.test/x">`);
    expect(readDemoMarks().mailboxPath).toBeNull();
  });
});

describe('the Demo bar', () => {
  it('is not shown outside demo mode', async () => {
    renderAt('/login');
    await screen.findByRole('main');
    expect(screen.queryByRole('complementary', { name: 'Demo' })).toBeNull();
  });

  it('says "Demo" on the sign-in page and links to the mailbox in a new tab', async () => {
    markDocument(DEMO_META + DEV_MAILBOX_META);
    renderAt('/login');
    await screen.findByRole('main');
    const bar = screen.getByRole('complementary', { name: 'Demo' });
    expect(bar.textContent).toContain('Demo Test data only: do not enter real details.');
    const link = within(bar).getByRole('link', { name: 'Mail and SMS (opens in a new tab)' });
    expect(link.getAttribute('href')).toBe('/dev/mailbox');
    expect(link.getAttribute('target')).toBe('_blank');
    await expectNoAxeViolations('the sign-in page in demo mode');
  });

  it('is on the 404 page too, in the UI language', async () => {
    markDocument(DEMO_META);
    await activateUiLanguage('uk');
    renderAt('/no-such-page');
    const bar = await screen.findByRole('complementary', { name: 'Демо' });
    expect(bar.textContent).toContain('Лише тестові дані');
    expect(within(bar).queryByRole('link')).toBeNull();
  });
});
