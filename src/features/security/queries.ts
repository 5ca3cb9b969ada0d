/** Reads of the security settings: the login history and the count of unused recovery codes. */
import { queryOptions } from '@tanstack/react-query';
import { RecoveryCodesStatusSchema, securityPaths } from '../../../api/security.ts';
import { callMethodOrThrow } from '../../lib/request.ts';
import { securityCall, type SessionAccess } from './rest.ts';

export const loginHistoryQuery = (page: number) =>
  queryOptions({
    queryKey: ['loginHistory', page],
    queryFn: () => callMethodOrThrow('loginHistory', { page }),
  });

export const recoveryCodesStatusQuery = (session: SessionAccess) =>
  queryOptions({
    queryKey: ['recoveryCodes.status'],
    queryFn: async () => {
      const r = await securityCall(session, 'GET', securityPaths.recoveryCodes, undefined, RecoveryCodesStatusSchema);
      if (!r.ok) throw new Error(`recovery codes status ${r.status}`);
      return r.data;
    },
  });
