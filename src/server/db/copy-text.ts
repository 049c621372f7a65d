/**
 * PostgreSQL's COPY text format (tab-separated columns, one row per line): the cheapest way to append many rows.
 * A text field escapes backslash, tab, newline and carriage return; NULL is \N.
 */

/** One text field; null for NULL. */
export function copyField(value: string | null): string {
  if (value === null) return '\\N';
  return /[\\\t\n\r]/.test(value)
    ? value.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r')
    : value;
}

/** One row as a line (with its newline). */
export function copyLine(fields: readonly (string | null)[]): string {
  let line = '';
  for (let i = 0; i < fields.length; i += 1) line += (i === 0 ? '' : '\t') + copyField(fields[i] ?? null);
  return `${line}\n`;
}

/** Table and column names are spliced into COPY: plain lower-case identifiers only, never request text. */
export function checkIdentifier(name: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new RangeError(`bad identifier ${name}`);
  return name;
}
