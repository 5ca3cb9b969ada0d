/**
 * The real actors of the history export machine (machines/history-export): the named methods
 * transactionHistoryExport, transactionHistoryExportStatus and transactionHistoryExportSend, and
 * the CSV download over REST. Failures become the machine's codes, with the platform's text
 * (describeFailure) as the detail.
 */
import { fromPromise } from 'xstate';
import { exportFilePath } from '../../../api/history.ts';
import { ResponseCode, type Failure } from '../../../api/envelope.ts';
import type {
  DownloadResult,
  ExportFilter,
  ExportStatusResult,
  RequestExportResult,
  SendResult,
} from '../../../machines/history-export/history-export.machine.ts';
import { callMethod, describeFailure, isFailure } from '../../lib/request.ts';
import { downloadFile, type DownloadAccess } from './download.ts';

function failed(f: Failure): { ok: false; code: 'network' | 'refused'; detail: string | null } {
  return { ok: false, code: f.responseCode === ResponseCode.network ? 'network' : 'refused', detail: describeFailure(f) };
}

export const CSV_ACCEPT = 'text/csv, */*;q=0.1';

export function createHistoryExportActors(access: DownloadAccess) {
  return {
    requestExport: fromPromise<RequestExportResult, { filter: ExportFilter }>(async ({ input }) => {
      const answer = await callMethod('transactionHistoryExport', input.filter);
      return isFailure(answer) ? failed(answer) : { ok: true, exportId: answer.exportId };
    }),
    checkStatus: fromPromise<ExportStatusResult, { exportId: string }>(async ({ input }) => {
      const answer = await callMethod('transactionHistoryExportStatus', { exportId: input.exportId });
      return isFailure(answer) ? failed(answer) : { ok: true, export: answer.export };
    }),
    downloadFile: fromPromise<DownloadResult, { exportId: string; fileName: string | null }>(async ({ input }) =>
      downloadFile(access, exportFilePath(input.exportId), CSV_ACCEPT, input.fileName ?? `history-${input.exportId}.csv`),
    ),
    sendEmail: fromPromise<SendResult, { exportId: string; email: string }>(async ({ input }) => {
      const answer = await callMethod('transactionHistoryExportSend', { exportId: input.exportId, email: input.email });
      return isFailure(answer) ? failed(answer) : { ok: true };
    }),
  };
}
