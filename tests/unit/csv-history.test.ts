/** CSV cells and records of the history export (server/modules/history/csv.ts). */
import { describe, expect, it } from 'vitest';
import { csvCell, csvLine, csvRowId, csvStart, manualExportFileName, monthlyExportFileName, transactionCsvLine } from '../../server/modules/history/csv.ts';

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

  const row = {
    rowId: 'transfer:7:3:p2p', kind: 'transfer', transactionId: 7, transactionDate: '2026-03-04T05:06:07.890Z', operationType: 'p2p', direction: 'out', status: 'posted',
    accountId: 3, amount: '-5.00', currency: 'EUR', counterparty: 'Žofia, Ltd', note: '@home', reference: null,
  } as const;

  it('writes the header and a history row in the columns’ order, types, directions and statuses in words', () => {
    expect(csvStart()).toBe('Date,Transaction ID,Type,Direction,Status,Account,Amount,Currency,Counterparty,Note,Reference\r\n');
    expect(transactionCsvLine(row)).toBe(`2026-03-04T05:06:07Z,7-out,Payment to a person,Outgoing,Completed,3,-5.00,EUR,"Žofia, Ltd",'@home,\r\n`);
  });

  it('writes them in the customer’s language', () => {
    expect(csvStart('ru')).toBe('Дата,ID операции,Тип,Направление,Статус,Счёт,Сумма,Валюта,Контрагент,Сообщение,Назначение платежа\r\n');
    expect(transactionCsvLine({ ...row, status: 'pending', operationType: 'exchange', direction: 'in' }, 'uk')).toBe(
      `2026-03-04T05:06:07Z,7-in,Обмін валюти,Вхідна,В обробці,3,-5.00,EUR,"Žofia, Ltd",'@home,\r\n`,
    );
  });

  it('gives each row its own id: the transfer’s id and its side, a journal entry’s id marked E with its account', () => {
    expect(csvRowId({ kind: 'transfer', transactionId: 7, operationType: 'betweenAccounts', direction: 'out', accountId: 3 })).toBe('7-out');
    expect(csvRowId({ kind: 'transfer', transactionId: 7, operationType: 'betweenAccounts', direction: 'in', accountId: 4 })).toBe('7-in');
    expect(csvRowId({ kind: 'transfer', transactionId: 7, operationType: 'Fees', direction: 'out', accountId: 3 })).toBe('7-fee');
    expect(csvRowId({ kind: 'entry', transactionId: 7, operationType: 'deposit', direction: 'in', accountId: 3 })).toBe('E7-3');
    // an account fee is an entry too: its id is the entry's, not a transfer's fee row
    expect(csvRowId({ kind: 'entry', transactionId: 7, operationType: 'Fees', direction: 'out', accountId: 3 })).toBe('E7-3');
  });

  it('names the files', () => {
    expect(manualExportFileName(new Date('2026-03-04T05:06:07Z'))).toBe('history-20260304-0506.csv');
    expect(monthlyExportFileName(12, '2026-02')).toBe('history-12-2026-02.csv');
  });
});
