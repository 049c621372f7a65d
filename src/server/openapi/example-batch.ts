import type { Db } from '../db';

/** A sync batch the server accepts as it stands: one device's beat of yesterday's run, from the data (if any). */
export interface ExampleBatch {
  deviceId: string;
  batch: { batchId: string; records: Record<string, unknown>[] };
}

/**
 * Built from the database when the document is asked for, so a vendor can send it to this server (with a credential
 * of `deviceId`) and see a 200: a check of a passenger on the beat's coach, the Train Working Report and a deficiency.
 * undefined when no in-service device worked a beat yesterday (an empty database).
 */
export async function exampleBatch(db: Db, now: Date): Promise<ExampleBatch | undefined> {
  const beat = (
    await db.query<{ beat_id: string | number; device_id: string; coach: string; station: string; run_id: string | number }>(
      `SELECT b.beat_id, b.device_id, b.coaches[1] AS coach, t.src_station AS station, b.run_id
         FROM beats b JOIN devices d USING (device_id) JOIN train_runs tr ON tr.run_id = b.run_id JOIN trains t ON t.train_no = tr.train_no
        WHERE d.status = 'IN_SERVICE' AND tr.start_date = ist_date($1::timestamptz) - 1 AND cardinality(b.coaches) > 0
        ORDER BY b.beat_id LIMIT 1`,
      [now.toISOString()],
    )
  ).rows[0];
  if (!beat) return undefined;
  const psgn = (
    await db.query<{ psgn_id: string | number }>('SELECT psgn_id FROM passengers WHERE run_id = $1 AND coach_id = $2 ORDER BY psgn_id LIMIT 1', [beat.run_id, beat.coach])
  ).rows[0];
  const at = (minutesAgo: number): string => new Date(now.getTime() - minutesAgo * 60_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
  const beatId = Number(beat.beat_id);
  const stamp = now.toISOString().replace(/\D/g, '').slice(0, 14);
  const records: Record<string, unknown>[] = [
    ...(psgn ? [{ id: `ex-${stamp}-1`, type: 'CHECK', beatId, eventType: 'O', psgnId: Number(psgn.psgn_id), coachId: beat.coach, deviceTime: at(30) }] : []),
    { id: `ex-${stamp}-2`, type: 'TWR', beatId, twrStatus: 'SUBMITTED', at: at(20) },
    {
      id: `ex-${stamp}-3`, type: 'DEFICIENCY', beatId, coachId: beat.coach, category: 'WATER', description: 'No water in the toilets',
      stationCode: beat.station, reportedAt: at(25),
    },
  ];
  return { deviceId: beat.device_id, batch: { batchId: `${beat.device_id}-example-${stamp}`, records } };
}
