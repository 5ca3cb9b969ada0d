/**
 * Real I/O for the device companion's statechart (machines/device-companion). Each actor answers
 * `{ ok: false, code }` for an expected failure; `revoked` means the platform no longer knows
 * this device (403 or 404), which makes the companion forget its link. Nothing here logs the
 * secret, a token or a code.
 */
import { fromCallback, fromPromise } from 'xstate';
import { DeviceTokenSchema, authPaths } from '../../api/auth.ts';
import {
  DEVICE_LINK_STORAGE_KEY,
  DeviceApiResponseSchema,
  DeviceApproveResponseSchema,
  LoginConfirmResponseSchema,
  devicePaths,
} from '../../api/devices.ts';
import type {
  ActorFailure,
  ApproveInput,
  ApproveResult,
  CompanionEvent,
  ConfirmResult,
  DeviceType,
  LoadResult,
  SignInResult,
  StoredLink,
  UnlinkResult,
} from '../../machines/device-companion/device-companion.machine.ts';
import { readAccessExpiryMs } from '../../machines/session/access-token.ts';
import { getAuthUrl, getPushUrl } from '../lib/api-base.ts';
import { getUiLanguageTag } from '../lib/i18n.ts';
import { NO_ANSWER, restCall } from '../lib/token-service-rest.ts';
import { connectDeviceChannel } from './device-channel.ts';

function failure(status: number, kind: 'approve' | 'device'): ActorFailure {
  if (status === NO_ANSWER) return { ok: false, code: 'network' };
  if (kind === 'approve') return { ok: false, code: status === 403 || status === 404 ? 'codeRejected' : 'unknown' };
  if (status === 401 || status === 403 || status === 404) return { ok: false, code: 'revoked' };
  return { ok: false, code: 'unknown' };
}

export const approveDeviceActor = fromPromise<ApproveResult, ApproveInput>(async ({ input }) => {
  const res = await restCall({
    method: 'POST',
    url: getAuthUrl(devicePaths.approve(input.deviceId)),
    body: { code: input.code, type: input.type, ...(input.name ? { name: input.name } : {}) },
    schema: DeviceApproveResponseSchema,
    language: getUiLanguageTag(),
  });
  if (!res.ok) return failure(res.status, 'approve');
  return { ok: true, link: { deviceId: res.data.device.id, secret: res.data.secret } };
});

export const signInActor = fromPromise<SignInResult, { secret: string }>(async ({ input }) => {
  const res = await restCall({
    method: 'POST',
    url: getAuthUrl(authPaths.token),
    body: { secret: input.secret },
    schema: DeviceTokenSchema,
    language: getUiLanguageTag(),
  });
  if (!res.ok) return failure(res.status, 'device');
  return { ok: true, token: res.data.accessToken };
});

export const loadDeviceActor = fromPromise<LoadResult, { token: string }>(async ({ input }) => {
  const res = await restCall({ method: 'GET', url: getAuthUrl(devicePaths.deviceApi), token: input.token, schema: DeviceApiResponseSchema, language: getUiLanguageTag() });
  if (!res.ok) return failure(res.status, 'device');
  return { ok: true, login: res.data.login, device: res.data.device, pending: res.data.pending };
});

export const confirmRequestActor = fromPromise<ConfirmResult, { token: string; key: string; result: boolean }>(async ({ input }) => {
  const res = await restCall({
    method: 'PUT',
    url: getAuthUrl(authPaths.loginConfirm(input.key)),
    token: input.token,
    body: { result: input.result },
    schema: LoginConfirmResponseSchema,
    language: getUiLanguageTag(),
  });
  if (res.ok) return { ok: true, recorded: res.data.result };
  // 403 here: this phone may not approve that kind of request (its approval method is off).
  if (res.status === 403) return { ok: false, code: 'notAllowed' };
  // 404: the request is gone (answered elsewhere or expired).
  if (res.status === 404) return { ok: true, recorded: false };
  return failure(res.status, 'device');
});

export const unlinkDeviceActor = fromPromise<UnlinkResult, { token: string; deviceId: number }>(async ({ input }) => {
  const res = await restCall({ method: 'DELETE', url: getAuthUrl(devicePaths.deviceApiDevice(input.deviceId)), token: input.token, schema: null, language: getUiLanguageTag() });
  if (res.ok) return { ok: true };
  // 403 here: the platform keeps this phone, the last one approving the user's sign-ins (the
  // device itself is still linked, so its link must not be forgotten as for a revoked one).
  if (res.status === 403) return { ok: false, code: 'onlySignInPhone' };
  return failure(res.status, 'device');
});

export const listenActor = fromCallback<CompanionEvent, { token: string }>(({ input, sendBack }) =>
  connectDeviceChannel({
    url: getPushUrl(),
    token: input.token,
    onEvent: (e) => {
      if (e.type === 'ApprovalRequested') sendBack({ type: 'APPROVAL.REQUESTED', request: e.request });
      else if (e.type === 'ApprovalClosed') sendBack({ type: 'APPROVAL.CLOSED', key: e.key });
      else sendBack({ type: 'DEVICE.UNLINKED' });
    },
    onLost: () => sendBack({ type: 'CHANNEL.LOST' }),
  }),
);

/** Sign in again this long before the device token ends. */
export const RENEW_BEFORE_EXPIRY_MS = 30_000;
/** Never sooner than this (a token with a strange expiry must not make a busy loop). */
export const MIN_RENEW_DELAY_MS = 10_000;

export function renewDelayMs(token: string, nowMs: number): number {
  const expiresAtMs = readAccessExpiryMs(token);
  if (expiresAtMs === null) return MIN_RENEW_DELAY_MS;
  return Math.max(expiresAtMs - nowMs - RENEW_BEFORE_EXPIRY_MS, MIN_RENEW_DELAY_MS);
}

export const renewTimerActor = fromCallback<CompanionEvent, { token: string }>(({ input, sendBack }) => {
  const timer = setTimeout(() => sendBack({ type: 'TOKEN.EXPIRING' }), renewDelayMs(input.token, Date.now()));
  return () => clearTimeout(timer);
});

/* ------------------------------------------------------------------ the stored link */

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

export function readStoredLink(): StoredLink | null {
  const raw = storage()?.getItem(DEVICE_LINK_STORAGE_KEY);
  if (!raw || raw.length > 1024) return null;
  try {
    const value: unknown = JSON.parse(raw);
    if (typeof value !== 'object' || value === null) return null;
    const { deviceId, secret } = value as { deviceId?: unknown; secret?: unknown };
    if (typeof deviceId !== 'number' || !Number.isSafeInteger(deviceId) || typeof secret !== 'string' || secret.length === 0 || secret.length > 256) return null;
    return { deviceId, secret };
  } catch {
    return null;
  }
}

export function writeStoredLink(link: StoredLink): void {
  storage()?.setItem(DEVICE_LINK_STORAGE_KEY, JSON.stringify({ deviceId: link.deviceId, secret: link.secret }));
}

export function clearStoredLink(): void {
  storage()?.removeItem(DEVICE_LINK_STORAGE_KEY);
}

/** android or ios from the user agent; Android when unknown (the user can change it). */
export function detectDeviceType(userAgent: string): DeviceType {
  // iPadOS 13+ reports itself as a Mac; its touch support gives it away in the view, not here.
  return /iPhone|iPad|iPod|iOS/i.test(userAgent) ? 'ios' : 'android';
}
