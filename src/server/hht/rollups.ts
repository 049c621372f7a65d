import type { Queryable } from '../db';
import { fillRollupsForRuns, type RollupPart } from '../db/rollups';
import type { HhtRecordType } from '../../shared/hht-sync';

/**
 * What each kind of record can change in the rollups: marks and events (CHECK, ALLOTMENT), EFTs, berths released or
 * given on board (BERTH_RELEASE, ALLOTMENT).
 * Sign-on/off, TWR status, deficiencies and TDR remarks feed none of them (manning comes from beats' HHTs, which a
 * sync does not change; TDR counts from the TDRs' status, which a remark does not change).
 */
const PARTS: Record<HhtRecordType, readonly RollupPart[]> = {
  CHECK: ['passengers', 'sync'],
  ALLOTMENT: ['passengers', 'sync', 'vacancies'],
  EFT: ['efts'],
  BERTH_RELEASE: ['vacancies'],
  SIGN_ON: [],
  SIGN_OFF: [],
  TWR: [],
  DEFICIENCY: [],
  DEFICIENCY_CLOSE: [],
  TDR_REMARK: [],
};

/**
 * Keeps the report rollups current as HHT records arrive: every record names its beat, and a beat id is
 * run_id * 10 + beat number, so the runs a batch touched are known without a query; only the rollups its record
 * types can change are recomputed. Called once per batch, inside the ingest's transaction, after the records are
 * stored: a refused batch changes no rollup.
 */
export async function refreshRollupsForBatch(tx: Queryable, records: Iterable<{ beatId: number; type: HhtRecordType }>): Promise<void> {
  const runs = new Map<number, Set<RollupPart>>();
  for (const r of records) {
    const runId = Math.floor(r.beatId / 10);
    const parts = runs.get(runId) ?? new Set<RollupPart>();
    for (const p of PARTS[r.type]) parts.add(p);
    runs.set(runId, parts);
  }
  await fillRollupsForRuns(tx, runs);
}
