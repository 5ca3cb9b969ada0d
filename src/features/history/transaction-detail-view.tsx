/**
 * /history/$transactionId (issue 13): one transaction in full, opened from a history row or from
 * the home's recent activity. Every field the platform gives (transactionDetail): the amount and
 * direction, what was sent, the fee, the total paid and what arrived, the rate when converted,
 * the status with its times, the accounts, the counterparty, note, reference and id; the PDF
 * receipt (downloaded with the session's headers, as statements are); and for the customer's own
 * pending transfer, "Cancel this transfer" behind a confirmation (machines/confirm-action).
 * Unknown ids, malformed ones and other customers' alike get the same "not found".
 *
 * A revenue split (issue 19 item 2; api/history.ts RevenueSplitShareSchema, SplitShareOutSchema):
 * a contract's share says so on both sides (paid to the beneficiary, received from the payer) with
 * its contract, linked to the contract page when the customer may open it; an incoming payment a
 * split took shares of names each share ("€30.00 went to … under contract #n"), linked to the
 * share's own detail.
 */
import type { ReactNode } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useLingui } from '@lingui/react/macro';
import { entryReceiptPath, receiptPath, type TransactionDetail } from '../../../api/history.ts';
import { ResponseCode } from '../../../api/envelope.ts';
import { formatDateTime, formatMoney } from '../../lib/format.ts';
import { getUiLanguage, getUiLanguageTag } from '../../lib/i18n.ts';
import { MethodCallError, callMethod, describeFailure, isFailure } from '../../lib/request.ts';
import { Alert } from '../../ui/alert.tsx';
import { Badge, type BadgeTone } from '../../ui/badge.tsx';
import { Button, ButtonGroup } from '../../ui/button.tsx';
import { EmptyState } from '../../ui/empty-state.tsx';
import { ArrowLeftIcon, DownloadIcon, ReceiptIcon } from '../../ui/icons.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { StepHeading } from '../../ui/step-heading.tsx';
import type { TransferStatus } from '../../../api/transfers.ts';
import { ConfirmActionDialog, ConfirmActionDone, refusalOf, useConfirmAction } from './confirm-action.tsx';
import { detailParamOf, parseDetailParam, type DetailKind } from './detail-param.ts';
import { downloadFile, type DownloadAccess } from './download.ts';
import { useDirectionNames, useOperationTypeNames, useRailReasonText, useStatusNames } from './messages.ts';
import { PDF_ACCEPT } from './statements-view.tsx';
import { transactionDetailQuery } from './queries.ts';
import { useHistoryNote } from '../../lib/card-decline-reasons.ts';
import './history.css';

/** What a cancel changes: this page, the history, the balances and the chart, recent transfers. */
const CHANGED_BY_CANCEL = [['transactionDetail'], ['transactionHistory'], ['balanceInquiry'], ['balanceHistory'], ['recentTransfers']] as const;

const STATUS_TONES: Record<TransferStatus, BadgeTone> = {
  pending: 'warning',
  processing: 'warning',
  posted: 'success',
  returned: 'danger',
  rejected: 'danger',
  expired: 'neutral',
  canceled: 'neutral',
};

export interface TransactionDetailPageProps {
  actingCustomerId: number | null;
  /** the URL's parameter: t and a transfer's id, or e and a journal entry's (detail-param.ts) */
  param: string;
  access: DownloadAccess;
}

export function TransactionDetailPage({ actingCustomerId, param, access }: TransactionDetailPageProps) {
  const { t } = useLingui();
  const parsed = parseDetailParam(param);
  return (
    <div className="detail-page">
      <p className="detail-back">
        <Link to="/history" className="btn btn-link">
          <ArrowLeftIcon />
          {t`Back to the history`}
        </Link>
      </p>
      <StepHeading>{t`Transaction details`}</StepHeading>
      {parsed ? <Detail actingCustomerId={actingCustomerId} kind={parsed.kind} id={parsed.id} access={access} /> : <NotFound />}
    </div>
  );
}

function NotFound() {
  const { t } = useLingui();
  return (
    <section className="card">
      <EmptyState
        icon={ReceiptIcon}
        title={t`Transaction not found`}
        text={t`There is no such transaction in your history. It may belong to another customer, or the link is incomplete.`}
        action={
          <Link to="/history" className="btn btn-primary">
            {t`Go to the history`}
          </Link>
        }
      />
    </section>
  );
}

function Detail({ actingCustomerId, kind, id, access }: { actingCustomerId: number | null; kind: DetailKind; id: number; access: DownloadAccess }) {
  const { t } = useLingui();
  const query = useQuery(transactionDetailQuery(actingCustomerId, kind, id));
  const queryClient = useQueryClient();
  const cancel = useConfirmAction(async ({ targetId, idempotencyKey }) => {
    const answer = await callMethod('transferCancel', { trxid: targetId }, { idempotencyKey });
    if (isFailure(answer)) return refusalOf(answer);
    await Promise.all(CHANGED_BY_CANCEL.map((queryKey) => queryClient.invalidateQueries({ queryKey: [...queryKey] })));
    return { ok: true };
  });

  if (query.isPending) return <Spinner label={t`Loading the transaction`} />;
  if (query.isError) {
    const failure = query.error instanceof MethodCallError ? query.error.failure : null;
    if (failure?.responseCode === ResponseCode.noAccess) return <NotFound />;
    return (
      <Alert tone="error" title={t`The transaction could not be loaded`}>
        <p>{failure ? describeFailure(failure) : t`Unknown error`}</p>
        <Button variant="secondary" onClick={() => void query.refetch()}>
          {t`Try again`}
        </Button>
      </Alert>
    );
  }
  const tx = query.data;
  return (
    <>
      <ConfirmActionDone actor={cancel}>{t`The transfer was canceled. The money is available again in your account.`}</ConfirmActionDone>
      <Summary tx={tx} />
      <Fields tx={tx} />
      <Actions tx={tx} access={access} onCancel={() => cancel.send({ type: 'ASK', targetId: tx.id })} />
      <ConfirmActionDialog
        actor={cancel}
        title={t`Cancel this transfer?`}
        confirmLabel={t`Cancel the transfer`}
        keepLabel={t`Keep it`}
        failedTitle={t`The transfer was not canceled`}
      >
        <CancelText tx={tx} />
      </ConfirmActionDialog>
    </>
  );
}

function CancelText({ tx }: { tx: TransactionDetail }) {
  const { t } = useLingui();
  const amount = tx.totalDebited ? money(tx.totalDebited) : '';
  const payee = tx.counterparty;
  return (
    <p>
      {payee
        ? t`${amount} will not be sent to ${payee}. The money held for it is available again at once.`
        : t`${amount} will not be moved between your accounts. The money held for it is available again at once.`}
    </p>
  );
}

const money = (m: { amount: string; currency: string }) => formatMoney(m.amount, m.currency, getUiLanguage());

/** The headline: the signed amount of the customer's side, who it was with, and the status. */
function Summary({ tx }: { tx: TransactionDetail }) {
  const { t } = useLingui();
  const typeNames = useOperationTypeNames();
  const statusNames = useStatusNames();
  // The payer's side is what left (with the fee); the payee's what arrived; an entry's its legs' sum.
  const side =
    tx.kind === 'entry'
      ? (tx.legs[0] ?? null)
      : tx.viewer === 'payer'
        ? (tx.totalDebited ?? null)
        : (tx.received ?? null);
  const direction = tx.direction ?? 'out';
  const amount = side ? formatMoney(side.amount.replace(/^-/, ''), side.currency, getUiLanguage()) : null;
  const signed = amount ? (tx.direction === null ? amount : `${direction === 'in' ? '+' : '−'}${amount}`) : null;
  const split = tx.revenueSplit;
  return (
    <section className="card detail-summary" aria-label={t`Summary`}>
      <p className="detail-type">{split ? t`Revenue split share` : typeNames[tx.operationType]}</p>
      {/* A transfer that did not happen keeps its amount, struck through: no money moved. */}
      {signed ? <p className={`detail-amount amount amount-${direction}${tx.status === 'posted' || tx.status === 'pending' ? '' : ' is-void'}`}>{signed}</p> : null}
      {tx.counterparty ? <p className="detail-party">{tx.counterparty}</p> : null}
      {split ? <SplitSentence direction={tx.direction} split={split} /> : null}
      <p>
        <Badge tone={STATUS_TONES[tx.status]}>{statusNames[tx.status]}</Badge>
      </p>
    </section>
  );
}

/** What a revenue split's share was, in words: paid to the beneficiary or received from the payer, under which contract. */
function SplitSentence({ direction, split }: { direction: TransactionDetail['direction']; split: NonNullable<TransactionDetail['revenueSplit']> }) {
  const { t } = useLingui();
  const counterparty = split.counterparty;
  const contractId = split.contractId;
  return (
    <p>
      {direction === 'in'
        ? t`Revenue split share received from ${counterparty} under contract #${contractId}`
        : t`Revenue split share paid to ${counterparty} under contract #${contractId}`}
    </p>
  );
}

/** A contract by its number: a link to its page when the customer may open it (a party to it), else its number. */
function ContractRef({ contractId, visible }: { contractId: number; visible: boolean }) {
  const { t } = useLingui();
  const label = t`Contract #${contractId}`;
  return visible ? (
    <Link to="/revenue-split/$contractId" params={{ contractId: String(contractId) }}>
      {label}
    </Link>
  ) : (
    <>{label}</>
  );
}

function Fields({ tx }: { tx: TransactionDetail }) {
  const { t } = useLingui();
  const typeNames = useOperationTypeNames();
  const statusNames = useStatusNames();
  const directionNames = useDirectionNames();
  const railReason = useRailReasonText();
  const noteOf = useHistoryNote();
  const tag = getUiLanguageTag();
  const at = (iso: string) => <time dateTime={iso}>{formatDateTime(iso, tag)}</time>;
  const account = (accountId: number, currency: string) => t`${currency} account ${accountId}`;
  const statusTime: { label: string; iso: string | null } =
    tx.status === 'posted'
      ? { label: t`Completed on`, iso: tx.bookedAt }
      : tx.status === 'pending'
        ? { label: t`Expires on`, iso: tx.expiresAt }
        : { label: { processing: t`Last update`, returned: t`Returned on`, rejected: t`Rejected on`, expired: t`Expired on`, canceled: t`Canceled on` }[tx.status], iso: tx.updatedAt };
  const rows: [string, ReactNode][] = [
    [t`Status`, <Badge tone={STATUS_TONES[tx.status]}>{statusNames[tx.status]}</Badge>],
    [tx.kind === 'entry' ? t`Booked on` : t`Created on`, at(tx.createdAt)],
  ];
  if (statusTime.iso && !(tx.kind === 'entry')) rows.push([statusTime.label, at(statusTime.iso)]);
  rows.push([t`Type`, tx.revenueSplit ? t`Revenue split share` : typeNames[tx.operationType]]);
  if (tx.revenueSplit) rows.push([t`Contract`, <ContractRef contractId={tx.revenueSplit.contractId} visible={tx.revenueSplit.contractVisible} />]);
  if (tx.direction) rows.push([t`Direction`, directionNames[tx.direction]]);
  if (tx.sent) rows.push([t`Amount sent`, money(tx.sent)]);
  if (tx.fee) rows.push([t`Fee`, money(tx.fee)]);
  if (tx.totalDebited) rows.push([t`You pay in total`, money(tx.totalDebited)]);
  if (tx.rate && tx.sent && tx.received) {
    const from = tx.sent.currency;
    const to = tx.received.currency;
    const rate = tx.rate;
    rows.push([t`Exchange rate`, `1 ${from} = ${rate} ${to}`]);
  }
  // to someone else (a person, or a payee outside over a rail): what they receive
  const toOthers = tx.operationType !== 'betweenAccounts' && tx.operationType !== 'exchange';
  if (tx.received) rows.push([tx.viewer === 'payer' ? (toOthers ? t`They receive` : t`Amount credited`) : t`You received`, money(tx.received)]);
  if (tx.fromAccountId !== null && tx.sent) rows.push([t`From account`, account(tx.fromAccountId, tx.sent.currency)]);
  if (tx.toAccountId !== null && tx.received) rows.push([t`To account`, account(tx.toAccountId, tx.received.currency)]);
  for (const leg of tx.legs) {
    const out = leg.amount.startsWith('-');
    rows.push([out ? t`From account` : t`To account`, account(leg.accountId, leg.currency)]);
    rows.push([out ? t`Amount debited` : t`Amount credited`, formatMoney(leg.amount.replace(/^-/, ''), leg.currency, getUiLanguage())]);
  }
  if (tx.counterparty) rows.push([tx.viewer === 'payer' ? t`To` : t`From`, tx.counterparty]);
  // an incoming payment a revenue split took shares of: each share, linked to its own detail (which links the contract)
  for (const share of tx.splitShares ?? []) {
    const amount = money(share.share);
    const beneficiary = share.beneficiary;
    const contractId = share.contractId;
    rows.push([
      t`Revenue split`,
      <Link to="/history/$transactionId" params={{ transactionId: detailParamOf({ kind: 'entry', transactionId: share.entryId }) }}>
        {t`${amount} went to ${beneficiary} under contract #${contractId}`}
      </Link>,
    ]);
  }
  // a payout the rail refused or returned: why (the money is back on the account)
  if (tx.railReason) rows.push([tx.status === 'returned' ? t`Why it came back` : t`Why it was refused`, railReason(tx.railReason)]);
  rows.push([tx.kind === 'authorization' && tx.status === 'rejected' ? t`Why it was declined` : t`Note`, noteOf(tx) || t`None`]);
  rows.push([t`Reference`, tx.reference || t`None`]);
  rows.push([t`Transaction ID`, tx.kind === 'entry' ? `E${tx.id}` : String(tx.id)]);
  return (
    <section className="card">
      <h2 className="card-title">{t`Details`}</h2>
      <dl className="detail-list">
        {rows.map(([label, value], index) => (
          <div key={index} className="detail-row">
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

/** The receipt and, for the customer's own pending transfer, the way to cancel it. A card payment not posted has neither (nothing was booked). */
function Actions({ tx, access, onCancel }: { tx: TransactionDetail; access: DownloadAccess; onCancel(): void }) {
  if (tx.kind === 'authorization') return null;
  return <TransferActions tx={tx} access={access} onCancel={onCancel} />;
}

function TransferActions({ tx, access, onCancel }: { tx: TransactionDetail; access: DownloadAccess; onCancel(): void }) {
  const { t } = useLingui();
  const receiptId = tx.kind === 'entry' ? `E${tx.id}` : String(tx.id);
  const download = useMutation({
    mutationFn: () => downloadFile(access, tx.kind === 'entry' ? entryReceiptPath(tx.id) : receiptPath(tx.id), PDF_ACCEPT, `receipt-${receiptId}.pdf`),
  });
  const result = download.data;
  return (
    <section className="card detail-actions" aria-label={t`Actions`}>
      <ButtonGroup>
        <Button variant="secondary" busy={download.isPending} onClick={() => download.mutate()}>
          <DownloadIcon />
          {t`Download receipt (PDF)`}
        </Button>
        {tx.cancelable ? (
          <Button variant="danger" onClick={onCancel}>
            {t`Cancel this transfer`}
          </Button>
        ) : null}
      </ButtonGroup>
      {result && !result.ok ? (
        <Alert tone="error" title={t`The receipt could not be downloaded`}>
          <p>{result.code === 'network' ? t`The connection failed. Try again.` : (result.detail ?? t`The file could not be downloaded.`)}</p>
        </Alert>
      ) : null}
    </section>
  );
}
