/**
 * The built-in e-signature's signing page (issue 18 item 3; server/modules/esign): the document to
 * sign (the PDF in a frame, its title and page count, a link to open or download it: a browser
 * without a PDF viewer shows no frame), then the signer's typed name, a drawn signature or the
 * typed name adopted as the signature (the keyboard way, WCAG 2.5.7), the consent, and Sign; then
 * the envelope's next document, or back to the app. A thin view of machines/e-signature: reads
 * e-signature.select.ts, sends events. Each step's heading takes focus (StepHeading, keyed by the
 * step). Purpose-neutral: the document's title says what it is (a tax form, a contract).
 */
import { useEffect, useMemo, useRef } from 'react';
import { useSelector } from '@xstate/react';
import { useLingui } from '@lingui/react/macro';
import type { ActorRefFrom } from 'xstate';
import { TYPED_NAME_LIMITS } from '../../../api/esign.ts';
import type { ESignatureMachine, NameProblem } from '../../../machines/e-signature/e-signature.machine.ts';
import { selectESignatureView } from '../../../machines/e-signature/e-signature.select.ts';
import { useFlowActor } from '../../lib/actors.ts';
import { describeFailure } from '../../lib/request.ts';
import { Alert } from '../../ui/alert.tsx';
import { Button } from '../../ui/button.tsx';
import { DownloadIcon } from '../../ui/icons.tsx';
import { CheckboxField } from '../../ui/choice-fields.tsx';
import { Skeleton } from '../../ui/skeleton.tsx';
import { StepHeading } from '../../ui/step-heading.tsx';
import { TextField } from '../../ui/text-field.tsx';
import { createESignatureLogic, esignPdfUrl } from './esign-actors.ts';
import { SignaturePad } from './signature-pad.tsx';
import './esign.css';

/** The signing page of one sign URL, with the app's actors (the route's entry point). */
export function ESignature({ token, signedIn, onReturn }: { token: string; signedIn: boolean; onReturn(path: string): void }) {
  const logic = useMemo(() => createESignatureLogic(), []);
  const actor = useFlowActor(logic, { input: { token, signedIn } });
  return <ESignatureView actor={actor} onReturn={onReturn} pdfUrl={esignPdfUrl} />;
}

export function ESignatureView({ actor, onReturn, pdfUrl }: { actor: ActorRefFrom<ESignatureMachine>; onReturn(path: string): void; pdfUrl(token: string): string }) {
  const { t } = useLingui();
  const view = useSelector(actor, selectESignatureView);
  const returned = useRef(false);
  useEffect(() => {
    if (view.step !== 'returning' || returned.current) return;
    returned.current = true;
    onReturn(view.returnPath);
  }, [view.step, view.returnPath, onReturn]);

  const doc = view.document;
  const position = doc?.position ?? 0;
  const count = doc?.count ?? 0;
  const pageCount = doc?.pageCount ?? 0;
  const title = doc?.title ?? '';
  const place = doc && doc.count > 1 ? t`Document ${position} of ${count}` : null;
  // "Pages: n": no plural form to choose (Russian and Ukrainian have three)
  const pages = doc ? t`Pages: ${pageCount}` : null;
  const facts = doc ? [place, pages].filter(Boolean).join(' · ') : '';
  const signer = view.envelope?.signerName ?? '';
  const pdfLink = doc ? (
    <a className="esign-pdf-link" href={pdfUrl(view.token)} target="_blank" rel="noopener noreferrer">
      <DownloadIcon className="esign-pdf-link-icon" />
      {doc.signed ? t`Download the signed copy (PDF)` : t`Open or download the document (PDF)`}
    </a>
  ) : null;
  /** the document as a file: its name, pages and link (a phone's browser shows no PDF in a frame) */
  const fileRow = doc ? (
    <div className="esign-file">
      <span className="esign-file-name">{doc.fileName}</span>
      <span className="esign-file-facts">{facts}</span>
      {pdfLink}
    </div>
  ) : null;

  const nameError = (p: NameProblem | null): string | undefined => {
    const min = TYPED_NAME_LIMITS.min;
    const max = TYPED_NAME_LIMITS.max;
    switch (p) {
      case 'missing':
        return t`Type your full name.`;
      case 'short':
        return t`Your name needs at least ${min} characters.`;
      case 'long':
        return t`Your name can have at most ${max} characters.`;
      case 'control':
        return t`Remove the invisible control characters from your name.`;
      default:
        return undefined;
    }
  };
  const failureText = view.failure ? describeFailure(view.failure) : null;

  const nextOrFinish = (
    <div className="actions">
      {view.hasNext ? (
        <Button onClick={() => actor.send({ type: 'NEXT' })}>{t`Sign the next document`}</Button>
      ) : (
        <Button onClick={() => actor.send({ type: 'FINISH' })}>{t`Finish`}</Button>
      )}
    </div>
  );

  let heading: string;
  let body;
  switch (view.step) {
    case 'loading':
      heading = t`Sign a document`;
      body = <Skeleton lines={3} label={t`Loading the document`} />;
      break;
    case 'failed':
      heading = t`Sign a document`;
      body = (
        <>
          <Alert tone="error" title={view.loadFailure?.code === 'notFound' ? t`This signing link is not valid.` : t`We could not load the document.`}>
            <p>
              {view.loadFailure?.code === 'notFound'
                ? t`Check that you opened the whole link from your message, or ask for a new one.`
                : view.loadFailure?.code === 'failed' && view.loadFailure.failure
                  ? describeFailure(view.loadFailure.failure)
                  : t`No answer came. Check your connection and try again.`}
            </p>
          </Alert>
          {view.loadFailure?.code === 'notFound' ? null : (
            <div className="actions">
              <Button variant="secondary" onClick={() => actor.send({ type: 'LOAD.RETRY' })}>
                {t`Try again`}
              </Button>
            </div>
          )}
        </>
      );
      break;
    case 'reviewing':
      heading = doc?.title ?? t`Sign a document`;
      body = (
        <>
          <p>{t`Read the document before you sign it. It is signed as ${signer}.`}</p>
          <div className="esign-pdf">{doc ? <iframe className="esign-pdf-frame" src={pdfUrl(view.token)} title={doc.title} /> : null}</div>
          {fileRow}
          <div className="actions">
            <Button onClick={() => actor.send({ type: 'REVIEW.CONTINUE' })}>{t`Continue to sign`}</Button>
          </div>
        </>
      );
      break;
    case 'signing':
      heading = t`Sign the document`;
      body = (
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            actor.send({ type: 'SIGN' });
          }}
        >
          <p className="esign-subject">{doc?.title}</p>
          {fileRow}
          {view.error === 'network' ? (
            <Alert tone="error">{t`The document was not signed: no answer came. Check your connection and sign again.`}</Alert>
          ) : view.error === 'failed' ? (
            <Alert tone="error">{failureText ?? t`The document could not be signed.`}</Alert>
          ) : null}
          <TextField
            label={t`Your full name`}
            name="typedName"
            value={view.typedName}
            onChange={(typedName) => actor.send({ type: 'NAME.CHANGE', typedName })}
            autoComplete="name"
            maxLength={TYPED_NAME_LIMITS.max + 20}
            required
            error={nameError(view.fieldErrors.typedName)}
            disabled={view.busy}
          />
          <SignaturePad
            strokes={view.strokes}
            onStroke={(stroke) => actor.send({ type: 'STROKE.ADD', stroke })}
            onClear={() => actor.send({ type: 'PAD.CLEAR' })}
            adoptedName={view.adopt ? view.typedName.trim() : null}
            disabled={view.busy}
            error={view.fieldErrors.signature ? t`Draw your signature, or use your typed name as your signature.` : undefined}
          />
          <CheckboxField
            label={t`Use my typed name as my signature`}
            checked={view.adopt}
            onChange={(adopt) => actor.send({ type: 'ADOPT.CHANGE', adopt })}
            name="adopt"
            disabled={view.busy}
          />
          <CheckboxField
            label={t`I agree that my electronic signature is the legal equivalent of my handwritten signature on this document.`}
            checked={view.consent}
            onChange={(consent) => actor.send({ type: 'CONSENT.CHANGE', consent })}
            name="consent"
            required
            error={view.fieldErrors.consent ? t`Agree to sign electronically to continue.` : undefined}
            disabled={view.busy}
          />
          <p className="esign-note">{t`When you sign, the time, your IP address and your browser are recorded with the signed document.`}</p>
          <div className="actions">
            <Button type="submit" busy={view.submitting} disabled={view.busy}>
              {t`Sign`}
            </Button>
            <Button variant="secondary" onClick={() => actor.send({ type: 'SIGNING.BACK' })} disabled={view.busy}>
              {t`Back to the document`}
            </Button>
          </div>
        </form>
      );
      break;
    case 'signed':
      heading = t`Document signed`;
      body = (
        <>
          <Alert tone="success">{doc ? t`You signed ${title}.` : t`The document is signed.`}</Alert>
          {fileRow}
          <p>{view.hasNext ? t`Another document is waiting for your signature.` : t`Every document is signed.`}</p>
          {nextOrFinish}
        </>
      );
      break;
    case 'alreadySigned':
      heading = t`Already signed`;
      body = (
        <>
          <Alert tone="info">{doc ? t`${title} is signed already.` : t`This document is signed already.`}</Alert>
          {fileRow}
          {view.hasNext ? <p>{t`Another document is waiting for your signature.`}</p> : null}
          {nextOrFinish}
        </>
      );
      break;
    case 'expired':
      heading = t`This signing link no longer works`;
      body = (
        <Alert tone="warning">
          <p>
            {view.envelope?.status === 'voided'
              ? t`A newer request replaced it. Use the latest link you received, or start again in the app.`
              : t`Signing links work for seven days. Start again in the app to get a new one.`}
          </p>
        </Alert>
      );
      break;
    case 'done':
    case 'returning':
      heading = t`All documents are signed`;
      body = <Alert tone="success">{t`Thank you. Your signed documents are saved. You can close this page.`}</Alert>;
      break;
  }

  return (
    <section className="esign-page" aria-busy={view.busy || undefined}>
      <p className="esign-kicker">{t`Electronic signature`}</p>
      <StepHeading key={`${view.step}-${view.token}`}>{heading}</StepHeading>
      {body}
    </section>
  );
}
