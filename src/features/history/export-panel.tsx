/**
 * "Export CSV" (document 2 §7): the history of the current filter as a CSV file, through the
 * history export machine: asked for, then its progress polled (a <progress> bar and a polite live
 * status line), then downloaded or sent to the user's sign-in e-mail address (shown, not
 * editable), or a failure with a retry. Reads through history-export.select.ts; sends events only.
 */
import { useEffect, useId, useMemo, useRef } from 'react';
import { useSelector } from '@xstate/react';
import { useFlowActor } from '../../lib/actors.ts';
import type { ActorRefFrom } from 'xstate';
import { Plural, useLingui } from '@lingui/react/macro';
import { historyExportMachine, type HistoryExportMachine } from '../../../machines/history-export/history-export.machine.ts';
import { selectHistoryExportView } from '../../../machines/history-export/history-export.select.ts';
import { Alert } from '../../ui/alert.tsx';
import { Button } from '../../ui/button.tsx';
import { createHistoryExportActors } from './actors.ts';
import type { DownloadAccess } from './download.ts';
import { exportFilterOf, type HistoryFilter } from './filter.ts';
import { useExportErrors, useExportStatusNames, useFileErrors } from './messages.ts';

export interface ExportPanelProps {
  filter: HistoryFilter;
  access: DownloadAccess;
  /** the signed-in user's e-mail (their login); null hides "Send to e-mail" */
  email: string | null;
  /** tests run the machine with their own actors (and send its timer events themselves) */
  actor?: ActorRefFrom<HistoryExportMachine>;
}

export function ExportPanel({ filter, access, email, actor: given }: ExportPanelProps) {
  const { t } = useLingui();
  const id = useId();
  const machine = useMemo(() => historyExportMachine.provide({ actors: createHistoryExportActors(access) }), [access]);
  const own = useFlowActor(machine, { input: {} });
  const actor = given ?? own;
  const view = useSelector(actor, selectHistoryExportView);
  const exportErrors = useExportErrors();
  const fileErrors = useFileErrors();
  const statusNames = useExportStatusNames();
  const exportRef = useRef<HTMLButtonElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const retryRef = useRef<HTMLButtonElement>(null);
  const downloadRef = useRef<HTMLButtonElement>(null);
  const shownStep = useRef(view.step);

  // Each step's main button takes focus when the step comes (the button pressed before is gone
  // or disabled by then): Cancel while waiting, Download when ready, Try again after a failure,
  // Export CSV after a cancel. Nothing moves on the first render.
  useEffect(() => {
    if (shownStep.current === view.step) return;
    shownStep.current = view.step;
    const target = { idle: exportRef, requesting: null, polling: cancelRef, ready: downloadRef, failed: retryRef }[view.step];
    target?.current?.focus();
  }, [view.step]);

  const start = () => actor.send({ type: 'EXPORT.START', filter: exportFilterOf(filter) });
  const rows = view.rowCount ?? 0;
  const percent = view.progress ?? 0;

  /** One polite line that says where the export is (read out when it changes). */
  const statusLine =
    view.step === 'requesting'
      ? t`Asking for the file…`
      : view.step === 'polling'
        ? view.exportStatus === 'processing'
          ? t`Preparing the file: ${percent}%`
          : t`The file is waiting to be prepared.`
        : view.step === 'ready'
          ? t`The file is ready.`
          : '';

  return (
    <section className="history-section" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t`Export`}</h2>
      <p>{t`Download the transactions that match the filter as a CSV file.`}</p>

      {view.step === 'idle' || view.step === 'requesting' ? (
        <Button ref={exportRef} busy={view.step === 'requesting'} onClick={start}>
          {t`Export CSV`}
        </Button>
      ) : null}

      {view.step === 'requesting' || view.step === 'polling' ? (
        <div className="export-progress">
          <label htmlFor={`${id}-progress`}>{t`Export progress`}</label>
          {/* Indeterminate until the platform says how far it is. */}
          <progress id={`${id}-progress`} max={100} value={view.progress === null ? undefined : percent} />
          {view.step === 'polling' ? (
            <Button ref={cancelRef} variant="secondary" onClick={() => actor.send({ type: 'EXPORT.CANCEL' })}>
              {t`Cancel`}
            </Button>
          ) : null}
        </div>
      ) : null}

      <p role="status" aria-live="polite">
        {statusLine}
        {view.step === 'polling' && view.exportStatus ? <span className="visually-hidden"> ({statusNames[view.exportStatus]})</span> : null}
      </p>

      {view.step === 'ready' ? (
        <div>
          <p>
            <Plural value={rows} _0="It holds no transactions." one="It holds # transaction." other="It holds # transactions." />
          </p>
          <div className="actions">
            <Button ref={downloadRef} busy={view.downloading} onClick={() => actor.send({ type: 'FILE.DOWNLOAD' })}>
              {t`Download CSV`}
            </Button>
            <Button variant="secondary" onClick={start}>
              {t`New export`}
            </Button>
          </div>
          {view.downloadError ? (
            <Alert tone="error">
              <p>{fileErrors[view.downloadError.code]}</p>
              {view.downloadError.detail ? <p>{view.downloadError.detail}</p> : null}
            </Alert>
          ) : null}
          {email ? (
            <div className="field">
              <label htmlFor={`${id}-email`}>{t`Your e-mail address`}</label>
              <input id={`${id}-email`} type="email" value={email} readOnly aria-describedby={`${id}-email-hint`} />
              <span id={`${id}-email-hint`} className="field-hint">
                {t`The file is sent to the address you sign in with.`}
              </span>
              <div className="actions">
                <Button variant="secondary" busy={view.sending} onClick={() => actor.send({ type: 'EMAIL.SEND', email })}>
                  {t`Send to e-mail`}
                </Button>
              </div>
            </div>
          ) : null}
          {view.emailSent && view.emailTo ? <SentNotice email={view.emailTo} /> : null}
          {view.emailError ? (
            <Alert tone="error">
              <p>{view.emailError.code === 'network' ? exportErrors.network : t`The file could not be sent.`}</p>
              {view.emailError.detail && view.emailError.code !== 'network' ? <p>{view.emailError.detail}</p> : null}
            </Alert>
          ) : null}
        </div>
      ) : null}

      {view.step === 'failed' && view.error ? (
        <Alert tone="error" title={t`The export did not finish`}>
          <p>{exportErrors[view.error.code]}</p>
          {view.error.detail && view.error.code === 'refused' ? <p>{view.error.detail}</p> : null}
          <div className="actions">
            <Button ref={retryRef} onClick={() => actor.send({ type: 'EXPORT.RETRY' })}>
              {t`Try again`}
            </Button>
          </div>
        </Alert>
      ) : null}
    </section>
  );
}

function SentNotice({ email }: { email: string }) {
  const { t } = useLingui();
  return <Alert tone="success">{t`The file was sent to ${email}.`}</Alert>;
}
