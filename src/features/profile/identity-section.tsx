/**
 * Identity and proof of residence (identityGet, documentsInquiry): their states in words, the
 * documents with type, status, dates and reject reason, an upload through the document upload
 * form (machines/document-upload, wired to customerJumioDocumentCreate) for identity (category 1) and
 * proof of residence (category 2), and the deletion of a document not decided yet.
 */
import { useMemo, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useSelector } from '@xstate/react';
import { useLingui } from '@lingui/react/macro';
import { DocumentCategory } from '../../../api/verification.ts';
import { selectDocumentUploadStep } from '../../../machines/document-upload/document-upload.select.ts';
import type { UploadDocumentType } from '../../../machines/document-upload/document-upload.rules.ts';
import { callMethod } from '../../lib/request.ts';
import { Button } from '../../ui/button.tsx';
import { DocumentUploadForm, useDocumentUpload } from '../verification/document-upload-form.tsx';
import { uploadDocument } from '../verification/upload-document.ts';
import { DocumentList } from './document-list.tsx';
import { useDocumentStateNames } from './messages.ts';
import { documentTypesQuery, documentsQuery, identityQuery, invalidateAfterChange } from './queries.ts';
import { ChangeError, Loaded, ProfileSection } from './section.tsx';
import { useChange } from './use-change.ts';

type Category = typeof DocumentCategory.identity | typeof DocumentCategory.address;

export function IdentitySection({ acting, today, residenceCountryCode }: { acting: number | null; today: string; residenceCountryCode: string | null }) {
  const { t, i18n } = useLingui();
  const identity = useQuery(identityQuery(acting));
  const identityDocs = useQuery(documentsQuery(acting, DocumentCategory.identity));
  const residenceDocs = useQuery(documentsQuery(acting, DocumentCategory.address));
  const dictionary = useQuery(documentTypesQuery(i18n.locale));
  const stateNames = useDocumentStateNames();
  const [uploading, setUploading] = useState<Category | null>(null);
  const remove = useChange((vars: { documentId: number }) => callMethod('customerDocumentDelete', vars));

  /** The types a category offers this customer (type 88 only to residents of RU and UA), and their names. */
  const typesOf = (categoryId: Category) => {
    const category = dictionary.data?.customerDocumentCategories.find((c) => c.id === categoryId);
    const offered = (category?.customerDocumentTypes ?? []).filter((ty) => !ty.countryCodes || (residenceCountryCode !== null && ty.countryCodes.includes(residenceCountryCode)));
    return {
      types: offered.map((ty): UploadDocumentType => ({ id: ty.id, secondPage: ty.secondPage ?? (ty.needsBack ? 'back' : null) })),
      names: Object.fromEntries(offered.map((ty) => [ty.id, ty.name])) as Record<number, string>,
    };
  };

  const uploadButton = (categoryId: Category, label: string) =>
    uploading === null ? (
      <div className="actions">
        <Button
          variant="secondary"
          disabled={!dictionary.data}
          onClick={() => {
            remove.reset();
            setUploading(categoryId);
          }}
        >
          {label}
        </Button>
      </div>
    ) : null;

  return (
    <ProfileSection id="identity" title={t`Identity and proof of residence`}>
      <Loaded query={identity}>
        {(id) => (
          <dl className="facts">
            <dt>{t`Identity document`}</dt>
            <dd>{stateNames[id.identity.status]}</dd>
            <dt>{t`Proof of residence`}</dt>
            <dd>{stateNames[id.proofOfResidence.status]}</dd>
            <dt id="videoIdentity" tabIndex={-1}>{t`Video identification`}</dt>
            <dd>
              {id.videoIdentity.status === 'none'
                ? t`Not done`
                : id.videoIdentity.status === 'pending'
                  ? t`Being checked`
                  : id.videoIdentity.status === 'approved'
                    ? t`Approved`
                    : id.videoIdentity.rejectReason
                      ? t`Rejected: ${id.videoIdentity.rejectReason}`
                      : t`Rejected`}
            </dd>
          </dl>
        )}
      </Loaded>
      <ChangeError text={remove.errorText} />

      <h3>{t`Identity documents`}</h3>
      <Loaded query={identityDocs}>
        {(docs) =>
          docs.length === 0 ? (
            <p>{t`No identity document uploaded yet.`}</p>
          ) : (
            <DocumentList documents={docs} label={t`Identity documents`} onDelete={(documentId) => remove.run({ documentId })} deleting={remove.busy} />
          )
        }
      </Loaded>
      {uploadButton(DocumentCategory.identity, t`Upload an identity document`)}
      {uploading === DocumentCategory.identity ? <UploadPanel key="identity" categoryId={DocumentCategory.identity} today={today} {...typesOf(DocumentCategory.identity)} onClose={() => setUploading(null)} /> : null}

      <h3 id="proofOfResidence" tabIndex={-1}>
        {t`Proof of residence`}
      </h3>
      <Loaded query={residenceDocs}>
        {(docs) =>
          docs.length === 0 ? (
            <p>{t`No proof of residence uploaded yet.`}</p>
          ) : (
            <DocumentList documents={docs} label={t`Proof of residence documents`} onDelete={(documentId) => remove.run({ documentId })} deleting={remove.busy} />
          )
        }
      </Loaded>
      {uploadButton(DocumentCategory.address, t`Upload a proof of residence`)}
      {uploading === DocumentCategory.address ? <UploadPanel key="address" categoryId={DocumentCategory.address} today={today} {...typesOf(DocumentCategory.address)} onClose={() => setUploading(null)} /> : null}
    </ProfileSection>
  );
}

function UploadPanel({ categoryId, today, types, names, onClose }: { categoryId: Category; today: string; types: UploadDocumentType[]; names: Record<number, string>; onClose(): void }) {
  const { t } = useLingui();
  const client = useQueryClient();
  const input = useMemo(() => ({ categoryId, types, expiryRequired: categoryId === DocumentCategory.identity, today }), []); // eslint-disable-line react-hooks/exhaustive-deps
  const actor = useDocumentUpload(input, async (request) => {
    // The upload machine asks for the identity document's number (its details step).
    const result = await uploadDocument(request);
    if (result.ok) await invalidateAfterChange(client);
    return result;
  });
  const step = useSelector(actor, selectDocumentUploadStep);
  const finished = step === 'done' || step === 'canceled';
  return (
    <div className="profile-panel">
      <DocumentUploadForm actor={actor} typeNames={names} />
      {finished ? (
        <div className="actions">
          <Button variant="secondary" onClick={onClose}>
            {t`Close`}
          </Button>
        </div>
      ) : null}
    </div>
  );
}
