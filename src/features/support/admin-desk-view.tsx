/**
 * The agents' desk in the administrator's area (issue 19 item 3; api/support.ts supportDesk*): the
 * provider's queue by state with its counts, oldest waiting first, 20 a page, optionally only the
 * tickets assigned to the agent; a ticket's page with every thread (the internal notes marked as
 * such), reply or internal note, assign to me, close or close without reply, through the ticket
 * chart (machines/ticket, role agent). Reads are queries (queries.ts); steps are the chart's.
 */
import { useEffect, useMemo, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useLingui } from '@lingui/react/macro';
import { API_VERSION_PATH, CLIENT_VERSION, CLIENT_VERSION_HEADER, REQUEST_TIMEOUT_MS } from '../../../api/http.ts';
import { TICKET_PAGE_SIZE, type Attachment, type TicketState } from '../../../api/support.ts';
import { formatDateTime } from '../../lib/format.ts';
import { getApiOrigin } from '../../lib/api-base.ts';
import { getUiLanguageTag } from '../../lib/i18n.ts';
import { MethodCallError, describeFailure } from '../../lib/request.ts';
import { requestHooks } from '../../lib/request-hooks.ts';
import { useFlowActor } from '../../lib/actors.ts';
import { Alert } from '../../ui/alert.tsx';
import { Badge } from '../../ui/badge.tsx';
import { Button } from '../../ui/button.tsx';
import { DataTable } from '../../ui/data-table.tsx';
import { Switch } from '../../ui/choice-fields.tsx';
import { EmptyState } from '../../ui/empty-state.tsx';
import { ArrowLeftIcon } from '../../ui/icons.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { StepHeading } from '../../ui/step-heading.tsx';
import { Tabs } from '../../ui/tabs.tsx';
import { createAgentTicketLogic } from './actors.ts';
import { deskQueueQuery, deskTicketQuery } from './queries.ts';
import { saveBlob } from './save-blob.ts';
import { TicketConversationView, useStateNames } from './ticket-view.tsx';
import './support.css';

/** The queue's tabs: each a state (closed with closed without reply). */
export const DESK_TABS = ['new', 'open', 'waitingOnAgent', 'waitingOnCustomer', 'closed'] as const;
export type DeskTab = (typeof DESK_TABS)[number];
const STATES_OF: Record<DeskTab, TicketState[]> = {
  new: ['new'],
  open: ['open'],
  waitingOnAgent: ['waitingOnAgent'],
  waitingOnCustomer: ['waitingOnCustomer'],
  closed: ['closed', 'closedNoReply'],
};

/** The agents' download of an attachment: GET /api/v1/support/attachments/{id}/content with the administrator's token (one refresh on 401). */
async function downloadAgentAttachment(attachment: Attachment): Promise<boolean> {
  const url = `${getApiOrigin()}${API_VERSION_PATH}/support/attachments/${attachment.id}/content`;
  const send = () => {
    const headers = new Headers({ Accept: '*/*', 'Accept-Language': getUiLanguageTag(), [CLIENT_VERSION_HEADER]: CLIENT_VERSION });
    const token = requestHooks().getAccessToken();
    if (token) headers.set('Authorization', `Bearer ${token}`);
    return globalThis.fetch(url, { method: 'GET', headers, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) }).catch(() => null);
  };
  let response = await send();
  if (
    response?.status === 401 &&
    (await requestHooks()
      .refresh()
      .catch(() => false))
  )
    response = await send();
  if (!response?.ok) return false;
  saveBlob(await response.blob(), attachment.name);
  return true;
}

export interface AdminDeskViewProps {
  tab: DeskTab;
  ticketId: number | null;
  onTab(tab: DeskTab): void;
  onOpen(ticketId: number | null): void;
  download?(attachment: Attachment): Promise<boolean>;
}

export function AdminDeskView({ tab, ticketId, onTab, onOpen, download = downloadAgentAttachment }: AdminDeskViewProps) {
  const { t } = useLingui();
  if (ticketId !== null)
    return (
      <>
        <Button variant="link" size="sm" onClick={() => onOpen(null)}>
          <ArrowLeftIcon />
          {t`Back to the queue`}
        </Button>
        <DeskTicket ticketId={ticketId} download={download} />
      </>
    );
  return <DeskQueue tab={tab} onTab={onTab} onOpen={onOpen} />;
}

function DeskQueue({ tab, onTab, onOpen }: { tab: DeskTab; onTab(tab: DeskTab): void; onOpen(ticketId: number): void }) {
  const { t } = useLingui();
  const [mine, setMine] = useState(false);
  const [page, setPage] = useState(1);
  const query = useQuery(deskQueueQuery(STATES_OF[tab], mine, page));
  const stateNames = useStateNames();
  const lang = getUiLanguageTag();
  const counts = query.data?.counts ?? {};
  const countOf = (x: DeskTab) => STATES_OF[x].reduce((n, s) => n + (counts[s] ?? 0), 0);
  const names: Record<DeskTab, string> = {
    new: t`New`,
    open: t`Open`,
    waitingOnAgent: t`Waiting for support`,
    waitingOnCustomer: t`Waiting for the customer`,
    closed: t`Closed`,
  };
  const pages = Math.max(1, Math.ceil((query.data?.count ?? 0) / TICKET_PAGE_SIZE));
  const list = query.isPending ? (
    <Spinner label={t`Loading tickets`} />
  ) : query.isError ? (
    <Alert tone="error" title={t`The queue could not be loaded`}>
      <p>{query.error instanceof MethodCallError ? describeFailure(query.error.failure) : t`Unknown error`}</p>
      <Button variant="secondary" size="sm" onClick={() => void query.refetch()}>
        {t`Try again`}
      </Button>
    </Alert>
  ) : query.data.tickets.length === 0 ? (
    <EmptyState headingLevel={3} title={t`No tickets here`} />
  ) : (
    <>
      {/* a DataTable: a list of cards on a phone, each ticket a button that opens it */}
      <DataTable
        caption={t`Tickets, oldest waiting first`}
        hideCaption
        rows={query.data.tickets}
        rowKey={(ticket) => ticket.id}
        onRowClick={(ticket) => onOpen(ticket.id)}
        columns={[
          { header: t`Subject`, render: (ticket) => ticket.subject },
          { header: t`Ticket`, render: (ticket) => `#${ticket.ticketNumber}` },
          { header: t`Customer`, render: (ticket) => ticket.customerName },
          { header: t`State`, render: (ticket) => <Badge tone="info">{stateNames[ticket.state]}</Badge> },
          { header: t`Assigned to`, render: (ticket) => ticket.assignedAgent?.name ?? t`Nobody` },
          { header: t`Last update`, render: (ticket) => formatDateTime(ticket.updatedAt, lang) },
        ]}
      />
      {pages > 1 ? (
        <nav className="support-pages" aria-label={t`Pages`}>
          <Button variant="secondary" size="sm" disabled={page <= 1} onClick={() => setPage(page - 1)}>
            {t`Previous`}
          </Button>
          <span>{t`Page ${page} of ${pages}`}</span>
          <Button variant="secondary" size="sm" disabled={page >= pages} onClick={() => setPage(page + 1)}>
            {t`Next`}
          </Button>
        </nav>
      ) : null}
    </>
  );
  return (
    <>
      <StepHeading>{t`Support desk`}</StepHeading>
      <div className="support-desk-controls">
        <Switch
          label={t`Assigned to me`}
          checked={mine}
          onChange={(on) => {
            setMine(on);
            setPage(1);
          }}
        />
      </div>
      <Tabs
        label={t`Tickets by state`}
        selected={tab}
        onSelect={(id) => {
          onTab(id as DeskTab);
          setPage(1);
        }}
        tabs={DESK_TABS.map((x) => {
          const n = countOf(x);
          return { id: x, label: `${names[x]} (${n})`, content: x === tab ? list : null };
        })}
      />
    </>
  );
}

function DeskTicket({ ticketId, download }: { ticketId: number; download(attachment: Attachment): Promise<boolean> }) {
  const { t } = useLingui();
  const query = useQuery(deskTicketQuery(ticketId));
  const [downloadError, setDownloadError] = useState(false);
  if (query.isPending) return <Spinner label={t`Loading the ticket`} />;
  if (query.isError)
    return (
      <Alert tone="error" title={t`The ticket could not be loaded`}>
        <p>{query.error instanceof MethodCallError ? describeFailure(query.error.failure) : t`Unknown error`}</p>
      </Alert>
    );
  const { ticket, threads } = query.data;
  return (
    <>
      {downloadError ? <Alert tone="error">{<p>{t`The file could not be downloaded. Try again.`}</p>}</Alert> : null}
      <p className="support-meta">
        <span>{t`Customer: ${ticket.customerName}`}</span>
        <span>{ticket.assignedAgent ? t`Assigned to ${ticket.assignedAgent.name}` : t`Not assigned`}</span>
      </p>
      <DeskConversation
        key={ticket.id}
        ticket={ticket}
        threads={threads}
        onDownload={async (a) => {
          setDownloadError(false);
          setDownloadError(!(await download(a)));
        }}
      />
    </>
  );
}

function DeskConversation({
  ticket,
  threads,
  onDownload,
}: {
  ticket: { id: number; state: TicketState; closedAt: string | null; subject: string; ticketNumber: string; customerName: string };
  threads: Parameters<typeof TicketConversationView>[0]['threads'];
  onDownload(a: Attachment): void;
}) {
  const queryClient = useQueryClient();
  const logic = useMemo(() => createAgentTicketLogic({ queryClient }), [queryClient]);
  const actor = useFlowActor(logic, { input: { ticketId: ticket.id, role: 'agent', state: ticket.state, closedAt: ticket.closedAt, nowMs: Date.now() } });
  useEffect(() => {
    const s = actor.getSnapshot();
    if (s.context.state !== ticket.state || s.context.closedAt !== ticket.closedAt) actor.send({ type: 'TICKET.SYNC', state: ticket.state, closedAt: ticket.closedAt });
  }, [actor, ticket.state, ticket.closedAt]);
  return (
    <TicketConversationView
      actor={actor}
      subject={ticket.subject}
      ticketNumber={ticket.ticketNumber}
      threads={threads}
      customerName={ticket.customerName}
      onDownload={(_, a) => onDownload(a)}
    />
  );
}
