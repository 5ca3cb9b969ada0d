/** src/lib/embedding.ts: which bridge carries a signal, what it carries, and that it never fails sign-in. */
import { describe, expect, it, vi } from 'vitest';
import { embeddingBridgeOf, signalEmbeddingApp } from '../../src/lib/embedding.ts';

function windows() {
  const reactNative = { postMessage: vi.fn<(m: string) => void>() };
  const webkit = { postMessage: vi.fn<(m: unknown) => void>() };
  const parent = { postMessage: vi.fn<(m: unknown, origin: string) => void>() };
  return { reactNative, webkit, parent };
}

describe('embedding signals', () => {
  it('React Native WebView first: a JSON string', () => {
    const b = windows();
    const win = { ReactNativeWebView: b.reactNative, webkit: { messageHandlers: { wlbBridge: b.webkit } }, parent: b.parent };
    expect(signalEmbeddingApp('loginSuccess', undefined, win)).toBe('reactNative');
    expect(b.reactNative.postMessage).toHaveBeenCalledWith(JSON.stringify({ source: 'wlb', type: 'loginSuccess' }));
    expect(b.webkit.postMessage).not.toHaveBeenCalled();
    expect(b.parent.postMessage).not.toHaveBeenCalled();
  });

  it('then WKWebView: an object through wlbBridge', () => {
    const b = windows();
    const win = { webkit: { messageHandlers: { wlbBridge: b.webkit } }, parent: b.parent };
    expect(signalEmbeddingApp('sessionExpired', undefined, win)).toBe('webkit');
    expect(b.webkit.postMessage).toHaveBeenCalledWith({ source: 'wlb', type: 'sessionExpired' });
    expect(b.parent.postMessage).not.toHaveBeenCalled();
  });

  it('then a parent frame: an object to any origin', () => {
    const b = windows();
    expect(signalEmbeddingApp('loginFailure', 'approvalRejected', { parent: b.parent })).toBe('parent');
    expect(b.parent.postMessage).toHaveBeenCalledWith({ source: 'wlb', type: 'loginFailure', reason: 'approvalRejected' }, '*');
  });

  it('nothing when not embedded (the top window is its own parent) or outside a browser', () => {
    const top: { parent?: unknown; postMessage: () => void } = { postMessage: vi.fn() };
    top.parent = top;
    expect(embeddingBridgeOf(top as never)).toBeNull();
    expect(signalEmbeddingApp('loginSuccess', undefined, top as never)).toBeNull();
    expect(top.postMessage).not.toHaveBeenCalled();
    expect(signalEmbeddingApp('loginSuccess', undefined, undefined)).toBeNull();
    // webkit without our handler is not a bridge
    expect(embeddingBridgeOf({ webkit: { messageHandlers: {} } })).toBeNull();
  });

  it('never forwards anything but a short error code as the reason', () => {
    const b = windows();
    const win = { ReactNativeWebView: b.reactNative };
    signalEmbeddingApp('loginFailure', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig', win);
    signalEmbeddingApp('loginSuccess', 'invalidOtp', win);
    const sent = b.reactNative.postMessage.mock.calls.map(([m]) => JSON.parse(m) as Record<string, unknown>);
    expect(sent).toEqual([
      { source: 'wlb', type: 'loginFailure' },
      { source: 'wlb', type: 'loginSuccess' },
    ]);
  });

  it('a bridge that throws does not break the caller', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const win = { ReactNativeWebView: { postMessage: () => { throw new Error('bridge gone'); } } };
    expect(signalEmbeddingApp('loginSuccess', undefined, win)).toBe('reactNative');
    expect(warn).toHaveBeenCalledTimes(1);
    warn.mockRestore();
  });
});
