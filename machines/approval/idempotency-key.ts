/**
 * Idempotency keys of the money-moving calls (api/transfers.ts IDEMPOTENCY_KEY_HEADER): the
 * machines make one per submit attempt and send it again on every retry of that same attempt, so
 * a retry after a lost answer never moves money twice.
 *
 * 32 hex characters from crypto.getRandomValues (which, unlike crypto.randomUUID, also exists
 * on pages served over plain http to a LAN address). Matches IDEMPOTENCY_KEY_PATTERN.
 */
export function newIdempotencyKey(): string {
  const bytes = new Uint8Array(16);
  globalThis.crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}
