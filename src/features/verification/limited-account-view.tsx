/**
 * /limited-account (document 1 §2, §4 "Account restriction reasons shown"): why the account is
 * limited (customerLimitReasonGet: expired documents, unpaid invoice, sanctions, adverse media,
 * account investigation) in words, each reason with the documents it requires, the state of what
 * was uploaded for each, and the upload of a missing or refused one (DocumentUploadForm, the
 * document-upload statechart, with the real customerJumioDocumentCreate). A finished upload refreshes
 * the reasons and the status banner (verificationQueryKey).
 */
import { useEffect, useRef, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { useLingui } from '@lingui/react/macro';
import { MethodCallError, describeFailure } from '../../lib/request.ts';
import { getUiLanguage } from '../../lib/i18n.ts';
import { Alert } from '../../ui/alert.tsx';
import { Button } from '../../ui/button.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { StepHeading } from '../../ui/step-heading.tsx';
import { DocumentUploadForm, useDocumentUpload } from './document-upload-form.tsx';
import { documentTypeIndex, todayIso, uploadInputFor, type DocumentTypeFacts } from './document-types.ts';
import { documentTypesQuery, limitReasonsQuery, verificationQueryKey } from './queries.ts';
import { uploadStateOf, useLimitReasonTexts, useUploadStateTexts, type UploadState } from './status-messages.ts';
import { uploadDocument } from './upload-document.ts';

export interface LimitedAccountViewProps {
  actingCustomerId: number | null;
}

/** States in which the customer can (and should) upload the document. */
const UPLOADABLE: ReadonlySet<UploadState> = new Set(['none', 'rejected', 'expired']);

export function LimitedAccountView({ actingCustomerId }: LimitedAccountViewProps) {
  const { t } = useLingui();
  const reasons = useQuery(limitReasonsQuery(actingCustomerId));
  const types = useQuery(documentTypesQuery(getUiLanguage()));
  const reasonTexts = useLimitReasonTexts();
  const stateTexts = useUploadStateTexts();
  /** the requirement being uploaded: `${actionTypeId}:${documentTypeId}` */
  const [uploading, setUploading] = useState<string | null>(null);
  const index = types.data ? documentTypeIndex(types.data.customerDocumentCategories) : new Map<number, DocumentTypeFacts>();

  return (
    <>
      <StepHeading>{t`Account limits`}</StepHeading>
      {reasons.isPending ? (
        <Spinner label={t`Loading the account limits`} />
      ) : reasons.isError ? (
        <Alert tone="error" title={t`The account limits could not be loaded`}>
          <p>{reasons.error instanceof MethodCallError ? describeFailure(reasons.error.failure) : t`Unknown error`}</p>
          <Button variant="secondary" onClick={() => void reasons.refetch()}>
            {t`Try again`}
          </Button>
        </Alert>
      ) : !reasons.data.limited ? (
        <>
          <p>{t`Your account is not limited.`}</p>
          <p>
            <Link to="/home">{t`Go to the home page`}</Link>
          </p>
        </>
      ) : (
        <>
          <p>{t`Your account is limited for the reasons below. Some services stay unavailable until the limit is lifted.`}</p>
          {types.isError ? <Alert tone="warning" title={t`The document names could not be loaded`} /> : null}
          {reasons.data.reasons.map((reason) => (
            <section key={reason.actionTypeId} className="limit-reason" aria-labelledby={`limit-reason-${reason.actionTypeId}`}>
              <h2 id={`limit-reason-${reason.actionTypeId}`}>{reasonTexts[reason.reason].title}</h2>
              <p>{reasonTexts[reason.reason].text}</p>
              {reason.requirementDocuments.length === 0 ? (
                <p>{t`No documents are needed from you for this.`}</p>
              ) : (
                <ul className="requirement-list">
                  {reason.requirementDocuments.map((requirement) => {
                    const key = `${reason.actionTypeId}:${requirement.documentTypeId}`;
                    const state = uploadStateOf(requirement.uploadedDocuments);
                    const name = index.get(requirement.documentTypeId)?.name ?? t`Document type ${requirement.documentTypeId}`;
                    const latest = [...requirement.uploadedDocuments].sort((a, b) => (a.uploaded < b.uploaded ? 1 : -1))[0];
                    return (
                      <li key={key}>
                        <h3>{name}</h3>
                        <p>{stateTexts[state]}</p>
                        {state === 'rejected' && latest?.rejectReason ? <p>{t`Reason: ${latest.rejectReason}`}</p> : null}
                        {uploading === key ? (
                          <RequirementUpload
                            input={uploadInputFor(index, requirement.documentTypeId, todayIso())}
                            typeNames={{ [requirement.documentTypeId]: name }}
                            onClose={() => setUploading(null)}
                          />
                        ) : UPLOADABLE.has(state) && types.isSuccess ? (
                          <Button variant="secondary" onClick={() => setUploading(key)} aria-label={t`Upload ${name}`}>
                            {t`Upload`}
                          </Button>
                        ) : null}
                      </li>
                    );
                  })}
                </ul>
              )}
            </section>
          ))}
        </>
      )}
    </>
  );
}

/** One requirement's upload: the form until it is done or canceled. */
function RequirementUpload({ input, typeNames, onClose }: { input: ReturnType<typeof uploadInputFor>; typeNames: Record<number, string>; onClose(): void }) {
  const { t } = useLingui();
  const queryClient = useQueryClient();
  const actor = useDocumentUpload(input, (request) => uploadDocument(request));
  const step = useSelector(actor, (s) => (s.matches('done') ? 'done' : s.matches('canceled') ? 'canceled' : 'editing'));
  const closeRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (step === 'done') {
      // The reasons (the document now in review) and the banner read the new state.
      void queryClient.invalidateQueries({ queryKey: verificationQueryKey });
      closeRef.current?.focus();
    }
    if (step === 'canceled') onClose();
  }, [step]); // eslint-disable-line react-hooks/exhaustive-deps

  return (
    <div className="requirement-upload">
      <DocumentUploadForm actor={actor} typeNames={typeNames} />
      {step === 'done' ? (
        <Button ref={closeRef} variant="secondary" onClick={onClose}>
          {t`Close`}
        </Button>
      ) : null}
    </div>
  );
}
