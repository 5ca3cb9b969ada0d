/**
 * A refused file's lines, each error by line and column in the platform's words (a batch's rows:
 * rows.<line>.<column>), under an alert saying nothing was sent: the mass pages and global pay's
 * upload (src/features/global-pay/batch-view.tsx) alike. `again` says what to do once corrected.
 */
import { useLingui } from '@lingui/react/macro';
import type { RowErrors } from '../../../machines/mass-transfer/mass-transfer.select.ts';
import { validationMessage } from '../../lib/validation-messages.ts';
import { Alert } from '../../ui/alert.tsx';
import { DataTable } from '../../ui/data-table.tsx';
import './mass.css';

export function LinesToFix({ rows, again }: { rows: readonly RowErrors[]; again: string }) {
  const { t } = useLingui();
  const count = rows.length;
  const entries = rows.flatMap((row) => row.errors.map((e, i) => ({ key: `${row.line}-${i}`, line: row.line, column: e.column, text: validationMessage(e.error) })));
  return (
    <div className="mass-errors">
      <Alert tone="error" title={count === 1 ? t`One line needs fixing. Nothing was sent.` : t`${count} lines need fixing. Nothing was sent.`}>
        <p>{again}</p>
      </Alert>
      <DataTable
        caption={t`Lines to fix`}
        rows={entries}
        rowKey={(e) => e.key}
        columns={[
          { header: t`Line`, render: (e) => e.line, align: 'end' },
          { header: t`Column`, render: (e) => e.column || '—' },
          { header: t`Problem`, render: (e) => e.text },
        ]}
      />
    </div>
  );
}
