/**
 * The network simulator's sending side, in demo mode only: `POST /dev/rails/incoming` plays a bank
 * somewhere paying into one of our IBANs, so a demo (and the e2e test) can add money the way a
 * customer would, by bank transfer to the account's receiving details. The payment goes through the
 * funding rail like any incoming payment (payouts.service.ts receive, then the rail.credit job): an
 * IBAN that names no account of ours is returned to the sender (AC01).
 *
 * It creates money from the provider's capital account, which is what a real incoming payment
 * does too, so it must never exist with real data: app.ts registers it only in demo mode.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import * as v from 'valibot';
import { FIAT_CURRENCIES } from '../../../api/transfers.ts';
import type { Db } from '../../db/types.ts';
import { decimalToMinor } from '../accounts/money.ts';
import type { PayoutService } from './payouts.service.ts';
import { accountOfIban, type ReceivingBank } from './receiving.ts';

/** One simulated payment is at most this (major units): a demo tops up, it does not print money. */
export const MAX_SIMULATED_AMOUNT = 100_000;

const IncomingSchema = v.object({
  iban: v.pipe(v.string(), v.trim(), v.maxLength(42)),
  amount: v.pipe(v.string(), v.regex(/^\d{1,6}(\.\d{1,2})?$/, 'must be an amount with at most 2 decimals'), v.check((a) => Number(a) > 0 && Number(a) <= MAX_SIMULATED_AMOUNT, `must be above 0 and at most ${MAX_SIMULATED_AMOUNT}`)),
  currency: v.picklist(FIAT_CURRENCIES, 'must be a fiat currency of the platform'),
  senderName: v.pipe(v.string(), v.trim(), v.minLength(1, 'is required'), v.maxLength(140)),
  reference: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(140))),
});

export async function simulatorRoutes(app: FastifyInstance, options: { db: Db; payouts: PayoutService; bank: ReceivingBank }): Promise<void> {
  app.post('/dev/rails/incoming', async (request, reply) => {
    const parsed = v.safeParse(IncomingSchema, request.body);
    if (!parsed.success) {
      const issue = parsed.issues[0]!;
      return reply.code(400).send({ field: v.getDotPath(issue) ?? null, message: issue.message });
    }
    const input = parsed.output;
    const instructionId = await options.payouts.receive(options.db, {
      networkRef: `SIM-IN-${randomUUID()}`,
      currency: input.currency,
      amountMinor: decimalToMinor(input.amount, input.currency),
      receivingNumber: input.iban,
      senderName: input.senderName,
      reference: input.reference ?? null,
      accountId: accountOfIban(options.bank, input.iban),
    });
    return reply.code(202).send({ instructionId });
  });
}
