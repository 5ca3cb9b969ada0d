// @vitest-environment jsdom
/** /auth/sei while signed out: the path is kept and the guarded layout returns there after sign-in. */
import { afterEach, describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { isRedirect } from '@tanstack/react-router';
import { sessionMachine, type RefreshResult } from '../../machines/session/session.machine.ts';
import { redirectToPendingSei, rememberSeiPath } from '../../src/app/guards.ts';
import { makeTokens } from '../model/support.ts';

const SEI = '/auth/sei?client_id=demo-partner&redirect_uri=%2Fdev%2Fsso-partner&state=s';

function session() {
  return createActor(
    sessionMachine.provide({
      actors: {
        refreshTokens: fromPromise<RefreshResult, { refreshToken: string }>(() => new Promise(() => undefined)),
        revokeSession: fromPromise<void, { refreshToken: string | null }>(async () => undefined),
      },
    }),
    { input: {} },
  ).start();
}

afterEach(() => sessionStorage.clear());

describe('seiPath', () => {
  it('is kept while signed out and redirected to once after sign-in', () => {
    const s = session();
    rememberSeiPath(s, '/auth/sei', SEI);
    expect(() => redirectToPendingSei(s, '/login')).not.toThrow();
    s.send({ type: 'SESSION.SIGN_IN', tokens: makeTokens() });
    let thrown: unknown = null;
    try {
      redirectToPendingSei(s, '/home');
    } catch (e) {
      thrown = e;
    }
    expect(isRedirect(thrown)).toBe(true);
    expect((thrown as { options: { href: string } }).options.href).toBe(SEI);
    // Once only.
    expect(() => redirectToPendingSei(s, '/home')).not.toThrow();
  });

  it('never keeps another path, nor redirects when already there', () => {
    const s = session();
    rememberSeiPath(s, '/home', '/home');
    s.send({ type: 'SESSION.SIGN_IN', tokens: makeTokens() });
    expect(() => redirectToPendingSei(s, '/setting')).not.toThrow();
    sessionStorage.setItem('wlb.seiPath', 'https://evil.example/');
    expect(() => redirectToPendingSei(s, '/setting')).not.toThrow();
  });
});
