/**
 * The admin overview (document 1 §2, restricted layout; §6 administrator): the review queue of
 * uploaded documents, and the platform's customers a page at a time, each opened to manage its
 * documents, limits, financial info and due diligence.
 */
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Plural, useLingui } from '@lingui/react/macro';
import { formatDate } from '../../lib/format.ts';
import { getUiLanguage } from '../../lib/i18n.ts';
import { MethodCallError, describeFailure } from '../../lib/request.ts';
import { Alert } from '../../ui/alert.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { StepHeading } from '../../ui/step-heading.tsx';
import { Button } from '../../ui/button.tsx';
import { CustomerPanel } from './customer-panel.tsx';
import { openAuditPack, type FileAccess } from './document-file.ts';
import { adminCustomersQuery } from './queries.ts';
import { ReviewQueue } from './review-queue.tsx';

/** The URL's ?page: an integer 1 to 100 000; anything else is page 1. */
export function adminPageOf(raw: unknown): number {
  const n = typeof raw === 'number' ? raw : typeof raw === 'string' && /^\d{1,6}$/.test(raw) ? Number(raw) : NaN;
  return Number.isInteger(n) && n >= 1 && n <= 100_000 ? n : 1;
}

export interface AdminOverviewViewProps {
  page: number;
  onPageChange(page: number): void;
  /** the session's token for the document file downloads */
  access: FileAccess;
}

export function AdminOverviewView({ page, onPageChange, access }: AdminOverviewViewProps) {
  const { t } = useLingui();
  const query = useQuery(adminCustomersQuery(page));
  const lang = getUiLanguage();
  const [openCustomerId, setOpenCustomerId] = useState<number | null>(null);
  const openCustomer = query.data?.customers.find((c) => c.customerId === openCustomerId) ?? null;

  return (
    <>
      <StepHeading>{t`Admin overview`}</StepHeading>
      <AuditPackLink access={access} />
      <ReviewQueue access={access} />
      <h2>{t`Customers`}</h2>
      {query.isPending ? (
        <Spinner label={t`Loading customers`} />
      ) : query.isError ? (
        <Alert tone="error" title={t`The customer list could not be loaded`}>
          <p>{query.error instanceof MethodCallError ? describeFailure(query.error.failure) : t`Unknown error`}</p>
        </Alert>
      ) : (
        <>
          <CustomerCount total={query.data.total} />
          <div className="table-wrap">
            <table className="table">
              <caption>{t`Customers, newest first`}</caption>
              <thead>
                <tr>
                  <th scope="col" className="num">{t`ID`}</th>
                  <th scope="col">{t`Name`}</th>
                  <th scope="col">{t`Type`}</th>
                  <th scope="col">{t`Verification`}</th>
                  <th scope="col">{t`Created`}</th>
                  <th scope="col">{t`Actions`}</th>
                </tr>
              </thead>
              <tbody>
                {query.data.customers.map((c) => (
                  <tr key={c.customerId}>
                    <td className="num">{c.customerId}</td>
                    <th scope="row">{c.name}</th>
                    <td>{c.customerType === 'business' ? t`Business` : t`Personal`}</td>
                    <td>{c.limited ? t`Limited` : c.verified ? t`Verified` : t`Not verified`}</td>
                    <td>{formatDate(c.customerCreationDate, lang)}</td>
                    <td>
                      <Button variant="secondary" onClick={() => setOpenCustomerId(c.customerId)} aria-label={t`Manage ${c.name}`}>
                        {t`Manage`}
                      </Button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager page={query.data.page} pageSize={query.data.pageSize} total={query.data.total} onPageChange={onPageChange} />
          {openCustomer ? <CustomerPanel key={openCustomer.customerId} customer={openCustomer} onClose={() => setOpenCustomerId(null)} /> : null}
        </>
      )}
    </>
  );
}

function CustomerCount({ total }: { total: number }) {
  return (
    <p>
      <Plural value={total} one="# customer in total." other="# customers in total." />
    </p>
  );
}

function Pager({ page, pageSize, total, onPageChange }: { page: number; pageSize: number; total: number; onPageChange(page: number): void }) {
  const { t } = useLingui();
  const pages = Math.max(1, Math.ceil(total / pageSize));
  return (
    <nav aria-label={t`Pages`} className="pager">
      <button type="button" className="btn btn-secondary" disabled={page <= 1} onClick={() => onPageChange(page - 1)}>
        {t`Previous page`}
      </button>
      <span aria-live="polite"> {t`Page ${page} of ${pages}`} </span>
      <button type="button" className="btn btn-secondary" disabled={page >= pages} onClick={() => onPageChange(page + 1)}>
        {t`Next page`}
      </button>
    </nav>
  );
}

/** The statechart audit pack (issue 14): every flow as a diagram with its states, transitions and tests. */
function AuditPackLink({ access }: { access: FileAccess }) {
  const { t } = useLingui();
  const [failed, setFailed] = useState(false);
  return (
    <section aria-labelledby="audit-pack-heading" className="card">
      <h2 id="audit-pack-heading" className="card-title">{t`Statechart audit pack`}</h2>
      <p>{t`Every flow of the app as a diagram, with each state and transition, the specification it implements and the tests that cover it.`}</p>
      <Button
        variant="secondary"
        onClick={async () => {
          setFailed(false);
          const outcome = await openAuditPack(access);
          setFailed(!outcome.ok);
        }}
      >
        {t`Open the audit pack`}
      </Button>
      {failed ? (
        <Alert tone="error" title={t`The audit pack could not be opened`}>
          <p>{t`Try again. If it still fails, the pack may not be built on this platform (npm run audit-pack).`}</p>
        </Alert>
      ) : null}
    </section>
  );
}
