import type { Queryable } from './types';

/**
 * Bulk insert that runs unchanged on PGlite and pg: each batch is one JSON parameter expanded by
 * json_populate_recordset against the table's own row type, so column types come from the table.
 */
export async function bulkInsert(
  db: Queryable,
  table: string,
  rows: readonly Record<string, unknown>[],
  batchSize = 5000,
): Promise<void> {
  if (!/^[a-z_][a-z0-9_]*$/.test(table)) throw new Error(`bad table name ${table}`);
  for (let i = 0; i < rows.length; i += batchSize) {
    const batch = rows.slice(i, i + batchSize);
    const cols = Object.keys(batch[0] ?? {});
    if (cols.length === 0) continue;
    const list = cols.map((c) => `"${c}"`).join(', ');
    await db.query(
      `INSERT INTO ${table} (${list}) SELECT ${list} FROM json_populate_recordset(NULL::${table}, $1::json)`,
      [JSON.stringify(batch)],
    );
  }
}
