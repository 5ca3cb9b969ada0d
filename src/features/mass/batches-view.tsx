/**
 * /history/batch-transfers (document 2 §2, §3 "The batch response is batchTransfer.transfer and
 * total", §9 batch page size 20): the customer's batches, newest first, each with its state and
 * progress; one batch opens with its rows (each row's own transfer, or why it was not paid) and
 * the file as uploaded can be saved again. A batch being paid is read again every few seconds.
 * Global-pay batches are listed with the mass batches (kind 'global', api/mass.ts): one opens with
 * its kind (their ids are their own sequence), its rows are its payments (waiting for the payee, on
 * their way, paid, or not paid with the reason) and its file the payments as a CSV.
 */
import { useState } from 'react';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { useLingui } from '@lingui/react/macro';
import { BATCH_PAGE_SIZE, type Batch, type BatchStatus } from '../../../api/mass.ts';
import type { GlobalPaymentStatus } from '../../../api/global-pay.ts';
import { PROGRESS_POLL_MS } from '../../../machines/mass-transfer/mass-transfer.machine.ts';
import { formatDateTime } from '../../lib/format.ts';
import { getUiLanguageTag } from '../../lib/i18n.ts';
import { callMethodOrThrow, describeFailure, MethodCallError } from '../../lib/request.ts';
import { Alert } from '../../ui/alert.tsx';
import { Badge, type BadgeTone } from '../../ui/badge.tsx';
import { Button, ButtonGroup } from '../../ui/button.tsx';
import { DataTable } from '../../ui/data-table.tsx';
import { EmptyState } from '../../ui/empty-state.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { StepHeading } from '../../ui/step-heading.tsx';
import { saveBlob } from '../history/download.ts';
import { money } from '../transfers/fields.tsx';
import { useMassTitles } from './messages.ts';
import './mass.css';

const running = (b: Batch) => b.status === 'processing' || b.status === 'awaitingApproval';
/** Read again every few seconds: a mass batch being paid (a global-pay batch waits days for its payees: read when opened). */
const polled = (b: Batch) => running(b) && b.kind !== 'global';

export const batchListQuery = (actingCustomerId: number | null, page: number) =>
  queryOptions({
    queryKey: ['batchTransferList', actingCustomerId, page],
    queryFn: () => callMethodOrThrow('batchTransferList', { pageNumber: page, pageSize: BATCH_PAGE_SIZE }),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (query.state.data?.batchTransfer.transfer.some(polled) ? PROGRESS_POLL_MS : false),
  });

/** Which batch is open: its id, and 'global' for a global-pay batch (their ids are their own sequence). */
export interface OpenBatch {
  id: number;
  kind: 'global' | null;
}

export const batchViewQuery = (actingCustomerId: number | null, id: number, kind: 'global' | null = null) =>
  queryOptions({
    queryKey: ['batchFileView', actingCustomerId, id, kind],
    queryFn: () => callMethodOrThrow('batchFileView', kind === null ? { id } : { id, kind }),
    refetchInterval: (query) => (query.state.data && polled(query.state.data.batch) ? PROGRESS_POLL_MS : false),
    retry: (count, error) => !(error instanceof MethodCallError && error.failure.responseCode === 'ENOA') && count < 2,
  });

function useStatusNames(): Record<BatchStatus, { label: string; tone: BadgeTone }> {
  const { t } = useLingui();
  return {
    awaitingApproval: { label: t`Awaiting approval`, tone: 'info' },
    processing: { label: t`Paying`, tone: 'info' },
    done: { label: t`Done`, tone: 'success' },
    partial: { label: t`Partly paid`, tone: 'warning' },
    failed: { label: t`Not paid`, tone: 'danger' },
    rejected: { label: t`Declined`, tone: 'danger' },
    expired: { label: t`Expired`, tone: 'neutral' },
    canceled: { label: t`Canceled`, tone: 'neutral' },
  };
}

export function BatchesView({ actingCustomerId, open, onOpen }: { actingCustomerId: number | null; open: OpenBatch | null; onOpen(batch: OpenBatch | null): void }) {
  return open === null ? (
    <BatchList actingCustomerId={actingCustomerId} onOpen={onOpen} />
  ) : (
    <BatchDetail actingCustomerId={actingCustomerId} id={open.id} kind={open.kind} onBack={() => onOpen(null)} />
  );
}

function BatchList({ actingCustomerId, onOpen }: { actingCustomerId: number | null; onOpen(batch: OpenBatch): void }) {
  const { t } = useLingui();
  const [page, setPage] = useState(1);
  const list = useQuery(batchListQuery(actingCustomerId, page));
  const titles = useMassTitles();
  const statuses = useStatusNames();
  const total = list.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / BATCH_PAGE_SIZE));
  return (
    <div className="transfer-page mass-page">
      <StepHeading>{t`Batch payments`}</StepHeading>
      {list.isPending ? <Spinner label={t`Loading your batches`} /> : null}
      {list.isError ? <Alert tone="error" title={t`We could not load your batches.`}>{list.error instanceof MethodCallError ? <p>{describeFailure(list.error.failure)}</p> : null}</Alert> : null}
      {list.data && total === 0 ? <EmptyState title={t`No batches yet`} text={t`Batches you pay from a file appear here.`} /> : null}
      {list.data && total > 0 ? (
        <>
          <DataTable
            caption={t`Your batches, newest first`}
            hideCaption
            card
            rows={list.data.batchTransfer.transfer}
            rowKey={(b) => `${b.kind === 'global' ? 'global' : 'mass'}-${b.id}`}
            onRowClick={(b) => onOpen({ id: b.id, kind: b.kind === 'global' ? 'global' : null })}
            rowLabel={(b) => t`Batch ${b.fileName} of ${formatDateTime(b.dateTime, getUiLanguageTag())}`}
            columns={[
              { header: t`Date`, render: (b) => formatDateTime(b.dateTime, getUiLanguageTag()) },
              { header: t`Kind`, render: (b) => titles[b.kind] },
              { header: t`File`, render: (b) => b.fileName },
              { header: t`Payments`, render: (b) => (running(b) ? `${b.doneCount + b.failedCount} / ${b.count}` : String(b.count)), align: 'end' },
              { header: t`Total`, render: (b) => money(b.total, b.currency), align: 'end' },
              { header: t`Status`, render: (b) => <Badge tone={statuses[b.status].tone}>{statuses[b.status].label}</Badge> },
            ]}
          />
          {pages > 1 ? (
            <ButtonGroup label={t`Pages`}>
              <Button variant="secondary" disabled={page <= 1} onClick={() => setPage((p) => p - 1)}>{t`Newer`}</Button>
              <span className="field-hint">{t`Page ${page} of ${pages}`}</span>
              <Button variant="secondary" disabled={page >= pages} onClick={() => setPage((p) => p + 1)}>{t`Older`}</Button>
            </ButtonGroup>
          ) : null}
        </>
      ) : null}
    </div>
  );
}

function BatchDetail({ actingCustomerId, id, kind, onBack }: { actingCustomerId: number | null; id: number; kind: 'global' | null; onBack(): void }) {
  const { t } = useLingui();
  const answer = useQuery(batchViewQuery(actingCustomerId, id, kind));
  const titles = useMassTitles();
  const statuses = useStatusNames();
  // why a global-pay payment was not paid: its status (the row's errorCode), in the words global pay's pages use
  const notPaid: Partial<Record<GlobalPaymentStatus, string>> = {
    refused: t`Refused by the payee`,
    expired: t`Expired`,
    returned: t`Returned`,
    failed: t`Failed`,
    canceled: t`Canceled`,
  };
  const back = (
    <Button variant="secondary" onClick={onBack}>
      {t`All batches`}
    </Button>
  );
  if (answer.isPending) return <Spinner label={t`Loading the batch`} />;
  if (answer.isError || !answer.data) {
    const unknown = answer.error instanceof MethodCallError && answer.error.failure.responseCode === 'ENOA';
    return (
      <div className="transfer-page mass-page">
        <StepHeading>{t`Batch`}</StepHeading>
        <Alert tone="error" title={unknown ? t`This batch does not exist.` : t`We could not load the batch.`} />
        {back}
      </div>
    );
  }
  const { batch, rows, file } = answer.data;
  const global = batch.kind === 'global';
  const globalRowStatus = (r: (typeof rows)[number]) =>
    r.status === 'failed' ? (
      <Badge tone="danger">{t`Not paid`}</Badge>
    ) : r.status === 'done' ? (
      <Badge tone="success">{t`Paid`}</Badge>
    ) : r.transactionId !== null ? (
      <Badge tone="info">{t`On its way`}</Badge>
    ) : batch.status === 'awaitingApproval' ? (
      <Badge tone="info">{t`Awaiting approval`}</Badge>
    ) : (
      <Badge tone="info">{t`Waiting for the payee`}</Badge>
    );
  const rowStatus = (r: (typeof rows)[number]) =>
    global ? globalRowStatus(r) : r.status === 'failed' ? (
      <Badge tone="danger">{t`Not paid`}</Badge>
    ) : r.status === 'pending' ? (
      <Badge tone="info">{t`Waiting`}</Badge>
    ) : r.transferStatus === 'returned' ? (
      <Badge tone="warning">{t`Returned`}</Badge>
    ) : r.transferStatus === 'processing' ? (
      <Badge tone="info">{t`On its way`}</Badge>
    ) : (
      <Badge tone="success">{t`Paid`}</Badge>
    );
  return (
    <div className="transfer-page mass-page">
      <StepHeading>{`${titles[batch.kind]} · ${batch.fileName}`}</StepHeading>
      <dl className="transfer-summary">
        <dt>{t`Date`}</dt>
        <dd>{formatDateTime(batch.dateTime, getUiLanguageTag())}</dd>
        <dt>{t`Status`}</dt>
        <dd>
          <Badge tone={statuses[batch.status].tone}>{statuses[batch.status].label}</Badge>
        </dd>
        <dt>{t`Payments`}</dt>
        <dd>{t`${batch.doneCount} paid, ${batch.failedCount} not paid, of ${batch.count}`}</dd>
        <dt>{t`Total`}</dt>
        <dd>{money(batch.total, batch.currency)}</dd>
        <dt>{t`Fees`}</dt>
        <dd>{money(batch.fee, batch.currency)}</dd>
      </dl>
      {running(batch) ? (
        <div className="mass-progress">
          <label htmlFor="batch-progress">{t`Payments handled: ${batch.doneCount + batch.failedCount} of ${batch.count}`}</label>
          <progress id="batch-progress" max={100} value={batch.progress} />
        </div>
      ) : null}
      <DataTable
        caption={t`Payments in this batch`}
        card
        rows={rows}
        rowKey={(r, index) => (global ? index : r.line)}
        columns={[
          { header: t`Line`, render: (r) => r.line, align: 'end' },
          { header: t`Payee`, render: (r) => r.payee },
          { header: t`Amount`, render: (r) => money(r.amount, batch.currency), align: 'end' },
          { header: t`Status`, render: rowStatus },
          { header: t`Why`, render: (r) => (global && r.errorCode !== null ? (notPaid[r.errorCode as GlobalPaymentStatus] ?? r.errorDescription ?? '') : (r.errorDescription ?? '')) },
        ]}
      />
      <ButtonGroup>
        {back}
        <Button variant="secondary" onClick={() => saveBlob(new Blob([file], { type: 'text/csv' }), global ? `${batch.fileName}.csv` : batch.fileName)}>
          {t`Save the file`}
        </Button>
      </ButtonGroup>
    </div>
  );
}
