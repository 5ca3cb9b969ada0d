/**
 * The companion's live channel: graphql-ws at /graphql with connectionParams `{ token }` (a device
 * token). The platform sends the device's events (ApprovalRequested, ApprovalClosed,
 * DeviceUnlinked) and closes with 4403 when the device is revoked or the token is no longer
 * accepted: that is final here (the companion signs in again and learns which). Network drops
 * retry with the push client's capped backoff.
 */
import type { PushEvent } from '../../api/push.ts';
import { openEventChannel } from '../lib/push-client.ts';

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

const DEVICE_EVENTS: readonly DeviceChannelEvent['type'][] = ['ApprovalRequested', 'ApprovalClosed', 'DeviceUnlinked'];
const isDeviceEvent = (event: PushEvent): event is DeviceChannelEvent => (DEVICE_EVENTS as readonly string[]).includes(event.type);

export function connectDeviceChannel(opts: DeviceChannelOptions): () => void {
  return openEventChannel({
    url: opts.url,
    connectionParams: { token: opts.token },
    retryAttempts: DEVICE_CHANNEL_RETRY_ATTEMPTS,
    refusedCloseCode: CLOSE_REFUSED,
    keepAliveMs: 20_000,
    onEvent: (event) => {
      if (isDeviceEvent(event)) opts.onEvent(event);
    },
    onLost: opts.onLost,
    ...(opts.webSocketImpl ? { webSocketImpl: opts.webSocketImpl } : {}),
  });
}
