/**
 * Document 1 §1: session expiry is signalled to an embedding mobile app. The real session actor,
 * restored from sessionStorage with a token about to run out, fails its refresh (the platform
 * answers 401) and expires: the React Native bridge hears `sessionExpired`, and nothing secret.
 * (Login success and failure are signalled by the login view: tests/model/login.model.test.tsx.)
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { waitFor } from '@testing-library/react';
import { SESSION_STORAGE_KEY, createSessionActor, type SessionActor } from '../../src/features/auth/session-actor.ts';
import { makeAccessToken, makeCustomer } from '../model/support.ts';
import { SilentWebSocket } from './silent-websocket.ts';

/** No push server here: a socket that stays "connecting" keeps jsdom quiet. */
let session: SessionActor | null = null;
const posted: string[] = [];

beforeEach(() => {
  posted.length = 0;
  sessionStorage.clear();
  vi.stubGlobal('WebSocket', SilentWebSocket);
  (window as unknown as { ReactNativeWebView?: unknown }).ReactNativeWebView = { postMessage: (m: string) => posted.push(m) };
});
afterEach(() => {
  session?.stop();
  session = null;
  delete (window as unknown as { ReactNativeWebView?: unknown }).ReactNativeWebView;
  vi.unstubAllGlobals();
});

function restoreSession(expiresInS: number) {
  sessionStorage.setItem(
    SESSION_STORAGE_KEY,
    JSON.stringify({
      tokens: { accessToken: makeAccessToken(expiresInS), refreshToken: 'refresh-secret-1' },
      customer: makeCustomer(),
      accessInfo: null,
      actingCustomerId: null,
      rememberedPath: null,
    }),
  );
}

describe('session expiry and the embedding app', () => {
  it('a refresh the platform refuses ends the session and tells the embedding app, without the token', async () => {
    const refreshCalls: string[] = [];
    vi.stubGlobal('fetch', async (input: RequestInfo | URL) => {
      refreshCalls.push(String(input));
      return new Response(JSON.stringify({ message: 'Unknown or revoked refresh token' }), { status: 401, headers: { 'content-type': 'application/json' } });
    });
    // 5 s left: the session refreshes at once (10 s or less remain), and the refresh fails.
    restoreSession(5);
    session = createSessionActor();
    await waitFor(() => expect(posted).toHaveLength(1));
    expect(JSON.parse(posted[0]!)).toEqual({ source: 'wlb', type: 'sessionExpired' });
    expect(posted[0]).not.toContain('refresh-secret-1');
    expect(refreshCalls.some((url) => url.endsWith('/auth/refresh'))).toBe(true);
    expect(sessionStorage.getItem(SESSION_STORAGE_KEY)).toBeNull();
  });

  it('a session that stays valid says nothing', async () => {
    vi.stubGlobal('fetch', async () => new Response('{}', { status: 500 }));
    restoreSession(300);
    session = createSessionActor();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(posted).toEqual([]);
  });
});
