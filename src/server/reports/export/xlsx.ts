import { PassThrough, type Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import { columnText, toNumber } from '../../../shared/column-types';
import type { ColumnDef } from '../../../shared/report-definition';
import type { ExportInput } from './types';

const IST_MS = 330 * 60_000;

/** Excel has no time zones: give it the IST wall-clock time. */
function istWallClock(value: unknown): Date | null {
  const d = value instanceof Date ? value : typeof value === 'string' ? new Date(value) : null;
  return d && !Number.isNaN(d.getTime()) ? new Date(d.getTime() + IST_MS) : null;
}

function typedCell(c: ColumnDef, value: unknown): ExcelJS.CellValue {
  if (value === null || value === undefined) return null;
  switch (c.type) {
    case 'number':
    case 'currency':
    case 'percent':
      return toNumber(value) ?? String(value);
    case 'date':
      if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value)) return new Date(`${value}T00:00:00Z`);
      return istWallClock(value) ?? String(value);
    case 'datetime':
      return istWallClock(value) ?? String(value);
    default:
      return columnText(c, value);
  }
}

/**
 * Indian digit grouping (12,34,567) whatever the reader's Excel locale: a number format groups by thousands only,
 * so lakhs and crores get their own sections by value. Below zero the last section applies (thousands grouping).
 */
function indianGrouping(decimals: string, prefix = ''): string {
  return `[>=10000000]${prefix}##\\,##\\,##\\,##0${decimals};[>=100000]${prefix}##\\,##\\,##0${decimals};${prefix}##,##0${decimals}`;
}

const NUM_FMT: Partial<Record<string, string>> = {
  currency: indianGrouping('.00', '"₹" '),
  percent: '0.0"%"',
  date: 'dd/mm/yyyy',
  datetime: 'dd/mm/yyyy hh:mm',
  number: indianGrouping('.##'),
};

/** xlsx with typed cells (numbers, rupees, real dates), written by exceljs's streaming writer. */
export function xlsxStream({ columns, rows, meta }: ExportInput): Readable {
  const out = new PassThrough();
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true });
  wb.creator = meta.user;
  wb.created = meta.generatedAt;
  const ws = wb.addWorksheet(meta.title.slice(0, 31).replace(/[\\/*?:[\]]/g, ' '), {
    views: [{ state: 'frozen', ySplit: 1 }],
  });
  ws.columns = columns.map((c) => {
    const fmt = c.type ? NUM_FMT[c.type] : undefined;
    return {
      header: c.headerName,
      key: c.field,
      width: Math.max(10, Math.min(40, Math.round((c.width ?? 140) / 7))),
      ...(fmt ? { style: { numFmt: fmt } } : {}),
    };
  });
  ws.getRow(1).font = { bold: true };
  (async () => {
    for await (const batch of rows) {
      for (const row of batch) ws.addRow(columns.map((c) => typedCell(c, row[c.field]))).commit();
    }
    ws.commit();
    await wb.commit();
  })().catch((err: unknown) => out.destroy(err instanceof Error ? err : new Error(String(err))));
  return out;
}
