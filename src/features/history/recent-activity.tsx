/**
 * The home screen's recent activity (document 2 §4: "In the home history, rows whose
 * operationType is Fees are left out. Transactions are grouped by date."): the first history page
 * (20 rows), fee rows left out, under a heading per day in the UI language. Each row says its
 * direction with a sign as well as a colour, and its status when it is not completed. Each row is
 * a link to the transaction's detail page (/history/$transactionId).
 */
import { useId } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useLingui } from '@lingui/react/macro';
import { HISTORY_PAGE_SIZE } from '../../../api/history.ts';
import { getUiLanguageTag } from '../../lib/i18n.ts';
import { MethodCallError, describeFailure } from '../../lib/request.ts';
import { Alert } from '../../ui/alert.tsx';
import { Button } from '../../ui/button.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { detailParamOf } from './detail-param.ts';
import { historyRequest } from './filter.ts';
import { formatDayHeading, groupByDay } from './group.ts';
import { useRowTypeName } from './messages.ts';
import { SignedAmount, StatusBadge } from './parts.tsx';
import { transactionHistoryQuery } from './queries.ts';
import { useHistoryNote } from '../../lib/card-decline-reasons.ts';
import './history.css';

/** The rows of recent activity home shows. */
export const RECENT_ROWS = 8;

/** The counterparty's first letter (or digit) for its round mark; the name itself is read out. */
function initialOf(counterparty: string | null | undefined): string {
  const letter = [...(counterparty ?? '').trim()].find((c) => /[\p{L}\p{N}]/u.test(c));
  return letter ? letter.toLocaleUpperCase() : '·';
}

export function RecentActivity({ actingCustomerId }: { actingCustomerId: number | null }) {
  const { t } = useLingui();
  const id = useId();
  const query = useQuery(transactionHistoryQuery(actingCustomerId, historyRequest({}, 1, HISTORY_PAGE_SIZE)));
  const typeOf = useRowTypeName();
  const noteOf = useHistoryNote();
  const languageTag = getUiLanguageTag();
  // The newest few, not the whole first page: home is a glance (a phone would scroll past twenty
  // rows to reach nothing else); "All transactions" opens the history.
  const groups = query.data ? groupByDay(query.data.transactions.transaction.filter((row) => row.operationType !== 'Fees').slice(0, RECENT_ROWS)) : [];

  return (
    <section className="card home-card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="card-title">{t`Recent activity`}</h2>
      {query.isPending ? (
        <Spinner label={t`Loading the recent activity`} />
      ) : query.isError ? (
        <Alert tone="warning" title={t`The recent activity could not be loaded`}>
          <p>{query.error instanceof MethodCallError ? describeFailure(query.error.failure) : t`Unknown error`}</p>
          <Button variant="secondary" onClick={() => void query.refetch()}>
            {t`Try again`}
          </Button>
        </Alert>
      ) : groups.length === 0 ? (
        <p>{t`No activity yet.`}</p>
      ) : (
        groups.map((group) => (
          <div key={group.day}>
            <h3 className="activity-day" id={`${id}-${group.day}`}>
              <time dateTime={group.day}>{formatDayHeading(group, languageTag)}</time>
            </h3>
            <ul className="activity-list" aria-labelledby={`${id}-${group.day}`}>
              {group.transactions.map((row) => (
                <li key={row.rowId}>
                  {/* The whole row opens the transaction's detail (issue 13: a tap through to it). */}
                  <Link to="/history/$transactionId" params={{ transactionId: detailParamOf(row) }} className="activity-item activity-link">
                    <span className="activity-initial" aria-hidden="true">
                      {initialOf(row.counterparty)}
                    </span>
                    <span className="activity-what">
                      <span>{row.counterparty}</span>
                      <span className="row-note">
                        {typeOf(row)}
                        {noteOf(row) ? ` · ${noteOf(row)}` : ''}
                      </span>
                    </span>
                    <span className="activity-side">
                      <StatusBadge status={row.status} />
                      <SignedAmount amount={row.amount} currency={row.currency} direction={row.direction} />
                    </span>
                  </Link>
                </li>
              ))}
            </ul>
          </div>
        ))
      )}
      <p className="activity-more">
        <Link to="/history">{t`All transactions`}</Link>
      </p>
    </section>
  );
}
