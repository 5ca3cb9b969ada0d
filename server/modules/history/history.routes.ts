/**
 * The history's downloads (api/history.ts), REST because they answer files, with the bearer
 * token like every other call:
 * - GET /api/v1/exports/{exportId}/file                          the CSV of a finished export
 * - GET /api/v1/statements/{accountId}/{year}/{month}            the month's statement as a PDF
 * - GET /api/v1/history/transactions/{transactionId}/receipt     one transfer's receipt as a PDF
 * - GET /api/v1/history/entries/{entryId}/receipt                 the receipt of a booking without a
 *   transfer (a history 'deposit' row, whose transactionId is a journal entry's id)
 *   (no receipt path in the spec: chosen under the history their ids come from)
 *
 * The PDFs are in the customer's language: the caller's own saved settings language (the one the
 * app's language switcher saves; a user acting for a company reads in their own language), else
 * the request's Accept-Language, else English. They name the acting customer (the account's or
 * transfer's owner) with its current address.
 *
 * The acting customer is the caller's own, or the company named by the Customer-Id header
 * (api/http.ts CUSTOMER_ID_HEADER) when the caller may act for it (mayActFor, as for named
 * methods). Answers: 200 with the file (Content-Disposition attachment with its name); 401 without
 * a valid token; 403 for a restricted session or a company the caller may not act for; 404 for
 * an unknown export, account, month or transaction and for another customer's (alike: nothing is
 * revealed);
 * 409 for an export that is not done (still building, or failed). Error bodies are the envelope's
 * `{ responseCode, responseDescription }`.
 *
 * Each download writes an audit entry (who, for which customer, which export or account and
 * month). Nothing about a file's content is logged.
 *
 * The plugin also runs the export builders on the platform's job queue when the app has one
 * (exports.worker.ts startExportWorkers) and stops them when the app closes; an app without a queue
 * builds none (tests build them with runExportJobs).
 */
import { isIdText } from '../../../api/method.ts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { API_VERSION_PATH, CUSTOMER_ID_HEADER } from '../../../api/http.ts';
import { activeVariant } from '../../../variants/index.ts';
import type { Db } from '../../db/types.ts';
import type { TokenService } from '../auth/tokens.service.ts';
import type { Caller } from '../method-types.ts';
import { safeError } from '../platform/log.ts';
import { isConnectionError, replyUnavailable } from '../../db/outage.ts';
import { bearerToken } from '../platform/bearer.ts';
import { mayActFor } from '../platform/method-endpoint.ts';
import { auditLog } from '../platform/platform.tables.ts';
import { CSV_BOM } from './csv.ts';
import { startExportWorkers } from './exports.worker.ts';
import type { JobQueue } from '../../db/job-queue.ts';
import { documentLanguage, type DocumentLanguage } from './document-words.ts';
import {
  customerAddressLine,
  customerLanguage,
  customerName,
  findOwnExport,
  monthRange,
  ownAccount,
  periodOf,
  receiptEntry,
  receiptTransfer,
  statementRows,
} from './history.service.ts';
import { entryReceiptFields, receiptFields, receiptFileName, renderReceiptPdf } from './receipt-pdf.ts';
import { renderStatementPdf, statementFileName, summarise } from './statement-pdf.ts';

export interface HistoryRoutesOptions {
  db: Db;
  tokens: Pick<TokenService, 'authenticate'>;
  now?: () => number;
  providerName?: string;
  /** the platform's job queue: the export builders run on it (none without) */
  jobQueue?: JobQueue | null;
  /** run the export builders in this app when it has a queue (default true) */
  exportWorker?: boolean;
}

class HttpAnswer extends Error {
  constructor(
    readonly statusCode: 401 | 403 | 404 | 409 | 500,
    readonly responseCode: string,
    message: string,
  ) {
    super(message);
  }
}

const notFound = () => new HttpAnswer(404, 'ENOA', 'Not found');
const EXPORT_ID = /^[A-Za-z0-9_-]{1,100}$/;

export const exportFileRoute = `${API_VERSION_PATH}/exports/:exportId/file`;
export const statementRoute = `${API_VERSION_PATH}/statements/:accountId/:year/:month`;
export const receiptRoute = `${API_VERSION_PATH}/history/transactions/:transactionId/receipt`;
export const entryReceiptRoute = `${API_VERSION_PATH}/history/entries/:entryId/receipt`;

export async function historyRoutes(app: FastifyInstance, options: HistoryRoutesOptions): Promise<void> {
  const { db, tokens } = options;
  const now = options.now ?? Date.now;
  const providerName = options.providerName ?? activeVariant.projectName;

  /** The caller and the customer it acts for. */
  const acting = async (request: FastifyRequest): Promise<{ caller: Caller; customerId: number }> => {
    const caller = await tokens.authenticate(bearerToken(request));
    if (!caller) throw new HttpAnswer(401, 'AU', 'Sign-in required');
    if (caller.restriction) throw new HttpAnswer(403, '13', 'Not available in this session');
    const header = request.headers[CUSTOMER_ID_HEADER.toLowerCase()];
    if (header === undefined) return { caller, customerId: caller.customerId };
    if (typeof header !== 'string' || !isIdText(header)) throw new HttpAnswer(403, 'ENOA', 'No access to this customer');
    const customerId = Number(header);
    if (!(await mayActFor(db, caller, customerId))) throw new HttpAnswer(403, 'ENOA', 'No access to this customer');
    return { caller, customerId };
  };

  const handle =
    (run: (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply>) => async (request: FastifyRequest, reply: FastifyReply) => {
      try {
        return await run(request, reply);
      } catch (err) {
        if (err instanceof HttpAnswer) return reply.code(err.statusCode).send({ responseCode: err.responseCode, responseDescription: err.message });
        if (isConnectionError(err)) return replyUnavailable(reply);
        request.log.error({ error: safeError(err) }, 'history download failed');
        return reply.code(500).send({ responseCode: 'UE', responseDescription: 'Unknown error' });
      }
    };

  const languageOf = async (request: FastifyRequest, caller: Caller) => documentLanguage(await customerLanguage(db, caller.customerId), request.headers['accept-language']);

  const audit = (caller: Caller, customerId: number, method: string, details: Record<string, unknown>) =>
    db.insert(auditLog).values({ userId: caller.userId, customerId, method, details });

  app.get(
    exportFileRoute,
    handle(async (request, reply) => {
      const { caller, customerId } = await acting(request);
      const { exportId } = request.params as { exportId: string };
      if (!EXPORT_ID.test(exportId)) throw notFound();
      const row = await findOwnExport(db, customerId, exportId);
      if (!row) throw notFound();
      if (row.status === 'failed') throw new HttpAnswer(409, 'TA1', 'The export failed; ask for it again with a narrower filter');
      if (row.status !== 'done' || row.content === null || !row.fileName) throw new HttpAnswer(409, 'TA1', 'The export is not finished yet');
      await audit(caller, customerId, 'exportDownload', { exportId: row.id });
      return reply
        .code(200)
        .header('Content-Type', 'text/csv; charset=utf-8')
        .header('Content-Disposition', `attachment; filename="${row.fileName}"`)
        .send(CSV_BOM + row.content);
    }),
  );

  app.get(
    statementRoute,
    handle(async (request, reply) => {
      const { caller, customerId } = await acting(request);
      const params = request.params as { accountId: string; year: string; month: string };
      if (!isIdText(params.accountId) || !/^\d{4}$/.test(params.year) || !/^(0?[1-9]|1[0-2])$/.test(params.month)) throw notFound();
      const accountId = Number(params.accountId);
      const year = Number(params.year);
      const month = Number(params.month);
      const account = await ownAccount(db, customerId, accountId);
      if (!account) throw notFound();
      const { start, end } = monthRange(year, month);
      const created = account.createdAt;
      const firstMonth = Date.UTC(created.getUTCFullYear(), created.getUTCMonth(), 1);
      // A statement exists from the account's first month to the current one.
      if (start.getTime() < firstMonth || start.getTime() > now()) throw notFound();

      // One snapshot for the movements and the ledger sums they are checked against.
      const rows = await db.transaction((tx) => statementRows(tx, customerId, accountId, start, end, providerName), {
        isolationLevel: 'repeatable read',
        accessMode: 'read only',
      });
      const summary = summarise(rows);
      if (summary.closingBalanceMinor !== rows.closingFromLegsMinor) {
        // The movements must add up to the ledger; a statement that does not is never issued.
        request.log.error({ accountId, period: periodOf(year, month) }, 'statement movements do not add up to the ledger');
        throw new HttpAnswer(500, 'UE', 'The statement cannot be issued');
      }
      const lang = await languageOf(request, caller);
      const pdf = await renderStatementPdf({
        lang,
        providerName,
        customerName: await customerName(db, account.customerId),
        customerAddress: await customerAddressLine(db, account.customerId, lang),
        accountId,
        accountAddress: account.address,
        currency: account.currency,
        year,
        month,
        openingBalanceMinor: rows.openingBalanceMinor,
        movements: rows.movements,
        generatedAt: new Date(now()),
      });
      await audit(caller, customerId, 'statementDownload', { accountId, period: periodOf(year, month) });
      return reply
        .code(200)
        .header('Content-Type', 'application/pdf')
        .header('Content-Disposition', `attachment; filename="${statementFileName(accountId, year, month)}"`)
        .send(pdf);
    }),
  );

  /** Renders and answers a receipt once its subject was found for the acting customer. */
  const sendReceipt = async (
    request: FastifyRequest,
    reply: FastifyReply,
    who: { caller: Caller; customerId: number },
    receiptId: string,
    fields: (lang: DocumentLanguage) => [string, string][],
    audited: Record<string, unknown>,
  ) => {
    const lang = await languageOf(request, who.caller);
    const pdf = await renderReceiptPdf({
      lang,
      providerName,
      customerName: await customerName(db, who.customerId),
      customerAddress: await customerAddressLine(db, who.customerId, lang),
      receiptId,
      fields: fields(lang),
      generatedAt: new Date(now()),
    });
    await audit(who.caller, who.customerId, 'receiptDownload', audited);
    return reply
      .code(200)
      .header('Content-Type', 'application/pdf')
      .header('Content-Disposition', `attachment; filename="${receiptFileName(receiptId)}"`)
      .send(pdf);
  };

  app.get(
    receiptRoute,
    handle(async (request, reply) => {
      const who = await acting(request);
      const { transactionId: idText } = request.params as { transactionId: string };
      if (!isIdText(idText)) throw notFound();
      const transactionId = Number(idText);
      const transfer = await receiptTransfer(db, who.customerId, transactionId);
      if (!transfer) throw notFound();
      return sendReceipt(request, reply, who, String(transactionId), (lang) => receiptFields({ lang, transfer }), { transactionId });
    }),
  );

  app.get(
    entryReceiptRoute,
    handle(async (request, reply) => {
      const who = await acting(request);
      const { entryId: idText } = request.params as { entryId: string };
      if (!isIdText(idText)) throw notFound();
      const entryId = Number(idText);
      const entry = await receiptEntry(db, who.customerId, entryId);
      if (!entry) throw notFound();
      return sendReceipt(request, reply, who, `E${entryId}`, (lang) => entryReceiptFields({ lang, entry, providerName }), { entryId });
    }),
  );

  if (options.exportWorker !== false && options.jobQueue) {
    const workers = await startExportWorkers({
      db,
      queue: options.jobQueue,
      now,
      providerName,
      onError: (exportId: string, err: unknown) => app.log.error({ exportId, error: safeError(err) }, 'history export failed'),
    });
    app.addHook('onClose', () => workers.stop());
  }
}
