/**
 * The card issuer behind one interface (issue 16; DESIGN.md "Outside world behind adapters": the
 * card issuer: applications, shipping, authorisations, clearing, reversals). Like the rails, the
 * built-in simulator (issuer-simulator.ts) is the default and a provider configures its own module
 * by CARD_ISSUER_ADAPTER (a module exporting `createCardIssuer(): CardIssuer`).
 *
 * The issuer is the only place a card's full number, CVV and PIN exist. The platform keeps the
 * issuer's reference, the BIN and the last four digits; it asks the issuer for a secret only to
 * hand it to the card's holder after a fresh approval (showPin / getPin), and never logs, stores,
 * exports or audits it.
 *
 * Every call takes the caller's transaction: the simulator keeps its records in the same database
 * (its own table), so an application that rolls back leaves no card at the issuer either. A
 * provider's adapter that calls out over the network does so idempotently by `accountId`.
 */
import type { Tx } from '../../db/types.ts';

export type CardKind = 'physical' | 'virtual' | 'debit';

/** The production steps of a physical card at the issuer, in order (api/cards.ts CardStatus 0, 41, 19, 20, 21). */
export const PRODUCTION_STAGES = ['submitted', 'processing', 'printing', 'printed', 'shipped'] as const;
export type ProductionStage = (typeof PRODUCTION_STAGES)[number];

export interface IssueRequest {
  /** the card's account: the issuer's idempotency key */
  accountId: number;
  kind: CardKind;
  productType: number;
  currency: string;
  cardBrand: 'VISA' | 'MASTERCARD';
  /** physical cards: express shipping */
  express: boolean;
}

export interface IssuedCard {
  issuerRef: string;
  bin: string;
  last4: string;
  expiryMonth: number;
  expiryYear: number;
}

/** A production step reported by the issuer; the platform applies each once, in order (a late or repeated one changes nothing). */
export interface StageEvent {
  issuerRef: string;
  stage: ProductionStage;
}

/** Hands a production event to the platform, delivered after `afterMs` (the job queue; a provider's webhook calls it too). */
export type EmitStage = (event: StageEvent, afterMs: number) => Promise<void>;

/** What a merchant's terminal sends about the card. */
export interface TerminalCardData {
  cardNumber: string;
  expiryMonth: number;
  expiryYear: number;
  /** card-not-present payments carry it; a chip payment does not */
  cvv?: string | undefined;
}

export interface CardSecrets {
  cardNumber: string;
  cvv: string;
  expiryMonth: number;
  expiryYear: number;
}

export interface CardIssuer {
  readonly name: string;
  /** Creates the card (number, CVV); a virtual card is usable at once, a physical one starts production and reports its stages by `emit`. */
  issue(tx: Tx, request: IssueRequest, emit: EmitStage): Promise<IssuedCard>;
  /** Production is sped up (upgrade shipping): the remaining stages are reported sooner. */
  expedite(tx: Tx, issuerRef: string, emit: EmitStage): Promise<void>;
  setPin(tx: Tx, issuerRef: string, pin: string): Promise<void>;
  /** null when no PIN was ever set */
  revealPin(tx: Tx, issuerRef: string): Promise<string | null>;
  revealCard(tx: Tx, issuerRef: string): Promise<CardSecrets>;
  /**
   * The card a terminal's data names: its reference, and whether the expiry (and the CVV when sent)
   * match. null when the number is not one of ours.
   */
  findCard(tx: Tx, data: TerminalCardData): Promise<{ issuerRef: string; dataMatches: boolean } | null>;
}
