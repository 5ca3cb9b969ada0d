/**
 * The review queue of the admin overview (document 1 §6; issue 5 item 4): identity-verification
 * and video identity jobs waiting for the administrator (they lapse, so they come first), then the
 * documents waiting for a decision (submitted, pending, under investigation), oldest first, a page
 * at a time, each with the customer, the type, the dates, its files to view (the REST download).
 * Both kinds are decided through the one admin-review statechart (ReviewDecisionForm).
 *
 * After a decision the queue, the customer's panel (adminReviewKey) and the customer list are
 * read again; the form closes, the result is announced in the queue's status region and focus
 * moves to the next item (the one after the decided item, which usually left the queue) or, when
 * none is left, to the queue's heading. A canceled decision gives focus back to its Decide button.
 */
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useSelector } from '@xstate/react';
import { Plural, useLingui } from '@lingui/react/macro';
import type { RecoveryReviewItem } from '../../../api/admin.ts';
import type { UploadedDocument } from '../../../api/documents.ts';
import type { ReviewTarget } from '../../../machines/admin-review/admin-review.machine.ts';
import { formatDate, formatDateTime } from '../../lib/format.ts';
import { getUiLanguage, getUiLanguageTag } from '../../lib/i18n.ts';
import { MethodCallError, describeFailure } from '../../lib/request.ts';
import { Alert } from '../../ui/alert.tsx';
import { Button } from '../../ui/button.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { decideReviewItem } from './admin-calls.ts';
import { downloadDocumentFile, downloadRecoveryFile, type FileAccess, type FileOutcome } from './document-file.ts';
import { useIdentityJobKindNames } from './messages.ts';
import { ReviewDecisionForm, useAdminReview, useDecisionNames } from './review-decision.tsx';
import { adminReviewKey, recoveryQueueQuery, reviewQueueQuery } from './review-queries.ts';

export interface ReviewQueueProps {
  access: FileAccess;
}

const keyOf = (target: ReviewTarget) =>
  target.kind === 'document' ? `document-${target.documentId}` : target.kind === 'identityJob' ? `job-${target.workflowRunId}` : `recovery-${target.taskId}`;

/** What happened to the last decision: where focus goes once the queue is read again. */
type Finished = { key: string; index: number; decided: boolean };

export function ReviewQueue({ access }: ReviewQueueProps) {
  const { t } = useLingui();
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const query = useQuery(reviewQueueQuery(page));
  const recovery = useQuery(recoveryQueueQuery());
  /** the key of the item being decided on */
  const [deciding, setDeciding] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const [finished, setFinished] = useState<Finished | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const lang = getUiLanguage();
  const kindNames = useIdentityJobKindNames();
  const decisionNames = useDecisionNames();

  const jobs = query.data?.identityJobs ?? [];
  const documents = query.data?.items ?? [];
  /** the items in the order shown */
  const recoveries = recovery.data?.tasks ?? [];
  const order = [
    ...recoveries.map((r) => keyOf({ kind: 'recoveryTask', taskId: r.taskId })),
    ...jobs.map((j) => keyOf({ kind: 'identityJob', workflowRunId: j.workflowRunId })),
    ...documents.map((i) => keyOf({ kind: 'document', documentId: i.document.id })),
  ];

  // Focus after a decision, once the queue shows the platform's answer read again.
  useEffect(() => {
    if (!finished) return;
    setFinished(null);
    if (!finished.decided) {
      document.getElementById(`decide-${finished.key}`)?.focus();
      return;
    }
    const still = order.indexOf(finished.key);
    const next = order[still >= 0 ? still + 1 : finished.index];
    const target = next ? document.getElementById(`review-${next}`) : null;
    (target ?? headingRef.current)?.focus();
  }, [finished]); // eslint-disable-line react-hooks/exhaustive-deps

  const onFinished = async (target: ReviewTarget, subject: string, outcome: { decided: false } | { decided: true; decision: string; customerVerified: boolean }) => {
    const key = keyOf(target);
    const index = order.indexOf(key);
    if (outcome.decided) {
      setAnnouncement(outcome.customerVerified ? t`Recorded: ${subject}, ${outcome.decision}. The customer is verified now.` : t`Recorded: ${subject}, ${outcome.decision}.`);
      // The queue without the decided item, the customer's panel and the customer list with its new state.
      await Promise.all([queryClient.invalidateQueries({ queryKey: adminReviewKey }), queryClient.invalidateQueries({ queryKey: ['adminCustomerList'] })]);
    } else setAnnouncement(t`No decision was made: ${subject}.`);
    setDeciding(null);
    setFinished({ key, index, decided: outcome.decided });
  };

  const decisionOf = (target: ReviewTarget, subject: string) => {
    const key = keyOf(target);
    return deciding === key ? (
      <Decision target={target} subject={subject} decisionNames={decisionNames} onFinished={(outcome) => void onFinished(target, subject, outcome)} />
    ) : (
      <Button id={`decide-${key}`} onClick={() => setDeciding(key)} aria-label={t`Decide: ${subject}`}>
        {t`Decide`}
      </Button>
    );
  };

  return (
    <section aria-labelledby="review-queue-title">
      <h2 id="review-queue-title" ref={headingRef} tabIndex={-1}>
        {t`Review queue`}
      </h2>
      {/* Always present, so a decision's result is announced when it is written here. */}
      <div role="status" className="review-status">
        {announcement ? <p>{announcement}</p> : null}
      </div>
      {query.isPending ? (
        <Spinner label={t`Loading the review queue`} />
      ) : query.isError ? (
        <Alert tone="error" title={t`The review queue could not be loaded`}>
          <p>{query.error instanceof MethodCallError ? describeFailure(query.error.failure) : t`Unknown error`}</p>
          <Button variant="secondary" onClick={() => void query.refetch()}>
            {t`Try again`}
          </Button>
        </Alert>
      ) : (
        <>
          <RecoveryTasks tasks={recoveries} total={recovery.data?.total ?? 0} access={access} decisionOf={decisionOf} />
          {query.data.identityJobsTotal ? (
            <>
              <p>
                <Plural value={query.data.identityJobsTotal} one="# identity check is waiting, oldest first." other="# identity checks are waiting, oldest first." />
              </p>
              <ul className="review-list" aria-label={t`Identity checks to review`}>
                {jobs.map((job) => {
                  const key = keyOf({
                    kind: 'identityJob',
                    workflowRunId: job.workflowRunId,
                  });
                  const subject = t`${kindNames[job.kind]} of ${job.customerName}`;
                  return (
                    <li key={job.workflowRunId} className="review-item" aria-labelledby={`review-${key}`}>
                      <h3 id={`review-${key}`} tabIndex={-1}>
                        {subject}
                      </h3>
                      <dl className="facts">
                        <dt>{t`Customer`}</dt>
                        <dd>
                          {job.customerName} ({job.customerType === 'business' ? t`Business` : t`Personal`}, {t`ID ${job.customerId}`})
                        </dd>
                        <dt>{t`Kind`}</dt>
                        <dd>{kindNames[job.kind]}</dd>
                        <dt>{t`Started`}</dt>
                        <dd>{formatDateTime(job.created, getUiLanguageTag())}</dd>
                        <dt>{t`Link expires`}</dt>
                        <dd>{formatDateTime(job.expires, getUiLanguageTag())}</dd>
                      </dl>
                      {decisionOf(
                        {
                          kind: 'identityJob',
                          workflowRunId: job.workflowRunId,
                        },
                        subject,
                      )}
                    </li>
                  );
                })}
              </ul>
            </>
          ) : (
            <p>{t`No identity check is waiting for a decision.`}</p>
          )}
          {query.data.total === 0 ? (
            <p>{t`No document is waiting for a decision.`}</p>
          ) : (
            <>
              <p>
                <Plural value={query.data.total} one="# document is waiting, oldest first." other="# documents are waiting, oldest first." />
              </p>
              <ul className="review-list" aria-label={t`Documents to review`}>
                {documents.map((item) => {
                  const d = item.document;
                  const key = keyOf({ kind: 'document', documentId: d.id });
                  const subject = t`${d.documentType} of ${item.customerName}`;
                  return (
                    <li key={d.id} className="review-item" aria-labelledby={`review-${key}`}>
                      <h3 id={`review-${key}`} tabIndex={-1}>
                        {subject}
                      </h3>
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
                      {decisionOf({ kind: 'document', documentId: d.id }, subject)}
                    </li>
                  );
                })}
              </ul>
              <Pager page={query.data.page} pageSize={query.data.pageSize} total={query.data.total} onPageChange={setPage} />
            </>
          )}
        </>
      )}
    </section>
  );
}

/**
 * Account recoveries by personal data waiting for a decision (they come first: the person may be
 * locked out). The administrator compares the identity document and the selfie with the record.
 */
function RecoveryTasks({
  tasks,
  total,
  access,
  decisionOf,
}: {
  tasks: RecoveryReviewItem[];
  total: number;
  access: FileAccess;
  decisionOf(target: ReviewTarget, subject: string): ReactNode;
}) {
  const { t } = useLingui();
  const lang = getUiLanguage();
  if (total === 0) return <p>{t`No account recovery is waiting for a decision.`}</p>;
  const fileNames = { document: t`Identity document`, selfie: t`Selfie` };
  return (
    <>
      <p>
        <Plural value={total} one="# account recovery is waiting, oldest first." other="# account recoveries are waiting, oldest first." />
      </p>
      <ul className="review-list" aria-label={t`Account recoveries to review`}>
        {tasks.map((task) => {
          const target: ReviewTarget = { kind: 'recoveryTask', taskId: task.taskId };
          const key = keyOf(target);
          const subject = t`Account recovery of ${task.email}`;
          return (
            <li key={task.taskId} className="review-item" aria-labelledby={`review-${key}`}>
              <h3 id={`review-${key}`} tabIndex={-1}>
                {subject}
              </h3>
              {task.customerId === null ? <Alert tone="warning" title={t`No account has this e-mail address: reject the request.`} /> : null}
              <dl className="facts">
                <dt>{t`Customer`}</dt>
                <dd>{task.customerName ? `${task.customerName} (${t`ID ${task.customerId}`})` : t`None`}</dd>
                <dt>{t`Name given`}</dt>
                <dd>
                  {task.firstName} {task.lastName}
                </dd>
                <dt>{t`Date of birth given`}</dt>
                <dd>
                  {formatDate(task.dob, lang)}
                  {task.recordDob ? ` (${t`on record: ${formatDate(task.recordDob, lang)}`})` : null}
                </dd>
                <dt>{t`Personal data`}</dt>
                <dd>{task.personalDataMatches ? t`Matches the record` : t`Does not match the record`}</dd>
                <dt>{t`New e-mail address for the code`}</dt>
                <dd>{task.recoveryEmail}</dd>
                <dt>{t`Requested`}</dt>
                <dd>{formatDateTime(task.created, getUiLanguageTag())}</dd>
                <dt>{t`The owner can cancel until`}</dt>
                <dd>{formatDateTime(task.cancelUntil, getUiLanguageTag())}</dd>
              </dl>
              <DownloadList
                items={task.files.map((f) => ({
                  key: f.kind,
                  label: t`Download ${fileNames[f.kind]}`,
                  download: () => downloadRecoveryFile(access, task.taskId, f.kind),
                }))}
              />
              {decisionOf(target, subject)}
            </li>
          );
        })}
      </ul>
    </>
  );
}

/** The document's files (front, back or stamp page), each downloaded for viewing. */
function Files({ documents, access }: { documents: UploadedDocument[]; access: FileAccess }) {
  const { t } = useLingui();
  const sideNames: Record<UploadedDocument['side'], string> = {
    front: t`Front page`,
    back: t`Back side`,
    registrationStamp: t`Registration stamp page`,
  };
  return (
    <DownloadList
      items={documents.map((d) => ({
        key: String(d.id),
        label: t`Download ${sideNames[d.side]} (${d.fileName})`,
        download: () => downloadDocumentFile(access, d.id, d.fileName),
      }))}
    />
  );
}

/** Files to download for viewing (a document's pages, a recovery's document and selfie); a failed download is said below them. */
function DownloadList({ items }: { items: { key: string; label: string; download(): Promise<FileOutcome> }[] }) {
  const { t } = useLingui();
  const [error, setError] = useState<string | null>(null);
  return (
    <div className="review-files">
      <ul>
        {items.map((item) => (
          <li key={item.key}>
            <Button
              variant="link"
              onClick={async () => {
                setError(null);
                const outcome = await item.download();
                if (!outcome.ok) setError(outcome.code === 'network' ? t`The connection failed. Try again.` : t`The file could not be downloaded.`);
              }}
            >
              {item.label}
            </Button>
          </li>
        ))}
      </ul>
      {error ? <Alert tone="error" title={error} /> : null}
    </div>
  );
}

type DecisionOutcome = { decided: false } | { decided: true; decision: string; customerVerified: boolean };

/** One decision: the form until it is recorded or canceled, then the queue takes over (onFinished, once). */
function Decision({ target, subject, decisionNames, onFinished }: { target: ReviewTarget; subject: string; decisionNames: Record<string, string>; onFinished(outcome: DecisionOutcome): void }) {
  const actor = useAdminReview(target, decideReviewItem);
  const step = useSelector(actor, (s) => (s.status === 'done' ? (s.matches('done') ? 'done' : 'canceled') : 'open'));
  const reported = useRef(false);
  useEffect(() => {
    if (step === 'open' || reported.current) return;
    reported.current = true;
    const s = actor.getSnapshot();
    onFinished(
      step === 'done'
        ? {
            decided: true,
            decision: s.context.decision ? decisionNames[s.context.decision]! : '',
            customerVerified: s.context.customerVerified === true,
          }
        : { decided: false },
    );
  }, [step]); // eslint-disable-line react-hooks/exhaustive-deps
  return (
    <div className="review-decision">
      <ReviewDecisionForm actor={actor} subject={subject} />
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
