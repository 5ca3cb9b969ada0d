/**
 * The security settings' token-service calls (api/security.ts paths) through the shared REST
 * wrapper (src/lib/token-service-rest.ts): the session's token, one refresh and one replay on a
 * 401 (document 1 §4), failures as values with the service's message.
 */
import type * as v from 'valibot';
import { getAuthUrl } from '../../lib/api-base.ts';
import { getUiLanguageTag } from '../../lib/i18n.ts';
import { sessionCall, type RestResult, type SessionAccess } from '../../lib/token-service-rest.ts';

export { NO_ANSWER, type SessionAccess } from '../../lib/token-service-rest.ts';
export type SecurityResult<T> = RestResult<T>;

export function securityCall<T>(
  access: SessionAccess,
  method: 'GET' | 'POST',
  path: string,
  body: unknown,
  schema: v.GenericSchema<unknown, T>,
): Promise<SecurityResult<T>> {
  return sessionCall(access, { method, url: getAuthUrl(path), body, schema, language: getUiLanguageTag() });
}
