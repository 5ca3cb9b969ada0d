/**
 * Model-based test of the history CSV export: paths generated from the history export machine's
 * graph drive the REAL ExportPanel through Testing Library. The four calls are test doubles
 * answered by the paths' `xstate.done.actor.*` / `xstate.error.actor.*` events; the wait between
 * status checks fires by sending its `xstate.after.*` event (the real delay is an hour here). The
 * bound on status checks is 2 (input), so the "still not done" ending is on the graph. A last
 * test walks the panel with the keyboard and runs axe on every step.
 */
import { expectNoAxeViolations } from '../ui/axe.ts';
import { describe, expect, it } from 'vitest';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nProvider } from '@lingui/react';
import { TestModel } from '@xstate/graph';
import { createActor, fromPromise, type SnapshotFrom } from 'xstate';
import type { HistoryExport } from '../../api/history.ts';
import {
  historyExportMachine,
  type DownloadResult,
  type ExportFilter,
  type ExportStatusResult,
  type HistoryExportEvent,
  type RequestExportResult,
  type SendResult,
} from '../../machines/history-export/history-export.machine.ts';
import { ExportPanel } from '../../src/features/history/export-panel.tsx';
import { exportFilterOf } from '../../src/features/history/filter.ts';
import { i18n } from '../../src/lib/i18n.ts';
import { listTransitions } from '../../scripts/machine-graph.ts';
import { edgeCoveringPaths, expectOffered, matchesPath, runPathCheckingEveryStep, transitionsTaken, unreachedStates } from './coverage.ts';
import { LiveQueue } from './live-queue.ts';

type Snap = SnapshotFrom<typeof historyExportMachine>;
type SystemEvent = { type: `xstate.${string}`; output?: unknown; error?: unknown };
type ModelEvent = HistoryExportEvent | SystemEvent;

const input = { maxStatusChecks: 2 };
const EMAIL = 'anna@demo.test';
const EXPORT_ID = 'exp_7Qm2';
const FILTER = { accountId: 101, transactionType: 'p2p', fromAmount: '10.50', toAmount: '200', status: 'posted' } as const;
/** the view maps the history filter to the export's names */
const EXPORT_FILTER: ExportFilter = { accountId: 101, type: 'p2p', amountFrom: '10.50', amountTo: '200', status: 'posted' };
const AFTER_POLL = 'xstate.after.pollDelay.historyExport.polling.waiting';

const exportInfo = (over: Partial<HistoryExport>): HistoryExport => ({
  exportId: EXPORT_ID,
  source: 'manual',
  accountId: 101,
  period: null,
  status: 'queued',
  progress: 0,
  rowCount: null,
  fileName: null,
  createdAt: '2026-11-20T12:00:00.000Z',
  ...over,
});

/** Typed so a new event fails compilation until it has cases here. */
const userEvents = {
  'EXPORT.START': [{ type: 'EXPORT.START', filter: EXPORT_FILTER }],
  'EXPORT.CANCEL': [{ type: 'EXPORT.CANCEL' }],
  'EXPORT.RETRY': [{ type: 'EXPORT.RETRY' }],
  'FILE.DOWNLOAD': [{ type: 'FILE.DOWNLOAD' }],
  'EMAIL.SEND': [{ type: 'EMAIL.SEND', email: EMAIL }],
} satisfies { [K in HistoryExportEvent['type']]: Extract<HistoryExportEvent, { type: K }>[] };

const answers: Record<string, SystemEvent[]> = {
  requestExport: [
    { type: 'xstate.done.actor.requestExport', output: { ok: true, exportId: EXPORT_ID } satisfies RequestExportResult },
    { type: 'xstate.done.actor.requestExport', output: { ok: false, code: 'refused', detail: 'type: must be one of the operation types' } satisfies RequestExportResult },
    { type: 'xstate.done.actor.requestExport', output: { ok: false, code: 'network', detail: null } satisfies RequestExportResult },
    { type: 'xstate.error.actor.requestExport', error: new Error('boom') },
  ],
  checkStatus: [
    { type: 'xstate.done.actor.checkStatus', output: { ok: true, export: exportInfo({ status: 'queued', progress: 0 }) } satisfies ExportStatusResult },
    { type: 'xstate.done.actor.checkStatus', output: { ok: true, export: exportInfo({ status: 'processing', progress: 40 }) } satisfies ExportStatusResult },
    {
      type: 'xstate.done.actor.checkStatus',
      output: { ok: true, export: exportInfo({ status: 'done', progress: 100, rowCount: 3, fileName: 'history-2026-11-20.csv' }) } satisfies ExportStatusResult,
    },
    { type: 'xstate.done.actor.checkStatus', output: { ok: true, export: exportInfo({ status: 'failed', progress: 10 }) } satisfies ExportStatusResult },
    { type: 'xstate.done.actor.checkStatus', output: { ok: false, code: 'refused', detail: 'Not found' } satisfies ExportStatusResult },
    { type: 'xstate.error.actor.checkStatus', error: new Error('boom') },
  ],
  downloadFile: [
    { type: 'xstate.done.actor.downloadFile', output: { ok: true } satisfies DownloadResult },
    { type: 'xstate.done.actor.downloadFile', output: { ok: false, code: 'notFound', detail: 'Not found' } satisfies DownloadResult },
    { type: 'xstate.error.actor.downloadFile', error: new Error('boom') },
  ],
  sendEmail: [
    { type: 'xstate.done.actor.sendEmail', output: { ok: true } satisfies SendResult },
    { type: 'xstate.done.actor.sendEmail', output: { ok: false, code: 'refused', detail: 'email: must be an e-mail address' } satisfies SendResult },
    { type: 'xstate.error.actor.sendEmail', error: new Error('boom') },
  ],
};

/**
 * The events of a snapshot. To keep the graph small (every edge is a rendered test), a new export
 * is started from `ready` and `failed` only while nothing else went wrong there; every chart
 * transition is still taken (checked below).
 */
function eventsFor(s: Snap): ModelEvent[] {
  const all: ModelEvent[] = [...userEvents['EXPORT.CANCEL'], ...userEvents['EXPORT.RETRY'], ...userEvents['FILE.DOWNLOAD'], ...userEvents['EMAIL.SEND']];
  const quiet = s.context.downloadError === null && s.context.emailError === null && !s.context.emailSent;
  if (s.matches('idle') || quiet) all.push(...userEvents['EXPORT.START']);
  if (s.matches({ polling: 'waiting' })) all.push({ type: AFTER_POLL });
  for (const id of Object.keys(s.children)) all.push(...(answers[id] ?? []));
  return all.filter((e) => s.can(e as HistoryExportEvent));
}

/** Only what the checks read: snapshots that serialize alike must look alike. */
const serialize = (s: Snap) =>
  JSON.stringify({
    value: s.value,
    checks: s.matches('polling') ? s.context.checks : null,
    status: s.context.exportInfo ? [s.context.exportInfo.status, s.context.exportInfo.progress] : null,
    exportId: s.context.exportId !== null,
    error: s.context.error?.code ?? null,
    downloadError: s.context.downloadError?.code ?? null,
    email: [s.context.emailSent, s.context.emailError?.code ?? null],
  });

const model = new TestModel(historyExportMachine, {
  input,
  events: (s) => eventsFor(s as Snap) as never,
  serializeState: (s) => serialize(s as Snap),
  stateMatcher: (s, key) => matchesPath(s as Snap, key),
});

/** What the test did, kept apart from the chart's context: the page is expected from it. */
interface Did {
  last: ModelEvent | null;
  /** the export followed (null: none, or one the platform said failed), its last status, the checks made for it */
  exportId: string | null;
  info: HistoryExport | null;
  checks: number;
  error: { code: string; detail: string | null } | null;
  downloadError: string | null;
  emailSent: boolean;
  emailError: string | null;
}
const fresh = (): Omit<Did, 'last'> => ({ exportId: null, info: null, checks: 0, error: null, downloadError: null, emailSent: false, emailError: null });

/** What each event calls for, worked out here rather than read from the chart (bound: input.maxStatusChecks checks). */
function record(did: Did, event: ModelEvent): void {
  did.last = event;
  const out = (event as SystemEvent).output as { ok: boolean; code?: string; detail?: string | null; exportId?: string; export?: HistoryExport } | undefined;
  const failure = () => ({ code: out?.code ?? 'refused', detail: out?.detail ?? null });
  switch (event.type) {
    case 'EXPORT.START':
    case 'EXPORT.CANCEL':
      Object.assign(did, fresh());
      return;
    case 'EXPORT.RETRY':
      // the same export asked about again unless the platform said it failed (or there is none)
      if (did.exportId !== null && did.error?.code !== 'exportFailed') Object.assign(did, { checks: 0, error: null });
      else Object.assign(did, fresh());
      return;
    case 'FILE.DOWNLOAD':
      did.downloadError = null;
      return;
    case 'EMAIL.SEND':
      Object.assign(did, { emailSent: false, emailError: null });
      return;
    case 'xstate.done.actor.requestExport':
      if (out?.ok) did.exportId = out.exportId!;
      else did.error = failure();
      return;
    case 'xstate.done.actor.checkStatus': {
      if (!out?.ok) {
        did.error = failure();
        return;
      }
      const running = out.export!.status === 'queued' || out.export!.status === 'processing';
      const pastLimit = running && did.checks >= input.maxStatusChecks;
      Object.assign(did, { info: out.export, checks: did.checks + 1 });
      if (out.export!.status === 'failed') Object.assign(did, { error: { code: 'exportFailed', detail: null }, exportId: null });
      if (pastLimit) did.error = { code: 'timedOut', detail: null };
      return;
    }
    case 'xstate.done.actor.downloadFile':
      if (!out?.ok) did.downloadError = out?.code ?? 'refused';
      return;
    case 'xstate.done.actor.sendEmail':
      if (out?.ok) did.emailSent = true;
      else did.emailError = out?.code ?? 'refused';
      return;
    case 'xstate.error.actor.requestExport':
    case 'xstate.error.actor.checkStatus':
      did.error = { code: 'network', detail: null };
      return;
    case 'xstate.error.actor.downloadFile':
      did.downloadError = 'network';
      return;
    case 'xstate.error.actor.sendEmail':
      did.emailError = 'network';
      return;
  }
}

function mount() {
  const q = {
    requestExport: new LiveQueue<{ filter: ExportFilter }, RequestExportResult>(),
    checkStatus: new LiveQueue<{ exportId: string }, ExportStatusResult>(),
    downloadFile: new LiveQueue<{ exportId: string; fileName: string | null }, DownloadResult>(),
    sendEmail: new LiveQueue<{ exportId: string; email: string }, SendResult>(),
  };
  const logic = historyExportMachine.provide({
    actors: {
      requestExport: fromPromise(({ input: i, signal }) => q.requestExport.next(i, signal)),
      checkStatus: fromPromise(({ input: i, signal }) => q.checkStatus.next(i, signal)),
      downloadFile: fromPromise(({ input: i, signal }) => q.downloadFile.next(i, signal)),
      sendEmail: fromPromise(({ input: i, signal }) => q.sendEmail.next(i, signal)),
    },
    delays: { pollDelay: 3_600_000 },
  });
  const actor = createActor(logic, { input }).start();
  const user = userEvent.setup({ delay: null });
  const view = render(
    <I18nProvider i18n={i18n}>
      <ExportPanel filter={FILTER} access={{ getAccessToken: () => 'token', refresh: async () => false, getActingCustomerId: () => null }} email={EMAIL} actor={actor} />
    </I18nProvider>,
  );
  const did: Did = { last: null, ...fresh() };
  return { q, actor, user, container: view.container, did };
}
type Harness = ReturnType<typeof mount>;

const ERRORS: Record<string, RegExp> = {
  network: /^The connection failed\. Try again\.$/,
  refused: /^The export could not be made\.$/,
  exportFailed: /^The file could not be prepared\. Try again\.$/,
  timedOut: /^The file is taking longer than usual/,
};
const button = (name: string | RegExp) => screen.getByRole('button', { name });
const statusLine = () => screen.getAllByRole('status').find((el) => el.getAttribute('aria-live') === 'polite')!;
const progress = () => screen.queryByRole('progressbar', { name: 'Export progress' });

function stateChecks(h: Harness) {
  /** the progress bar and the status line while the export is asked for or built */
  const waitingView = () => {
    expect(h.did.exportId).toBe(EXPORT_ID);
    expect(h.did.error).toBeNull();
    const bar = progress()!;
    const info = h.did.info;
    // indeterminate until the platform says how far it is
    if (info) expect(bar.getAttribute('value')).toBe(String(info.progress));
    else expect(bar.hasAttribute('value')).toBe(false);
    expect(statusLine().textContent).toMatch(info?.status === 'processing' ? `Preparing the file: ${info.progress}%` : /The file is waiting to be prepared\./);
    expect(button('Cancel')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    // the filter went with the request, under the export's names
    expect(h.q.requestExport.calls.at(-1)).toEqual({ filter: EXPORT_FILTER });
  };
  const readyView = async (s: Snap) => {
    // ready only once the platform said the file is built
    expect(h.did.info?.status).toBe('done');
    await screen.findByText('It holds 3 transactions.');
    expect(statusLine().textContent).toBe('The file is ready.');
    expect(progress()).toBeNull();
    const email = screen.getByLabelText('Your e-mail address') as HTMLInputElement;
    expect(email.value).toBe(EMAIL);
    expect(email.readOnly).toBe(true);
    const networkFailures = [h.did.downloadError, h.did.emailError].filter((code) => code === 'network').length;
    expect(screen.queryAllByText('The connection failed. Try again.')).toHaveLength(networkFailures);
    if (h.did.downloadError === 'notFound') expect(screen.getByText('The file is no longer available.')).toBeTruthy();
    else expect(screen.queryByText(/no longer available|could not be downloaded/)).toBeNull();
    if (h.did.emailSent) expect(screen.getByText(`The file was sent to ${EMAIL}.`)).toBeTruthy();
    else expect(screen.queryByText(/The file was sent to/)).toBeNull();
    expectOffered<HistoryExportEvent>(s, [{ type: 'EXPORT.START', filter: EXPORT_FILTER }]);
    if (h.did.emailError === 'refused') {
      expect(screen.getByText('The file could not be sent.')).toBeTruthy();
      expect(screen.getByText('email: must be an e-mail address')).toBeTruthy();
    } else expect(screen.queryByText('The file could not be sent.')).toBeNull();
  };
  return {
    idle: async (s: Snap) => {
      await waitFor(() => expect(button('Export CSV').getAttribute('aria-busy')).toBeNull());
      expectOffered<HistoryExportEvent>(s, [{ type: 'EXPORT.START', filter: EXPORT_FILTER }]);
      expect(h.did.last?.type).not.toBe('EXPORT.START');
      expect(h.did.exportId).toBeNull();
      expect(progress()).toBeNull();
      expect(statusLine().textContent).toBe('');
      expect(screen.queryByRole('alert')).toBeNull();
      expect(screen.queryByRole('button', { name: 'Download CSV' })).toBeNull();
      expect(h.q.requestExport.waiting + h.q.checkStatus.waiting).toBe(0);
    },
    requesting: async () => {
      await waitFor(() => expect(button('Export CSV').getAttribute('aria-busy')).toBe('true'));
      expect(statusLine().textContent).toBe('Asking for the file…');
      expect(progress()!.hasAttribute('value')).toBe(false);
      expect(h.q.requestExport.waiting).toBe(1);
      expect(h.q.requestExport.calls.at(-1)).toEqual({ filter: EXPORT_FILTER });
    },
    'polling.waiting': async (s: Snap) => {
      await waitFor(() => expect(progress()).not.toBeNull());
      waitingView();
      expectOffered<HistoryExportEvent>(s, [{ type: 'EXPORT.CANCEL' }]);
      // the wait: nothing asked
      expect(h.q.checkStatus.waiting).toBe(0);
      expect(screen.queryByRole('button', { name: 'Export CSV' })).toBeNull();
      // focus is on Cancel (the button that started the export is gone)
      expect(document.activeElement).toBe(button('Cancel'));
    },
    'polling.checking': async (s: Snap) => {
      await waitFor(() => expect(h.q.checkStatus.waiting).toBe(1));
      waitingView();
      expect(h.q.checkStatus.calls.at(-1)).toEqual({ exportId: h.did.exportId });
      expectOffered<HistoryExportEvent>(s, [{ type: 'EXPORT.CANCEL' }]);
    },
    'ready.idle': async (s: Snap) => {
      await readyView(s);
      await waitFor(() => expect(button('Download CSV').getAttribute('aria-busy')).toBeNull());
      expect(button('Send to e-mail').getAttribute('aria-busy')).toBeNull();
      expectOffered<HistoryExportEvent>(s, [{ type: 'FILE.DOWNLOAD' }, { type: 'EMAIL.SEND', email: EMAIL }]);
      expect(['FILE.DOWNLOAD', 'EMAIL.SEND']).not.toContain(h.did.last?.type);
    },
    'ready.downloading': async (s: Snap) => {
      await waitFor(() => expect(button('Download CSV').getAttribute('aria-busy')).toBe('true'));
      await readyView(s);
      expect(h.q.downloadFile.calls.at(-1)).toEqual({ exportId: h.did.exportId, fileName: h.did.info?.fileName });
    },
    'ready.sending': async (s: Snap) => {
      await waitFor(() => expect(button('Send to e-mail').getAttribute('aria-busy')).toBe('true'));
      await readyView(s);
      expect(h.q.sendEmail.calls.at(-1)).toEqual({ exportId: h.did.exportId, email: EMAIL });
    },
    failed: async (s: Snap) => {
      const alert = await screen.findByRole('alert');
      expect(within(alert).getByText('The export did not finish')).toBeTruthy();
      const error = h.did.error!;
      expect(error).not.toBeNull();
      expect(within(alert).getByText(ERRORS[error.code]!)).toBeTruthy();
      // the platform's own words when it refused
      if (error.code === 'refused') expect(within(alert).getByText(error.detail!)).toBeTruthy();
      expect(progress()).toBeNull();
      expect(document.activeElement).toBe(within(alert).getByRole('button', { name: 'Try again' }));
      expectOffered<HistoryExportEvent>(s, [{ type: 'EXPORT.RETRY' }, { type: 'EXPORT.START', filter: EXPORT_FILTER }]);
      expect(h.did.last?.type).not.toBe('EXPORT.RETRY');
    },
  } satisfies Record<string, (s: Snap) => Promise<void>>;
}

function eventExecutors(h: Harness) {
  const press = (name: string) => async ({ event }: { event: ModelEvent }) => {
    record(h.did, event);
    await h.user.click(button(name));
  };
  const answer = (queue: LiveQueue<any, any>) => async ({ event }: { event: ModelEvent }) => {
    const e = event as SystemEvent;
    record(h.did, e);
    await act(async () => {
      if (e.type.startsWith('xstate.error')) queue.fail(e.error);
      else queue.answer(e.output);
    });
  };
  return {
    'EXPORT.START': async ({ event }: { event: ModelEvent }) => {
      record(h.did, event);
      // from ready it is "New export"; otherwise "Export CSV"
      const start = screen.queryByRole('button', { name: 'New export' }) ?? screen.queryByRole('button', { name: 'Export CSV' });
      if (start) await h.user.click(start);
      // failed offers only a retry; a new filter's export is started by the page (the same event)
      else act(() => h.actor.send({ type: 'EXPORT.START', filter: EXPORT_FILTER }));
    },
    'EXPORT.CANCEL': press('Cancel'),
    'EXPORT.RETRY': press('Try again'),
    'FILE.DOWNLOAD': press('Download CSV'),
    'EMAIL.SEND': press('Send to e-mail'),
    [AFTER_POLL]: async ({ event }: { event: ModelEvent }) => {
      act(() => h.actor.send(event as never));
    },
    ...Object.fromEntries(
      Object.entries(answers).flatMap(([id]) => [
        [`xstate.done.actor.${id}`, answer(h.q[id as keyof Harness['q']])],
        [`xstate.error.actor.${id}`, answer(h.q[id as keyof Harness['q']])],
      ]),
    ),
  };
}

const paths = edgeCoveringPaths(model, (s) => serialize(s as Snap));
const sequences: ModelEvent[][] = [];

describe('history export model', () => {
  paths.forEach((path, i) => {
    const events = path.steps.map((s) => s.event as ModelEvent).filter((e) => e.type !== 'xstate.init');
    sequences.push(events);
    const last = path.steps.at(-1)?.state as Snap | undefined;
    const label = events
      .map((e) => {
        const short = e.type.replace(/^xstate\.done\.actor\./, 'done.').replace(/^xstate\.error\.actor\./, 'error.').replace(/^xstate\.after\.pollDelay.*/, 'after.poll');
        const out = (e as SystemEvent).output as { ok: boolean; code?: string; export?: HistoryExport } | undefined;
        if (out) return `${short}(${out.ok ? (out.export ? `${out.export.status}` : 'ok') : out.code})`;
        return short;
      })
      .join(' → ');
    it(`#${i} ${label || 'initial'} ⇒ ${JSON.stringify(last?.value)}`, async () => {
      const h = mount();
      await runPathCheckingEveryStep(path, stateChecks(h), eventExecutors(h));
      h.actor.stop();
    });
  });

  it('is named historyExport (the inspector and the audit pack show it by that id)', () => {
    expect(historyExportMachine.id).toBe('historyExport');
  });

  it('every state of the chart is reached by some path', () => {
    expect(unreachedStates(historyExportMachine, paths)).toEqual([]);
  });

  it('every transition of the chart is taken by some path', () => {
    const taken = transitionsTaken(historyExportMachine, input, sequences as never);
    const missing = listTransitions(historyExportMachine).filter((t) => !taken.has(t.key)).map((t) => t.key);
    expect(missing).toEqual([]);
  });

  it('the history filter goes to the export under the export call names', () => {
    expect(exportFilterOf(FILTER)).toEqual(EXPORT_FILTER);
  });
});

describe('history export panel: keyboard and axe', () => {
  it('exports, downloads and sends with the keyboard only, without axe violations', async () => {
    const h = mount();
    await expectNoAxeViolations('idle', h.container);
    await h.user.tab();
    expect(document.activeElement).toBe(button('Export CSV'));
    await h.user.keyboard('{Enter}');
    await waitFor(() => expect(h.q.requestExport.waiting).toBe(1));
    await expectNoAxeViolations('requesting', h.container);
    await act(async () => h.q.requestExport.answer({ ok: true, exportId: EXPORT_ID }));
    await waitFor(() => expect(document.activeElement).toBe(button('Cancel')));
    act(() => h.actor.send({ type: AFTER_POLL } as never));
    await act(async () => h.q.checkStatus.answer({ ok: true, export: exportInfo({ status: 'processing', progress: 40 }) }));
    expect(statusLine().textContent).toContain('Preparing the file: 40%');
    await expectNoAxeViolations('polling', h.container);
    act(() => h.actor.send({ type: AFTER_POLL } as never));
    await act(async () => h.q.checkStatus.answer({ ok: true, export: exportInfo({ status: 'done', progress: 100, rowCount: 1, fileName: 'h.csv' }) }));
    // the download button takes focus when the file is ready
    await waitFor(() => expect(document.activeElement).toBe(button('Download CSV')));
    expect(screen.getByText('It holds 1 transaction.')).toBeTruthy();
    await expectNoAxeViolations('ready', h.container);
    await h.user.keyboard('{Enter}');
    await waitFor(() => expect(h.q.downloadFile.waiting).toBe(1));
    await act(async () => h.q.downloadFile.answer({ ok: true }));
    // New export, then the e-mail field (read-only, focusable), then Send to e-mail
    await h.user.tab();
    await h.user.tab();
    await h.user.tab();
    expect(document.activeElement).toBe(button('Send to e-mail'));
    await h.user.keyboard(' ');
    await waitFor(() => expect(h.q.sendEmail.waiting).toBe(1));
    await act(async () => h.q.sendEmail.answer({ ok: true }));
    expect(await screen.findByText(`The file was sent to ${EMAIL}.`)).toBeTruthy();
    await expectNoAxeViolations('sent', h.container);
    h.actor.stop();
  });
});
