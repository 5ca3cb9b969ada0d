/** The count of unused recovery codes (Settings), a token-service read through the session. */
import { queryOptions } from '@tanstack/react-query';
import { RecoveryCodesStatusSchema, securityPaths } from '../../../api/security.ts';
import { securityCall, type SessionAccess } from './rest.ts';

export const recoveryCodesStatusQuery = (session: SessionAccess) =>
  queryOptions({
    queryKey: ['recoveryCodes.status'],
    queryFn: async () => {
      const r = await securityCall(session, 'GET', securityPaths.recoveryCodes, undefined, RecoveryCodesStatusSchema);
      if (!r.ok) throw new Error(`recovery codes status ${r.status}`);
      return r.data;
    },
  });
