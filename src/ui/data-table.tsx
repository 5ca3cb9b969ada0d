/**
 * A table of rows that becomes a list of cards below 640px (components.css): each cell then shows
 * its column's header beside its value (data-label). The explicit ARIA table roles keep the
 * table's semantics for screen readers when the card layout changes the cells' display.
 *
 * A row may open something: `onRowClick` renders the first column's content as a button whose
 * hit area covers the row (one tab stop per row, Enter or Space to open); `rowHref` renders it as
 * a plain link instead. (The design system does not depend on the router: a feature that needs a
 * client-side navigation passes onRowClick and navigates there.)
 */
import type { ReactNode } from 'react';

export interface DataTableColumn<Row> {
  /** the column's header; also the label of the cell in the card layout */
  header: string;
  render(row: Row): ReactNode;
  /** 'end' for amounts and numbers */
  align?: 'start' | 'end';
  /** true: the header is read by screen readers only (a column of actions) */
  hideHeader?: boolean;
}

export interface DataTableProps<Row> {
  columns: readonly DataTableColumn<Row>[];
  rows: readonly Row[];
  caption: string;
  /** true: the caption is read by screen readers only (a heading already names the table) */
  hideCaption?: boolean;
  rowKey(row: Row, index: number): string | number;
  onRowClick?(row: Row): void;
  rowHref?(row: Row): string;
  /** the accessible name of a row's button or link when its first cell alone is not enough */
  rowLabel?(row: Row): string;
  /** draw the table on a raised card (rounded, shadow) */
  card?: boolean;
  className?: string;
}

export function DataTable<Row>({ columns, rows, caption, hideCaption = false, rowKey, onRowClick, rowHref, rowLabel, card = false, className }: DataTableProps<Row>) {
  const clickable = onRowClick !== undefined || rowHref !== undefined;
  const table = (
    <table className={['data-table', className].filter(Boolean).join(' ')} role="table">
      <caption className={hideCaption ? 'visually-hidden' : undefined}>{caption}</caption>
      <thead role="rowgroup">
        <tr role="row">
          {columns.map((column, index) => (
            <th key={index} scope="col" role="columnheader" className={column.align === 'end' ? 'align-end' : undefined}>
              {column.hideHeader ? <span className="visually-hidden">{column.header}</span> : column.header}
            </th>
          ))}
        </tr>
      </thead>
      <tbody role="rowgroup">
        {rows.map((row, rowIndex) => (
          <tr key={rowKey(row, rowIndex)} role="row" className={clickable ? 'is-clickable' : undefined}>
            {columns.map((column, index) => {
              const content = column.render(row);
              return (
                <td key={index} role="cell" data-label={column.hideHeader ? '' : column.header} className={column.align === 'end' ? 'align-end' : undefined}>
                  {index === 0 && clickable ? <RowLink row={row} onRowClick={onRowClick} rowHref={rowHref} rowLabel={rowLabel}>{content}</RowLink> : content}
                </td>
              );
            })}
          </tr>
        ))}
      </tbody>
    </table>
  );
  return <div className={card ? 'table-wrap data-table-card' : 'table-wrap'}>{table}</div>;
}

function RowLink<Row>({ row, onRowClick, rowHref, rowLabel, children }: { row: Row; onRowClick?: ((row: Row) => void) | undefined; rowHref?: ((row: Row) => string) | undefined; rowLabel?: ((row: Row) => string) | undefined; children: ReactNode }) {
  const label = rowLabel?.(row);
  if (rowHref) {
    return (
      <a className="row-link" href={rowHref(row)} aria-label={label} onClick={onRowClick ? (e) => { e.preventDefault(); onRowClick(row); } : undefined}>
        {children}
      </a>
    );
  }
  return (
    <button type="button" className="row-link" aria-label={label} onClick={() => onRowClick?.(row)}>
      {children}
    </button>
  );
}
