/**
 * /company-documents (document 1 §2, guarded, outside the main layout): where a business
 * representative without balance info lands after sign-in.
 *
 * The contract has no call of its own for a company's documents. Decided: the page works with the
 * documents of whoever the session acts for (documentsInquiry and customerJumioDocumentCreate, with
 * fromCustomerId added by the request wrapper), so a representative acting for the company sees
 * and uploads the company's documents (business registration, business address, control, further
 * business documents); signed in as a person, the same page shows the person's own identity and
 * address documents. Each upload is the document-upload statechart (DocumentUploadForm).
 */
import { useEffect, useRef, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useSelector } from '@xstate/react';
import { useLingui } from '@lingui/react/macro';
import { DocumentCategory } from '../../../api/verification.ts';
import { formatDate } from '../../lib/format.ts';
import { getUiLanguage } from '../../lib/i18n.ts';
import { MethodCallError, describeFailure } from '../../lib/request.ts';
import { Alert } from '../../ui/alert.tsx';
import { Button } from '../../ui/button.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { StepHeading } from '../../ui/step-heading.tsx';
import { DocumentUploadForm, useDocumentUpload } from './document-upload-form.tsx';
import { todayIso } from './document-types.ts';
import { documentTypesQuery, documentsQuery, verificationQueryKey } from './queries.ts';
import { useDocumentStatusTexts } from './status-messages.ts';
import { uploadDocument } from './upload-document.ts';

/** The categories a company documents; a person's identity and address. */
export const COMPANY_CATEGORIES = [DocumentCategory.businessRegistration, DocumentCategory.businessAddress, DocumentCategory.control, DocumentCategory.businessAdditional] as const;
export const PERSONAL_CATEGORIES = [DocumentCategory.identity, DocumentCategory.address] as const;

export interface CompanyDocumentsViewProps {
  actingCustomerId: number | null;
  /** the session acts for a company (or is a business customer itself) */
  isCompany: boolean;
}

export function CompanyDocumentsView({ actingCustomerId, isCompany }: CompanyDocumentsViewProps) {
  const { t } = useLingui();
  const lang = getUiLanguage();
  const documents = useQuery(documentsQuery(actingCustomerId));
  const types = useQuery(documentTypesQuery(lang));
  const statusText = useDocumentStatusTexts();
  const [uploadCategory, setUploadCategory] = useState<number | null>(null);
  const categoryIds: readonly number[] = isCompany ? COMPANY_CATEGORIES : PERSONAL_CATEGORIES;

  return (
    <>
      <StepHeading>{isCompany ? t`Company documents` : t`Your documents`}</StepHeading>
      <p>{isCompany ? t`Upload the documents we need about the company. We check each one and let you know.` : t`Upload the documents we need to verify you.`}</p>
      {documents.isPending || types.isPending ? (
        <Spinner label={t`Loading the documents`} />
      ) : documents.isError || types.isError ? (
        <Alert tone="error" title={t`The documents could not be loaded`}>
          <p>{documents.error instanceof MethodCallError ? describeFailure(documents.error.failure) : types.error instanceof MethodCallError ? describeFailure(types.error.failure) : t`Unknown error`}</p>
          <Button
            variant="secondary"
            onClick={() => {
              void documents.refetch();
              void types.refetch();
            }}
          >
            {t`Try again`}
          </Button>
        </Alert>
      ) : (
        types.data.customerDocumentCategories
          .filter((category) => categoryIds.includes(category.id))
          .map((category) => {
            const uploaded = documents.data.documents.filter((d) => d.categoryId === category.id && !d.isSubDocument && d.statusId !== 5);
            return (
              <section key={category.id} aria-labelledby={`category-${category.id}`}>
                <h2 id={`category-${category.id}`}>{category.name}</h2>
                {uploaded.length === 0 ? (
                  <p>{t`Nothing uploaded yet.`}</p>
                ) : (
                  <div className="table-wrap">
                    <table className="table">
                      <caption className="visually-hidden">{t`Documents: ${category.name}`}</caption>
                      <thead>
                        <tr>
                          <th scope="col">{t`Document`}</th>
                          <th scope="col">{t`Status`}</th>
                          <th scope="col">{t`Uploaded`}</th>
                          <th scope="col">{t`Expires`}</th>
                        </tr>
                      </thead>
                      <tbody>
                        {uploaded.map((d) => (
                          <tr key={d.id}>
                            <th scope="row">{d.documentType}</th>
                            <td>
                              {statusText(d.statusId)}
                              {d.rejectReason ? ` (${d.rejectReason})` : ''}
                            </td>
                            <td>{formatDate(d.uploaded, lang)}</td>
                            <td>{d.expiresDate ? formatDate(d.expiresDate, lang) : t`None`}</td>
                          </tr>
                        ))}
                      </tbody>
                    </table>
                  </div>
                )}
                {uploadCategory === category.id ? (
                  <CategoryUpload
                    categoryId={category.id}
                    types={category.customerDocumentTypes}
                    onClose={() => setUploadCategory(null)}
                  />
                ) : category.customerDocumentTypes.length > 0 ? (
                  <Button variant="secondary" onClick={() => setUploadCategory(category.id)} aria-label={t`Upload: ${category.name}`}>
                    {t`Upload`}
                  </Button>
                ) : null}
              </section>
            );
          })
      )}
    </>
  );
}

function CategoryUpload({
  categoryId,
  types,
  onClose,
}: {
  categoryId: number;
  types: { id: number; name: string; needsBack: boolean; secondPage?: 'back' | 'registrationStamp' }[];
  onClose(): void;
}) {
  const { t } = useLingui();
  const queryClient = useQueryClient();
  const actor = useDocumentUpload(
    {
      categoryId,
      types: types.map((type) => ({ id: type.id, secondPage: type.secondPage ?? (type.needsBack ? 'back' : null) })),
      expiryRequired: categoryId === DocumentCategory.identity,
      today: todayIso(),
    },
    (request) => uploadDocument(request),
  );
  const step = useSelector(actor, (s) => (s.matches('done') ? 'done' : s.matches('canceled') ? 'canceled' : 'editing'));
  const closeRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (step === 'done') {
      void queryClient.invalidateQueries({ queryKey: verificationQueryKey });
      closeRef.current?.focus();
    }
    if (step === 'canceled') onClose();
  }, [step]); // eslint-disable-line react-hooks/exhaustive-deps
  return (
    <div className="requirement-upload">
      <DocumentUploadForm actor={actor} typeNames={Object.fromEntries(types.map((type) => [type.id, type.name]))} />
      {step === 'done' ? (
        <Button ref={closeRef} variant="secondary" onClick={onClose}>
          {t`Close`}
        </Button>
      ) : null}
    </div>
  );
}
