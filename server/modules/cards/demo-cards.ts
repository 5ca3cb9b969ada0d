/**
 * The demo cards (server/db/demo-users.ts DEMO_CARDS), seeded in demo mode in the seed's
 * transaction: the owner's EUR payment account, a confirmed address, and the cards, issued at the
 * configured issuer (the simulator, its key stored once per installation as the app's is) and
 * funded from the provider's capital by balanced entries, so reconcile() holds from the start.
 * No fee is charged for them (cards.fee_transfer_id null: "none to charge").
 */
import { eq } from 'drizzle-orm';
import { AccountType } from '../../../api/accounts.ts';
import { DEMO_CARD_OWNER, DEMO_CARDS, demoUserByKey } from '../../db/demo-users.ts';
import type { Db, Tx } from '../../db/types.ts';
import { accounts, journalEntries } from '../accounts/accounts.tables.ts';
import { bookEntry, providerAccountId } from '../accounts/ledger.ts';
import { decimalToMinor } from '../accounts/money.ts';
import { users } from '../customers/customers.tables.ts';
import { customerAddresses } from '../profile/profile.tables.ts';
import { cards } from './cards.tables.ts';
import { loadCardIssuer } from './issuer-adapters.ts';
import { CARD_PRODUCTS } from './products.ts';

const DAY_MS = 86_400_000;

/**
 * Funded a month before the seeding, at 10:00 UTC: the same time of its day at every seeding, as
 * every entry of the demo history is (demo-history.test.ts compares two seedings' entries).
 */
const fundedAt = (now: number): Date => new Date(Math.floor(now / DAY_MS) * DAY_MS - 30 * DAY_MS + 10 * 3_600_000);

async function fund(tx: Tx, accountId: number, currency: string, amount: string, key: string, now: number): Promise<void> {
  const minor = decimalToMinor(amount, currency);
  if (minor === 0n) return;
  const booked = await bookEntry(tx, {
    kind: 'opening_balance',
    idempotencyKey: `seed:${key}`,
    description: { reason: 'demo opening balance' },
    legs: [
      { accountId: await providerAccountId(tx, 'capital', currency), amountMinor: -minor },
      { accountId, amountMinor: minor },
    ],
  });
  await tx
    .update(journalEntries)
    .set({ createdAt: fundedAt(now) })
    .where(eq(journalEntries.id, booked.entryId));
}

export async function seedDemoCards(tx: Tx, now: number): Promise<void> {
  const [owner] = await tx.select({ id: users.id, customerId: users.customerId }).from(users).where(eq(users.email, demoUserByKey[DEMO_CARD_OWNER].email));
  if (!owner) return;
  const { countryCode, address, paymentAccount } = DEMO_CARDS;
  const [payment] = await tx
    .insert(accounts)
    .values({ type: AccountType.payment, currency: paymentAccount.currency, customerId: owner.customerId })
    .returning({ id: accounts.accountId });
  await fund(tx, payment!.id, paymentAccount.currency, paymentAccount.amount, `${DEMO_CARD_OWNER}-${paymentAccount.currency.toLowerCase()}`, now);
  const [home] = await tx
    .insert(customerAddresses)
    .values({ customerId: owner.customerId, addressType: 'home', ...address, countryCode, status: 'confirmed' })
    .returning({ id: customerAddresses.id });
  // the transaction serves as the database here: the simulator's key is stored with the seed
  const issuer = await loadCardIssuer(tx as unknown as Db, process.env, () => now);
  for (const [i, demo] of DEMO_CARDS.cards.entries()) {
    const product = CARD_PRODUCTS.find((p) => p.countryCode === countryCode && p.kind === demo.kind && p.currency === demo.currency)!;
    const [account] = await tx
      .insert(accounts)
      .values({ type: product.type, subType: product.subType, status: demo.status, currency: product.currency, customerId: owner.customerId })
      .returning({ id: accounts.accountId });
    // a seeded physical card is shipped already: its production stages are not reported
    const issued = await issuer.issue(
      tx,
      { accountId: account!.id, kind: product.kind, productType: product.type, currency: product.currency, cardBrand: product.cardBrand, express: false },
      async () => undefined,
    );
    await tx.insert(cards).values({
      accountId: account!.id,
      kind: product.kind,
      isVirtual: product.isVirtual,
      aliasName: demo.aliasName,
      expiryMonth: issued.expiryMonth,
      expiryYear: issued.expiryYear,
      bin: issued.bin,
      last4: issued.last4,
      issuerRef: issued.issuerRef,
      feeAccountId: payment!.id,
      addressId: product.isVirtual ? null : home!.id,
      shipping: product.isVirtual ? null : 'standard',
      userId: owner.id,
    });
    await fund(tx, account!.id, product.currency, demo.amount, `${DEMO_CARD_OWNER}-card-${i}`, now);
  }
}
