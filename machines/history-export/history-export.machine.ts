/**
 * The CSV export of the transaction history (document 2 §7 "Export returns exportId. Export status
 * by exportId. Export send to email"; api/history.ts transactionHistoryExport*).
 *
 * ```
 * idle ─EXPORT.START (filter)─▶ requesting ─ok─▶ polling.waiting ─after pollDelay─▶ polling.checking
 *   ▲                              │                 ▲                                   │
 *   │                              │                 └──── queued / processing (progress)┘
 *   │                              │                        done ─▶ ready ; failed ─▶ failed (exportFailed)
 *   │                              └─refused / error─▶ failed ◀── check refused / error / poll limit
 *   └─EXPORT.CANCEL (polling; the request itself is short and not cancelled)
 * ready: idle ─FILE.DOWNLOAD─▶ downloading ─▶ idle (downloadError on failure)
 *             ─EMAIL.SEND (email)─▶ sending ─▶ idle (emailSent, or emailError)
 * failed ─EXPORT.RETRY─▶ polling.checking (the export is still there: a check failed)
 *                     └▶ requesting        (the export failed or was never made)
 * ready / failed ─EXPORT.START (filter)─▶ requesting (a new export)
 * ```
 *
 * The status is asked every second at first, then less often (×1.5 per check, at most every 5 s),
 * for at most MAX_STATUS_CHECKS checks (about ten minutes); past that the export is `timedOut`,
 * and a retry goes on asking about the same export. A check that fails (no answer) also keeps the
 * exportId, so a retry does not make a second export. Pure: the four calls are actors the app
 * provides (src/features/history/actors.ts); errors are codes, with the platform's own text as
 * `detail` when it gave one (views translate the codes).
 */
import { assign, fromPromise, setup } from 'xstate';
import type { RequestOf } from '../../api/method.ts';
import type { HistoryExport, transactionHistoryExport } from '../../api/history.ts';

/** The export request's filter (the history filter under the export's names: amountFrom, type...). */
export type ExportFilter = Omit<RequestOf<typeof transactionHistoryExport>, 'lang' | 'fromCustomerId'>;

export type ExportErrorCode =
  /** no answer (network, time-out) */
  | 'network'
  /** the platform refused the call (detail: its description) */
  | 'refused'
  /** the platform could not build the file */
  | 'exportFailed'
  /** still not done after MAX_STATUS_CHECKS checks */
  | 'timedOut';
export type FileErrorCode = 'network' | 'refused' | 'notFound';

export interface ExportError<C extends string = ExportErrorCode> {
  code: C;
  /** the platform's description when it gave one (shown as is), else null */
  detail: string | null;
}

export type RequestExportResult = { ok: true; exportId: string } | ({ ok: false } & ExportError<'network' | 'refused'>);
export type ExportStatusResult = { ok: true; export: HistoryExport } | ({ ok: false } & ExportError<'network' | 'refused'>);
export type DownloadResult = { ok: true } | ({ ok: false } & ExportError<FileErrorCode>);
export type SendResult = { ok: true } | ({ ok: false } & ExportError<'network' | 'refused'>);

export type HistoryExportEvent =
  | { type: 'EXPORT.START'; filter: ExportFilter }
  | { type: 'EXPORT.CANCEL' }
  | { type: 'EXPORT.RETRY' }
  | { type: 'FILE.DOWNLOAD' }
  | { type: 'EMAIL.SEND'; email: string };

export interface HistoryExportContext {
  filter: ExportFilter | null;
  exportId: string | null;
  /** the latest status answer (progress 0-100, row count and file name when done) */
  exportInfo: HistoryExport | null;
  /** status checks made for the current export (sets the next wait; bounded) */
  checks: number;
  /** the bound: MAX_STATUS_CHECKS unless the input says otherwise */
  maxStatusChecks: number;
  error: ExportError | null;
  downloadError: ExportError<FileErrorCode> | null;
  /** the address the file is being sent or was sent to */
  emailTo: string | null;
  /** the platform took the file for emailTo */
  emailSent: boolean;
  emailError: ExportError<'network' | 'refused'> | null;
}

export const FIRST_POLL_MS = 1_000;
export const MAX_POLL_MS = 5_000;
export const POLL_BACKOFF = 1.5;
/** About ten minutes of checks at the longest wait. */
export const MAX_STATUS_CHECKS = 120;

/** The wait before check number `checks + 1`: 1 s, 1.5 s, 2.25 s ... at most 5 s. */
export function pollDelayMs(checks: number): number {
  return Math.min(MAX_POLL_MS, Math.round(FIRST_POLL_MS * POLL_BACKOFF ** Math.max(0, checks)));
}

const cleared = { error: null, downloadError: null, emailTo: null, emailSent: false, emailError: null } as const;

export interface HistoryExportInput {
  /** tests shorten the bound (the chart is the same) */
  maxStatusChecks?: number;
}

export const historyExportMachine = setup({
  types: {
    context: {} as HistoryExportContext,
    events: {} as HistoryExportEvent,
    input: {} as HistoryExportInput,
  },
  actors: {
    requestExport: fromPromise<RequestExportResult, { filter: ExportFilter }>(async () => {
      throw new Error('requestExport is provided by the app');
    }),
    checkStatus: fromPromise<ExportStatusResult, { exportId: string }>(async () => {
      throw new Error('checkStatus is provided by the app');
    }),
    downloadFile: fromPromise<DownloadResult, { exportId: string; fileName: string | null }>(async () => {
      throw new Error('downloadFile is provided by the app');
    }),
    sendEmail: fromPromise<SendResult, { exportId: string; email: string }>(async () => {
      throw new Error('sendEmail is provided by the app');
    }),
  },
  delays: {
    pollDelay: ({ context }) => pollDelayMs(context.checks),
  },
  guards: {
    isAccepted: (_, r: RequestExportResult) => r.ok,
    isDone: (_, r: ExportStatusResult) => r.ok && r.export.status === 'done',
    hasFailed: (_, r: ExportStatusResult) => r.ok && r.export.status === 'failed',
    /** still queued or processing, and checks are left */
    isRunning: ({ context }, r: ExportStatusResult) => r.ok && context.checks < context.maxStatusChecks,
    isRunningPastLimit: (_, r: ExportStatusResult) => r.ok,
    /** a failed check (not a failed export): the same export can be asked about again */
    canResume: ({ context }) => context.exportId !== null && context.error?.code !== 'exportFailed',
    isDownloaded: (_, r: DownloadResult) => r.ok,
    isSent: (_, r: SendResult) => r.ok,
    hasEmail: (_, p: { email: string }) => p.email.trim().length > 0,
  },
  actions: {
    startExport: assign((_, filter: ExportFilter) => ({ filter, exportId: null, exportInfo: null, checks: 0, ...cleared })),
    restartExport: assign({ exportId: null, exportInfo: null, checks: 0, ...cleared }),
    resumeExport: assign({ checks: 0, error: null }),
    storeExportId: assign((_, r: RequestExportResult) => ({ exportId: r.ok ? r.exportId : null })),
    storeStatus: assign(({ context }, r: ExportStatusResult) => ({ exportInfo: r.ok ? r.export : context.exportInfo, checks: context.checks + 1 })),
    setError: assign((_, error: ExportError) => ({ error })),
    /** the platform said the export failed: a retry makes a new one */
    setExportFailed: assign({ error: { code: 'exportFailed', detail: null } as ExportError, exportId: null }),
    forgetExport: assign({ filter: null, exportId: null, exportInfo: null, checks: 0, ...cleared }),
    startDownload: assign({ downloadError: null }),
    setDownloadError: assign((_, downloadError: ExportError<FileErrorCode>) => ({ downloadError })),
    startSending: assign((_, p: { email: string }) => ({ emailTo: p.email.trim(), emailSent: false, emailError: null })),
    markSent: assign({ emailSent: true }),
    setEmailError: assign((_, emailError: ExportError<'network' | 'refused'>) => ({ emailError })),
  },
}).createMachine({
  id: 'historyExport',
  description: 'The customer exports the transaction history under a filter as a CSV file, waits for it to be built, then downloads it or has it e-mailed.',
  meta: { spec: ['document 2 §7', 'document 2 §8'] },
  context: ({ input }) => ({
    filter: null,
    exportId: null,
    exportInfo: null,
    checks: 0,
    maxStatusChecks: Math.max(1, input?.maxStatusChecks ?? MAX_STATUS_CHECKS),
    ...cleared,
  }),
  initial: 'idle',
  states: {
    idle: {
      description: 'No export is under way.',
      on: {
        'EXPORT.START': {
          target: 'requesting',
          actions: { type: 'startExport', params: ({ event }) => event.filter },
          description: 'The customer asks for an export of the history under the current filter.',
        },
      },
    },
    requesting: {
      description: 'The platform is asked to start building the export; the customer waits.',
      tags: ['busy'],
      invoke: {
        id: 'requestExport',
        src: 'requestExport',
        input: ({ context }) => ({ filter: context.filter ?? {} }),
        onDone: [
          {
            guard: { type: 'isAccepted', params: ({ event }) => event.output },
            target: 'polling',
            actions: { type: 'storeExportId', params: ({ event }) => event.output },
            description: 'The platform accepted the export and gave its id; its progress is followed.',
          },
          {
            target: 'failed',
            actions: {
              type: 'setError',
              params: ({ event }) => (event.output.ok ? { code: 'refused', detail: null } : { code: event.output.code, detail: event.output.detail }),
            },
            description: "The platform refused the export, or was not reached; its words are kept to show.",
          },
        ],
        onError: {
          target: 'failed',
          actions: { type: 'setError', params: { code: 'network', detail: null } },
          description: 'No answer came; no export is known to have been started.',
        },
      },
    },
    polling: {
      description: 'The file is being built; its progress is asked for now and then and the customer may stop waiting.',
      tags: ['busy'],
      initial: 'waiting',
      on: {
        'EXPORT.CANCEL': {
          target: 'idle',
          actions: 'forgetExport',
          description: 'The customer stops waiting; the export is forgotten.',
        },
      },
      states: {
        waiting: {
          description: 'Waiting before the next progress check (1 second at first, growing to at most 5 seconds).',
          after: { pollDelay: { target: 'checking', description: 'The wait is over; the progress is asked for.' } },
        },
        checking: {
          description: 'The platform is asked how far the export is.',
          invoke: {
            id: 'checkStatus',
            src: 'checkStatus',
            input: ({ context }) => ({ exportId: context.exportId ?? '' }),
            onDone: [
              {
                guard: { type: 'isDone', params: ({ event }) => event.output },
                target: '#historyExport.ready',
                actions: { type: 'storeStatus', params: ({ event }) => event.output },
                description: 'The file is built; the customer can download it or have it e-mailed.',
              },
              {
                guard: { type: 'hasFailed', params: ({ event }) => event.output },
                target: '#historyExport.failed',
                actions: [{ type: 'storeStatus', params: ({ event }) => event.output }, 'setExportFailed'],
                description: 'The platform could not build the file; a retry makes a new export.',
              },
              {
                guard: { type: 'isRunning', params: ({ event }) => event.output },
                target: 'waiting',
                actions: { type: 'storeStatus', params: ({ event }) => event.output },
                description: 'The file is still queued or being built; the progress is shown and the next check waits.',
              },
              {
                // Queued or processing after the last check allowed: the wait ends here; a retry asks again.
                guard: { type: 'isRunningPastLimit', params: ({ event }) => event.output },
                target: '#historyExport.failed',
                actions: [{ type: 'storeStatus', params: ({ event }) => event.output }, { type: 'setError', params: { code: 'timedOut', detail: null } }],
                description: 'The file is still not built after the last check allowed (about ten minutes); the wait ends and a retry asks again.',
              },
              {
                target: '#historyExport.failed',
                actions: {
                  type: 'setError',
                  params: ({ event }) => (event.output.ok ? { code: 'refused', detail: null } : { code: event.output.code, detail: event.output.detail }),
                },
                description: 'The platform refused the progress check, or was not reached; the export is kept so a retry asks about it again.',
              },
            ],
            onError: {
              target: '#historyExport.failed',
              actions: { type: 'setError', params: { code: 'network', detail: null } },
              description: 'No answer came to the progress check; the export is kept so a retry asks about it again.',
            },
          },
        },
      },
    },
    ready: {
      description: 'The file is built; the customer can download it, have it e-mailed, or start a new export.',
      initial: 'idle',
      on: {
        'EXPORT.START': {
          target: 'requesting',
          actions: { type: 'startExport', params: ({ event }) => event.filter },
          description: 'The customer asks for a new export under the current filter.',
        },
      },
      states: {
        idle: {
          description: 'The file is ready and nothing is being downloaded or sent.',
          on: {
            'FILE.DOWNLOAD': { target: 'downloading', actions: 'startDownload', description: 'The customer downloads the file.' },
            'EMAIL.SEND': {
              guard: { type: 'hasEmail', params: ({ event }) => event },
              target: 'sending',
              actions: { type: 'startSending', params: ({ event }) => event },
              description: 'The customer gives an e-mail address to send the file to; an empty address is ignored.',
            },
          },
        },
        downloading: {
          description: 'The file is being downloaded.',
          tags: ['downloading'],
          invoke: {
            id: 'downloadFile',
            src: 'downloadFile',
            input: ({ context }) => ({ exportId: context.exportId ?? '', fileName: context.exportInfo?.fileName ?? null }),
            onDone: [
              { guard: { type: 'isDownloaded', params: ({ event }) => event.output }, target: 'idle', description: "The file is saved on the customer's device." },
              {
                target: 'idle',
                actions: {
                  type: 'setDownloadError',
                  params: ({ event }) => (event.output.ok ? { code: 'refused', detail: null } : { code: event.output.code, detail: event.output.detail }),
                },
                description: 'The download was refused, the file was not found, or the platform was not reached; the reason is shown.',
              },
            ],
            onError: {
              target: 'idle',
              actions: { type: 'setDownloadError', params: { code: 'network', detail: null } },
              description: 'The download got no answer; it reads as a network failure.',
            },
          },
        },
        sending: {
          description: 'The platform is asked to e-mail the file to the address given.',
          tags: ['sending'],
          invoke: {
            id: 'sendEmail',
            src: 'sendEmail',
            input: ({ context }) => ({ exportId: context.exportId ?? '', email: context.emailTo ?? '' }),
            onDone: [
              { guard: { type: 'isSent', params: ({ event }) => event.output }, target: 'idle', actions: 'markSent', description: 'The platform took the file for that address; the customer is told.' },
              {
                target: 'idle',
                actions: {
                  type: 'setEmailError',
                  params: ({ event }) => (event.output.ok ? { code: 'refused', detail: null } : { code: event.output.code, detail: event.output.detail }),
                },
                description: 'The platform refused to send the file, or was not reached; the reason is shown.',
              },
            ],
            onError: {
              target: 'idle',
              actions: { type: 'setEmailError', params: { code: 'network', detail: null } },
              description: 'No answer came; it reads as a network failure.',
            },
          },
        },
      },
    },
    failed: {
      description: 'The export failed, timed out or could not be followed; the customer can retry or start a new one.',
      on: {
        'EXPORT.RETRY': [
          {
            guard: 'canResume',
            target: 'polling.checking',
            actions: 'resumeExport',
            description: 'The export still exists (only a check failed or the wait ran out); its progress is asked for again.',
          },
          { target: 'requesting', actions: 'restartExport', description: 'The export failed or was never made; a new one is requested.' },
        ],
        'EXPORT.START': {
          target: 'requesting',
          actions: { type: 'startExport', params: ({ event }) => event.filter },
          description: 'The customer asks for a new export under the current filter.',
        },
      },
    },
  },
});

export type HistoryExportMachine = typeof historyExportMachine;
