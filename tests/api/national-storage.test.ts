import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DRIVERS, type TestDb } from '../support/db';
import { cloneSeededTestDb } from '../support/seeded';
import { ingestBatch } from '../../src/server/hht/ingest';
import {
  dropRunDatesBefore,
  listRunPartitions,
  maintainPartitions,
  PARTITIONED_TABLES,
  PARTITIONS_AHEAD_DAYS,
  runIdRange,
} from '../../src/server/db/partitions';
import { addDays } from '../../src/server/demo/runs';
import { RUN_TABLES } from '../../src/server/demo/runs';
import { WINDOW_PAST } from '../../src/server/demo';
import type { Queryable } from '../../src/server/db';

/** A report's SQL file with its date parameter bound and scope opened (every row: what India-wide users see) or the given predicate. */
function reportSql(file: string, scope = 'TRUE'): string {
  return readFileSync(new URL(`../../reports/${file}`, import.meta.url), 'utf8')
    .replaceAll(':srcDate', '$1')
    .replaceAll(':start_date', '$1')
    .replaceAll(':end_date', '$2')
    .replaceAll(':zone::text', 'NULL::text')
    .replaceAll(':division::text', 'NULL::text')
    .replaceAll(':lobby::text', 'NULL::text')
    .replaceAll(':trainNo::text', 'NULL::text')
    .replaceAll(':zone', 'NULL')
    .replaceAll(':division', 'NULL')
    .replaceAll(':lobby', 'NULL')
    .replaceAll(':trainNo', 'NULL')
    .replaceAll('{{scope}}', scope);
}

/** A report's SQL as a user of one zone, division or lobby runs it: the definition's scope column equal to a code. */
function scopedReportSql(file: string, column: string, code: string): string {
  return reportSql(file, `${column} = '${code}'`);
}

/** The masking rule as migration 003 wrote it (split on white space, first letter of each word kept). */
const MASK_NAME_003 = (n: string): string =>
  `(SELECT string_agg(left(w, 1) || repeat('*', greatest(length(w) - 1, 0)), ' ') FROM regexp_split_to_table(${n}, '\\s+') AS w)`;

/** SyncDelayDateWise from the raw events, with an extra condition (e.g. one lobby's events) or none. */
const syncDateWiseSql = (extra: string): string => `SELECT ist_date(ce.device_time) AS event_date, ce.zone_code AS zone, ce.div_code AS division,
       count(*)::int AS events, count(DISTINCT ce.device_id)::int AS hhts,
       count(*) FILTER (WHERE ce.sync_time IS NULL)::int AS pending_records,
       round(avg(extract(epoch FROM ce.sync_time - ce.device_time) / 60.0), 1) AS avg_delay_min,
       round(max(extract(epoch FROM ce.sync_time - ce.device_time) / 60.0), 1) AS max_delay_min,
       count(*) FILTER (WHERE ce.sync_time - ce.device_time > interval '30 minutes')::int AS delayed_over_30
    FROM checking_events ce
   WHERE ce.device_time >= ($1::date - 6)::timestamp AT TIME ZONE 'Asia/Kolkata'
     AND ce.device_time < ($1::date + 1)::timestamp AT TIME ZONE 'Asia/Kolkata'
     ${extra}
   GROUP BY 1, 2, 3 ORDER BY event_date DESC, zone, division`;

/** EFT Summary from the raw EFTs of an IST date range, with an extra condition (e.g. one lobby's EFTs) or none. */
const eftSummarySql = (extra: string): string => `SELECT e.zone_code, e.div_code, count(*)::int AS eft_count, count(DISTINCT e.tte_id)::int AS ttes,
       sum(e.total) AS amount, COALESCE(sum(e.total) FILTER (WHERE e.payment_mode = 'CASH'), 0) AS cash,
       round(100.0 * count(*) FILTER (WHERE e.payment_mode <> 'CASH') / count(*), 1) AS digital_pct
    FROM efts e
   WHERE e.issued_at >= $1::date::timestamp AT TIME ZONE 'Asia/Kolkata' AND e.issued_at < ($2::date + 1)::timestamp AT TIME ZONE 'Asia/Kolkata'
     ${extra}
   GROUP BY e.zone_code, e.div_code ORDER BY 1, 2`;

/** The same summaries computed from the raw rows, as the reports did before the rollups. */
const RAW = {
  syncDateWise: syncDateWiseSql(''),
  syncSummary: `SELECT tr.train_no, tr.start_date, ce.div_code AS division, ce.lobby_code AS lobby, ce.tte_id, te.name AS tte_name,
       ce.device_id AS hht_id, count(*)::int AS events, count(*) FILTER (WHERE ce.sync_time IS NULL)::int AS pending_records,
       max(ce.device_time) AS last_event_at, max(ce.sync_time) AS last_sync_at,
       round(avg(extract(epoch FROM ce.sync_time - ce.device_time) / 60.0), 1) AS avg_delay_min,
       round(max(extract(epoch FROM ce.sync_time - ce.device_time) / 60.0), 1) AS max_delay_min
    FROM checking_events ce JOIN train_runs tr ON tr.run_id = ce.run_id LEFT JOIN ttes te ON te.tte_id = ce.tte_id
   WHERE ce.device_time >= $1::date::timestamp AT TIME ZONE 'Asia/Kolkata'
     AND ce.device_time < ($1::date + 1)::timestamp AT TIME ZONE 'Asia/Kolkata'
   GROUP BY tr.train_no, tr.start_date, ce.div_code, ce.lobby_code, ce.tte_id, te.name, ce.device_id
   ORDER BY pending_records DESC, max_delay_min DESC NULLS LAST, tr.train_no, tte_id, hht_id`,
  psgn7days: `SELECT tr.start_date AS run_date, count(DISTINCT tr.run_id)::int AS runs, count(*)::int AS passengers,
       (count(*) FILTER (WHERE p.mark = 'O'))::int AS turned_up, (count(*) FILTER (WHERE p.mark = 'NT'))::int AS not_turned_up
    FROM passengers p JOIN train_runs tr ON tr.run_id = p.run_id
   WHERE tr.start_date BETWEEN $1::date - 6 AND $1::date AND p.current_status <> 'CAN'
   GROUP BY tr.start_date ORDER BY 1`,
  psgnClass: `SELECT p.class, count(*)::int AS passengers, (count(*) FILTER (WHERE p.mark = 'O'))::int AS turned_up
    FROM passengers p JOIN train_runs tr ON tr.run_id = p.run_id
   WHERE tr.start_date = $1::date AND p.current_status <> 'CAN' GROUP BY p.class ORDER BY passengers DESC, p.class`,
  release: `SELECT tr.train_no, count(*)::int AS vacant, (count(*) FILTER (WHERE vb.released_to_prs))::int AS released,
       (count(*) FILTER (WHERE vb.released_to_prs AND vb.rebooked))::int AS rebooked
    FROM vacant_berths vb JOIN train_runs tr ON tr.run_id = vb.run_id
   WHERE tr.start_date = $1::date GROUP BY tr.train_no ORDER BY released DESC, tr.train_no`,
  eftSummary: eftSummarySql(''),
  eftSummaryWhere: (column: string, code: string): string => eftSummarySql(`AND e.${column} = '${code}'`),
  trainsManned: `-- Lobby users see the runs their lobby works first (the lobby of beat 1).
SELECT tr.train_no,
       t.name AS train_name,
       tr.start_date,
       (SELECT count(*) FROM run_coaches rc WHERE rc.run_id = tr.run_id)::int AS reserved_coaches,
       (SELECT count(*) FROM run_coaches rc
         WHERE rc.run_id = tr.run_id
           AND EXISTS (SELECT 1 FROM beats b WHERE b.run_id = tr.run_id AND b.device_id IS NOT NULL AND rc.coach_id = ANY (b.coaches)))::int AS manned_coaches,
       (SELECT count(DISTINCT b.device_id) FROM beats b WHERE b.run_id = tr.run_id)::int AS hhts_used,
       CASE WHEN EXISTS (SELECT 1 FROM beats b WHERE b.run_id = tr.run_id AND b.device_id IS NOT NULL) THEN 'YES' ELSE 'NO' END AS manned,
       CASE WHEN EXISTS (SELECT 1 FROM beats b WHERE b.run_id = tr.run_id AND b.device_id IS NOT NULL) THEN 1 ELSE 0 END AS is_manned
  FROM train_runs tr
  JOIN trains t ON t.train_no = tr.train_no
  LEFT JOIN LATERAL (
        SELECT b.lobby_code FROM beats b WHERE b.run_id = tr.run_id ORDER BY b.beat_no LIMIT 1
       ) ob ON TRUE
 WHERE tr.start_date = $1::date
   AND TRUE
 ORDER BY tr.train_no
`,
  mannedCoaches: `-- A coach is manned when a beat worked with an HHT covers it; lobby users see coaches their lobby worked,
-- and the unmanned coaches of runs their lobby works first.
SELECT x.manning,
       count(*)::int AS coaches,
       round(100.0 * count(*) / sum(count(*)) OVER (), 1) AS share_pct
  FROM (
        SELECT CASE WHEN mb.lobby_code IS NOT NULL THEN 'Manned' ELSE 'Unmanned' END AS manning
          FROM run_coaches rc
          JOIN train_runs tr ON tr.run_id = rc.run_id
          LEFT JOIN LATERAL (
                SELECT b.lobby_code FROM beats b
                 WHERE b.run_id = rc.run_id AND b.device_id IS NOT NULL AND rc.coach_id = ANY (b.coaches)
                 ORDER BY b.beat_no LIMIT 1
               ) mb ON TRUE
          LEFT JOIN LATERAL (
                SELECT coalesce(mb.lobby_code, (SELECT b.lobby_code FROM beats b WHERE b.run_id = rc.run_id ORDER BY b.beat_no LIMIT 1)) AS lobby_code
               ) cl ON TRUE
         WHERE tr.start_date = $1::date
           AND TRUE
       ) x
 GROUP BY x.manning
 ORDER BY x.manning
`,
  manningSummary: `-- coachManningSummary: reserved coaches manned with an HHT per zone/division and run date over a range
-- (run_coach_manning, migration 007). One row per division and day so that each row drills down to that day's
-- Train_Manned_with_HHT.
SELECT tr.zone_code AS zone,
       tr.div_code AS division,
       tr.start_date AS run_date,
       count(DISTINCT tr.run_id)::int AS train_runs,
       count(*)::int AS coaches,
       count(*) FILTER (WHERE cm.manned)::int AS manned,
       count(*) FILTER (WHERE NOT cm.manned)::int AS unmanned,
       round(100.0 * count(*) FILTER (WHERE cm.manned) / count(*), 1) AS manned_pct
  FROM train_runs tr
  CROSS JOIN LATERAL run_coach_manning(tr.run_id) cm
 WHERE tr.start_date BETWEEN $1::date AND $2::date
   AND (NULL::text IS NULL OR tr.zone_code = NULL)
   AND (NULL::text IS NULL OR tr.div_code = NULL)
   AND TRUE
 GROUP BY tr.zone_code, tr.div_code, tr.start_date
 ORDER BY tr.start_date DESC, tr.zone_code, tr.div_code
`,
  syncDateWiseWhere: (column: string, code: string): string => syncDateWiseSql(`AND ce.${column} = '${code}'`),
  tteEft: `SELECT e.tte_id, t.name AS tte_name, e.lobby_code, e.div_code, e.zone_code, count(*)::int AS eft_count,
       count(DISTINCT e.run_id)::int AS trains_worked, sum(e.total) AS amount,
       COALESCE(sum(e.total) FILTER (WHERE e.payment_mode = 'CASH'), 0) AS cash,
       COALESCE(sum(e.total) FILTER (WHERE e.payment_mode <> 'CASH' AND EXISTS (SELECT 1 FROM digital_payments dp WHERE dp.eft_no = e.eft_no AND dp.status = 'SUCCESS')), 0) AS digital,
       round(100.0 * count(*) FILTER (WHERE e.payment_mode <> 'CASH') / count(*), 1) AS digital_pct
    FROM efts e LEFT JOIN ttes t ON t.tte_id = e.tte_id
   WHERE e.issued_at >= $1::date::timestamp AT TIME ZONE 'Asia/Kolkata' AND e.issued_at < ($2::date + 1)::timestamp AT TIME ZONE 'Asia/Kolkata'
   GROUP BY e.tte_id, t.name, e.lobby_code, e.div_code, e.zone_code ORDER BY sum(e.total) DESC, e.tte_id, e.lobby_code, e.div_code, e.zone_code`,
  activeUsers: `SELECT ce.lobby_code AS lobby, ce.tte_id, te.name AS tte_name, te.designation,
       string_agg(DISTINCT ce.device_id, ', ') AS hht_ids, string_agg(DISTINCT tr.train_no, ', ') AS trains, count(*)::int AS events,
       count(*) FILTER (WHERE ce.sync_time IS NULL)::int AS pending, min(ce.device_time) AS first_event_at,
       max(ce.device_time) AS last_event_at, max(ce.sync_time) AS last_sync_at
    FROM checking_events ce JOIN train_runs tr ON tr.run_id = ce.run_id JOIN ttes te ON te.tte_id = ce.tte_id
   WHERE ce.device_time >= $1::date::timestamp AT TIME ZONE 'Asia/Kolkata'
     AND ce.device_time < ($1::date + 1)::timestamp AT TIME ZONE 'Asia/Kolkata'
   GROUP BY ce.lobby_code, ce.tte_id, te.name, te.designation ORDER BY 1, 2`,
  /** TTE Manning as it read before migration 020: from the beats of the four run dates. */
  tteManning: `WITH bt AS (
  SELECT b.beat_id, b.run_id, b.tte_id, b.device_id, b.lobby_code, b.coaches, b.sign_on_at, b.sign_off_at,
         tr.train_no
    FROM beats b
    JOIN train_runs tr ON tr.run_id = b.run_id
   WHERE tr.start_date BETWEEN $1::date - 3 AND $1::date
     AND b.run_id >= ($1::date - 3 - date '2000-01-01')::bigint * 100000
     AND b.run_id < ($1::date + 1 - date '2000-01-01')::bigint * 100000
     AND COALESCE(ist_date(b.sign_on_at), tr.start_date) = $1::date
     AND (NULL::text IS NULL OR b.zone_code = NULL)
     AND (NULL::text IS NULL OR b.div_code = NULL)
     AND (NULL::text IS NULL OR b.lobby_code = NULL)
     AND TRUE
), mc AS MATERIALIZED (
  SELECT bt.tte_id, count(DISTINCT (bt.run_id, c.coach_id))::int AS coaches_manned
    FROM bt
    CROSS JOIN LATERAL unnest(bt.coaches) AS c(coach_id)
   WHERE bt.device_id IS NOT NULL
   GROUP BY bt.tte_id
)
SELECT bt.lobby_code AS lobby,
       bt.tte_id,
       te.name AS tte_name,
       te.designation,
       mask_mobile(te.mobile_no) AS mobile,
       count(DISTINCT bt.run_id)::int AS trains_worked,
       string_agg(DISTINCT bt.train_no, ', ') AS trains,
       count(*)::int AS beats,
       COALESCE(max(mc.coaches_manned), 0) AS coaches_manned,
       string_agg(DISTINCT bt.device_id, ', ') AS hht_ids,
       min(bt.sign_on_at) AS first_sign_on,
       max(bt.sign_off_at) AS last_sign_off,
       $1::date - 3 AS from_date,
       $1::date AS to_date
  FROM bt
  JOIN ttes te ON te.tte_id = bt.tte_id
  LEFT JOIN mc ON mc.tte_id = bt.tte_id
 GROUP BY bt.lobby_code, bt.tte_id, te.name, te.designation, te.mobile_no
 ORDER BY bt.lobby_code, bt.tte_id`,
  /** The TDR list as it read before migration 018 (every run joined, the lobby looked up for every TDR). */
  tdrCard: (scope: string): string => `SELECT t.tdr_id, t.pnr, tr.train_no, tr.start_date, t.coach_id AS coach, t.class, t.reason, t.certificate_no,
       t.status, t.refund_amount, t.filed_at
    FROM tdrs t
    JOIN train_runs tr ON tr.run_id = t.run_id
    LEFT JOIN LATERAL (
          SELECT b.lobby_code FROM beats b WHERE b.run_id = t.run_id AND t.coach_id = ANY (b.coaches) ORDER BY b.beat_no LIMIT 1
         ) bl ON TRUE
   WHERE ist_date(t.filed_at) BETWEEN $1::date AND $2::date AND ${scope}
   ORDER BY t.filed_at DESC, t.tdr_id`,
  tdrSummary: `SELECT td.div_code AS division, tr.train_no, td.reason, count(*)::int AS tdrs,
       count(*) FILTER (WHERE td.status = 'REFUNDED')::int AS refunded,
       COALESCE(sum(td.refund_amount) FILTER (WHERE td.status = 'REFUNDED'), 0) AS refund_amount
    FROM tdrs td JOIN train_runs tr ON tr.run_id = td.run_id
   WHERE tr.start_date BETWEEN $1::date AND $2::date
   GROUP BY td.div_code, tr.train_no, td.reason ORDER BY 1, 2, 3`,
};

type Row = Record<string, unknown>;
const pick = (rows: Row[], cols: string[]): Row[] => rows.map((r) => Object.fromEntries(cols.map((c) => [c, r[c]])));
const sortBy = (rows: Row[], cols: string[]): Row[] =>
  [...rows].sort((a, b) => cols.map((c) => String(a[c]).localeCompare(String(b[c]))).find((x) => x !== 0) ?? 0);

/** Each rollup-backed report against the raw computation, on the given day (and the week or range it covers). */
async function expectReportsMatchRaw(db: Queryable, day: string): Promise<void> {
  const q = async (sql: string, params: unknown[]): Promise<Row[]> => (await db.query<Row>(sql, params)).rows;
  const dateWise = await q(reportSql('sync_delay_datewise.sql'), [day]);
  expect(dateWise.length).toBeGreaterThan(0);
  expect(dateWise).toEqual(await q(RAW.syncDateWise, [day]));

  // The day rollup serves users of one zone, division or lobby too (division rows, or that lobby's rows).
  const one = (await q('SELECT zone_code, div_code, lobby_code FROM rollup_sync WHERE event_date = $1::date ORDER BY events DESC LIMIT 1', [day]))[0];
  expect(one).toBeDefined();
  for (const [column, code] of [['zone_code', one?.zone_code], ['div_code', one?.div_code], ['lobby_code', one?.lobby_code]] as const) {
    const scoped = await q(scopedReportSql('sync_delay_datewise.sql', `ce.${column}`, String(code)), [day]);
    expect(scoped.length, `SyncDelayDateWise for ${column} ${String(code)}`).toBeGreaterThan(0);
    expect(scoped).toEqual(await q(RAW.syncDateWiseWhere(column, String(code)), [day]));
  }

  const summaryCols = ['train_no', 'start_date', 'division', 'lobby', 'tte_id', 'tte_name', 'hht_id', 'events', 'pending_records',
    'last_event_at', 'last_sync_at', 'avg_delay_min', 'max_delay_min'];
  const key = ['train_no', 'tte_id', 'hht_id', 'start_date'];
  const summary = await q(reportSql('sync_delay_new.sql'), [day]);
  expect(summary.length).toBeGreaterThan(0);
  expect(sortBy(pick(summary, summaryCols), key)).toEqual(sortBy(pick(await q(RAW.syncSummary, [day]), summaryCols), key));

  const active = await q(reportSql('ttemanning_active_users.sql'), [day]);
  expect(active.length).toBeGreaterThan(0);
  const activeCols = ['lobby', 'tte_id', 'tte_name', 'designation', 'hht_ids', 'trains', 'events', 'pending', 'first_event_at', 'last_event_at', 'last_sync_at'];
  expect(pick(active, activeCols)).toEqual(await q(RAW.activeUsers, [day]));

  const duty = await q(reportSql('ttemanning.sql'), [day]);
  expect(duty.length).toBeGreaterThan(0);
  expect(duty).toEqual(await q(RAW.tteManning, [day]));
  const dutyLobby = String(duty[0]?.lobby);
  const lobbyDuty = await q(scopedReportSql('ttemanning.sql', 'b.lobby_code', dutyLobby), [day]);
  expect(lobbyDuty.length).toBeGreaterThan(0);
  expect(lobbyDuty).toEqual(duty.filter((r) => r.lobby === dutyLobby));
  // Its page count (per-lobby rows, migration 023) is the number of rows listed, India-wide and for the lobby.
  expect(Number((await q(reportSql('ttemanning.count.sql'), [day]))[0]?.total)).toBe(duty.length);
  expect(Number((await q(scopedReportSql('ttemanning.count.sql', 'b.lobby_code', dutyLobby), [day]))[0]?.total)).toBe(lobbyDuty.length);

  const week = await q(reportSql('dash_psgn_7days.sql'), [day]);
  const raw7 = await q(RAW.psgn7days, [day]);
  expect(week.filter((r) => Number(r.passengers) > 0)).toEqual(raw7);

  const classes = await q(reportSql('dash_psgn_class.sql'), [day]);
  expect(sortBy(pick(classes, ['class', 'passengers', 'turned_up']), ['class'])).toEqual(sortBy(await q(RAW.psgnClass, [day]), ['class']));

  const release = await q(reportSql('dash_release.sql'), [day]);
  expect(pick(release, ['train_no', 'vacant', 'released', 'rebooked'])).toEqual(await q(RAW.release, [day]));

  const manned = await q(reportSql('dash_trains_manned.sql'), [day]);
  expect(manned.length).toBeGreaterThan(0);
  expect(manned).toEqual(await q(RAW.trainsManned, [day]));
  expect(await q(reportSql('dash_manned_coaches.sql'), [day])).toEqual(await q(RAW.mannedCoaches, [day]));

  const from = addDays(day, -6);
  const manning = await q(reportSql('mannedcoachsummary.sql'), [from, day]);
  expect(manning.length).toBeGreaterThan(0);
  expect(manning).toEqual(await q(RAW.manningSummary, [from, day]));
  // EFT Summary's TTEs are distinct over the range: ranges of one date, a week, a middle stretch and the 31 dates the
  // filter allows, India-wide and as users of one division and one lobby see them.
  const eftCols = ['zone_code', 'div_code', 'eft_count', 'ttes', 'amount', 'cash', 'digital_pct'];
  const eftOne = (await q('SELECT div_code, lobby_code FROM rollup_efts WHERE issue_date = $1::date ORDER BY efts DESC, tte_id LIMIT 1', [day]))[0];
  expect(eftOne).toBeDefined();
  for (const [start, end] of [[from, day], [day, day], [addDays(day, -4), addDays(day, -1)], [addDays(day, -30), day]] as const) {
    const eft = await q(reportSql('eft-summary.sql'), [start, end]);
    expect(eft.length, `EFT Summary ${start}..${end}`).toBeGreaterThan(0);
    expect(pick(eft, eftCols), `EFT Summary ${start}..${end}`).toEqual(await q(RAW.eftSummary, [start, end]));
    for (const [column, code] of [['div_code', eftOne?.div_code], ['lobby_code', eftOne?.lobby_code]] as const) {
      const scoped = await q(scopedReportSql('eft-summary.sql', `e.${column}`, String(code)), [start, end]);
      expect(pick(scoped, eftCols), `EFT Summary ${start}..${end} for ${column} ${String(code)}`).toEqual(
        await q(RAW.eftSummaryWhere(column, String(code)), [start, end]),
      );
    }
  }
  // The week's TTEs summed day by day exceed the distinct ones (TTEs work on several days): the count above is distinct.
  const tteDays = await q(`SELECT count(*)::int AS n FROM (SELECT DISTINCT ist_date(issued_at), div_code, tte_id FROM efts
                            WHERE issued_at >= $1::date::timestamp AT TIME ZONE 'Asia/Kolkata' AND issued_at < ($2::date + 1)::timestamp AT TIME ZONE 'Asia/Kolkata') x`, [from, day]);
  const weekTtes = (await q(reportSql('eft-summary.sql'), [from, day])).reduce((n, r) => n + Number(r.ttes), 0);
  expect(Number(tteDays[0]?.n)).toBeGreaterThan(weekTtes);

  const tteEft = await q(reportSql('eft-summary.tte.sql'), [from, day]);
  expect(tteEft.length).toBeGreaterThan(0);
  const tteCols = ['tte_id', 'tte_name', 'lobby_code', 'div_code', 'zone_code', 'eft_count', 'trains_worked', 'amount', 'cash', 'digital', 'digital_pct'];
  expect(pick(tteEft, tteCols)).toEqual(await q(RAW.tteEft, [from, day]));

  const tdrCard = await q(reportSql('dash_tdr.sql'), [from, day]);
  expect(tdrCard.length).toBeGreaterThan(0);
  expect(tdrCard).toEqual(await q(RAW.tdrCard('TRUE'), [from, day]));
  const lobby = (await q(`SELECT b.lobby_code FROM tdrs t JOIN beats b ON b.run_id = t.run_id AND t.coach_id = ANY (b.coaches)
                          WHERE ist_date(t.filed_at) BETWEEN $1::date AND $2::date ORDER BY t.tdr_id LIMIT 1`, [from, day]))[0]?.lobby_code;
  expect(lobby).toBeDefined();
  const lobbyTdrs = await q(scopedReportSql('dash_tdr.sql', 't.lobby_code', String(lobby)), [from, day]);
  expect(lobbyTdrs.length).toBeGreaterThan(0);
  expect(lobbyTdrs).toEqual(await q(RAW.tdrCard(`bl.lobby_code = '${String(lobby)}'`), [from, day]));

  const tdr = await q(reportSql('tdrsummary.sql'), [from, day]);
  expect(tdr.length).toBeGreaterThan(0);
  expect(sortBy(pick(tdr, ['division', 'train_no', 'reason', 'tdrs', 'refunded', 'refund_amount']), ['division', 'train_no', 'reason'])).toEqual(
    await q(RAW.tdrSummary, [from, day]),
  );
}


/**
 * Every kept range of TTE-wise EFT Summary (migration 024) against the raw EFTs: its kept rows are exactly the range's
 * rows that come before its bound in the report's order (every row when it has none). Returns the ranges checked and
 * how many of them had let rows go.
 */
async function expectRankedRangesMatchRaw(db: Queryable): Promise<{ ranges: number; cut: number }> {
  const raw = `SELECT g.lo, g.hi, s.tte_id, s.lobby_code, s.div_code, s.zone_code, s.eft_count, s.trains_worked, s.amount, s.cash, s.digital, s.digital_pct
    FROM rollup_eft_rank_range g
    CROSS JOIN LATERAL (
          SELECT e.tte_id, e.lobby_code, e.div_code, e.zone_code, count(*)::int AS eft_count, count(DISTINCT e.run_id)::int AS trains_worked,
                 sum(e.total) AS amount, COALESCE(sum(e.total) FILTER (WHERE e.payment_mode = 'CASH'), 0) AS cash,
                 COALESCE(sum(e.total) FILTER (WHERE e.payment_mode <> 'CASH' AND EXISTS (SELECT 1 FROM digital_payments dp WHERE dp.eft_no = e.eft_no AND dp.status = 'SUCCESS')), 0) AS digital,
                 round(100.0 * count(*) FILTER (WHERE e.payment_mode <> 'CASH') / count(*), 1) AS digital_pct
            FROM efts e
           WHERE e.issued_at >= g.lo::timestamp AT TIME ZONE 'Asia/Kolkata' AND e.issued_at < (g.hi + 1)::timestamp AT TIME ZONE 'Asia/Kolkata'
           GROUP BY e.tte_id, e.lobby_code, e.div_code, e.zone_code) s
   WHERE g.bound_amount IS NULL OR s.amount > g.bound_amount
      OR (s.amount = g.bound_amount AND (s.tte_id, s.lobby_code, s.div_code, s.zone_code) < (g.bound_tte, g.bound_lobby, g.bound_div, g.bound_zone))`;
  const kept = `SELECT lo, hi, tte_id, lobby_code, div_code, zone_code, eft_count, trains_worked, amount, cash, digital, digital_pct FROM rollup_eft_rank`;
  const extra = await db.query<Row>(`(${kept}) EXCEPT ALL (${raw}) LIMIT 5`);
  expect(extra.rows, 'kept rows that are not the range\'s first rows').toEqual([]);
  const missing = await db.query<Row>(`(${raw}) EXCEPT ALL (${kept}) LIMIT 5`);
  expect(missing.rows, 'first rows of a range that are not kept').toEqual([]);
  const n = (await db.query<{ ranges: number; cut: number }>(
    'SELECT count(*)::int AS ranges, (count(*) FILTER (WHERE bound_amount IS NOT NULL))::int AS cut FROM rollup_eft_rank_range',
  )).rows[0];
  return { ranges: Number(n?.ranges), cut: Number(n?.cut) };
}

describe.each(TEST_DRIVERS)('run-date partitions and rollups on %s', (driver) => {
  let t: TestDb & { today: string };
  const count = async (sql: string, params: unknown[] = []): Promise<number> =>
    Number((await t.db.query<{ n: number }>(sql, params)).rows[0]?.n);

  beforeAll(async () => {
    t = await cloneSeededTestDb(driver);
  });
  afterAll(async () => {
    await t?.drop();
  });

  it('partitions the four large tables by run date, each seeded day in its own partition', async () => {
    for (const table of PARTITIONED_TABLES) {
      const parts = await listRunPartitions(t.db, table);
      for (let d = -WINDOW_PAST; d <= 1; d++) expect(parts).toContain(`${table}_r${addDays(t.today, d).replaceAll('-', '')}`);
      expect(parts).toContain(`${table}_other`);
      expect(await count(`SELECT count(*)::int AS n FROM ${table}_other`), `${table}: nothing in the default partition`).toBe(0);
    }
    // A day's passengers are all in its partition, and a query for one run reads that partition only.
    const [lo, hi] = runIdRange(t.today);
    const part = `passengers_r${t.today.replaceAll('-', '')}`;
    expect(await count(`SELECT count(*)::int AS n FROM ${part}`)).toBe(await count('SELECT count(*)::int AS n FROM passengers WHERE run_id >= $1 AND run_id < $2', [lo, hi]));
    expect(await count(`SELECT count(*)::int AS n FROM ${part}`)).toBeGreaterThan(0);
  });

  it('keeps the keys unique with the run date in them, and the foreign keys name the run', async () => {
    const psgn = (await t.db.query<Row>('SELECT * FROM passengers ORDER BY psgn_id LIMIT 1')).rows[0];
    expect(psgn).toBeDefined();
    const cols = Object.keys(psgn ?? {});
    await expect(
      t.db.query(`INSERT INTO passengers (${cols.join(', ')}) SELECT ${cols.join(', ')} FROM passengers WHERE psgn_id = $1`, [psgn?.psgn_id]),
    ).rejects.toThrow(/duplicate key|unique/i);
    // A checking event for a passenger of another run is refused (the key is (psgn_id, run_id) now).
    const ev = (await t.db.query<Row>('SELECT * FROM checking_events WHERE psgn_id IS NOT NULL LIMIT 1')).rows[0];
    const evCols = Object.keys(ev ?? {});
    await expect(
      t.db.query(
        `INSERT INTO checking_events (${evCols.join(', ')}) SELECT ${evCols.map((c) => (c === 'event_id' ? '$2::bigint' : c === 'run_id' ? 'run_id + 1' : c)).join(', ')}
           FROM checking_events WHERE event_id = $1`,
        [ev?.event_id, 999_999_999_999],
      ),
    ).rejects.toThrow(/foreign key|violates/i);
  });

  it('masks every name as the rule of migration 003 did (first letter of each word, the rest starred)', async () => {
    const odd = ['', ' ', '  A', 'A  B', 'A ', 'A\tB', 'A B ', ' A B', 'RAM KUMAR', "D'Souza", 'Mc Donald', 'x', 'ÉLÉ नाम कुमार', 'नाम कुमार', 'A B C D'];
    const differ = await t.db.query<{ v: string | null; now: string | null; was: string | null }>(
      `SELECT v, mask_name(v) AS now, ${MASK_NAME_003('v')} AS was
         FROM (SELECT name AS v FROM passengers UNION SELECT psgn_name FROM efts UNION SELECT unnest($1::text[]) UNION SELECT NULL) n
        WHERE mask_name(v) IS DISTINCT FROM ${MASK_NAME_003('v')}`,
      [odd],
    );
    expect(differ.rows).toEqual([]);
    expect((await t.db.query<{ m: string }>(`SELECT mask_name('Murugan Iyer') AS m`)).rows[0]?.m).toBe('M****** I***');
  });

  it('serves the summaries from rollups that equal the raw rows', async () => {
    await expectReportsMatchRaw(t.db, t.today);
    await expectReportsMatchRaw(t.db, addDays(t.today, -3));
  });

  it('updates the rollups of a run as its records are synced', async () => {
    const beat = (
      await t.db.query<{ beat_id: number; run_id: number; device_id: string; coaches: string[] }>(
        `SELECT b.beat_id, b.run_id, b.device_id, b.coaches FROM beats b JOIN devices d USING (device_id)
          WHERE d.status = 'IN_SERVICE' AND b.run_id IN (SELECT run_id FROM train_runs WHERE start_date = $1::date)
          ORDER BY b.beat_id LIMIT 1`,
        [t.today],
      )
    ).rows[0];
    expect(beat).toBeDefined();
    if (!beat) return;
    const psgn = (
      await t.db.query<{ psgn_id: number }>(
        `SELECT psgn_id FROM passengers WHERE run_id = $1 AND coach_id = ANY($2) AND mark IS DISTINCT FROM 'NT' AND current_status <> 'CAN'
          ORDER BY psgn_id LIMIT 1`,
        [beat.run_id, beat.coaches],
      )
    ).rows[0];
    expect(psgn).toBeDefined();
    const nt = (): Promise<number> => count('SELECT coalesce(sum(not_turned_up), 0)::int AS n FROM rollup_run_passengers WHERE run_id = $1', [beat.run_id]);
    const events = (): Promise<number> => count('SELECT coalesce(sum(events), 0)::int AS n FROM rollup_sync WHERE run_id = $1', [beat.run_id]);
    const efts = (): Promise<number> => count('SELECT coalesce(sum(efts), 0)::int AS n FROM rollup_efts WHERE run_id = $1', [beat.run_id]);
    const [ntBefore, eventsBefore, eftsBefore] = [await nt(), await events(), await efts()];
    const ends = (await t.db.query<{ src: string; dest: string }>(
      'SELECT t.src_station AS src, t.dest_station AS dest FROM train_runs r JOIN trains t USING (train_no) WHERE r.run_id = $1', [beat.run_id],
    )).rows[0];
    const deviceTime = `${t.today}T14:00:00+05:30`;
    await ingestBatch(t.db, {
      deviceId: beat.device_id,
      batchId: 'rollup-1',
      receivedAt: new Date(`${t.today}T14:20:00+05:30`),
      records: [
        { id: 'rollup-r1', type: 'CHECK', beatId: Number(beat.beat_id), eventType: 'NT', psgnId: Number(psgn?.psgn_id), deviceTime },
        {
          id: 'rollup-r2', type: 'EFT', beatId: Number(beat.beat_id), eftNo: 'EFROLLUP1', psgnName: 'Test Passenger', fromStation: ends?.src ?? '',
          toStation: ends?.dest ?? '', reason: 'TICKETLESS', excessFare: 500, excessCharge: 250, total: 750, paymentMode: 'CASH', issuedAt: deviceTime,
        },
      ],
    });
    expect(await nt()).toBe(ntBefore + 1);
    expect(await events()).toBe(eventsBefore + 1);
    expect(await efts()).toBe(eftsBefore + 1);
    await expectReportsMatchRaw(t.db, t.today);
  });

  it('counts an HHT that two lobbies of a division used on one day once for the division, once for each lobby', async () => {
    const u = await cloneSeededTestDb(driver);
    try {
      // An HHT handed over: a checking event of lobby B's beat recorded on the device lobby A used that day.
      const pair = (
        await u.db.query<{ event_id: number; run_id: number; device_id: string; div_code: string; lobby_b: string }>(
          `SELECT eb.event_id, eb.run_id, a.device_id, a.div_code, eb.lobby_code AS lobby_b
             FROM rollup_sync a
             JOIN checking_events eb ON eb.div_code = a.div_code AND eb.lobby_code <> a.lobby_code AND eb.device_id <> a.device_id
                  AND ist_date(eb.device_time) = a.event_date AND eb.sync_time IS NOT NULL
            WHERE a.event_date = $1::date AND a.device_id IS NOT NULL
            ORDER BY eb.event_id LIMIT 1`,
          [u.today],
        )
      ).rows[0];
      expect(pair).toBeDefined();
      if (!pair) return;
      // A correction by hand: its commit recomputes the run's rollups and the day rows they feed (the dirty set).
      await u.db.query('UPDATE checking_events SET device_id = $2 WHERE event_id = $1', [pair.event_id, pair.device_id]);
      const q = async (sql: string): Promise<Row[]> => (await u.db.query<Row>(sql, [u.today])).rows;
      const division = await q(scopedReportSql('sync_delay_datewise.sql', 'ce.div_code', pair.div_code));
      expect(division).toEqual(await q(RAW.syncDateWiseWhere('div_code', pair.div_code)));
      const lobby = await q(scopedReportSql('sync_delay_datewise.sql', 'ce.lobby_code', pair.lobby_b));
      expect(lobby).toEqual(await q(RAW.syncDateWiseWhere('lobby_code', pair.lobby_b)));
      expect(await q(reportSql('sync_delay_datewise.sql'))).toEqual(await q(RAW.syncDateWise));
      // The lobbies' HHT counts add up to more than the division's: the division rows are what make it right.
      const byLobby = await u.db.query<{ n: number }>(
        `SELECT sum(hhts)::int AS n FROM rollup_sync_day WHERE event_date = ist_date((SELECT device_time FROM checking_events WHERE event_id = $1))
            AND div_code = $2 AND lobby_code IS NOT NULL`,
        [pair.event_id, pair.div_code],
      );
      const byDivision = await u.db.query<{ n: number }>(
        `SELECT hhts AS n FROM rollup_sync_day WHERE event_date = ist_date((SELECT device_time FROM checking_events WHERE event_id = $1))
            AND div_code = $2 AND lobby_code IS NULL`,
        [pair.event_id, pair.div_code],
      );
      expect(Number(byLobby.rows[0]?.n)).toBe(Number(byDivision.rows[0]?.n) + 1);
    } finally {
      await u.drop();
    }
  });


  it('keeps the first rows of every TTE-wise EFT range in order, through the seed, syncs, corrections and retention', async () => {
    const u = await cloneSeededTestDb(driver);
    try {
      const tteSql = reportSql('eft-summary.tte.sql');
      const from = addDays(u.today, -7);
      // As seeded (a day at a time, the sync path's upkeep): every range of the window is kept, and matches.
      const seeded = await expectRankedRangesMatchRaw(u.db);
      const days = await u.db.query<{ n: number }>('SELECT count(DISTINCT issue_date)::int AS n FROM rollup_efts');
      expect(seeded.ranges).toBeGreaterThanOrEqual(32 * (Number(days.rows[0]?.n) - 1));
      // Kept two rows a range, the seed's upkeep again a day at a time: ranges let rows go, and still match.
      await u.db.exec(`CREATE OR REPLACE FUNCTION hht_eft_rank_depth() RETURNS int LANGUAGE sql STABLE AS 'SELECT 2'`);
      await u.db.exec('DELETE FROM rollup_eft_rank; DELETE FROM rollup_eft_rank_range');
      const runDates = await u.db.query<{ d: string }>(`SELECT DISTINCT start_date::text AS d FROM train_runs ORDER BY 1`);
      for (const { d } of runDates.rows) await u.db.query('SELECT hht_fill_rollups_for_date($1::date)', [d]);
      const small = await expectRankedRangesMatchRaw(u.db);
      expect(small.cut, 'ranges that let rows go').toBeGreaterThan(small.ranges / 2);
      await expectReportsMatchRaw(u.db, u.today);
      await u.db.query('SELECT hht_build_eft_rank()');
      expect(await expectRankedRangesMatchRaw(u.db)).toEqual(small);

      // A first page within the kept rows never groups the range (PostgreSQL stops at the LIMIT).
      const plan = (await u.db.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) SELECT * FROM (${tteSql}) q LIMIT 2`, [from, u.today]))
        .rows.map((r) => r['QUERY PLAN']).join('\n');
      expect(plan).toMatch(/Scan.* on rollup_efts[^\n]*never executed/);

      // A synced EFT larger than any puts its TTE first; taking it back puts the list back as it was.
      const before = (await u.db.query<Row>(tteSql, [from, u.today])).rows;
      const beat = (await u.db.query<{ beat_id: number; run_id: number; device_id: string; tte_id: string }>(
        `SELECT b.beat_id, b.run_id, b.device_id, b.tte_id FROM beats b JOIN devices d USING (device_id)
          WHERE d.status = 'IN_SERVICE' AND b.run_id IN (SELECT run_id FROM train_runs WHERE start_date = $1::date)
          ORDER BY b.beat_id DESC LIMIT 1`, [u.today])).rows[0];
      expect(beat).toBeDefined();
      if (!beat) return;
      const ends = (await u.db.query<{ src: string; dest: string }>(
        'SELECT t.src_station AS src, t.dest_station AS dest FROM train_runs r JOIN trains t USING (train_no) WHERE r.run_id = $1', [beat.run_id],
      )).rows[0];
      const issuedAt = `${u.today}T15:00:00+05:30`;
      await ingestBatch(u.db, {
        deviceId: beat.device_id, batchId: 'rank-1', receivedAt: new Date(`${u.today}T15:10:00+05:30`),
        records: [{
          id: 'rank-r1', type: 'EFT', beatId: Number(beat.beat_id), eftNo: 'EFRANK1', psgnName: 'Test Passenger', fromStation: ends?.src ?? '',
          toStation: ends?.dest ?? '', reason: 'TICKETLESS', excessFare: 90000, excessCharge: 9000, total: 99000, paymentMode: 'CASH', issuedAt,
        }],
      });
      const after = (await u.db.query<Row>(`${tteSql} LIMIT 3`, [from, u.today])).rows;
      expect(after[0]?.tte_id).toBe(beat.tte_id);
      await expectRankedRangesMatchRaw(u.db);
      await expectReportsMatchRaw(u.db, u.today);
      await u.db.query(`DELETE FROM efts WHERE eft_no = 'EFRANK1'`);
      await expectRankedRangesMatchRaw(u.db);
      expect((await u.db.query<Row>(tteSql, [from, u.today])).rows).toEqual(before);

      // Retention lets go the ranges holding the dropped dates; the rest still match, and ranges not kept are grouped.
      const cutoff = addDays(u.today, -20);
      const lastDropped = await u.db.query<{ d: string }>('SELECT max(issue_date)::text AS d FROM rollup_efts WHERE run_id < $1', [runIdRange(cutoff)[0]]);
      expect(lastDropped.rows[0]?.d).toBeTruthy();
      await dropRunDatesBefore(u.db, cutoff);
      const kept = await expectRankedRangesMatchRaw(u.db);
      expect(kept.ranges).toBeGreaterThan(0);
      const oldest = await u.db.query<{ lo: string }>('SELECT min(lo)::text AS lo FROM rollup_eft_rank_range');
      expect(String(oldest.rows[0]?.lo) > String(lastDropped.rows[0]?.d), 'no kept range holds a dropped EFT date').toBe(true);
      await expectReportsMatchRaw(u.db, u.today);
      const ungrouped = (await u.db.query<Row>(tteSql, [addDays(cutoff, -1), addDays(cutoff, 5)])).rows;
      expect(pick(ungrouped, ['tte_id', 'lobby_code', 'eft_count', 'amount'])).toEqual(
        pick((await u.db.query<Row>(RAW.tteEft, [addDays(cutoff, -1), addDays(cutoff, 5)])).rows, ['tte_id', 'lobby_code', 'eft_count', 'amount']),
      );

      // Ties at the bound: every EFT made 100 rupees, so many TTEs have equal amounts; the cut goes by TTE, lobby,
      // division and zone, and the report lists each row once. (Lowered amounts fall behind their bounds and leave the
      // kept rows, which stay right but fewer; a build makes them whole again.)
      await u.db.query('UPDATE efts SET total = 100');
      await expectRankedRangesMatchRaw(u.db);
      await u.db.query('SELECT hht_build_eft_rank()');
      const tied = await u.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM rollup_eft_rank_range g JOIN rollup_eft_rank k ON k.lo = g.lo AND k.hi = g.hi AND k.amount = g.bound_amount',
      );
      expect(Number(tied.rows[0]?.n), 'kept rows tied with their bound').toBeGreaterThan(0);
      await expectRankedRangesMatchRaw(u.db);
      await expectReportsMatchRaw(u.db, u.today);
      await ingestBatch(u.db, {
        deviceId: beat.device_id, batchId: 'rank-2', receivedAt: new Date(`${u.today}T15:20:00+05:30`),
        records: [{
          id: 'rank-r2', type: 'EFT', beatId: Number(beat.beat_id), eftNo: 'EFRANK2', psgnName: 'Test Passenger', fromStation: ends?.src ?? '',
          toStation: ends?.dest ?? '', reason: 'TICKETLESS', excessFare: 80, excessCharge: 20, total: 100, paymentMode: 'UPI', issuedAt,
        }],
      });
      await expectRankedRangesMatchRaw(u.db);
      await expectReportsMatchRaw(u.db, u.today);
    } finally {
      await u.drop();
    }
  });

  it('makes partitions ahead and drops whole run dates past the retention, never inside the demo window', async () => {
    const u = await cloneSeededTestDb(driver);
    try {
      const ahead = addDays(u.today, PARTITIONS_AHEAD_DAYS).replaceAll('-', '');
      // The shortest retention allowed keeps every day of the window.
      const runs = await u.db.query<{ n: number }>('SELECT count(*)::int AS n FROM train_runs');
      const kept = await maintainPartitions(u.db, u.today, WINDOW_PAST + 1);
      expect(kept.dropped).toEqual([]);
      expect((await u.db.query<{ n: number }>('SELECT count(*)::int AS n FROM train_runs')).rows[0]?.n).toBe(runs.rows[0]?.n);
      expect(await listRunPartitions(u.db, 'checking_events')).toContain(`checking_events_r${ahead}`);

      const cutoff = addDays(u.today, -20);
      const before = async (table: string): Promise<number> => {
        const [lo] = runIdRange(cutoff);
        return Number((await u.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE run_id < $1`, [lo])).rows[0]?.n);
      };
      const after = await u.db.query<{ n: number }>('SELECT count(*)::int AS n FROM passengers WHERE run_id >= $1', [runIdRange(cutoff)[0]]);
      expect(await before('passengers')).toBeGreaterThan(0);
      const dropped = await dropRunDatesBefore(u.db, cutoff);
      expect(dropped[0]).toBe(addDays(u.today, -WINDOW_PAST));
      expect(dropped[dropped.length - 1]).toBe(addDays(cutoff, -1));
      for (const table of [...RUN_TABLES.filter((x) => x !== 'digital_payments'), 'rollup_run_passengers', 'rollup_sync', 'rollup_efts', 'rollup_tte_duty']) {
        expect(await before(table), `${table} before the cutoff`).toBe(0);
      }
      const manningDays = await u.db.query<{ n: number }>('SELECT count(*)::int AS n FROM rollup_manning_day WHERE start_date < $1::date', [cutoff]);
      expect(manningDays.rows[0]?.n, 'rollup_manning_day before the cutoff').toBe(0);
      const eftDays = await u.db.query<{ n: number }>('SELECT count(*)::int AS n FROM rollup_eft_day WHERE issue_date < $1::date', [cutoff]);
      expect(eftDays.rows[0]?.n, 'rollup_eft_day before the cutoff').toBe(0);
      // TTE Manning's lobby counts: none left for duty dates whose runs are all gone, and the rest still its row count.
      const dutyLobbies = await u.db.query<{ n: number }>('SELECT count(*)::int AS n FROM rollup_tte_duty_lobby WHERE duty_date < $1::date', [cutoff]);
      expect(dutyLobbies.rows[0]?.n, 'rollup_tte_duty_lobby before the cutoff').toBe(0);
      for (const day of [cutoff, addDays(cutoff, 1), addDays(cutoff, 2)]) {
        const listed = (await u.db.query(reportSql('ttemanning.sql'), [day])).rows.length;
        expect(listed, `TTE Manning ${day}`).toBeGreaterThan(0);
        expect(Number((await u.db.query<{ total: number }>(reportSql('ttemanning.count.sql'), [day])).rows[0]?.total), `TTE Manning count ${day}`).toBe(listed);
      }
      const parts = await listRunPartitions(u.db, 'passengers');
      expect(parts).not.toContain(`passengers_r${addDays(cutoff, -1).replaceAll('-', '')}`);
      expect(parts).toContain(`passengers_r${cutoff.replaceAll('-', '')}`);
      expect((await u.db.query<{ n: number }>('SELECT count(*)::int AS n FROM passengers WHERE run_id >= $1', [runIdRange(cutoff)[0]])).rows[0]?.n).toBe(
        after.rows[0]?.n,
      );
      expect(Number((await u.db.query<{ n: number }>('SELECT count(*)::int AS n FROM digital_payments d WHERE NOT EXISTS (SELECT 1 FROM efts e WHERE e.eft_no = d.eft_no)')).rows[0]?.n)).toBe(0);
      // The rollups of the days kept still match.
      await expectReportsMatchRaw(u.db, u.today);
    } finally {
      await u.drop();
    }
  });
});
