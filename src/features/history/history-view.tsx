/**
 * /history (document 2 §2, §3, §7, §9): the full filter, whose values live in the URL (the route
 * owns them; this view hands changes back through onSearch), the matching transactions 20 a page
 * with their counts (results, processing, rejected), the CSV export of the filter and the monthly
 * exports of an account.
 */
import { useId } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Plural, useLingui } from '@lingui/react/macro';
import { HISTORY_PAGE_SIZE, type Transaction } from '../../../api/history.ts';
import { formatDateTime } from '../../lib/format.ts';
import { getUiLanguageTag } from '../../lib/i18n.ts';
import { MethodCallError, describeFailure } from '../../lib/request.ts';
import { Alert } from '../../ui/alert.tsx';
import { Button } from '../../ui/button.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { StepHeading } from '../../ui/step-heading.tsx';
import { detailParamOf } from './detail-param.ts';
import type { DownloadAccess } from './download.ts';
import { ExportPanel } from './export-panel.tsx';
import { HistoryFilterForm } from './filter-form.tsx';
import { filterOf, historyRequest, isFiltered, parseHistorySearch, type HistoryFilter, type HistorySearch } from './filter.ts';
import { useRowTypeName } from './messages.ts';
import { EmailedExport } from './emailed-export.tsx';
import { MonthlyExports } from './monthly-exports.tsx';
import { Pager, SignedAmount, StatusBadge, pageCount } from './parts.tsx';
import { accountsQuery, transactionHistoryQuery } from './queries.ts';
import { useHistoryNote } from '../../lib/card-decline-reasons.ts';
import './history.css';

export interface HistoryViewProps {
  actingCustomerId: number | null;
  search: HistorySearch;
  onSearch(search: HistorySearch): void;
  access: DownloadAccess;
  /** the signed-in user's e-mail (their login), for "Send to e-mail" */
  email: string | null;
  /** the export an e-mail linked to (`?exportId=`), offered for download */
  emailedExportId?: string | undefined;
}

/**
 * The page from the URL's search as the route passes it: checked here with the contract's schemas
 * (the route file is in the bundle every page loads, so it does not import them).
 */
export function HistoryPage({ rawSearch, ...props }: Omit<HistoryViewProps, 'search'> & { rawSearch: Record<string, unknown> }) {
  return <HistoryView {...props} search={parseHistorySearch(rawSearch)} />;
}

export function HistoryView({ actingCustomerId, search, onSearch, access, email, emailedExportId }: HistoryViewProps) {
  const { t } = useLingui();
  const filter = filterOf(search);
  const accounts = useQuery(accountsQuery(actingCustomerId));
  const accountList = accounts.data ?? [];

  return (
    <div className="history-page">
      <StepHeading>{t`Transaction history`}</StepHeading>
      {emailedExportId ? <EmailedExport exportId={emailedExportId} access={access} /> : null}
      {accounts.isError ? (
        <Alert tone="error" title={t`Your accounts could not be loaded`}>
          <p>{accounts.error instanceof MethodCallError ? describeFailure(accounts.error.failure) : t`Unknown error`}</p>
        </Alert>
      ) : null}
      <HistoryFilterForm
        // A new filter in the URL (Apply, Reset, back, forward) gives a fresh form showing it.
        key={JSON.stringify(filter)}
        filter={filter}
        accounts={accountList}
        onApply={(next) => onSearch({ ...next, page: 1 })}
        onReset={() => onSearch({ page: 1 })}
      />
      <Results actingCustomerId={actingCustomerId} filter={filter} page={search.page} onPage={(page) => onSearch({ ...filter, page })} />
      <ExportPanel filter={filter} access={access} email={email} />
      {accounts.data ? (
        <MonthlyExports
          // A new account in the filter starts the list on that account.
          key={filter.accountId ?? 'all'}
          actingCustomerId={actingCustomerId}
          accounts={accounts.data}
          initialAccountId={filter.accountId ?? null}
          access={access}
        />
      ) : null}
    </div>
  );
}

function Results({ actingCustomerId, filter, page, onPage }: { actingCustomerId: number | null; filter: HistoryFilter; page: number; onPage(page: number): void }) {
  const { t } = useLingui();
  const id = useId();
  const query = useQuery(transactionHistoryQuery(actingCustomerId, historyRequest(filter, page)));
  const filtered = isFiltered(filter);
  const data = query.data;
  const pages = pageCount(data?.results ?? 0, HISTORY_PAGE_SIZE);

  return (
    <section className="history-section" aria-labelledby={`${id}-title`} aria-busy={query.isFetching || undefined}>
      <h2 id={`${id}-title`}>{t`Transactions`}</h2>
      {query.isPending ? (
        <Spinner label={t`Loading the transactions`} />
      ) : query.isError ? (
        <Alert tone="error" title={t`The transactions could not be loaded`}>
          <p>{query.error instanceof MethodCallError ? describeFailure(query.error.failure) : t`Unknown error`}</p>
          <Button variant="secondary" onClick={() => void query.refetch()}>
            {t`Try again`}
          </Button>
        </Alert>
      ) : data ? (
        <>
          <ul className="history-counts" aria-label={t`Counts`}>
            <li>
              <Plural value={data.results} _0="No transactions found" one="# transaction found" other="# transactions found" />
            </li>
            <li>
              <Plural value={data.processingCount} one="# processing" other="# processing" />
            </li>
            <li>
              <Plural value={data.rejectedCount} one="# rejected" other="# rejected" />
            </li>
          </ul>
          {data.transactions.transaction.length === 0 ? (
            data.results > 0 ? (
              <p>
                {t`This page is past the last one.`}{' '}
                <Button variant="link" onClick={() => onPage(pages)}>
                  {t`Go to page ${pages}`}
                </Button>
              </p>
            ) : (
              <p>{filtered ? t`No transactions match the filter. Change or reset it.` : t`You have no transactions yet.`}</p>
            )
          ) : (
            <TransactionsTable transactions={data.transactions.transaction} caption={t`Transactions, page ${page} of ${pages}`} />
          )}
          <Pager page={page} pages={pages} onPage={onPage} label={t`Transaction pages`} />
        </>
      ) : null}
    </section>
  );
}

export function TransactionsTable({ transactions, caption }: { transactions: readonly Transaction[]; caption: string }) {
  const { t } = useLingui();
  const typeOf = useRowTypeName();
  const noteOf = useHistoryNote();
  const languageTag = getUiLanguageTag();
  return (
    // The design system's table: on a phone each row is a card whose cells name their column
    // (components.css, data-table), so the amount is never off-screen (issue 13).
    <div className="table-wrap">
      <table className="table data-table history-table" role="table">
        <caption>{caption}</caption>
        <thead role="rowgroup">
          <tr role="row">
            <th scope="col" role="columnheader">{t`Date`}</th>
            <th scope="col" role="columnheader">{t`Description`}</th>
            <th scope="col" role="columnheader">{t`Type`}</th>
            <th scope="col" role="columnheader">{t`Status`}</th>
            <th scope="col" role="columnheader" className="num">{t`Amount`}</th>
          </tr>
        </thead>
        <tbody role="rowgroup">
          {transactions.map((row) => (
            <tr key={row.rowId} className="history-row" role="row">
              <td role="cell" data-label={t`Date`}>
                <time dateTime={row.transactionDate}>{formatDateTime(row.transactionDate, languageTag)}</time>
              </td>
              <td role="cell" data-label={t`Description`}>
                {/* Each row opens the transaction's detail; the counterparty names the link. */}
                <span className="history-description">
                  <Link to="/history/$transactionId" params={{ transactionId: detailParamOf(row) }} className="row-link">
                    {row.counterparty || typeOf(row)}
                  </Link>
                  {noteOf(row) ? <span className="row-note">{noteOf(row)}</span> : null}
                  {row.reference ? <Reference reference={row.reference} /> : null}
                </span>
              </td>
              <td role="cell" data-label={t`Type`}>{typeOf(row)}</td>
              <td role="cell" data-label={t`Status`}>
                <StatusBadge status={row.status} always />
              </td>
              <td role="cell" data-label={t`Amount`} className="num">
                <SignedAmount amount={row.amount} currency={row.currency} direction={row.direction} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function Reference({ reference }: { reference: string }) {
  const { t } = useLingui();
  return <span className="row-note">{t`Reference: ${reference}`}</span>;
}
