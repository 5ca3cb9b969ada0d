/**
 * One ticket's conversation and what may be done with it (machines/ticket; document 3 §4, §7): the
 * threads oldest first as a list (each an article with its author and time as its heading, the
 * agents' internal notes marked as such), their attachments downloaded with a press, and below
 * them the reply box with attachments (each file pending, uploaded or rejected with its reason),
 * close with a confirmation, reopen with a message within the window or else a new ticket; for an
 * agent also "internal note" and "assign to me". A thin view: reads ticket.select.ts, sends events.
 * A reply that arrives while the page is open is announced politely.
 */
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useSelector } from '@xstate/react';
import { useLingui } from '@lingui/react/macro';
import type { ActorRefFrom } from 'xstate';
import { ATTACHMENTS_MAX, type Attachment, type Thread, type TicketState } from '../../../api/support.ts';
import { DOCUMENT_MAX_BYTES } from '../../../api/documents.ts';
import type { DraftFile, TicketMachine } from '../../../machines/ticket/ticket.machine.ts';
import { selectTicketView } from '../../../machines/ticket/ticket.select.ts';
import { formatDateTime } from '../../lib/format.ts';
import { getUiLanguageTag } from '../../lib/i18n.ts';
import { Alert } from '../../ui/alert.tsx';
import { Badge, type BadgeTone } from '../../ui/badge.tsx';
import { Button, ButtonGroup } from '../../ui/button.tsx';
import { Switch } from '../../ui/choice-fields.tsx';
import { Dialog } from '../../ui/dialog.tsx';
import { Field } from '../../ui/field.tsx';
import { DownloadIcon } from '../../ui/icons.tsx';
import { StepHeading } from '../../ui/step-heading.tsx';

let fileSerial = 0;
/** The chosen files as the charts take them (each with the page's own key). */
export function draftFilesOf(list: FileList | null): { key: string; name: string; size: number; file: Blob }[] {
  return Array.from(list ?? []).map((file) => ({ key: `f${++fileSerial}`, name: file.name, size: file.size, file }));
}

export function useStateNames(): Record<TicketState, string> {
  const { t } = useLingui();
  return {
    new: t`New`,
    open: t`Open`,
    waitingOnCustomer: t`Waiting for the customer`,
    waitingOnAgent: t`Waiting for support`,
    closed: t`Closed`,
    closedNoReply: t`Closed without reply`,
  };
}

/** The files of a draft with their upload state (document 3 §4: uploaded, rejected, pending). */
export function DraftFileList({ files, onRemove, disabled }: { files: readonly DraftFile[]; onRemove(key: string): void; disabled: boolean }) {
  const { t } = useLingui();
  if (files.length === 0) return null;
  const maxMb = DOCUMENT_MAX_BYTES / 1_000_000;
  const status = (f: DraftFile): { tone: BadgeTone; text: string } =>
    f.status === 'uploaded' ? { tone: 'success', text: t`Uploaded` } : f.status === 'rejected' ? { tone: 'danger', text: t`Rejected` } : { tone: 'neutral', text: t`Pending` };
  const reason = (f: DraftFile) =>
    f.reason === 'type'
      ? t`This type of file is not accepted: use PDF, JPEG or PNG.`
      : f.reason === 'size'
        ? t`The file is too large: at most ${maxMb} MB.`
        : t`The file was not accepted.`;
  return (
    <ul className="support-files" aria-label={t`Attached files`}>
      {files.map((f) => {
        const s = status(f);
        return (
          <li key={f.key} className="support-file">
            <span className="support-file-name">{f.name}</span>
            <Badge tone={s.tone}>{s.text}</Badge>
            {f.status === 'rejected' ? <span className="field-error">{reason(f)}</span> : null}
            <Button variant="link" size="sm" onClick={() => onRemove(f.key)} disabled={disabled} aria-label={t`Remove ${f.name}`}>
              {t`Remove`}
            </Button>
          </li>
        );
      })}
    </ul>
  );
}

export interface TicketConversationProps {
  actor: ActorRefFrom<TicketMachine>;
  subject: string;
  ticketNumber: string;
  threads: readonly Thread[];
  /** the customer's own name is "You"; an agent sees the customer's name */
  customerName?: string;
  onDownload(thread: Thread, attachment: Attachment): void;
  /** a closed ticket past its window: the customer opens a new ticket */
  onOpenNew?(): void;
}

export function TicketConversationView({ actor, subject, ticketNumber, threads, customerName, onDownload, onOpenNew }: TicketConversationProps) {
  const { t } = useLingui();
  const view = useSelector(actor, selectTicketView);
  const stateNames = useStateNames();
  const lang = getUiLanguageTag();
  const ids = useId();
  const agent = view.role === 'agent';

  // a reply from the other side that arrives while the page is open is announced (politely)
  const [announcement, setAnnouncement] = useState('');
  const seen = useRef(threads.length);
  useEffect(() => {
    if (threads.length > seen.current) {
      const last = threads.at(-1);
      const fromOtherSide = last && (agent ? last.author.kind === 'customer' : last.author.kind === 'agent');
      if (last && fromOtherSide) setAnnouncement(t`New message from ${last.author.name}`);
    }
    seen.current = threads.length;
  }, [threads, agent, t]);

  const author = (thread: Thread) => (thread.author.kind === 'customer' ? (agent ? (customerName ?? thread.author.name) : t`You`) : thread.author.name);
  const errorText = {
    empty: t`Write a message first.`,
    rejected: t`Remove the rejected files, then send again.`,
    tooMany: t`At most ${ATTACHMENTS_MAX} files can be attached.`,
    conflict: t`The ticket changed meanwhile. It has been loaded again.`,
    rateLimited: t`Support is busy. Try again in a moment.`,
    network: t`Support did not answer. Check your connection and try again.`,
    failed: view.detail ?? t`Support did not accept this.`,
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    actor.send({ type: 'SEND' });
  };
  const composer = (mode: 'reply' | 'reopen') => (
    <form className="support-composer" onSubmit={submit} noValidate aria-labelledby={`${ids}-composer`}>
      <h3 id={`${ids}-composer`} className="visually-hidden">
        {mode === 'reopen' ? t`Reopen with a message` : agent && view.internal ? t`Internal note` : t`Reply`}
      </h3>
      {agent && mode === 'reply' ? (
        <Switch
          label={t`Internal note (not shown to the customer)`}
          checked={view.internal}
          onChange={(internal) => actor.send({ type: 'INTERNAL.CHANGE', internal })}
          disabled={view.busy}
        />
      ) : null}
      <Field
        label={mode === 'reopen' ? t`Your message to reopen the ticket` : agent && view.internal ? t`Note` : t`Your message`}
        error={view.error === 'empty' ? errorText.empty : undefined}
      >
        {(control) => (
          <textarea
            {...control}
            name="message"
            rows={3}
            value={view.content}
            disabled={view.busy}
            onChange={(e) => actor.send({ type: 'DRAFT.CHANGE', content: e.currentTarget.value })}
          />
        )}
      </Field>
      {agent ? null : (
        <Field label={t`Attach files`} hint={t`PDF, JPEG or PNG, up to ${ATTACHMENTS_MAX} files.`}>
          {(control) => (
            <input
              {...control}
              type="file"
              name="files"
              multiple
              accept="application/pdf,image/jpeg,image/png"
              disabled={view.busy}
              onChange={(e) => {
                const files = draftFilesOf(e.currentTarget.files);
                e.currentTarget.value = '';
                if (files.length) actor.send({ type: 'FILES.ADD', files });
              }}
            />
          )}
        </Field>
      )}
      <DraftFileList files={view.files} onRemove={(key) => actor.send({ type: 'FILE.REMOVE', key })} disabled={view.busy} />
      {view.error && view.error !== 'empty' ? <Alert tone="error">{<p>{errorText[view.error]}</p>}</Alert> : null}
      <ButtonGroup>
        <Button type="submit" busy={view.step === 'sending' || view.step === 'reopening'}>
          {mode === 'reopen' ? t`Reopen with a message` : agent && view.internal ? t`Add the note` : t`Send`}
        </Button>
      </ButtonGroup>
    </form>
  );

  return (
    <section className="support-conversation" aria-labelledby={`${ids}-title`}>
      <header className="support-conversation-header">
        <StepHeading level={2} id={`${ids}-title`}>
          {subject}
        </StepHeading>
        <p className="support-meta">
          <span>{t`Ticket ${ticketNumber}`}</span> <Badge tone={view.closed ? 'neutral' : 'info'}>{stateNames[view.state]}</Badge>
        </p>
        <ButtonGroup>
          {view.canAssign ? (
            <Button variant="secondary" size="sm" busy={view.step === 'assigning'} onClick={() => actor.send({ type: 'ASSIGN' })}>
              {t`Assign to me`}
            </Button>
          ) : null}
          {view.canClose ? (
            <Button variant="secondary" size="sm" disabled={view.busy} onClick={() => actor.send({ type: 'CLOSE' })}>
              {t`Close the ticket`}
            </Button>
          ) : null}
          {agent && view.canCloseNoReply ? (
            <Button variant="secondary" size="sm" disabled={view.busy} onClick={() => actor.send({ type: 'CLOSE.NO_REPLY' })}>
              {t`Close without reply`}
            </Button>
          ) : null}
        </ButtonGroup>
      </header>
      <div className="visually-hidden" aria-live="polite" role="status">
        {announcement}
      </div>
      <ol className="support-threads" aria-label={t`Conversation`}>
        {threads.map((thread) => {
          const mine = agent ? thread.author.kind === 'agent' : thread.author.kind === 'customer';
          const internal = thread.visibility === 'internal';
          return (
            <li key={thread.id} className="support-thread" data-mine={mine} data-internal={internal}>
              <article aria-labelledby={`${ids}-t${thread.id}`}>
                <h3 id={`${ids}-t${thread.id}`} className="support-thread-author">
                  {author(thread)}
                  {internal ? (
                    <>
                      {' '}
                      <Badge tone="warning">{t`Internal note`}</Badge>
                    </>
                  ) : null}
                </h3>
                <p className="support-thread-time">
                  <time dateTime={thread.createdAt}>{formatDateTime(thread.createdAt, lang)}</time>
                </p>
                <p className="support-thread-text">{thread.content}</p>
                {thread.attachments.length > 0 ? (
                  <ul className="support-attachments" aria-label={t`Attachments`}>
                    {thread.attachments.map((a) => (
                      <li key={a.id}>
                        <Button variant="link" size="sm" onClick={() => onDownload(thread, a)} aria-label={t`Download ${a.name}`}>
                          <DownloadIcon />
                          {a.name}
                        </Button>
                      </li>
                    ))}
                  </ul>
                ) : null}
              </article>
            </li>
          );
        })}
      </ol>
      {view.canMessage ? composer('reply') : null}
      {view.canReopen ? composer('reopen') : null}
      {view.mustOpenNew ? (
        <div className="support-closed">
          <p>{t`This ticket is closed. To ask something more, open a new ticket.`}</p>
          {onOpenNew ? (
            <Button variant="secondary" onClick={onOpenNew}>
              {t`Open a new ticket`}
            </Button>
          ) : null}
        </div>
      ) : null}
      {view.closed && agent ? <p>{t`This ticket is closed.`}</p> : null}
      <Dialog
        open={view.step === 'confirmingClose' || view.step === 'closing'}
        title={view.noReply ? t`Close without reply?` : t`Close the ticket?`}
        onClose={() => actor.send({ type: 'CLOSE.CANCEL' })}
        actions={
          <>
            <Button variant="secondary" disabled={view.busy} onClick={() => actor.send({ type: 'CLOSE.CANCEL' })}>
              {t`Keep it open`}
            </Button>
            <Button busy={view.step === 'closing'} onClick={() => actor.send({ type: 'CLOSE.CONFIRM' })}>
              {t`Close`}
            </Button>
          </>
        }
      >
        <p>
          {view.noReply
            ? t`The customer did not answer. The ticket is closed without reply.`
            : agent
              ? t`The ticket is closed.`
              : t`You can reopen it with a message within 30 days.`}
        </p>
      </Dialog>
      {!view.canMessage && !view.canReopen && view.error && view.step === 'idle' ? <Alert tone="error">{<p>{errorText[view.error]}</p>}</Alert> : null}
    </section>
  );
}
