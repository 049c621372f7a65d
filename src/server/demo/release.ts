import type { Db } from '../db';
import { ingestBatch } from '../hht/ingest';
import type { PlannedRecord } from './plan';

/** Internal batches may be larger than a terminal's: fewer statements when a whole past day is loaded. */
const RELEASE_BATCH = 5000;

/**
 * Stores planned records through the sync API's own ingest, one batch per device (and per 5,000 records), each
 * record with its planned sync time. Returns the records stored (a record stored before is skipped by its id).
 * `deferRollups`: the seed's batches leave their runs to the drain at the seed's end (IngestBatch.deferRollups).
 */
export async function releaseRecords(
  db: Db, records: readonly PlannedRecord[], tag: string, receivedAt: Date, deferRollups = false,
): Promise<number> {
  const byDevice = new Map<string, PlannedRecord[]>();
  for (const r of records) {
    const list = byDevice.get(r.deviceId);
    if (list) list.push(r);
    else byDevice.set(r.deviceId, [r]);
  }
  let stored = 0;
  for (const [deviceId, list] of byDevice) {
    for (let i = 0; i < list.length; i += RELEASE_BATCH) {
      const part = list.slice(i, i + RELEASE_BATCH);
      const answer = await ingestBatch(db, {
        deviceId,
        batchId: `${tag}:${i / RELEASE_BATCH}`,
        records: part.map((r) => r.record),
        syncTimes: part.map((r) => r.syncTime),
        receivedAt,
        relaxForeignKeys: true,
        deferRollups,
      });
      stored += answer.stored;
    }
  }
  return stored;
}
