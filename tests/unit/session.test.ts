import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { readAccessExpiryMs, refreshDelayMs } from '../../machines/session/access-token.ts';
import { IDLE_GRACE_MS, IDLE_WARNING_AFTER_MS, sessionMachine, type RefreshResult } from '../../machines/session/session.machine.ts';
import { selectNeedsKyc, selectShowIdleWarning, selectStatus } from '../../machines/session/session.select.ts';
import { logout, sessionRequestHooks } from '../../src/features/auth/session-actor.ts';
import { AnswerQueue, makeAccessInfo, makeAccessToken, makeCustomer, makeTokens } from '../model/support.ts';

function start(opts: { restored?: Parameters<typeof createActor<typeof sessionMachine>>[1] } = {}) {
  const refreshes = new AnswerQueue<{ refreshToken: string }, RefreshResult>();
  const revokes = new AnswerQueue<{ refreshToken: string | null }, void>();
  const cleared: string[] = [];
  const machine = sessionMachine.provide({
    actors: {
      refreshTokens: fromPromise(({ input }) => refreshes.next(input)),
      revokeSession: fromPromise(({ input }) => revokes.next(input)),
    },
    actions: {
      clearStorage: () => void cleared.push('storage'),
      clearCaches: () => void cleared.push('caches'),
    },
  });
  const actor = createActor(machine, opts.restored ?? { input: {} });
  actor.start();
  return { actor, refreshes, revokes, cleared };
}

describe('access token expiry', () => {
  it('reads exp in milliseconds', () => {
    expect(readAccessExpiryMs(makeAccessToken(300, 1_000_000_000))).toBe((1_000_000 + 300) * 1000);
  });
  it.each(['', 'abc', 'a.b', 'a.!!.c', `a.${Buffer.from('{"exp":"soon"}').toString('base64url')}.c`, 'x'.repeat(9000)])(
    'refuses %j',
    (token) => expect(readAccessExpiryMs(token)).toBeNull(),
  );
  it('refreshes 10 s before expiry, never with a negative delay', () => {
    expect(refreshDelayMs(100_000, 0)).toBe(90_000);
    expect(refreshDelayMs(100_000, 95_000)).toBe(0);
  });
});

describe('session machine', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('signs in only with readable tokens', () => {
    const { actor } = start();
    actor.send({ type: 'SESSION.SIGN_IN', tokens: { accessToken: 'nope', refreshToken: 'r' } });
    expect(selectStatus(actor.getSnapshot())).toBe('signedOut');
    actor.send({ type: 'SESSION.SIGN_IN', tokens: makeTokens() });
    expect(selectStatus(actor.getSnapshot())).toBe('signedIn');
  });

  it('refreshes when 10 s remain, from the exp claim', async () => {
    const { actor, refreshes } = start();
    actor.send({ type: 'SESSION.SIGN_IN', tokens: makeTokens(300) });
    await vi.advanceTimersByTimeAsync(289_000);
    expect(refreshes.calls).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1_500);
    expect(refreshes.calls).toHaveLength(1);
    const next = makeTokens(300);
    refreshes.answer({ ok: true, tokens: next });
    await vi.advanceTimersByTimeAsync(0);
    expect(actor.getSnapshot().context.tokens).toEqual(next);
    expect(actor.getSnapshot().matches({ signedIn: { token: 'fresh' } })).toBe(true);
  });

  it('expires when the refresh fails, and clears storage and caches', async () => {
    const { actor, refreshes, cleared } = start();
    actor.send({ type: 'SESSION.SIGN_IN', tokens: makeTokens(300) });
    actor.send({ type: 'TOKEN.REFRESH' });
    refreshes.answer({ ok: false, code: 'rejected' });
    await vi.advanceTimersByTimeAsync(0);
    expect(selectStatus(actor.getSnapshot())).toBe('expired');
    expect(actor.getSnapshot().context.tokens).toBeNull();
    expect(cleared).toEqual(['storage', 'caches']);
  });

  it('warns at 14 idle minutes and expires at 15', async () => {
    const { actor, refreshes } = start();
    actor.send({ type: 'SESSION.SIGN_IN', tokens: makeTokens(3600) });
    await vi.advanceTimersByTimeAsync(IDLE_WARNING_AFTER_MS - 1);
    expect(selectShowIdleWarning(actor.getSnapshot())).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(selectShowIdleWarning(actor.getSnapshot())).toBe(true);
    await vi.advanceTimersByTimeAsync(IDLE_GRACE_MS);
    expect(selectStatus(actor.getSnapshot())).toBe('expired');
    expect(refreshes.calls).toHaveLength(0);
  });

  it('activity restarts the idle timer; STAY dismisses the warning', async () => {
    const { actor } = start();
    actor.send({ type: 'SESSION.SIGN_IN', tokens: makeTokens(3600) });
    await vi.advanceTimersByTimeAsync(IDLE_WARNING_AFTER_MS - 1000);
    actor.send({ type: 'USER.ACTIVITY' });
    await vi.advanceTimersByTimeAsync(IDLE_WARNING_AFTER_MS - 1000);
    expect(selectShowIdleWarning(actor.getSnapshot())).toBe(false);
    await vi.advanceTimersByTimeAsync(1000);
    expect(selectShowIdleWarning(actor.getSnapshot())).toBe(true);
    actor.send({ type: 'SESSION.STAY' });
    expect(selectShowIdleWarning(actor.getSnapshot())).toBe(false);
    expect(selectStatus(actor.getSnapshot())).toBe('signedIn');
  });

  it('restores a persisted session with its tokens, and nothing of a user without them', () => {
    const tokens = makeTokens(300);
    const { actor } = start({ restored: { input: { restored: { tokens, customer: makeCustomer(), actingCustomerId: 7 } } } });
    expect(selectStatus(actor.getSnapshot())).toBe('signedIn');
    expect(actor.getSnapshot().context.actingCustomerId).toBe(7);
    const { actor: other } = start({ restored: { input: { restored: { tokens: null, customer: makeCustomer(), rememberedPath: '/history' } } } });
    expect(selectStatus(other.getSnapshot())).toBe('signedOut');
    expect(other.getSnapshot().context.customer).toBeNull();
    expect(other.getSnapshot().context.rememberedPath).toBe('/history');
  });

  it('remembers only app paths', () => {
    const { actor } = start();
    for (const path of ['https://evil.example', '//evil.example', 'home', `/${'x'.repeat(3000)}`]) {
      actor.send({ type: 'PATH.REMEMBER', path });
      expect(actor.getSnapshot().context.rememberedPath).toBeNull();
    }
    actor.send({ type: 'PATH.REMEMBER', path: '/history?page=2' });
    expect(actor.getSnapshot().context.rememberedPath).toBe('/history?page=2');
  });

  it('needs KYC from the company acted for, else from the user', () => {
    const { actor } = start();
    actor.send({ type: 'SESSION.SIGN_IN', tokens: makeTokens() });
    actor.send({ type: 'CUSTOMER.LOADED', customer: makeCustomer({ isNeedKyc: true }) });
    expect(selectNeedsKyc(actor.getSnapshot())).toBe(true);
    actor.send({ type: 'ACCESS.LOADED', accessInfo: makeAccessInfo({ isNeedKyc: false }) });
    actor.send({ type: 'ACTING_FOR.SET', customerId: 42 });
    expect(selectNeedsKyc(actor.getSnapshot())).toBe(false);
  });

  it('logs out: revokes the refresh token, clears everything, even when the call fails', async () => {
    const { actor, revokes, cleared } = start();
    const tokens = makeTokens();
    actor.send({ type: 'SESSION.SIGN_IN', tokens });
    actor.send({ type: 'PATH.REMEMBER', path: '/x' });
    const done = logout(actor);
    expect(revokes.calls).toEqual([{ refreshToken: tokens.refreshToken }]);
    revokes.fail(new Error('offline'));
    await done;
    expect(selectStatus(actor.getSnapshot())).toBe('signedOut');
    expect(actor.getSnapshot().context).toMatchObject({ tokens: null, customer: null, rememberedPath: null });
    expect(cleared).toEqual(['storage', 'caches']);
  });

  it('logs out after a time-out when the platform does not answer', async () => {
    const { actor } = start();
    actor.send({ type: 'SESSION.SIGN_IN', tokens: makeTokens() });
    const done = logout(actor);
    await vi.advanceTimersByTimeAsync(10_000);
    await done;
    expect(selectStatus(actor.getSnapshot())).toBe('signedOut');
  });
});

describe('request hooks', () => {
  it('share one refresh among concurrent 401s', async () => {
    const { actor, refreshes } = start();
    actor.send({ type: 'SESSION.SIGN_IN', tokens: makeTokens(300) });
    const hooks = sessionRequestHooks(actor);
    const waits = [hooks.refresh(), hooks.refresh(), hooks.refresh()];
    expect(refreshes.calls).toHaveLength(1);
    const next = makeTokens(300);
    refreshes.answer({ ok: true, tokens: next });
    expect(await Promise.all(waits)).toEqual([true, true, true]);
    expect(hooks.getAccessToken()).toBe(next.accessToken);
    // a later 401 starts a new refresh
    void hooks.refresh();
    expect(refreshes.calls).toHaveLength(2);
  });

  it('answer false when the refresh fails, and when signed out', async () => {
    const { actor, refreshes } = start();
    const hooks = sessionRequestHooks(actor);
    expect(await hooks.refresh()).toBe(false);
    actor.send({ type: 'SESSION.SIGN_IN', tokens: makeTokens(300) });
    const a = hooks.refresh();
    const b = hooks.refresh();
    refreshes.answer({ ok: false, code: 'rejected' });
    expect(await Promise.all([a, b])).toEqual([false, false]);
    expect(hooks.getAccessToken()).toBeNull();
  });

  it('give the acting-for customer id', () => {
    const { actor } = start();
    const hooks = sessionRequestHooks(actor);
    actor.send({ type: 'ACTING_FOR.SET', customerId: 42 });
    expect(hooks.getActingCustomerId()).toBe(42);
    actor.send({ type: 'ACTING_FOR.SET', customerId: -1 });
    expect(hooks.getActingCustomerId()).toBe(42);
  });
});
