import { Readable } from 'node:stream';
import { columnPlain } from '../../../shared/column-types';
import type { ExportInput } from './types';

/** A spreadsheet would run text starting with these as a formula: prefix it with a quote (OWASP CSV injection). */
const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(value: string): string {
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** CSV (UTF-8 with BOM so Excel reads ₹ and names), streamed batch by batch. */
export function csvStream({ columns, rows }: ExportInput): Readable {
  async function* lines(): AsyncGenerator<string> {
    yield `\uFEFF${columns.map((c) => csvCell(c.headerName)).join(',')}\r\n`;
    for await (const batch of rows) {
      let chunk = '';
      for (const row of batch) {
        chunk += `${columns
          .map((c) => {
            const text = columnPlain(c, row[c.field]);
            // A plain number (even negative) is not a formula: leave it numeric; everything else is guarded.
            return /^-?\d+(\.\d+)?$/.test(text) ? text : csvCell(text);
          })
          .join(',')}\r\n`;
      }
      yield chunk;
    }
  }
  return Readable.from(lines());
}
