import type { Queryable } from '../db';
import { fillRollupsForRuns } from '../db/rollups';

/**
 * Keeps the report rollups current as HHT records arrive: every record names its beat, and a beat id is
 * run_id * 10 + beat number, so the runs a batch touched are known without a query. Called once per batch,
 * inside the ingest's transaction, after the records are stored: a refused batch changes no rollup.
 */
export async function refreshRollupsForBatch(tx: Queryable, records: Iterable<{ beatId: number }>): Promise<void> {
  const runs = new Set<number>();
  for (const r of records) runs.add(Math.floor(r.beatId / 10));
  await fillRollupsForRuns(tx, runs);
}
