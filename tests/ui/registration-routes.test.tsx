/**
 * The registration and activation routes through the real router: the allowRegistration guard,
 * the type chooser, and the query actions on an external page (the authentication secret is
 * cleared; success leads to a clean /login). Named methods answer from a fetch double.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryHistory } from '@tanstack/react-router';
import { activeVariant } from '../../variants/index.ts';
import { AppRoot } from '../../src/app/app-root.tsx';
import { createAppQueryClient } from '../../src/app/query-client.ts';
import { createAppRouter } from '../../src/app/router.ts';
import { createSessionActor, sessionRequestHooks, type SessionActor } from '../../src/features/auth/session-actor.ts';
import { configureRequest, setFetchForTests } from '../../src/lib/request.ts';
import { clearToasts, getToasts as toasts } from '../../src/lib/notify.ts';
import { methodBody } from './method-body.ts';

type Handler = (body: Record<string, unknown>) => unknown;
let handlers: Record<string, Handler>;
let calls: { name: string; body: Record<string, unknown> }[];
let session: SessionActor | null = null;
const allowRegistration = activeVariant.registration.allowRegistration;

beforeEach(() => {
  sessionStorage.clear();
  clearToasts();
  calls = [];
  handlers = {
    dictionaries: () => ({ responseCode: 'IM' }),
    activateAccount: () => ({ responseCode: '00' }),
    businessAccountActivate: () => ({ responseCode: '00' }),
  };
  setFetchForTests(async (input, init) => {
    const url = new URL(String(input), 'http://localhost');
    const name = decodeURIComponent(url.search.slice(1));
    const body = methodBody(name, init);
    calls.push({ name, body });
    const handler = handlers[name];
    return new Response(JSON.stringify(handler ? handler(body) : { responseCode: 'IM' }), { status: 200, headers: { 'Content-Type': 'application/json' } });
  });
});

afterEach(() => {
  session?.stop();
  session = null;
  setFetchForTests(null);
  (activeVariant.registration as { allowRegistration: boolean }).allowRegistration = allowRegistration;
});

function renderApp(path: string) {
  const queryClient = createAppQueryClient();
  session = createSessionActor({ clearCaches: () => queryClient.clear() });
  configureRequest(sessionRequestHooks(session));
  const history = createMemoryHistory({ initialEntries: [path] });
  const router = createAppRouter({ session, queryClient }, history);
  render(<AppRoot router={router} queryClient={queryClient} />);
  return { router, history };
}

describe('registration routes', () => {
  it('/register offers personal and business accounts', async () => {
    renderApp('/register');
    await screen.findByRole('heading', { name: /open an account/i }, { timeout: 10_000 });
    expect(screen.getByRole('link', { name: /personal account/i }).getAttribute('href')).toBe('/register/personal');
    expect(screen.getByRole('link', { name: /business account/i }).getAttribute('href')).toBe('/register/business');
  });

  it('/register/business opens the wizard, which loads the business dictionaries first (document 3 §2)', async () => {
    renderApp('/register/business');
    await screen.findByRole('heading', { name: /register a business/i }, { timeout: 10_000 });
    const wanted = ['dictionaryBusinessPurposeOfAccount', 'dictionaryBusinessSourceOfFunds', 'dictionaryIndustry', 'dictionaryBusinessAdditionalQuestion'];
    await waitFor(() => expect(wanted.filter((name) => !calls.some((c) => c.name === name))).toEqual([]));
    // nothing of the draft is asked before them (no e-mail is known yet)
    expect(calls.some((c) => c.name.startsWith('businessRegistrationDraft'))).toBe(false);
  });

  it.each(['/register', '/register/personal', '/register/business'])('with allowRegistration false, %s goes to login', async (path) => {
    (activeVariant.registration as { allowRegistration: boolean }).allowRegistration = false;
    const { router } = renderApp(path);
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
  });
});

describe('query actions on an external page', () => {
  it('activation: clears the authentication secret, activates, then goes to a clean /login', async () => {
    sessionStorage.setItem('authSecret', 'left-over');
    const { router } = renderApp('/login?action=activation&user=Ana%40Example.test&code=abcd-efgh');
    await screen.findByRole('heading', { name: /your account is activated/i }, { timeout: 10_000 });
    expect(sessionStorage.getItem('authSecret')).toBeNull();
    expect(calls.find((c) => c.name === 'activateAccount')?.body).toMatchObject({ username: 'ana@example.test', activationCode: 'ABCDEFGH' });
    await userEvent.click(screen.getByRole('button', { name: /sign in/i }));
    await waitFor(() => expect(router.state.location.href).toBe('/login'));
    // login with a notice
    expect(toasts().some((t) => t.title === 'Account activated')).toBe(true);
  });

  it('activationBusiness: says the authorised users will now receive activation links', async () => {
    renderApp('/login?action=activationBusiness&email=owner%40example.test&code=ABCDEFGH');
    await screen.findByRole('heading', { name: /your business account is activated/i }, { timeout: 10_000 });
    expect(screen.getByText(/authorised users of your company will now receive activation links/i)).toBeTruthy();
    expect(calls.find((c) => c.name === 'businessAccountActivate')?.body).toMatchObject({ email: 'owner@example.test', activationCode: 'ABCDEFGH' });
  });

  it('activationEmployee: a popup asks for the new password over the page', async () => {
    renderApp('/login?action=activationEmployee&email=staff%40example.test&code=ABCDEFGH');
    const dialog = await screen.findByRole('dialog', { name: /activate your user/i }, { timeout: 10_000 });
    expect(within(dialog).getByLabelText('New password')).toBeTruthy();
    expect(calls.some((c) => c.name === 'employeeAccountActivate')).toBe(false);
  });

  it('/activate is prefilled from the query and a wrong code is explained', async () => {
    handlers.activateAccount = () => ({ responseCode: 'VF', validationErrors: [{ param: 'activationCode', description: 'is not correct' }] });
    renderApp('/activate?email=ana%40example.test&code=ABCDEFGH');
    await screen.findByRole('heading', { name: /^activate your account$/i }, { timeout: 10_000 });
    expect((screen.getByLabelText('E-mail address') as HTMLInputElement).value).toBe('ana@example.test');
    await userEvent.click(screen.getByRole('button', { name: /^activate$/i }));
    expect((await screen.findByRole('alert')).textContent).toMatch(/activation code is not correct/i);
  });
});
