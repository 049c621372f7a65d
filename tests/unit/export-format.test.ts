import { describe, expect, it } from 'vitest';
import { csvCell, csvStream } from '../../src/server/reports/export/csv';
import { exportFileName, inBatches } from '../../src/server/reports/export';
import { columnPlain, columnText, formatCell, formatDate, formatDateTime, formatPlain } from '../../src/shared/column-types';

describe('column formatting', () => {
  it('shows dates dd/mm/yyyy and timestamps in IST', () => {
    expect(formatDate('2026-11-22')).toBe('22/11/2026');
    expect(formatDateTime('2026-11-22T20:00:00Z')).toBe('23/11/2026 01:30');
    expect(formatDate(new Date('2026-11-22T20:00:00Z'))).toBe('23/11/2026');
  });
  it('shows money as rupees in Indian grouping and keeps CSV numbers plain', () => {
    expect(formatCell('currency', 123456.5)).toBe('₹ 1,23,456.50');
    expect(formatPlain('currency', '123456.5')).toBe('123456.50');
    expect(formatCell('percent', 87.25)).toBe('87.25 %');
  });
  it('shows the words of a column labels map for its codes, element by element in lists, and other values as they are', () => {
    const col = { type: 'status' as const, labels: { NOT_SUBMITTED: 'Not submitted', GOT_DOWN: 'Got down' } };
    expect(columnText(col, 'NOT_SUBMITTED')).toBe('Not submitted');
    expect(columnPlain(col, 'GOT_DOWN')).toBe('Got down');
    expect(columnText(col, ['GOT_DOWN', 'NOT_SUBMITTED'])).toBe('Got down, Not submitted');
    expect(columnText(col, 'SOMETHING_NEW')).toBe('SOMETHING_NEW');
    expect(columnText(col, null)).toBe('');
    // An inherited property name is not a label.
    expect(columnText(col, 'constructor')).toBe('constructor');
    expect(columnText({ type: 'number', labels: { '1': 'One' } }, 1)).toBe('One');
    expect(columnText({ type: 'number' }, 1234)).toBe('1,234');
  });
});

describe('CSV export', () => {
  it('neutralises spreadsheet formulas in text cells', () => {
    expect(csvCell('=HYPERLINK("http://x")')).toBe(`"'=HYPERLINK(""http://x"")"`);
    expect(csvCell('+91 98')).toBe("'+91 98");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('plain, text')).toBe('"plain, text"');
  });

  it('writes a header and every row, negative amounts as numbers', async () => {
    const stream = csvStream({
      columns: [
        { field: 'name', headerName: 'Name' },
        { field: 'amt', headerName: 'Amount', type: 'currency' },
        { field: 'd', headerName: 'Date', type: 'date' },
      ],
      rows: inBatches([
        { name: '=cmd', amt: -250, d: '2026-11-01' },
        { name: 'Ravi', amt: 1000, d: '2026-11-02' },
      ]),
      meta: { title: 't', filters: [], user: 'u', generatedAt: new Date() },
    });
    let text = '';
    for await (const chunk of stream) text += String(chunk);
    expect(text.split('\r\n')).toEqual(['\uFEFFName,Amount,Date', "'=cmd,-250.00,01/11/2026", 'Ravi,1000.00,02/11/2026', '']);
  });
});

describe('export file names', () => {
  it('fills the template from the filter and keeps only safe characters', () => {
    expect(exportFileName('vacant-berths-{trainNo}-{startDate}', { trainNo: '12951', startDate: '2026-11-22' }, 'csv')).toBe(
      'vacant-berths-12951-2026-11-22.csv',
    );
    expect(exportFileName('x-{a}', { a: '../../etc passwd' }, 'pdf')).toBe('x-.._.._etc_passwd.pdf');
  });
});
