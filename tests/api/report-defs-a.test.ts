/**
 * TRAIN CHECKING INFO report definitions (analyst set A): every report and tab runs through the engine
 * (parseFilter + runView) on a migrated database, on the empty schema (catches SQL and type errors) and on a
 * small two-division fixture (DLI of NR, BCT of WR) that proves rows come back and that a division user sees
 * only their division's rows.
 */
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, TEST_DRIVERS, type TestDb } from '../support/db';
import { checkDefinitions, type CheckedReport, type CheckedView } from '../../src/shared/definitions/validate';
import { readDefinitionFiles } from '../../src/server/reports/definition-files';
import { parseFilter } from '../../src/server/reports/filter';
import { runView } from '../../src/server/reports/executor';
import type { UserScope } from '../../src/server/reports/scope';
import type { Queryable } from '../../src/server/db';

const MINE = [
  'TTE_TS', 'All_Passenger_Report', 'vacant_berths', 'shiftedgotdown', 'Reallocation_List_Report', 'Occupancy',
  'census-occupency-report', 'eft_report', 'eft-summary', 'digitalpayment', 'dropped_e_ticket', 'release_berths',
  'chart_upload_time', 'tdrService', 'onboard-staff', 'coach-deficiency', 'dynamic-fare', 'railmadad',
];

/** Report ids of the other analyst's menu sections: links to them are fine once both branches merge. */
const OTHER_SET = [
  'trainDetails', 'traininfo', 'Train_Manned_with_HHT', 'unmanned_coaches', 'mannedcoachsummary', 'orgtodest-report',
  'onboard-staff-summary', 'tdrsummary', 'ttemanning', 'coachdefsummary', 'Train_Working_Report_BeatWise',
  'tripidsearch', 'eftsearch', 'unmannedcoachhistory', 'sync_delay_new', 'bertallotmentanomaly', 'nullTWR',
];

const TODAY = '2025-01-15';
const DLI_TRAIN = '12952'; // owned by NR / DLI
const BCT_TRAIN = '12951'; // owned by WR / BCT

const root = resolve(__dirname, '../..');
const checked = checkDefinitions(readDefinitionFiles(root));
const mine = MINE.map((id) => checked.reports.find((r) => r.definition.id === id));

/** A filter body for a report: its required fields plus the train/dates of the fixture. */
function body(report: CheckedReport, trainNo: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const props = Object.keys((report.filterSchema.properties ?? {}) as Record<string, unknown>);
  const all: Record<string, unknown> = {
    trainNo, startDate: TODAY, srcDate: TODAY, start_date: '2025-01-10', end_date: TODAY, ...extra,
  };
  const required = (report.filterSchema.required as string[] | undefined) ?? [];
  const out: Record<string, unknown> = {};
  for (const k of props) {
    if (k === 'trainNo' && !required.includes('trainNo') && !('trainNo' in extra)) continue;
    if (k in all) out[k] = all[k];
  }
  return out;
}

/** Every optional field set to a plausible value (first enum value, or a sample), to exercise every predicate. */
function fullBody(report: CheckedReport, trainNo: string): Record<string, unknown> {
  const samples: Record<string, unknown> = {
    zone: 'NR', division: 'DLI', lobby: 'NDLS', tteId: 'TTE1001', coach: 'B1', signOnId: 'SO1', trainNo,
  };
  const props = (report.filterSchema.properties ?? {}) as Record<string, { enum?: unknown[] }>;
  const out = body(report, trainNo);
  for (const [k, p] of Object.entries(props)) {
    if (k in out) continue;
    if (p.enum) out[k] = p.enum[0];
    else if (k in samples) out[k] = samples[k];
  }
  return out;
}

const run = (db: TestDb['db'], report: CheckedReport, view: CheckedView, values: Record<string, unknown>, scope: UserScope) =>
  runView(db, view, values, scope, { timeoutMs: 15_000 });

describe('TRAIN CHECKING INFO definitions', () => {
  it('are all present and valid', () => {
    const missing = MINE.filter((_, i) => !mine[i]);
    const errors = checked.errors.filter((e) => {
      if (!MINE.some((id) => e.file === `reports/${id}.json`)) return false;
      const m = /links to unknown report "(.+)"/.exec(e.reason);
      return !(m && OTHER_SET.includes(m[1] as string));
    });
    expect(missing).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('use client paging of 50 rows, except the server-paged TTE_TS and the India-wide lists of thousands of rows', () => {
    // One row per run, TTE and HHT (Sync Delay), per TTE (TTE-wise EFTs, Active Users, TTE Details): 7,000-28,000
    // rows a national day, so the server pages them (docs/decisions.md, "National summaries"); the EFT Report's two
    // lists are 20,000 EFTs a national day, TDRs, complaints and coach deficiencies 34,000-67,000 a national week
    // ("Report SQL at national volume").
    const serverPaged = new Set([
      'TTE_TS/', 'TTE_TS/tte-details', 'sync_delay_new/', 'eft-summary/tte-wise', 'ttemanning/active', 'eft_report/',
      'eft_report/passenger-details', 'tdrService/', 'coach-deficiency/', 'railmadad/',
    ]);
    for (const r of mine) {
      if (!r) continue;
      for (const v of r.views) {
        const expected = serverPaged.has(`${r.definition.id}/${v.tabId ?? ''}`) ? 'server' : 'client';
        expect(v.paging, `${r.definition.id} ${v.endpoint}`).toEqual({ mode: expected, pageSize: 50 });
      }
    }
  });

  it('server-page the other national lists past the client cap: the dashboard cards\' EFTs and TDRs, every coach\'s manning', () => {
    // 20,000-24,000 rows a national day, 52,000 TDRs a national week: past the cap, a client-paged call read them three
    // times. The unmanned coaches (9,000 a national day) count booked passengers per coach: for the page's coaches only.
    for (const [id, endpoint] of [['dash_eft', 'EFTCard'], ['dash_tdr', 'TDRCard'], ['unmanned_coaches', 'UnmannedReport'], ['unmanned_coaches', 'unmannedMannedAll']]) {
      const v = checked.reports.find((r) => r.definition.id === id)?.views.find((x) => x.endpoint === endpoint);
      expect(v?.paging, endpoint).toEqual({ mode: 'server', pageSize: 50 });
    }
  });

  it('export csv, xlsx and pdf', () => {
    for (const r of mine) expect(r?.definition.export?.formats.sort()).toEqual(['csv', 'pdf', 'xlsx']);
  });

  it('mask personal data: passenger names and every mobile number go through mask_name / mask_mobile', () => {
    for (const r of mine) {
      for (const v of r?.views ?? []) {
        // Selected (aliased) passenger names and any mobile number must be masked; comparisons may use them.
        for (const m of v.sql.matchAll(/(\w+\()?\b\w+\.mobile_no\)?\s+AS\b/g)) expect(m[1], `${v.endpoint}: ${m[0]}`).toBe('mask_mobile(');
        for (const m of v.sql.matchAll(/(\w+\()?\b(?:p|e|de)\.(?:name|psgn_name)\)?\s+AS\b/g)) {
          expect(m[1], `${v.endpoint}: ${m[0]}`).toBe('mask_name(');
        }
        expect(v.sql, v.endpoint).not.toMatch(/\b(?:p|e|de)\.(?:name|psgn_name)\s*,/);
        expect(v.sql, v.endpoint).not.toMatch(/\b\w+\.mobile_no\s*,/);
      }
    }
  });
});

describe.each(TEST_DRIVERS)('TRAIN CHECKING INFO reports on %s', (driver) => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb(driver);
  });
  afterAll(async () => {
    await t?.drop();
  });

  describe('on the empty schema', () => {
    for (const [i, id] of MINE.entries()) {
      it(`${id}: every call executes with defaults and with every filter set`, async () => {
        const report = mine[i];
        expect(report).toBeDefined();
        if (!report) return;
        for (const view of report.views) {
          for (const b of [body(report, DLI_TRAIN), fullBody(report, DLI_TRAIN)]) {
            const values = parseFilter(report, b, TODAY);
            for (const scope of [{ kind: 'all' }, { kind: 'division', code: 'DLI' }, { kind: 'zone', code: 'NR' }] as UserScope[]) {
              const res = await run(t.db, report, view, values, scope);
              expect(res.rows, `${view.endpoint}`).toEqual([]);
            }
          }
        }
      });
    }
  });

  describe('on the two-division fixture', () => {
    beforeAll(async () => {
      await t.db.transaction(async (tx) => insertFixture(tx));
    });

    for (const [i, id] of MINE.entries()) {
      it(`${id}: rows come back; DLI sees only DLI rows; lobby rule or 403`, async () => {
        const report = mine[i];
        if (!report) throw new Error(`${id} missing`);
        const runBased = ((report.filterSchema.required as string[] | undefined) ?? []).includes('trainNo');
        for (const view of report.views) {
          const label = `${id} ${view.endpoint}`;
          const values = parseFilter(report, body(report, DLI_TRAIN), TODAY);
          const all = await run(t.db, report, view, values, { kind: 'all' });
          expect(all.rows.length, `${label}: rows for all`).toBeGreaterThan(0);
          const dli = await run(t.db, report, view, values, { kind: 'division', code: 'DLI' });
          const bct = await run(t.db, report, view, values, { kind: 'division', code: 'BCT' });
          expect(dli.rows.length, `${label}: rows for DLI`).toBeGreaterThan(0);
          for (const row of dli.rows) {
            if ('div_code' in row) expect(row.div_code, label).toBe('DLI');
            if ('train_no' in row) expect(row.train_no, label).not.toBe(BCT_TRAIN);
            if ('zone_code' in row) expect(row.zone_code, label).toBe('NR');
          }
          if (runBased) {
            expect(bct.rows, `${label}: BCT sees nothing of a DLI train`).toEqual([]);
            const other = parseFilter(report, body(report, BCT_TRAIN), TODAY);
            const dliOther = await run(t.db, report, view, other, { kind: 'division', code: 'DLI' });
            expect(dliOther.rows, `${label}: DLI sees nothing of a BCT train`).toEqual([]);
            expect((await run(t.db, report, view, other, { kind: 'all' })).rows.length, label).toBeGreaterThan(0);
          } else {
            expect(bct.rows.length, `${label}: rows for BCT`).toBeGreaterThan(0);
            expect(dli.total + bct.total, `${label}: DLI + BCT = all`).toBe(all.total);
          }
          const zone = await run(t.db, report, view, values, { kind: 'zone', code: 'NR' });
          expect(zone.total, `${label}: zone NR = division DLI`).toBe(dli.total);
          if (view.scope.lobby) {
            await run(t.db, report, view, values, { kind: 'lobby', code: 'NDLS' });
          } else {
            await expect(run(t.db, report, view, values, { kind: 'lobby', code: 'NDLS' })).rejects.toMatchObject({ statusCode: 403 });
          }
        }
      });
    }

    it('TTE_TS pages on the server and counts the beat work', async () => {
      const report = mine[0] as CheckedReport;
      const view = report.views[0] as CheckedView;
      const values = parseFilter(report, body(report, DLI_TRAIN, { trainNo: DLI_TRAIN }), TODAY);
      const res = await runView(t.db, view, values, { kind: 'all' }, { timeoutMs: 15_000, page: 1, rowsPerPage: 1 });
      expect(res.total).toBe(2);
      expect(res.rows).toHaveLength(1);
      const rows = (await runView(t.db, view, values, { kind: 'all' }, { timeoutMs: 15_000, sortBy: 'beat_no' })).rows;
      // Checked: two O, one NT, and the RAC passenger given a berth on board with no O/NT event (the allotment marks O).
      expect(rows[0]).toMatchObject({ tte_id: 'TTE1001', beat_no: 1, checked: 4, nt: 1, allotted: 1, eft_count: 2, eft_amount: 1610 });
    });

    it('All_Passenger_Report masks names and its tabs split by mark', async () => {
      const report = mine[1] as CheckedReport;
      const values = parseFilter(report, { trainNo: DLI_TRAIN }, TODAY);
      const [allV, upV, ntV] = report.views as [CheckedView, CheckedView, CheckedView];
      const all = (await run(t.db, report, allV, values, { kind: 'all' })).rows;
      const up = (await run(t.db, report, upV, values, { kind: 'all' })).rows;
      const nt = (await run(t.db, report, ntV, values, { kind: 'all' })).rows;
      expect(all.map((r) => r.psgn_name)).toContain('R***** K****');
      expect(up.every((r) => r.mark === 'O')).toBe(true);
      expect(nt.every((r) => r.mark === 'NT')).toBe(true);
      expect(up.length + nt.length).toBeLessThan(all.length);
    });

    it('Occupancy computes vacant berths and a 1-decimal percentage', async () => {
      const report = mine[5] as CheckedReport;
      const values = parseFilter(report, { trainNo: DLI_TRAIN }, TODAY);
      const coach = (await run(t.db, report, report.views[1] as CheckedView, values, { kind: 'all' })).rows;
      const b1 = coach.find((r) => r.coach === 'B1');
      // B1: 72 berths; held by passengers not NT and not cancelled: berths 1, 3, 4 -> 69 vacant, 4.2 %.
      expect(b1).toMatchObject({ capacity: 72, booked: 4, turned_up: 2, nt: 1, vacant: 69, occupancy_pct: 4.2 });
    });

    it('eft-summary splits cash and digital and links to eft_report with the division', async () => {
      const report = mine[8] as CheckedReport;
      const values = parseFilter(report, {}, TODAY);
      const rows = (await run(t.db, report, report.views[0] as CheckedView, values, { kind: 'all' })).rows;
      const dli = rows.find((r) => r.div_code === 'DLI');
      expect(dli).toMatchObject({ eft_count: 2, amount: 1610, cash: 1250, digital: 360 });
    });

    it('dropped_e_ticket lists a cancelled passenger with the berth they left, and cancelled berths no passenger accounts for', async () => {
      const report = mine.find((r) => r?.definition.id === 'dropped_e_ticket') as CheckedReport;
      const view = report.views.find((v) => v.endpoint === 'getAfterChartingCanclled') as CheckedView;
      const pick = (r: Record<string, unknown>) => [r.source, r.pnr, r.coach, r.berth_no, r.released_to_prs];
      // DLI's run: Geeta Lal cancelled, her berth B1/5 recorded vacant (CANCELLED) and not released.
      const dli = (await run(t.db, report, view, parseFilter(report, { trainNo: DLI_TRAIN }, TODAY), { kind: 'all' })).rows;
      expect(dli.map(pick)).toEqual([['PASSENGER', '1000000002', 'B1', 5, 'NO']]);
      // BCT's run: berth B1/7 vacant for a cancellation no charted passenger accounts for, released to PRS.
      const bct = (await run(t.db, report, view, parseFilter(report, { trainNo: BCT_TRAIN }, TODAY), { kind: 'all' })).rows;
      expect(bct.map(pick)).toEqual([['VACANT_BERTH', null, 'B1', 7, 'YES']]);
    });

    it('railmadad marks SLA met only when resolved within sla_hours', async () => {
      const report = mine[17] as CheckedReport;
      const values = parseFilter(report, {}, TODAY);
      const rows = (await run(t.db, report, report.views[0] as CheckedView, values, { kind: 'all' })).rows;
      const byRef = Object.fromEntries(rows.map((r) => [r.ref_no, r.sla_met]));
      expect(byRef).toMatchObject({ RM1: 'YES', RM2: 'NO', RM3: 'PENDING' });
    });
  });
});

/** run_id = (start_date - 2000-01-01) * 100000 + train_no */
const runId = (trainNo: string, date: string): number =>
  ((Date.parse(date) - Date.parse('2000-01-01')) / 86_400_000) * 100_000 + Number(trainNo);

async function insertFixture(q: Queryable): Promise<void> {
  const A = runId(DLI_TRAIN, TODAY);
  const B = runId(BCT_TRAIN, TODAY);
  await q.exec(`
    INSERT INTO zones VALUES ('NR', 'Northern Railway'), ('WR', 'Western Railway');
    INSERT INTO divisions VALUES ('DLI', 'NR', 'Delhi'), ('BCT', 'WR', 'Mumbai Central');
    INSERT INTO stations VALUES ('NDLS', 'New Delhi', 'NR', 'DLI'), ('MTJ', 'Mathura Jn', 'NR', 'DLI'),
      ('MMCT', 'Mumbai Central', 'WR', 'BCT');
    INSERT INTO lobbies VALUES ('NDLS', 'New Delhi TTE Lobby', 'NDLS', 'NR', 'DLI'), ('MMCT', 'Mumbai Central TTE Lobby', 'MMCT', 'WR', 'BCT');
    INSERT INTO trains VALUES
      ('${DLI_TRAIN}', 'NDLS MMCT Rajdhani', 'RAJDHANI', 'NDLS', 'MMCT', 'NR', 'DLI', 'YYYYYYY', true),
      ('${BCT_TRAIN}', 'MMCT NDLS Rajdhani', 'RAJDHANI', 'MMCT', 'NDLS', 'WR', 'BCT', 'YYYYYYY', true);
    INSERT INTO train_stops VALUES
      ('${DLI_TRAIN}', 1, 'NDLS', NULL, '16:55', 1, 0, 0), ('${DLI_TRAIN}', 2, 'MTJ', '18:20', '18:22', 1, 141, 2),
      ('${DLI_TRAIN}', 3, 'MMCT', '08:35', NULL, 2, 1386, 0),
      ('${BCT_TRAIN}', 1, 'MMCT', NULL, '17:00', 1, 0, 0), ('${BCT_TRAIN}', 2, 'MTJ', '06:30', '06:32', 2, 1245, 2),
      ('${BCT_TRAIN}', 3, 'NDLS', '08:32', NULL, 2, 1386, 0);
    INSERT INTO train_runs VALUES
      (${A}, '${DLI_TRAIN}', '${TODAY}', 'NR', 'DLI', '${TODAY} 08:55+05:30', '${TODAY} 16:25+05:30', '${TODAY} 16:31+05:30', 0),
      (${B}, '${BCT_TRAIN}', '${TODAY}', 'WR', 'BCT', '${TODAY} 09:00+05:30', '${TODAY} 16:30+05:30', NULL, 10);
    INSERT INTO run_coaches VALUES (${A}, 'B1', 1, '3A', 72), (${A}, 'A1', 2, '2A', 48),
      (${B}, 'B1', 1, '3A', 72), (${B}, 'A1', 2, '2A', 48);
    INSERT INTO ttes VALUES ('TTE1001', 'Suresh Yadav', 'Sr. TTE', '9811112222', 'NDLS', 'NR', 'DLI'),
      ('TTE1002', 'Anil Sharma', 'TTE', '9811113333', 'NDLS', 'NR', 'DLI'),
      ('TTE2001', 'Prakash Patil', 'TTE', '9822224444', 'MMCT', 'WR', 'BCT');
    INSERT INTO devices (device_id, serial_no, imei, make, model, app_version, status, zone_code, div_code, lobby_code,
      assigned_tte_id, registered_on) VALUES
      ('HHT001', 'S001', 'I001', 'Ingenico', 'A910', '5.2', 'IN_SERVICE', 'NR', 'DLI', 'NDLS', 'TTE1001', '2024-01-01'),
      ('HHT002', 'S002', 'I002', 'Ingenico', 'A910', '5.2', 'IN_SERVICE', 'WR', 'BCT', 'MMCT', 'TTE2001', '2024-01-01');
    INSERT INTO beats VALUES
      (${A}1, ${A}, 1, 'TTE1001', 'HHT001', 'NR', 'DLI', 'NDLS', 'NDLS', 'MTJ', '{B1,A1}', 'SO1', 'TRIP1',
       '${TODAY} 16:20+05:30', '${TODAY} 18:30+05:30', 'SUBMITTED', '${TODAY} 18:40+05:30'),
      (${A}2, ${A}, 2, 'TTE1002', NULL, 'NR', 'DLI', 'NDLS', 'MTJ', 'MMCT', '{B1,A1}', 'SO2', 'TRIP2',
       '${TODAY} 18:20+05:30', NULL, 'NOT_SUBMITTED', NULL),
      (${B}1, ${B}, 1, 'TTE2001', 'HHT002', 'WR', 'BCT', 'MMCT', 'MMCT', 'NDLS', '{B1,A1}', 'SO3', 'TRIP3',
       '${TODAY} 16:40+05:30', NULL, 'EMPTY', NULL);
    INSERT INTO pnrs VALUES
      ('1000000001', ${A}, '3A', 'GN', 'NDLS', 'MMCT', '2025-01-01 10:00+05:30', 'E_TICKET', 9000, 'NR', 'DLI'),
      ('1000000002', ${A}, '3A', 'GN', 'NDLS', 'MTJ', '2025-01-02 10:00+05:30', 'COUNTER', 3000, 'NR', 'DLI'),
      ('2000000001', ${B}, '3A', 'GN', 'MMCT', 'NDLS', '2025-01-01 10:00+05:30', 'E_TICKET', 9000, 'WR', 'BCT');
    INSERT INTO passengers VALUES
      (${A}0001, '1000000001', ${A}, 1, 'Ramesh Kumar', 45, 'M', '9876543210', '3A', 'GN', 'CNF', 'CNF', 'B1', 1, 'LB', 'NDLS', 'MMCT', 3000, 'O', '${TODAY} 17:05+05:30', 'TTE1001', 'NR', 'DLI', 'NDLS'),
      (${A}0002, '1000000001', ${A}, 2, 'Sita Devi', 62, 'F', '9876543210', '3A', 'SS', 'CNF', 'CNF', 'B1', 2, 'MB', 'NDLS', 'MMCT', 3000, 'NT', '${TODAY} 17:06+05:30', 'TTE1001', 'NR', 'DLI', 'NDLS'),
      (${A}0003, '1000000001', ${A}, 3, 'Aarav Kumar', 8, 'M', '9876543210', '3A', 'GN', 'CNF', 'CNF', 'B1', 3, 'UB', 'NDLS', 'MMCT', 3000, 'O', '${TODAY} 17:07+05:30', 'TTE1001', 'NR', 'DLI', 'NDLS'),
      (${A}0004, '1000000002', ${A}, 1, 'Mohan Lal', 33, 'M', '9811100000', '3A', 'GN', 'RAC 4', 'RAC 1', 'B1', 4, 'SL', 'NDLS', 'MTJ', 1500, NULL, NULL, NULL, 'NR', 'DLI', 'NDLS'),
      (${A}0005, '1000000002', ${A}, 2, 'Geeta Lal', 30, 'F', '9811100000', '3A', 'GN', 'GNWL 12', 'CAN', 'B1', 5, 'SU', 'NDLS', 'MTJ', 1500, NULL, NULL, NULL, 'NR', 'DLI', 'NDLS'),
      (${B}0001, '2000000001', ${B}, 1, 'Vijay Shah', 50, 'M', '9820000000', '3A', 'GN', 'CNF', 'CNF', 'B1', 1, 'LB', 'MMCT', 'NDLS', 3000, 'O', '${TODAY} 17:30+05:30', 'TTE2001', 'WR', 'BCT', 'MMCT'),
      (${B}0002, '2000000001', ${B}, 2, 'Neha Shah', 47, 'F', '9820000000', '3A', 'GN', 'CNF', 'CNF', 'B1', 2, 'MB', 'MMCT', 'NDLS', 3000, 'NT', '${TODAY} 17:31+05:30', 'TTE2001', 'WR', 'BCT', 'MMCT');
    INSERT INTO checking_events VALUES
      (1, ${A}, ${A}1, ${A}0001, 'TTE1001', 'HHT001', 'O', 'B1', 1, NULL, NULL, 'NDLS', '${TODAY} 17:05+05:30', '${TODAY} 17:06+05:30', 'NR', 'DLI', 'NDLS'),
      (2, ${A}, ${A}1, ${A}0002, 'TTE1001', 'HHT001', 'NT', 'B1', 2, NULL, NULL, 'NDLS', '${TODAY} 17:06+05:30', '${TODAY} 17:07+05:30', 'NR', 'DLI', 'NDLS'),
      (3, ${A}, ${A}1, ${A}0003, 'TTE1001', 'HHT001', 'O', 'B1', 3, NULL, NULL, 'NDLS', '${TODAY} 17:07+05:30', NULL, 'NR', 'DLI', 'NDLS'),
      (4, ${A}, ${A}1, ${A}0004, 'TTE1001', 'HHT001', 'ALLOTTED', 'B1', 4, NULL, NULL, 'NDLS', '${TODAY} 17:20+05:30', '${TODAY} 17:21+05:30', 'NR', 'DLI', 'NDLS'),
      (5, ${A}, ${A}1, ${A}0003, 'TTE1001', 'HHT001', 'SHIFTED', 'B1', 3, 'A1', 7, 'NDLS', '${TODAY} 17:30+05:30', '${TODAY} 17:31+05:30', 'NR', 'DLI', 'NDLS'),
      (6, ${A}, ${A}2, ${A}0004, 'TTE1002', NULL, 'GOT_DOWN', 'B1', 4, NULL, NULL, 'MTJ', '${TODAY} 18:25+05:30', '${TODAY} 18:26+05:30', 'NR', 'DLI', 'NDLS'),
      (7, ${B}, ${B}1, ${B}0001, 'TTE2001', 'HHT002', 'O', 'B1', 1, NULL, NULL, 'MMCT', '${TODAY} 17:30+05:30', '${TODAY} 17:31+05:30', 'WR', 'BCT', 'MMCT'),
      (8, ${B}, ${B}1, ${B}0001, 'TTE2001', 'HHT002', 'SHIFTED', 'B1', 1, 'B1', 9, 'MMCT', '${TODAY} 17:40+05:30', '${TODAY} 17:41+05:30', 'WR', 'BCT', 'MMCT');
    INSERT INTO vacant_berths VALUES
      (${A}, 'B1', 2, 'MB', '3A', 'NDLS', 'MMCT', 'NT', true, '${TODAY} 17:10+05:30', 'TTE1001', true, 'NR', 'DLI', 'NDLS'),
      (${A}, 'B1', 5, 'SU', '3A', 'NDLS', 'MTJ', 'CANCELLED', false, NULL, NULL, false, 'NR', 'DLI', 'NDLS'),
      (${A}, 'A1', 9, 'LB', '2A', 'NDLS', 'MMCT', 'UNSOLD', false, NULL, NULL, false, 'NR', 'DLI', 'NDLS'),
      (${B}, 'B1', 7, 'UB', '3A', 'MMCT', 'NDLS', 'CANCELLED', true, '${TODAY} 17:50+05:30', 'TTE2001', false, 'WR', 'BCT', 'MMCT');
    INSERT INTO reallocations VALUES
      (1, ${A}, ${A}0004, '1000000002', 'RAC 1', 'B1', 4, 'NDLS', 'MTJ', '${TODAY} 17:20+05:30', 'TTE1001', NULL, 'NR', 'DLI', 'NDLS'),
      (2, ${B}, ${B}0001, '2000000001', 'RAC 2', 'B1', 9, 'MMCT', 'NDLS', '${TODAY} 17:40+05:30', 'TTE2001', NULL, 'WR', 'BCT', 'MMCT');
    INSERT INTO efts VALUES
      ('EFT0001', ${A}, ${A}1, 'TRIP1', 'TTE1001', 'HHT001', '1000000001', 'Ramesh Kumar', 'A1', 'NDLS', 'MMCT', 'UPGRADE', 1000, 250, 1250, 'CASH', '${TODAY} 17:35+05:30', '${TODAY} 17:36+05:30', 'NR', 'DLI', 'NDLS'),
      ('EFT0002', ${A}, ${A}1, 'TRIP1', 'TTE1001', 'HHT001', NULL, 'Unknown Traveller', 'B1', 'NDLS', 'MTJ', 'TICKETLESS', 110, 250, 360, 'UPI', '${TODAY} 17:45+05:30', '${TODAY} 17:46+05:30', 'NR', 'DLI', 'NDLS'),
      ('EFT0003', ${B}, ${B}1, 'TRIP3', 'TTE2001', 'HHT002', '2000000001', 'Vijay Shah', 'A1', 'MMCT', 'NDLS', 'UPGRADE', 1200, 250, 1450, 'CARD', '${TODAY} 18:00+05:30', NULL, 'WR', 'BCT', 'MMCT');
    INSERT INTO digital_payments VALUES
      ('TXN1', 'EFT0002', 360, 'UPI', 'SUCCESS', '${TODAY} 17:45+05:30', 'TTE1001', 'POS1', 'SO1', 'NR', 'DLI', 'NDLS'),
      ('TXN2', 'EFT0003', 1450, 'CARD', 'SUCCESS', '${TODAY} 18:00+05:30', 'TTE2001', 'POS2', 'SO3', 'WR', 'BCT', 'MMCT');
    INSERT INTO tdrs VALUES
      ('TDR1', '1000000001', ${A}, 'NOT_TRAVELLED', 'B1', '3A', '${TODAY} 20:00+05:30', NULL, 'Marked NT at NDLS', 'ATTESTED', NULL, 'NR', 'DLI'),
      ('TDR2', '2000000001', ${B}, 'AC_FAILURE', 'B1', '3A', '${TODAY} 21:00+05:30', 'GC123', NULL, 'FILED', NULL, 'WR', 'BCT');
    INSERT INTO coach_deficiencies VALUES
      (1, ${A}, 'B1', 'WATER', 'No water in toilet', 'MTJ', '${TODAY} 18:00+05:30', 'TTE1001', 'CLOSED', '${TODAY} 19:00+05:30', 'NR', 'DLI', 'NDLS'),
      (2, ${B}, 'A1', 'AC', 'AC not cooling', 'MMCT', '${TODAY} 17:30+05:30', 'TTE2001', 'OPEN', NULL, 'WR', 'BCT', 'MMCT');
    INSERT INTO complaints VALUES
      ('RM1', ${A}, 'Cleanliness', 'Toilet', 'B1', 10, '${TODAY} 18:00+05:30', '${TODAY} 19:00+05:30', 2, 'RESOLVED', 'NR', 'DLI'),
      ('RM2', ${A}, 'Electrical', 'Fan', 'A1', 5, '${TODAY} 18:00+05:30', '${TODAY} 23:00+05:30', 2, 'CLOSED', 'NR', 'DLI'),
      ('RM3', ${A}, 'Catering', 'Quality', NULL, NULL, '${TODAY} 20:00+05:30', NULL, 1000000, 'OPEN', 'NR', 'DLI'),
      ('RM4', ${B}, 'Security', 'Theft', 'B1', 1, '${TODAY} 19:00+05:30', NULL, 4, 'OPEN', 'WR', 'BCT');
    INSERT INTO dynamic_fares VALUES (${A}, '3A', 2500, 3200, 3, 45.25, 'NR', 'DLI'), (${A}, '2A', 3500, 3500, 0, 9.5, 'NR', 'DLI'),
      (${B}, '3A', 2500, 3750, 5, 92, 'WR', 'BCT');
    INSERT INTO onboard_staff VALUES
      (1, ${A}, 'TTE', 'TTE1001', 'Suresh Yadav', '9811112222', '{B1,A1}', 'NR', 'DLI'),
      (2, ${A}, 'COACH_ATTENDANT', 'CA01', 'Raju Singh', '9811115555', '{B1}', 'NR', 'DLI'),
      (3, ${B}, 'RPF', 'RPF77', 'Kiran More', '9822226666', '{B1,A1}', 'WR', 'BCT');
    INSERT INTO dropped_etickets VALUES
      ('1000000009', 1, ${A}, 'Deepak Verma', 'GNWL 80', '3A', 'NDLS', 'MMCT', '${TODAY} 08:55+05:30', true, 'EFT0002', 'NR', 'DLI'),
      ('2000000009', 1, ${B}, 'Manoj Jain', 'GNWL 60', '3A', 'MMCT', 'NDLS', '${TODAY} 09:00+05:30', false, NULL, 'WR', 'BCT');
    -- Raw rows written directly: the report rollups (migration 014) are refreshed the way every loader does.
    SELECT hht_fill_rollups(0, 9223372036854775807);
  `);
}
