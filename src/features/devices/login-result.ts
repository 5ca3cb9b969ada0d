/**
 * The login result /scp needs (document 1 §2: "/scp only when a login result exists, else
 * login"): `{ migration }` in sessionStorage under LOGIN_RESULT_STORAGE_KEY, written by the login
 * route (storeLoginResult) after a sign-in that carries a soft or strict push 2FA migration.
 */
import * as v from 'valibot';
import { PushMigrationSchema, type PushMigration } from '../../../api/auth.ts';

export const LOGIN_RESULT_STORAGE_KEY = 'wlb.loginResult';
const LoginResultSchema = v.object({ migration: PushMigrationSchema });
const MAX_LOGIN_RESULT_LENGTH = 1024;

function store(): Storage | null {
  try {
    return typeof sessionStorage === 'undefined' ? null : sessionStorage;
  } catch {
    return null;
  }
}

/** Keeps a sign-in's soft or strict migration for /scp, or forgets an older sign-in's result. */
export function storeLoginResult(migration: PushMigration | null | undefined): void {
  if (migration && migration.requirement !== 'none') store()?.setItem(LOGIN_RESULT_STORAGE_KEY, JSON.stringify({ migration }));
  else store()?.removeItem(LOGIN_RESULT_STORAGE_KEY);
}

/** The migration to show, or null when there is none (no login result, or requirement none). */
export function readLoginMigration(): PushMigration | null {
  const raw = store()?.getItem(LOGIN_RESULT_STORAGE_KEY);
  if (!raw || raw.length > MAX_LOGIN_RESULT_LENGTH) return null;
  try {
    const parsed = v.safeParse(LoginResultSchema, JSON.parse(raw));
    return parsed.success && parsed.output.migration.requirement !== 'none' ? parsed.output.migration : null;
  } catch {
    return null;
  }
}

/** The result is used once: after linking (or "Not now") /scp closes again. */
export function clearLoginResult(): void {
  store()?.removeItem(LOGIN_RESULT_STORAGE_KEY);
}
