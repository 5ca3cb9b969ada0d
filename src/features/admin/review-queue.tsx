/**
 * The review queue of the admin overview (document 1 §6; issue 5 item 4): documents waiting for a
 * decision (submitted, pending, under investigation), oldest first, a page at a time, each with the
 * customer, the type, the dates, its files to view (the REST download) and the decision
 * (machines/admin-review through ReviewDecisionForm). A recorded decision refreshes the queue and
 * the customer list (the customer may be verified now).
 */
import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useSelector } from '@xstate/react';
import { Plural, useLingui } from '@lingui/react/macro';
import type { UploadedDocument } from '../../../api/documents.ts';
import { formatDate, formatDateTime } from '../../lib/format.ts';
import { getUiLanguage, getUiLanguageTag } from '../../lib/i18n.ts';
import { MethodCallError, describeFailure } from '../../lib/request.ts';
import { Alert } from '../../ui/alert.tsx';
import { Button } from '../../ui/button.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { decideDocument } from './admin-calls.ts';
import { downloadDocumentFile, type FileAccess } from './document-file.ts';
import { ReviewDecisionForm, useAdminReview } from './review-decision.tsx';
import { adminReviewKey, reviewQueueQuery } from './review-queries.ts';

export interface ReviewQueueProps {
  access: FileAccess;
}

export function ReviewQueue({ access }: ReviewQueueProps) {
  const { t } = useLingui();
  const [page, setPage] = useState(1);
  const query = useQuery(reviewQueueQuery(page));
  /** the document being decided on */
  const [deciding, setDeciding] = useState<number | null>(null);
  const lang = getUiLanguage();

  return (
    <section aria-labelledby="review-queue-title">
      <h2 id="review-queue-title">{t`Documents to review`}</h2>
      {query.isPending ? (
        <Spinner label={t`Loading the review queue`} />
      ) : query.isError ? (
        <Alert tone="error" title={t`The review queue could not be loaded`}>
          <p>{query.error instanceof MethodCallError ? describeFailure(query.error.failure) : t`Unknown error`}</p>
          <Button variant="secondary" onClick={() => void query.refetch()}>
            {t`Try again`}
          </Button>
        </Alert>
      ) : query.data.total === 0 ? (
        <p>{t`No document is waiting for a decision.`}</p>
      ) : (
        <>
          <p>
            <Plural value={query.data.total} one="# document is waiting, oldest first." other="# documents are waiting, oldest first." />
          </p>
          <ul className="review-list">
            {query.data.items.map((item) => {
              const d = item.document;
              const subject = t`${d.documentType} of ${item.customerName}`;
              return (
                <li key={d.id} className="review-item" aria-labelledby={`review-${d.id}`}>
                  <h3 id={`review-${d.id}`}>{subject}</h3>
                  <dl className="facts">
                    <dt>{t`Customer`}</dt>
                    <dd>
                      {item.customerName} ({item.customerType === 'business' ? t`Business` : t`Personal`}, {t`ID ${item.customerId}`})
                    </dd>
                    <dt>{t`Uploaded`}</dt>
                    <dd>{formatDateTime(d.uploaded, getUiLanguageTag())}</dd>
                    <dt>{t`Issued`}</dt>
                    <dd>{d.issuedDate ? formatDate(d.issuedDate, lang) : t`Not given`}</dd>
                    <dt>{t`Expires`}</dt>
                    <dd>{d.expiresDate ? formatDate(d.expiresDate, lang) : t`None`}</dd>
                    {d.number ? (
                      <>
                        <dt>{t`Number`}</dt>
                        <dd>{d.number}</dd>
                      </>
                    ) : null}
                  </dl>
                  <Files documents={[d, ...item.subDocuments]} access={access} />
                  {deciding === d.id ? (
                    <Decision documentId={d.id} subject={subject} onClose={() => setDeciding(null)} />
                  ) : (
                    <Button onClick={() => setDeciding(d.id)} aria-label={t`Decide: ${subject}`}>
                      {t`Decide`}
                    </Button>
                  )}
                </li>
              );
            })}
          </ul>
          <Pager page={query.data.page} pageSize={query.data.pageSize} total={query.data.total} onPageChange={setPage} />
        </>
      )}
    </section>
  );
}

/** The document's files (front, back or stamp page), each downloaded for viewing. */
function Files({ documents, access }: { documents: UploadedDocument[]; access: FileAccess }) {
  const { t } = useLingui();
  const [error, setError] = useState<string | null>(null);
  const sideNames: Record<UploadedDocument['side'], string> = { front: t`Front page`, back: t`Back side`, registrationStamp: t`Registration stamp page` };
  return (
    <div className="review-files">
      <ul>
        {documents.map((d) => (
          <li key={d.id}>
            <Button
              variant="link"
              onClick={async () => {
                setError(null);
                const outcome = await downloadDocumentFile(access, d.id, d.fileName);
                if (!outcome.ok) setError(outcome.code === 'network' ? t`The connection failed. Try again.` : t`The file could not be downloaded.`);
              }}
            >
              {t`Download ${sideNames[d.side]} (${d.fileName})`}
            </Button>
          </li>
        ))}
      </ul>
      {error ? <Alert tone="error" title={error} /> : null}
    </div>
  );
}

function Decision({ documentId, subject, onClose }: { documentId: number; subject: string; onClose(): void }) {
  const { t } = useLingui();
  const queryClient = useQueryClient();
  const actor = useAdminReview(documentId, decideDocument);
  const step = useSelector(actor, (s) => s.value);
  const finished = step === 'done' || step === 'canceled';
  return (
    <div className="review-decision">
      <ReviewDecisionForm actor={actor} subject={subject} />
      {finished ? (
        <Button
          variant="secondary"
          onClick={() => {
            onClose();
            // The queue without the decided document; the customer list with its new state.
            if (step === 'done') {
              void queryClient.invalidateQueries({ queryKey: adminReviewKey });
              void queryClient.invalidateQueries({ queryKey: ['adminCustomerList'] });
            }
          }}
        >
          {step === 'done' ? t`Next document` : t`Close`}
        </Button>
      ) : null}
    </div>
  );
}

function Pager({ page, pageSize, total, onPageChange }: { page: number; pageSize: number; total: number; onPageChange(page: number): void }) {
  const { t } = useLingui();
  const pages = Math.max(1, Math.ceil(total / pageSize));
  if (pages === 1) return null;
  return (
    <nav aria-label={t`Review queue pages`} className="pager">
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
