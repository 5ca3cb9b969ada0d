/**
 * The query actions of document 1 §2 / document 3 §2 on any external page:
 *   ?action=activation&user=<email>&code=<code>
 *   ?action=activationBusiness&email=<email>&code=<code>
 *   ?action=activationEmployee&email=<email>&code=<code>
 */
import { ACTIVATION_ACTIONS, type ActivationAction } from '../../../api/activation.ts';
import type { ActivationKind } from '../../../machines/activation/activation.machine.ts';

/** Longer values are not ours (limit on everything): they are ignored. */
const MAX_VALUE_LENGTH = 254;

const KIND_OF: Record<ActivationAction, ActivationKind> = {
  activation: 'personal',
  activationBusiness: 'business',
  activationEmployee: 'employee',
};

export interface ActivationQuery {
  kind: ActivationKind;
  email: string;
  code: string;
}

const text = (value: unknown): string => (typeof value === 'string' && value.length <= MAX_VALUE_LENGTH ? value : typeof value === 'number' ? String(value) : '');

/** The activation asked for by the query, or null when the query asks for none. */
export function parseActivationQuery(search: Record<string, unknown>): ActivationQuery | null {
  const action = search.action;
  if (typeof action !== 'string' || !(ACTIVATION_ACTIONS as readonly string[]).includes(action)) return null;
  const kind = KIND_OF[action as ActivationAction];
  return { kind, email: text(kind === 'personal' ? search.user : search.email), code: text(search.code) };
}

/** Document 1 §2: a query action clears any authentication secret (sessionStorage authSecret). */
export const AUTH_SECRET_STORAGE_KEY = 'authSecret';
export function clearAuthSecret(): void {
  try {
    if (typeof sessionStorage !== 'undefined') sessionStorage.removeItem(AUTH_SECRET_STORAGE_KEY);
  } catch {
    // storage may be disabled: nothing to clear then
  }
}
