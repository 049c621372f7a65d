import type { Queryable } from '../db';
import type { ChangeTable, PlannedChange } from './plan';

/** Parents first: an EFT before the dropped e-ticket that names it, a deficiency before its closing. */
const ORDER: ChangeTable[] = ['beats', 'passengers', 'vacant_berths', 'efts', 'tdrs', 'complaints', 'dropped_etickets', 'coach_deficiencies'];

/**
 * Extra condition of an update, so applying a change twice (a crash between release and mark) cannot undo what
 * happened after it: the chart's berth of a passenger is set only while nobody marked them (no shift or allotment).
 */
const GUARD: Partial<Record<ChangeTable, string>> = { passengers: 't.mark IS NULL' };

const COLUMN = /^[a-z_][a-z0-9_]*$/;
const col = (c: string): string => {
  if (!COLUMN.test(c)) throw new Error(`bad column ${c}`);
  return `"${c}"`;
};

/**
 * Applies the planned changes that do not come from terminals (PRS, Rail Madad, the lobby): inserts first (a row
 * already there is kept), then updates, a statement per table and set of columns. Idempotent, like the ingest.
 */
export async function applyChanges(tx: Queryable, changes: readonly PlannedChange[]): Promise<number> {
  let applied = 0;
  for (const table of ORDER) {
    const inserts = changes.flatMap((c) => (c.table === table && 'insert' in c ? [c.insert] : []));
    if (inserts.length > 0) {
      const cols = Object.keys(inserts[0] ?? {}).map(col).join(', ');
      const { rows } = await tx.query(
        `INSERT INTO ${table} (${cols}) SELECT ${cols} FROM json_populate_recordset(NULL::${table}, $1::json) ON CONFLICT DO NOTHING RETURNING 1`,
        [JSON.stringify(inserts)],
      );
      applied += rows.length;
    }
  }
  for (const table of ORDER) {
    const bySet = new Map<string, { key: string[]; set: string[]; rows: Record<string, unknown>[] }>();
    for (const c of changes) {
      if (c.table !== table || !('set' in c)) continue;
      const key = Object.keys(c.key);
      const set = Object.keys(c.set);
      const sig = `${key.join(',')}|${set.join(',')}`;
      const group = bySet.get(sig) ?? { key, set, rows: [] };
      group.rows.push({ ...c.key, ...c.set });
      bySet.set(sig, group);
    }
    for (const g of bySet.values()) {
      const guard = GUARD[table];
      const { rows } = await tx.query(
        `UPDATE ${table} t SET ${g.set.map((c) => `${col(c)} = r.${col(c)}`).join(', ')}
         FROM json_populate_recordset(NULL::${table}, $1::json) r
         WHERE ${g.key.map((c) => `t.${col(c)} = r.${col(c)}`).join(' AND ')}${guard ? ` AND ${guard}` : ''} RETURNING 1`,
        [JSON.stringify(g.rows)],
      );
      applied += rows.length;
    }
  }
  return applied;
}
