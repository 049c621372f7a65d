import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Db, Queryable } from './types';

/** One reference query per rollup table: the table's rows computed from the raw rows (src/server/db/references). */
export const REFERENCES_DIR = new URL('./references/', import.meta.url).pathname;

export interface RollupReference {
  table: string;
  sql: string;
  /** Keyed by run (`-- key: run_id`): the query takes the run_id range [$1, $2) and the table has a run_id. */
  perRun: boolean;
}

export function readRollupReferences(dir = REFERENCES_DIR): Map<string, RollupReference> {
  const out = new Map<string, RollupReference>();
  for (const f of readdirSync(dir).filter((n) => /^rollup_[a-z0-9_]+\.sql$/.test(n)).sort()) {
    const sql = readFileSync(join(dir, f), 'utf8');
    const table = f.slice(0, -4);
    out.set(table, { table, sql, perRun: /^-- key: run_id$/m.test(sql) });
  }
  return out;
}

export interface RollupDrift {
  table: string;
  /** Rows the reference has and the rollup lacks (counted with multiplicity: EXCEPT ALL). */
  missing: number;
  /** Rows the rollup has and the reference lacks. */
  extra: number;
}

const ALL_RUNS: [number, string] = [0, '9223372036854775807'];

/**
 * Compares a rollup table with its reference both ways (EXCEPT ALL), for the runs lo <= run_id < hi when the
 * reference is per run (every run by default), the whole table otherwise.
 */
export async function rollupDrift(db: Queryable, ref: RollupReference, runs: [number | string, number | string] = ALL_RUNS): Promise<RollupDrift> {
  const cur = ref.perRun ? `SELECT * FROM ${ref.table} WHERE run_id >= $1::bigint AND run_id < $2::bigint` : `SELECT * FROM ${ref.table}`;
  const { rows } = await db.query<{ missing: number; extra: number }>(
    `WITH ref AS MATERIALIZED (${ref.sql}), cur AS MATERIALIZED (${cur})
     SELECT (SELECT count(*) FROM (SELECT * FROM ref EXCEPT ALL SELECT * FROM cur) a)::int AS missing,
            (SELECT count(*) FROM (SELECT * FROM cur EXCEPT ALL SELECT * FROM ref) b)::int AS extra`,
    ref.perRun ? runs : [],
  );
  return { table: ref.table, missing: rows[0]?.missing ?? 0, extra: rows[0]?.extra ?? 0 };
}

/** Runs the auditor checks per pass; a pass an hour at this size keeps it a background cost. */
export const AUDIT_RUNS_PER_PASS = 5;

export interface AuditPass {
  runs: number[];
  repairs: { runId: number; table: string; missing: number; extra: number }[];
}

/**
 * One pass of the rollup auditor: the next few runs in run_id order (from where the last pass stopped, wrapping at
 * the end), every per-run rollup compared with its reference; a run whose rollups differ anywhere is put in the
 * dirty set and so recomputed whole, with the day rows it feeds, when the pass commits, and each differing table is
 * recorded in hht_rollup_repairs. The run-keyed references are the audit's unit: the day rollups are kept from them
 * by the same recompute, and the invariant suite checks them against the raw rows.
 */
export async function auditRollups(db: Db, runsPerPass = AUDIT_RUNS_PER_PASS, refs = readRollupReferences()): Promise<AuditPass> {
  const perRun = [...refs.values()].filter((r) => r.perRun);
  return db.transaction(async (tx) => {
    const state = await tx.query<{ next: string }>('SELECT next_run_id::text AS next FROM hht_rollup_audit_state WHERE id = 1 FOR UPDATE');
    const from = state.rows[0]?.next ?? '0';
    let picked = await tx.query<{ run_id: string }>(
      'SELECT run_id::text AS run_id FROM train_runs WHERE run_id >= $1::bigint ORDER BY run_id LIMIT $2',
      [from, runsPerPass],
    );
    if (picked.rows.length < runsPerPass && from !== '0') {
      const more = await tx.query<{ run_id: string }>(
        'SELECT run_id::text AS run_id FROM train_runs WHERE run_id < $1::bigint ORDER BY run_id LIMIT $2',
        [from, runsPerPass - picked.rows.length],
      );
      picked = { ...picked, rows: [...picked.rows, ...more.rows] };
    }
    const runs = picked.rows.map((r) => Number(r.run_id));
    const repairs: AuditPass['repairs'] = [];
    for (const runId of runs) {
      for (const ref of perRun) {
        const d = await rollupDrift(tx, ref, [runId, runId + 1]);
        if (d.missing > 0 || d.extra > 0) repairs.push({ runId, table: ref.table, missing: d.missing, extra: d.extra });
      }
    }
    for (const r of repairs) {
      await tx.query('INSERT INTO hht_rollup_repairs (run_id, table_name, rows_missing, rows_extra) VALUES ($1, $2, $3, $4)', [
        r.runId, r.table, r.missing, r.extra,
      ]);
    }
    const dirty = [...new Set(repairs.map((r) => r.runId))];
    if (dirty.length > 0) {
      await tx.query(`INSERT INTO hht_dirty (run_id, source) SELECT unnest($1::bigint[]), 'train_runs'`, [dirty]);
    }
    // The runs come in walking order (on from the mark, then from the start): the next pass starts after the last.
    const lastRun = runs[runs.length - 1];
    const next = lastRun === undefined ? 0 : lastRun + 1;
    await tx.query('UPDATE hht_rollup_audit_state SET next_run_id = $1, runs_checked = runs_checked + $2, last_pass_at = now() WHERE id = 1', [
      next, runs.length,
    ]);
    return { runs, repairs };
  });
}

/** The number of repairs the auditor has made so far (for health and metrics). */
export async function rollupRepairCount(db: Queryable): Promise<number> {
  const { rows } = await db.query<{ n: string }>('SELECT hht_rollup_repairs()::text AS n');
  return Number(rows[0]?.n ?? 0);
}
