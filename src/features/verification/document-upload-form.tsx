/**
 * The upload of one document (machines/document-upload): the document type, the front page, the
 * back or the registration stamp page when the type needs one, the details (the document number
 * when the category needs one, the issue and expiry dates), a review, then the upload. Errors sit
 * on their field (the client checks and the platform's VF answer alike); a failed upload offers a
 * retry. Each step's heading takes focus when the step comes (StepHeading). Reads through
 * document-upload.select.ts; sends events only (the detail fields keep what is typed until
 * Continue sends it).
 */
import { useId, useMemo, useState } from 'react';
import { useSelector } from '@xstate/react';
import { useFlowActor } from '../../lib/actors.ts';
import { fromPromise, type ActorRefFrom } from 'xstate';
import { useLingui } from '@lingui/react/macro';
import { DOCUMENT_NUMBER_MAX } from '../../../api/documents.ts';
import { ACCEPTED_DOCUMENT_TYPES } from '../../../api/verification.ts';
import {
  documentUploadMachine,
  type DocumentUploadInput,
  type DocumentUploadMachine,
  type UploadRequest,
  type UploadResult,
} from '../../../machines/document-upload/document-upload.machine.ts';
import type { FieldError, UploadFile } from '../../../machines/document-upload/document-upload.rules.ts';
import { selectDocumentUploadView } from '../../../machines/document-upload/document-upload.select.ts';
import { Alert } from '../../ui/alert.tsx';
import { Button } from '../../ui/button.tsx';
import { Field } from '../../ui/field.tsx';
import { SelectField } from '../../ui/select-field.tsx';
import { StepHeading } from '../../ui/step-heading.tsx';
import { TextField } from '../../ui/text-field.tsx';
import { useFieldErrorMessages, useSecondPageNames } from './messages.ts';
import { RetryAlert, useStepControls } from '../../ui/step-controls.tsx';
import { validationMessage } from '../../lib/validation-messages.ts';
import type { ValidationError } from '../../../api/envelope.ts';

export interface DocumentUploadFormProps {
  actor: ActorRefFrom<DocumentUploadMachine>;
  /** the document types' names (from the document type dictionary), by id */
  typeNames: Readonly<Record<number, string>>;
}

/** The form's own actor with the real upload call (the requirement's page provides it). */
export function useDocumentUpload(input: DocumentUploadInput, upload: (request: UploadRequest, signal: AbortSignal) => Promise<UploadResult>) {
  // The upload call is read once, when the actor starts.
  const machine = useMemo(() => documentUploadMachine.provide({ actors: { uploadDocument: fromPromise(({ input: request, signal }) => upload(request, signal)) } }), []); // eslint-disable-line react-hooks/exhaustive-deps
  return useFlowActor(machine, { input });
}

const ACCEPT = ACCEPTED_DOCUMENT_TYPES.join(',');

const fileOf = (file: File): UploadFile => ({ name: file.name, size: file.size, type: file.type, content: file });

export function DocumentUploadForm({ actor, typeNames }: DocumentUploadFormProps) {
  const { t } = useLingui();
  const id = useId();
  const view = useSelector(actor, selectDocumentUploadView);
  const errorTexts = useFieldErrorMessages();
  const secondPageNames = useSecondPageNames();
  const [typeId, setTypeId] = useState(view.type ? String(view.type.id) : '');
  const [number, setNumber] = useState(view.details.number);
  const [issuedDate, setIssuedDate] = useState(view.details.issuedDate);
  const [expiresDate, setExpiresDate] = useState(view.details.expiresDate);


  const errorText = (e: FieldError | undefined): string | undefined => (e ? (e.code === 'platform' ? (e.error ? validationMessage(e.error) : (e.detail ?? undefined)) : errorTexts[e.code]) : undefined);
  const typeName = view.type ? (typeNames[view.type.id] ?? String(view.type.id)) : '';
  const { submit, back, cancel } = useStepControls(actor, view);
  /** the platform's errors of no field, with the form */
  const otherErrors =
    view.uploadError && view.step !== 'failed' ? (
      <Alert tone="error" title={t`The document was not uploaded`}>
        {view.uploadError.code === 'refused' && view.uploadError.detail ? <Lines text={refusalText(view.uploadError)} /> : null}
      </Alert>
    ) : null;

  const fileStep = (field: 'front' | 'secondPage') => {
    const kept = field === 'front' ? view.front : view.second;
    const label =
      field === 'front' ? (view.secondPage ? t`Front page` : t`Document file`) : view.secondPage ? secondPageNames[view.secondPage] : t`Document file`;
    return (
      <form key={field} onSubmit={submit(() => actor.send({ type: 'NEXT' }))} noValidate>
        <StepHeading level={2}>{field === 'front' ? (view.secondPage ? t`Upload the front page` : t`Upload the document`) : view.secondPage === 'back' ? t`Upload the back side` : t`Upload the registration stamp page`}</StepHeading>
        <p>{typeName}</p>
        {otherErrors}
        <Field label={label} hint={t`JPEG, PNG or PDF, up to 10 MB.`} error={errorText(view.fieldErrors[field])}>
          {(control) => (
            <input
              {...control}
              key={field}
              type="file"
              name={field}
              accept={ACCEPT}
              onChange={(e) => {
                const file = e.currentTarget.files?.[0];
                if (file) actor.send({ type: 'FILE.CHOOSE', file: fileOf(file) });
              }}
            />
          )}
        </Field>
        {kept && view.canKeepFile ? <p>{t`Chosen: ${kept.name}`}</p> : null}
        <div className="actions">
          {view.canKeepFile ? <Button type="submit">{t`Continue`}</Button> : null}
          {back}
          {cancel}
        </div>
      </form>
    );
  };

  switch (view.step) {
    case 'choosingType':
      return (
        <form onSubmit={submit(() => actor.send({ type: 'TYPE.CHOOSE', typeId: Number(typeId) }))} noValidate aria-labelledby={`${id}-title`}>
          <StepHeading level={2} id={`${id}-title`}>{t`Choose the document`}</StepHeading>
          {otherErrors}
          <SelectField
            label={t`Document type`}
            name="documentType"
            value={typeId}
            onChange={setTypeId}
            placeholder={t`Choose a document type`}
            options={view.types.map((type) => ({ value: String(type.id), label: typeNames[type.id] ?? String(type.id) }))}
            error={errorText(view.fieldErrors.documentType)}
          />
          <div className="actions">
            <Button type="submit">{t`Continue`}</Button>
            {cancel}
          </div>
        </form>
      );
    case 'front':
      return fileStep('front');
    case 'secondPage':
      return fileStep('secondPage');
    case 'details':
      return (
        <form onSubmit={submit(() => actor.send({ type: 'DETAILS.SUBMIT', details: { number, issuedDate, expiresDate } }))} noValidate>
          <StepHeading level={2}>{view.numberRequired ? t`Document details` : t`Document dates`}</StepHeading>
          {otherErrors}
          {view.numberRequired ? (
            <TextField
              label={t`Document number`}
              name="documentNumber"
              value={number}
              onChange={setNumber}
              required
              maxLength={DOCUMENT_NUMBER_MAX}
              autoComplete="off"
              hint={t`As printed on the document.`}
              error={errorText(view.fieldErrors.number)}
            />
          ) : null}
          <TextField label={t`Issue date`} name="issuedDate" type="date" value={issuedDate} onChange={setIssuedDate} required error={errorText(view.fieldErrors.issuedDate)} />
          <TextField
            label={t`Expiry date`}
            name="expiresDate"
            type="date"
            value={expiresDate}
            onChange={setExpiresDate}
            required={view.expiryRequired}
            hint={view.expiryRequired ? undefined : t`Leave empty if the document has no expiry date.`}
            error={errorText(view.fieldErrors.expiresDate)}
          />
          <div className="actions">
            <Button type="submit">{t`Continue`}</Button>
            {back}
            {cancel}
          </div>
        </form>
      );
    case 'review':
    case 'uploading':
    case 'failed':
      return (
        <div>
          <StepHeading level={2}>{t`Check and upload`}</StepHeading>
          <dl className="facts">
            <dt>{t`Document type`}</dt>
            <dd>{typeName}</dd>
            {view.numberRequired ? (
              <>
                <dt>{t`Document number`}</dt>
                <dd>{view.details.number.trim()}</dd>
              </>
            ) : null}
            <dt>{view.secondPage ? t`Front page` : t`Document file`}</dt>
            <dd>{view.front?.name}</dd>
            {view.secondPage ? (
              <>
                <dt>{secondPageNames[view.secondPage]}</dt>
                <dd>{view.second?.name}</dd>
              </>
            ) : null}
            <dt>{t`Issue date`}</dt>
            <dd>{view.details.issuedDate}</dd>
            <dt>{t`Expiry date`}</dt>
            <dd>{view.details.expiresDate || t`None`}</dd>
          </dl>
          {view.step === 'failed' && view.uploadError ? (
            <RetryAlert actor={actor} title={t`The document was not uploaded`}>
              <p>{view.uploadError.code === 'network' ? t`The connection failed. Try again.` : t`The upload was refused.`}</p>
              {view.uploadError.code === 'refused' && view.uploadError.detail ? <Lines text={refusalText(view.uploadError)} /> : null}
            </RetryAlert>
          ) : null}
          <div className="actions">
            {view.step === 'failed' ? null : (
              <Button busy={view.busy} onClick={() => actor.send({ type: 'SUBMIT' })}>
                {t`Upload`}
              </Button>
            )}
            {back}
            {cancel}
          </div>
        </div>
      );
    case 'done':
      return (
        <Alert tone="success" title={t`The document was uploaded`}>
          <p>{t`We will check it and let you know.`}</p>
        </Alert>
      );
    case 'canceled':
      return <p role="status">{t`The upload was canceled.`}</p>;
  }
}

/** A refusal in the customer's words: each VF error by its code, else the platform's text. */
function refusalText(failure: { detail: string | null; errors?: readonly ValidationError[] }): string {
  return failure.errors && failure.errors.length > 0 ? failure.errors.map(validationMessage).join('\n') : (failure.detail ?? '');
}

/** The words, one paragraph per line. */
function Lines({ text }: { text: string }) {
  return (
    <>
      {text.split('\n').map((line, i) => (
        <p key={i}>{line}</p>
      ))}
    </>
  );
}
