/**
 * The built-in card issuer (issue 16; issuer.ts): what a real issuer keeps on its side, in its own
 * table (card_issuer_sim_cards) that nothing else in the platform reads.
 *
 * - A card's number is the product's BIN (products.ts PLATFORM_BINS: test ranges, VISA 4…,
 *   MASTERCARD 5…), nine random digits and the Luhn check digit; the CVV three random digits; the
 *   expiry the month of issue three years ahead.
 * - The number, CVV and PIN are sealed with AES-256-GCM (a fresh 12-byte IV each, the tag kept with
 *   them) under a key the caller gives (issuer-adapters.ts: CARD_ISSUER_KEY, or a random key stored
 *   once per installation). The number's HMAC-SHA256 (under a second key derived from the same
 *   key) finds a card from what a terminal sends without decrypting every card.
 * - A physical card reports its production stages (processing, printing, printed, shipped; it is
 *   submitted when issued) through `emit`, each `stageMs` after the previous one (half that by
 *   express); expedite() reports the remaining stages again at a quarter of it (the platform
 *   applies each stage once and in order, so repeats change nothing). A virtual card is usable at once.
 */
import { createCipheriv, createDecipheriv, createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Tx } from '../../db/types.ts';
import { cardIssuerSimCards } from './cards.tables.ts';
import type { CardIssuer, CardSecrets, EmitStage, IssuedCard, IssueRequest, ProductionStage, TerminalCardData } from './issuer.ts';
import { PLATFORM_BINS } from './products.ts';

export interface CardSimulatorOptions {
  /** the 32-byte key the secrets are sealed under */
  key: Uint8Array;
  /** the delay between two production stages of a standard card, ms */
  stageMs: number;
  /** the clock (the expiry is counted from the month of issue) */
  now: () => number;
}

/** A demo's pace: a physical card is shipped about 12 seconds after its fee is paid. */
export const DEFAULT_STAGE_MS = 3_000;

/** The stages reported after issue, in order. */
const REPORTED_STAGES: readonly ProductionStage[] = ['processing', 'printing', 'printed', 'shipped'];

/** The Luhn check digit that makes `partial` + digit valid. */
export function luhnCheckDigit(partial: string): string {
  let sum = 0;
  for (let i = 0; i < partial.length; i++) {
    // from the right of the full number, the check digit is position 1: partial's last digit is doubled
    let d = Number(partial[partial.length - 1 - i]);
    if (i % 2 === 0) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return String((10 - (sum % 10)) % 10);
}

const digits = (n: number): string => Array.from({ length: n }, () => String(randomInt(0, 10))).join('');

export function createCardSimulator(options: CardSimulatorOptions): CardIssuer {
  if (options.key.length !== 32) throw new Error('the card issuer key must be 32 bytes');
  // two keys from one: sealing and the number's look-up HMAC never share a key
  const sealKey = createHmac('sha256', options.key).update('card-issuer-seal').digest();
  const macKey = createHmac('sha256', options.key).update('card-issuer-pan-hmac').digest();

  const seal = (plain: string): string => {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', sealKey, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
  };
  const unseal = (sealed: string): string => {
    const raw = Buffer.from(sealed, 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', sealKey, raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  };
  const panHmac = (pan: string): string => createHmac('sha256', macKey).update(pan).digest('hex');

  async function record(tx: Tx, issuerRef: string) {
    const [row] = await tx.select().from(cardIssuerSimCards).where(eq(cardIssuerSimCards.issuerRef, issuerRef));
    if (!row) throw new Error(`no card ${issuerRef} at the issuer`);
    return row;
  }

  async function report(emit: EmitStage, issuerRef: string, everyMs: number): Promise<void> {
    for (const [i, stage] of REPORTED_STAGES.entries()) await emit({ issuerRef, stage }, (i + 1) * everyMs);
  }

  return {
    name: 'simulator',

    async issue(tx: Tx, request: IssueRequest, emit: EmitStage): Promise<IssuedCard> {
      // idempotent by the card's account: the same application issues one card
      const issuerRef = `sim-${request.accountId}`;
      const [existing] = await tx.select().from(cardIssuerSimCards).where(eq(cardIssuerSimCards.issuerRef, issuerRef));
      if (existing) {
        const pan = unseal(existing.panSealed);
        return { issuerRef, bin: pan.slice(0, 6), last4: pan.slice(-4), expiryMonth: existing.expiryMonth, expiryYear: existing.expiryYear };
      }
      const bin = PLATFORM_BINS[request.kind][request.currency];
      if (!bin) throw new Error(`the issuer has no BIN for ${request.kind} cards in ${request.currency}`);
      let pan = '';
      for (let attempt = 0; ; attempt++) {
        const partial = bin + digits(9);
        pan = partial + luhnCheckDigit(partial);
        const [taken] = await tx
          .select({ ref: cardIssuerSimCards.issuerRef })
          .from(cardIssuerSimCards)
          .where(eq(cardIssuerSimCards.panHmac, panHmac(pan)));
        if (!taken) break;
        if (attempt > 20) throw new Error('the issuer found no free card number');
      }
      const issued = new Date(options.now());
      const expiryMonth = issued.getUTCMonth() + 1;
      const expiryYear = issued.getUTCFullYear() + 3;
      await tx.insert(cardIssuerSimCards).values({
        issuerRef,
        panHmac: panHmac(pan),
        panSealed: seal(pan),
        cvvSealed: seal(digits(3)),
        expiryMonth,
        expiryYear,
        stage: request.kind === 'virtual' ? 'issued' : 'submitted',
      });
      if (request.kind !== 'virtual') await report(emit, issuerRef, request.express ? Math.round(options.stageMs / 2) : options.stageMs);
      return { issuerRef, bin, last4: pan.slice(-4), expiryMonth, expiryYear };
    },

    async expedite(tx: Tx, issuerRef: string, emit: EmitStage): Promise<void> {
      await record(tx, issuerRef);
      await tx.update(cardIssuerSimCards).set({ stage: 'expedited' }).where(eq(cardIssuerSimCards.issuerRef, issuerRef));
      await report(emit, issuerRef, Math.max(1, Math.round(options.stageMs / 4)));
    },

    async setPin(tx: Tx, issuerRef: string, pin: string): Promise<void> {
      await record(tx, issuerRef);
      await tx
        .update(cardIssuerSimCards)
        .set({ pinSealed: seal(pin) })
        .where(eq(cardIssuerSimCards.issuerRef, issuerRef));
    },

    async revealPin(tx: Tx, issuerRef: string): Promise<string | null> {
      const row = await record(tx, issuerRef);
      return row.pinSealed === null ? null : unseal(row.pinSealed);
    },

    async revealCard(tx: Tx, issuerRef: string): Promise<CardSecrets> {
      const row = await record(tx, issuerRef);
      return { cardNumber: unseal(row.panSealed), cvv: unseal(row.cvvSealed), expiryMonth: row.expiryMonth, expiryYear: row.expiryYear };
    },

    async findCard(tx: Tx, data: TerminalCardData): Promise<{ issuerRef: string; dataMatches: boolean } | null> {
      const pan = data.cardNumber.replace(/\s+/g, '');
      if (!/^\d{12,19}$/.test(pan)) return null;
      const [row] = await tx
        .select()
        .from(cardIssuerSimCards)
        .where(eq(cardIssuerSimCards.panHmac, panHmac(pan)));
      if (!row) return null;
      let matches = row.expiryMonth === data.expiryMonth && row.expiryYear === data.expiryYear;
      if (data.cvv !== undefined) {
        const a = Buffer.from(unseal(row.cvvSealed));
        const b = Buffer.from(data.cvv);
        matches = matches && a.length === b.length && timingSafeEqual(a, b);
      }
      return { issuerRef: row.issuerRef, dataMatches: matches };
    },
  };
}
