/**
 * Recovery codes (document 1 §3): ten single-use codes a user keeps on paper to sign in without
 * the phone. 10 characters from an alphabet without look-alikes (no 0/O, 1/I/L), shown as
 * XXXXX-XXXXX, stored as sha256 of the normalised form. The sign-in consumer (tokens.service.ts)
 * must normalise with normaliseRecoveryCode so both sides hash the same text.
 */
import { randomInt } from 'node:crypto';
import { and, count, eq, isNull } from 'drizzle-orm';
import { RECOVERY_CODE_COUNT } from '../../../api/security.ts';
import type { Db, Tx } from '../../db/types.ts';
import { recoveryCodes } from '../auth/auth.tables.ts';
import { sha256Hex } from '../auth/crypto.ts';

/** 31 characters: 10 of them carry ~49.5 bits, far beyond guessing under the sign-in limits. */
export const RECOVERY_CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
export const RECOVERY_CODE_LENGTH = 10;

/** Upper case, no dash or white space: what is hashed, whatever way the user typed it. */
export function normaliseRecoveryCode(code: string): string {
  return code.toUpperCase().replace(/[\s-]/g, '');
}

export function hashRecoveryCode(code: string): string {
  return sha256Hex(normaliseRecoveryCode(code));
}

/** One code as shown: XXXXX-XXXXX (randomInt is uniform: no modulo bias). */
export function generateRecoveryCode(): string {
  let raw = '';
  for (let i = 0; i < RECOVERY_CODE_LENGTH; i++) raw += RECOVERY_CODE_ALPHABET[randomInt(RECOVERY_CODE_ALPHABET.length)];
  return `${raw.slice(0, 5)}-${raw.slice(5)}`;
}

/**
 * Replaces the user's unused codes with RECOVERY_CODE_COUNT new ones in the caller's transaction
 * and returns them: the only moment they exist in clear. Spent codes stay as history.
 */
export async function issueRecoveryCodes(tx: Tx | Db, userId: number): Promise<string[]> {
  await tx.delete(recoveryCodes).where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)));
  const codes = new Set<string>();
  while (codes.size < RECOVERY_CODE_COUNT) codes.add(generateRecoveryCode());
  const list = [...codes];
  await tx.insert(recoveryCodes).values(list.map((code) => ({ userId, codeHash: hashRecoveryCode(code) })));
  return list;
}

export async function countUnusedRecoveryCodes(db: Tx | Db, userId: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(recoveryCodes)
    .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)));
  return row?.n ?? 0;
}
