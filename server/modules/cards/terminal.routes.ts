/**
 * The issuer simulator's terminal, in demo mode only (issue 16 §2): a person or a test "pays by card"
 * the way a merchant's terminal and the card scheme would, with the card's number, expiry and CVV.
 *
 * - POST /dev/cards/authorizations                 {cardNumber, expiryMonth, expiryYear, cvv?, amount,
 *   currency, merchantName, merchantCategoryCode, merchantCountryCode, networkRef?} -> an authorisation
 *   (approved or declined with its reason); networkRef, the scheme's id, is generated when absent
 *   (sending the same one again answers the first answer)
 * - POST /dev/cards/authorizations/:id/clearing    {amount?} -> posted (for less than authorised: the rest released)
 * - POST /dev/cards/authorizations/:id/reversal    {} -> released
 * Each answers {authorizationId, status, declineReason} and runs in one transaction
 * (authorizations.service.ts does the work). A clearing or reversal the authorisation's status does
 * not allow answers 409 with the authorisation as it is; an unknown id 404.
 *
 * The body carries a full card number and CVV: nothing here logs it, and a refused body is answered
 * with the field's name and the rule it breaks, never with what was sent (valibot's own messages
 * quote the received value, so none of them is passed on). Fastify does not log bodies; its parse
 * errors go to the app's error handler, which answers without the body.
 *
 * It moves customers' money with no sign-in at all, so it must never exist with real data: app.ts
 * registers it only in demo mode, like the rails' simulator (rails/simulator.routes.ts).
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import * as v from 'valibot';
import { FIAT_CURRENCIES } from '../../../api/transfers.ts';
import type { Db } from '../../db/types.ts';
import type { CardPayments, ChangeAnswer } from './authorizations.service.ts';

/** One simulated card payment is at most this (major units): the card's own limits are lower anyway. */
export const MAX_TERMINAL_AMOUNT = 100_000;

const amountSchema = v.pipe(
  v.string(),
  v.regex(/^\d{1,6}(\.\d{1,2})?$/),
  v.check((a) => Number(a) > 0 && Number(a) <= MAX_TERMINAL_AMOUNT),
);

const AuthorizationBody = v.object({
  cardNumber: v.pipe(
    v.string(),
    v.transform((s) => s.replace(/\s+/g, '')),
    v.regex(/^\d{12,19}$/),
  ),
  expiryMonth: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(12)),
  expiryYear: v.pipe(v.number(), v.integer(), v.minValue(2000), v.maxValue(2099)),
  cvv: v.optional(v.pipe(v.string(), v.regex(/^\d{3,4}$/))),
  amount: amountSchema,
  currency: v.picklist(FIAT_CURRENCIES),
  merchantName: v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(100)),
  merchantCategoryCode: v.pipe(v.string(), v.regex(/^\d{4}$/)),
  merchantCountryCode: v.pipe(v.string(), v.regex(/^[A-Z]{2}$/)),
  networkRef: v.optional(v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(64))),
});

const ClearingBody = v.object({ amount: v.optional(amountSchema) });

/** The rule each field breaks, as answered (fixed text: never the value sent). */
const FIELD_RULES: Readonly<Record<string, string>> = {
  cardNumber: 'must be a card number of 12 to 19 digits',
  expiryMonth: 'must be a month, 1 to 12',
  expiryYear: 'must be a four-digit year',
  cvv: 'must be 3 or 4 digits',
  amount: `must be an amount above 0 and at most ${MAX_TERMINAL_AMOUNT}, with at most 2 decimals`,
  currency: `must be one of ${FIAT_CURRENCIES.join(', ')}`,
  merchantName: 'must be 1 to 100 characters',
  merchantCategoryCode: 'must be a merchant category code of 4 digits',
  merchantCountryCode: 'must be a country code of 2 capital letters',
  networkRef: 'must be 1 to 64 characters',
};

function refused(reply: FastifyReply, issues: [v.BaseIssue<unknown>, ...v.BaseIssue<unknown>[]]) {
  const field = v.getDotPath(issues[0]);
  return reply.code(400).send({ field, message: (field !== null && FIELD_RULES[field]) || 'the request must be a JSON object of the documented fields' });
}

const ID = /^[1-9]\d{0,15}$/;

function changed(reply: FastifyReply, answer: ChangeAnswer) {
  if (!answer.ok && answer.reason === 'NOT_FOUND') return reply.code(404).send({ message: 'No such authorisation' });
  const a = answer.authorization!;
  const body = { authorizationId: a.id, status: a.status, declineReason: a.declineReason };
  if (answer.ok) return reply.code(200).send(body);
  if (answer.reason === 'AMOUNT_ABOVE_AUTHORIZED') return reply.code(400).send({ field: 'amount', message: 'must not be above the authorised amount', ...body });
  if (answer.reason === 'AMOUNT_INVALID') return reply.code(400).send({ field: 'amount', message: FIELD_RULES.amount, ...body });
  return reply.code(409).send({ message: `The authorisation is ${a.status}`, ...body });
}

export async function terminalRoutes(app: FastifyInstance, options: { db: Db; payments: CardPayments }): Promise<void> {
  const { db, payments } = options;

  app.post('/dev/cards/authorizations', async (request, reply) => {
    const parsed = v.safeParse(AuthorizationBody, request.body);
    if (!parsed.success) return refused(reply, parsed.issues);
    const input = parsed.output;
    const answer = await db.transaction((tx) => payments.authorize(tx, { ...input, networkRef: input.networkRef ?? `SIM-CARD-${randomUUID()}` }));
    return reply.code(200).send({ authorizationId: answer.authorizationId, status: answer.status, declineReason: answer.declineReason });
  });

  app.post<{ Params: { id: string } }>('/dev/cards/authorizations/:id/clearing', async (request, reply) => {
    if (!ID.test(request.params.id)) return reply.code(404).send({ message: 'No such authorisation' });
    const parsed = v.safeParse(ClearingBody, request.body ?? {});
    if (!parsed.success) return refused(reply, parsed.issues);
    const amount = parsed.output.amount;
    const answer = await db.transaction((tx) => payments.clear(tx, { authorizationId: Number(request.params.id), ...(amount === undefined ? {} : { amount }) }));
    return changed(reply, answer);
  });

  app.post<{ Params: { id: string } }>('/dev/cards/authorizations/:id/reversal', async (request, reply) => {
    if (!ID.test(request.params.id)) return reply.code(404).send({ message: 'No such authorisation' });
    const answer = await db.transaction((tx) => payments.reverse(tx, { authorizationId: Number(request.params.id) }));
    return changed(reply, answer);
  });
}
