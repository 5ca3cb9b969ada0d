/**
 * Issue 14 item 3: every actor the app starts goes through src/lib/actors.ts, which attaches the
 * inspector. Proven on the sign-in view (a flow's useFlowActor) and on startActor (the session's):
 * - an inspector passed in receives the flow's events, its invoked actor included;
 * - without `?inspect` in the address no inspector is created and nothing is reported;
 * - with `?inspect` (tests run in development mode) the Stately browser inspector is created once,
 *   shared, and the flow's actor reports to it. @statelyai/inspect is replaced by a double here:
 *   the real one opens a window.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nProvider } from '@lingui/react';
import { fromCallback, fromPromise, type InspectionEvent } from 'xstate';
import { loginMachine, type ApprovalChannelInput, type LoginEvent, type SignInResult } from '../../machines/login/login.machine.ts';
import { sessionMachine, type RefreshResult } from '../../machines/session/session.machine.ts';
import { LoginView } from '../../src/features/auth/login-view.tsx';
import { setSharedInspect, startActor } from '../../src/lib/actors.ts';
import { createDevInspector, installDevInspector } from '../../src/app/inspector.ts';
import { i18n } from '../../src/lib/i18n.ts';
import { EVENTS_KEPT, InspectorStore, valueText } from '../../src/app/local-inspector/store.ts';
import { contextText } from '../../src/app/local-inspector/panel.tsx';
import { expectNoAxeViolations } from './axe.ts';

const browser = vi.hoisted(() => ({ created: 0, received: [] as InspectionEvent[] }));
vi.mock('@statelyai/inspect', () => ({
  createBrowserInspector: () => {
    browser.created++;
    return { inspect: { next: (e: InspectionEvent) => void browser.received.push(e) } };
  },
}));

afterEach(() => {
  setSharedInspect(undefined);
  window.history.replaceState(null, '', '/');
});

const testSession = () =>
  startActor(
    sessionMachine.provide({
      actors: {
        refreshTokens: fromPromise<RefreshResult, { refreshToken: string }>(() => new Promise(() => undefined)),
        revokeSession: fromPromise<void, { refreshToken: string | null }>(async () => undefined),
      },
    }),
    { input: {} },
  ).start();

// the sign-in answer never comes: the flow stays in signingIn, its invoked actor running
const testLogin = loginMachine.provide({
  actors: {
    signIn: fromPromise<SignInResult, { username: string; password: string }>(() => new Promise(() => undefined)),
    approvalChannel: fromCallback<LoginEvent, ApprovalChannelInput>(() => undefined),
  },
});

/** Opens the sign-in view and submits the credentials. */
async function signInThroughTheView() {
  const session = testSession();
  const user = userEvent.setup();
  render(
    <I18nProvider i18n={i18n}>
      <LoginView session={session} logic={testLogin} />
    </I18nProvider>,
  );
  await user.type(await screen.findByLabelText(/e-mail address/i), 'anna@demo.test');
  await user.type(screen.getByLabelText(/^password/i), 'Demo-Pass-2026');
  await user.click(screen.getByRole('button', { name: /^sign in$/i }));
  await waitFor(() => expect(screen.getByRole('button', { name: /^sign in$/i }).getAttribute('aria-busy')).toBe('true'));
  return session;
}

const logicIdOf = (e: InspectionEvent) => (e.actorRef as unknown as { logic: { id?: string } }).logic.id;
const eventsOf = (events: InspectionEvent[], machineId: string) =>
  events.filter((e) => e.type === '@xstate.event' && logicIdOf(e) === machineId).map((e) => (e as { event: { type: string } }).event.type);

describe('the inspector on every actor (src/lib/actors.ts)', () => {
  it("reports a flow view's actor and its events to the inspector passed in", async () => {
    const seen: InspectionEvent[] = [];
    setSharedInspect((e) => void seen.push(e));
    const session = await signInThroughTheView();

    // the login flow's actor was created, received the submit and went to signingIn
    expect(seen.some((e) => e.type === '@xstate.actor' && logicIdOf(e) === 'login')).toBe(true);
    expect(eventsOf(seen, 'login')).toContain('CREDENTIALS.SUBMIT');
    const snapshots = seen.filter((e) => e.type === '@xstate.snapshot' && logicIdOf(e) === 'login');
    expect(snapshots.map((e) => (e as unknown as { snapshot: { value: unknown } }).snapshot.value)).toContain('signingIn');
    // the actor it invoked (the token service call) reports through the same inspector
    expect(seen.some((e) => e.type === '@xstate.actor' && (e.actorRef as unknown as { id: string }).id === 'signIn')).toBe(true);
    // and the session actor, started through startActor, too
    expect(seen.some((e) => e.type === '@xstate.actor' && logicIdOf(e) === 'session')).toBe(true);
    session.stop();
  });

  it('prefers an inspect function passed in the options to the shared one', () => {
    const shared: InspectionEvent[] = [];
    const own: InspectionEvent[] = [];
    setSharedInspect((e) => void shared.push(e));
    const session = startActor(sessionMachine, { input: {}, inspect: (e) => void own.push(e) }).start();
    session.stop();
    expect(own.length).toBeGreaterThan(0);
    expect(shared).toHaveLength(0);
  });

  it('attaches nothing without ?inspect in the address', async () => {
    window.history.replaceState(null, '', '/login');
    browser.created = 0;
    browser.received.length = 0;
    await installDevInspector();
    expect(await createDevInspector()).toBeUndefined();
    const session = await signInThroughTheView();
    expect(browser.created).toBe(0);
    expect(browser.received).toHaveLength(0);
    // the actors were started without an inspector
    expect((session as unknown as { options: { inspect?: unknown } }).options.inspect).toBeUndefined();
    session.stop();
  });

  it('with ?inspect in development: one browser inspector, shared, and the flow reports to it', async () => {
    window.history.replaceState(null, '', '/login?inspect');
    browser.created = 0;
    browser.received.length = 0;
    await installDevInspector();
    await installDevInspector();
    expect(await createDevInspector()).toBeTypeOf('function');
    expect(browser.created).toBe(1);
    const session = await signInThroughTheView();
    expect(eventsOf(browser.received, 'login')).toContain('CREDENTIALS.SUBMIT');
    expect(browser.received.some((e) => e.type === '@xstate.actor' && logicIdOf(e) === 'session')).toBe(true);
    session.stop();
  });
});

describe('the in-page inspector (?inspect=local, src/app/local-inspector/)', () => {
  it('with ?inspect=local: no Stately window; a panel lists the flow, draws its chart with the state it is in, and its events', async () => {
    window.history.replaceState(null, '', '/login?inspect=local');
    browser.created = 0;
    await installDevInspector();
    expect(browser.created).toBe(0);
    const toggle = await screen.findByRole('button', { name: /statecharts · \d+ running/i });
    const session = await signInThroughTheView();
    const user = userEvent.setup();
    await user.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    const drawer = screen.getByRole('region', { name: /^statecharts$/i });
    // both machines are listed; the flow started last is shown
    expect(within(drawer).getByRole('button', { name: /^session/ })).toBeTruthy();
    const login = within(drawer).getByRole('button', { name: /^login signingIn active$/ });
    expect(login.getAttribute('aria-pressed')).toBe('true');
    const chart = await within(drawer).findByRole('region', { name: 'The login chart' });
    await waitFor(() => expect(chart.querySelector('g.state.active[data-state-id="login.signingIn"]')).not.toBeNull());
    expect(chart.querySelector('g.state.active[data-state-id="login.editing"]')).toBeNull();
    // the submit's labels are marked as the event taken last, and listed with the state it led to
    expect(chart.querySelectorAll('g.edge-label.last[data-transition*="|CREDENTIALS.SUBMIT|"]').length).toBeGreaterThan(0);
    expect(drawer.querySelector('.dev-inspector-events li')?.textContent).toMatch(/^CREDENTIALS\.SUBMIT → signingIn \d\d:\d\d:\d\d$/);
    // the password typed is nowhere in the panel
    expect(drawer.textContent).not.toContain('Demo-Pass-2026');
    await expectNoAxeViolations('the in-page inspector, open', document.body);

    // choosing the session shows its chart instead
    await user.click(within(drawer).getByRole('button', { name: /^session/ }));
    expect(await within(drawer).findByRole('region', { name: 'The session chart' })).toBeTruthy();
    session.stop();
    document.querySelector('.dev-inspector-host')?.remove();
  });

  it('masks secrets in a context and names actors instead of expanding them', () => {
    const actor = startActor(sessionMachine, { input: {} });
    const text = contextText({ username: 'anna@demo.test', password: 'pw', tokens: { accessToken: 'a', refreshToken: 'r' }, otpCode: '123456', child: actor, empty: '' });
    expect(text).toContain('anna@demo.test');
    for (const secret of ['"pw"', '"a"', '"r"', '123456']) expect(text).not.toContain(secret);
    expect(text).toContain('"tokens": "•••"');
    expect(text).toContain('[actor ');
    expect(text).toContain('"empty": ""');
  });

  it('keeps the newest events first and at most EVENTS_KEPT of them', () => {
    const store = new InspectorStore();
    const actor = startActor(sessionMachine, { input: {}, inspect: store.inspect }).start();
    for (let i = 0; i < EVENTS_KEPT + 5; i++) actor.send({ type: 'USER.ACTIVITY' } as never);
    const [entry] = store.getActors();
    expect(entry?.machine.id).toBe('session');
    expect(entry?.events).toHaveLength(EVENTS_KEPT);
    expect(entry?.events[0]?.type).toBe('USER.ACTIVITY');
    expect(valueText({ a: { b: 'c' } })).toBe('a.b.c');
    expect(valueText({ form: 'editing', fee: 'waiting' })).toBe('{form: editing, fee: waiting}');
    actor.stop();
  });
});
