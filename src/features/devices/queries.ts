/**
 * Reads of the linked-devices settings (api/devices.ts). Keys start with DEVICES_KEY so one
 * invalidation refreshes the list after linking, unlinking or a method toggle.
 */
import { queryOptions } from '@tanstack/react-query';
import { ApproveMethodsResponseSchema, DeviceListResponseSchema, devicePaths } from '../../../api/devices.ts';
import { getAuthUrl } from '../../lib/api-base.ts';
import { getUiLanguageTag } from '../../lib/i18n.ts';
import { sessionCall, type SessionAccess } from '../../lib/token-service-rest.ts';

export const DEVICES_KEY = 'auth.devices';

export class DevicesCallError extends Error {
  constructor(readonly status: number) {
    super(`device call failed with status ${status}`);
    this.name = 'DevicesCallError';
  }
}

export const devicesQuery = (access: SessionAccess) =>
  queryOptions({
    queryKey: [DEVICES_KEY, 'list'],
    queryFn: async () => {
      const res = await sessionCall(access, { method: 'GET', url: getAuthUrl(devicePaths.devices), schema: DeviceListResponseSchema, language: getUiLanguageTag() });
      if (!res.ok) throw new DevicesCallError(res.status);
      // Pending devices are links nobody finished: they are not "linked devices".
      return res.data.devices.filter((d) => d.status === 'approved');
    },
  });

export const approveMethodsQuery = (access: SessionAccess) =>
  queryOptions({
    queryKey: [DEVICES_KEY, 'approve-methods'],
    queryFn: async () => {
      const res = await sessionCall(access, { method: 'GET', url: getAuthUrl(devicePaths.approveMethods), schema: ApproveMethodsResponseSchema, language: getUiLanguageTag() });
      if (!res.ok) throw new DevicesCallError(res.status);
      return res.data.methods;
    },
    staleTime: 60 * 60_000,
  });
