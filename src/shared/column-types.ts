/**
 * Registry of column types by name. Definitions name a type; the grid, CSV, xlsx and PDF all format
 * through here, so a date looks the same (dd/mm/yyyy) everywhere.
 */
export const COLUMN_TYPES = ['text', 'number', 'date', 'datetime', 'currency', 'percent', 'status', 'link'] as const;
export type ColumnTypeName = (typeof COLUMN_TYPES)[number];

export function isColumnType(name: string): name is ColumnTypeName {
  return (COLUMN_TYPES as readonly string[]).includes(name);
}

const pad = (n: number): string => String(n).padStart(2, '0');

/** 'YYYY-MM-DD' or a timestamp -> dd/mm/yyyy (calendar date as stored; timestamps in IST). */
export function formatDate(value: unknown): string {
  if (value === null || value === undefined || value === '') return '';
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value)) {
    const [y, m, d] = value.split('-');
    return `${d}/${m}/${y}`;
  }
  const t = toIst(value);
  return t ? `${pad(t.getUTCDate())}/${pad(t.getUTCMonth() + 1)}/${t.getUTCFullYear()}` : String(value);
}

/** Timestamp -> dd/mm/yyyy HH:mm in IST (railway time). */
export function formatDateTime(value: unknown): string {
  if (value === null || value === undefined || value === '') return '';
  const t = toIst(value);
  if (!t) return String(value);
  return `${pad(t.getUTCDate())}/${pad(t.getUTCMonth() + 1)}/${t.getUTCFullYear()} ${pad(t.getUTCHours())}:${pad(t.getUTCMinutes())}`;
}

function toIst(value: unknown): Date | null {
  const d = value instanceof Date ? value : typeof value === 'string' || typeof value === 'number' ? new Date(value) : null;
  if (!d || Number.isNaN(d.getTime())) return null;
  return new Date(d.getTime() + 330 * 60_000);
}

const inr = new Intl.NumberFormat('en-IN', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const num = new Intl.NumberFormat('en-IN', { maximumFractionDigits: 2 });

export function toNumber(value: unknown): number | null {
  if (value === null || value === undefined || value === '') return null;
  const n = typeof value === 'number' ? value : Number(value);
  return Number.isFinite(n) ? n : null;
}

/** Text for people (grid cells, PDF): rupees as ₹ 1,23,456.00, percent with %, dates dd/mm/yyyy. */
export function formatCell(type: ColumnTypeName | undefined, value: unknown): string {
  if (value === null || value === undefined) return '';
  switch (type) {
    case 'date':
      return formatDate(value);
    case 'datetime':
      return formatDateTime(value);
    case 'currency': {
      const n = toNumber(value);
      return n === null ? String(value) : `₹ ${inr.format(n)}`;
    }
    case 'percent': {
      const n = toNumber(value);
      return n === null ? String(value) : `${num.format(n)} %`;
    }
    case 'number': {
      const n = toNumber(value);
      return n === null ? String(value) : num.format(n);
    }
    default:
      if (Array.isArray(value)) return value.join(', ');
      if (typeof value === 'boolean') return value ? 'Yes' : 'No';
      return String(value);
  }
}

/** Plain text for CSV: no thousands separators or currency symbol, so spreadsheets read numbers. */
export function formatPlain(type: ColumnTypeName | undefined, value: unknown): string {
  if (value === null || value === undefined) return '';
  switch (type) {
    case 'date':
      return formatDate(value);
    case 'datetime':
      return formatDateTime(value);
    case 'currency': {
      const n = toNumber(value);
      return n === null ? String(value) : n.toFixed(2);
    }
    case 'number':
    case 'percent': {
      const n = toNumber(value);
      return n === null ? String(value) : String(n);
    }
    default:
      return formatCell(type, value);
  }
}

/** What formatting needs of a column: its type and the words for its stored codes (a definition's `labels`). */
export interface FormattedColumn {
  type?: ColumnTypeName | undefined;
  labels?: Readonly<Record<string, string>> | undefined;
}

/** A stored code in the words of the column's `labels` (lists element by element); other values unchanged. */
export function labelled(col: FormattedColumn, value: unknown): unknown {
  const labels = col.labels;
  if (!labels) return value;
  if (Array.isArray(value)) return value.map((v) => labelled(col, v));
  if (typeof value === 'string' || typeof value === 'number') {
    const key = String(value);
    return Object.hasOwn(labels, key) ? labels[key] : value;
  }
  return value;
}

/** A cell for people (grid, print, PDF, xlsx text): the label of a code, then the type's format. */
export function columnText(col: FormattedColumn, value: unknown): string {
  return formatCell(col.type, labelled(col, value));
}

/** A cell for CSV: the label of a code, then the plain format of the type. */
export function columnPlain(col: FormattedColumn, value: unknown): string {
  return formatPlain(col.type, labelled(col, value));
}
