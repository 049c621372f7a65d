import type { Queryable } from '../db';
import type { HhtRecord, HhtRecordType } from '../../shared/hht-sync';
import type { FieldError } from './validate';
import { checkBeatRules, type BeatFacts, type PassengerCoach } from './beat-rules';

/** The batch's records by type, each with the moment of its sync. */
type ByType = Map<HhtRecordType, (HhtRecord & { syncTime: string })[]>;

/**
 * Checks what the shape check cannot: every beat is one of this device's, passengers, vacancies and TDRs belong
 * to the beat's run, and keys the device chose are not taken. One query per kind of reference, not per record,
 * so a refused batch names its bad records before anything would fail half-way with a database error.
 */
export async function checkReferences(
  tx: Queryable,
  deviceId: string,
  byType: ByType,
  indexOf: (r: HhtRecord) => number,
  clockSkewMs: number,
): Promise<{ errors: FieldError[]; runIds: number[] }> {
  const all = [...byType.values()].flat();
  if (all.length === 0) return { errors: [], runIds: [] };
  const errors: FieldError[] = [];
  const at = (r: HhtRecord, field: string, reason: string): void => {
    errors.push({ field: `records[${indexOf(r)}].${field}`, reason });
  };

  const beatIds = [...new Set(all.map((r) => r.beatId))];
  // With each beat its coaches (and their berths) and the run's scheduled start: the facts checkBeatRules needs.
  const beats = await tx.query<{
    beat_id: number | string; run_id: number | string; device_id: string | null; coaches: string[];
    scheduled_start: Date | string; capacity: Record<string, number> | string;
  }>(
    `SELECT b.beat_id, b.run_id, b.device_id, b.coaches,
       ((r.start_date + coalesce(s.dep_time, '00:00')::time) AT TIME ZONE 'Asia/Kolkata') AS scheduled_start,
       (SELECT coalesce(jsonb_object_agg(c.coach_id, c.capacity), '{}') FROM run_coaches c WHERE c.run_id = b.run_id) AS capacity
     FROM beats b JOIN train_runs r ON r.run_id = b.run_id
     LEFT JOIN LATERAL (SELECT dep_time FROM train_stops WHERE train_no = r.train_no ORDER BY seq LIMIT 1) s ON true
     WHERE b.beat_id = ANY($1::bigint[])`,
    [beatIds],
  );
  const runOfBeat = new Map<number, number>();
  const deviceOfBeat = new Map<number, string | null>();
  const facts = new Map<number, BeatFacts>();
  for (const b of beats.rows) {
    runOfBeat.set(Number(b.beat_id), Number(b.run_id));
    deviceOfBeat.set(Number(b.beat_id), b.device_id);
    const capacity = typeof b.capacity === 'string' ? (JSON.parse(b.capacity) as Record<string, number>) : b.capacity;
    facts.set(Number(b.beat_id), {
      runId: Number(b.run_id),
      coaches: b.coaches,
      scheduledStart: new Date(b.scheduled_start).getTime(),
      capacity: new Map(Object.entries(capacity).map(([k, v]) => [k, Number(v)])),
    });
  }
  const good: HhtRecord[] = [];
  const goodSynced: (HhtRecord & { syncTime: string })[] = [];
  for (const r of all) {
    if (!runOfBeat.has(r.beatId)) at(r, 'beatId', 'is not a known beat');
    else if (deviceOfBeat.get(r.beatId) !== deviceId) at(r, 'beatId', `is not a beat worked with device ${deviceId}`);
    else {
      good.push(r);
      goodSynced.push(r);
    }
  }
  const runOf = (r: HhtRecord): number => runOfBeat.get(r.beatId) ?? -1;

  const psgnCoaches = new Map<string, PassengerCoach>();
  const withPsgn = good.filter((r): r is Extract<HhtRecord, { psgnId?: number | null }> => 'psgnId' in r && r.psgnId != null);
  if (withPsgn.length > 0) {
    // Looked up within the batch's runs (partition pruning); a passenger of another run reads as unknown there, so
    // a second, unpruned lookup only for the misses tells "not of this run" from "not known".
    const runs = [...new Set(runOfBeat.values())];
    const { rows: psgnRows } = await tx.query<{ k: string | number; run_id: string | number; coach_id: string | null }>(
      'SELECT psgn_id AS k, run_id, coach_id FROM passengers WHERE run_id = ANY($2::bigint[]) AND psgn_id = ANY($1::bigint[])',
      [withPsgn.map((r) => r.psgnId), runs],
    );
    const inRuns = new Map(psgnRows.map((r) => [String(r.k), Number(r.run_id)]));
    for (const r of psgnRows) psgnCoaches.set(String(r.k), { coach: r.coach_id });
    await addStoredMoves(tx, good, facts, psgnCoaches, runs);
    const missing = withPsgn.filter((r) => !inRuns.has(String(r.psgnId))).map((r) => r.psgnId);
    const rows = missing.length === 0 ? inRuns : new Map([...inRuns, ...(await lookup(tx, 'SELECT psgn_id AS k, run_id FROM passengers WHERE psgn_id = ANY($1::bigint[])', missing))]);
    for (const r of withPsgn) {
      const run = rows.get(String(r.psgnId));
      if (run === undefined) at(r, 'psgnId', 'is not a known passenger');
      else if (run !== runOf(r)) at(r, 'psgnId', "is not a passenger of the beat's train run");
    }
  }

  checkBeatRules(goodSynced, facts, psgnCoaches, clockSkewMs, at);

  const efts = good.filter((r) => r.type === 'EFT');
  if (efts.length > 0) {
    const taken = await lookup(tx, 'SELECT eft_no AS k, run_id FROM efts WHERE eft_no = ANY($1::text[])', efts.map((e) => e.eftNo));
    const inBatch = new Set<string>();
    const txns: [HhtRecord, number, string][] = [];
    for (const e of efts) {
      if (taken.has(e.eftNo) || inBatch.has(e.eftNo)) at(e, 'eftNo', 'is already stored');
      inBatch.add(e.eftNo);
      (e.payments ?? []).forEach((p, j) => txns.push([e, j, p.txnId]));
    }
    if (txns.length > 0) {
      const takenTxn = await lookup(tx, 'SELECT txn_id AS k, 0 AS run_id FROM digital_payments WHERE txn_id = ANY($1::text[])', txns.map((x) => x[2]));
      const seen = new Set<string>();
      for (const [e, j, id] of txns) {
        if (takenTxn.has(id) || seen.has(id)) at(e, `payments[${j}].txnId`, 'is already stored');
        seen.add(id);
      }
    }
  }

  const releases = good.filter((r) => r.type === 'BERTH_RELEASE');
  if (releases.length > 0) {
    const keys = releases.map((r) => `${runOf(r)}|${r.coachId}|${r.berthNo}|${r.fromStation}`);
    // Joined on the primary key (run, coach, berth, from): an index probe per record, not a scan.
    const { rows } = await tx.query<{ k: string }>(
      `SELECT v.run_id || '|' || v.coach_id || '|' || v.berth_no || '|' || v.from_station AS k
       FROM unnest($1::bigint[], $2::text[], $3::int[], $4::text[]) AS q(run_id, coach_id, berth_no, from_station)
       JOIN vacant_berths v USING (run_id, coach_id, berth_no, from_station)`,
      [releases.map(runOf), releases.map((r) => r.coachId), releases.map((r) => r.berthNo), releases.map((r) => r.fromStation)],
    );
    const found = new Set(rows.map((r) => r.k));
    releases.forEach((r, i) => {
      if (!found.has(keys[i] ?? '')) at(r, 'berthNo', 'is not a vacant berth of the run from that station');
    });
  }

  const remarks = good.filter((r) => r.type === 'TDR_REMARK');
  if (remarks.length > 0) {
    const found = await lookup(tx, 'SELECT tdr_id AS k, run_id FROM tdrs WHERE tdr_id = ANY($1::text[])', remarks.map((r) => r.tdrId));
    for (const r of remarks) if (found.get(r.tdrId) !== runOf(r)) at(r, 'tdrId', "is not a TDR of the beat's train run");
  }

  const closes = good.filter((r) => r.type === 'DEFICIENCY_CLOSE');
  if (closes.length > 0) {
    // The deficiency is stored already or reported by this batch (stored before its closing), on the beat's run.
    const { rows } = await tx.query<{ k: string | number; run_id: string | number; reported_at: Date | string }>(
      'SELECT deficiency_id AS k, run_id, reported_at FROM coach_deficiencies WHERE deficiency_id = ANY($1::bigint[])',
      [closes.map((r) => r.deficiencyId)],
    );
    const known = new Map(rows.map((r) => [String(r.k), { run: Number(r.run_id), reported: new Date(r.reported_at).getTime() }]));
    for (const d of good) {
      if (d.type === 'DEFICIENCY' && d.deficiencyId != null) known.set(String(d.deficiencyId), { run: runOf(d), reported: Date.parse(d.reportedAt) });
    }
    for (const r of closes) {
      const d = known.get(String(r.deficiencyId));
      if (!d || d.run !== runOf(r)) at(r, 'deficiencyId', "is not a deficiency of the beat's train run");
      else if (Date.parse(r.closedAt) < d.reported) at(r, 'closedAt', 'is before the deficiency was reported');
    }
  }

  // Keys a device may choose (the feed always does): refuse a taken one instead of failing on the primary key.
  await checkKeys(tx, good, 'eventId', 'SELECT event_id AS k, 0 AS run_id FROM checking_events WHERE event_id = ANY($1::bigint[])', at);
  await checkKeys(tx, good, 'reallocId', 'SELECT realloc_id AS k, 0 AS run_id FROM reallocations WHERE realloc_id = ANY($1::bigint[])', at);
  // (A DEFICIENCY_CLOSE names a stored deficiency by the same field: not a new key.)
  await checkKeys(tx, good.filter((r) => r.type === 'DEFICIENCY'), 'deficiencyId', 'SELECT deficiency_id AS k, 0 AS run_id FROM coach_deficiencies WHERE deficiency_id = ANY($1::bigint[])', at);
  // The runs of the batch's beats: the store names them so partitioned tables are read in their partitions only.
  return { errors, runIds: [...new Set(runOfBeat.values())] };
}

async function checkKeys(
  tx: Queryable,
  records: readonly HhtRecord[],
  field: 'eventId' | 'reallocId' | 'deficiencyId',
  sql: string,
  at: (r: HhtRecord, field: string, reason: string) => void,
): Promise<void> {
  const withKey = records.filter((r) => field in r && (r as unknown as Record<string, unknown>)[field] != null);
  if (withKey.length === 0) return;
  const keyOf = (r: HhtRecord): string => String((r as unknown as Record<string, unknown>)[field]);
  const taken = await lookup(tx, sql, withKey.map(keyOf));
  const seen = new Set<string>();
  for (const r of withKey) {
    const k = keyOf(r);
    if (taken.has(k) || seen.has(k)) at(r, field, 'is already stored');
    seen.add(k);
  }
}

/** key -> run_id of the rows found. */
/**
 * For the checks the stored coach alone would refuse (a passenger now in a coach not of the check's beat), the
 * passengers' stored moves: the check may predate an allotment or a shift that another terminal synced first.
 * Only then, so a batch of ordinary checks costs no extra statement.
 */
async function addStoredMoves(
  tx: Queryable,
  records: readonly HhtRecord[],
  beats: ReadonlyMap<number, BeatFacts>,
  psgnCoaches: Map<string, PassengerCoach>,
  runs: readonly number[],
): Promise<void> {
  const doubtful = new Set<string>();
  for (const r of records) {
    if (r.type !== 'CHECK' || r.psgnId == null) continue;
    const coach = psgnCoaches.get(String(r.psgnId))?.coach;
    const beat = beats.get(r.beatId);
    if (coach != null && beat && !beat.coaches.includes(coach)) doubtful.add(String(r.psgnId));
  }
  if (doubtful.size === 0) return;
  const { rows } = await tx.query<{ k: string | number; at: Date | string; from_coach: string | null }>(
    `SELECT psgn_id AS k, device_time AS at, coach_id AS from_coach FROM checking_events
      WHERE run_id = ANY($2::bigint[]) AND psgn_id = ANY($1::bigint[]) AND event_type IN ('SHIFTED', 'ALLOTTED')
      ORDER BY device_time, event_id`,
    [[...doubtful], runs],
  );
  for (const r of rows) {
    const p = psgnCoaches.get(String(r.k));
    if (!p) continue;
    psgnCoaches.set(String(r.k), { ...p, moves: [...(p.moves ?? []), { at: new Date(r.at).getTime(), from: r.from_coach }] });
  }
}

async function lookup(tx: Queryable, sql: string, keys: readonly unknown[], more: readonly unknown[] = []): Promise<Map<string, number>> {
  const { rows } = await tx.query<{ k: string | number; run_id: string | number }>(sql, [keys, ...more]);
  return new Map(rows.map((r) => [String(r.k), Number(r.run_id)]));
}
