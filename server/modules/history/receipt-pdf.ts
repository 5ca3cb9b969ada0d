/**
 * The receipt of one transfer, or of one booking without a transfer (entryReceiptFields), as a PDF, in the customer's language, with the statement's header
 * (provider, customer's name and address) and footer (legal lines, support, page numbers).
 *
 * Every field the viewer may see: the transaction id; date and time (when it was asked); type;
 * status with its times (booked for a completed one, the status change for a voided one,
 * the expiry for a pending one); direction; the amount; the fee, the total debited, the amount
 * credited and the rate when currencies differ; the debit and credit accounts; the counterparty;
 * note and reference.
 *
 * The payee of another customer's payment (viewer 'payee') sees what its own history row shows:
 * the amount credited to its account and the payer's name, never the payer's fee nor the payer's
 * account number (account ids of other customers are not shown anywhere in the app). The spec
 * says nothing about a receipt; this follows the history's visibility rules.
 *
 * A revenue split (issue 19 item 2): a contract's share is typed as one on both sides, with its
 * contract's number and the other party as the counterparty; an incoming payment a split took
 * shares of names each share on its receiver's receipt ("30.00 EUR went to … under contract #n").
 */
import { minorToDecimal } from '../accounts/money.ts';
import { wordsFor, type DocumentLanguage } from './document-words.ts';
import type { ReceiptEntry, ReceiptTransfer, SplitShare } from './history.service.ts';
import { CONTENT_RIGHT, PAGE, PdfCanvas, drawFooters, footerLineCount, footerLines, footerTop, utcMinute } from './pdf-document.ts';
import { accountLabel } from './statement-pdf.ts';

export interface ReceiptData {
  lang: DocumentLanguage;
  providerName: string;
  customerName: string;
  customerAddress: string;
  /** the id in the title: a transfer's id, or E and a journal entry's id */
  receiptId: string;
  /** label and value, in order (receiptFields, entryReceiptFields) */
  fields: [string, string][];
  generatedAt: Date;
}

export function receiptFileName(receiptId: string | number): string {
  return `receipt-${receiptId}.pdf`;
}

const LABEL_WIDTH = 190;
const SIZE = 10;
const LINE = 15;
const MAX_VALUE_LINES = 8;

/**
 * The shares revenue splits took of an incoming payment (issue 19 item 2), one line each: "30.00
 * EUR went to Anna Kowalska under contract #12" (the receiver's side only: the payment's payer never
 * sees its payee's contracts).
 */
function splitShareFields(w: ReturnType<typeof wordsFor>, shares: readonly SplitShare[] | undefined): [string, string][] {
  return (shares ?? []).map((s) => [w.splitShareLabel, w.splitShareWent(`${minorToDecimal(s.shareMinor, s.currency)} ${s.currency}`, s.beneficiary || w.none, w.contractNumber(s.contractId))]);
}

/** The receipt's fields as label and value lines, in order (also what the tests read back). */
export function receiptFields(data: { lang: DocumentLanguage; transfer: ReceiptTransfer }): [string, string][] {
  const w = wordsFor(data.lang);
  const t = data.transfer;
  const from = (minor: bigint) => `${minorToDecimal(minor, t.fromCurrency)} ${t.fromCurrency}`;
  const to = (minor: bigint) => `${minorToDecimal(minor, t.toCurrency)} ${t.toCurrency}`;
  const at = (d: Date) => `${utcMinute(d)} UTC`;
  const payer = t.viewer === 'payer';
  const converted = t.fromCurrency !== t.toCurrency;
  // For own-account transfers both sides are the customer's: it is both an out and an in.
  const direction = t.operationType === 'p2p' ? w.directions[payer ? 'out' : 'in'] : null;

  const fields: [string, string][] = [
    [w.transactionId, String(t.transactionId)],
    [w.dateTime, at(t.createdAt)],
    [w.type, w.operationTypes[t.operationType]],
    [w.status, w.statuses[t.status]],
  ];
  if (t.status === 'posted' && t.bookedAt) fields.push([w.bookedAt, at(t.bookedAt)]);
  else if (t.status === 'pending') fields.push([w.expiresAt, at(t.expiresAt)]);
  else if (t.status !== 'posted') fields.push([w.statusChangedAt, at(t.updatedAt)]);
  if (direction) fields.push([w.direction, direction]);
  if (payer) {
    fields.push([w.amount, from(t.amountMinor)]);
    fields.push([w.fee, from(t.feeMinor)]);
    fields.push([w.totalDebited, from(t.amountMinor + t.feeMinor)]);
    if (converted) {
      fields.push([w.amountCredited, to(t.toAmountMinor)]);
      fields.push([w.exchangeRate, `1 ${t.fromCurrency} = ${t.rate} ${t.toCurrency}`]);
    }
    fields.push([w.fromAccount, accountLabel(t.fromAccountId, t.fromCurrency)]);
    // a payout's "to" account is the rail's clearing account: its payee is named instead
    if (t.operationType !== 'p2p' && !t.payout) fields.push([w.toAccount, accountLabel(t.toAccountId, t.toCurrency)]);
  } else {
    fields.push([w.amountCredited, to(t.toAmountMinor)]);
    fields.push([w.toAccount, accountLabel(t.toAccountId, t.toCurrency)]);
  }
  fields.push(...splitShareFields(w, t.splitShares));
  if (t.operationType === 'p2p' || t.payout) fields.push([w.counterparty, t.counterparty || w.none]);
  fields.push([w.note, t.note || w.none]);
  fields.push([w.reference, t.reference || w.none]);
  return fields;
}

/**
 * The fields of a booking without a transfer (a deposit, withdrawal or account fee the provider
 * booked, e.g. an opening balance, a salary): its id (E and the entry's id: entries and transfers
 * are numbered apart), when it was booked, its type and status, and each of the customer's
 * accounts it moved with the amount; the counterparty is the payer the entry names, else the
 * provider; the note is the entry's reason. A revenue split's share (entry.split) says so: its
 * type, its contract and the other party as the counterparty; money from outside a split took
 * shares of names each share.
 */
export function entryReceiptFields(data: { lang: DocumentLanguage; entry: ReceiptEntry; providerName: string }): [string, string][] {
  const w = wordsFor(data.lang);
  const e = data.entry;
  const at = `${utcMinute(e.bookedAt)} UTC`;
  const incoming = e.legs.reduce((sum, l) => sum + l.amountMinor, 0n) >= 0n;
  const fields: [string, string][] = [
    [w.transactionId, `E${e.entryId}`],
    [w.dateTime, at],
    [w.type, e.split ? w.revenueSplitShare : e.operationType === 'Fees' ? w.operationTypes.Fees : incoming ? w.operationTypes.deposit : w.withdrawal],
    [w.status, w.statuses.posted],
    [w.bookedAt, at],
  ];
  if (e.split) fields.push([w.contract, w.contractNumber(e.split.contractId)]);
  for (const leg of e.legs) {
    const amount = `${minorToDecimal(leg.amountMinor < 0n ? -leg.amountMinor : leg.amountMinor, leg.currency)} ${leg.currency}`;
    fields.push([leg.amountMinor < 0n ? w.fromAccount : w.toAccount, accountLabel(leg.accountId, leg.currency)]);
    fields.push([leg.amountMinor < 0n ? w.totalDebited : w.amountCredited, amount]);
  }
  fields.push(...splitShareFields(w, e.splitShares));
  fields.push([w.counterparty, e.payer ?? data.providerName]);
  fields.push([w.note, e.reason || w.none]);
  return fields;
}

export async function renderReceiptPdf(data: ReceiptData): Promise<Buffer> {
  const w = wordsFor(data.lang);
  const canvas = new PdfCanvas({
    title: `${w.receiptTitle} ${data.receiptId}`,
    author: data.providerName,
    lang: data.lang,
    createdAt: data.generatedAt,
  });
  const footer = footerLines(w, data.lang);
  const bottom = footerTop(footerLineCount(canvas, footer)) - 14 - LINE;
  const valueX = PAGE.margin + LABEL_WIDTH;
  const valueWidth = CONTENT_RIGHT - valueX;
  let y = PAGE.margin;

  canvas.text(PAGE.margin, y, data.providerName, { size: 16, font: 'bold', maxWidth: CONTENT_RIGHT - PAGE.margin });
  y += 24;
  canvas.text(PAGE.margin, y, w.receiptTitle, { size: 12, font: 'bold', tag: 'H1' });
  y += 22;

  // Two tables in the structure tree: who it is for, then the transaction; each row a header
  // cell (the label) and a data cell (the value, over several lines when long).
  const header: [string, string][] = [[w.customer, data.customerName], ...(data.customerAddress ? ([[w.address, data.customerAddress]] as [string, string][]) : [])];
  for (const [k, rows] of [header, data.fields].entries()) {
    const table = canvas.group('Table');
    for (const [label, value] of rows) {
      // A long note takes several lines (at most eight, the last cut with an ellipsis); the rest one.
      const wrapped = canvas.wrap(value, valueWidth, SIZE);
      const lines = wrapped.length <= MAX_VALUE_LINES ? wrapped : [...wrapped.slice(0, MAX_VALUE_LINES - 1), canvas.fit(wrapped.slice(MAX_VALUE_LINES - 1).join(' '), valueWidth, SIZE)];
      if (y + lines.length * LINE > bottom) {
        canvas.addPage();
        y = PAGE.margin;
      }
      const row = canvas.group('TR', table);
      canvas.text(PAGE.margin, y, label, { size: SIZE, font: 'bold', maxWidth: LABEL_WIDTH - 8, tag: 'TH', parent: row });
      const cell = canvas.group('TD', row);
      for (const line of lines.length > 0 ? lines : ['']) {
        canvas.text(valueX, y, line, { size: SIZE, tag: 'Span', parent: cell });
        y += LINE;
      }
      cell.end();
      row.end();
    }
    table.end();
    if (k === 0) {
      canvas.rule(PAGE.margin, CONTENT_RIGHT, y + 2);
      y += 10;
    }
  }

  drawFooters(canvas, footer, w.generated(utcMinute(data.generatedAt)), w);
  return canvas.finish();
}
