/**
 * Card payments on the card detail (issue 16 item 2; document 2 §7 "Debit and current-account
 * authorization lists", §9 "authorization history 10"). There is no account detail page in the
 * app, so the settlement account's lists are shown where its debit card is:
 * - a prepaid card: the payments holding its money now (currentAccountAuthorizationListGet on the card);
 * - a debit card: every card payment on its settlement account (debitcardAuthorizationListGet:
 *   held, posted, released or declined, with the reason) and those holding that account's money
 *   now (currentAccountAuthorizationListGet on the settlement account).
 * 10 a page, newest first, paged with Previous and Next.
 */
import { useId, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useLingui } from '@lingui/react/macro';
import { AUTHORIZATION_PAGE_SIZE, type Authorization } from '../../../api/cards.ts';
import { useDeclineReasons } from '../../lib/card-decline-reasons.ts';
import { formatDateTime, formatMoney } from '../../lib/format.ts';
import { getUiLanguage, languageTags } from '../../lib/i18n.ts';
import { MethodCallError, describeFailure } from '../../lib/request.ts';
import { Alert } from '../../ui/alert.tsx';
import { Badge, type BadgeTone } from '../../ui/badge.tsx';
import { Button, ButtonGroup } from '../../ui/button.tsx';
import { DataTable, type DataTableColumn } from '../../ui/data-table.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { authorizationsQuery, type AuthorizationList } from './queries.ts';

const TONES: Record<Authorization['status'], BadgeTone> = { authorized: 'warning', cleared: 'success', reversed: 'neutral', declined: 'danger' };

export function useAuthorizationStatusNames(): Record<Authorization['status'], string> {
  const { t } = useLingui();
  return { authorized: t`On hold`, cleared: t`Paid`, reversed: t`Released`, declined: t`Declined` };
}

export interface AuthorizationsSectionProps {
  actingCustomerId: number | null;
  list: AuthorizationList;
  accountId: number;
  title: string;
  /** said when the list is empty */
  emptyText: string;
  intro?: string;
}

export function AuthorizationsSection({ actingCustomerId, list, accountId, title, emptyText, intro }: AuthorizationsSectionProps) {
  const { t } = useLingui();
  const id = useId();
  const [page, setPage] = useState(1);
  const query = useQuery(authorizationsQuery(actingCustomerId, list, accountId, page));
  const statusNames = useAuthorizationStatusNames();
  const reasons = useDeclineReasons();
  const lang = getUiLanguage();
  const pages = Math.max(1, Math.ceil((query.data?.total ?? 0) / AUTHORIZATION_PAGE_SIZE));
  const columns: DataTableColumn<Authorization>[] = [
    {
      header: t`Shop`,
      render: (a) => {
        const last4 = a.cardLast4;
        return (
          <span className="cards-row-stack">
            <span>{a.merchantName}</span>
            {last4 ? <span className="cards-row-note">{t`Card ending ${last4}`}</span> : null}
          </span>
        );
      },
    },
    { header: t`Date`, render: (a) => formatDateTime(a.createdAt, languageTags[lang]) },
    {
      header: t`Status`,
      render: (a) => (
        <span className="cards-row-stack">
          <Badge tone={TONES[a.status]}>{statusNames[a.status]}</Badge>
          {a.declineReason ? <span className="cards-row-note">{reasons[a.declineReason]}</span> : null}
        </span>
      ),
    },
    { header: t`Amount`, align: 'end', render: (a) => <span className="amount">{formatMoney(a.amount, a.currencyCode, lang)}</span> },
  ];
  return (
    <section className="card" aria-labelledby={`${id}-title`} aria-busy={query.isFetching || undefined}>
      <h2 id={`${id}-title`} className="card-title">
        {title}
      </h2>
      {intro ? <p className="cards-note">{intro}</p> : null}
      {query.isPending ? (
        <Spinner label={t`Loading the card payments`} />
      ) : query.isError ? (
        <Alert tone="error" title={t`The card payments could not be loaded`}>
          <p>{query.error instanceof MethodCallError ? describeFailure(query.error.failure) : t`Unknown error`}</p>
          <Button variant="secondary" onClick={() => void query.refetch()}>
            {t`Try again`}
          </Button>
        </Alert>
      ) : query.data.total === 0 ? (
        <p className="cards-note">{emptyText}</p>
      ) : (
        <>
          <DataTable columns={columns} rows={query.data.authorizations} rowKey={(a) => a.id} caption={t`${title}, page ${page} of ${pages}`} hideCaption />
          {pages > 1 ? (
            <ButtonGroup label={t`Pages of ${title}`}>
              <Button variant="secondary" size="sm" disabled={page <= 1} onClick={() => setPage(page - 1)}>
                {t`Previous`}
              </Button>
              <span className="cards-row-note" aria-live="polite">
                {t`Page ${page} of ${pages}`}
              </span>
              <Button variant="secondary" size="sm" disabled={page >= pages} onClick={() => setPage(page + 1)}>
                {t`Next`}
              </Button>
            </ButtonGroup>
          ) : null}
        </>
      )}
    </section>
  );
}
