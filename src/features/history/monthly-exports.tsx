/**
 * The monthly exports of one account (document 2 §7 "Export list: accountId, source monthly,
 * paged, default page size 12"): each month with its status, and a download once it is done.
 */
import { useId, useState } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useLingui } from '@lingui/react/macro';
import type { Account } from '../../../api/accounts.ts';
import { EXPORT_LIST_PAGE_SIZE, exportFilePath, type HistoryExport } from '../../../api/history.ts';
import { languageTags, getUiLanguage } from '../../lib/i18n.ts';
import { MethodCallError, describeFailure } from '../../lib/request.ts';
import { Alert } from '../../ui/alert.tsx';
import { Button } from '../../ui/button.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { CSV_ACCEPT } from './actors.ts';
import { downloadFile, type DownloadAccess } from './download.ts';
import { useAccountLabel, useExportStatusNames, useFileErrors } from './messages.ts';
import { Pager, pageCount } from './parts.tsx';
import { SelectField } from '../../ui/select-field.tsx';
import { exportListQuery } from './queries.ts';
import { dateTimeFormat } from '../../lib/format.ts';

export interface MonthlyExportsProps {
  actingCustomerId: number | null;
  accounts: readonly Account[];
  /** the account chosen first (the filter's), else the first account */
  initialAccountId: number | null;
  access: DownloadAccess;
}

/** "2026-05" -> "May 2026" in the UI language. */
export function formatPeriod(period: string | null, languageTag: string): string {
  const match = period ? /^(\d{4})-(\d{2})$/.exec(period) : null;
  if (!match) return period ?? '—';
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, 1));
  return dateTimeFormat(languageTag, { year: 'numeric', month: 'long', timeZone: 'UTC' }).format(date);
}

export function MonthlyExports({ actingCustomerId, accounts, initialAccountId, access }: MonthlyExportsProps) {
  const { t } = useLingui();
  const id = useId();
  const accountLabel = useAccountLabel();
  const statusNames = useExportStatusNames();
  const fileErrors = useFileErrors();
  const firstAccount = accounts.find((a) => a.accountId === initialAccountId) ?? accounts[0];
  const [accountId, setAccountId] = useState<number | null>(firstAccount?.accountId ?? null);
  const [page, setPage] = useState(1);
  const list = useQuery({ ...exportListQuery(actingCustomerId, accountId ?? 0, page), enabled: accountId !== null });
  const download = useMutation({
    mutationFn: (item: HistoryExport) =>
      downloadFile(access, exportFilePath(item.exportId), CSV_ACCEPT, item.fileName ?? `history-${accountId}-${item.period ?? item.exportId}.csv`),
  });
  const languageTag = languageTags[getUiLanguage()];
  const account = accounts.find((a) => a.accountId === accountId);
  const pages = pageCount(list.data?.total ?? 0, EXPORT_LIST_PAGE_SIZE);

  if (accounts.length === 0 || accountId === null || !account) return null;
  const failedDownload = download.data && !download.data.ok ? download.data : null;
  const accountName = accountLabel(account);

  return (
    <section className="history-section" aria-labelledby={`${id}-title`} aria-busy={list.isFetching || undefined}>
      <h2 id={`${id}-title`}>{t`Monthly exports`}</h2>
      <p>{t`Each month's transactions of an account, prepared as a CSV file after the month ends.`}</p>
      <SelectField
        label={t`Account of the monthly exports`}
        name="exportAccountId"
        value={String(accountId)}
        onChange={(value) => {
          setAccountId(Number(value));
          setPage(1);
          download.reset();
        }}
        options={accounts.map((a) => ({ value: String(a.accountId), label: accountLabel(a) }))}
      />
      {list.isPending ? (
        <Spinner label={t`Loading the monthly exports`} />
      ) : list.isError ? (
        <Alert tone="error" title={t`The monthly exports could not be loaded`}>
          <p>{list.error instanceof MethodCallError ? describeFailure(list.error.failure) : t`Unknown error`}</p>
          <Button variant="secondary" onClick={() => void list.refetch()}>
            {t`Try again`}
          </Button>
        </Alert>
      ) : list.data.exports.length === 0 ? (
        <p>{t`There are no monthly exports for this account yet.`}</p>
      ) : (
        <>
          <div className="table-wrap">
            <table className="table">
              <caption>{t`Monthly exports of ${accountName}, page ${page} of ${pages}`}</caption>
              <thead>
                <tr>
                  <th scope="col">{t`Month`}</th>
                  <th scope="col">{t`Status`}</th>
                  <th scope="col" className="num">{t`Transactions`}</th>
                  <th scope="col">{t`File`}</th>
                </tr>
              </thead>
              <tbody>
                {list.data.exports.map((item) => {
                  const month = formatPeriod(item.period, languageTag);
                  const busy = download.isPending && download.variables?.exportId === item.exportId;
                  return (
                    <tr key={item.exportId}>
                      <th scope="row">{month}</th>
                      <td>{item.status === 'processing' ? <Preparing progress={item.progress} /> : statusNames[item.status]}</td>
                      <td className="num">{item.rowCount ?? '—'}</td>
                      <td>
                        {item.status === 'done' ? (
                          <Button variant="secondary" busy={busy} disabled={download.isPending && !busy} onClick={() => download.mutate(item)}>
                            {t`Download`}{' '}
                            <span className="visually-hidden">{month}</span>
                          </Button>
                        ) : (
                          '—'
                        )}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
          {failedDownload ? (
            <Alert tone="error">
              <p>{fileErrors[failedDownload.code]}</p>
              {failedDownload.detail ? <p>{failedDownload.detail}</p> : null}
            </Alert>
          ) : null}
          <Pager page={page} pages={pages} onPage={setPage} label={t`Monthly export pages`} />
        </>
      )}
    </section>
  );
}

function Preparing({ progress }: { progress: number }) {
  const { t } = useLingui();
  return <>{t`Being prepared (${progress}%)`}</>;
}
