/**
 * The companion's live channel: graphql-ws at /graphql with connectionParams `{ token }` (a device
 * token). The platform sends the device's events (ApprovalRequested, ApprovalClosed,
 * DeviceUnlinked) and closes with 4403 when the device is revoked or the token is no longer
 * accepted: that is final here (the companion signs in again and learns which). Network drops
 * retry with the push client's capped backoff.
 */
import type { Client } from 'graphql-ws';
import { PUSH_SUBSCRIPTION, type PushEvent } from '../../api/push.ts';
import { backoffMs, parsePushItem } from '../lib/push-client.ts';

export const DEVICE_CHANNEL_RETRY_ATTEMPTS = 10;
export const CLOSE_REFUSED = 4403;

export type DeviceChannelEvent = Extract<PushEvent, { type: 'ApprovalRequested' | 'ApprovalClosed' | 'DeviceUnlinked' }>;

export interface DeviceChannelOptions {
  url: string;
  token: string;
  onEvent(e: DeviceChannelEvent): void;
  /** the channel closed for good (refused, or retries exhausted) */
  onLost(): void;
  webSocketImpl?: unknown;
}

function closeCodeOf(event: unknown): number | null {
  return typeof event === 'object' && event !== null && 'code' in event && typeof (event as { code: unknown }).code === 'number'
    ? (event as { code: number }).code
    : null;
}

export function connectDeviceChannel(opts: DeviceChannelOptions): () => void {
  let done = false;
  let client: Client | null = null;
  let unsubscribe: (() => void) | null = null;
  const close = () => {
    unsubscribe?.();
    unsubscribe = null;
    void client?.dispose();
  };
  const lose = () => {
    if (done) return;
    done = true;
    close();
    opts.onLost();
  };
  void import('graphql-ws').then(
    ({ createClient }) => {
      if (done) return;
      client = createClient({
        url: opts.url,
        lazy: false,
        connectionParams: () => ({ token: opts.token }),
        retryAttempts: DEVICE_CHANNEL_RETRY_ATTEMPTS,
        retryWait: (retries) => new Promise((resolve) => setTimeout(resolve, backoffMs(retries))),
        shouldRetry: (event) => !done && closeCodeOf(event) !== CLOSE_REFUSED,
        keepAlive: 20_000,
        ...(opts.webSocketImpl ? { webSocketImpl: opts.webSocketImpl } : {}),
        on: {
          closed: (event) => {
            if (closeCodeOf(event) === CLOSE_REFUSED) lose();
          },
        },
      });
      unsubscribe = client.subscribe<{ events: unknown }>(
        { query: PUSH_SUBSCRIPTION },
        {
          next: (result) => {
            const event = parsePushItem(result.data?.events);
            if (event?.type === 'ApprovalRequested' || event?.type === 'ApprovalClosed' || event?.type === 'DeviceUnlinked') opts.onEvent(event);
          },
          error: lose,
          complete: lose,
        },
      );
    },
    lose,
  );
  return () => {
    if (done) return;
    done = true;
    close();
  };
}
