/** Uploaded documents as a table: type, status, dates and the reject reason; optionally a delete for pending ones. */
import { useLingui } from '@lingui/react/macro';
import type { UploadedDocument } from '../../../api/documents.ts';
import { IN_REVIEW_STATUSES } from '../../../api/verification.ts';
import { Button } from '../../ui/button.tsx';
import { useDocumentStatusName } from './messages.ts';

export function DocumentList({ documents, label, onDelete, deleting }: { documents: readonly UploadedDocument[]; label: string; onDelete?: (id: number) => void; deleting?: boolean }) {
  const { t, i18n } = useLingui();
  const statusName = useDocumentStatusName();
  const date = (iso: string | null) => (iso ? i18n.date(iso.length === 10 ? `${iso}T00:00:00Z` : iso, { dateStyle: 'medium', timeZone: 'UTC' }) : '—');
  // The back side and stamp page follow their main document: listed with it, not on their own.
  const main = documents.filter((d) => !d.isSubDocument);
  return (
    <table className="profile-table">
      <caption>{label}</caption>
      <thead>
        <tr>
          <th scope="col">{t`Document`}</th>
          <th scope="col">{t`Status`}</th>
          <th scope="col">{t`Uploaded`}</th>
          <th scope="col">{t`Issued`}</th>
          <th scope="col">{t`Expires`}</th>
          {onDelete ? <th scope="col">{t`Actions`}</th> : null}
        </tr>
      </thead>
      <tbody>
        {main.map((d) => (
          <tr key={d.id}>
            <td>{d.documentType}</td>
            <td>
              {statusName(d.statusId)}
              {d.rejectReason ? <span className="profile-reason">{t`Reason: ${d.rejectReason}`}</span> : null}
            </td>
            <td>{date(d.uploaded)}</td>
            <td>{date(d.issuedDate)}</td>
            <td>{date(d.expiresDate)}</td>
            {onDelete ? (
              <td>
                {/* Only a document not decided yet may be withdrawn; a decided one is the provider's record. */}
                {IN_REVIEW_STATUSES.has(d.statusId) ? (
                  <Button variant="secondary" busy={deleting} onClick={() => onDelete(d.id)} aria-label={t`Delete ${d.documentType} uploaded ${date(d.uploaded)}`}>
                    {t`Delete`}
                  </Button>
                ) : null}
              </td>
            ) : null}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
