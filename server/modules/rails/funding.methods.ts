/**
 * How each account is paid into (api/funding.ts; document 2 §7 payment instructions; issue 15 §2):
 * a fiat account's own IBAN (receiving.ts) with the provider's bank, a crypto account's wallet
 * address. Only the acting customer's own accounts, open ones; the viewed marks are the signed-in
 * user's.
 */
import { and, asc, eq, ne } from 'drizzle-orm';
import { ACCOUNT_STATUS_CLOSED } from '../../../api/accounts.ts';
import { VfCode, vf } from '../../../api/errors.ts';
import { PaymentInstructionId, type fundingMethods, type PaymentInstruction } from '../../../api/funding.ts';
import { CRYPTO_CURRENCIES } from '../../../api/transfers.ts';
import { activeVariant } from '../../../variants/index.ts';
import { accounts } from '../accounts/accounts.tables.ts';
import { customers } from '../customers/customers.tables.ts';
import { MethodFailure, type HandlerTable, type MethodContext } from '../method-types.ts';
import { paymentInstructionViews } from './rails.tables.ts';
import { ibanOfAccount, receivingBankFrom, type ReceivingBank } from './receiving.ts';

const isCrypto = (currency: string) => (CRYPTO_CURRENCIES as readonly string[]).includes(currency);

function signedIn(ctx: MethodContext): { userId: number; customerId: number } {
  if (!ctx.caller || ctx.customerId === null) throw new MethodFailure('AU', 'Sign-in required');
  return { userId: ctx.caller.userId, customerId: ctx.customerId };
}

export function createFundingHandlers(bank: ReceivingBank): HandlerTable<typeof fundingMethods> {
  return {
    async paymentInstructions(input, ctx) {
      const { userId, customerId } = signedIn(ctx);
      const [holder] = await ctx.db
        .select({ type: customers.customerType, firstName: customers.firstName, lastName: customers.lastName, businessName: customers.businessName })
        .from(customers)
        .where(eq(customers.id, customerId));
      const beneficiaryName = holder?.type === 'business' && holder.businessName ? holder.businessName : `${holder?.firstName ?? ''} ${holder?.lastName ?? ''}`.trim();
      const rows = await ctx.db
        .select({ accountId: accounts.accountId, currency: accounts.currency, address: accounts.address })
        .from(accounts)
        .where(
          and(
            eq(accounts.customerId, customerId),
            eq(accounts.purpose, 'customer'),
            ne(accounts.status, ACCOUNT_STATUS_CLOSED),
            input.accountId === undefined ? undefined : eq(accounts.accountId, input.accountId),
          ),
        )
        .orderBy(asc(accounts.accountId));
      if (input.accountId !== undefined && rows.length === 0) throw new MethodFailure('ENOA', 'No such account');
      const viewed = new Set(
        (await ctx.db.select().from(paymentInstructionViews).where(eq(paymentInstructionViews.userId, userId))).map((v) => `${v.accountId}:${v.instructionId}`),
      );
      const instructions: PaymentInstruction[] = [];
      for (const row of rows) {
        if (isCrypto(row.currency)) {
          // a wallet without an address yet (create wallet gives it one) cannot be paid into
          if (!row.address) continue;
          const id = PaymentInstructionId.cryptoDeposit;
          instructions.push({
            instructionId: id, accountId: row.accountId, currency: row.currency, beneficiaryName,
            iban: null, bic: null, bankName: null, bankAddress: null,
            scheme: row.currency === 'BTC' ? 'bitcoin' : 'ethereum', address: row.address,
            viewed: viewed.has(`${row.accountId}:${id}`),
          });
          continue;
        }
        const id = PaymentInstructionId.bankTransfer;
        instructions.push({
          instructionId: id, accountId: row.accountId, currency: row.currency, beneficiaryName,
          iban: ibanOfAccount(bank, row.accountId), bic: bank.bic, bankName: activeVariant.letter.legalName, bankAddress: activeVariant.letter.address,
          scheme: row.currency === 'EUR' ? 'sepa' : 'swift', address: null,
          viewed: viewed.has(`${row.accountId}:${id}`),
        });
      }
      return { instructions };
    },

    async paymentInstructionMarkViewed(input, ctx) {
      const { userId, customerId } = signedIn(ctx);
      const [account] = await ctx.db
        .select({ currency: accounts.currency })
        .from(accounts)
        .where(and(eq(accounts.accountId, input.accountId), eq(accounts.customerId, customerId), eq(accounts.purpose, 'customer')));
      if (!account) throw new MethodFailure('ENOA', 'No such account');
      const expected = isCrypto(account.currency) ? PaymentInstructionId.cryptoDeposit : PaymentInstructionId.bankTransfer;
      if (input.instructionId !== expected) throw new MethodFailure('VF', 'Invalid request', [vf('instructionId', VfCode.notAllowed)]);
      await ctx.db.insert(paymentInstructionViews).values({ userId, accountId: input.accountId, instructionId: input.instructionId }).onConflictDoNothing();
      return {};
    },
  };
}

/** The provider's receiving bank from RECEIVING_BANK (receiving.ts; a malformed setting stops the start with its reason). */
export const receivingBank = receivingBankFrom(process.env.RECEIVING_BANK);
export const fundingHandlers = createFundingHandlers(receivingBank);
