/**
 * The rollup invariant: after every kind of write, every rollup_% table equals its reference query over the raw rows
 * (src/server/db/references), both ways (EXCEPT ALL). The writes are the real paths: a seeded window, each HHT record
 * type through the ingest, each kind of planned change through applyChanges, the feed's chart times, a raw INSERT,
 * UPDATE, DELETE and TRUNCATE of every table the rollups read (as a correction in psql would be), and retention.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DRIVERS, type TestDb } from '../support/db';
import { SEED_TODAY, cloneSeededTestDb } from '../support/seeded';
import { generateDay } from '../../src/server/demo/loader';
import { buildReference } from '../../src/server/demo/reference';
import { addDays } from '../../src/server/demo/runs';
import { planDay, type PlannedChange, type PlannedRecord } from '../../src/server/demo/plan';
import { ingestBatch } from '../../src/server/hht/ingest';
import { releaseRecords } from '../../src/server/demo/release';
import { applyChanges } from '../../src/server/demo/changes';
import { dropRunDatesBefore } from '../../src/server/db/partitions';
import { listRollupTables } from '../../src/server/db/rollups';
import { readRollupReferences, rollupDrift, type RollupDrift } from '../../src/server/db/rollup-audit';
import { HHT_RECORD_TYPES } from '../../src/shared/hht-sync';
import type { Queryable } from '../../src/server/db';

const SLOW = 900_000;
const ist = (hhmm: string): Date => new Date(`${SEED_TODAY}T${hhmm}:00+05:30`);
/** The seed stops three days before the end of the window; the feed's path brings the rest. */
const LIVE_AT = new Date(`${addDays(SEED_TODAY, -3)}T05:30:00+05:30`);
const UNTIL = ist('23:50');
const refs = readRollupReferences();

/** Every rollup that differs from its reference, with the rows off each way; [] when all agree. */
async function drift(db: Queryable): Promise<RollupDrift[]> {
  const out: RollupDrift[] = [];
  for (const table of await listRollupTables(db)) {
    const ref = refs.get(table);
    if (!ref) {
      out.push({ table: `${table} (no reference query)`, missing: -1, extra: -1 });
      continue;
    }
    const d = await rollupDrift(db, ref);
    if (d.missing > 0 || d.extra > 0) out.push(d);
  }
  return out;
}

/** Runs a write inside a transaction that is rolled back after the drain ran and the rollups were compared. */
class RolledBack extends Error {
  constructor(readonly found: RollupDrift[]) {
    super('rolled back');
  }
}

describe.each(TEST_DRIVERS)('every rollup equals its reference query after every kind of write on %s', (driver) => {
  let t: TestDb;
  const records: PlannedRecord[] = [];
  const changes: PlannedChange[] = [];

  beforeAll(async () => {
    // The seeded window (built once per code version, then cloned): its days went in through the seed's loader, its
    // records up to LIVE_AT through the ingest.
    t = await cloneSeededTestDb(driver, { today: SEED_TODAY, liveAt: LIVE_AT });
    // What the live feed would release after the seed, planned the feed's way (every charted day it reaches).
    const ref = buildReference('tiny');
    const days = await t.db.query<{ d: string }>(
      `SELECT DISTINCT start_date AS d FROM train_runs r WHERE start_date BETWEEN $1::date AND $2::date
         AND EXISTS (SELECT 1 FROM beats b WHERE b.run_id = r.run_id) ORDER BY 1`,
      [addDays(SEED_TODAY, -10), SEED_TODAY],
    );
    const from = LIVE_AT.toISOString();
    const until = UNTIL.toISOString();
    for (const { d } of days.rows) {
      const plan = planDay(generateDay(ref, d, SEED_TODAY), '');
      records.push(...plan.records.filter((r) => r.syncTime > from && r.syncTime <= until));
      changes.push(...plan.changes.filter((c) => c.at > from && c.at <= until));
    }
    records.sort((a, b) => a.syncTime.localeCompare(b.syncTime));
    changes.sort((a, b) => a.at.localeCompare(b.at));
  }, SLOW);
  afterAll(async () => {
    await t?.drop();
  });

  it('has a reference query for every rollup table, and each one finds rows', async () => {
    const tables = await listRollupTables(t.db);
    expect(tables.length).toBeGreaterThan(10);
    expect(tables.filter((x) => !refs.has(x))).toEqual([]);
    for (const ref of refs.values()) {
      const { rows } = await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM (${ref.sql}) r`, ref.perRun ? [0, '9223372036854775807'] : []);
      expect(rows[0]?.n, ref.table).toBeGreaterThan(0);
    }
  });

  it('after the seeded window (a day at a time, its records released through the ingest)', async () => {
    expect(await drift(t.db)).toEqual([]);
  });

  it('after each kind of planned change (applyChanges) and each HHT record type (the ingest), in the feed\'s order', async () => {
    // The feed's timeline: what is due goes out in order, changes before records. What is due before the first change
    // or record of a kind not seen yet goes together (as the feed sends it); that first one then goes alone, and the
    // rollups are compared.
    type Due = { at: string; change: PlannedChange } | { at: string; record: PlannedRecord };
    const timeline: Due[] = [...changes.map((c) => ({ at: c.at, change: c })), ...records.map((r) => ({ at: r.syncTime, record: r }))]
      .sort((x, y) => x.at.localeCompare(y.at));
    const kindOf = (d: Due): string => ('change' in d ? `${d.change.table} ${'insert' in d.change ? 'insert' : 'update'}` : d.record.record.type);
    const seen = new Set<string>();
    let pending: Due[] = [];
    let batch = 0;
    const flush = async (): Promise<void> => {
      const cs = pending.flatMap((d) => ('change' in d ? [d.change] : []));
      const rs = pending.flatMap((d) => ('record' in d ? [d.record] : []));
      const last = pending[pending.length - 1];
      pending = [];
      if (cs.length > 0) await t.db.transaction((tx) => applyChanges(tx, cs));
      if (rs.length > 0 && last) await releaseRecords(t.db, rs, `invariants:${batch++}`, new Date(last.at));
    };
    for (const d of timeline) {
      const kind = kindOf(d);
      if (seen.has(kind)) {
        pending.push(d);
        continue;
      }
      await flush();
      pending.push(d);
      await flush();
      seen.add(kind);
      expect(await drift(t.db), `after ${kind}`).toEqual([]);
    }
    await flush();
    expect(await drift(t.db)).toEqual([]);
    // Every table the planner changes, both ways, among them the tables whose changes rollups once missed.
    const changeKinds = new Set(changes.map((c) => kindOf({ at: c.at, change: c })));
    expect(changeKinds).toContain('tdrs insert');
    expect(changeKinds).toContain('passengers update');
    expect(changeKinds).toContain('beats update');
    // The planner makes no TDR remark: one by hand, from a terminal of the TDR's run.
    const tdr = await t.db.query<{ tdr_id: string; beat_id: number; device_id: string }>(
      `SELECT td.tdr_id, b.beat_id, b.device_id FROM tdrs td JOIN beats b ON b.run_id = td.run_id
        WHERE b.device_id IS NOT NULL ORDER BY td.tdr_id, b.beat_id LIMIT 1`,
    );
    const remark = tdr.rows[0];
    expect(remark).toBeDefined();
    if (remark) {
      const answer = await ingestBatch(t.db, {
        deviceId: remark.device_id, batchId: 'invariants:remark', receivedAt: UNTIL,
        records: [{ id: 'invariants-remark', type: 'TDR_REMARK', beatId: Number(remark.beat_id), tdrId: remark.tdr_id, remark: 'Passenger did not travel' }],
      });
      expect(answer.stored).toBe(1);
      seen.add('TDR_REMARK');
      expect(await drift(t.db), 'after TDR_REMARK').toEqual([]);
    }
    expect([...seen].filter((k) => !k.includes(' ')).sort()).toEqual([...HHT_RECORD_TYPES].sort());
    expect([...seen].filter((k) => k.includes(' ')).sort()).toEqual([...changeKinds].sort());
    // The chart times the feed sets on the runs.
    await t.db.query(`UPDATE train_runs SET chart2_at = COALESCE(chart2_at, chart1_at) WHERE start_date = $1::date`, [SEED_TODAY]);
    expect(await drift(t.db)).toEqual([]);
  }, SLOW);

  /** A correction made by hand, one statement at a time: each commits on its own, like psql's autocommit. */
  // A partition of a date whose records were all synced before LIVE_AT.
  const today = addDays(SEED_TODAY, -4).replaceAll('-', '');
  const corrections: [string, string][] = [
    ['train_runs INSERT', `INSERT INTO train_runs (run_id, train_no, start_date, zone_code, div_code)
                             SELECT run_id + 40 * 100000, train_no, start_date + 40, zone_code, div_code FROM train_runs
                              WHERE start_date = '${SEED_TODAY}' ORDER BY run_id LIMIT 1`],
    ['train_runs UPDATE', `UPDATE train_runs SET zone_code = lower(zone_code) WHERE run_id = (SELECT min(run_id) FROM train_runs WHERE start_date = '${SEED_TODAY}')`],
    ['train_runs DELETE', `DELETE FROM train_runs WHERE start_date = '${addDays(SEED_TODAY, 40)}'`],
    ['run_coaches DELETE', `DELETE FROM run_coaches WHERE (run_id, coach_id) = (SELECT run_id, coach_id FROM run_coaches ORDER BY run_id DESC, coach_id LIMIT 1)`],
    ['run_coaches INSERT', `INSERT INTO run_coaches SELECT run_id, coach_id || 'Z', seq + 100, class, capacity FROM run_coaches ORDER BY run_id DESC, coach_id LIMIT 1`],
    ['run_coaches UPDATE', `UPDATE run_coaches SET coach_id = coach_id || 'W' WHERE (run_id, coach_id) = (
                              SELECT rc.run_id, rc.coach_id FROM run_coaches rc JOIN beats b ON b.run_id = rc.run_id AND b.device_id IS NOT NULL AND rc.coach_id = ANY (b.coaches)
                               ORDER BY rc.run_id DESC, rc.coach_id LIMIT 1)`],
    ['beats UPDATE', `UPDATE beats SET device_id = NULL, sign_on_at = sign_on_at - interval '1 day'
                       WHERE beat_id = (SELECT min(beat_id) FROM beats WHERE device_id IS NOT NULL AND sign_on_at IS NOT NULL)`],
    ['beats DELETE', `DELETE FROM beats WHERE beat_id = (SELECT max(beat_id) FROM beats b WHERE NOT EXISTS (SELECT 1 FROM checking_events c WHERE c.beat_id = b.beat_id)
                        AND NOT EXISTS (SELECT 1 FROM efts e WHERE e.beat_id = b.beat_id))`],
    ['beats INSERT', `INSERT INTO beats (beat_id, run_id, beat_no, tte_id, device_id, zone_code, div_code, lobby_code, from_station, to_station, coaches,
                                         sign_on_id, trip_id, sign_on_at, sign_off_at, twr_status, twr_submitted_at)
                      SELECT beat_id + 7, run_id, beat_no + 7, tte_id, device_id, zone_code, div_code, lobby_code, from_station, to_station, coaches,
                             sign_on_id || 'X', trip_id || 'X', sign_on_at, sign_off_at, twr_status, twr_submitted_at
                        FROM beats WHERE device_id IS NOT NULL ORDER BY beat_id DESC LIMIT 1`],
    ['passengers INSERT', `INSERT INTO passengers SELECT (jsonb_populate_record(p, jsonb_build_object('psgn_id', p.psgn_id + 5000, 'psgn_no', p.psgn_no + 500))).*
                             FROM passengers p WHERE psgn_id = (SELECT max(psgn_id) FROM passengers WHERE current_status <> 'CAN')`],
    ['passengers UPDATE', `UPDATE passengers SET mark = CASE WHEN mark = 'NT' THEN 'O' ELSE 'NT' END
                             WHERE psgn_id = (SELECT min(psgn_id) FROM passengers WHERE current_status <> 'CAN' AND run_id >= (SELECT min(run_id) FROM train_runs WHERE start_date = '${SEED_TODAY}'))`],
    // What the per-coach booked count reads: a passenger cancelled, and one moved to another coach.
    ['passengers UPDATE of status', `UPDATE passengers SET current_status = 'CAN'
                             WHERE psgn_id = (SELECT max(psgn_id) FROM passengers WHERE current_status <> 'CAN' AND coach_id IS NOT NULL)`],
    ['passengers UPDATE of coach', `UPDATE passengers SET coach_id = coach_id || 'X'
                             WHERE psgn_id = (SELECT min(psgn_id) FROM passengers WHERE current_status <> 'CAN' AND coach_id IS NOT NULL)`],
    ['passengers UPDATE of a partition', `UPDATE passengers_r${today} SET lobby_code = NULL WHERE psgn_id = (SELECT max(psgn_id) FROM passengers_r${today} WHERE current_status <> 'CAN' AND lobby_code IS NOT NULL)`],
    ['passengers DELETE', `DELETE FROM passengers WHERE psgn_id = (SELECT max(psgn_id) FROM passengers q WHERE current_status <> 'CAN'
                             AND NOT EXISTS (SELECT 1 FROM checking_events c WHERE c.psgn_id = q.psgn_id) AND NOT EXISTS (SELECT 1 FROM reallocations r WHERE r.psgn_id = q.psgn_id))`],
    ['checking_events INSERT', `INSERT INTO checking_events SELECT (jsonb_populate_record(c, jsonb_build_object('event_id', c.event_id + 50000))).*
                                  FROM checking_events c WHERE event_id = (SELECT max(event_id) FROM checking_events)`],
    ['checking_events UPDATE', `UPDATE checking_events SET sync_time = NULL WHERE event_id = (SELECT max(event_id) FROM checking_events WHERE sync_time IS NOT NULL)`],
    ['checking_events DELETE', `DELETE FROM checking_events WHERE event_id = (SELECT min(event_id) FROM checking_events)`],
    // The only NT mark of a passenger whose berth was allotted within the NT grace: the anomaly goes.
    ['checking_events DELETE of an NT mark', `DELETE FROM checking_events WHERE event_id = (
                                  SELECT min(ce.event_id) FROM checking_events ce
                                    JOIN rollup_allot_anomalies an ON an.run_id = ce.run_id AND an.anomaly = 'ALLOTTED_WITHIN_NT_GRACE'
                                    JOIN passengers p ON p.run_id = ce.run_id AND p.psgn_id = ce.psgn_id AND p.pnr = an.other_pnr
                                   WHERE ce.event_type = 'NT'
                                     AND (SELECT count(*) FROM checking_events c2 WHERE c2.run_id = ce.run_id AND c2.psgn_id = ce.psgn_id AND c2.event_type = 'NT') = 1)`],
    ['checking_events DELETE of a partition', `DELETE FROM checking_events_r${today} WHERE event_id = (SELECT max(event_id) FROM checking_events_r${today})`],
    ['vacant_berths INSERT', `INSERT INTO vacant_berths SELECT (jsonb_populate_record(v, jsonb_build_object('berth_no', v.berth_no + 300))).*
                                FROM vacant_berths v ORDER BY run_id DESC, coach_id, berth_no LIMIT 1`],
    ['vacant_berths UPDATE', `UPDATE vacant_berths SET released_to_prs = NOT released_to_prs
                                WHERE (run_id, coach_id, berth_no, from_station) = (SELECT run_id, coach_id, berth_no, from_station FROM vacant_berths ORDER BY run_id DESC, coach_id, berth_no LIMIT 1)`],
    ['vacant_berths INSERT of a partition', `INSERT INTO vacant_berths_r${today} SELECT run_id, coach_id, berth_no + 200, berth_type, class, from_station, to_station, reason,
                                                released_to_prs, released_at, released_by, rebooked, zone_code, div_code, lobby_code
                                                FROM vacant_berths_r${today} ORDER BY coach_id, berth_no LIMIT 1`],
    ['vacant_berths DELETE', `DELETE FROM vacant_berths
                                WHERE (run_id, coach_id, berth_no, from_station) = (SELECT run_id, coach_id, berth_no, from_station FROM vacant_berths ORDER BY run_id, coach_id, berth_no LIMIT 1)`],
    ['efts INSERT', `INSERT INTO efts SELECT (jsonb_populate_record(e, jsonb_build_object('eft_no', e.eft_no || 'X'))).* FROM efts e WHERE eft_no = (SELECT max(eft_no) FROM efts)`],
    ['efts UPDATE', `UPDATE efts SET total = total + 1 WHERE eft_no = (SELECT max(eft_no) FROM efts WHERE payment_mode = 'CASH')`],
    ['efts DELETE', `DELETE FROM efts WHERE eft_no = (SELECT max(eft_no) FROM efts f WHERE NOT EXISTS (SELECT 1 FROM digital_payments p WHERE p.eft_no = f.eft_no))`],
    ['digital_payments INSERT', `INSERT INTO digital_payments SELECT (jsonb_populate_record(d, jsonb_build_object('txn_id', d.txn_id || 'X'))).*
                                   FROM digital_payments d WHERE txn_id = (SELECT max(txn_id) FROM digital_payments WHERE status = 'SUCCESS')`],
    ['digital_payments UPDATE', `UPDATE digital_payments SET status = 'FAILED' WHERE txn_id = (SELECT max(txn_id) FROM digital_payments WHERE status = 'SUCCESS')`],
    ['digital_payments DELETE', `DELETE FROM digital_payments WHERE txn_id = (SELECT min(txn_id) FROM digital_payments)`],
    // What the allotment anomalies read: a second passenger allotted the same berth and segment (a double
    // allotment), an allotment moved three hours earlier, then removed; a timetable's stop added, changed, removed.
    ['reallocations INSERT', `INSERT INTO reallocations (realloc_id, run_id, psgn_id, pnr, prev_status, coach_id, berth_no, from_station, to_station,
                                                         allotted_at, tte_id, zone_code, div_code, lobby_code)
                                SELECT r.realloc_id + 900000, r.run_id, o.psgn_id, o.pnr, 'RAC 1', r.coach_id, r.berth_no, r.from_station, r.to_station,
                                       r.allotted_at + interval '1 minute', r.tte_id, r.zone_code, r.div_code, r.lobby_code
                                  FROM reallocations r
                                  CROSS JOIN LATERAL (SELECT q.psgn_id, q.pnr FROM passengers q WHERE q.run_id = r.run_id AND q.psgn_id <> r.psgn_id
                                                       ORDER BY q.psgn_id LIMIT 1) o
                                 ORDER BY r.realloc_id LIMIT 1`],
    ['reallocations UPDATE', `UPDATE reallocations SET allotted_at = allotted_at - interval '3 hours' WHERE realloc_id = (SELECT min(realloc_id) + 1 FROM reallocations)`],
    ['reallocations DELETE', `DELETE FROM reallocations WHERE realloc_id = (SELECT max(realloc_id) FROM reallocations)`],
    ['train_stops INSERT', `INSERT INTO train_stops (train_no, seq, station_code, arr_time, dep_time, day_no, distance_km, halt_min)
                              SELECT s.train_no, s.seq + 1000, s.station_code, s.arr_time, s.dep_time, s.day_no + 1, s.distance_km + 1, s.halt_min
                                FROM train_stops s
                               WHERE s.train_no = (SELECT tr.train_no FROM reallocations r JOIN train_runs tr ON tr.run_id = r.run_id ORDER BY r.realloc_id LIMIT 1)
                               ORDER BY s.seq DESC LIMIT 1`],
    ['train_stops UPDATE', `UPDATE train_stops SET dep_time = '00:05'
                              WHERE (train_no, seq) = (SELECT s.train_no, min(s.seq) FROM train_stops s
                                                        WHERE s.train_no = (SELECT tr.train_no FROM reallocations r JOIN train_runs tr ON tr.run_id = r.run_id
                                                                             ORDER BY r.realloc_id DESC LIMIT 1)
                                                        GROUP BY s.train_no)`],
    ['train_stops DELETE', `DELETE FROM train_stops WHERE seq > 1000`],
    ['tdrs INSERT', `INSERT INTO tdrs SELECT (jsonb_populate_record(d, jsonb_build_object('tdr_id', d.tdr_id || 'X'))).* FROM tdrs d WHERE tdr_id = (SELECT max(tdr_id) FROM tdrs)`],
    ['tdrs UPDATE', `UPDATE tdrs SET status = 'REFUNDED', refund_amount = 100 WHERE tdr_id = (SELECT max(tdr_id) FROM tdrs WHERE status <> 'REFUNDED')`],
    ['tdrs DELETE', `DELETE FROM tdrs WHERE tdr_id = (SELECT min(tdr_id) FROM tdrs)`],
  ];

  it('after a raw INSERT, UPDATE and DELETE of every table the rollups read (a correction in psql)', async () => {
    for (const [what, sql] of corrections) {
      const { rows } = await t.db.query(`WITH w AS (${sql} RETURNING 1) SELECT count(*)::int AS n FROM w`);
      expect(rows[0]?.n, `${what} changed no row`).toBe(1);
      expect(await drift(t.db), `after ${what}`).toEqual([]);
    }
    const touched = new Set(corrections.map(([w]) => w.split(' ')[0]));
    const sources = await t.db.query<{ source: string }>('SELECT source FROM hht_rollup_sources()');
    expect([...touched].sort()).toEqual(sources.rows.map((r) => r.source).sort());
  }, SLOW);

  it('after a TRUNCATE of each table the rollups read', async () => {
    const sources = await t.db.query<{ source: string }>('SELECT source FROM hht_rollup_sources() ORDER BY 1');
    for (const { source } of sources.rows) {
      let found: RollupDrift[] | undefined;
      try {
        await t.db.transaction(async (tx) => {
          await tx.query(`TRUNCATE ${source} CASCADE`);
          // The drain runs now instead of at commit; the transaction is then rolled back.
          await tx.query('SET CONSTRAINTS ALL IMMEDIATE');
          throw new RolledBack(await drift(tx));
        });
      } catch (err) {
        if (!(err instanceof RolledBack)) throw err;
        found = err.found;
      }
      expect(found, `after TRUNCATE ${source}`).toEqual([]);
    }
  }, SLOW);

  it('after retention drops the oldest run dates', async () => {
    const oldest = await t.db.query<{ d: string }>('SELECT min(start_date) AS d FROM train_runs');
    const dropped = await dropRunDatesBefore(t.db, addDays(oldest.rows[0]?.d ?? SEED_TODAY, 2));
    expect(dropped).toHaveLength(2);
    expect(await drift(t.db)).toEqual([]);
  }, SLOW);
});
