/**
 * Signals to a mobile app that embeds the web app (document 1 §1: session expiry, login success and
 * login failure are signalled to the embedding app).
 *
 * The first bridge that exists wins:
 *   1. React Native WebView: `window.ReactNativeWebView.postMessage(string)` (it takes strings only);
 *   2. WKWebView: `window.webkit.messageHandlers.wlbBridge.postMessage(object)`;
 *   3. an iframe: `window.parent.postMessage(object, '*')`. The target is '*' because the embedding
 *      origin is not known to the app; that is safe only because a signal never carries a token,
 *      code or personal data, just what happened (and, for a failure, its error code).
 * Outside any embedding nothing is sent.
 */

export type EmbeddingSignalType = 'sessionExpired' | 'loginSuccess' | 'loginFailure';

export interface EmbeddingSignal {
  /** lets the embedding app tell our messages from others on the same channel */
  source: 'wlb';
  type: EmbeddingSignalType;
  /** loginFailure: the error code (e.g. invalidCredentials, approvalRejected); never a secret */
  reason?: string;
}

/** An error code is a short identifier; anything else is dropped rather than forwarded. */
const REASON_PATTERN = /^[A-Za-z][A-Za-z0-9]{0,39}$/;

interface BridgeWindow {
  ReactNativeWebView?: { postMessage(message: string): void };
  webkit?: { messageHandlers?: { wlbBridge?: { postMessage(message: unknown): void } } };
  parent?: { postMessage(message: unknown, targetOrigin: string): void } | null;
}

export type EmbeddingBridge = 'reactNative' | 'webkit' | 'parent' | null;

/** Which bridge a window offers (exported for tests and diagnostics). */
export function embeddingBridgeOf(win: BridgeWindow | undefined): EmbeddingBridge {
  if (!win) return null;
  if (typeof win.ReactNativeWebView?.postMessage === 'function') return 'reactNative';
  if (typeof win.webkit?.messageHandlers?.wlbBridge?.postMessage === 'function') return 'webkit';
  if (win.parent && win.parent !== (win as unknown) && typeof win.parent.postMessage === 'function') return 'parent';
  return null;
}

function currentWindow(): BridgeWindow | undefined {
  return typeof window === 'undefined' ? undefined : (window as unknown as BridgeWindow);
}

/**
 * Sends one signal through the embedding bridge; returns which bridge carried it (null: none).
 * A bridge that throws is ignored: the embedding app's trouble must not break sign-in.
 */
export function signalEmbeddingApp(type: EmbeddingSignalType, reason?: string, win: BridgeWindow | undefined = currentWindow()): EmbeddingBridge {
  const bridge = embeddingBridgeOf(win);
  if (!bridge || !win) return null;
  const signal: EmbeddingSignal = { source: 'wlb', type };
  if (type === 'loginFailure' && reason !== undefined && REASON_PATTERN.test(reason)) signal.reason = reason;
  try {
    if (bridge === 'reactNative') win.ReactNativeWebView?.postMessage(JSON.stringify(signal));
    else if (bridge === 'webkit') win.webkit?.messageHandlers?.wlbBridge?.postMessage(signal);
    else win.parent?.postMessage(signal, '*');
  } catch (e) {
    console.warn(`[embedding] the ${bridge} bridge refused a signal: ${e instanceof Error ? e.name : 'error'}`);
  }
  return bridge;
}
