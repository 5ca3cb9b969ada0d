import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { isEmailUsername, isSixDigitCode, normaliseUsername } from '../../machines/login/login.rules.ts';
import { loginMachine, type ExchangeResult, type SignInResult } from '../../machines/login/login.machine.ts';
import { selectLoginView } from '../../machines/login/login.select.ts';
import type { LoginResponse } from '../../api/auth.ts';
import { AnswerQueue, makeTokens } from '../model/support.ts';

function start(queryCode: { code: string; codeVerifier: string } | null = null) {
  const signIns = new AnswerQueue<{ username: string; password: string }, SignInResult>();
  const exchanges = new AnswerQueue<{ code: string; codeVerifier: string; otp?: string }, ExchangeResult>();
  const reported: unknown[] = [];
  const actor = createActor(
    loginMachine.provide({
      actors: {
        signIn: fromPromise(({ input }) => signIns.next(input)),
        exchangeCode: fromPromise(({ input }) => exchanges.next(input)),
      },
      actions: { reportSignedIn: (_, tokens) => void reported.push(tokens) },
    }),
    { input: { queryCode } },
  );
  actor.start();
  return { actor, signIns, exchanges, reported };
}

const verifier = 'v'.repeat(128);

describe('login rules', () => {
  it.each(['anna@demo.test', '  anna@demo.test ', 'a.b+c@x.co'])('accepts %j as a username', (u) => expect(isEmailUsername(u)).toBe(true));
  it.each(['', 'anna', 'anna@', '@demo.test', 'an na@demo.test', `${'a'.repeat(250)}@x.co`])('refuses %j', (u) =>
    expect(isEmailUsername(u)).toBe(false),
  );
  it('collapses whitespace', () => expect(normaliseUsername('  a  b ')).toBe('a b'));
  it.each([['123456', true], ['12345', false], ['1234567', false], ['12a456', false]] as const)('code %s -> %s', (c, ok) =>
    expect(isSixDigitCode(c)).toBe(ok),
  );
});

describe('login machine', () => {
  it('does not send an invalid username; says which field is wrong', () => {
    const { actor, signIns } = start();
    actor.send({ type: 'CREDENTIALS.SUBMIT', username: 'anna', password: '' });
    expect(signIns.calls).toHaveLength(0);
    expect(selectLoginView(actor.getSnapshot()).fieldErrors).toEqual({ username: 'usernameNotEmail', password: 'passwordRequired' });
  });

  it('simple flow: tokens at once', async () => {
    const { actor, signIns, reported } = start();
    actor.send({ type: 'CREDENTIALS.SUBMIT', username: ' boris@demo.test ', password: 'pw' });
    expect(signIns.calls).toEqual([{ username: 'boris@demo.test', password: 'pw' }]);
    const tokens = makeTokens();
    signIns.answer({ ok: true, codeVerifier: verifier, response: { authFlow: 'simple', ...tokens } });
    await waitFor(actor, (s) => s.status === 'done');
    expect(reported).toEqual([tokens]);
    expect(actor.getSnapshot().output).toEqual({ tokens });
    // the password never reaches the context
    expect(JSON.stringify(actor.getSnapshot().context)).not.toContain('"pw"');
  });

  it('otp flow: code, verifier and the six digits go to the token step', async () => {
    const { actor, signIns, exchanges, reported } = start();
    actor.send({ type: 'CREDENTIALS.SUBMIT', username: 'anna@demo.test', password: 'pw' });
    signIns.answer({ ok: true, codeVerifier: verifier, response: { authFlow: 'otp', code: 'c1' } });
    await waitFor(actor, (s) => s.matches('otp'));
    actor.send({ type: 'OTP.SUBMIT', otp: '12345' });
    expect(selectLoginView(actor.getSnapshot()).fieldErrors.otp).toBe('otpFormat');
    actor.send({ type: 'OTP.SUBMIT', otp: '123456' });
    expect(exchanges.calls).toEqual([{ code: 'c1', codeVerifier: verifier, otp: '123456' }]);
    exchanges.answer({ ok: false, code: 'invalidOtp' });
    await waitFor(actor, (s) => s.matches('otp'));
    expect(selectLoginView(actor.getSnapshot()).error).toBe('invalidOtp');
    actor.send({ type: 'OTP.SUBMIT', otp: '654321' });
    const tokens = makeTokens();
    exchanges.answer({ ok: true, tokens });
    await waitFor(actor, (s) => s.status === 'done');
    expect(reported).toEqual([tokens]);
  });

  it('an expired code sends the user back to the credentials', async () => {
    const { actor, signIns, exchanges } = start();
    actor.send({ type: 'CREDENTIALS.SUBMIT', username: 'anna@demo.test', password: 'pw' });
    signIns.answer({ ok: true, codeVerifier: verifier, response: { authFlow: 'otp', code: 'c1' } });
    await waitFor(actor, (s) => s.matches('otp'));
    actor.send({ type: 'OTP.SUBMIT', otp: '123456' });
    exchanges.answer({ ok: false, code: 'codeExpired' });
    await waitFor(actor, (s) => s.matches('credentials'));
    expect(actor.getSnapshot().context).toMatchObject({ code: null, codeVerifier: null, error: 'codeExpired', username: 'anna@demo.test' });
  });

  it.each([
    ['sms', { authFlow: 'sms', code: 'c', phone: '+370 *** **12', identifier: '42' }],
    ['push', { authFlow: 'push', code: 'c', temporaryToken: 't', deviceList: [], qrLink: 'q' }],
    ['verifyDevice', { authFlow: 'verifyDevice', code: 'c', deviceList: [] }],
    ['direct', { authFlow: 'direct', code: 'c' }],
  ] as const)('%s flow has its step (not yet available) and a way back', async (flow, response) => {
    const { actor, signIns } = start();
    actor.send({ type: 'CREDENTIALS.SUBMIT', username: 'anna@demo.test', password: 'pw' });
    signIns.answer({ ok: true, codeVerifier: verifier, response: response as LoginResponse });
    await waitFor(actor, (s) => !s.matches('signingIn'));
    const view = selectLoginView(actor.getSnapshot());
    expect(view.step).toBe(flow);
    expect(view.notYetAvailable).toBe(true);
    actor.send({ type: 'STEP.BACK' });
    expect(actor.getSnapshot().matches('credentials')).toBe(true);
  });

  it.each([
    ['strict', 'migrationRequired'],
    ['soft', 'migrationOffered'],
    ['none', 'awaitingApproval'],
  ] as const)('push migration %s -> %s', async (requirement, stage) => {
    const { actor, signIns } = start();
    actor.send({ type: 'CREDENTIALS.SUBMIT', username: 'anna@demo.test', password: 'pw' });
    signIns.answer({
      ok: true,
      codeVerifier: verifier,
      response: { authFlow: 'push', code: 'c', temporaryToken: 't', deviceList: [], qrLink: 'q', migration: { requirement, strategy: 'migrate', daysLeft: 3 } },
    });
    await waitFor(actor, (s) => s.matches('push'));
    expect(selectLoginView(actor.getSnapshot()).pushStage).toBe(stage);
  });

  it('a code and verifier from the query sign in without the form', async () => {
    const { actor, exchanges, reported } = start({ code: 'qc', codeVerifier: verifier });
    expect(exchanges.calls).toEqual([{ code: 'qc', codeVerifier: verifier }]);
    const tokens = makeTokens();
    exchanges.answer({ ok: true, tokens });
    await waitFor(actor, (s) => s.status === 'done');
    expect(reported).toEqual([tokens]);
  });

  it('failures come back as codes on the credentials step', async () => {
    const { actor, signIns } = start();
    actor.send({ type: 'CREDENTIALS.SUBMIT', username: 'anna@demo.test', password: 'bad' });
    signIns.answer({ ok: false, code: 'invalidCredentials' });
    await waitFor(actor, (s) => s.matches('credentials'));
    expect(selectLoginView(actor.getSnapshot()).error).toBe('invalidCredentials');
  });
});
