/**
 * Rows as COPY's text format (tab-separated, \N for NULL, backslash escapes), reading each value as
 * json_populate_recordset reads JSON.stringify(row): the same row whichever way a bulk load goes (bulk.ts). So a
 * value JSON has no form for (undefined, NaN, Infinity) is NULL, a Date its ISO text, an object its JSON text.
 */

type Row = Record<string, unknown>;

const NULL = '\\N';

function escapeText(s: string): string {
  return /[\\\t\n\r]/.test(s) ? s.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r') : s;
}

/** One element of an array literal: double-quoted with \ and " escaped; NULL bare, as JSON's null element reads. */
function arrayElement(v: unknown): string {
  const text = scalarText(v);
  return text === null ? 'NULL' : `"${text.replace(/["\\]/g, '\\$&')}"`;
}

/** A value's text before COPY's own escaping, or null for NULL. */
function scalarText(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : null;
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'bigint') return v.toString();
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? null : v.toISOString();
  if (Array.isArray(v)) return `{${v.map(arrayElement).join(',')}}`;
  if (typeof v === 'object') return JSON.stringify(v);
  throw new Error(`cannot COPY a value of type ${typeof v}`);
}

/** One value in COPY's text format. */
export function copyValue(v: unknown): string {
  const text = scalarText(v);
  return text === null ? NULL : escapeText(text);
}

/** The rows' lines for the given columns, each ending in a newline (a key a row lacks is NULL there). */
export function copyLines(rows: readonly Row[], cols: readonly string[]): string {
  let out = '';
  for (const r of rows) {
    let line = '';
    for (let i = 0; i < cols.length; i++) {
      if (i > 0) line += '\t';
      line += copyValue(r[cols[i] as string]);
    }
    out += `${line}\n`;
  }
  return out;
}
