import { bulkInsert } from '../db/bulk';
import { ensureRunPartitions } from '../db/partitions';
import { deferRollupDrain } from '../db/rollups';
import type { Db, Queryable } from '../db/types';
import { relaxForeignKeyTriggers as relaxTriggers } from '../db/triggers';
import type { Reference } from './reference';
import { emptyRunRows, generateRun, RUN_TABLES, runsOn, type RunRows } from './runs';

/** Every table the seed writes, children last; `users` is never touched. */
export const SEED_TABLES = [
  'zones',
  'divisions',
  'stations',
  'lobbies',
  'offices',
  'trains',
  'train_stops',
  'train_consist',
  'ttes',
  'devices',
  ...RUN_TABLES,
] as const;

export async function loadReference(tx: Queryable, ref: Reference): Promise<void> {
  await relaxTriggers(tx);
  for (const [table, rows] of ref.tables) await bulkInsert(tx, table, rows);
}

/** Generates all runs of one day in memory. */
export function generateDay(ref: Reference, date: string, today: string): RunRows {
  const all = emptyRunRows();
  ref.trains.forEach((train, trainIdx) => {
    if (!runsOn(train, date)) return;
    const run = generateRun({ ref, trainIdx }, train, date, date <= today);
    for (const table of RUN_TABLES) {
      const target = all[table];
      for (const row of run[table]) target.push(row);
    }
  });
  return all;
}

/**
 * Writes one day's rows and moves seed_state forward, in one transaction: a day is there completely or not at all.
 * Its rollups are the database's business: the dirty set names the whole date, left there for the one drain at the
 * end of the window's fill (fillWindow; an interrupted fill is drained at the next start).
 */
export async function loadDay(db: Db, rows: RunRows, date: string): Promise<boolean> {
  // The day's partitions first, in their own short transaction (creating one locks the parent table briefly).
  await ensureRunPartitions(db, date, date);
  return db.transaction(async (tx) => {
    // Serialises instances filling the window together: the second one finds the day present and skips it.
    await tx.query('SELECT last_run_date FROM seed_state WHERE id = 1 FOR UPDATE');
    const present = await tx.query('SELECT 1 FROM train_runs WHERE start_date = $1::date LIMIT 1', [date]);
    if (present.rows.length > 0) return false;
    await relaxTriggers(tx);
    await deferRollupDrain(tx);
    for (const table of RUN_TABLES) {
      if (rows[table].length > 0) await bulkInsert(tx, table, rows[table]);
    }
    await tx.query('UPDATE seed_state SET last_run_date = GREATEST(last_run_date, $1::date) WHERE id = 1', [date]);
    return true;
  });
}

/** Removes the runs of the given dates with everything hanging off them (used to chart tomorrow's runs). */
export async function deleteRunsOf(tx: Queryable, dates: readonly string[]): Promise<void> {
  if (dates.length === 0) return;
  // Without this, each deleted passenger's foreign-key check scans checking_events (no psgn_id index).
  await relaxTriggers(tx);
  const runs = 'SELECT run_id FROM train_runs WHERE start_date = ANY($1::date[])';
  await tx.query(`DELETE FROM digital_payments WHERE eft_no IN (SELECT eft_no FROM efts WHERE run_id IN (${runs}))`, [dates]);
  for (const table of [...RUN_TABLES].reverse()) {
    if (table === 'digital_payments' || table === 'train_runs') continue;
    await tx.query(`DELETE FROM ${table} WHERE run_id IN (${runs})`, [dates]);
  }
  await tx.query('DELETE FROM train_runs WHERE start_date = ANY($1::date[])', [dates]);
}

/** An HHT's last sync is the latest sync of any of its events. */
export async function refreshDeviceSync(db: Db): Promise<void> {
  await db.query(`UPDATE devices d SET last_sync_at = s.last_sync
    FROM (SELECT device_id, max(sync_time) AS last_sync FROM checking_events WHERE device_id IS NOT NULL GROUP BY device_id) s
    WHERE s.device_id = d.device_id AND d.last_sync_at IS DISTINCT FROM s.last_sync`);
}

export async function tableCounts(db: Db): Promise<[string, number][]> {
  const out: [string, number][] = [];
  for (const t of SEED_TABLES) {
    const { rows } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${t}`);
    out.push([t, rows[0]?.n ?? 0]);
  }
  return out;
}
