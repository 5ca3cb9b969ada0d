/**
 * /transfer/preapproved-payments (document 2 §2, §7 "Pre-approved payments: list and cancel";
 * issue 13): the recurring and pre-approved payments of the acting customer (preapprovedList, 50
 * a page as §9 says for subscriptions), each with its payee, amount, frequency, next date and
 * status, and a way to stop the ones the customer may stop (userCancel, not yet over) behind a
 * confirmation (machines/confirm-action with preapprovedCancel). §10: "Pre-approved cancel
 * failure shows an action-confirmation popup": a refusal is shown in the dialog itself, in the
 * platform's words. The spec's list filters (beneficiaryEmail, amounts, type) are not offered
 * here: a customer has a handful of schedules, all on one page.
 */
import { useId, useState } from 'react';
import { keepPreviousData, queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useLingui } from '@lingui/react/macro';
import type * as v from 'valibot';
import type { SubscriptionSchema } from '../../../api/transfers.ts';
import { formatDate, formatMoney } from '../../lib/format.ts';
import { getUiLanguage } from '../../lib/i18n.ts';
import { MethodCallError, callMethod, callMethodOrThrow, describeFailure, isFailure } from '../../lib/request.ts';
import { Alert } from '../../ui/alert.tsx';
import { Badge, type BadgeTone } from '../../ui/badge.tsx';
import { Button } from '../../ui/button.tsx';
import { DataTable, type DataTableColumn } from '../../ui/data-table.tsx';
import { EmptyState } from '../../ui/empty-state.tsx';
import { CheckIcon } from '../../ui/icons.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { StepHeading } from '../../ui/step-heading.tsx';
import { ConfirmActionDialog, ConfirmActionDone, refusalOf, useConfirmAction } from '../history/confirm-action.tsx';
import { Pager, pageCount } from '../history/parts.tsx';
import '../history/history.css';
import './preapproved-view.css';

type Subscription = v.InferOutput<typeof SubscriptionSchema>;

/** document 2 §9: subscriptions 50 a page. */
export const PREAPPROVED_PAGE_SIZE = 50;

export const preapprovedListQuery = (actingCustomerId: number | null, page: number) =>
  queryOptions({
    queryKey: ['preapprovedList', actingCustomerId, page],
    queryFn: () => callMethodOrThrow('preapprovedList', { pageNumber: page, pageSize: PREAPPROVED_PAGE_SIZE }),
    placeholderData: keepPreviousData,
  });

const STATUS_TONES: Record<Subscription['status'], BadgeTone> = { awaitingApproval: 'warning', active: 'success', finished: 'neutral', canceled: 'neutral' };

/** May the customer stop it now (the platform refuses the others with TA1). */
const stoppable = (s: Subscription) => s.userCancel && (s.status === 'active' || s.status === 'awaitingApproval');

export function PreapprovedPaymentsPage({ actingCustomerId }: { actingCustomerId: number | null }) {
  const { t } = useLingui();
  const id = useId();
  const [page, setPage] = useState(1);
  const query = useQuery(preapprovedListQuery(actingCustomerId, page));
  const queryClient = useQueryClient();
  const [stopping, setStopping] = useState<Subscription | null>(null);
  const stop = useConfirmAction(async ({ targetId }) => {
    const answer = await callMethod('preapprovedCancel', { id: targetId });
    if (isFailure(answer)) return refusalOf(answer);
    await queryClient.invalidateQueries({ queryKey: ['preapprovedList'] });
    return { ok: true };
  });
  const names = useNames();
  const data = query.data;
  const pages = pageCount(data?.total ?? 0, PREAPPROVED_PAGE_SIZE);

  const columns: DataTableColumn<Subscription>[] = [
    { header: t`Payee`, render: (s) => names.payee(s) },
    { header: t`Amount`, align: 'end', render: (s) => <span className="amount">{formatMoney(s.amount, s.currency, getUiLanguage())}</span> },
    { header: t`Frequency`, render: (s) => <Schedule s={s} /> },
    { header: t`Status`, render: (s) => <Badge tone={STATUS_TONES[s.status]}>{names.status[s.status]}</Badge> },
    {
      header: t`Actions`,
      hideHeader: true,
      render: (s) => {
        const payee = names.payee(s);
        return stoppable(s) ? (
          <Button
            variant="secondary"
            size="sm"
            aria-label={t`Stop the payment to ${payee}`}
            onClick={() => {
              setStopping(s);
              stop.send({ type: 'ASK', targetId: s.id });
            }}
          >
            {t`Stop`}
          </Button>
        ) : null;
      },
    },
  ];

  return (
    <div className="preapproved-page">
      <StepHeading>{t`Pre-approved payments`}</StepHeading>
      <p className="preapproved-intro">{t`Recurring payments you have set up. They run by themselves until their end date or last payment, or until you stop them.`}</p>
      <ConfirmActionDone actor={stop}>{stopping ? <StoppedText payee={names.payee(stopping)} /> : null}</ConfirmActionDone>
      <section className="card" aria-labelledby={`${id}-title`} aria-busy={query.isFetching || undefined}>
        <h2 id={`${id}-title`} className="card-title">{t`Your recurring payments`}</h2>
        {query.isPending ? (
          <Spinner label={t`Loading the pre-approved payments`} />
        ) : query.isError ? (
          <Alert tone="error" title={t`The pre-approved payments could not be loaded`}>
            <p>{query.error instanceof MethodCallError ? describeFailure(query.error.failure) : t`Unknown error`}</p>
            <Button variant="secondary" onClick={() => void query.refetch()}>
              {t`Try again`}
            </Button>
          </Alert>
        ) : data && data.subscriptions.length === 0 && data.total === 0 ? (
          <EmptyState
            icon={CheckIcon}
            headingLevel={3}
            title={t`No pre-approved payments`}
            text={t`When you send money and choose to repeat it daily, weekly or monthly, the payment appears here.`}
            action={
              <Link to="/transfer/p2p" className="btn btn-primary">
                {t`Send money`}
              </Link>
            }
          />
        ) : data ? (
          <>
            <DataTable columns={columns} rows={data.subscriptions} rowKey={(s) => s.id} caption={t`Pre-approved payments, page ${page} of ${pages}`} hideCaption />
            <Pager page={page} pages={pages} onPage={setPage} label={t`Pre-approved payment pages`} />
          </>
        ) : null}
      </section>
      <ConfirmActionDialog
        actor={stop}
        title={t`Stop this payment?`}
        confirmLabel={t`Stop the payment`}
        keepLabel={t`Keep it`}
        failedTitle={t`The payment was not stopped`}
      >
        {stopping ? <StopText s={stopping} payee={names.payee(stopping)} /> : null}
      </ConfirmActionDialog>
    </div>
  );
}

function StoppedText({ payee }: { payee: string }) {
  const { t } = useLingui();
  return <>{t`The payment to ${payee} was stopped. No further payments will be made.`}</>;
}

function StopText({ s, payee }: { s: Subscription; payee: string }) {
  const { t } = useLingui();
  const amount = formatMoney(s.amount, s.currency, getUiLanguage());
  return <p>{t`No further payments of ${amount} will be made to ${payee}. Payments already made are not affected. This cannot be undone.`}</p>;
}

/** The frequency, the next date (when there is one) and how many of the runs are done. */
function Schedule({ s }: { s: Subscription }) {
  const { t } = useLingui();
  const lang = getUiLanguage();
  const frequency = { daily: t`Daily`, weekly: t`Weekly`, monthly: t`Monthly` }[s.frequency];
  const done = s.transactionsDone;
  const total = s.transactionsTotal;
  const next = s.nextRunAt && (s.status === 'active' || s.status === 'awaitingApproval') ? formatDate(s.nextRunAt, lang) : null;
  const end = s.endDate ? formatDate(s.endDate, lang) : null;
  return (
    <span className="schedule">
      <span>{frequency}</span>
      {next ? <span className="row-note">{t`Next: ${next}`}</span> : null}
      <span className="row-note">{total !== null ? t`${done} of ${total} made` : end ? t`${done} made, until ${end}` : t`${done} made`}</span>
    </span>
  );
}

function useNames() {
  const { t } = useLingui();
  return {
    status: { awaitingApproval: t`Waiting for approval`, active: t`Active`, finished: t`Finished`, canceled: t`Stopped` } satisfies Record<Subscription['status'], string>,
    payee: (s: Subscription): string => {
      if (s.beneficiaryEmail) return s.beneficiaryEmail;
      const accountId = s.toAccount;
      return accountId !== null ? t`Your account ${accountId}` : t`Your other account`;
    },
  };
}
