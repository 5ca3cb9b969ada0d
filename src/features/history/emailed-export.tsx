/**
 * The export an e-mail links to (`/history?exportId=…`, sent by transactionHistoryExportSend):
 * after sign-in the history page offers that file for download. The platform answers the file
 * only to its customer, and only while it is kept (manual exports: 7 days), so a stale or foreign
 * link says the file is no longer available.
 */
import { useId } from 'react';
import { useMutation } from '@tanstack/react-query';
import { useLingui } from '@lingui/react/macro';
import { exportFilePath } from '../../../api/history.ts';
import { Alert } from '../../ui/alert.tsx';
import { Button } from '../../ui/button.tsx';
import { CSV_ACCEPT } from './actors.ts';
import { downloadFile, type DownloadAccess } from './download.ts';
import { useFileErrors } from './messages.ts';

export function EmailedExport({ exportId, access }: { exportId: string; access: DownloadAccess }) {
  const { t } = useLingui();
  const id = useId();
  const fileErrors = useFileErrors();
  const download = useMutation({ mutationFn: () => downloadFile(access, exportFilePath(exportId), CSV_ACCEPT, 'history.csv') });
  const failed = download.data && !download.data.ok ? download.data : null;
  return (
    <section className="history-section" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t`The export from your e-mail`}</h2>
      <p>{t`Download the CSV file the e-mail was about.`}</p>
      <Button busy={download.isPending} onClick={() => download.mutate()}>
        {t`Download the file`}
      </Button>
      {failed ? <Alert tone="error">{failed.code === 'notFound' ? fileErrors.notFound : (failed.detail ?? fileErrors[failed.code])}</Alert> : null}
      {download.data?.ok ? <p role="status">{t`The file was downloaded.`}</p> : null}
    </section>
  );
}
