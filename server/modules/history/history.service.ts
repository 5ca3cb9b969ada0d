/**
 * Transaction history, the balance chart and statement data (document 2 §3, §4, §7), read from
 * the ledger's tables in SQL (the same on PGlite and PostgreSQL), never by loading a customer's
 * whole history into memory.
 *
 * History rows. One row per account side of a movement, for the customer's own accounts
 * (purpose 'customer'):
 * - a transfer gives an 'out' row on its source account (minus the amount; operationType p2p,
 *   exchange when the currencies differ, else betweenAccounts), a separate 'Fees' row there
 *   (minus the fee) when it has a fee, and an 'in' row on its destination account when that
 *   account is the customer's (plus the credited amount). The payer sees every status; a payee
 *   who is another customer sees posted transfers only. A p2p row names the other side: the
 *   payer sees the e-mail they paid, the payee sees the payer's name. Own accounts are named
 *   `#<accountId> <currency>`; Fees and deposits name the provider.
 * - a journal entry without a transfer (an opening balance, money from outside the platform, an
 *   account fee) gives a row of kind 'entry' per leg on the customer's accounts, its transactionId
 *   the entry's id: operationType Fees for an account fee (journal kind account_fee), cardPayment
 *   for a card payment's clearing (journal kind card_clearing: the posted payment, the merchant as
 *   the counterparty), else deposit (a withdrawal when it leaves the account); the counterparty is
 *   whoever the entry names as payer, else the provider, and the note the entry's reason.
 * - a card payment not posted (cards/authorizations.service.ts) gives a row of kind
 *   'authorization' on the account whose money it is (the card, or a debit card's settlement
 *   account), its transactionId the authorisation's id, operationType cardPayment, minus the amount,
 *   the merchant as the counterparty: status pending while the money is held (authorized), rejected
 *   when declined (the note is the decline reason's code, api/cards.ts DECLINE_REASONS, worded by
 *   the app), canceled when reversed. A cleared one is its clearing entry's row instead.
 * - a card's fee (transfer kind cardFee) is a Fees row naming the card (its masked number).
 * transactionDate is when the transfer was asked (its status says whether it is booked); a
 * statement dates a movement when it was booked (the journal entry).
 *
 * Order: newest first; ties by transaction, then out / Fees / in / entry / authorisation (the
 * `part`, which also keeps the three kinds' ids apart), then account: a total order, so pages never
 * repeat or skip a row, and an export can walk it with a keyset cursor.
 */
import { and, desc, eq, isNull, sql, type SQL } from 'drizzle-orm';
import type { HistoryFilterEntries, OperationType, Transaction, TransactionKind } from '../../../api/history.ts';
import { CURRENCIES } from '../../../api/transfers.ts';
import type { TransferStatus } from '../../../api/transfers.ts';
import type { TransferRowKind } from '../transfers/transfers.tables.ts';
import type * as v from 'valibot';
import type { Db } from '../../db/types.ts';
import { accounts } from '../accounts/accounts.tables.ts';
import { currencyExponent, minorToDecimal } from '../accounts/money.ts';
import { customers } from '../customers/customers.tables.ts';
import { dictionaryItems } from '../dictionaries/dictionaries.tables.ts';
import { DictionaryKey } from '../dictionaries/data/types.ts';
import { customerAddresses } from '../profile/profile.tables.ts';
import type { DocumentLanguage } from './document-words.ts';
import { MethodFailure } from '../method-types.ts';
import { historyExports } from './history.tables.ts';
import { VfCode, vf, type CodedValidationError } from '../../../api/errors.ts';

/** The filter of transactionHistory, plus the export's e-mail (document 2 §7 customerEmail). */
export type HistoryFilter = { [K in keyof typeof HistoryFilterEntries]?: v.InferOutput<(typeof HistoryFilterEntries)[K]> } & { email?: string | undefined };

const DAY_MS = 86_400_000;
/** Rows one history page may ask for (the contract caps pageSize at 100). */
export const MAX_PAGE_SIZE = 100;

export const HistoryMessages = {
  notYourAccount: 'No such account',
} as const;

async function rowsOf<T>(db: Db, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

/** The customer's own account (purpose customer), or null. */
export async function ownAccount(db: Db, customerId: number, accountId: number) {
  const [row] = await db
    .select()
    .from(accounts)
    .where(and(eq(accounts.accountId, accountId), eq(accounts.customerId, customerId), eq(accounts.purpose, 'customer')))
    .limit(1);
  return row ?? null;
}

/** The account of the acting customer, or ENOA (another customer's and unknown ids answer alike). */
export async function requireOwnAccount(db: Db, customerId: number, accountId: number) {
  const account = await ownAccount(db, customerId, accountId);
  if (!account) throw new MethodFailure('ENOA', HistoryMessages.notYourAccount);
  return account;
}

/** The acting customer's export, or null (unknown and another customer's alike). */
export async function findOwnExport(db: Db, customerId: number, exportId: string) {
  const [row] = await db
    .select()
    .from(historyExports)
    .where(and(eq(historyExports.id, exportId), eq(historyExports.customerId, customerId)))
    .limit(1);
  return row ?? null;
}

/** A customer's name as shown to others: the company name, else first and last name. */
export async function customerName(db: Db, customerId: number): Promise<string> {
  const [c] = await db
    .select({ firstName: customers.firstName, lastName: customers.lastName, businessName: customers.businessName })
    .from(customers)
    .where(eq(customers.id, customerId));
  if (!c) return '';
  return c.businessName?.trim() || `${c.firstName} ${c.lastName}`.trim();
}

/** A customer's saved settings language (en es pt ro ru ua), or null for an unknown customer. */
export async function customerLanguage(db: Db, customerId: number): Promise<string | null> {
  const [c] = await db.select({ language: customers.language }).from(customers).where(eq(customers.id, customerId));
  return c?.language ?? null;
}

/**
 * A customer's current address (customer_addresses, addressStatus 1, not deleted, the newest) as
 * one line: street lines, postal code and city, state, and the country's name in the document's
 * language (the countries dictionary; its code when the dictionary lacks it). '' without one.
 */
export async function customerAddressLine(db: Db, customerId: number, lang: DocumentLanguage): Promise<string> {
  const [a] = await db
    .select()
    .from(customerAddresses)
    .where(and(eq(customerAddresses.customerId, customerId), isNull(customerAddresses.deletedAt), eq(customerAddresses.addressStatus, 1)))
    .orderBy(desc(customerAddresses.updatedAt), desc(customerAddresses.id))
    .limit(1);
  if (!a) return '';
  let country = a.countryCode;
  if (a.countryCode) {
    const [item] = await db
      .select({ names: dictionaryItems.names })
      .from(dictionaryItems)
      .where(and(eq(dictionaryItems.dictionary, DictionaryKey.countries), eq(dictionaryItems.itemKey, a.countryCode)))
      .limit(1);
    country = item?.names[lang] ?? item?.names.en ?? a.countryCode;
  }
  const cityLine = [a.postalCode, a.city].map((x) => x.trim()).filter(Boolean).join(' ');
  return [a.address1, a.address2, cityLine, a.stateName ?? '', country]
    .map((x) => x.trim())
    .filter(Boolean)
    .join(', ');
}

/** Midnight UTC of a YYYY-MM-DD day in ms, or NaN for an impossible day (2026-02-30). */
function dayStartMs(day: string): number {
  const ms = Date.parse(`${day}T00:00:00Z`);
  return Number.isFinite(ms) && new Date(ms).toISOString().slice(0, 10) === day ? ms : Number.NaN;
}

/** Checks a filter against the acting customer: every bad field answers VF, another's account ENOA. */
export async function checkFilter(db: Db, customerId: number, filter: HistoryFilter, names: { fromAmount: string; toAmount: string } = { fromAmount: 'fromAmount', toAmount: 'toAmount' }): Promise<HistoryFilter> {
  const errors: CodedValidationError[] = [];
  const from = filter.fromDate === undefined ? undefined : dayStartMs(filter.fromDate);
  const to = filter.toDate === undefined ? undefined : dayStartMs(filter.toDate);
  if (from !== undefined && Number.isNaN(from)) errors.push(vf('fromDate', VfCode.notDate));
  if (to !== undefined && Number.isNaN(to)) errors.push(vf('toDate', VfCode.notDate));
  if (from !== undefined && to !== undefined && from > to) errors.push(vf('toDate', VfCode.notBefore, { other: 'fromDate' }));
  if (filter.fromAmount !== undefined && filter.toAmount !== undefined && Number(filter.fromAmount) > Number(filter.toAmount)) {
    errors.push(vf(names.toAmount, VfCode.notLessThan, { other: names.fromAmount }));
  }
  if (errors.length > 0) throw new MethodFailure('VF', 'Invalid request', errors);
  if (filter.accountId !== undefined) await requireOwnAccount(db, customerId, filter.accountId);
  const normalised: HistoryFilter = {};
  for (const [key, value] of Object.entries(filter)) {
    if (value !== undefined && value !== '') (normalised as Record<string, unknown>)[key] = value;
  }
  return normalised;
}

/** `CASE currency WHEN 'EUR' THEN 2 ... END`: the exponent of a row's currency, from money.ts. */
const EXPONENT_OF_CURRENCY = sql.raw(
  `(CASE r.currency ${CURRENCIES.map((c) => `WHEN '${c}' THEN ${currencyExponent(c)}`).join(' ')} ELSE 2 END)`,
);

const PARTY_NAME = (alias: string) =>
  sql.raw(`coalesce(nullif(trim(${alias}.business_name), ''), trim(${alias}.first_name || ' ' || ${alias}.last_name))`);

// a card's application fee (kind cardFee, cards.service.ts) is a fee
const OPERATION_TYPE = sql.raw(`(CASE WHEN t.kind = 'p2p' THEN 'p2p' WHEN t.kind = 'cardFee' THEN 'Fees' WHEN t.kind <> 'betweenAccounts' THEN t.kind WHEN t.from_currency <> t.to_currency THEN 'exchange' ELSE 'betweenAccounts' END)`);
/** The card a card fee was charged for (cards.fee_transfer_id), by its masked number (api/cards.ts maskCardNumber: the BIN, six stars, the last four). */
const FEE_CARD = sql.raw(`(SELECT c.bin || '******' || c.last4 FROM cards c WHERE c.fee_transfer_id = t.id LIMIT 1)`);
/** A card authorisation's status as a history row's (api/transfer-status.ts): held, declined, released. */
const AUTHORIZATION_STATUS = sql.raw(`(CASE ca.status WHEN 'authorized' THEN 'pending' WHEN 'declined' THEN 'rejected' ELSE 'canceled' END)`);
/** A payout's other side: the payee its instruction names (rails.tables.ts), never the rail's clearing account. */
const PAYOUT_PAYEE = sql.raw(`(SELECT coalesce(ri.beneficiary->>'beneficiaryName', ri.beneficiary->>'cardHolderName', ri.beneficiary->>'email', ri.beneficiary->>'phone', ri.beneficiary->>'instantKey', ri.beneficiary->>'address') FROM rail_instructions ri WHERE ri.transfer_id = t.id)`);

/**
 * Every row of a customer (see the file's comment), columns: source_id, at, part (3 out, 2 Fees,
 * 1 in, 0 deposit: the tiebreak), operation_type, direction, status, account_id, amount_minor,
 * currency, counterparty, note, reference, email. `booked`: posted transfers only, dated by their
 * journal entry (statements).
 */
/** The operationType of a booking without a transfer (journal entry `e`): an account fee is a fee. */
const ENTRY_OPERATION_TYPE = sql.raw(`(CASE WHEN e.kind = 'account_fee' THEN 'Fees' WHEN e.kind = 'card_clearing' THEN 'cardPayment' ELSE 'deposit' END)`);
/**
 * Who an entry without a transfer was with: a card payment's merchant, a revenue split's other party
 * (contracts/split.ts: the payer's leg names the beneficiary, the beneficiary's the payer), else the
 * payer it names, else the provider. Needs the entry `e` and the customer's leg `l`.
 */
const ENTRY_PARTY = sql.raw(
  `nullif(e.description->>(CASE WHEN e.kind = 'card_clearing' THEN 'merchantName' WHEN e.kind = 'contract_split' THEN (CASE WHEN l.amount_minor < 0 THEN 'beneficiaryName' ELSE 'payerName' END) ELSE 'payer' END), '')`,
);
const ENTRY_COUNTERPARTY = (providerName: string) => sql`coalesce(${ENTRY_PARTY}, ${providerName})::text`;

function rowsSql(customerId: number, providerName: string, booked: boolean): SQL {
  const at = booked ? sql.raw('e.created_at') : sql.raw('t.created_at');
  const bookedJoin = booked ? sql.raw(`JOIN journal_entries e ON e.id = t.entry_id AND t.status = 'posted'`) : sql.raw('');
  return sql`
    SELECT 'transfer' AS source_kind, t.id AS source_id, ${at} AS at, 3 AS part, ${OPERATION_TYPE} AS operation_type, 'out' AS direction, t.status AS status,
      t.from_account_id AS account_id, -t.amount_minor AS amount_minor, t.from_currency AS currency,
      (CASE WHEN t.kind = 'p2p' THEN coalesce(t.to_email, ${PARTY_NAME('q')}) WHEN t.kind = 'cardFee' THEN coalesce(${FEE_CARD}, ${providerName}::text)
        WHEN t.kind <> 'betweenAccounts' THEN ${PAYOUT_PAYEE} ELSE '#' || t.to_account_id || ' ' || t.to_currency END) AS counterparty,
      t.note AS note, t.reference AS reference, t.to_email AS email
    FROM transfers t ${bookedJoin}
      JOIN accounts a ON a.account_id = t.from_account_id
      LEFT JOIN customers q ON q.id = t.to_customer_id
    WHERE t.customer_id = ${customerId} AND a.customer_id = ${customerId} AND a.purpose = 'customer' AND t.kind <> 'mass'
    UNION ALL
    SELECT 'transfer', t.id, ${at}, 2, 'Fees', 'out', t.status, t.from_account_id, -t.fee_minor, t.from_currency, ${providerName}::text, t.note, t.reference, t.to_email
    FROM transfers t ${bookedJoin}
      JOIN accounts a ON a.account_id = t.from_account_id
    WHERE t.customer_id = ${customerId} AND a.customer_id = ${customerId} AND a.purpose = 'customer' AND t.fee_minor > 0 AND t.kind <> 'mass'
    UNION ALL
    SELECT 'transfer', t.id, ${at}, 1, ${OPERATION_TYPE}, 'in', t.status, t.to_account_id, t.to_amount_minor, t.to_currency,
      (CASE WHEN t.kind = 'p2p' THEN ${PARTY_NAME('p')} ELSE '#' || t.from_account_id || ' ' || t.from_currency END),
      t.note, t.reference, t.to_email
    FROM transfers t ${bookedJoin}
      JOIN accounts a ON a.account_id = t.to_account_id
      LEFT JOIN customers p ON p.id = t.customer_id
    WHERE t.to_customer_id = ${customerId} AND a.customer_id = ${customerId} AND a.purpose = 'customer' AND t.kind <> 'mass'
      AND (t.status = 'posted' OR t.customer_id = ${customerId})
    UNION ALL
    SELECT 'entry', e.id, e.created_at, 0, ${ENTRY_OPERATION_TYPE}, (CASE WHEN l.amount_minor < 0 THEN 'out' ELSE 'in' END), 'posted', l.account_id, l.amount_minor, l.currency,
      -- who paid from outside the platform when the entry names them (a salary, an invoice), else
      -- the provider; the entry's reason as the note (an account fee, an opening balance)
      ${ENTRY_COUNTERPARTY(providerName)}, nullif(e.description->>'reason', '')::text, NULL::text, NULL::text
    FROM journal_entries e
      JOIN journal_legs l ON l.entry_id = e.id
      JOIN accounts a ON a.account_id = l.account_id
    WHERE e.transfer_id IS NULL AND a.customer_id = ${customerId} AND a.purpose = 'customer'${
      booked
        ? sql``
        : sql`
    UNION ALL
    -- card payments not posted (a cleared one is its clearing entry above); statements show booked money only
    SELECT 'authorization', ca.id, ca.created_at, -1, 'cardPayment', 'out', ${AUTHORIZATION_STATUS}, ca.account_id, -ca.amount_minor, ca.currency,
      ca.merchant_name, ca.decline_reason, NULL::text, NULL::text
    FROM card_authorizations ca
      JOIN accounts a ON a.account_id = ca.account_id
    WHERE a.customer_id = ${customerId} AND a.purpose = 'customer' AND ca.status <> 'cleared'`
    }`;
}

/** A LIKE pattern matching the text anywhere, its wildcards (and the escape '!') taken literally. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[!%_]/g, (c) => `!${c}`)}%`;
}

/** The filter's conditions on `r` except status (the counts ignore the status). */
function baseConditions(filter: HistoryFilter): SQL {
  const parts: SQL[] = [sql`TRUE`];
  if (filter.accountId !== undefined) parts.push(sql`r.account_id = ${filter.accountId}`);
  if (filter.transactionType !== undefined) parts.push(sql`r.operation_type = ${filter.transactionType}`);
  if (filter.transactionDirection !== undefined) parts.push(sql`r.direction = ${filter.transactionDirection}`);
  if (filter.fromDate !== undefined) parts.push(sql`r.at >= ${new Date(dayStartMs(filter.fromDate)).toISOString()}::timestamptz`);
  if (filter.toDate !== undefined) parts.push(sql`r.at < ${new Date(dayStartMs(filter.toDate) + DAY_MS).toISOString()}::timestamptz`);
  if (filter.fromAmount !== undefined) parts.push(sql`abs(r.amount_minor)::numeric >= ${filter.fromAmount}::numeric * (10::numeric ^ ${EXPONENT_OF_CURRENCY})`);
  if (filter.toAmount !== undefined) parts.push(sql`abs(r.amount_minor)::numeric <= ${filter.toAmount}::numeric * (10::numeric ^ ${EXPONENT_OF_CURRENCY})`);
  if (filter.keyword) {
    const p = containsPattern(filter.keyword);
    const byId = /^\d{1,15}$/.test(filter.keyword) ? sql` OR r.source_id = ${Number(filter.keyword)}` : sql``;
    parts.push(
      sql`(r.note ILIKE ${p} ESCAPE '!' OR r.reference ILIKE ${p} ESCAPE '!' OR r.counterparty ILIKE ${p} ESCAPE '!' OR r.email ILIKE ${p} ESCAPE '!'${byId})`,
    );
  }
  if (filter.email) parts.push(sql`r.email ILIKE ${containsPattern(filter.email)} ESCAPE '!'`);
  return sql.join(parts, sql` AND `);
}

function statusCondition(filter: HistoryFilter): SQL {
  return filter.status === undefined ? sql`TRUE` : sql`r.status = ${filter.status}`;
}

const ORDER_DESC = sql.raw('r.at DESC, r.source_id DESC, r.part DESC, r.account_id DESC');

/** The output columns of a row of `r` (text where the drivers would differ). */
const ROW_COLUMNS = sql.raw(`
  to_char(r.at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS date_text,
  to_char(r.at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS at_key,
  r.source_kind, r.source_id::text AS source_id, r.part::int AS part, r.operation_type, r.direction, r.status, r.account_id::int AS account_id,
  r.amount_minor::text AS amount_minor, r.currency, r.counterparty, r.note, r.reference,
  (CASE WHEN r.source_kind = 'entry' THEN (SELECT cs.contract_id FROM contract_splits cs WHERE cs.entry_id = r.source_id LIMIT 1) END) AS contract_id`);

interface RawRow {
  source_kind: TransactionKind;
  date_text: string;
  at_key: string;
  source_id: string;
  part: number;
  operation_type: OperationType;
  direction: 'in' | 'out';
  status: TransferStatus;
  account_id: number;
  amount_minor: string;
  currency: string;
  counterparty: string | null;
  note: string | null;
  reference: string | null;
  /** a revenue split's contract (an entry row of kind contract_split), else null */
  contract_id: number | null;
}

function toTransaction(row: RawRow): Transaction {
  const transactionId = Number(row.source_id);
  return {
    rowId: `${row.source_kind}:${transactionId}:${row.account_id}:${row.operation_type}`,
    kind: row.source_kind,
    transactionId,
    transactionDate: row.date_text,
    operationType: row.operation_type,
    direction: row.direction,
    status: row.status,
    accountId: row.account_id,
    amount: minorToDecimal(BigInt(row.amount_minor), row.currency),
    currency: row.currency,
    counterparty: row.counterparty ?? '',
    note: row.note,
    reference: row.reference,
    ...(row.contract_id !== null && row.contract_id !== undefined ? { contractId: Number(row.contract_id) } : {}),
  };
}

export interface HistoryPage {
  transactions: Transaction[];
  results: number;
  rejectedCount: number;
  processingCount: number;
}

/** One page and the counts, in one statement (one snapshot). */
export async function historyPage(
  db: Db,
  customerId: number,
  filter: HistoryFilter,
  page: { pageNumber: number; pageSize: number },
  providerName: string,
): Promise<HistoryPage> {
  const pageSize = Math.min(page.pageSize, MAX_PAGE_SIZE);
  const offset = (page.pageNumber - 1) * pageSize;
  const rows = await rowsOf<RawRow & { results: number; rejected: number; processing: number }>(
    db,
    sql`
      WITH hr AS (SELECT r.* FROM (${rowsSql(customerId, providerName, false)}) r WHERE ${baseConditions(filter)}),
      counts AS (
        SELECT count(*) FILTER (WHERE ${statusCondition(filter)})::int AS results,
          count(*) FILTER (WHERE r.status = 'rejected')::int AS rejected,
          -- in progress: awaiting approval, or (a payout) on its way over its rail
          count(*) FILTER (WHERE r.status IN ('pending', 'processing'))::int AS processing
        FROM hr r),
      page AS (SELECT r.* FROM hr r WHERE ${statusCondition(filter)} ORDER BY ${ORDER_DESC} LIMIT ${pageSize} OFFSET ${offset})
      SELECT c.results, c.rejected, c.processing, ${ROW_COLUMNS}
      FROM counts c LEFT JOIN page r ON TRUE
      ORDER BY ${ORDER_DESC}`,
  );
  const first = rows[0];
  return {
    transactions: rows.filter((r) => r.source_id !== null).map(toTransaction),
    results: first?.results ?? 0,
    rejectedCount: first?.rejected ?? 0,
    processingCount: first?.processing ?? 0,
  };
}

/** Rows matching the whole filter (status included). */
export async function historyCount(db: Db, customerId: number, filter: HistoryFilter, providerName: string): Promise<number> {
  const [row] = await rowsOf<{ n: number }>(
    db,
    sql`SELECT count(*)::int AS n FROM (${rowsSql(customerId, providerName, false)}) r WHERE ${baseConditions(filter)} AND ${statusCondition(filter)}`,
  );
  return row?.n ?? 0;
}

/** Where a walk over the history stopped: the last row's order key. */
export interface HistoryCursor {
  atKey: string;
  sourceId: number;
  part: number;
  accountId: number;
}

/**
 * The next rows after a cursor, newest first (the export's walk). Rows asked after the walk began
 * are newer than its first row, so they never shift it: no row is repeated or skipped.
 */
export async function historyChunk(
  db: Db,
  customerId: number,
  filter: HistoryFilter,
  after: HistoryCursor | null,
  limit: number,
  providerName: string,
): Promise<{ transactions: Transaction[]; cursor: HistoryCursor | null }> {
  const afterCondition = after
    ? sql`(r.at, r.source_id, r.part, r.account_id) < (${after.atKey}::timestamptz, ${after.sourceId}::bigint, ${after.part}::int, ${after.accountId}::int)`
    : sql`TRUE`;
  const rows = await rowsOf<RawRow>(
    db,
    sql`SELECT ${ROW_COLUMNS} FROM (${rowsSql(customerId, providerName, false)}) r
        WHERE ${baseConditions(filter)} AND ${statusCondition(filter)} AND ${afterCondition}
        ORDER BY ${ORDER_DESC} LIMIT ${limit}`,
  );
  const last = rows.at(-1);
  return {
    transactions: rows.map(toTransaction),
    cursor: last ? { atKey: last.at_key, sourceId: Number(last.source_id), part: last.part, accountId: last.account_id } : null,
  };
}

/** YYYY-MM-DD (UTC) of a time in ms. */
export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

export interface BalanceSeries {
  currency: string;
  points: { date: string; balance: string }[];
}

/**
 * The balance of each currency of the customer's accounts at the end of each day with movement
 * in the last `days` days, with the day before the window as the starting point and today as the
 * last point (sums of journal legs: booked money, holds of pending transfers included).
 */
export async function balanceSeries(db: Db, customerId: number, days: number, nowMs: number): Promise<BalanceSeries[]> {
  const todayStart = Date.parse(`${utcDay(nowMs)}T00:00:00Z`);
  const startDay = utcDay(todayStart - days * DAY_MS);
  const windowStart = new Date(todayStart - (days - 1) * DAY_MS).toISOString();
  const windowEnd = new Date(todayStart + DAY_MS).toISOString();
  const rows = await rowsOf<{ currency: string; day: string | null; amount: string }>(
    db,
    sql`
      WITH cur AS (
        SELECT DISTINCT a.currency FROM accounts a WHERE a.customer_id = ${customerId} AND a.purpose = 'customer'),
      legs AS (
        SELECT l.currency, e.created_at AS at, l.amount_minor
        FROM journal_legs l
          JOIN journal_entries e ON e.id = l.entry_id
          JOIN accounts a ON a.account_id = l.account_id
        WHERE a.customer_id = ${customerId} AND a.purpose = 'customer' AND e.created_at < ${windowEnd}::timestamptz)
      SELECT cur.currency, NULL::text AS day,
        (SELECT coalesce(sum(legs.amount_minor), 0) FROM legs WHERE legs.currency = cur.currency AND legs.at < ${windowStart}::timestamptz)::text AS amount
      FROM cur
      UNION ALL
      SELECT legs.currency, to_char(legs.at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, sum(legs.amount_minor)::text
      FROM legs WHERE legs.at >= ${windowStart}::timestamptz
      GROUP BY 1, 2
      ORDER BY 1, 2 NULLS FIRST`,
  );
  const series = new Map<string, { balance: bigint; points: { date: string; balance: string }[] }>();
  for (const row of rows) {
    let s = series.get(row.currency);
    if (!s) {
      s = { balance: 0n, points: [] };
      series.set(row.currency, s);
    }
    s.balance += BigInt(row.amount);
    s.points.push({ date: row.day ?? startDay, balance: minorToDecimal(s.balance, row.currency) });
  }
  const today = utcDay(nowMs);
  return [...series].map(([currency, s]) => {
    if (s.points.at(-1)?.date !== today) s.points.push({ date: today, balance: minorToDecimal(s.balance, currency) });
    return { currency, points: s.points };
  });
}

/** {year, month} from a month's first day back to another's, newest first (UTC). */
export function monthsBetween(firstMs: number, lastMs: number): { year: number; month: number }[] {
  const first = new Date(firstMs);
  const last = new Date(lastMs);
  const out: { year: number; month: number }[] = [];
  let year = last.getUTCFullYear();
  let month = last.getUTCMonth() + 1;
  const stopKey = first.getUTCFullYear() * 12 + first.getUTCMonth();
  while (year * 12 + (month - 1) >= stopKey) {
    out.push({ year, month });
    month -= 1;
    if (month === 0) {
      month = 12;
      year -= 1;
    }
  }
  return out;
}

export const periodOf = (year: number, month: number) => `${year}-${String(month).padStart(2, '0')}`;

/** The first instant of a month and of the next (UTC), as ISO strings. */
export function monthRange(year: number, month: number): { start: Date; end: Date } {
  return { start: new Date(Date.UTC(year, month - 1, 1)), end: new Date(Date.UTC(year, month, 1)) };
}

export interface StatementRows {
  openingBalanceMinor: bigint;
  /** the sum of the account's legs up to the end of the period (checks the movements) */
  closingFromLegsMinor: bigint;
  movements: StatementMovement[];
}

/** A booked movement of a statement: what it was, not yet in words (statement-pdf.ts words it per language). */
export interface StatementMovement {
  /** when it was booked (UTC) */
  bookedAt: Date;
  /** signed: negative leaves the account */
  amountMinor: bigint;
  operationType: OperationType;
  direction: 'in' | 'out';
  counterparty: string;
  note: string | null;
  reference: string | null;
}

/** The posted movements of one account in [start, end), oldest first, with the opening balance. */
export async function statementRows(db: Db, customerId: number, accountId: number, start: Date, end: Date, providerName: string): Promise<StatementRows> {
  const startIso = start.toISOString();
  const endIso = end.toISOString();
  const rows = await rowsOf<RawRow>(
    db,
    sql`SELECT ${ROW_COLUMNS} FROM (${rowsSql(customerId, providerName, true)}) r
        WHERE r.account_id = ${accountId} AND r.status = 'posted' AND r.at >= ${startIso}::timestamptz AND r.at < ${endIso}::timestamptz
        ORDER BY r.at, r.source_id, r.part DESC`,
  );
  const [sums] = await rowsOf<{ opening: string; closing: string }>(
    db,
    sql`SELECT
          coalesce(sum(l.amount_minor) FILTER (WHERE e.created_at < ${startIso}::timestamptz), 0)::text AS opening,
          coalesce(sum(l.amount_minor), 0)::text AS closing
        FROM journal_legs l JOIN journal_entries e ON e.id = l.entry_id
        WHERE l.account_id = ${accountId} AND e.created_at < ${endIso}::timestamptz`,
  );
  return {
    openingBalanceMinor: BigInt(sums?.opening ?? '0'),
    closingFromLegsMinor: BigInt(sums?.closing ?? '0'),
    movements: rows.map((r) => ({
      bookedAt: new Date(r.date_text),
      amountMinor: BigInt(r.amount_minor),
      operationType: r.operation_type,
      direction: r.direction,
      counterparty: r.counterparty ?? '',
      note: r.note,
      reference: r.reference,
    })),
  };
}

/** One transfer as its receipt shows it to one of its sides (receipt-pdf.ts). */
export interface ReceiptTransfer {
  transactionId: number;
  /** Fees: a card's application fee (kind cardFee) */
  operationType: Exclude<OperationType, 'deposit'>;
  /** payer: the acting customer asked it (every status); payee: another customer's payment to it */
  viewer: 'payer' | 'payee';
  status: TransferStatus;
  createdAt: Date;
  /** the last status change */
  updatedAt: Date;
  expiresAt: Date;
  /** when its journal entry booked it (posted only) */
  bookedAt: Date | null;
  fromAccountId: number;
  fromCurrency: string;
  amountMinor: bigint;
  feeMinor: bigint;
  toAccountId: number;
  toCurrency: string;
  toAmountMinor: bigint;
  /** toCurrency per fromCurrency, as stored when it was asked */
  rate: string;
  /** the other side as history shows it: the payee's e-mail or name, the payer's name, or own account */
  counterparty: string;
  note: string | null;
  reference: string | null;
  /** money out of the platform over a rail: its other side is the payee outside, its "to" account the rail's clearing account (never shown) */
  payout: boolean;
  /** a payout the rail refused or returned: the rail's reason code (rails/reasons.ts), else null */
  railReason: string | null;
  /** a payment to the customer that a revenue split took shares of (splitSharesOut); absent or [] otherwise */
  splitShares?: SplitShare[];
}

/**
 * A share a revenue split took of an incoming payment on the customer's account (issue 19 item 2;
 * contracts/split.ts: contract_splits names the payment's entry as source_entry_id): the contract,
 * the share's own entry, the amount, the beneficiary (named as the split's entry names it, as its
 * history row does) and whether the customer may open the contract (a party to it).
 */
export interface SplitShare {
  contractId: number;
  entryId: number;
  currency: string;
  shareMinor: bigint;
  beneficiary: string;
  contractVisible: boolean;
}

/** The contract `cs` names is one the customer is a party to (the contract page's rule: contracts.routes.ts `ours`). */
const CONTRACT_VISIBLE = (customerId: number) =>
  sql`EXISTS (SELECT 1 FROM contracts c WHERE c.id = cs.contract_id AND (c.sender_id = ${customerId} OR c.beneficiary_id = ${customerId}))`;

/**
 * The shares revenue splits took of the payment booked by `sourceEntryId`, from the customer's own
 * accounts only (the payer of a p2p never learns of its payee's contracts), in contract order.
 */
export async function splitSharesOut(db: Db, customerId: number, sourceEntryId: number): Promise<SplitShare[]> {
  const rows = await rowsOf<{ contract_id: number; entry_id: string; currency: string; share_minor: string; beneficiary: string | null; visible: boolean }>(
    db,
    sql`SELECT cs.contract_id, cs.entry_id::text AS entry_id, cs.currency, cs.share_minor::text AS share_minor,
          nullif(e.description->>'beneficiaryName', '') AS beneficiary, ${CONTRACT_VISIBLE(customerId)} AS visible
        FROM contract_splits cs
          JOIN accounts a ON a.account_id = cs.payer_account_id
          JOIN journal_entries e ON e.id = cs.entry_id
        WHERE cs.source_entry_id = ${sourceEntryId} AND a.customer_id = ${customerId} AND a.purpose = 'customer'
        ORDER BY cs.contract_id, cs.id`,
  );
  return rows.map((r) => ({
    contractId: Number(r.contract_id),
    entryId: Number(r.entry_id),
    currency: r.currency,
    shareMinor: BigInt(r.share_minor),
    beneficiary: r.beneficiary ?? '',
    contractVisible: r.visible === true,
  }));
}

const utcText = (column: string) => sql.raw(`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`);

/**
 * A transfer the acting customer may see, with the same rule as its history rows: the payer's own
 * account pays it (any status), or it credits the customer's own account from another customer
 * (posted only; a payee never learns of a pending or voided payment). Null otherwise: unknown
 * and another customer's transfers alike.
 */
export async function receiptTransfer(db: Db, customerId: number, transactionId: number): Promise<ReceiptTransfer | null> {
  const [row] = await rowsOf<{
    id: string; kind: TransferRowKind; status: TransferStatus; payer: number; from_account_id: number; to_account_id: number;
    from_currency: string; to_currency: string; amount_minor: string; to_amount_minor: string; fee_minor: string; rate: string;
    to_email: string | null; note: string | null; reference: string | null; created_at: string; updated_at: string; expires_at: string;
    booked_at: string | null; payer_name: string | null; payee_name: string | null; payout_payee: string | null; rail_reason: string | null; fee_card: string | null;
    entry_id: string | null;
  }>(
    db,
    sql`SELECT t.id::text AS id, t.kind, t.status, t.customer_id AS payer, t.from_account_id, t.to_account_id, t.from_currency, t.to_currency,
          t.amount_minor::text AS amount_minor, t.to_amount_minor::text AS to_amount_minor, t.fee_minor::text AS fee_minor, t.rate,
          t.to_email, t.note, t.reference,
          ${utcText('t.created_at')} AS created_at, ${utcText('t.updated_at')} AS updated_at, ${utcText('t.expires_at')} AS expires_at,
          ${utcText('e.created_at')} AS booked_at, e.id::text AS entry_id, ${PARTY_NAME('p')} AS payer_name, ${PARTY_NAME('q')} AS payee_name,
          CASE WHEN t.kind NOT IN ('p2p', 'betweenAccounts', 'cardFee') THEN ${PAYOUT_PAYEE} END AS payout_payee,
          CASE WHEN t.kind = 'cardFee' THEN ${FEE_CARD} END AS fee_card,
          (SELECT ri.reason_code FROM rail_instructions ri WHERE ri.transfer_id = t.id) AS rail_reason
        FROM transfers t
          JOIN accounts fa ON fa.account_id = t.from_account_id
          JOIN accounts ta ON ta.account_id = t.to_account_id
          LEFT JOIN journal_entries e ON e.id = t.entry_id AND t.status = 'posted'
          LEFT JOIN customers p ON p.id = t.customer_id
          LEFT JOIN customers q ON q.id = t.to_customer_id
        WHERE t.id = ${transactionId} AND t.kind <> 'mass' AND (
          (t.customer_id = ${customerId} AND fa.customer_id = ${customerId} AND fa.purpose = 'customer')
          OR (t.to_customer_id = ${customerId} AND ta.customer_id = ${customerId} AND ta.purpose = 'customer' AND t.status = 'posted'))
        LIMIT 1`,
  );
  // a mass batch's request is not a transaction of history (the query leaves it out; its rows are)
  if (!row || row.kind === 'mass') return null;
  const viewer = row.payer === customerId ? 'payer' : 'payee';
  // a card's fee is booked inside the platform (the provider's fee account), no rail
  const payout = row.kind !== 'p2p' && row.kind !== 'betweenAccounts' && row.kind !== 'cardFee';
  const operationType = row.kind === 'cardFee' ? 'Fees' : payout || row.kind === 'p2p' ? row.kind : row.from_currency !== row.to_currency ? 'exchange' : 'betweenAccounts';
  const counterparty = payout
    ? (row.payout_payee ?? '')
    : row.kind === 'cardFee'
      ? (row.fee_card ?? '')
      : row.kind !== 'p2p'
      ? ''
      : viewer === 'payer'
        ? (row.to_email ?? row.payee_name ?? '')
        : (row.payer_name ?? '');
  return {
    transactionId: Number(row.id),
    operationType,
    viewer,
    status: row.status,
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
    expiresAt: new Date(row.expires_at),
    bookedAt: row.booked_at ? new Date(row.booked_at) : null,
    fromAccountId: row.from_account_id,
    fromCurrency: row.from_currency,
    amountMinor: BigInt(row.amount_minor),
    feeMinor: BigInt(row.fee_minor),
    toAccountId: row.to_account_id,
    toCurrency: row.to_currency,
    toAmountMinor: BigInt(row.to_amount_minor),
    rate: row.rate,
    counterparty,
    note: row.note,
    reference: row.reference,
    payout,
    railReason: payout && (row.status === 'returned' || row.status === 'rejected') ? row.rail_reason : null,
    // a posted payment to the customer a revenue split took shares of (the payer's side of it never has any)
    splitShares: row.entry_id !== null ? await splitSharesOut(db, customerId, Number(row.entry_id)) : [],
  };
}

/** A journal entry without a transfer (a deposit, withdrawal or account fee the provider booked), as the customer's legs of it. */
export interface ReceiptEntry {
  entryId: number;
  bookedAt: Date;
  /** as its history rows: Fees for an account fee, cardPayment for a card payment's clearing, else deposit */
  operationType: 'Fees' | 'deposit' | 'cardPayment';
  /** who the entry was with when it names them (who paid from outside the platform; a card payment's merchant), else null (the provider) */
  payer: string | null;
  /** the entry's reason (an account fee, a salary), else null */
  reason: string | null;
  /** the legs on the customer's own accounts, in booking order */
  legs: { accountId: number; currency: string; amountMinor: bigint }[];
  /**
   * a revenue split's share (journal kind contract_split): its contract, the other party (as
   * `payer`: the beneficiary for the payer's side, the payer for the beneficiary's) and whether the
   * customer may open the contract; absent or null otherwise
   */
  split?: { contractId: number; counterparty: string; contractVisible: boolean } | null;
  /** money from outside a revenue split took shares of (splitSharesOut); absent or [] otherwise */
  splitShares?: SplitShare[];
}

/** The entry when it has legs on the customer's own accounts and no transfer (those have the transfer's receipt); else null. */
export async function receiptEntry(db: Db, customerId: number, entryId: number): Promise<ReceiptEntry | null> {
  const rows = await rowsOf<{
    booked_at: string; operation_type: 'Fees' | 'deposit' | 'cardPayment'; payer: string | null; reason: string | null; account_id: number; currency: string; amount_minor: string;
    contract_id: number | null; contract_visible: boolean | null;
  }>(
    db,
    sql`SELECT ${utcText('e.created_at')} AS booked_at, ${ENTRY_OPERATION_TYPE} AS operation_type,
          ${ENTRY_PARTY} AS payer, nullif(e.description->>'reason', '') AS reason,
          l.account_id, l.currency, l.amount_minor::text AS amount_minor,
          cs.contract_id, (CASE WHEN cs.contract_id IS NOT NULL THEN ${CONTRACT_VISIBLE(customerId)} END) AS contract_visible
        FROM journal_entries e
          JOIN journal_legs l ON l.entry_id = e.id
          JOIN accounts a ON a.account_id = l.account_id
          LEFT JOIN contract_splits cs ON cs.entry_id = e.id AND e.kind = 'contract_split'
        WHERE e.id = ${entryId} AND e.transfer_id IS NULL AND a.customer_id = ${customerId} AND a.purpose = 'customer'
        ORDER BY l.id`,
  );
  if (rows.length === 0) return null;
  return {
    entryId,
    bookedAt: new Date(rows[0]!.booked_at),
    operationType: rows[0]!.operation_type,
    payer: rows[0]!.payer,
    reason: rows[0]!.reason,
    legs: rows.map((r) => ({ accountId: r.account_id, currency: r.currency, amountMinor: BigInt(r.amount_minor) })),
    split: rows[0]!.contract_id === null ? null : { contractId: Number(rows[0]!.contract_id), counterparty: rows[0]!.payer ?? '', contractVisible: rows[0]!.contract_visible === true },
    // a split's own entry is never split again (no cascade); money from outside may have been
    splitShares: rows[0]!.contract_id === null ? await splitSharesOut(db, customerId, entryId) : [],
  };
}

/** A card payment not posted (history rows of kind authorization), as its detail shows it. */
export interface ReceiptAuthorization {
  id: number;
  /** as its history row: pending (held), rejected (declined), canceled (released); a cleared one is its entry's */
  status: 'pending' | 'rejected' | 'canceled' | 'posted';
  accountId: number;
  currency: string;
  amountMinor: bigint;
  merchantName: string;
  /** the decline reason's code (api/cards.ts DECLINE_REASONS), else null */
  declineReason: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/** The card authorisation when it draws on one of the customer's own accounts; else null (unknown and another customer's alike). */
export async function receiptAuthorization(db: Db, customerId: number, authorizationId: number): Promise<ReceiptAuthorization | null> {
  const [row] = await rowsOf<{ id: string; status: string; account_id: number; currency: string; amount_minor: string; merchant_name: string; decline_reason: string | null; created_at: string; updated_at: string }>(
    db,
    sql`SELECT ca.id::text AS id, ca.status, ca.account_id, ca.currency, ca.amount_minor::text AS amount_minor, ca.merchant_name, ca.decline_reason,
          ${utcText('ca.created_at')} AS created_at, ${utcText('ca.updated_at')} AS updated_at
        FROM card_authorizations ca JOIN accounts a ON a.account_id = ca.account_id
        WHERE ca.id = ${authorizationId} AND a.customer_id = ${customerId} AND a.purpose = 'customer'`,
  );
  if (!row) return null;
  const status = ({ authorized: 'pending', declined: 'rejected', reversed: 'canceled', cleared: 'posted' } as const)[row.status as 'authorized' | 'declined' | 'reversed' | 'cleared'];
  return {
    id: Number(row.id),
    status,
    accountId: row.account_id,
    currency: row.currency,
    amountMinor: BigInt(row.amount_minor),
    merchantName: row.merchant_name,
    declineReason: row.decline_reason,
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
  };
}
