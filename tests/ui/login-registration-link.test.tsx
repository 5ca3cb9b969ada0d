/**
 * The sign-in page links to registration only where the variant lets people register online
 * (variant.registration.allowRegistration; /register itself sends everyone back to /login where it
 * does not, src/routes/_external/register.tsx).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { I18nProvider } from '@lingui/react';
import { createActor, fromPromise } from 'xstate';
import { sessionMachine, type RefreshResult } from '../../machines/session/session.machine.ts';
import { LoginView } from '../../src/features/auth/login-view.tsx';
import { i18n } from '../../src/lib/i18n.ts';

afterEach(cleanup);

function mount(allowRegistration: boolean | undefined) {
  const session = createActor(
    sessionMachine.provide({
      actors: {
        refreshTokens: fromPromise<RefreshResult, { refreshToken: string }>(() => new Promise(() => undefined)),
        revokeSession: fromPromise<void, { refreshToken: string | null }>(async () => undefined),
      },
    }),
    { input: {} },
  ).start();
  render(
    <I18nProvider i18n={i18n}>
      <LoginView session={session} allowRegistration={allowRegistration} />
    </I18nProvider>,
  );
  return session;
}

describe('sign-in page: the registration link', () => {
  it('links to /register when the variant allows registration', async () => {
    const session = mount(true);
    const link = await screen.findByRole('link', { name: 'Open an account' });
    expect(link.getAttribute('href')).toBe('/register');
    expect(link.closest('p')!.textContent).toBe('New here? Open an account');
    session.stop();
  });

  it('has no such link otherwise (the default)', async () => {
    const session = mount(undefined);
    await screen.findByRole('link', { name: 'Forgot password?' });
    expect(screen.queryByRole('link', { name: 'Open an account' })).toBeNull();
    session.stop();
    cleanup();
    mount(false);
    await screen.findByRole('link', { name: 'Forgot password?' });
    expect(screen.queryByRole('link', { name: 'Open an account' })).toBeNull();
  });
});
