/**
 * Opening a support ticket (document 3 §4 Support tickets, §7 Support: POST /uploads, then
 * POST /tickets; issue 19 item 3): the customer writes a subject and a message, attaches files,
 * and sends; the new ticket is then opened.
 *
 * ```
 * editing ─SUBMIT (complete, no rejected file)─▶ creating ─ok─▶ created (final: the page opens it)
 *    ▲  └─SUBMIT (missing, a rejected file)─▶ editing        ├─a file rejected─▶ editing (each file's outcome)
 *    └──────────────────────────────────────────────────────┴─refused / no answer / 429─▶ editing
 * editing ─CANCEL─▶ cancelled (final)
 * ```
 *
 * Each attachment is pending until the desk answers its upload, then uploaded or rejected (its
 * type or size); an uploaded one is not uploaded again by the next attempt.
 */
import { assign, fromPromise, setup } from 'xstate';
import { ATTACHMENTS_MAX, MESSAGE_MAX, SUBJECT_MAX, type Ticket } from '../../api/support.ts';
import type { DraftFile, FileOutcome, TicketCallFailure } from '../ticket/ticket.machine.ts';

export type CreateTicketResult = { ok: true; ticket: Ticket } | TicketCallFailure;
export interface CreateTicketRequest {
  subject: string;
  description: string;
  files: DraftFile[];
}

export type NewTicketEvent =
  | { type: 'SUBJECT.CHANGE'; subject: string }
  | { type: 'DRAFT.CHANGE'; content: string }
  | { type: 'FILES.ADD'; files: { key: string; name: string; size: number; file: Blob }[] }
  | { type: 'FILE.REMOVE'; key: string }
  | { type: 'SUBMIT' }
  | { type: 'CANCEL' };

export interface NewTicketFieldErrors {
  subject: 'missing' | 'long' | null;
  content: 'missing' | 'long' | null;
}
export type NewTicketError = 'rejected' | 'tooMany' | 'conflict' | 'rateLimited' | 'network' | 'failed';

export interface NewTicketContext {
  subject: string;
  content: string;
  files: DraftFile[];
  fieldErrors: NewTicketFieldErrors;
  error: NewTicketError | null;
  detail: string | null;
  ticket: Ticket | null;
}

const NO_ERRORS: NewTicketFieldErrors = { subject: null, content: null };

export function newTicketFieldErrors(c: Pick<NewTicketContext, 'subject' | 'content'>): NewTicketFieldErrors {
  const check = (text: string, max: number) => (text.trim() === '' ? ('missing' as const) : text.trim().length > max ? ('long' as const) : null);
  return { subject: check(c.subject, SUBJECT_MAX), content: check(c.content, MESSAGE_MAX) };
}

function withOutcomes(files: DraftFile[], outcomes: FileOutcome[]): DraftFile[] {
  return files.map((f) => {
    const o = outcomes.find((x) => x.key === f.key);
    return o ? { ...f, status: o.status, uploadId: o.uploadId, reason: o.reason } : f;
  });
}

export const newTicketMachine = setup({
  types: { context: {} as NewTicketContext, events: {} as NewTicketEvent },
  actors: {
    createTicket: fromPromise<CreateTicketResult, CreateTicketRequest>(async () => {
      throw new Error('createTicket is provided by the app');
    }),
  },
  guards: {
    incomplete: ({ context }) => {
      const e = newTicketFieldErrors(context);
      return e.subject !== null || e.content !== null;
    },
    hasRejectedFile: ({ context }) => context.files.some((f) => f.status === 'rejected'),
    isOk: (_, r: CreateTicketResult) => r.ok,
    isRejected: (_, r: CreateTicketResult) => !r.ok && r.code === 'rejected',
  },
  actions: {
    setSubject: assign(({ context }, subject: string) => ({ subject, fieldErrors: { ...context.fieldErrors, subject: null } })),
    setContent: assign(({ context }, content: string) => ({ content, fieldErrors: { ...context.fieldErrors, content: null } })),
    addFiles: assign(({ context }, files: { key: string; name: string; size: number; file: Blob }[]) => {
      const room = ATTACHMENTS_MAX - context.files.length;
      const added = files.slice(0, Math.max(room, 0)).map((f) => ({ ...f, status: 'pending' as const, uploadId: null, reason: null }));
      return { files: [...context.files, ...added], error: files.length > room ? ('tooMany' as const) : null, detail: null };
    }),
    removeFile: assign(({ context }, key: string) => ({ files: context.files.filter((f) => f.key !== key), error: null, detail: null })),
    showFieldErrors: assign(({ context }) => ({ fieldErrors: newTicketFieldErrors(context), error: null, detail: null })),
    setRejectedError: assign({ error: 'rejected' as const, detail: null }),
    clearErrors: assign({ fieldErrors: NO_ERRORS, error: null, detail: null }),
    storeTicket: assign((_, r: CreateTicketResult) => (r.ok ? { ticket: r.ticket } : {})),
    storeRejected: assign(({ context }, r: CreateTicketResult) =>
      !r.ok && r.code === 'rejected' ? { files: withOutcomes(context.files, r.files), error: 'rejected' as const } : {},
    ),
    storeFailure: assign((_, r: CreateTicketResult) =>
      r.ok || r.code === 'rejected' ? {} : r.code === 'failed' ? { error: 'failed' as const, detail: r.detail } : { error: r.code, detail: null },
    ),
    setNetworkError: assign({ error: 'network' as const, detail: null }),
  },
}).createMachine({
  id: 'newTicket',
  description: 'The customer opens a support ticket: a subject, a message and attachments (uploaded first, each pending, uploaded or rejected); the new ticket is then opened.',
  meta: { spec: ['document 3 §4', 'document 3 §7'] },
  context: { subject: '', content: '', files: [], fieldErrors: NO_ERRORS, error: null, detail: null, ticket: null },
  initial: 'editing',
  states: {
    editing: {
      description: 'The customer writes the subject and the message and attaches files.',
      meta: { spec: ['document 3 §4'] },
      on: {
        'SUBJECT.CHANGE': { actions: { type: 'setSubject', params: ({ event }) => event.subject }, description: 'The customer writes the subject.' },
        'DRAFT.CHANGE': { actions: { type: 'setContent', params: ({ event }) => event.content }, description: 'The customer writes the message.' },
        'FILES.ADD': {
          actions: { type: 'addFiles', params: ({ event }) => event.files },
          description: `The customer attaches files (at most ${ATTACHMENTS_MAX}; more are not taken and the customer is told); each is pending until sent.`,
        },
        'FILE.REMOVE': { actions: { type: 'removeFile', params: ({ event }) => event.key }, description: 'The customer removes an attached file.' },
        SUBMIT: [
          { guard: 'incomplete', actions: 'showFieldErrors', description: 'The subject or the message is missing or too long: the customer is told and nothing is sent.' },
          { guard: 'hasRejectedFile', actions: 'setRejectedError', description: 'A rejected file is still attached: it must be removed first.' },
          { target: 'creating', actions: 'clearErrors', description: 'The ticket is sent.' },
        ],
        CANCEL: { target: 'cancelled', description: 'The customer gives up the new ticket.' },
      },
    },
    creating: {
      description: 'The attachments are uploaded (POST /uploads, each pending, then uploaded or rejected), then the ticket is created (POST /tickets).',
      meta: { spec: ['document 3 §7'] },
      tags: ['busy'],
      invoke: {
        id: 'createTicket',
        src: 'createTicket',
        input: ({ context }) => ({ subject: context.subject.trim(), description: context.content.trim(), files: context.files }),
        onDone: [
          {
            guard: { type: 'isOk', params: ({ event }) => event.output },
            target: 'created',
            actions: { type: 'storeTicket', params: ({ event }) => event.output },
            description: 'The ticket is created.',
          },
          {
            guard: { type: 'isRejected', params: ({ event }) => event.output },
            target: 'editing',
            actions: { type: 'storeRejected', params: ({ event }) => event.output },
            description: 'The desk refused a file (its type or size): no ticket was created; each file shows its outcome.',
          },
          {
            target: 'editing',
            actions: { type: 'storeFailure', params: ({ event }) => event.output },
            description: 'The desk refused, did not answer or answered 429: nothing was created, the text is kept.',
          },
        ],
        onError: { target: 'editing', actions: 'setNetworkError', description: 'The call failed without an answer.' },
      },
    },
    created: { type: 'final', description: 'The ticket is created; the page opens it.' },
    cancelled: { type: 'final', description: 'The customer gave up; the page shows the list again.' },
  },
});

export type NewTicketMachine = typeof newTicketMachine;
