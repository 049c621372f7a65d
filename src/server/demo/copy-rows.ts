import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { copyValue } from '../db/copy-text';

type Row = Record<string, unknown>;

/** Every key any row has, in first-seen order: a generator may leave an optional field out of some rows. */
function columnsOf(rows: readonly Row[]): string[] {
  const cols = new Set<string>();
  for (const r of rows) for (const k of Object.keys(r)) cols.add(k);
  return [...cols];
}

/** COPY text of the rows, in pieces of about 1 MB so no single string grows huge. */
function* copyText(rows: readonly Row[], cols: readonly string[]): Generator<string> {
  let buf = '';
  for (const r of rows) {
    buf += `${cols.map((c) => copyValue(r[c])).join('\t')}\n`;
    if (buf.length > 1_000_000) {
      yield buf;
      buf = '';
    }
  }
  if (buf) yield buf;
}

/** Writes rows to a table with COPY FROM STDIN on the given connection (inside its transaction, if any). */
export async function copyRows(client: pg.ClientBase, table: string, rows: readonly Row[]): Promise<void> {
  if (rows.length === 0) return;
  if (!/^[a-z_][a-z0-9_]*$/.test(table)) throw new Error(`bad table name ${table}`);
  const cols = columnsOf(rows);
  for (const c of cols) if (!/^[a-z_][a-z0-9_]*$/.test(c)) throw new Error(`bad column name ${c} of ${table}`);
  const sink = client.query(copyFrom(`COPY ${table} (${cols.join(', ')}) FROM STDIN`));
  await pipeline(Readable.from(copyText(rows, cols)), sink);
}
