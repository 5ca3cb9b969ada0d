import { describe, expect, it } from 'vitest';
import { createActor, fromCallback, fromPromise, waitFor } from 'xstate';
import {
  isEmailUsername,
  isRecoveryCode,
  isSixDigitCode,
  normaliseRecoveryCode,
  normaliseUsername,
} from '../../machines/login/login.rules.ts';
import {
  loginMachine,
  type ApprovalChannelInput,
  type ExchangeInput,
  type ExchangeResult,
  type LoginErrorCode,
  type LoginEvent,
  type LoginOutcome,
  type ResendInput,
  type ResendResult,
  type SignInResult,
} from '../../machines/login/login.machine.ts';
import { selectLoginView } from '../../machines/login/login.select.ts';
import type { LoginResponse } from '../../api/auth.ts';
import { readDeviceLinkSecret } from '../../src/features/auth/actors.ts';
import { DEVICE_LINK_STORAGE_KEY } from '../../api/devices.ts';
import { AnswerQueue, makeTokens } from '../model/support.ts';

function start(queryCode: { code: string; codeVerifier: string } | null = null) {
  const signIns = new AnswerQueue<{ username: string; password: string }, SignInResult>();
  const exchanges = new AnswerQueue<ExchangeInput, ExchangeResult>();
  const resends = new AnswerQueue<ResendInput, ResendResult>();
  const channels: { input: ApprovalChannelInput; sendBack: (e: LoginEvent) => void; closed: boolean }[] = [];
  const reported: LoginOutcome[] = [];
  const failures: LoginErrorCode[] = [];
  const actor = createActor(
    loginMachine.provide({
      actors: {
        signIn: fromPromise(({ input }) => signIns.next(input)),
        exchangeCode: fromPromise(({ input }) => exchanges.next(input)),
        resendApproval: fromPromise(({ input }) => resends.next(input)),
        approvalChannel: fromCallback<LoginEvent, ApprovalChannelInput>(({ input, sendBack }) => {
          const channel = { input, sendBack, closed: false };
          channels.push(channel);
          return () => {
            channel.closed = true;
          };
        }),
      },
      actions: {
        reportSignedIn: (_, outcome) => void reported.push(outcome),
        reportFailure: (_, code) => void failures.push(code),
      },
    }),
    { input: { queryCode } },
  );
  actor.start();
  return { actor, signIns, exchanges, resends, channels, reported, failures };
}

const verifier = 'v'.repeat(128);
const phones = [
  { id: 7, type: 'android', name: 'Pixel' },
  { id: 9, type: 'ios', name: 'iPhone 15' },
] as const;
const pushAnswer = (deviceList: readonly { id: number; type: 'android' | 'ios'; name: string }[]): LoginResponse => ({
  authFlow: deviceList.length > 1 ? 'verifyDevice' : 'push',
  code: 'c-push',
  temporaryToken: 'tmp-1',
  deviceList: [...deviceList],
  qrLink: 'https://bank.test/device/#approve=k1',
  expiresInS: 120,
});

async function signInTo(h: ReturnType<typeof start>, response: LoginResponse) {
  h.actor.send({ type: 'CREDENTIALS.SUBMIT', username: 'anna@demo.test', password: 'pw' });
  h.signIns.answer({ ok: true, codeVerifier: verifier, response });
  await waitFor(h.actor, (s) => !s.matches('signingIn'));
}

describe('login rules', () => {
  it.each(['anna@demo.test', '  anna@demo.test ', 'a.b+c@x.co'])('accepts %j as a username', (u) => expect(isEmailUsername(u)).toBe(true));
  it.each(['', 'anna', 'anna@', '@demo.test', 'an na@demo.test', `${'a'.repeat(250)}@x.co`])('refuses %j', (u) =>
    expect(isEmailUsername(u)).toBe(false),
  );
  it('collapses whitespace', () => expect(normaliseUsername('  a  b ')).toBe('a b'));
  it.each([['123456', true], ['12345', false], ['1234567', false], ['12a456', false]] as const)('code %s -> %s', (c, ok) =>
    expect(isSixDigitCode(c)).toBe(ok),
  );
  it.each([
    ['7KQ4M-2XH9P', true],
    ['7kq4m2xh9p', true],
    [' 7KQ4M - 2XH9P ', true],
    ['7KQ4M-2XH9', false],
    ['7KQ4M_2XH9P', false],
    ['', false],
    [`7KQ4M-2XH9P${' '.repeat(10)}X`, false],
  ] as const)('recovery code %j -> %s', (c, ok) => expect(isRecoveryCode(c)).toBe(ok));
  it('normalises a recovery code as the platform does', () => expect(normaliseRecoveryCode(' 7kq4m-2xh9p ')).toBe('7KQ4M-2XH9P'));
});

describe('device link secret', () => {
  const store = (value: string | null) => ({ getItem: (key: string) => (key === DEVICE_LINK_STORAGE_KEY ? value : null) });
  it('reads the companion link', () => expect(readDeviceLinkSecret(store(JSON.stringify({ deviceId: 3, secret: 's3cr3t' })))).toBe('s3cr3t'));
  it.each([null, '', 'not json', '{"deviceId":"3","secret":"x"}', '{"deviceId":3,"secret":""}', JSON.stringify({ deviceId: 3, secret: 'x'.repeat(257) })])(
    'ignores %j',
    (raw) => expect(readDeviceLinkSecret(store(raw))).toBeNull(),
  );
  it('works without storage', () => expect(readDeviceLinkSecret(null)).toBeNull());
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
    expect(reported).toEqual([{ tokens, migration: null, recoveryUsed: false }]);
    expect(actor.getSnapshot().output).toEqual({ tokens, migration: null, recoveryUsed: false });
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
    expect(reported).toEqual([{ tokens, migration: null, recoveryUsed: false }]);
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

  it('sms flow: the masked phone and identifier are shown; the code goes as otp', async () => {
    const h = start();
    await signInTo(h, { authFlow: 'sms', code: 'c-sms', phone: '+370 *** **12', identifier: '42' });
    const view = selectLoginView(h.actor.getSnapshot());
    expect(view).toMatchObject({ step: 'sms', maskedPhone: '+370 *** **12', smsIdentifier: '42', canUseRecoveryCode: true });
    h.actor.send({ type: 'SMS.SUBMIT', otp: '654321' });
    expect(h.exchanges.calls).toEqual([{ code: 'c-sms', codeVerifier: verifier, otp: '654321' }]);
    h.exchanges.answer({ ok: true, tokens: makeTokens() });
    await waitFor(h.actor, (s) => s.status === 'done');
  });

  it('direct flow: the code is exchanged at once, with the verifier alone', async () => {
    const h = start();
    await signInTo(h, { authFlow: 'direct', code: 'c-direct' });
    expect(h.actor.getSnapshot().matches('verifyingCode')).toBe(true);
    expect(h.exchanges.calls).toEqual([{ code: 'c-direct', codeVerifier: verifier }]);
  });

  it('push flow: waits on the live channel, approved -> code exchange without otp', async () => {
    const h = start();
    await signInTo(h, pushAnswer([phones[0]]));
    const view = selectLoginView(h.actor.getSnapshot());
    expect(view).toMatchObject({ step: 'push', approvalStage: 'waiting', qrLink: 'https://bank.test/device/#approve=k1', canResend: true });
    expect(view.devices).toEqual([phones[0]]);
    expect(h.channels).toHaveLength(1);
    expect(h.channels[0]?.input).toEqual({ temporaryToken: 'tmp-1', expiresInS: 120 });
    h.channels[0]?.sendBack({ type: 'PUSH.APPROVED' });
    expect(h.channels[0]?.closed).toBe(true);
    expect(h.exchanges.calls).toEqual([{ code: 'c-push', codeVerifier: verifier }]);
    const tokens = makeTokens();
    h.exchanges.answer({ ok: true, tokens });
    await waitFor(h.actor, (s) => s.status === 'done');
    expect(h.reported).toEqual([{ tokens, migration: null, recoveryUsed: false }]);
  });

  it('push flow: declined -> credentials with approvalRejected, reported as a failure', async () => {
    const h = start();
    await signInTo(h, pushAnswer([phones[0]]));
    h.channels[0]?.sendBack({ type: 'PUSH.DECLINED' });
    expect(h.actor.getSnapshot().matches('credentials')).toBe(true);
    expect(selectLoginView(h.actor.getSnapshot()).error).toBe('approvalRejected');
    expect(h.failures).toEqual(['approvalRejected']);
    expect(h.actor.getSnapshot().context.code).toBeNull();
  });

  it('push flow: expired -> send again (no device id) -> waiting with the new expiry', async () => {
    const h = start();
    await signInTo(h, pushAnswer([phones[0]]));
    h.channels[0]?.sendBack({ type: 'PUSH.EXPIRED' });
    expect(selectLoginView(h.actor.getSnapshot()).approvalStage).toBe('expired');
    h.actor.send({ type: 'PUSH.RESEND' });
    expect(h.resends.calls).toEqual([{ temporaryToken: 'tmp-1' }]);
    h.resends.answer({ ok: true, expiresInS: 90 });
    await waitFor(h.actor, (s) => s.matches({ approval: 'waiting' }));
    expect(h.channels.at(-1)?.input).toEqual({ temporaryToken: 'tmp-1', expiresInS: 90 });
  });

  it('push flow: a rate-limited re-send stays on the page; a gone attempt ends it', async () => {
    const h = start();
    await signInTo(h, pushAnswer([phones[0]]));
    h.actor.send({ type: 'PUSH.RESEND' });
    h.resends.answer({ ok: false, code: 'rateLimited' });
    await waitFor(h.actor, (s) => s.matches({ approval: 'expired' }));
    expect(selectLoginView(h.actor.getSnapshot()).error).toBe('rateLimited');
    h.actor.send({ type: 'PUSH.RESEND' });
    h.resends.answer({ ok: false, code: 'codeExpired' });
    await waitFor(h.actor, (s) => s.matches('credentials'));
    expect(h.failures).toEqual(['codeExpired']);
  });

  it('push flow without a linked phone: only a recovery code (or back)', async () => {
    const h = start();
    await signInTo(h, pushAnswer([]));
    const view = selectLoginView(h.actor.getSnapshot());
    expect(view).toMatchObject({ step: 'push', approvalStage: 'noDevice', canResend: false, canUseRecoveryCode: true, canGoBack: true });
    expect(h.channels).toHaveLength(0);
  });

  it('verifyDevice: choose a phone -> re-send with its id -> wait; another phone may be chosen', async () => {
    const h = start();
    await signInTo(h, pushAnswer(phones));
    expect(selectLoginView(h.actor.getSnapshot())).toMatchObject({ step: 'verifyDevice', approvalStage: 'choosingDevice' });
    h.actor.send({ type: 'DEVICE.CHOOSE', deviceId: 12345 });
    expect(h.resends.calls).toHaveLength(0);
    h.actor.send({ type: 'DEVICE.CHOOSE', deviceId: 9 });
    expect(h.resends.calls).toEqual([{ temporaryToken: 'tmp-1', deviceId: 9 }]);
    h.resends.answer({ ok: true, expiresInS: 120 });
    await waitFor(h.actor, (s) => s.matches({ approval: 'waiting' }));
    expect(selectLoginView(h.actor.getSnapshot())).toMatchObject({ chosenDeviceId: 9, canChangeDevice: true });
    h.actor.send({ type: 'DEVICE.CHANGE' });
    expect(selectLoginView(h.actor.getSnapshot()).approvalStage).toBe('choosingDevice');
  });

  it.each([
    ['otp', { authFlow: 'otp', code: 'c-rc' }],
    ['sms', { authFlow: 'sms', code: 'c-rc', phone: '+370 *** **12', identifier: '42' }],
    ['push', { ...pushAnswer([phones[0]]), code: 'c-rc' }],
    ['verifyDevice', { ...pushAnswer(phones), code: 'c-rc' }],
  ] as const)('%s: a recovery code signs in and the outcome says so', async (_flow, response) => {
    const h = start();
    await signInTo(h, response as LoginResponse);
    h.actor.send({ type: 'RECOVERY.START' });
    expect(selectLoginView(h.actor.getSnapshot()).step).toBe('recovery');
    h.actor.send({ type: 'RECOVERY.SUBMIT', recoveryCode: 'nope' });
    expect(selectLoginView(h.actor.getSnapshot()).fieldErrors).toEqual({ recoveryCode: 'recoveryCodeFormat' });
    expect(h.exchanges.calls).toHaveLength(0);
    h.actor.send({ type: 'RECOVERY.SUBMIT', recoveryCode: ' 7kq4m-2xh9p' });
    expect(h.exchanges.calls).toEqual([{ code: 'c-rc', codeVerifier: verifier, recoveryCode: '7KQ4M-2XH9P' }]);
    h.exchanges.answer({ ok: false, code: 'invalidRecoveryCode' });
    await waitFor(h.actor, (s) => s.matches('recovery'));
    expect(selectLoginView(h.actor.getSnapshot()).error).toBe('invalidRecoveryCode');
    h.actor.send({ type: 'RECOVERY.SUBMIT', recoveryCode: '7KQ4M2XH9Q' });
    const tokens = makeTokens();
    h.exchanges.answer({ ok: true, tokens });
    await waitFor(h.actor, (s) => s.status === 'done');
    expect(h.reported).toEqual([{ tokens, migration: null, recoveryUsed: true }]);
  });

  it.each(['soft', 'strict'] as const)('a %s migration is shown on the second step and carried in the output', async (requirement) => {
    const h = start();
    const migration = { requirement, strategy: 'migrate', daysLeft: requirement === 'soft' ? 3 : 0 } as const;
    await signInTo(h, { authFlow: 'otp', code: 'c', migration });
    expect(selectLoginView(h.actor.getSnapshot()).migration).toEqual(migration);
    h.actor.send({ type: 'OTP.SUBMIT', otp: '123456' });
    const tokens = makeTokens();
    h.exchanges.answer({ ok: true, tokens });
    await waitFor(h.actor, (s) => s.status === 'done');
    expect(h.actor.getSnapshot().output).toEqual({ tokens, migration, recoveryUsed: false });
  });

  it('simple flow with a migration: output carries it; none is dropped', async () => {
    for (const requirement of ['strict', 'none'] as const) {
      const h = start();
      const tokens = makeTokens();
      await signInTo(h, { authFlow: 'simple', ...tokens, migration: { requirement, strategy: 'enable' } });
      await waitFor(h.actor, (s) => s.status === 'done');
      expect(h.actor.getSnapshot().output?.migration).toEqual(requirement === 'none' ? null : { requirement, strategy: 'enable' });
    }
  });

  it('a code and verifier from the query sign in without the form', async () => {
    const { actor, exchanges, reported } = start({ code: 'qc', codeVerifier: verifier });
    expect(exchanges.calls).toEqual([{ code: 'qc', codeVerifier: verifier }]);
    const tokens = makeTokens();
    exchanges.answer({ ok: true, tokens });
    await waitFor(actor, (s) => s.status === 'done');
    expect(reported).toEqual([{ tokens, migration: null, recoveryUsed: false }]);
  });

  it('failures come back as codes on the credentials step', async () => {
    const { actor, signIns, failures } = start();
    actor.send({ type: 'CREDENTIALS.SUBMIT', username: 'anna@demo.test', password: 'bad' });
    signIns.answer({ ok: false, code: 'invalidCredentials' });
    await waitFor(actor, (s) => s.matches('credentials'));
    expect(selectLoginView(actor.getSnapshot()).error).toBe('invalidCredentials');
    expect(failures).toEqual(['invalidCredentials']);
  });
});
