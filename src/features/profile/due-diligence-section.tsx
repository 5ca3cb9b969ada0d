/**
 * Due diligence on /profile (document 1 §4: "Due-diligence levels 1 and 4 cause the due-diligence
 * info to be loaded"; §7 dueDiligenceInfoGet, customerJumioDocumentCreate with isDueDiligence 1). The
 * view renders this section, and so makes the call, only for those levels (DUE_DILIGENCE_LEVELS).
 *
 * It says what the provider asks for: a proof of address (when the review requires one) and the
 * document types the administrator named, each with the state of what was uploaded in words, the
 * documents sent for the review as a table, and an upload (DocumentUploadForm, the document-upload
 * statechart, the one real upload call with isDueDiligence 1) for whatever is missing, refused or
 * expired. A finished upload reads the profile and the verification status again.
 *
 * Not shown in the spec: the wording, and the financial info (annual income, net worth...), which
 * the administrator records and the customer does not edit: a bank does not echo those figures
 * back on a screen, so they are left out. The levels' own meanings are not told to the customer
 * either; level 1 and 4 read the same ("we review your account more closely").
 */
import { useEffect, useMemo, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useSelector } from '@xstate/react';
import { useLingui } from '@lingui/react/macro';
import type { DocumentState } from '../../../api/verification.ts';
import { DocumentCategory } from '../../../api/verification.ts';
import type { DocumentUploadInput } from '../../../machines/document-upload/document-upload.machine.ts';
import { selectDocumentUploadStep } from '../../../machines/document-upload/document-upload.select.ts';
import type { UploadDocumentType } from '../../../machines/document-upload/document-upload.rules.ts';
import { Button } from '../../ui/button.tsx';
import { DocumentUploadForm, useDocumentUpload } from '../verification/document-upload-form.tsx';
import { documentTypeIndex, uploadInputFor } from '../verification/document-types.ts';
import { uploadStateOf, useUploadStateTexts, type UploadState } from '../verification/status-messages.ts';
import { uploadDocument } from '../verification/upload-document.ts';
import { DocumentList } from './document-list.tsx';
import { useDocumentStateNames } from './messages.ts';
import { documentTypesQuery, dueDiligenceInfoQuery, invalidateAfterChange } from './queries.ts';
import { Loaded, ProfileSection } from './section.tsx';

/** The due-diligence levels for which the info is loaded and the section shown (document 1 §4). */
export const DUE_DILIGENCE_LEVELS: ReadonlySet<number> = new Set([1, 4]);

/** A requirement's upload is offered while nothing valid is on file for it. */
const UPLOADABLE_STATE: ReadonlySet<UploadState> = new Set(['none', 'rejected', 'expired']);
const ADDRESS_UPLOADABLE: ReadonlySet<DocumentState> = new Set(['none', 'rejected', 'expired', 'expiredSoon']);

const ADDRESS_KEY = 'address';
const buttonId = (key: string) => `due-diligence-upload-${key}`;

export function DueDiligenceSection({
  acting,
  today,
  residenceCountryCode,
  customerType,
}: {
  acting: number | null;
  today: string;
  residenceCountryCode: string | null;
  customerType: 'personal' | 'business';
}) {
  const { t, i18n } = useLingui();
  const info = useQuery(dueDiligenceInfoQuery(acting));
  const dictionary = useQuery(documentTypesQuery(i18n.locale));
  const stateNames = useDocumentStateNames();
  const uploadTexts = useUploadStateTexts();
  /** the requirement being uploaded: ADDRESS_KEY or the document type id */
  const [uploading, setUploading] = useState<string | null>(null);
  /** after a panel closes, its opening button takes focus again */
  const [returnFocus, setReturnFocus] = useState<string | null>(null);
  useEffect(() => {
    if (returnFocus === null) return;
    // The button is gone once the upload is in review: the section's heading then.
    (document.getElementById(buttonId(returnFocus)) ?? document.querySelector<HTMLElement>('#dueDiligence h2'))?.focus();
    setReturnFocus(null);
  }, [returnFocus]);

  const categories = dictionary.data?.customerDocumentCategories;
  const index = useMemo(() => documentTypeIndex(categories ?? []), [categories]);
  const addressCategory = customerType === 'business' ? DocumentCategory.businessAddress : DocumentCategory.address;
  /** The proof-of-address types offered to this customer (some only to residents of some countries). */
  const addressTypes = useMemo(() => {
    const category = categories?.find((c) => c.id === addressCategory);
    const offered = (category?.customerDocumentTypes ?? []).filter((ty) => !ty.countryCodes || (residenceCountryCode !== null && ty.countryCodes.includes(residenceCountryCode)));
    return {
      types: offered.map((ty): UploadDocumentType => ({ id: ty.id, secondPage: ty.secondPage ?? (ty.needsBack ? 'back' : null) })),
      names: Object.fromEntries(offered.map((ty) => [ty.id, ty.name])) as Record<number, string>,
    };
  }, [categories, addressCategory, residenceCountryCode]);

  const close = (key: string) => {
    setUploading(null);
    setReturnFocus(key);
  };
  const open = (key: string, label: string, name: string) =>
    uploading === key ? null : (
      <div className="actions">
        <Button id={buttonId(key)} variant="secondary" disabled={!dictionary.data || uploading !== null} onClick={() => setUploading(key)} aria-label={label}>
          {name}
        </Button>
      </div>
    );

  return (
    <ProfileSection id="dueDiligence" title={t`Due diligence`}>
      <Loaded query={info}>
        {(dd) => {
          const nothingAsked = !dd.address.required && dd.document.requiredDocumentTypeIds.length === 0;
          return (
            <>
              <p>{t`We are reviewing your account more closely, as the law requires of us from time to time. Please send us what is asked below.`}</p>
              <dl className="facts">
                <dt>{t`Proof of address`}</dt>
                <dd>{dd.address.required ? stateNames[dd.address.status] : t`Not required`}</dd>
                <dt>{t`Supporting documents`}</dt>
                <dd>{dd.document.requiredDocumentTypeIds.length > 0 ? stateNames[dd.document.status] : t`Not required`}</dd>
              </dl>
              {nothingAsked ? <p>{t`Nothing is needed from you at the moment. We will let you know if we need a document.`}</p> : null}

              {dd.address.required && ADDRESS_UPLOADABLE.has(dd.address.status) ? (
                <>
                  <p>{t`Send a recent proof of the address you live at, such as a utility bill or a bank statement.`}</p>
                  {open(ADDRESS_KEY, t`Upload a proof of address`, t`Upload a proof of address`)}
                  {uploading === ADDRESS_KEY ? (
                    <DueDiligenceUpload
                      key={ADDRESS_KEY}
                      input={{ categoryId: addressCategory, types: addressTypes.types, expiryRequired: false, today }}
                      typeNames={addressTypes.names}
                      onClose={() => close(ADDRESS_KEY)}
                    />
                  ) : null}
                </>
              ) : null}

              {dd.document.requiredDocumentTypeIds.length > 0 ? (
                <>
                  <h3>{t`Documents we ask for`}</h3>
                  <ul className="profile-list">
                    {dd.document.requiredDocumentTypeIds.map((typeId) => {
                      const key = String(typeId);
                      const name = index.get(typeId)?.name ?? t`Document type ${typeId}`;
                      const uploads = dd.uploadedDocuments.filter((d) => !d.isSubDocument && d.documentTypeId === typeId);
                      const state = uploadStateOf(uploads);
                      const latest = [...uploads].sort((a, b) => (a.uploaded < b.uploaded ? 1 : -1))[0];
                      return (
                        <li key={typeId}>
                          <p className="profile-item-main">{name}</p>
                          <p>{uploadTexts[state]}</p>
                          {state === 'rejected' && latest?.rejectReason ? <p>{t`Reason: ${latest.rejectReason}`}</p> : null}
                          {UPLOADABLE_STATE.has(state) ? open(key, t`Upload ${name}`, t`Upload`) : null}
                          {uploading === key ? (
                            <DueDiligenceUpload key={key} input={uploadInputFor(index, typeId, today)} typeNames={{ [typeId]: name }} onClose={() => close(key)} />
                          ) : null}
                        </li>
                      );
                    })}
                  </ul>
                </>
              ) : null}

              {dd.uploadedDocuments.length > 0 ? <DocumentList documents={dd.uploadedDocuments} label={t`Documents sent for the review`} /> : null}
            </>
          );
        }}
      </Loaded>
    </ProfileSection>
  );
}

/** One upload for the review: the form until it is done or canceled; a cancel closes it. */
function DueDiligenceUpload({ input, typeNames, onClose }: { input: DocumentUploadInput; typeNames: Record<number, string>; onClose(): void }) {
  const { t } = useLingui();
  const client = useQueryClient();
  const actor = useDocumentUpload(input, async (request) => {
    const result = await uploadDocument(request, { isDueDiligence: 1 });
    if (result.ok) await invalidateAfterChange(client);
    return result;
  });
  const step = useSelector(actor, selectDocumentUploadStep);
  useEffect(() => {
    if (step === 'canceled') onClose();
  }, [step]); // eslint-disable-line react-hooks/exhaustive-deps
  return (
    <div className="profile-panel">
      <DocumentUploadForm actor={actor} typeNames={typeNames} />
      {step === 'done' ? (
        <div className="actions">
          <Button variant="secondary" onClick={onClose}>
            {t`Close`}
          </Button>
        </div>
      ) : null}
    </div>
  );
}
