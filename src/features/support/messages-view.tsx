/**
 * /messages (document 3 §2, §4, §7; issue 19 item 3): the customer's support tickets, 20 a page,
 * filtered all / open / new / closed, the new ones marked unread (document 3 §3's customer-read-at:
 * the desk's statusId); the selected ticket's conversation beside the list on a wide screen, in its
 * place on a phone (support.css); a new ticket with attachments. A business user's tickets are the
 * acting company's (the desk token is the company's: desk-client.ts).
 *
 * When support cannot be read the page says so and offers to try again; after a 429 it waits for
 * the support timer's tick (SUPPORT_TIMER_MS) and tries again by itself (the failure flag,
 * desk-client.ts). The provider's support e-mail is offered as another way to reach support.
 */
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useSelector } from '@xstate/react';
import { Plural, useLingui } from '@lingui/react/macro';
import {
  ATTACHMENTS_MAX,
  CUSTOMER_FILTERS,
  SUPPORT_TIMER_MS,
  TICKET_PAGE_SIZE,
  type CustomerTicketFilter,
  type Thread,
  type Attachment,
  type Ticket,
} from '../../../api/support.ts';
import type { NewTicketMachine } from '../../../machines/new-ticket/new-ticket.machine.ts';
import { formatDateTime } from '../../lib/format.ts';
import { getUiLanguageTag } from '../../lib/i18n.ts';
import { useFlowActor } from '../../lib/actors.ts';
import { Alert } from '../../ui/alert.tsx';
import { Badge } from '../../ui/badge.tsx';
import { Button, ButtonGroup } from '../../ui/button.tsx';
import { EmptyState } from '../../ui/empty-state.tsx';
import { Field } from '../../ui/field.tsx';
import { ArrowLeftIcon, PlusIcon } from '../../ui/icons.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { StepHeading } from '../../ui/step-heading.tsx';
import { Tabs } from '../../ui/tabs.tsx';
import { TextField } from '../../ui/text-field.tsx';
import type { ActorRefFrom } from 'xstate';
import { createCustomerTicketLogic, createNewTicketLogic, markTicketRead } from './actors.ts';
import { deskClient, deskPath, type DeskClient } from './desk-client.ts';
import { DESK_PATHS } from '../../../api/support.ts';
import { SupportReadError, conversationQuery, supportAgentQuery, supportStatsQuery, ticketQuery, ticketsQuery } from './queries.ts';
import { DraftFileList, TicketConversationView, draftFilesOf } from './ticket-view.tsx';
import { saveBlob } from './save-blob.ts';
import './support.css';

/** How often an open conversation is read again (a reply from an agent shows up on its own). */
const CONVERSATION_REFRESH_MS = 30_000;
/** How many pages of all tickets are walked to find a ticket named by its number in the address. */
const FIND_PAGES_MAX = 10;

export interface MessagesViewProps {
  actingCustomerId: number | null;
  /** the ticket in the address (?ticketNumber) */
  ticketNumber: string | null;
  onOpen(ticketNumber: string | null): void;
  client?: DeskClient;
}

/** The ticket a number names, looked up page by page in all tickets (the desk reads tickets by id). */
function useTicketByNumber(acting: number | null, ticketNumber: string | null, client: DeskClient) {
  return useQuery({
    queryKey: ['support', 'byNumber', acting, ticketNumber],
    enabled: ticketNumber !== null,
    retry: false,
    queryFn: async (): Promise<Ticket | null> => {
      for (let page = 1; page <= FIND_PAGES_MAX; page++) {
        const r = await ticketsQuery(acting, 'all', page, client).queryFn!({} as never);
        const hit = r.data.find((x) => x.ticketNumber === ticketNumber);
        if (hit) return hit;
        if (page * TICKET_PAGE_SIZE >= r.count) break;
      }
      return null;
    },
  });
}

/** Waits for the support timer's tick after a 429, then tries again (the failure flag lets one request through). */
function useRetryAfterTick(error: unknown, retry: () => void) {
  const limited = error instanceof SupportReadError && error.failure.code === 'rateLimited';
  useEffect(() => {
    if (!limited) return;
    const timer = setTimeout(retry, SUPPORT_TIMER_MS);
    return () => clearTimeout(timer);
  }, [limited, retry, error]);
  return limited;
}

function Unavailable({ error, onRetry, email }: { error: unknown; onRetry(): void; email: string | null }) {
  const { t } = useLingui();
  const limited = useRetryAfterTick(error, onRetry);
  return (
    <Alert tone={limited ? 'warning' : 'error'} title={limited ? t`Support is busy` : t`Support is not available right now`}>
      <p>{limited ? t`Trying again in a moment.` : t`Try again in a few minutes.`}</p>
      {email ? (
        <p>
          {t`You can also write to`} <a href={`mailto:${email}`}>{email}</a>
        </p>
      ) : null}
      <Button variant="secondary" size="sm" onClick={onRetry}>
        {t`Try again`}
      </Button>
    </Alert>
  );
}

export function MessagesView({ actingCustomerId, ticketNumber, onOpen, client = deskClient }: MessagesViewProps) {
  const { t } = useLingui();
  const [filter, setFilter] = useState<CustomerTicketFilter>('all');
  const [page, setPage] = useState(1);
  const [composing, setComposing] = useState(false);
  const agent = useQuery(supportAgentQuery(actingCustomerId, client));
  // the tickets with something new (zoho/tickets/stats: unreadTicketNumbers; none when support cannot be read)
  const unread = useQuery(supportStatsQuery(actingCustomerId, client)).data?.unreadTicketNumbers.length ?? 0;
  const email = agent.data?.supportEmail ?? null;
  const selected = useTicketByNumber(actingCustomerId, ticketNumber, client);
  const listHeading = useRef<HTMLHeadingElement>(null);
  const open = ticketNumber !== null || composing;

  const filterNames: Record<CustomerTicketFilter, string> = { all: t`All`, open: t`Open`, new: t`New`, closed: t`Closed` };
  const back = () => {
    setComposing(false);
    onOpen(null);
    requestAnimationFrame(() => listHeading.current?.focus());
  };

  return (
    <div className="support-page">
      <div className="support-layout" data-open={open}>
        <section className="support-list-pane" aria-labelledby="support-list-title">
          <div className="support-list-header">
            <h1 id="support-list-title" ref={listHeading} tabIndex={-1} className="step-heading">
              {t`Messages`}
            </h1>
            {unread > 0 ? (
              <Badge tone="info">
                <Plural value={unread} one="# unread" other="# unread" />
              </Badge>
            ) : null}
            <Button size="sm" onClick={() => (setComposing(true), onOpen(null))}>
              <PlusIcon />
              {t`New ticket`}
            </Button>
          </div>
          {agent.data?.agent ? <p className="support-meta">{t`Your support contact: ${agent.data.agent.name}`}</p> : null}
          <Tabs
            label={t`Show tickets`}
            selected={filter}
            onSelect={(id) => {
              setFilter(id as CustomerTicketFilter);
              setPage(1);
            }}
            tabs={CUSTOMER_FILTERS.map((f) => ({
              id: f,
              label: filterNames[f],
              content: (
                <TicketList
                  acting={actingCustomerId}
                  filter={f}
                  page={page}
                  onPage={setPage}
                  selected={ticketNumber}
                  onOpen={(n) => (setComposing(false), onOpen(n))}
                  email={email}
                  client={client}
                />
              ),
            }))}
          />
          {email ? (
            <p className="support-meta">
              {t`Prefer e-mail? Write to`} <a href={`mailto:${email}`}>{email}</a>
            </p>
          ) : null}
        </section>
        <div className="support-detail-pane">
          {open ? (
            <Button variant="link" size="sm" className="support-back" onClick={back}>
              <ArrowLeftIcon />
              {t`Back to messages`}
            </Button>
          ) : null}
          {composing ? (
            <NewTicketPane
              client={client}
              onCreated={(ticket) => {
                setComposing(false);
                onOpen(ticket.ticketNumber);
              }}
              onCancel={back}
            />
          ) : ticketNumber === null ? (
            <EmptyState title={t`Choose a ticket`} text={t`Its conversation is shown here.`} />
          ) : selected.isPending ? (
            <Spinner label={t`Loading the ticket`} />
          ) : selected.isError ? (
            <Unavailable error={selected.error} onRetry={() => void selected.refetch()} email={email} />
          ) : selected.data === null ? (
            <EmptyState title={t`Ticket not found`} text={t`Ticket ${ticketNumber} is not among your tickets.`} />
          ) : (
            <TicketPane
              key={selected.data.id}
              acting={actingCustomerId}
              ticket={selected.data}
              client={client}
              email={email}
              onOpenNew={() => (onOpen(null), setComposing(true))}
            />
          )}
        </div>
      </div>
    </div>
  );
}

function TicketList({
  acting,
  filter,
  page,
  onPage,
  selected,
  onOpen,
  email,
  client,
}: {
  acting: number | null;
  filter: CustomerTicketFilter;
  page: number;
  onPage(page: number): void;
  selected: string | null;
  onOpen(ticketNumber: string): void;
  email: string | null;
  client: DeskClient;
}) {
  const { t } = useLingui();
  const query = useQuery(ticketsQuery(acting, filter, page, client));
  const lang = getUiLanguageTag();
  if (query.isPending) return <Spinner label={t`Loading tickets`} />;
  if (query.isError) return <Unavailable error={query.error} onRetry={() => void query.refetch()} email={email} />;
  const { data, count } = query.data;
  if (count === 0) return <EmptyState headingLevel={3} title={filter === 'all' ? t`No tickets yet` : t`No tickets here`} text={t`Write to us with New ticket.`} />;
  const pages = Math.max(1, Math.ceil(count / TICKET_PAGE_SIZE));
  const statusOf = (s: Ticket['statusId']) =>
    s === 'new' ? { tone: 'info' as const, text: t`New` } : s === 'closed' ? { tone: 'neutral' as const, text: t`Closed` } : { tone: 'success' as const, text: t`Open` };
  return (
    <>
      <ul className="support-tickets" aria-label={t`Tickets`}>
        {data.map((ticket) => {
          const status = statusOf(ticket.statusId);
          const unread = ticket.statusId === 'new';
          return (
            <li key={ticket.id}>
              <button
                type="button"
                className="support-ticket"
                data-unread={unread}
                aria-current={selected === ticket.ticketNumber ? 'true' : undefined}
                onClick={() => onOpen(ticket.ticketNumber)}
              >
                <span className="support-ticket-subject">
                  {unread ? <span className="visually-hidden">{t`Unread:`} </span> : null}
                  {ticket.subject}
                </span>
                <span className="support-ticket-meta">
                  <span>#{ticket.ticketNumber}</span>
                  <Badge tone={status.tone}>{status.text}</Badge>
                  <time dateTime={ticket.updatedAt}>{formatDateTime(ticket.updatedAt, lang)}</time>
                </span>
              </button>
            </li>
          );
        })}
      </ul>
      {pages > 1 ? (
        <nav className="support-pages" aria-label={t`Pages`}>
          <Button variant="secondary" size="sm" disabled={page <= 1} onClick={() => onPage(page - 1)}>
            {t`Previous`}
          </Button>
          <span>{t`Page ${page} of ${pages}`}</span>
          <Button variant="secondary" size="sm" disabled={page >= pages} onClick={() => onPage(page + 1)}>
            {t`Next`}
          </Button>
        </nav>
      ) : null}
    </>
  );
}

/** The selected ticket: its conversation (read again every CONVERSATION_REFRESH_MS), marked read once opened. */
function TicketPane({ acting, ticket: listed, client, email, onOpenNew }: { acting: number | null; ticket: Ticket; client: DeskClient; email: string | null; onOpenNew(): void }) {
  const { t } = useLingui();
  const queryClient = useQueryClient();
  const fresh = useQuery({ ...ticketQuery(acting, listed.id, client), refetchInterval: CONVERSATION_REFRESH_MS });
  const ticket = fresh.data ?? listed;
  const threads = useQuery({ ...conversationQuery(acting, listed.id, client), refetchInterval: CONVERSATION_REFRESH_MS });
  const logic = useMemo(() => createCustomerTicketLogic({ client, queryClient }), [client, queryClient]);
  const actor = useFlowActor(logic, { input: { ticketId: listed.id, role: 'customer', state: ticket.state, closedAt: ticket.closedAt, nowMs: Date.now() } });
  const [downloadError, setDownloadError] = useState(false);
  const readSent = useRef(false);

  // the page follows the desk's state (an agent answered or closed the ticket meanwhile)
  useEffect(() => {
    const s = actor.getSnapshot();
    if (s.context.state !== ticket.state || s.context.closedAt !== ticket.closedAt) actor.send({ type: 'TICKET.SYNC', state: ticket.state, closedAt: ticket.closedAt });
  }, [actor, ticket.state, ticket.closedAt]);
  // a conflict: the ticket is read again
  const conflict = useSelector(actor, (s) => s.context.error === 'conflict');
  useEffect(() => {
    if (conflict) void fresh.refetch();
  }, [conflict, fresh]);
  // reading the conversation marks the ticket read (it stops counting as new)
  useEffect(() => {
    if (readSent.current || !threads.isSuccess || ticket.statusId !== 'new') return;
    readSent.current = true;
    void markTicketRead(listed.id, { client, queryClient });
  }, [threads.isSuccess, ticket.statusId, listed.id, client, queryClient]);

  const download = async (thread: Thread, attachment: Attachment) => {
    setDownloadError(false);
    const r = await client.desk<Blob>({ method: 'GET', path: deskPath(DESK_PATHS.attachmentContent, { id: listed.id, threadId: thread.id, attachmentId: attachment.id }) });
    if (r.ok) saveBlob(r.value, attachment.name);
    else setDownloadError(true);
  };

  if (threads.isPending) return <Spinner label={t`Loading the conversation`} />;
  if (threads.isError) return <Unavailable error={threads.error} onRetry={() => void threads.refetch()} email={email} />;
  return (
    <>
      {downloadError ? <Alert tone="error">{<p>{t`The file could not be downloaded. Try again.`}</p>}</Alert> : null}
      <TicketConversationView
        actor={actor}
        subject={ticket.subject}
        ticketNumber={ticket.ticketNumber}
        threads={threads.data}
        onDownload={(th, a) => void download(th, a)}
        onOpenNew={onOpenNew}
      />
    </>
  );
}

function NewTicketPane({ client, onCreated, onCancel }: { client: DeskClient; onCreated(ticket: Ticket): void; onCancel(): void }) {
  const queryClient = useQueryClient();
  const logic = useMemo(() => createNewTicketLogic({ client, queryClient }), [client, queryClient]);
  const actor = useFlowActor(logic);
  return <NewTicketView actor={actor} onCreated={onCreated} onCancel={onCancel} />;
}

/** The new ticket's form (machines/new-ticket): a thin view. */
export function NewTicketView({ actor, onCreated, onCancel }: { actor: ActorRefFrom<NewTicketMachine>; onCreated(ticket: Ticket): void; onCancel(): void }) {
  const { t } = useLingui();
  const id = useId();
  const s = useSelector(actor, (snap) => snap);
  const c = s.context;
  const busy = s.hasTag('busy');
  const done = useRef(false);
  useEffect(() => {
    if (done.current) return;
    if (s.matches('created') && c.ticket) {
      done.current = true;
      onCreated(c.ticket);
    } else if (s.matches('cancelled')) {
      done.current = true;
      onCancel();
    }
  }, [s, c.ticket, onCreated, onCancel]);
  const fieldError = (e: 'missing' | 'long' | null, which: 'subject' | 'content') =>
    e === 'missing' ? (which === 'subject' ? t`Enter a subject.` : t`Write your message.`) : e === 'long' ? t`This is too long.` : undefined;
  const errorText = {
    rejected: t`Remove the rejected files, then send again.`,
    tooMany: t`At most ${ATTACHMENTS_MAX} files can be attached.`,
    conflict: t`Support did not accept this.`,
    rateLimited: t`Support is busy. Try again in a moment.`,
    network: t`Support did not answer. Check your connection and try again.`,
    failed: c.detail ?? t`Support did not accept this.`,
  };
  return (
    <form
      className="support-new"
      noValidate
      aria-labelledby={`${id}-title`}
      onSubmit={(e) => {
        e.preventDefault();
        actor.send({ type: 'SUBMIT' });
      }}
    >
      <StepHeading level={2} id={`${id}-title`}>
        {t`New ticket`}
      </StepHeading>
      <TextField
        label={t`Subject`}
        name="subject"
        value={c.subject}
        onChange={(subject) => actor.send({ type: 'SUBJECT.CHANGE', subject })}
        error={fieldError(c.fieldErrors.subject, 'subject')}
        disabled={busy}
        maxLength={255}
      />
      <Field label={t`Your message`} error={fieldError(c.fieldErrors.content, 'content')}>
        {(control) => (
          <textarea {...control} name="message" rows={5} value={c.content} disabled={busy} onChange={(e) => actor.send({ type: 'DRAFT.CHANGE', content: e.currentTarget.value })} />
        )}
      </Field>
      <Field label={t`Attach files`} hint={t`PDF, JPEG or PNG, up to ${ATTACHMENTS_MAX} files.`}>
        {(control) => (
          <input
            {...control}
            type="file"
            name="files"
            multiple
            accept="application/pdf,image/jpeg,image/png"
            disabled={busy}
            onChange={(e) => {
              const files = draftFilesOf(e.currentTarget.files);
              e.currentTarget.value = '';
              if (files.length) actor.send({ type: 'FILES.ADD', files });
            }}
          />
        )}
      </Field>
      <DraftFileList files={c.files} onRemove={(key) => actor.send({ type: 'FILE.REMOVE', key })} disabled={busy} />
      {c.error ? <Alert tone="error">{<p>{errorText[c.error]}</p>}</Alert> : null}
      <ButtonGroup>
        <Button type="submit" busy={busy}>
          {t`Send`}
        </Button>
        <Button variant="secondary" disabled={busy} onClick={() => actor.send({ type: 'CANCEL' })}>
          {t`Cancel`}
        </Button>
      </ButtonGroup>
    </form>
  );
}
