/** CSV cells and records of the history export (server/modules/history/csv.ts). */
import { describe, expect, it } from 'vitest';
import { csvCell, csvLine, csvStart, manualExportFileName, monthlyExportFileName, transactionCsvLine } from '../../server/modules/history/csv.ts';

describe('csv', () => {
  it('quotes per RFC 4180 only when needed, doubling quotes', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell('cr\r')).toBe('"cr\r"');
    expect(csvCell(null)).toBe('');
    expect(csvCell(12)).toBe('12');
    expect(csvLine(['a', 'b'])).toBe('a,b\r\n');
  });

  it('neutralises cells a spreadsheet would run as formulas, except numeric amounts', () => {
    for (const start of ['=', '+', '-', '@', '\t', '\r']) expect(csvCell(`${start}1+1`).replace(/^"/, '').startsWith(`'${start}`)).toBe(true);
    expect(csvCell('=cmd|"/c calc"!A1')).toBe(`"'=cmd|""/c calc""!A1"`);
    expect(csvCell('-12.50', { numeric: true })).toBe('-12.50');
    expect(csvCell('12.50', { numeric: true })).toBe('12.50');
    expect(csvCell('-1+cmd', { numeric: true })).toBe(`'-1+cmd`);
    expect(csvCell('-12.50')).toBe(`'-12.50`);
  });

  it('writes the header and a history row in the columns’ order', () => {
    expect(csvStart()).toBe('date,transaction id,type,direction,status,account,amount,currency,counterparty,note,reference\r\n');
    expect(
      transactionCsvLine({
        rowId: '7:3:p2p', transactionId: 7, transactionDate: '2026-03-04T05:06:07.890Z', operationType: 'p2p', direction: 'out', status: 'posted',
        accountId: 3, amount: '-5.00', currency: 'EUR', counterparty: 'Žofia, Ltd', note: '@home', reference: null,
      }),
    ).toBe(`2026-03-04T05:06:07Z,7,p2p,out,posted,3,-5.00,EUR,"Žofia, Ltd",'@home,\r\n`);
  });

  it('names the files', () => {
    expect(manualExportFileName(new Date('2026-03-04T05:06:07Z'))).toBe('history-20260304-0506.csv');
    expect(monthlyExportFileName(12, '2026-02')).toBe('history-12-2026-02.csv');
  });
});
