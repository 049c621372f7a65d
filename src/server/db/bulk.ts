import { copyLines } from './copy-text';
import type { Queryable } from './types';

const NAME = /^[a-z_][a-z0-9_]*$/;

/**
 * Bulk insert on PGlite and pg. Each batch's columns are its first row's keys (a key another row lacks is NULL there).
 * In a transaction that can COPY (Queryable.copyFrom) consecutive batches with the same columns go as one COPY;
 * otherwise each batch is one JSON parameter expanded by json_populate_recordset against the table's own row type.
 * Both write the same rows: copy-text.ts reads values as json_populate_recordset reads JSON
 * (tests/api/bulk-copy.test.ts); COPY skips the JSON text and its parsing, about half of a seed's insert time.
 */
export async function bulkInsert(
  db: Queryable,
  table: string,
  rows: readonly Record<string, unknown>[],
  batchSize = 5000,
): Promise<void> {
  if (!NAME.test(table)) throw new Error(`bad table name ${table}`);
  const copy = db.copyFrom?.bind(db);
  let pending: { cols: string[]; from: number; to: number } | undefined;
  const flush = async (): Promise<void> => {
    if (pending && copy) await copy(table, pending.cols, copyLines(rows.slice(pending.from, pending.to), pending.cols));
    pending = undefined;
  };
  for (let i = 0; i < rows.length; i += batchSize) {
    const batch = rows.slice(i, i + batchSize);
    const cols = Object.keys(batch[0] ?? {});
    if (cols.length === 0) continue;
    if (copy) {
      for (const c of cols) if (!NAME.test(c)) throw new Error(`bad column name ${c} of ${table}`);
      if (pending && pending.to === i && pending.cols.join() === cols.join()) pending.to = i + batch.length;
      else {
        await flush();
        pending = { cols, from: i, to: i + batch.length };
      }
      continue;
    }
    const list = cols.map((c) => `"${c}"`).join(', ');
    await db.query(
      `INSERT INTO ${table} (${list}) SELECT ${list} FROM json_populate_recordset(NULL::${table}, $1::json)`,
      [JSON.stringify(batch)],
    );
  }
  await flush();
}
