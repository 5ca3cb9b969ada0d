/** Snapshot -> view facts for the history export. */
import type { SnapshotFrom } from 'xstate';
import type { HistoryExportMachine } from './history-export.machine.ts';

export type HistoryExportSnapshot = SnapshotFrom<HistoryExportMachine>;
export type HistoryExportStep = 'idle' | 'requesting' | 'polling' | 'ready' | 'failed';

export function selectHistoryExportStep(s: HistoryExportSnapshot): HistoryExportStep {
  if (s.matches('requesting')) return 'requesting';
  if (s.matches('polling')) return 'polling';
  if (s.matches('ready')) return 'ready';
  if (s.matches('failed')) return 'failed';
  return 'idle';
}

export function selectHistoryExportView(s: HistoryExportSnapshot) {
  const info = s.context.exportInfo;
  return {
    step: selectHistoryExportStep(s),
    /** asking for the export or waiting for it */
    busy: s.hasTag('busy'),
    /** 0-100 while the export is built; null before the first status answer */
    progress: info ? Math.max(0, Math.min(100, info.progress)) : null,
    /** queued or processing (the platform's word for where the export is) */
    exportStatus: info?.status ?? null,
    rowCount: info?.rowCount ?? null,
    fileName: info?.fileName ?? null,
    error: s.context.error,
    downloading: s.hasTag('downloading'),
    downloadError: s.context.downloadError,
    sending: s.hasTag('sending'),
    emailTo: s.context.emailTo,
    emailSent: s.context.emailSent,
    emailError: s.context.emailError,
    canStart: s.can({ type: 'EXPORT.START', filter: {} }),
    canCancel: s.can({ type: 'EXPORT.CANCEL' }),
    canRetry: s.can({ type: 'EXPORT.RETRY' }),
    canDownload: s.can({ type: 'FILE.DOWNLOAD' }),
  };
}
