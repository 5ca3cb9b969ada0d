/**
 * /transfer/approved (document 2 §2, §4 "Business approvals", §7, §9 "business approval lists
 * 50"; issue 17 item 6): the company's payments and mass batches that a user who may only initiate
 * (right 3) asked for, waiting for a checker (the owner or a user with full rights). The checker
 * chooses payments and approves or declines them; a batch is approved or declined as a whole. An
 * approval runs the checker's own approval mode through the one approval chart (ApprovalView).
 * A thin view: the decision is machines/business-approval (read through its selector); the list is
 * a query.
 */
import { useId, useState } from 'react';
import { keepPreviousData, queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useActorRef, useSelector } from '@xstate/react';
import { useLingui } from '@lingui/react/macro';
import { BUSINESS_APPROVAL_PAGE_SIZE, type BusinessTransactionRequest } from '../../../api/business-approvals.ts';
import { selectBusinessDecisionView } from '../../../machines/business-approval/business-approval.select.ts';
import { formatDate, formatMoney } from '../../lib/format.ts';
import { getUiLanguage } from '../../lib/i18n.ts';
import { MethodCallError, callMethodOrThrow, describeFailure } from '../../lib/request.ts';
import { Alert } from '../../ui/alert.tsx';
import { Button, ButtonGroup } from '../../ui/button.tsx';
import { CheckboxField } from '../../ui/choice-fields.tsx';
import { DataTable, type DataTableColumn } from '../../ui/data-table.tsx';
import { EmptyState } from '../../ui/empty-state.tsx';
import { CheckIcon } from '../../ui/icons.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { StepHeading } from '../../ui/step-heading.tsx';
import { Pager, pageCount } from '../history/parts.tsx';
import { ApprovalView } from '../transfers/approval-view.tsx';
import { createBusinessDecisionLogic } from './actors.ts';
import '../history/history.css';
import './business-approvals.css';

export const businessRequestListQuery = (actingCustomerId: number | null, page: number) =>
  queryOptions({
    queryKey: ['businessTransactionRequestList', actingCustomerId, page],
    queryFn: () => callMethodOrThrow('businessTransactionRequestList', { pageNumber: page }),
    placeholderData: keepPreviousData,
  });

export function BusinessApprovalsPage({ actingCustomerId }: { actingCustomerId: number | null }) {
  const { t } = useLingui();
  const id = useId();
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const [chosen, setChosen] = useState<ReadonlySet<number>>(new Set());
  const query = useQuery(businessRequestListQuery(actingCustomerId, page));
  const [logic] = useState(() => createBusinessDecisionLogic({ queryClient }));
  const actor = useActorRef(logic);
  const view = useSelector(actor, selectBusinessDecisionView);
  const names = useNames();
  const data = query.data;
  const pages = pageCount(data?.total ?? 0, BUSINESS_APPROVAL_PAGE_SIZE);
  const transactionIds = [...chosen].sort((a, b) => a - b);
  const chosenCount = transactionIds.length;

  const choose = (transactionId: number, on: boolean) =>
    setChosen((was) => {
      const next = new Set(was);
      if (on) next.add(transactionId);
      else next.delete(transactionId);
      return next;
    });
  const back = () => {
    setChosen(new Set());
    actor.send({ type: 'DECISION.RESET' });
  };

  if (view.step === 'approving' && view.approval) {
    return (
      <div className="business-approvals-page">
        <StepHeading>{t`Approve the payments`}</StepHeading>
        <ApprovalView actor={view.approval} />
      </div>
    );
  }
  if (view.step === 'done') {
    const count = view.decidedCount;
    return (
      <div className="business-approvals-page">
        <StepHeading>{view.declined ? t`Payments declined` : t`Payments approved`}</StepHeading>
        <Alert tone="success">
          {view.declined
            ? t`${count} declined: the money held for them is available again, and whoever initiated them sees them as rejected.`
            : t`${count} approved: the payments are made.`}
        </Alert>
        <ButtonGroup>
          <Button onClick={back}>{t`Back to the payments to approve`}</Button>
        </ButtonGroup>
      </div>
    );
  }
  if (view.step === 'failed') {
    const o = view.outcome;
    return (
      <div className="business-approvals-page">
        <StepHeading>{t`The payments were not approved`}</StepHeading>
        <Alert tone="error">
          {o?.reason === 'expired'
            ? t`The time to approve ran out. The payments still wait: approve them again.`
            : o?.reason === 'rejected' && !o.failure
              ? t`You declined them on your phone: they are declined, and the money held for them is available again.`
              : o?.failure
                ? describeFailure(o.failure)
                : t`Unknown error`}
        </Alert>
        <ButtonGroup>
          <Button onClick={back}>{t`Back to the payments to approve`}</Button>
        </ButtonGroup>
      </div>
    );
  }

  // chosen by their transfer: payments, and a global-pay batch (it has no mass batch id to decide it by)
  const choosable = (r: BusinessTransactionRequest) => r.kind === 'transfer' || r.batchId === null;
  const transferRows = (data?.requests ?? []).filter(choosable);
  const columns: DataTableColumn<BusinessTransactionRequest>[] = [
    {
      header: t`Choose`,
      hideHeader: true,
      render: (r) => {
        if (!choosable(r)) return null;
        const payee = names.payee(r);
        return (
          <CheckboxField
            label={<span className="visually-hidden">{t`Choose the payment to ${payee}`}</span>}
            checked={chosen.has(r.transactionId)}
            onChange={(on) => choose(r.transactionId, on)}
            disabled={view.busy}
          />
        );
      },
    },
    { header: t`To`, render: (r) => <span>{names.payee(r)}</span> },
    { header: t`Amount`, align: 'end', render: (r) => <span className="amount">{formatMoney(r.amount, r.currency, getUiLanguage())}</span> },
    {
      header: t`From account`,
      render: (r) => {
        const accountId = r.fromAccountId;
        return <span>{t`Account ${accountId}`}</span>;
      },
    },
    { header: t`Initiated by`, render: (r) => <span>{r.initiatorName}</span> },
    {
      header: t`Dates`,
      render: (r) => {
        const until = formatDate(r.expiresAt, getUiLanguage());
        return (
          <span className="business-approvals-dates">
            <span>{formatDate(r.createdAt, getUiLanguage())}</span>
            <span className="row-note">{t`Waits until ${until}`}</span>
          </span>
        );
      },
    },
    {
      header: t`Actions`,
      hideHeader: true,
      render: (r) => {
        if (r.kind !== 'batch' || r.batchId === null) return null;
        const batchId = r.batchId;
        const count = r.count ?? 0;
        return (
          <span className="business-approvals-batch-actions">
            <Button
              size="sm"
              disabled={view.busy}
              aria-label={t`Approve the batch of ${count} payments`}
              onClick={() => actor.send({ type: 'DECISION.START', target: { batchId }, declined: false })}
            >
              {t`Approve`}
            </Button>
            <Button
              size="sm"
              variant="secondary"
              disabled={view.busy}
              aria-label={t`Decline the batch of ${count} payments`}
              onClick={() => actor.send({ type: 'DECISION.START', target: { batchId }, declined: true })}
            >
              {t`Decline`}
            </Button>
          </span>
        );
      },
    },
  ];

  return (
    <div className="business-approvals-page">
      <StepHeading>{t`Payments to approve`}</StepHeading>
      <p className="business-approvals-intro">
        {t`Payments that users who may only initiate asked for. The money is held until you approve or decline them; after 7 days they expire and the money is released. You cannot decide on payments you initiated yourself.`}
      </p>
      {view.notice === 'approvalCanceled' ? <Alert tone="info">{t`Nothing was approved: the payments still wait.`}</Alert> : null}
      {view.failure ? <Alert tone="error">{describeFailure(view.failure)}</Alert> : null}
      {view.networkError ? <Alert tone="error">{t`No answer came. Try again: nothing is decided twice.`}</Alert> : null}
      <section className="card" aria-labelledby={`${id}-title`} aria-busy={query.isFetching || view.busy || undefined}>
        <h2 id={`${id}-title`} className="card-title">{t`Waiting for approval`}</h2>
        {query.isPending ? (
          <Spinner label={t`Loading the payments to approve`} />
        ) : query.isError ? (
          <Alert tone="error" title={t`The payments to approve could not be loaded`}>
            <p>{query.error instanceof MethodCallError ? describeFailure(query.error.failure) : t`Unknown error`}</p>
            <Button variant="secondary" onClick={() => void query.refetch()}>
              {t`Try again`}
            </Button>
          </Alert>
        ) : data && data.total === 0 ? (
          <EmptyState icon={CheckIcon} headingLevel={3} title={t`Nothing to approve`} text={t`When a user who may only initiate payments asks for one, it waits here for you.`} />
        ) : data ? (
          <>
            {transferRows.length > 0 ? (
              <div className="business-approvals-actions" role="group" aria-label={t`With the chosen payments`}>
                <Button
                  disabled={transactionIds.length === 0 || view.busy}
                  busy={view.busy && !view.declined}
                  onClick={() => actor.send({ type: 'DECISION.START', target: { transactionIds }, declined: false })}
                >
                  {t`Approve chosen (${chosenCount})`}
                </Button>
                <Button
                  variant="secondary"
                  disabled={transactionIds.length === 0 || view.busy}
                  busy={view.busy && view.declined}
                  onClick={() => actor.send({ type: 'DECISION.START', target: { transactionIds }, declined: true })}
                >
                  {t`Decline chosen (${chosenCount})`}
                </Button>
              </div>
            ) : null}
            <DataTable columns={columns} rows={data.requests} rowKey={(r) => r.transactionId} caption={t`Payments to approve, page ${page} of ${pages}`} hideCaption />
            <Pager page={page} pages={pages} onPage={setPage} label={t`Pages of payments to approve`} />
          </>
        ) : null}
      </section>
    </div>
  );
}

function useNames() {
  const { t } = useLingui();
  return {
    payee: (r: BusinessTransactionRequest): string => {
      if (r.kind === 'batch') {
        const count = r.count ?? 0;
        return t`Batch of ${count} payments`;
      }
      if (r.transferKind === 'betweenAccounts') {
        const accountId = r.toAccountId;
        return t`The company's account ${accountId}`;
      }
      if (r.transferKind === 'p2p') return r.payeeName ? `${r.payeeName} (${r.toEmail ?? ''})` : (r.toEmail ?? '');
      if (r.transferKind === 'cardFee') return t`A card order's fee`;
      return t`A bank, card or wallet payout`;
    },
  };
}
