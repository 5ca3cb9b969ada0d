/**
 * /statements (document 2 §2, §7 "Account statements are keyed per account, year and month"):
 * an account, then a year and a month of those it has statements for (statementPeriods), and
 * "Download PDF" (REST GET statementPath as a Blob, saved as statement-<account>-<yyyy>-<mm>.pdf).
 */
import { useEffect, useId, useState } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useLingui } from '@lingui/react/macro';
import { statementPath } from '../../../api/history.ts';
import { languageTags, getUiLanguage } from '../../lib/i18n.ts';
import { MethodCallError, describeFailure } from '../../lib/request.ts';
import { Alert } from '../../ui/alert.tsx';
import { Button } from '../../ui/button.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { StepHeading } from '../../ui/step-heading.tsx';
import { downloadFile, type DownloadAccess } from './download.ts';
import { useAccountLabel, useFileErrors } from './messages.ts';
import { SelectField } from '../../ui/select-field.tsx';
import { accountsQuery, statementPeriodsQuery } from './queries.ts';
import './history.css';
import { dateTimeFormat } from '../../lib/format.ts';

export const PDF_ACCEPT = 'application/pdf, */*;q=0.1';

export function statementFileName(accountId: number, year: number, month: number): string {
  return `statement-${accountId}-${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}.pdf`;
}

export interface StatementsViewProps {
  actingCustomerId: number | null;
  access: DownloadAccess;
}

export function StatementsView({ actingCustomerId, access }: StatementsViewProps) {
  const { t } = useLingui();
  const accounts = useQuery(accountsQuery(actingCustomerId));
  const accountLabel = useAccountLabel();
  const [accountId, setAccountId] = useState<number | null>(null);
  const chosen = accountId ?? accounts.data?.[0]?.accountId ?? null;

  return (
    <div className="statements-page">
      <StepHeading>{t`Statements`}</StepHeading>
      <p>{t`A statement lists an account's transactions of one month, as a PDF.`}</p>
      {accounts.isPending ? (
        <Spinner label={t`Loading your accounts`} />
      ) : accounts.isError ? (
        <Alert tone="error" title={t`Your accounts could not be loaded`}>
          <p>{accounts.error instanceof MethodCallError ? describeFailure(accounts.error.failure) : t`Unknown error`}</p>
          <Button variant="secondary" onClick={() => void accounts.refetch()}>
            {t`Try again`}
          </Button>
        </Alert>
      ) : accounts.data.length === 0 || chosen === null ? (
        <p>{t`You have no accounts yet.`}</p>
      ) : (
        <>
          <SelectField
            label={t`Account`}
            name="accountId"
            value={String(chosen)}
            onChange={(value) => setAccountId(Number(value))}
            options={accounts.data.map((a) => ({ value: String(a.accountId), label: accountLabel(a) }))}
          />
          <PeriodChooser key={chosen} actingCustomerId={actingCustomerId} accountId={chosen} access={access} />
        </>
      )}
    </div>
  );
}

function PeriodChooser({ actingCustomerId, accountId, access }: { actingCustomerId: number | null; accountId: number; access: DownloadAccess }) {
  const { t } = useLingui();
  const id = useId();
  const fileErrors = useFileErrors();
  const periods = useQuery(statementPeriodsQuery(actingCustomerId, accountId));
  const [year, setYear] = useState<number | null>(null);
  const [month, setMonth] = useState<number | null>(null);
  const download = useMutation({
    mutationFn: (p: { year: number; month: number }) => downloadFile(access, statementPath(accountId, p.year, p.month), PDF_ACCEPT, statementFileName(accountId, p.year, p.month)),
  });
  const languageTag = languageTags[getUiLanguage()];

  const list = periods.data ?? [];
  const years = [...new Set(list.map((p) => p.year))].sort((a, b) => b - a);
  // The newest period unless one was chosen.
  const chosenYear = year !== null && years.includes(year) ? year : (years[0] ?? null);
  const months = list
    .filter((p) => p.year === chosenYear)
    .map((p) => p.month)
    .sort((a, b) => b - a);
  const chosenMonth = month !== null && months.includes(month) ? month : (months[0] ?? null);
  const monthName = (m: number) => dateTimeFormat(languageTag, { month: 'long', timeZone: 'UTC' }).format(new Date(Date.UTC(2000, m - 1, 1)));

  // A new choice hides the previous download's outcome.
  const { reset } = download;
  useEffect(() => reset(), [chosenYear, chosenMonth, reset]);

  if (periods.isPending) return <Spinner label={t`Loading the statement months`} />;
  if (periods.isError) {
    return (
      <Alert tone="error" title={t`The statement months could not be loaded`}>
        <p>{periods.error instanceof MethodCallError ? describeFailure(periods.error.failure) : t`Unknown error`}</p>
        <Button variant="secondary" onClick={() => void periods.refetch()}>
          {t`Try again`}
        </Button>
      </Alert>
    );
  }
  if (chosenYear === null || chosenMonth === null) return <p>{t`There are no statements for this account yet.`}</p>;

  const failed = download.data && !download.data.ok ? download.data : null;
  return (
    <form
      aria-labelledby={`${id}-title`}
      onSubmit={(e) => {
        e.preventDefault();
        download.mutate({ year: chosenYear, month: chosenMonth });
      }}
    >
      <h2 id={`${id}-title`} className="visually-hidden">
        {t`Statement month`}
      </h2>
      <div className="filter-grid">
        <SelectField label={t`Year`} name="year" value={String(chosenYear)} onChange={(v) => setYear(Number(v))} options={years.map((y) => ({ value: String(y), label: String(y) }))} />
        <SelectField
          label={t`Month`}
          name="month"
          value={String(chosenMonth)}
          onChange={(v) => setMonth(Number(v))}
          options={months.map((m) => ({ value: String(m), label: monthName(m) }))}
        />
      </div>
      <Button type="submit" busy={download.isPending}>
        {t`Download PDF`}
      </Button>
      {failed ? (
        <Alert tone="error" title={t`The statement could not be downloaded`}>
          <p>{failed.code === 'notFound' ? t`There is no statement for this month.` : fileErrors[failed.code]}</p>
          {failed.detail && failed.code === 'refused' ? <p>{failed.detail}</p> : null}
        </Alert>
      ) : null}
    </form>
  );
}
