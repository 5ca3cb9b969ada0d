/**
 * Real I/O for linking a phone (machines/link-device) and the linked-devices mutations. Actors
 * answer `{ ok: false, code }` for expected failures. The live channel for DeviceLinked is the web
 * app's push client (src/lib/push-client.ts) with the session's token; a slow check of the device
 * backs it up, so a lost socket does not leave the dialog waiting until the code expires.
 */
import { fromCallback, fromPromise } from 'xstate';
import { authPaths } from '../../../api/auth.ts';
import { DeviceCreateResponseSchema, DeviceSchema, ScpRequestResponseSchema, devicePaths } from '../../../api/devices.ts';
import type { LinkDeviceEvent, LinkErrorCode, SendSmsResult, StartLinkResult } from '../../../machines/link-device/link-device.machine.ts';
import { getAuthUrl, getPushUrl } from '../../lib/api-base.ts';
import { getUiLanguageTag } from '../../lib/i18n.ts';
import { connectPush } from '../../lib/push-client.ts';
import { NO_ANSWER, sessionCall, type SessionAccess } from '../../lib/token-service-rest.ts';

/** The fallback check of a pending device while waiting for DeviceLinked. */
export const LINK_CHECK_INTERVAL_MS = 5_000;
/** A link code lives 10 minutes (LINK_CODE_TTL_S); the timer never waits longer than this. */
export const MAX_LINK_WAIT_MS = 15 * 60_000;

function linkError(status: number): LinkErrorCode {
  if (status === NO_ANSWER) return 'network';
  if (status === 429) return 'rateLimited';
  return 'unknown';
}

/** Settings: POST /auth/devices { name } (the companion may rename it when it links). */
export function createStartLinkActor(access: SessionAccess, name: string) {
  return fromPromise<StartLinkResult>(async () => {
    const res = await sessionCall(access, { method: 'POST', url: getAuthUrl(devicePaths.devices), body: { name }, schema: DeviceCreateResponseSchema, language: getUiLanguageTag() });
    if (!res.ok) return { ok: false, code: linkError(res.status) };
    const { device, code, qrLink, expiresInS } = res.data;
    return { ok: true, link: { deviceId: device.id, code, link: qrLink, expiresInS } };
  });
}

/** /scp: POST /auth/scp/request (a deeplink to /scp-mobile that opens the companion). */
export function createScpStartLinkActor(access: SessionAccess) {
  return fromPromise<StartLinkResult>(async () => {
    const res = await sessionCall(access, { method: 'POST', url: getAuthUrl(authPaths.scpRequest), body: {}, schema: ScpRequestResponseSchema, language: getUiLanguageTag() });
    if (!res.ok) return { ok: false, code: linkError(res.status) };
    const { deviceId, code, deeplink, expiresInS } = res.data;
    return { ok: true, link: { deviceId, code, link: deeplink, expiresInS } };
  });
}

export function createSendSmsActor(access: SessionAccess) {
  return fromPromise<SendSmsResult, { phoneNumber: string }>(async ({ input }) => {
    const res = await sessionCall(access, {
      method: 'POST',
      url: getAuthUrl(authPaths.storesUrlsSend),
      body: { phoneNumber: input.phoneNumber },
      schema: null,
      language: getUiLanguageTag(),
    });
    if (res.ok) return { ok: true };
    if (res.status === 403 || res.status === 400) return { ok: false, code: 'phoneInvalid' };
    return { ok: false, code: linkError(res.status) };
  });
}

export function createWaitForLinkActor(access: SessionAccess) {
  return fromCallback<LinkDeviceEvent, { deviceId: number }>(({ input, sendBack }) => {
    let stopped = false;
    const linked = () => {
      if (stopped) return;
      stopped = true;
      sendBack({ type: 'DEVICE.LINKED', deviceId: input.deviceId });
    };
    const disconnect = connectPush({
      url: getPushUrl(),
      getToken: () => access.getAccessToken(),
      onEvent: (e) => {
        if (e.type === 'DeviceLinked' && e.deviceId === input.deviceId) linked();
      },
    });
    const timer = setInterval(() => {
      // GET /auth/devices/{id} answers the device itself (api/devices.ts DeviceSchema).
      void sessionCall(access, { method: 'GET', url: getAuthUrl(devicePaths.device(input.deviceId)), schema: DeviceSchema, language: getUiLanguageTag() }).then((res) => {
        if (res.ok && res.data.status === 'approved') linked();
      });
    }, LINK_CHECK_INTERVAL_MS);
    return () => {
      stopped = true;
      clearInterval(timer);
      disconnect();
    };
  });
}

export const expiryTimerActor = fromCallback<LinkDeviceEvent, { expiresInS: number }>(({ input, sendBack }) => {
  const timer = setTimeout(() => sendBack({ type: 'LINK.EXPIRED' }), Math.min(Math.max(input.expiresInS, 0) * 1000, MAX_LINK_WAIT_MS));
  return () => clearTimeout(timer);
});

/* ------------------------------------------------------------ list mutations */

/** onlySignInPhone: the platform keeps the last phone approving a push user's sign-ins (403). */
export type MutationErrorCode = LinkErrorCode | 'onlySignInPhone';
export type MutationResult = { ok: true } | { ok: false; code: MutationErrorCode };

/** A 403 on these paths is the platform keeping the last sign-in phone (the bodies sent are valid). */
function mutationError(status: number): MutationErrorCode {
  return status === 403 ? 'onlySignInPhone' : linkError(status);
}

export async function unlinkDevice(access: SessionAccess, deviceId: number): Promise<MutationResult> {
  const res = await sessionCall(access, { method: 'DELETE', url: getAuthUrl(devicePaths.device(deviceId)), schema: null, language: getUiLanguageTag() });
  // 404: already gone, which is what the user asked for.
  return res.ok || res.status === 404 ? { ok: true } : { ok: false, code: mutationError(res.status) };
}

export async function setApproveMethod(access: SessionAccess, deviceId: number, methodId: number, enabled: boolean): Promise<MutationResult> {
  const res = await sessionCall(access, {
    method: 'PATCH',
    url: getAuthUrl(devicePaths.approveMethod(deviceId, methodId)),
    body: { enabled },
    schema: null,
    language: getUiLanguageTag(),
  });
  return res.ok ? { ok: true } : { ok: false, code: mutationError(res.status) };
}
