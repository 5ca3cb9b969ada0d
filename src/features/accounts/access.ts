/**
 * Who may open an account for the customer acted for: the user for themselves always (addCurrency
 * needs no money flag, server/modules/transfers/catalog.methods.ts); for a company, only with an
 * access right that may open accounts (api/rights.ts: addCurrency and createWallet need 'money':
 * full, initiate or confirmed). A read-only or uploading user keeps being told to ask the owner.
 */
import { RIGHTS_ALLOWED } from '../../../api/rights.ts';
import type { SessionSnapshot } from '../../../machines/session/session.select.ts';

export function selectCanOpenAccount(s: SessionSnapshot): boolean {
  if (!s.matches('signedIn')) return false;
  if (s.context.customer?.isAdmin) return false;
  if (s.context.actingCustomerId === null) return true;
  const rights = s.context.accessInfo?.accessRights;
  return rights !== undefined && RIGHTS_ALLOWED.money.includes(rights);
}

/** The user's own e-mail (their login) while acting for themselves; null for a company. */
export function selectOwnEmail(s: SessionSnapshot): string | null {
  if (!s.matches('signedIn') || s.context.actingCustomerId !== null) return null;
  return s.context.customer?.login ?? null;
}
