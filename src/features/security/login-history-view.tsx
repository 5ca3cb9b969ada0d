/** /login-history: the user's sign-ins, 20 a page, newest first (document 1 §2, document 2). */
import { useQuery } from '@tanstack/react-query';
import { useLingui } from '@lingui/react/macro';
import { LOGIN_HISTORY_PAGE_SIZE, type LoginHistoryItem } from '../../../api/security.ts';
import { formatDateTime } from '../../lib/format.ts';
import { getUiLanguageTag } from '../../lib/i18n.ts';
import { describeUserAgent } from '../../lib/user-agent.ts';
import { Alert } from '../../ui/alert.tsx';
import { Badge } from '../../ui/badge.tsx';
import { Button } from '../../ui/button.tsx';
import { DataTable } from '../../ui/data-table.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { StepHeading } from '../../ui/step-heading.tsx';
import { loginHistoryQuery } from './queries.ts';

export interface LoginHistoryViewProps {
  page: number;
  onPage(page: number): void;
}

export function LoginHistoryView({ page, onPage }: LoginHistoryViewProps) {
  const { t } = useLingui();
  const query = useQuery(loginHistoryQuery(page));
  const total = query.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / LOGIN_HISTORY_PAGE_SIZE));
  const resultText = (item: LoginHistoryItem) => (item.result === 'success' ? t`Signed in` : t`Failed`);
  return (
    <div>
      <StepHeading>{t`Login history`}</StepHeading>
      {query.isPending ? <Spinner label={t`Loading the login history`} /> : null}
      {query.isError ? <Alert tone="error">{t`The login history could not be loaded.`}</Alert> : null}
      {query.data ? (
        query.data.items.length === 0 ? (
          <p>{t`No sign-ins yet.`}</p>
        ) : (
          <>
            <DataTable
              caption={t`Page ${page} of ${pages}`}
              rows={query.data.items}
              rowKey={(item, i) => `${item.date}-${i}`}
              card
              columns={[
                { header: t`Date`, render: (item) => <time dateTime={item.date}>{formatDateTime(item.date, getUiLanguageTag())}</time> },
                { header: t`Address`, render: (item) => item.ip },
                { header: t`Country`, render: (item) => item.countryCode ?? '—' },
                { header: t`Browser`, render: (item) => <span title={item.userAgent}>{describeUserAgent(item.userAgent)}</span> },
                { header: t`Result`, render: (item) => <Badge tone={item.result === 'success' ? 'success' : 'danger'}>{resultText(item)}</Badge> },
              ]}
            />
            <nav aria-label={t`Pages`} className="actions">
              <Button variant="secondary" disabled={page <= 1} onClick={() => onPage(page - 1)}>
                {t`Newer`}
              </Button>
              <Button variant="secondary" disabled={page >= pages} onClick={() => onPage(page + 1)}>
                {t`Older`}
              </Button>
            </nav>
          </>
        )
      ) : null}
    </div>
  );
}
