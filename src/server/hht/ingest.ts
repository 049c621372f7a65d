import { createHash } from 'node:crypto';
import type { Db, Queryable } from '../db';
import type {
  AllotmentRecord,
  BerthReleaseRecord,
  CheckRecord,
  DeficiencyCloseRecord,
  DeficiencyRecord,
  EftRecord,
  HhtRecord,
  HhtRecordType,
  SignOffRecord,
  SignOnRecord,
  SyncResponse,
  TdrRemarkRecord,
  TwrRecord,
} from '../../shared/hht-sync';
import type { FieldError } from './validate';
import { checkReferences } from './references';
import { relaxForeignKeyTriggers } from '../db/triggers';
import { deferRollupDrain } from '../db/rollups';

/** A batch id already stored for the device with other records (compared by their hash): nothing stored. */
export class BatchConflictError extends Error {
  constructor(readonly batchId: string) {
    super(`Batch ${batchId} was stored before with other records: a new batch needs a new batchId`);
  }
}

/** JSON with object keys in sorted order: the same records hash alike however a terminal orders their fields. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    return `{${entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export const recordsHash = (records: readonly HhtRecord[]): string => createHash('sha256').update(canonicalJson(records)).digest('hex');

/** A batch refused as a whole: nothing of it was stored. */
export class IngestError extends Error {
  constructor(readonly fields: FieldError[]) {
    super(`Invalid ${fields.map((f) => f.field).join(', ')}: ${fields.map((f) => f.reason).join('; ')}`);
  }
}

export interface IngestBatch {
  deviceId: string;
  batchId: string;
  records: readonly HhtRecord[];
  /** When the batch reached the server: the sync time of its records. */
  receivedAt: Date;
  /**
   * The live feed only: each record's planned sync time (the feed may catch up on records synced while the
   * server was down; their sync time is when the terminal synced, not when the feed caught up).
   */
  syncTimes?: readonly string[];
  /**
   * The live feed and seed only (their batches are large): skip the foreign-key triggers, whose work the reference
   * check below has done already (relaxForeignKeyTriggers). Device batches keep them.
   */
  relaxForeignKeys?: boolean;
  /**
   * The seed only: the batch's runs stay in the dirty set for the one rollup drain at the seed's end (deferRollupDrain)
   * instead of being recomputed at each batch's commit. Terminals' and the feed's batches are drained at commit.
   */
  deferRollups?: boolean;
  /** How far a record's time may lie after its sync moment (device clocks run fast), seconds; default 300. */
  clockSkewS?: number;
}

const DEFAULT_CLOCK_SKEW_S = 300;

/** A record as stored: its sync time attached. */
type Synced<T> = T & { syncTime: string };

/**
 * The one way HHT records enter the database (device sync API and live feed alike): one transaction, all or
 * nothing; idempotent by (device, batch id) for the answer and by (device, record id) for every record.
 * A few set-based statements per batch whatever its size: one per record type present.
 */
export async function ingestBatch(db: Db, batch: IngestBatch): Promise<SyncResponse> {
  const receivedAt = batch.receivedAt.toISOString();
  const hash = recordsHash(batch.records);
  return db.transaction(async (tx) => {
    if (batch.relaxForeignKeys) await relaxForeignKeyTriggers(tx);
    if (batch.deferRollups) await deferRollupDrain(tx);
    // The claim and the record ids in one statement (one round trip fewer per batch): the ids are claimed only when
    // the batch is, so a replayed batch id stores nothing new.
    const claim = await tx.query<{ claimed: boolean; fresh: string[] }>(
      `WITH claimed AS (
         INSERT INTO hht_sync_batches (device_id, batch_id, received_at, record_count, stored_count, records_sha256)
         VALUES ($1, $2, $3, $4, 0, $5) ON CONFLICT DO NOTHING RETURNING batch_id),
       fresh AS (
         INSERT INTO hht_records (device_id, record_id, batch_id) SELECT $1, r, $2 FROM unnest($6::text[]) r
          WHERE EXISTS (SELECT 1 FROM claimed) ON CONFLICT DO NOTHING RETURNING record_id)
       SELECT EXISTS (SELECT 1 FROM claimed) AS claimed, ARRAY(SELECT record_id FROM fresh) AS fresh`,
      [batch.deviceId, batch.batchId, receivedAt, batch.records.length, hash, batch.records.map((r) => r.id)],
    );
    // The feed and the seed (which set syncTimes) may reuse a tag after an interrupted seed: their records are caught
    // up by record id, so only a terminal's batch is held to its first records.
    if (claim.rows[0]?.claimed !== true) return replayAnswer(tx, batch.deviceId, batch.batchId, batch.syncTimes ? null : hash);
    const fresh = { rows: (claim.rows[0].fresh ?? []).map((id) => ({ record_id: id })) };
    const freshIds = new Set(fresh.rows.map((r) => r.record_id));
    const byType = new Map<HhtRecordType, Synced<HhtRecord>[]>();
    const indexOf = new Map<HhtRecord, number>();
    let lastSync = '';
    batch.records.forEach((r, i) => {
      if (!freshIds.has(r.id)) return;
      const syncTime = batch.syncTimes?.[i] ?? receivedAt;
      if (syncTime > lastSync) lastSync = syncTime;
      const list = byType.get(r.type) ?? [];
      const synced = { ...r, syncTime };
      list.push(synced);
      indexOf.set(synced, i);
      byType.set(r.type, list);
    });

    const skewMs = (batch.clockSkewS ?? DEFAULT_CLOCK_SKEW_S) * 1000;
    const { errors, runIds } = await checkReferences(tx, batch.deviceId, byType, (r) => indexOf.get(r as Synced<HhtRecord>) ?? -1, skewMs);
    if (errors.length > 0) throw new IngestError(errors);

    await storeRecords(tx, byType, runIds);
    const stored = freshIds.size;
    // The batch's count and the device's last sync in one statement.
    await tx.query(
      `WITH b AS (UPDATE hht_sync_batches SET stored_count = $3 WHERE device_id = $1 AND batch_id = $2)
       UPDATE devices SET last_sync_at = $4 WHERE $3 > 0 AND device_id = $1 AND (last_sync_at IS NULL OR last_sync_at < $4)`,
      [batch.deviceId, batch.batchId, stored, lastSync || receivedAt],
    );
    return { batchId: batch.batchId, received: batch.records.length, stored, duplicates: batch.records.length - stored, receivedAt, replayed: false };
  });
}

/** The first answer to a batch again; `hash` (when given) must be the stored one, else BatchConflictError. */
async function replayAnswer(tx: Queryable, deviceId: string, batchId: string, hash: string | null): Promise<SyncResponse> {
  const { rows } = await tx.query<{ received_at: Date | string; record_count: number; stored_count: number; records_sha256: string | null }>(
    'SELECT received_at, record_count, stored_count, records_sha256 FROM hht_sync_batches WHERE device_id = $1 AND batch_id = $2',
    [deviceId, batchId],
  );
  const row = rows[0];
  if (!row) throw new Error(`batch ${deviceId}/${batchId} vanished`);
  if (hash !== null && row.records_sha256 !== null && row.records_sha256 !== hash) throw new BatchConflictError(batchId);
  const receivedAt = row.received_at instanceof Date ? row.received_at.toISOString() : new Date(row.received_at).toISOString();
  return {
    batchId,
    received: row.record_count,
    stored: row.stored_count,
    duplicates: row.record_count - row.stored_count,
    receivedAt,
    replayed: true,
  };
}

/**
 * A berth given on board is no longer vacant: the vacant segments of the allotted berth that overlap the allotment's
 * journey (stations in the train's stop order) keep only what lies outside it. In order: the part after the journey
 * becomes its own segment, a segment starting before the journey ends where it starts, and a segment left inside the
 * journey goes. `runIds` (the batch's runs) prune vacant_berths' partitions when the statement is planned, and the
 * steps are MATERIALIZED CTEs, the berths found by their key before their stations are looked up: inlined, the planner
 * weighed every join order over every partition (100-400 ms of planning per statement on PGlite against 3-15 ms), and
 * on tables without statistics it looked the vacancies up by station, about 1 s per statement.
 */
async function takeAllottedBerths(tx: Queryable, allotments: readonly Synced<AllotmentRecord>[], runIds: readonly number[]): Promise<void> {
  const overlap = `WITH a AS MATERIALIZED (
      SELECT b.run_id, r."coachId" AS coach_id, r."berthNo" AS berth_no, r."fromStation" AS a_from, r."toStation" AS a_to,
             af.seq AS a_from_seq, ast.seq AS a_to_seq, tr.train_no
        FROM ${recordset({ beatId: 'bigint', coachId: 'text', berthNo: 'int', fromStation: 'text', toStation: 'text' })}
        JOIN beats b ON b.beat_id = r."beatId"
        JOIN train_runs tr ON tr.run_id = b.run_id
        JOIN train_stops af ON af.train_no = tr.train_no AND af.station_code = r."fromStation"
        JOIN train_stops ast ON ast.train_no = tr.train_no AND ast.station_code = r."toStation"
    ), av AS MATERIALIZED (
      SELECT vb.run_id, vb.coach_id, vb.berth_no, vb.from_station, vb.to_station, a.train_no, a.a_from, a.a_to, a.a_from_seq, a.a_to_seq
        FROM a
        JOIN vacant_berths vb ON vb.run_id = a.run_id AND vb.coach_id = a.coach_id AND vb.berth_no = a.berth_no
         AND vb.run_id = ANY($2::bigint[])
    ), v AS MATERIALIZED (
      SELECT av.run_id, av.coach_id, av.berth_no, av.from_station, vf.seq AS v_from_seq, vt.seq AS v_to_seq, av.a_from, av.a_to,
             av.a_from_seq, av.a_to_seq
        FROM av
        JOIN train_stops vf ON vf.train_no = av.train_no AND vf.station_code = av.from_station
        JOIN train_stops vt ON vt.train_no = av.train_no AND vt.station_code = av.to_station
       WHERE vf.seq < av.a_to_seq AND av.a_from_seq < vt.seq
    )`;
  const key = 'vb.run_id = ANY($2::bigint[]) AND vb.run_id = v.run_id AND vb.coach_id = v.coach_id AND vb.berth_no = v.berth_no AND vb.from_station = v.from_station';
  const params = [JSON.stringify(allotments), runIds];
  await tx.query(
    `${overlap}
     INSERT INTO vacant_berths (run_id, coach_id, berth_no, berth_type, class, from_station, to_station, reason, zone_code, div_code, lobby_code)
     SELECT vb.run_id, vb.coach_id, vb.berth_no, vb.berth_type, vb.class, v.a_to, vb.to_station, vb.reason, vb.zone_code, vb.div_code, vb.lobby_code
       FROM v JOIN vacant_berths vb ON ${key} WHERE v.a_to_seq < v.v_to_seq
     ON CONFLICT DO NOTHING`,
    params,
  );
  await tx.query(`${overlap} UPDATE vacant_berths vb SET to_station = v.a_from FROM v WHERE ${key} AND v.v_from_seq < v.a_from_seq`, params);
  await tx.query(`${overlap} DELETE FROM vacant_berths vb USING v WHERE ${key}`, params);
}

/** `jsonb_to_recordset($1) AS r(...)` over the given fields of the records (camelCase keys, quoted). */
function recordset(cols: Record<string, string>): string {
  return `jsonb_to_recordset($1::jsonb) AS r(${Object.entries(cols)
    .map(([k, t]) => `"${k}" ${t}`)
    .join(', ')})`;
}

function list<T extends HhtRecordType>(byType: Map<HhtRecordType, Synced<HhtRecord>[]>, type: T): Synced<Extract<HhtRecord, { type: T }>>[] {
  return (byType.get(type) ?? []) as Synced<Extract<HhtRecord, { type: T }>>[];
}

/** `runIds`: the runs of the batch's beats (from checkReferences). Passengers and checking events are partitioned
 * by run: naming the runs lets each statement touch only their partitions (a lookup by psgn_id alone probes every
 * run date's partition). */
async function storeRecords(tx: Queryable, byType: Map<HhtRecordType, Synced<HhtRecord>[]>, runIds: readonly number[]): Promise<void> {
  const json = (rows: readonly object[]): string[] => [JSON.stringify(rows)];

  const signOns: Synced<SignOnRecord>[] = list(byType, 'SIGN_ON');
  if (signOns.length > 0) {
    await tx.query(
      `UPDATE beats b SET sign_on_at = r."at" FROM ${recordset({ beatId: 'bigint', at: 'timestamptz' })} WHERE b.beat_id = r."beatId"`,
      json(signOns),
    );
  }

  const checks: Synced<CheckRecord>[] = list(byType, 'CHECK');
  if (checks.length > 0) {
    await tx.query(
      `INSERT INTO checking_events (event_id, run_id, beat_id, psgn_id, tte_id, device_id, event_type, coach_id, berth_no,
         new_coach_id, new_berth_no, station_code, device_time, sync_time, zone_code, div_code, lobby_code)
       SELECT coalesce(r."eventId", nextval('hht_row_ids')), b.run_id, b.beat_id, r."psgnId", b.tte_id, b.device_id, r."eventType",
         r."coachId", r."berthNo", r."newCoachId", r."newBerthNo", r."stationCode", r."deviceTime", r."syncTime",
         b.zone_code, b.div_code, b.lobby_code
       FROM ${recordset({ eventId: 'bigint', beatId: 'bigint', psgnId: 'bigint', eventType: 'text', coachId: 'text', berthNo: 'int', newCoachId: 'text', newBerthNo: 'int', stationCode: 'text', deviceTime: 'timestamptz', syncTime: 'timestamptz' })}
       JOIN beats b ON b.beat_id = r."beatId"`,
      json(checks),
    );
    // A passenger's mark is their latest O/NT event by device time, whatever order the events synced in.
    const marked = [...new Set(checks.filter((c) => (c.eventType === 'O' || c.eventType === 'NT') && c.psgnId != null).map((c) => c.psgnId))];
    if (marked.length > 0) {
      await tx.query(
        `UPDATE passengers p SET mark = e.event_type, marked_at = e.device_time, marked_by = e.tte_id
         FROM (SELECT DISTINCT ON (psgn_id) psgn_id, event_type, device_time, tte_id FROM checking_events
               WHERE run_id = ANY($2::bigint[]) AND psgn_id = ANY($1::bigint[]) AND event_type IN ('O', 'NT')
               ORDER BY psgn_id, device_time DESC, event_id DESC) e
         WHERE p.run_id = ANY($2::bigint[]) AND p.psgn_id = e.psgn_id`,
        [marked, runIds],
      );
    }
    // A passenger shifted twice in one batch (a swap and its undoing) ends on the latest shift by device time (then
    // the later record), as the mark is their latest O/NT: with two matching rows, UPDATE ... FROM applied either one,
    // as the plan happened to fall.
    const latestShift = new Map<number, Synced<CheckRecord>>();
    for (const c of checks) {
      if (c.eventType !== 'SHIFTED' || c.psgnId == null || c.newBerthNo == null) continue;
      const seen = latestShift.get(c.psgnId);
      if (!seen || Date.parse(c.deviceTime) >= Date.parse(seen.deviceTime)) latestShift.set(c.psgnId, c);
    }
    const shifts = [...latestShift.values()];
    if (shifts.length > 0) {
      await tx.query(
        `UPDATE passengers p SET coach_id = coalesce(r."newCoachId", p.coach_id), berth_no = r."newBerthNo",
           berth_type = hht_berth_type(p.class, r."newBerthNo")
         FROM ${recordset({ psgnId: 'bigint', newCoachId: 'text', newBerthNo: 'int' })} WHERE p.run_id = ANY($2::bigint[]) AND p.psgn_id = r."psgnId"`,
        [...json(shifts), runIds],
      );
    }
  }

  const allotments: Synced<AllotmentRecord>[] = list(byType, 'ALLOTMENT');
  if (allotments.length > 0) {
    // One statement: the ALLOTTED event and the reallocation read the passenger before the update (same snapshot).
    await tx.query(
      `WITH r AS (SELECT * FROM ${recordset({ eventId: 'bigint', reallocId: 'bigint', beatId: 'bigint', psgnId: 'bigint', coachId: 'text', berthNo: 'int', fromStation: 'text', toStation: 'text', at: 'timestamptz', eftNo: 'text', syncTime: 'timestamptz' })}),
       x AS (SELECT r.*, b.run_id, b.tte_id, b.device_id, b.zone_code, b.div_code, b.lobby_code, p.pnr, p.current_status,
               p.coach_id AS old_coach, p.berth_no AS old_berth
             FROM r JOIN beats b ON b.beat_id = r."beatId" JOIN passengers p ON p.run_id = b.run_id AND p.psgn_id = r."psgnId"
             WHERE p.run_id = ANY($2::bigint[])),
       ev AS (INSERT INTO checking_events (event_id, run_id, beat_id, psgn_id, tte_id, device_id, event_type, coach_id, berth_no,
                new_coach_id, new_berth_no, station_code, device_time, sync_time, zone_code, div_code, lobby_code)
              SELECT coalesce("eventId", nextval('hht_row_ids')), run_id, "beatId", "psgnId", tte_id, device_id, 'ALLOTTED', old_coach, old_berth,
                "coachId", "berthNo", "fromStation", "at", "syncTime", zone_code, div_code, lobby_code FROM x),
       ra AS (INSERT INTO reallocations (realloc_id, run_id, psgn_id, pnr, prev_status, coach_id, berth_no, from_station, to_station,
                allotted_at, tte_id, eft_no, zone_code, div_code, lobby_code)
              SELECT coalesce("reallocId", nextval('hht_row_ids')), run_id, "psgnId", pnr, current_status, "coachId", "berthNo", "fromStation",
                "toStation", "at", tte_id, "eftNo", zone_code, div_code, lobby_code FROM x)
       UPDATE passengers p SET coach_id = x."coachId", berth_no = x."berthNo", berth_type = hht_berth_type(p.class, x."berthNo"),
         current_status = 'CNF/' || x."coachId" || '/' || x."berthNo", lobby_code = x.lobby_code, mark = coalesce(p.mark, 'O'), marked_at = coalesce(p.marked_at, x."at"),
         marked_by = coalesce(p.marked_by, x.tte_id)
       FROM x WHERE p.run_id = ANY($2::bigint[]) AND p.run_id = x.run_id AND p.psgn_id = x."psgnId"`,
      [...json(allotments), runIds],
    );
    await takeAllottedBerths(tx, allotments, runIds);
  }

  const efts: Synced<EftRecord>[] = list(byType, 'EFT');
  if (efts.length > 0) {
    await tx.query(
      `INSERT INTO efts (eft_no, run_id, beat_id, trip_id, tte_id, device_id, pnr, psgn_name, coach_id, from_station, to_station, reason,
         excess_fare, excess_charge, total, payment_mode, issued_at, synced_at, zone_code, div_code, lobby_code)
       SELECT r."eftNo", b.run_id, b.beat_id, b.trip_id, b.tte_id, b.device_id, r."pnr", r."psgnName", r."coachId", r."fromStation",
         r."toStation", r."reason", r."excessFare", r."excessCharge", r."total", r."paymentMode", r."issuedAt", r."syncTime",
         b.zone_code, b.div_code, b.lobby_code
       FROM ${recordset({ eftNo: 'text', beatId: 'bigint', pnr: 'text', psgnName: 'text', coachId: 'text', fromStation: 'text', toStation: 'text', reason: 'text', excessFare: 'numeric', excessCharge: 'numeric', total: 'numeric', paymentMode: 'text', issuedAt: 'timestamptz', syncTime: 'timestamptz' })}
       JOIN beats b ON b.beat_id = r."beatId"`,
      json(efts),
    );
    // A berth charge is collected for the berth just given: it names the passenger's reallocation that has none yet.
    const charges = efts.filter((e) => e.reason === 'BERTH_CHARGE' && e.pnr);
    if (charges.length > 0) {
      await tx.query(
        `UPDATE reallocations ra SET eft_no = r."eftNo"
         FROM ${recordset({ eftNo: 'text', beatId: 'bigint', pnr: 'text', psgnName: 'text' })}
         JOIN beats b ON b.beat_id = r."beatId"
         JOIN passengers p ON p.run_id = b.run_id AND p.pnr = r."pnr" AND p.name = r."psgnName"
         WHERE p.run_id = ANY($2::bigint[]) AND ra.run_id = b.run_id AND ra.psgn_id = p.psgn_id AND ra.eft_no IS NULL`,
        [...json(charges), runIds],
      );
    }
    const payments = efts.flatMap((e) => (e.payments ?? []).map((p) => ({ ...p, eftNo: e.eftNo, beatId: e.beatId })));
    if (payments.length > 0) {
      await tx.query(
        `INSERT INTO digital_payments (txn_id, eft_no, amount, mode, status, txn_at, tte_id, pos_id, sign_on_id, zone_code, div_code, lobby_code)
         SELECT r."txnId", r."eftNo", r."amount", r."mode", r."status", r."at", b.tte_id, r."posId", b.sign_on_id, b.zone_code, b.div_code, b.lobby_code
         FROM ${recordset({ txnId: 'text', eftNo: 'text', beatId: 'bigint', amount: 'numeric', mode: 'text', status: 'text', at: 'timestamptz', posId: 'text' })}
         JOIN beats b ON b.beat_id = r."beatId"`,
        json(payments),
      );
    }
  }

  const releases: Synced<BerthReleaseRecord>[] = list(byType, 'BERTH_RELEASE');
  if (releases.length > 0) {
    await tx.query(
      `UPDATE vacant_berths v SET released_to_prs = true, released_at = r."at", released_by = b.tte_id, rebooked = coalesce(r."rebooked", false)
       FROM ${recordset({ beatId: 'bigint', coachId: 'text', berthNo: 'int', fromStation: 'text', at: 'timestamptz', rebooked: 'boolean' })}
       JOIN beats b ON b.beat_id = r."beatId"
       WHERE v.run_id = b.run_id AND v.coach_id = r."coachId" AND v.berth_no = r."berthNo" AND v.from_station = r."fromStation"`,
      json(releases),
    );
  }

  const deficiencies: Synced<DeficiencyRecord>[] = list(byType, 'DEFICIENCY');
  if (deficiencies.length > 0) {
    await tx.query(
      `INSERT INTO coach_deficiencies (deficiency_id, run_id, coach_id, category, description, station_code, reported_at, tte_id, status,
         closed_at, zone_code, div_code, lobby_code)
       SELECT coalesce(r."deficiencyId", nextval('hht_row_ids')), b.run_id, r."coachId", r."category", r."description", r."stationCode",
         r."reportedAt", b.tte_id, coalesce(r."status", 'OPEN'), r."closedAt", b.zone_code, b.div_code, b.lobby_code
       FROM ${recordset({ deficiencyId: 'bigint', beatId: 'bigint', coachId: 'text', category: 'text', description: 'text', stationCode: 'text', reportedAt: 'timestamptz', status: 'text', closedAt: 'timestamptz' })}
       JOIN beats b ON b.beat_id = r."beatId"`,
      json(deficiencies),
    );
  }

  const closes: Synced<DeficiencyCloseRecord>[] = list(byType, 'DEFICIENCY_CLOSE');
  if (closes.length > 0) {
    // A closing that synced after the report: the deficiency is OPEN until then (the report is never rewritten).
    await tx.query(
      `UPDATE coach_deficiencies d SET status = 'CLOSED', closed_at = r."closedAt"
       FROM ${recordset({ deficiencyId: 'bigint', closedAt: 'timestamptz' })} WHERE d.deficiency_id = r."deficiencyId"`,
      json(closes),
    );
  }

  const remarks: Synced<TdrRemarkRecord>[] = list(byType, 'TDR_REMARK');
  if (remarks.length > 0) {
    await tx.query(
      `UPDATE tdrs t SET tte_remark = r."remark" FROM ${recordset({ tdrId: 'text', remark: 'text' })} WHERE t.tdr_id = r."tdrId"`,
      json(remarks),
    );
  }

  const signOffs: Synced<SignOffRecord>[] = list(byType, 'SIGN_OFF');
  if (signOffs.length > 0) {
    await tx.query(
      `UPDATE beats b SET sign_off_at = r."at" FROM ${recordset({ beatId: 'bigint', at: 'timestamptz' })} WHERE b.beat_id = r."beatId"`,
      json(signOffs),
    );
  }
  const twrs: Synced<TwrRecord>[] = list(byType, 'TWR');
  if (twrs.length > 0) {
    await tx.query(
      `UPDATE beats b SET twr_status = r."twrStatus", twr_submitted_at = r."at"
       FROM ${recordset({ beatId: 'bigint', twrStatus: 'text', at: 'timestamptz' })} WHERE b.beat_id = r."beatId"`,
      json(twrs),
    );
  }
}
