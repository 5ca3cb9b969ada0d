/**
 * Adding money from outside (document 2 §7 "Payment instructions, and mark viewed: instructionId,
 * accountId"; issue 15 §2): how each account of the customer is paid into, for the "Add money"
 * page.
 *
 * Not shown in the spec (designed here): an instruction is one way to pay into one account:
 * instructionId 1 a bank transfer to the account's own IBAN (SEPA in EUR, SWIFT in the other fiat
 * currencies), 2 a deposit to a crypto account's wallet address. `viewed` is whether the signed-in
 * user has opened it (the page marks it, and shows the rest as new).
 */
import * as v from 'valibot';
import { defineMethod, Id } from './method.ts';

export const PaymentInstructionId = { bankTransfer: 1, cryptoDeposit: 2 } as const;

export const PaymentInstructionSchema = v.object({
  instructionId: v.picklist([PaymentInstructionId.bankTransfer, PaymentInstructionId.cryptoDeposit]),
  accountId: v.number(),
  currency: v.string(),
  /** the account holder the sender names */
  beneficiaryName: v.string(),
  /** bank transfer: the account's IBAN (electronic format), the provider's BIC, name and address */
  iban: v.nullable(v.string()),
  bic: v.nullable(v.string()),
  bankName: v.nullable(v.string()),
  bankAddress: v.nullable(v.string()),
  /** bank transfer: 'sepa' in EUR, 'swift' otherwise; crypto: the network */
  scheme: v.picklist(['sepa', 'swift', 'bitcoin', 'ethereum']),
  /** crypto deposit: the wallet address */
  address: v.nullable(v.string()),
  viewed: v.boolean(),
});
export type PaymentInstruction = v.InferOutput<typeof PaymentInstructionSchema>;

export const paymentInstructions = defineMethod({
  name: 'paymentInstructions',
  access: 'customer',
  mutation: false,
  request: { accountId: v.optional(Id) },
  response: { instructions: v.array(PaymentInstructionSchema) },
});

export const paymentInstructionMarkViewed = defineMethod({
  name: 'paymentInstructionMarkViewed',
  access: 'customer',
  mutation: true,
  request: { instructionId: v.picklist([PaymentInstructionId.bankTransfer, PaymentInstructionId.cryptoDeposit]), accountId: Id },
  response: {},
});

export const fundingMethods = { paymentInstructions, paymentInstructionMarkViewed };
