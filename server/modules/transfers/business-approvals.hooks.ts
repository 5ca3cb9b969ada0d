/**
 * The transfer pipeline's side of maker-checker (business-approvals.tables.ts; issue 17 item 6):
 * what transfers.service.ts calls at the step where a payment would post, and when it voids one.
 * On its own (no service) so the transfer service imports it without a cycle.
 *
 * Decided (issue 17 item 6, design 1): a payment (any money-moving kind, a mass batch) asked for a
 * company by a user whose right there is 3 (initiate) does not post after the initiator's own
 * approval; it is parked: its status stays `pending`, its hold stays (the money cannot be spent
 * twice), its initiator's approval is closed (approveTransfer then answers TA1), its expiry moves to
 * BUSINESS_REQUEST_TTL_DAYS, and a business_transaction_requests row waits for a checker. Right 4
 * (confirmed) posts as before. The transfers sweeper (workers.ts expireDueTransfers) expires a
 * parked payment like any pending one; voidTransfer then closes its request here.
 */
import { and, eq, sql } from 'drizzle-orm';
import { AccessRight } from '../../../api/customer.ts';
import { BUSINESS_REQUEST_TTL_DAYS } from '../../../api/business-approvals.ts';
import type { Tx } from '../../db/types.ts';
import { minorToDecimal } from '../accounts/money.ts';
import { transferApprovals, transfers } from './transfers.tables.ts';
import { businessTransactionRequests, type BusinessRequestStatus } from './business-approvals.tables.ts';

type TransferRow = typeof transfers.$inferSelect;

export const BUSINESS_REQUEST_TTL_MS = BUSINESS_REQUEST_TTL_DAYS * 24 * 60 * 60 * 1000;

/**
 * SQL of a boolean: does this user act for this customer with right 3 (initiate) only? Acting for
 * one's own customer never does (the owner is their company's own user).
 */
export function initiateOnlySql(userId: number, customerId: number) {
  return sql`exists (select 1 from customer_access ca join users u on u.id = ca.user_id
    where ca.user_id = ${userId}::integer and ca.customer_id = ${customerId}::integer
      and ca.access_rights = ${AccessRight.initiate}::integer and u.customer_id <> ${customerId}::integer)`;
}

/** initiateOnlySql as a query: the rights now (a right changed since the request counts). */
export async function initiateOnly(tx: Tx, userId: number, customerId: number): Promise<boolean> {
  const result = (await tx.execute(sql`select ${initiateOnlySql(userId, customerId)} as yes`)) as unknown as { rows: { yes: boolean }[] };
  return result.rows[0]?.yes === true;
}

/** A push event for one user (server/modules/push: forUserIds keeps it to that user's sockets) on a customer's channel. */
export interface PushNotice {
  customerId: number;
  event: { type: string } & Record<string, unknown>;
}

/** What a notice about a waiting payment or its decision says (CustomerNotification: notificationType, status, title, body). */
export const BusinessNoticeType = { waiting: 'businessPaymentWaiting', decided: 'businessPaymentDecided' } as const;

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

type NoticeLanguage = 'en' | 'es' | 'pt' | 'ro' | 'ru' | 'ua';
type NoticeKey = 'waiting' | 'approved' | 'declined' | 'expired';
/** The notices' words in each settings language (customers.language: ua is Ukrainian); {initiator}, {amount}, {company} filled in. */
const NOTICE_TEXTS: Record<NoticeLanguage, Record<NoticeKey, { title: string; body: string }>> = {
  en: {
    waiting: { title: 'A payment waits for your approval', body: '{initiator} asked to pay {amount} from {company}.' },
    approved: { title: 'Your payment was approved', body: 'The payment of {amount} from {company} you asked for was approved.' },
    declined: { title: 'Your payment was declined', body: 'The payment of {amount} from {company} you asked for was declined; the money held for it is available again.' },
    expired: { title: 'Your payment expired', body: 'Nobody approved the payment of {amount} from {company} in time; the money held for it is available again.' },
  },
  es: {
    waiting: { title: 'Un pago espera su aprobación', body: '{initiator} ha pedido pagar {amount} desde {company}.' },
    approved: { title: 'Su pago ha sido aprobado', body: 'El pago de {amount} desde {company} que pidió ha sido aprobado.' },
    declined: { title: 'Su pago ha sido rechazado', body: 'El pago de {amount} desde {company} que pidió ha sido rechazado; el dinero retenido para él vuelve a estar disponible.' },
    expired: { title: 'Su pago ha caducado', body: 'Nadie aprobó a tiempo el pago de {amount} desde {company}; el dinero retenido para él vuelve a estar disponible.' },
  },
  pt: {
    waiting: { title: 'Um pagamento aguarda a sua aprovação', body: '{initiator} pediu para pagar {amount} a partir de {company}.' },
    approved: { title: 'O seu pagamento foi aprovado', body: 'O pagamento de {amount} a partir de {company} que pediu foi aprovado.' },
    declined: { title: 'O seu pagamento foi recusado', body: 'O pagamento de {amount} a partir de {company} que pediu foi recusado; o dinheiro retido para ele volta a estar disponível.' },
    expired: { title: 'O seu pagamento expirou', body: 'Ninguém aprovou a tempo o pagamento de {amount} a partir de {company}; o dinheiro retido para ele volta a estar disponível.' },
  },
  ro: {
    waiting: { title: 'O plată așteaptă aprobarea dvs.', body: '{initiator} a cerut să plătească {amount} din contul {company}.' },
    approved: { title: 'Plata dvs. a fost aprobată', body: 'Plata de {amount} din contul {company} pe care ați cerut-o a fost aprobată.' },
    declined: { title: 'Plata dvs. a fost refuzată', body: 'Plata de {amount} din contul {company} pe care ați cerut-o a fost refuzată; banii rezervați pentru ea sunt din nou disponibili.' },
    expired: { title: 'Plata dvs. a expirat', body: 'Nimeni nu a aprobat la timp plata de {amount} din contul {company}; banii rezervați pentru ea sunt din nou disponibili.' },
  },
  ru: {
    waiting: { title: 'Платёж ожидает вашего одобрения', body: '{initiator} просит заплатить {amount} со счёта {company}.' },
    approved: { title: 'Ваш платёж одобрен', body: 'Запрошенный вами платёж {amount} со счёта {company} одобрен.' },
    declined: { title: 'Ваш платёж отклонён', body: 'Запрошенный вами платёж {amount} со счёта {company} отклонён; удержанные для него деньги снова доступны.' },
    expired: { title: 'Срок вашего платежа истёк', body: 'Никто не одобрил вовремя платёж {amount} со счёта {company}; удержанные для него деньги снова доступны.' },
  },
  ua: {
    waiting: { title: 'Платіж очікує вашого схвалення', body: '{initiator} просить сплатити {amount} з рахунку {company}.' },
    approved: { title: 'Ваш платіж схвалено', body: 'Запитаний вами платіж {amount} з рахунку {company} схвалено.' },
    declined: { title: 'Ваш платіж відхилено', body: 'Запитаний вами платіж {amount} з рахунку {company} відхилено; утримані для нього гроші знову доступні.' },
    expired: { title: 'Строк вашого платежу минув', body: 'Ніхто не схвалив вчасно платіж {amount} з рахунку {company}; утримані для нього гроші знову доступні.' },
  },
};

/** A notice's title and body in the recipient's language (English for an unknown one). */
function noticeText(language: string | null, key: NoticeKey, values: { initiator: string; amount: string; company: string }): { title: string; body: string } {
  const texts = NOTICE_TEXTS[(language ?? 'en') as NoticeLanguage] ?? NOTICE_TEXTS.en;
  const { title, body } = texts[key];
  return { title, body: body.replace(/\{(initiator|amount|company)\}/g, (_, name: keyof typeof values) => values[name]) };
}

/** The payment's facts the notices name: its amount, the company, the initiator. */
async function noticeFacts(tx: Tx, t: TransferRow) {
  const [row] = rowsOf<{ company: string; initiator: string; initiator_customer_id: number; initiator_language: string }>(
    await tx.execute(sql`
      select coalesce(nullif(c.business_name, ''), trim(c.first_name || ' ' || c.last_name)) as company,
        coalesce(nullif(ic.business_name, ''), trim(ic.first_name || ' ' || ic.last_name)) as initiator, iu.customer_id as initiator_customer_id,
        ic.language as initiator_language
      from customers c, users iu join customers ic on ic.id = iu.customer_id
      where c.id = ${t.customerId}::integer and iu.id = ${t.userId}::integer`),
  );
  return {
    amount: `${minorToDecimal(t.amountMinor + t.feeMinor, t.fromCurrency)} ${t.fromCurrency}`,
    company: row?.company ?? '',
    initiator: row?.initiator ?? '',
    initiatorCustomerId: row?.initiator_customer_id ?? null,
    initiatorLanguage: row?.initiator_language ?? null,
  };
}

/**
 * A payment started waiting: a notice to each user who decides the company's payments (its owner,
 * users with right 2: business-approvals.service.ts requireChecker), on their own customer's channel
 * (the one their sockets listen on; the owner's is the company's), the initiator never.
 */
export async function waitingNotices(tx: Tx, t: TransferRow): Promise<PushNotice[]> {
  const checkers = rowsOf<{ id: number; customer_id: number; language: string }>(
    await tx.execute(sql`
      select u.id, u.customer_id, own.language from users u join customers own on own.id = u.customer_id
      where u.id <> ${t.userId}::integer
        and ((u.customer_id = ${t.customerId}::integer and u.user_type = 2)
          or (u.customer_id <> ${t.customerId}::integer and exists (select 1 from customer_access ca
                where ca.user_id = u.id and ca.customer_id = ${t.customerId}::integer and ca.access_rights = ${AccessRight.full}::integer)))
      order by u.id`),
  );
  if (checkers.length === 0) return [];
  const facts = await noticeFacts(tx, t);
  return checkers.map((c) => ({
    customerId: Number(c.customer_id),
    event: {
      type: 'CustomerNotification',
      notificationType: BusinessNoticeType.waiting,
      status: 'waiting',
      ...noticeText(c.language, 'waiting', facts),
      forUserIds: [Number(c.id)],
    },
  }));
}

/** A waiting payment was decided or expired: a notice to its initiator on their own customer's channel. */
export async function decidedNotices(tx: Tx, t: TransferRow, status: 'approved' | 'declined' | 'expired'): Promise<PushNotice[]> {
  const facts = await noticeFacts(tx, t);
  if (facts.initiatorCustomerId === null) return [];
  return [
    {
      customerId: Number(facts.initiatorCustomerId),
      event: { type: 'CustomerNotification', notificationType: BusinessNoticeType.decided, status, ...noticeText(facts.initiatorLanguage, status, facts), forUserIds: [t.userId] },
    },
  ];
}

/**
 * Parks a pending transfer (its row locked or just written, its money held) for a checker: the
 * initiator's approval closed, its expiry moved to the request's, the request written. `notify`
 * gets the notices to the company's checkers (sent after the commit by the caller).
 */
export async function parkForChecker(tx: Tx, t: TransferRow, nowMs: number, notify?: (notice: PushNotice) => void): Promise<TransferRow> {
  if (t.status !== 'pending') throw new Error(`transfer ${t.id} is ${t.status}: only a pending transfer waits for a checker`);
  const createdAt = new Date(nowMs);
  const expiresAt = new Date(nowMs + BUSINESS_REQUEST_TTL_MS);
  await tx.delete(transferApprovals).where(eq(transferApprovals.transferId, t.id));
  const [parked] = await tx.update(transfers).set({ expiresAt, updatedAt: createdAt }).where(eq(transfers.id, t.id)).returning();
  await tx.insert(businessTransactionRequests).values({ customerId: t.customerId, transferId: t.id, initiatorUserId: t.userId, createdAt, expiresAt });
  if (notify) for (const notice of await waitingNotices(tx, parked!)) notify(notice);
  return parked!;
}

const CLOSED_AS: Record<'rejected' | 'expired' | 'canceled', BusinessRequestStatus> = { rejected: 'declined', expired: 'expired', canceled: 'canceled' };

/**
 * A pending transfer is voided: its waiting request (if it is one) is closed with it. True when it
 * was waiting for a checker: its money is held whatever its approve type (the caller releases it).
 */
export async function closeBusinessRequest(tx: Tx, transferId: number, status: 'rejected' | 'expired' | 'canceled', nowMs: number): Promise<boolean> {
  const closed = await tx
    .update(businessTransactionRequests)
    .set({ status: CLOSED_AS[status], decidedAt: new Date(nowMs) })
    .where(and(eq(businessTransactionRequests.transferId, transferId), eq(businessTransactionRequests.status, 'waiting')))
    .returning({ id: businessTransactionRequests.id });
  return closed.length > 0;
}
