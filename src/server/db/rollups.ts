import type { Queryable } from './types';

/**
 * Rollups (tables rollup_*): per-run and per-day summaries the India-wide and multi-day reports read instead of raw
 * rows. No application code refreshes them: triggers on the tables they read record the touched runs in a dirty set
 * and a deferred trigger recomputes them before the transaction commits (docs/data-model.md, "Rollups"). The functions
 * that compute them live one per file in src/server/db/functions.
 */

/** The rollup tables of the database, by name (rollup_%). */
export async function listRollupTables(db: Queryable): Promise<string[]> {
  const { rows } = await db.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p') AND c.relname LIKE 'rollup\\_%' ORDER BY 1`,
  );
  return rows.map((r) => r.name);
}

/**
 * A bulk load's transaction (the seed): its runs stay in the dirty set instead of being recomputed at its commit, for
 * one drainRollups when the load ends. A load interrupted before then leaves them there for the next start's drain
 * (migrate runs hht_drain_dirty). Only for loads that nobody reads meanwhile: until the drain the rollups lag.
 */
export async function deferRollupDrain(tx: Queryable): Promise<void> {
  await tx.query("SET LOCAL hht.drain_later = 'on'");
}

/** Recomputes what the dirty set names now (after loads that deferred it); returns the (run, table) entries drained. */
export async function drainRollups(db: Queryable): Promise<number> {
  const { rows } = await db.query<{ n: number }>('SELECT hht_drain_dirty() AS n');
  return rows[0]?.n ?? 0;
}
