/**
 * The /account-recovery routes through the real router: the index goes to the e-mail step, a
 * typed step URL is put right, the whole reset walks email -> reset -> password -> success with
 * the URL following the machine, and /status?taskId= reloads a task. Named methods answer from a
 * fetch double.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryHistory } from '@tanstack/react-router';
import { AppRoot } from '../../src/app/app-root.tsx';
import { createAppQueryClient } from '../../src/app/query-client.ts';
import { createAppRouter } from '../../src/app/router.ts';
import { createSessionActor, sessionRequestHooks, type SessionActor } from '../../src/features/auth/session-actor.ts';
import { configureRequest, setFetchForTests } from '../../src/lib/request.ts';
import { methodBody } from './method-body.ts';

type Handler = (body: Record<string, unknown>) => unknown;
let handlers: Record<string, Handler>;
let calls: { name: string; body: Record<string, unknown> }[];
let session: SessionActor | null = null;
const TASK_ID = '6f1c2a4e-5b7d-4e8f-9a0b-1c2d3e4f5a6b';

beforeEach(() => {
  sessionStorage.clear();
  calls = [];
  handlers = {
    passwordChangeRequest: () => ({ responseCode: '00', taskId: TASK_ID, recoveryEmail: 'b***@demo.test' }),
    passwordCodeCheck: () => ({ responseCode: '00' }),
    passwordChangeWithCode: () => ({ responseCode: '00' }),
    accountRecoveryStatus: () => ({
      responseCode: '00',
      taskId: TASK_ID,
      emailId: TASK_ID,
      email: 'b***@demo.test',
      recoveryEmail: 'b***@mail.test',
      verificationStatus: 'rejected',
      rejectReason: 'identityNotConfirmed',
      rejectComment: 'The selfie is blurred',
      isRetryable: true,
      documentsUploaded: true,
    }),
    accountRecoveryCancel: () => ({ responseCode: '00' }),
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
});

function renderApp(path: string) {
  const queryClient = createAppQueryClient();
  session = createSessionActor({ clearCaches: () => queryClient.clear() });
  configureRequest(sessionRequestHooks(session));
  const history = createMemoryHistory({ initialEntries: [path] });
  const router = createAppRouter({ session, queryClient }, history);
  render(<AppRoot router={router} queryClient={queryClient} />);
  return { router };
}

const fill = (label: RegExp, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });

describe('account recovery routes', () => {
  it('/account-recovery starts at the e-mail step, and a typed later step is put right', async () => {
    const { router } = renderApp('/account-recovery');
    await screen.findByRole('heading', { name: /reset your password/i }, { timeout: 10_000 });
    await waitFor(() => expect(router.state.location.pathname).toBe('/account-recovery/email'));
    await router.navigate({ to: '/account-recovery/password' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/account-recovery/email'));
    expect(screen.getByRole('heading', { name: /reset your password/i })).toBeTruthy();
  });

  it('walks e-mail, code, new password and success with the URL on each step', async () => {
    const user = userEvent.setup();
    const { router } = renderApp('/account-recovery/email');
    await screen.findByRole('heading', { name: /reset your password/i }, { timeout: 10_000 });
    fill(/^e-mail address$/i, 'boris@demo.test');
    await user.click(screen.getByRole('button', { name: /send code/i }));
    await screen.findByRole('heading', { name: /enter the code/i });
    await waitFor(() => expect(router.state.location.pathname).toBe('/account-recovery/reset'));
    fill(/code from the e-mail/i, 'abcd2345');
    await user.click(screen.getByRole('button', { name: /check code/i }));
    await screen.findByRole('heading', { name: /choose a new password/i });
    await waitFor(() => expect(router.state.location.pathname).toBe('/account-recovery/password'));
    fill(/^new password$/i, 'New-Pass-2027');
    fill(/repeat the new password/i, 'New-Pass-2027');
    await user.click(screen.getByRole('button', { name: /save the new password/i }));
    await screen.findByRole('heading', { name: /your password was changed/i });
    await waitFor(() => expect(router.state.location.pathname).toBe('/account-recovery/success'));
    expect(calls.filter((c) => c.name.startsWith('password')).map((c) => [c.name, c.body])).toEqual([
      ['passwordChangeRequest', { email: 'boris@demo.test' }],
      ['passwordCodeCheck', { email: 'boris@demo.test', code: 'ABCD2345' }],
      ['passwordChangeWithCode', { email: 'boris@demo.test', code: 'ABCD2345', password: 'New-Pass-2027' }],
    ]);
    await user.click(screen.getByRole('link', { name: /sign in/i }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
  });

  it('/account-recovery/status?taskId= reloads the task and offers a retry', async () => {
    const user = userEvent.setup();
    const { router } = renderApp(`/account-recovery/status?taskId=${TASK_ID}`);
    await screen.findByRole('heading', { name: /could not confirm your identity/i }, { timeout: 10_000 });
    expect(calls.find((c) => c.name === 'accountRecoveryStatus')?.body).toMatchObject({ taskId: TASK_ID });
    expect(router.state.location.pathname).toBe('/account-recovery/status');
    expect(router.state.location.search).toMatchObject({ taskId: TASK_ID });
    // the page's own button (a verification banner left by the shell on a loaded machine has one too)
    await user.click(screen.getAllByRole('button', { name: /try again/i }).find((b) => !b.closest('.verification-banner'))!);
    await screen.findByRole('heading', { name: /recover your account/i });
    await waitFor(() => expect(router.state.location.pathname).toBe('/account-recovery/email'));
  });

  it('/account-recovery/cancel?taskId=&code= is the owner\'s cancel page: the code from the link, one button', async () => {
    const user = userEvent.setup();
    const { router } = renderApp(`/account-recovery/cancel?taskId=${TASK_ID}&code=ABCD2345`);
    await screen.findByRole('heading', { name: /cancel the recovery of your account/i }, { timeout: 10_000 });
    expect((screen.getByLabelText(/cancel code from the e-mail/i) as HTMLInputElement).value).toBe('ABCD2345');
    await user.click(screen.getByRole('button', { name: /cancel the request/i }));
    await screen.findByRole('heading', { name: /the recovery request was canceled/i });
    expect(calls.find((c) => c.name === 'accountRecoveryCancel')?.body).toMatchObject({ taskId: TASK_ID, cancelCode: 'ABCD2345' });
    // the page stays: no step of the recovery chart takes the URL over
    expect(router.state.location.pathname).toBe('/account-recovery/cancel');
  });
});
