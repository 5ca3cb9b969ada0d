/**
 * The unauthorised representative's store (document 3 §6: "an unauthorised representative can use
 * only FATCA/CRS, W-form, loss-of-nationality and identity verification; other actions answer not
 * implemented"; issue 18 item 4). A representative opens /self-certification-representative with
 * the secret of the link e-mailed to them and types the address it went to; every call of theirs
 * goes through `call` here:
 * - the four actions' methods (api/method.ts REPRESENTATIVE_SECRET_METHODS) go to the platform with
 *   fromEmail + authSecret in the body (the request wrapper adds them for those names only, from
 *   the hooks `representativeRequestHooks` makes: no token, no acting company);
 * - the public reference dictionaries the questions need (countries, birth countries, the tax
 *   numbers) are read as a signed-out visitor reads them (not shown in the spec: they are data, not
 *   actions, and hold nothing of a customer);
 * - every other name answers IM (not implemented) here, without a request.
 * The secret and the e-mail live in this tab's sessionStorage (document 1 §2 "an authSecret query
 * or an existing one"), under the key a query action of /login clears (activation-query.ts).
 */
import { t } from '@lingui/core/macro';
import { ResponseCode, type Failure } from '../../../api/envelope.ts';
import { REPRESENTATIVE_SECRET_METHODS, type RequestOf } from '../../../api/method.ts';
import type { MethodName, Methods } from '../../../api/registry.ts';
import { AUTH_SECRET_STORAGE_KEY } from '../registration/activation-query.ts';
import { callMethod, type CallOptions, type MethodResult } from '../../lib/request.ts';
import type { RequestHooks } from '../../lib/request-hooks.ts';

/** The dictionaries the representative's questions read. */
export const REPRESENTATIVE_DICTIONARIES: ReadonlySet<string> = new Set(['dictionaries', 'dictionaryBirthCountries', 'dictionaryTaxNumbers']);

export const isRepresentativeMethod = (name: string) => REPRESENTATIVE_SECRET_METHODS.has(name) || REPRESENTATIVE_DICTIONARIES.has(name);

export interface RepresentativeSecret {
  fromEmail: string;
  authSecret: string;
}

/** The store's call: the representative's methods through the wrapper, anything else IM. */
export function representativeCall<N extends MethodName>(
  name: N,
  payload: RequestOf<Methods[N]>,
  options?: CallOptions,
  send: typeof callMethod = callMethod,
): Promise<MethodResult<N>> {
  if (!isRepresentativeMethod(name)) {
    const refused: Failure = { responseCode: ResponseCode.invalidMethod, responseDescription: t`This is not available through a representative’s link.` };
    return Promise.resolve(refused);
  }
  return send(name, payload, options);
}

/** The request hooks while the representative's page is open: no token, no company, their secret. */
export function representativeRequestHooks(secret: () => RepresentativeSecret | null): RequestHooks {
  return {
    getAccessToken: () => null,
    refresh: async () => false,
    getActingCustomerId: () => null,
    getRepresentativeSecret: () => secret(),
  };
}

/** Not shown in the spec: the e-mail is kept beside the secret, so a return from the signing page does not ask it again. */
export const REPRESENTATIVE_EMAIL_STORAGE_KEY = 'authSecretEmail';

const storage = (): Storage | null => {
  try {
    return typeof sessionStorage === 'undefined' ? null : sessionStorage;
  } catch {
    return null;
  }
};

/** Keeps the link's secret (a new one replaces the old, and the old e-mail with it). */
export function keepAuthSecret(authSecret: string): void {
  const s = storage();
  if (!s) return;
  try {
    if (s.getItem(AUTH_SECRET_STORAGE_KEY) !== authSecret) s.removeItem(REPRESENTATIVE_EMAIL_STORAGE_KEY);
    s.setItem(AUTH_SECRET_STORAGE_KEY, authSecret);
  } catch {
    // storage full or disabled: the secret lives for this page only
  }
}
export const readAuthSecret = (): string | null => storage()?.getItem(AUTH_SECRET_STORAGE_KEY) ?? null;
export const readRepresentativeEmail = (): string | null => storage()?.getItem(REPRESENTATIVE_EMAIL_STORAGE_KEY) ?? null;
export function keepRepresentativeEmail(email: string): void {
  try {
    storage()?.setItem(REPRESENTATIVE_EMAIL_STORAGE_KEY, email);
  } catch {
    // as above
  }
}
/** A refused link: both are forgotten (a new link must be opened). */
export function forgetRepresentative(): void {
  try {
    storage()?.removeItem(AUTH_SECRET_STORAGE_KEY);
    storage()?.removeItem(REPRESENTATIVE_EMAIL_STORAGE_KEY);
  } catch {
    // as above
  }
}
