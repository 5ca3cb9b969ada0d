/**
 * The card lifecycle on the platform's side (issue 16; document 2 §3, §4, §7): the application,
 * the production stages, activation, PIN, reveal, pause, block, reissue, shipping, and the reads
 * of the card calls. Every call acts on a card of the acting customer (another customer's card,
 * or an account that is no card, answers ENOA like any other account), checks the action against
 * the status table (api/cards.ts cardActionAllowed) and runs in the endpoint's one transaction.
 *
 * Design choices (the spec leaves them open):
 * - The card is issued at the issuer when it is applied for, in the same transaction (so the card
 *   row has its BIN, last four, expiry and reference from the start, and a rolled-back application
 *   leaves no card at the issuer either). A physical card's production stages are then reported
 *   through the job queue (card.stage); a stage that arrives while the card still waits for its
 *   fee's approval (65) or its confirmation (23) is sent again later, for as long as the card
 *   waits (cards.workers.ts: CardWaitingError), and dropped once the card was canceled. Each stage is applied once and in
 *   order (0 -> 41 -> 19 -> 20 -> 21): a repeated or late one changes nothing; one that comes
 *   before its predecessor waits for it (retried).
 * - The application's fee (issue + shipping) is a transfer of kind cardFee approved by the
 *   customer's approval mode (transfers.service.ts requestCardFee); once booked the card is
 *   Active (virtual), Submitted (physical and debit), or waits in 23 when the shipping address is
 *   not confirmed; voided, the card is Canceled.
 * - Block and reissue refuse (VF cardStatus) while authorisations hold money on the card
 *   (pending_minor > 0): the held money is the merchant's until it clears or is reversed.
 * - The reissue's and the shipping upgrade's fees are charged from the card's fee account
 *   directly (journal kind account_fee: history shows them as Fees).
 * - Secrets (number, CVV, PIN) pass through here only on their way to the card's holder; they are
 *   never audited, logged or stored (the audit entries name the card and what was done).
 */
import { randomInt } from 'node:crypto';
import { and, asc, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import { CardStatus, cardActionAllowed, isWeakPin as isWeakPinPattern, type CardAction, type CardProduct, type RevealApproveType } from '../../../api/cards.ts';
import { AccountType } from '../../../api/accounts.ts';
import { VfCode, vf as vfError } from '../../../api/errors.ts';
import { activeVariant } from '../../../variants/index.ts';
import { enqueueSms } from '../../adapters/outbox.ts';
import type { JobQueue } from '../../db/job-queue.ts';
import type { Db, Tx } from '../../db/types.ts';
import { accounts } from '../accounts/accounts.tables.ts';
import { bookEntry, lockAccounts, providerAccountId, type LockedAccount } from '../accounts/ledger.ts';
import { minorToDecimal } from '../accounts/money.ts';
import { sha256Hex } from '../auth/crypto.ts';
import { checkCurrentPassword } from '../auth/current-password.ts';
import { maskPhone } from '../auth/tokens.service.ts';
import { customers, users } from '../customers/customers.tables.ts';
import { MethodFailure, vfFailure } from '../method-types.ts';
import { KeptFailure } from '../platform/method-endpoint.ts';
import { customerAddresses } from '../profile/profile.tables.ts';
import { NotYetError } from '../rails/payouts.service.ts';
import { APPROVAL_MAX_ATTEMPTS, checkApprovalCode, newApprovalCode, prepareApproval, type TransferApprovalRow } from '../transfers/approval.service.ts';
import { TransferMessages, type TransferActor, type TransferPublisher, type TransferResult, type TransferRow, type TransferService } from '../transfers/transfers.service.ts';
import { transfers } from '../transfers/transfers.tables.ts';
import { cardReveals, cards } from './cards.tables.ts';
import type { CardIssuer, EmitStage, ProductionStage, StageEvent } from './issuer.ts';
import { cardProduct, maxCardsPerKind, offeredIn, PLATFORM_BINS, BRAND_OF_KIND, productsFor, shippingOptionsTo, type CardProductDef } from './products.ts';

export const CARD_STAGE_QUEUE = 'card.stage';
/**
 * A stage waiting for its card (approval, confirmation) or for its predecessor is retried: 1 s
 * doubling, 18 attempts (about three days in all; the first few retries within seconds, so stages
 * that came out of order are applied almost at once).
 */
export const CARD_QUEUES = [{ name: CARD_STAGE_QUEUE, retryLimit: 18, retryDelaySeconds: 1 }] as const;

/** The production statuses in order, and the stage that reports each. */
const PRODUCTION_ORDER: readonly number[] = [CardStatus.submitted, CardStatus.processing, CardStatus.printing, CardStatus.printed, CardStatus.shipped];
const STAGE_STATUS: Record<ProductionStage, number> = { submitted: 0, processing: 41, printing: 19, printed: 20, shipped: 21 };
/** In production at the issuer: it has the address the card ships to (document 2 §7 address replacement compatibility). */
const IN_PRODUCTION: readonly number[] = [CardStatus.processing, CardStatus.printing, CardStatus.printed];
const PAYMENT_TYPES: readonly number[] = [AccountType.payment, AccountType.paymentVariant];
const ACCOUNT_CLOSED = 11;
export const REVEAL_TTL_MS = 5 * 60_000;
export const REVEAL_VISIBLE_MS = 30_000;

/** A stage for a card that still waits (65, 23): the worker sends it again later, for as long as the card waits (cards.workers.ts). */
export class CardWaitingError extends NotYetError {
  override name = 'CardWaitingError';
}

export const CardMessages = {
  noCard: 'No access to this account',
  unknownReveal: 'Unknown or finished reveal',
} as const;

/** Weak PINs (document 2 §5 "refusing weak PINs such as 0000 or 1234"): the one rule of api/cards.ts, which the screens apply too. */
export const isWeakPin = isWeakPinPattern;

/** A random PIN that is not weak (activation). */
export function randomStrongPin(): string {
  for (;;) {
    const pin = String(randomInt(0, 10_000)).padStart(4, '0');
    if (!isWeakPin(pin)) return pin;
  }
}

export interface CardServiceDeps {
  issuer: CardIssuer;
  now: () => number;
  /** the queue the production stages go through; null: none are reported (an app without a queue) */
  queue: Pick<JobQueue, 'send'> | null;
  /** card fees are transfers (requestCardFee); set once the transfer service exists */
  transfers: () => TransferService;
  /** stage events after their own commit */
  publisher: TransferPublisher | null;
}

export type CardService = ReturnType<typeof createCardService>;

type CardRow = typeof cards.$inferSelect;
interface OwnCard {
  account: LockedAccount & { settlementAccountId: number | null; subType: string | null };
  card: CardRow;
  product: CardProductDef;
}

const vf = vfFailure;
const major = (minor: bigint, currency: string): number => Number(minorToDecimal(minor, currency));

export function createCardService(deps: CardServiceDeps) {
  const { issuer, now } = deps;

  /** The emit of a transaction: the stage job exists only if the transaction commits. */
  const emitIn =
    (tx: Tx): EmitStage =>
    async (event, afterMs) => {
      if (deps.queue) await deps.queue.send(CARD_STAGE_QUEUE, event, { tx, afterMs });
    };

  /** The card account of the acting customer, its account row locked; ENOA for anything else. */
  async function ownCard(tx: Tx | Db, customerId: number, accountId: number, lock: boolean): Promise<OwnCard> {
    const [row] = await tx
      .select({ account: accounts, card: cards })
      .from(accounts)
      .innerJoin(cards, eq(cards.accountId, accounts.accountId))
      .where(eq(accounts.accountId, accountId));
    if (!row || row.account.customerId !== customerId || row.account.purpose !== 'customer') throw new MethodFailure('ENOA', CardMessages.noCard);
    const product = cardProduct(row.account.type);
    if (!product) throw new Error(`card ${accountId} has no product`);
    let locked: LockedAccount;
    if (lock) {
      locked = (await lockAccounts(tx, [accountId])).get(accountId)!;
    } else {
      const a = row.account;
      locked = {
        accountId: a.accountId,
        customerId: a.customerId,
        currency: a.currency,
        purpose: a.purpose,
        status: a.status,
        type: a.type,
        balanceMinor: a.balanceMinor,
        balanceMinMinor: a.balanceMinMinor,
        pendingMinor: a.pendingMinor,
      };
    }
    return { account: { ...locked, settlementAccountId: row.account.settlementAccountId, subType: row.account.subType }, card: row.card, product };
  }

  function checkAction(action: CardAction, own: OwnCard): void {
    if (cardActionAllowed(action, { accountStatusId: own.account.status, cardIsVirtual: own.card.isVirtual })) return;
    if (action === 'editName' && !own.card.isVirtual) throw vf('accountId', VfCode.cardVirtualOnly);
    if ((action === 'activate' || action === 'upgradeShipping') && own.card.isVirtual) throw vf('accountId', VfCode.cardPhysicalOnly);
    throw vf('accountId', VfCode.cardStatus);
  }

  /** Cancels a card for good: its balance goes back to the customer's payment account in its currency (opened if there is none). */
  async function cancelCard(tx: Tx, actor: TransferActor, own: OwnCard, action: 'block' | 'addressChange') {
    const accountId = own.account.accountId;
    let refundedTo: number | null = null;
    let refunded = 0n;
    if (own.account.balanceMinor > 0n) {
      const payment = (await paymentAccounts(tx, actor.customerId)).find((a) => a.currency === own.account.currency);
      refundedTo =
        payment?.accountId ??
        (
          await tx
            .insert(accounts)
            .values({ type: AccountType.payment, currency: own.account.currency, customerId: actor.customerId, purpose: 'customer' })
            .returning({ id: accounts.accountId })
        )[0]!.id;
      refunded = await moveBalance(tx, own.account, refundedTo, `card-${action === 'block' ? 'block' : 'address'}:${accountId}`, 'card_refund');
    }
    await setStatus(tx, accountId, CardStatus.canceled);
    actor.audit?.({ cardAccountId: accountId, action, refundedToAccountId: refundedTo });
    return { accountStatusId: CardStatus.canceled, refundedAmount: minorToDecimal(refunded, own.account.currency), refundedToAccountId: refundedTo };
  }

  /**
   * What replacing an address would do to the customer's cards (document 2 §7 address replacement
   * compatibility). Our reading, the spec giving only the two lists:
   * - to be canceled: when the address moves to another country and it is the address that makes
   *   the customer's country, or one a card ships to, every live card whose product is not offered
   *   in the new country (a card programme is licensed per country);
   * - to be shipped to the old address: physical cards the issuer is already producing
   *   (processing, printing, printed) for that address: the issuer has the old address. A card
   *   still submitted, or waiting (65, 23), takes the new address, since it reads the address row
   *   when it goes to production.
   */
  async function replacementImpact(db: Db | Tx, customerId: number, countryCode: string, oldAddressId: number) {
    const old = await addressOf(db, customerId, oldAddressId);
    if (!old) throw vf('oldAddressId', VfCode.notAllowed);
    const rows = await db
      .select({ accountId: accounts.accountId, type: accounts.type, status: accounts.status, addressId: cards.addressId })
      .from(cards)
      .innerJoin(accounts, eq(accounts.accountId, cards.accountId))
      .where(and(eq(accounts.customerId, customerId), ne(accounts.status, CardStatus.canceled)))
      .orderBy(asc(accounts.accountId));
    const movesCountry = old.countryCode.toUpperCase() !== countryCode.toUpperCase();
    const makesCountry = movesCountry && (await customerCountry(db, customerId)) === old.countryCode;
    return {
      cardAccountsToBeCanceled: rows
        .filter((r) => {
          const p = cardProduct(r.type);
          return movesCountry && (makesCountry || r.addressId === oldAddressId) && p !== null && !offeredIn(p, countryCode.toUpperCase());
        })
        .map((r) => r.accountId),
      cardAccountsToBeShippedToOldAddress: rows.filter((r) => r.addressId === oldAddressId && IN_PRODUCTION.includes(r.status)).map((r) => r.accountId),
    };
  }

  async function setStatus(tx: Tx, accountId: number, status: number): Promise<void> {
    await tx.update(accounts).set({ status }).where(eq(accounts.accountId, accountId));
    await tx
      .update(cards)
      .set({ updatedAt: new Date(now()) })
      .where(eq(cards.accountId, accountId));
  }

  /** The customer's country: residence, else the current address's. */
  async function customerCountry(db: Db | Tx, customerId: number): Promise<string | null> {
    const [c] = await db.select({ residence: customers.residenceCountryCode }).from(customers).where(eq(customers.id, customerId));
    if (c?.residence) return c.residence;
    const [address] = await db
      .select({ country: customerAddresses.countryCode })
      .from(customerAddresses)
      .where(and(eq(customerAddresses.customerId, customerId), isNull(customerAddresses.deletedAt), ne(customerAddresses.countryCode, '')))
      .orderBy(sql`${customerAddresses.addressStatus} = 1 desc`, asc(customerAddresses.id))
      .limit(1);
    return address?.country ?? null;
  }

  async function paymentAccounts(db: Db | Tx, customerId: number) {
    return db
      .select({ accountId: accounts.accountId, currency: accounts.currency })
      .from(accounts)
      .where(and(eq(accounts.customerId, customerId), eq(accounts.purpose, 'customer'), inArray(accounts.type, [...PAYMENT_TYPES]), ne(accounts.status, ACCOUNT_CLOSED)))
      .orderBy(asc(accounts.accountId));
  }

  /** The customer's cards not canceled, by kind (debit: by kind and currency). */
  async function liveCardCounts(db: Db | Tx, customerId: number): Promise<Map<string, number>> {
    const rows = await db
      .select({ kind: cards.kind, currency: accounts.currency })
      .from(cards)
      .innerJoin(accounts, eq(accounts.accountId, cards.accountId))
      .where(and(eq(accounts.customerId, customerId), ne(accounts.status, CardStatus.canceled)));
    const out = new Map<string, number>();
    for (const r of rows) {
      const key = r.kind === 'debit' ? `debit:${r.currency}` : r.kind;
      out.set(key, (out.get(key) ?? 0) + 1);
    }
    return out;
  }
  const limitKey = (p: CardProductDef) => (p.kind === 'debit' ? `debit:${p.currency}` : p.kind);

  async function isVerified(db: Db | Tx, customerId: number): Promise<boolean> {
    const [c] = await db.select({ verified: customers.verified }).from(customers).where(eq(customers.id, customerId));
    return c?.verified ?? false;
  }

  async function addressOf(db: Db | Tx, customerId: number, addressId: number) {
    const [a] = await db
      .select({ id: customerAddresses.id, countryCode: customerAddresses.countryCode, status: customerAddresses.status })
      .from(customerAddresses)
      .where(and(eq(customerAddresses.id, addressId), eq(customerAddresses.customerId, customerId), isNull(customerAddresses.deletedAt)));
    return a ?? null;
  }

  function wireProduct(p: CardProductDef, country: string, disabledReasons: CardProduct['disabledReasons']): CardProduct {
    const cur = p.currency;
    return {
      type: p.type,
      kind: p.kind,
      subType: p.subType,
      isVirtual: p.isVirtual,
      currencyCode: cur,
      cardBrand: p.cardBrand,
      fees: { annual: major(p.fees.annualMinor, cur), issue: major(p.fees.issueMinor, cur), monthly: major(p.fees.monthlyMinor, cur), currency: cur },
      shippingOptions: shippingOptionsTo(p, country).map(({ def, disabled }) => ({
        id: def.id,
        type: def.type,
        fee: major(def.feeMinor, cur),
        currency: cur,
        deliveryTime: def.deliveryTimeDays,
        disabledReasons: disabled ? ['NOT_AVAILABLE_IN_COUNTRY' as const] : [],
      })),
      limits: { perPayment: minorToDecimal(p.limits.perPaymentMinor, cur), perDay: minorToDecimal(p.limits.perDayMinor, cur) },
      disabledReasons,
    };
  }

  /** A fee charged from a customer account directly (journal kind account_fee: history's Fees). */
  async function chargeFee(tx: Tx, feeAccountId: number, amountMinor: bigint, currency: string, key: string, what: string, param: string): Promise<void> {
    if (amountMinor <= 0n) return;
    const locked = await lockAccounts(tx, [feeAccountId]);
    const source = locked.get(feeAccountId);
    if (!source || source.status === ACCOUNT_CLOSED) throw new MethodFailure('CA', TransferMessages.closed);
    if (source.currency !== currency) throw vf(param, VfCode.currencyOfAccount);
    if (source.balanceMinor - source.pendingMinor - amountMinor < source.balanceMinMinor) throw vf(param, VfCode.balanceExceeded);
    await bookEntry(tx, {
      kind: 'account_fee',
      idempotencyKey: key,
      description: { fee: what },
      legs: [
        { accountId: feeAccountId, amountMinor: -amountMinor },
        { accountId: await providerAccountId(tx, 'fee', currency), amountMinor },
      ],
      locked,
    });
  }

  /** Moves a card's balance to another account of the customer (block, reissue). */
  async function moveBalance(tx: Tx, from: LockedAccount, toAccountId: number, key: string, kind: string): Promise<bigint> {
    const amount = from.balanceMinor;
    if (amount <= 0n) return 0n;
    await bookEntry(tx, {
      kind,
      idempotencyKey: key,
      description: { cardAccountId: from.accountId },
      legs: [
        { accountId: from.accountId, amountMinor: -amount },
        { accountId: toAccountId, amountMinor: amount },
      ],
    });
    return amount;
  }

  async function newCardAccount(tx: Tx, customerId: number, product: CardProductDef, status: number, settlementAccountId: number | null): Promise<number> {
    const [created] = await tx
      .insert(accounts)
      .values({ type: product.type, subType: product.subType, status, currency: product.currency, customerId, settlementAccountId, purpose: 'customer' })
      .returning({ id: accounts.accountId });
    return created!.id;
  }

  /** Whether the card may go into production: the customer verified and (physical) its address confirmed. */
  async function requirementsOf(tx: Db | Tx, card: CardRow, customerId: number) {
    const [fee] = card.feeTransferId === null ? [{ status: 'posted' }] : await tx.select({ status: transfers.status }).from(transfers).where(eq(transfers.id, card.feeTransferId));
    const address = card.addressId === null ? null : await addressOf(tx, customerId, card.addressId);
    return [
      { code: 'FEE_PAID' as const, met: fee?.status === 'posted' },
      { code: 'IDENTITY_VERIFIED' as const, met: await isVerified(tx, customerId) },
      { code: 'ADDRESS_CONFIRMED' as const, met: card.isVirtual || address?.status === 'confirmed' },
    ];
  }

  return {
    // ---- the transfer service's port --------------------------------------------------------

    /** The application's fee was booked: virtual -> Active; physical/debit -> Submitted, or 23 while a requirement is not met. */
    async feePaid(tx: Tx, t: TransferRow): Promise<void> {
      const [card] = await tx.select().from(cards).where(eq(cards.feeTransferId, t.id));
      if (!card) return;
      const locked = (await lockAccounts(tx, [card.accountId])).get(card.accountId)!;
      if (locked.status !== CardStatus.pendingApproval) return;
      if (card.isVirtual) return setStatus(tx, card.accountId, CardStatus.active);
      const requirements = await requirementsOf(tx, card, locked.customerId);
      await setStatus(tx, card.accountId, requirements.every((r) => r.met) ? CardStatus.submitted : CardStatus.pendingConfirmation);
    },

    /** The application's fee was rejected, expired or canceled: the card is Canceled. */
    async feeVoided(tx: Tx, t: TransferRow): Promise<void> {
      const [card] = await tx.select().from(cards).where(eq(cards.feeTransferId, t.id));
      if (!card) return;
      const locked = (await lockAccounts(tx, [card.accountId])).get(card.accountId)!;
      if (locked.status === CardStatus.pendingApproval) await setStatus(tx, card.accountId, CardStatus.canceled);
    },

    // ---- the issuer's production stages (the card.stage job) --------------------------------

    /**
     * Applies one production stage, once and in order; true when it changed the card. Throws
     * CardWaitingError while the card waits for approval or confirmation (the worker sends the stage
     * again later), or NotYetError (the job is retried) when
     * an earlier stage has not been applied yet.
     */
    async applyStage(db: Db, event: StageEvent): Promise<boolean> {
      let published: { customerId: number; accountId: number; status: number } | null = null;
      const changed = await db.transaction(async (tx) => {
        const [card] = await tx.select({ accountId: cards.accountId }).from(cards).where(eq(cards.issuerRef, event.issuerRef));
        if (!card) return false;
        const locked = (await lockAccounts(tx, [card.accountId])).get(card.accountId)!;
        if (locked.status === CardStatus.pendingApproval || locked.status === CardStatus.pendingConfirmation) {
          throw new CardWaitingError(`card ${card.accountId} is not in production yet`);
        }
        const current = PRODUCTION_ORDER.indexOf(locked.status);
        const next = PRODUCTION_ORDER.indexOf(STAGE_STATUS[event.stage]);
        if (current < 0 || next <= current) return false;
        if (next > current + 1) throw new NotYetError(`card ${card.accountId}: stage ${event.stage} before its predecessor`);
        await setStatus(tx, card.accountId, STAGE_STATUS[event.stage]);
        published = { customerId: locked.customerId, accountId: card.accountId, status: STAGE_STATUS[event.stage] };
        return true;
      });
      const p = published as { customerId: number; accountId: number; status: number } | null;
      if (p) await deps.publisher?.publish(p.customerId, { type: 'CardStatus', accountId: p.accountId, accountStatusId: p.status }).catch(() => undefined);
      return changed;
    },

    // ---- the calls --------------------------------------------------------------------------

    async applyForCardInfo(db: Db, customerId: number, countryCode: string | undefined) {
      const country = countryCode ?? (await customerCountry(db, customerId));
      if (!country) return { countryCode: '', products: [] };
      const [verified, payment, counts] = await Promise.all([isVerified(db, customerId), paymentAccounts(db, customerId), liveCardCounts(db, customerId)]);
      const currencies = new Set(payment.map((a) => a.currency));
      const products = productsFor(country).map((p) => {
        const reasons: CardProduct['disabledReasons'] = [];
        if (p.kind === 'debit' && !currencies.has(p.currency)) reasons.push('NO_ACCOUNT_IN_CURRENCY');
        if ((counts.get(limitKey(p)) ?? 0) >= maxCardsPerKind[p.kind]) reasons.push('LIMIT_REACHED');
        if (!verified) reasons.push('NOT_VERIFIED');
        return wireProduct(p, country, reasons);
      });
      return { countryCode: country, products };
    },

    async apply(
      tx: Tx,
      actor: TransferActor,
      input: {
        type: number;
        feeAccountId: number;
        addressId?: number | undefined;
        shippingOptionId?: number | undefined;
        settlementAccountId?: number | undefined;
        cardAliasName?: string | undefined;
      },
    ): Promise<{ accountId: number; accountStatusId: number } & TransferResult> {
      const product = cardProduct(input.type);
      if (!product) throw vf('type', VfCode.notOffered);
      const country = await customerCountry(tx, actor.customerId);
      if (!country || !offeredIn(product, country)) throw vf('type', VfCode.notOffered);
      if (!(await isVerified(tx, actor.customerId))) throw vf('type', VfCode.notAllowed);
      if (((await liveCardCounts(tx, actor.customerId)).get(limitKey(product)) ?? 0) >= maxCardsPerKind[product.kind]) throw vf('type', VfCode.notAllowed);

      const payment = await paymentAccounts(tx, actor.customerId);
      const feeAccount = payment.find((a) => a.accountId === input.feeAccountId);
      if (!feeAccount) throw new MethodFailure('ENOA', CardMessages.noCard);
      if (feeAccount.currency !== product.currency) throw vf('feeAccountId', VfCode.currencyOfAccount);

      let settlementAccountId: number | null = null;
      if (product.kind === 'debit') {
        if (input.settlementAccountId === undefined) throw vf('settlementAccountId', VfCode.required);
        const settlement = payment.find((a) => a.accountId === input.settlementAccountId);
        if (!settlement) throw new MethodFailure('ENOA', CardMessages.noCard);
        if (settlement.currency !== product.currency) throw vf('settlementAccountId', VfCode.currencyOfAccount);
        settlementAccountId = settlement.accountId;
      }
      if (input.cardAliasName !== undefined && !product.isVirtual) throw vf('cardAliasName', VfCode.cardVirtualOnly);

      let shippingFee = 0n;
      let shipping: 'standard' | 'express' | null = null;
      let addressId: number | null = null;
      if (!product.isVirtual) {
        if (input.addressId === undefined) throw vf('addressId', VfCode.required);
        if (input.shippingOptionId === undefined) throw vf('shippingOptionId', VfCode.required);
        const address = await addressOf(tx, actor.customerId, input.addressId);
        if (!address) throw vf('addressId', VfCode.notAllowed);
        const option = shippingOptionsTo(product, address.countryCode).find((o) => o.def.id === input.shippingOptionId);
        if (!option || option.disabled) throw vf('shippingOptionId', VfCode.shippingUnavailable);
        shippingFee = option.def.feeMinor;
        shipping = option.def.type;
        addressId = address.id;
      }

      const accountId = await newCardAccount(tx, actor.customerId, product, CardStatus.pendingApproval, settlementAccountId);
      const issued = await issuer.issue(
        tx,
        { accountId, kind: product.kind, productType: product.type, currency: product.currency, cardBrand: product.cardBrand, express: shipping === 'express' },
        emitIn(tx),
      );
      await tx.insert(cards).values({
        accountId,
        kind: product.kind,
        isVirtual: product.isVirtual,
        aliasName: input.cardAliasName ?? null,
        expiryMonth: issued.expiryMonth,
        expiryYear: issued.expiryYear,
        bin: issued.bin,
        last4: issued.last4,
        issuerRef: issued.issuerRef,
        feeAccountId: feeAccount.accountId,
        addressId,
        shipping,
        userId: actor.userId,
      });
      actor.audit?.({ cardAccountId: accountId, cardType: product.type, kind: product.kind, last4: issued.last4 });
      // Decided (maker-checker, issue 17): a card costs the company its fee, so a card ordered for a
      // company by a user with right 3 (initiate) is a payment like any other: its fee transfer waits
      // for the company's checker (transfers.service.ts requestCardFee parks it), the card stays
      // pendingApproval; approved, the fee is booked and the card goes on (feePaid); declined or
      // expired, the card is canceled (feeVoided). It is not refused: right 3 may start payments.
      const result = await deps.transfers().requestCardFee(tx, actor, {
        fromAccountId: feeAccount.accountId,
        amountMinor: product.fees.issueMinor + shippingFee,
        payeeName: 'Card issue fee',
        attach: async (tx2, t) => void (await tx2.update(cards).set({ feeTransferId: t.id }).where(eq(cards.accountId, accountId))),
      });
      const [after] = await tx.select({ status: accounts.status }).from(accounts).where(eq(accounts.accountId, accountId));
      return { accountId, accountStatusId: after!.status, ...result };
    },

    async confirmRequirements(db: Db, customerId: number, accountId: number) {
      const own = await ownCard(db, customerId, accountId, false);
      const requirements = await requirementsOf(db, own.card, customerId);
      return {
        accountId,
        accountStatusId: own.account.status,
        requirements,
        canConfirm: own.account.status === CardStatus.pendingConfirmation && requirements.every((r) => r.met),
      };
    },

    async confirm(tx: Tx, actor: TransferActor, accountId: number) {
      const own = await ownCard(tx, actor.customerId, accountId, true);
      if (own.account.status !== CardStatus.pendingConfirmation) throw vf('accountId', VfCode.cardStatus);
      const requirements = await requirementsOf(tx, own.card, actor.customerId);
      if (!requirements.every((r) => r.met)) throw vf('accountId', VfCode.notAllowed);
      await setStatus(tx, accountId, CardStatus.submitted);
      actor.audit?.({ cardAccountId: accountId, action: 'confirm' });
      return { accountStatusId: CardStatus.submitted };
    },

    async pause(tx: Tx, actor: TransferActor, accountId: number) {
      const own = await ownCard(tx, actor.customerId, accountId, true);
      checkAction('pause', own);
      await setStatus(tx, accountId, CardStatus.paused);
      actor.audit?.({ cardAccountId: accountId, action: 'pause' });
      return { accountStatusId: CardStatus.paused };
    },

    async unpause(tx: Tx, actor: TransferActor, accountId: number) {
      const own = await ownCard(tx, actor.customerId, accountId, true);
      checkAction('unpause', own);
      await setStatus(tx, accountId, CardStatus.active);
      actor.audit?.({ cardAccountId: accountId, action: 'unpause' });
      return { accountStatusId: CardStatus.active };
    },

    async block(tx: Tx, actor: TransferActor, accountId: number) {
      const own = await ownCard(tx, actor.customerId, accountId, true);
      checkAction('block', own);
      if (own.account.pendingMinor > 0n) throw vf('accountId', VfCode.cardStatus);
      return cancelCard(tx, actor, own, 'block');
    },

    async reissue(tx: Tx, actor: TransferActor, accountId: number, express: boolean) {
      const own = await ownCard(tx, actor.customerId, accountId, true);
      checkAction('reissue', own);
      if (own.account.pendingMinor > 0n) throw vf('accountId', VfCode.cardStatus);
      const { product, card } = own;
      let shippingFee = 0n;
      let shipping: 'standard' | 'express' | null = null;
      if (!card.isVirtual) {
        const address = card.addressId === null ? null : await addressOf(tx, actor.customerId, card.addressId);
        if (!address) throw vf('accountId', VfCode.shippingUnavailable);
        const option = shippingOptionsTo(product, address.countryCode).find((o) => o.def.type === (express ? 'express' : 'standard'));
        if (!option || option.disabled) throw vf('isExpressShipping', VfCode.shippingUnavailable);
        shippingFee = option.def.feeMinor;
        shipping = option.def.type;
      } else if (express) {
        throw vf('isExpressShipping', VfCode.cardPhysicalOnly);
      }
      const fee = product.fees.issueMinor + shippingFee;
      const status = card.isVirtual ? CardStatus.active : CardStatus.submitted;
      const newId = await newCardAccount(tx, actor.customerId, product, status, own.account.settlementAccountId);
      await chargeFee(tx, card.feeAccountId, fee, product.currency, `card-reissue-fee:${newId}`, 'reissue', 'accountId');
      const issued = await issuer.issue(
        tx,
        { accountId: newId, kind: product.kind, productType: product.type, currency: product.currency, cardBrand: product.cardBrand, express: shipping === 'express' },
        emitIn(tx),
      );
      await tx.insert(cards).values({
        accountId: newId,
        kind: card.kind,
        isVirtual: card.isVirtual,
        aliasName: card.aliasName,
        expiryMonth: issued.expiryMonth,
        expiryYear: issued.expiryYear,
        bin: issued.bin,
        last4: issued.last4,
        issuerRef: issued.issuerRef,
        feeAccountId: card.feeAccountId,
        addressId: card.addressId,
        shipping,
        reissuedFromAccountId: accountId,
        userId: actor.userId,
      });
      await moveBalance(tx, own.account, newId, `card-reissue:${accountId}`, 'card_reissue');
      await tx.update(cards).set({ reissuedToAccountId: newId }).where(eq(cards.accountId, accountId));
      await setStatus(tx, accountId, CardStatus.canceled);
      actor.audit?.({ cardAccountId: accountId, action: 'reissue', newCardAccountId: newId, express });
      return { accountId: newId, accountStatusId: status, fee: minorToDecimal(fee, product.currency), feeCurrency: product.currency };
    },

    async upgradeShipping(tx: Tx, actor: TransferActor, accountId: number) {
      const own = await ownCard(tx, actor.customerId, accountId, true);
      checkAction('upgradeShipping', own);
      const { card, product } = own;
      if (card.shipping !== 'standard') throw vf('accountId', VfCode.notAllowed);
      const address = card.addressId === null ? null : await addressOf(tx, actor.customerId, card.addressId);
      const options = shippingOptionsTo(product, address?.countryCode ?? '');
      const express = options.find((o) => o.def.type === 'express');
      const standard = options.find((o) => o.def.type === 'standard');
      if (!address || !express || express.disabled || !standard) throw vf('accountId', VfCode.shippingUnavailable);
      const difference = express.def.feeMinor - standard.def.feeMinor;
      await chargeFee(tx, card.feeAccountId, difference, product.currency, `card-upgrade-shipping:${accountId}`, 'upgradeShipping', 'accountId');
      await tx
        .update(cards)
        .set({ shipping: 'express', updatedAt: new Date(now()) })
        .where(eq(cards.accountId, accountId));
      await issuer.expedite(tx, card.issuerRef, emitIn(tx));
      actor.audit?.({ cardAccountId: accountId, action: 'upgradeShipping' });
      return { fee: minorToDecimal(difference > 0n ? difference : 0n, product.currency), feeCurrency: product.currency, deliveryTime: express.def.deliveryTimeDays };
    },

    async setAlias(tx: Tx, actor: TransferActor, accountId: number, alias: string) {
      const own = await ownCard(tx, actor.customerId, accountId, true);
      checkAction('editName', own);
      await tx
        .update(cards)
        .set({ aliasName: alias, updatedAt: new Date(now()) })
        .where(eq(cards.accountId, accountId));
      actor.audit?.({ cardAccountId: accountId, action: 'setAlias' });
      return { cardAliasName: alias };
    },

    async activationData(db: Db, customerId: number, accountId: number) {
      const own = await ownCard(db, customerId, accountId, false);
      return {
        fees: major(own.product.fees.activationMinor, own.product.currency),
        feeCurrency: own.product.currency,
        extraParams: [{ name: 'cardLast4' as const, pattern: '^\\d{4}$', required: true }],
      };
    },

    async activate(tx: Tx, actor: TransferActor, input: { accountId: number; extraParams: Record<string, string>; feeAccountId?: number | undefined }) {
      const own = await ownCard(tx, actor.customerId, input.accountId, true);
      checkAction('activate', own);
      const last4 = input.extraParams.cardLast4;
      if (last4 === undefined || last4 === '') throw vf('extraParams.cardLast4', VfCode.required);
      if (!/^\d{4}$/.test(last4) || last4 !== own.card.last4) throw vf('extraParams.cardLast4', VfCode.cardDataWrong);
      const fee = own.product.fees.activationMinor;
      if (fee > 0n) {
        const feeAccountId = input.feeAccountId ?? own.card.feeAccountId;
        if (!(await paymentAccounts(tx, actor.customerId)).some((a) => a.accountId === feeAccountId)) throw new MethodFailure('ENOA', CardMessages.noCard);
        await chargeFee(tx, feeAccountId, fee, own.product.currency, `card-activation:${input.accountId}`, 'activation', 'feeAccountId');
      }
      const pin = randomStrongPin();
      await issuer.setPin(tx, own.card.issuerRef, pin);
      await setStatus(tx, input.accountId, CardStatus.active);
      actor.audit?.({ cardAccountId: input.accountId, action: 'activate' });
      return { accountStatusId: CardStatus.active, pinCode: pin };
    },

    async changePin(tx: Tx, actor: TransferActor, input: { accountId: number; pinCode: string; pinCodeRepeat: string }) {
      const own = await ownCard(tx, actor.customerId, input.accountId, true);
      checkAction('pin', own);
      if (input.pinCode !== input.pinCodeRepeat) throw vf('pinCodeRepeat', VfCode.pinMismatch);
      if (isWeakPin(input.pinCode)) throw vf('pinCode', VfCode.pinWeak);
      await issuer.setPin(tx, own.card.issuerRef, input.pinCode);
      actor.audit?.({ cardAccountId: input.accountId, action: 'changePin' });
      return {};
    },

    async showPin(tx: Tx, actor: TransferActor, accountId: number, reveal: 'pin' | 'card') {
      const own = await ownCard(tx, actor.customerId, accountId, true);
      checkAction(reveal === 'pin' ? 'pin' : 'reveal', own);
      const [user] = await tx
        .select({ id: users.id, email: users.email, customerId: users.customerId, totpSecret: users.totpSecret, approvalCodeHash: users.approvalCodeHash })
        .from(users)
        .where(eq(users.id, actor.userId));
      if (!user) throw new MethodFailure('AU', 'Sign-in required');
      const [customer] = await tx.select({ mode: customers.transactionApproveMode }).from(customers).where(eq(customers.id, actor.customerId));
      const mode = customer?.mode ?? 'none';
      // modes without a code to type here (none; push answers on the phone) ask for the sign-in password
      const method: RevealApproveType = mode === 'none' || mode === 'push' ? 'password' : mode;
      let codeHash: string | null = null;
      let sentTo: string | null = null;
      if (method === 'sms' || method === 'otp' || method === 'approvalCode') {
        const preparation = await prepareApproval(tx, method, user, false);
        if (method === 'sms') {
          const code = newApprovalCode();
          const phone = preparation.phone!;
          const what = reveal === 'pin' ? "your card's PIN" : "your card's number";
          await enqueueSms(tx, { to: `+${phone.countryCode}${phone.number}`, text: `${code} is your code to show ${what}. It expires in 5 minutes. Never share it.` });
          codeHash = sha256Hex(code);
          sentTo = maskPhone(phone.countryCode, phone.number);
        }
      }
      const expiresAt = new Date(now() + REVEAL_TTL_MS);
      const [row] = await tx.insert(cardReveals).values({ userId: actor.userId, cardAccountId: accountId, reveal, method, codeHash, expiresAt }).returning({ id: cardReveals.id });
      actor.audit?.({ cardAccountId: accountId, action: 'showPin', reveal, method });
      return { operationId: row!.id, approveType: method, approvalSentTo: sentTo, expiresAt: expiresAt.toISOString() };
    },

    async getPin(tx: Tx, actor: TransferActor, input: { accountId: number; operationId: number; approvalCode: string }) {
      const own = await ownCard(tx, actor.customerId, input.accountId, true);
      const [reveal] = await tx.select().from(cardReveals).where(eq(cardReveals.id, input.operationId)).for('update');
      if (!reveal || reveal.userId !== actor.userId || reveal.cardAccountId !== input.accountId) throw vf('operationId', VfCode.notAllowed);
      if (reveal.status !== 'pending') throw vf('operationId', VfCode.notAllowed);
      if (reveal.expiresAt.getTime() <= now()) throw vf('operationId', VfCode.codeExpired);
      checkAction(reveal.reveal === 'pin' ? 'pin' : 'reveal', own);
      const [user] = await tx.select().from(users).where(eq(users.id, actor.userId));
      if (!user) throw new MethodFailure('AU', 'Sign-in required');
      let ok: boolean;
      if (reveal.method === 'password') {
        const outcome = await checkCurrentPassword(tx as unknown as Db, user, input.approvalCode, new Date(now()));
        if (outcome === 'limited') throw new KeptFailure('VF', 'Invalid request', [vfError('approvalCode', VfCode.approvalTooManyWrong)]);
        ok = outcome === 'ok';
      } else {
        const check = await checkApprovalCode(tx, { method: reveal.method, codeHash: reveal.codeHash } as TransferApprovalRow, user, input.approvalCode, now());
        ok = check.ok;
      }
      if (!ok) {
        const attempts = reveal.attempts + 1;
        const failed = attempts >= APPROVAL_MAX_ATTEMPTS;
        await tx
          .update(cardReveals)
          .set({ attempts, ...(failed ? { status: 'failed' as const } : {}) })
          .where(eq(cardReveals.id, reveal.id));
        actor.audit?.({ cardAccountId: input.accountId, action: 'getPin', wrong: attempts });
        throw new KeptFailure('VF', 'Invalid request', [
          failed ? vfError('approvalCode', VfCode.approvalTooManyWrong) : vfError('approvalCode', VfCode.approvalCodeWrong, { triesLeft: APPROVAL_MAX_ATTEMPTS - attempts }),
        ]);
      }
      await tx.update(cardReveals).set({ status: 'used' }).where(eq(cardReveals.id, reveal.id));
      actor.audit?.({ cardAccountId: input.accountId, action: 'getPin', reveal: reveal.reveal });
      if (reveal.reveal === 'pin') {
        const pin = await issuer.revealPin(tx, own.card.issuerRef);
        return { pinCode: pin, cardNumber: null, cvv: null, cardExpiryMonth: null, cardExpiryYear: null, visibleForMs: REVEAL_VISIBLE_MS };
      }
      const secrets = await issuer.revealCard(tx, own.card.issuerRef);
      return {
        pinCode: null,
        cardNumber: secrets.cardNumber,
        cvv: secrets.cvv,
        cardExpiryMonth: secrets.expiryMonth,
        cardExpiryYear: secrets.expiryYear,
        visibleForMs: REVEAL_VISIBLE_MS,
      };
    },

    binInfo(binNumber: string) {
      for (const kind of Object.keys(PLATFORM_BINS) as (keyof typeof PLATFORM_BINS)[]) {
        for (const [currency, bin] of Object.entries(PLATFORM_BINS[kind])) {
          if (bin !== binNumber) continue;
          return {
            binNumber,
            issuer: activeVariant.projectName,
            cardBrand: BRAND_OF_KIND[kind],
            cardCategory: kind === 'virtual' ? 'VIRTUAL' : 'CLASSIC',
            cardType: kind === 'debit' ? ('DEBIT' as const) : ('PREPAID' as const),
            // offered in every EU country
            countryCode: null,
            currencyCode: currency,
            isCommercial: false,
            isPrepaid: kind !== 'debit',
            valid: true,
          };
        }
      }
      const known = KNOWN_BINS[binNumber];
      if (known)
        return {
          binNumber,
          issuer: null,
          cardBrand: known.brand,
          cardCategory: null,
          cardType: known.type,
          countryCode: known.country,
          currencyCode: null,
          isCommercial: false,
          isPrepaid: known.type === 'PREPAID',
          valid: true,
        };
      return {
        binNumber,
        issuer: null,
        cardBrand: brandByPrefix(binNumber),
        cardCategory: null,
        cardType: null,
        countryCode: null,
        currencyCode: null,
        isCommercial: false,
        isPrepaid: false,
        valid: false,
      };
    },

    async addressReplacementCompatibility(db: Db, customerId: number, countryCode: string, oldAddressId: number) {
      return replacementImpact(db, customerId, countryCode, oldAddressId);
    },

    /**
     * Called by the address change in its transaction (server/modules/profile): cancels the cards
     * addressReplacementCompatibility lists as to be canceled, their balances returned. A card with
     * a payment still held refuses the change (the hold must settle or be released first).
     */
    async addressReplaced(tx: Tx, actor: TransferActor, countryCode: string, oldAddressId: number): Promise<number[]> {
      const { cardAccountsToBeCanceled } = await replacementImpact(tx, actor.customerId, countryCode, oldAddressId);
      for (const accountId of cardAccountsToBeCanceled) {
        const own = await ownCard(tx, actor.customerId, accountId, true);
        if (own.account.pendingMinor > 0n) throw vf('countryCode', VfCode.cardPaymentsPending);
        await cancelCard(tx, actor, own, 'addressChange');
      }
      return cardAccountsToBeCanceled;
    },
  };
}

/** A few well-known BINs of other issuers (the schemes' published test ranges): brand and type, issuer unknown. */
const KNOWN_BINS: Record<string, { brand: string; type: 'DEBIT' | 'CREDIT' | 'PREPAID'; country: string | null }> = {
  '411111': { brand: 'VISA', type: 'CREDIT', country: 'US' },
  '424242': { brand: 'VISA', type: 'CREDIT', country: 'US' },
  '400005': { brand: 'VISA', type: 'DEBIT', country: 'US' },
  '555555': { brand: 'MASTERCARD', type: 'CREDIT', country: 'US' },
  '520082': { brand: 'MASTERCARD', type: 'DEBIT', country: 'US' },
  '510510': { brand: 'MASTERCARD', type: 'PREPAID', country: 'US' },
  '378282': { brand: 'AMEX', type: 'CREDIT', country: 'US' },
};

/** The scheme a BIN's first digits name, where that is safe (VISA 4, MASTERCARD 51-55 and 2221-2720, AMEX 34/37). */
function brandByPrefix(bin: string): string | null {
  if (bin.startsWith('4')) return 'VISA';
  const two = Number(bin.slice(0, 2));
  const four = Number(bin.slice(0, 4));
  if ((two >= 51 && two <= 55) || (four >= 2221 && four <= 2720)) return 'MASTERCARD';
  if (two === 34 || two === 37) return 'AMEX';
  return null;
}
