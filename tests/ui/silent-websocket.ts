/**
 * A WebSocket that never connects: tests of the app shell stub the global with it so the push
 * client (graphql-ws) starts and waits quietly, with no server and no reconnect noise.
 */
export class SilentWebSocket {
  static CONNECTING = 0;
  static OPEN = 1;
  static CLOSING = 2;
  static CLOSED = 3;
  readyState = 0;
  protocol = '';
  onopen = null;
  onclose = null;
  onerror = null;
  onmessage = null;
  close() {}
  send() {}
  addEventListener() {}
  removeEventListener() {}
}
