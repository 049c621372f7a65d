/**
 * Report definitions of Train Information, CONSOLIDATED REPORTS, UTILITIES and EXCEPTION REPORT (catalogue B):
 * every view (main call and tabs) runs through the engine (parseFilter + runView) on a migrated database, empty
 * and with a small hand-built fixture, as SU (all rows), as a DLI division user and as a lobby user.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkDefinitions, type CheckedReport, type CheckedView } from '../../src/shared/definitions/validate';
import { readDefinitionFiles } from '../../src/server/reports/definition-files';
import { parseFilter } from '../../src/server/reports/filter';
import { runView } from '../../src/server/reports/executor';
import type { UserScope } from '../../src/server/reports/scope';
import { HttpError } from '../../src/server/plugins/errors';
import { createTestDb, TEST_DRIVERS, type TestDb } from '../support/db';

const TODAY = '2026-11-20'; // a Friday
const DAY = (Date.UTC(2026, 10, 20) - Date.UTC(2000, 0, 1)) / 86_400_000;
const R1 = DAY * 100000 + 12952; // DLI-owned run
const R2 = DAY * 100000 + 12951; // BCT-owned run

/** Sample filters per report id (shared by its tabs): the fixture's train, date and ids. */
const FILTERS: Record<string, Record<string, unknown>> = {
  trainDetails: { trainNo: ' 12952 ' },
  traininfo: {},
  Train_Manned_with_HHT: { startDate: TODAY },
  unmanned_coaches: { startDate: TODAY },
  mannedcoachsummary: { start_date: '2026-11-14', end_date: TODAY },
  'orgtodest-report': { origin: 'ndls', destination: 'BCT', start_date: '2026-11-14', end_date: TODAY },
  'onboard-staff-summary': { start_date: '2026-11-14', end_date: TODAY },
  tdrsummary: { start_date: '2026-11-14', end_date: TODAY },
  ttemanning: { srcDate: TODAY },
  coachdefsummary: { start_date: '2026-11-14', end_date: TODAY },
  Train_Working_Report_BeatWise: { trainNo: '12952', startDate: TODAY },
  tripidsearch: { id: '  TRIP1 ' },
  eftsearch: { eftNo: 'EFT1', srcDate: TODAY },
  unmannedcoachhistory: { start_date: '2026-11-14', end_date: TODAY },
  sync_delay_new: { srcDate: TODAY },
  bertallotmentanomaly: { startDate: TODAY },
  nullTWR: { startDate: TODAY },
};
const IDS = Object.keys(FILTERS);
/** Reports whose rows carry no lobby: lobby users are denied (deny by default). */
const NO_LOBBY = new Set([
  'trainDetails', 'traininfo', 'Train_Manned_with_HHT', 'unmanned_coaches', 'mannedcoachsummary', 'orgtodest-report',
  'onboard-staff-summary', 'tdrsummary', 'unmannedcoachhistory',
]);

const FIXTURE = `
INSERT INTO zones VALUES ('NR', 'Northern Railway'), ('WR', 'Western Railway');
INSERT INTO divisions VALUES ('DLI', 'NR', 'Delhi'), ('BCT', 'WR', 'Mumbai Central');
INSERT INTO stations VALUES ('NDLS', 'New Delhi', 'NR', 'DLI'), ('MTJ', 'Mathura Jn', 'NR', 'DLI'),
  ('KOTA', 'Kota Jn', 'WR', 'BCT'), ('BCT', 'Mumbai Central', 'WR', 'BCT');
INSERT INTO lobbies VALUES ('NDLS', 'New Delhi lobby', 'NDLS', 'NR', 'DLI'), ('BCTL', 'Mumbai Central lobby', 'BCT', 'WR', 'BCT');
INSERT INTO trains VALUES
  ('12952', 'New Delhi Mumbai Rajdhani', 'RAJDHANI', 'NDLS', 'BCT', 'NR', 'DLI', 'YYYYYYY', true),
  ('12951', 'Mumbai Rajdhani', 'RAJDHANI', 'BCT', 'NDLS', 'WR', 'BCT', 'YNYNYNN', true);
INSERT INTO train_stops VALUES
  ('12952', 1, 'NDLS', NULL, '16:55', 1, 0, 0), ('12952', 2, 'MTJ', '18:50', '18:52', 1, 141, 2),
  ('12952', 3, 'KOTA', '22:10', '22:20', 1, 465, 10), ('12952', 4, 'BCT', '08:35', NULL, 2, 1384, 0),
  ('12951', 1, 'BCT', NULL, '17:00', 1, 0, 0), ('12951', 2, 'KOTA', '03:15', '03:25', 2, 919, 10),
  ('12951', 3, 'NDLS', '08:32', NULL, 2, 1384, 0);
INSERT INTO train_consist VALUES ('12952', 1, 'B1', '3A', 72), ('12952', 2, 'B2', '3A', 72), ('12952', 3, 'A1', '2A', 48),
  ('12951', 1, 'B1', '3A', 72), ('12951', 2, 'A1', '2A', 48);
INSERT INTO train_runs (run_id, train_no, start_date, zone_code, div_code) VALUES
  (${R1}, '12952', '${TODAY}', 'NR', 'DLI'), (${R2}, '12951', '${TODAY}', 'WR', 'BCT');
INSERT INTO run_coaches SELECT tr.run_id, c.coach_id, c.seq, c.class, c.capacity
  FROM train_runs tr JOIN train_consist c ON c.train_no = tr.train_no;
INSERT INTO ttes VALUES ('T1', 'Ramesh Kumar', 'TTE', '9812345612', 'NDLS', 'NR', 'DLI'),
  ('T2', 'Suresh Singh', 'Sr. TTE', '9812345613', 'NDLS', 'NR', 'DLI'),
  ('T3', 'Anil Patil', 'TTE', '9812345614', 'BCTL', 'WR', 'BCT');
INSERT INTO devices (device_id, serial_no, imei, make, model, app_version, status, zone_code, div_code, lobby_code,
  assigned_tte_id, registered_on) VALUES
  ('D1', 'S1', 'I1', 'M', 'X', '2.1', 'IN_SERVICE', 'NR', 'DLI', 'NDLS', 'T1', '2026-01-01'),
  ('D3', 'S3', 'I3', 'M', 'X', '2.1', 'IN_SERVICE', 'WR', 'BCT', 'BCTL', 'T3', '2026-01-01');
INSERT INTO beats VALUES
  (${R1}1, ${R1}, 1, 'T1', 'D1', 'NR', 'DLI', 'NDLS', 'NDLS', 'KOTA', '{B1,B2}', 'SO1', 'TRIP1',
   '${TODAY} 16:00+05:30', '${TODAY} 22:30+05:30', 'SUBMITTED', '${TODAY} 23:00+05:30'),
  (${R1}2, ${R1}, 2, 'T2', NULL, 'NR', 'DLI', 'NDLS', 'KOTA', 'BCT', '{A1}', 'SO2', 'TRIP2',
   '${TODAY} 22:00+05:30', NULL, 'NOT_SUBMITTED', NULL),
  (${R2}1, ${R2}, 1, 'T3', 'D3', 'WR', 'BCT', 'BCTL', 'BCT', 'NDLS', '{B1}', 'SO3', 'TRIP3',
   '${TODAY} 16:30+05:30', NULL, 'EMPTY', NULL);
INSERT INTO pnrs VALUES
  ('1000000001', ${R1}, '3A', 'GN', 'NDLS', 'BCT', '2026-11-01', 'E_TICKET', 3000, 'NR', 'DLI'),
  ('1000000002', ${R1}, '3A', 'GN', 'NDLS', 'KOTA', '2026-11-01', 'E_TICKET', 1500, 'NR', 'DLI'),
  ('1000000003', ${R1}, '3A', 'GN', 'NDLS', 'BCT', '2026-11-01', 'COUNTER', 3000, 'NR', 'DLI'),
  ('1000000004', ${R1}, '3A', 'GN', 'NDLS', 'BCT', '2026-11-01', 'E_TICKET', 3000, 'NR', 'DLI'),
  ('1000000005', ${R1}, '3A', 'GN', 'MTJ', 'KOTA', '2026-11-01', 'E_TICKET', 900, 'NR', 'DLI'),
  ('1000000006', ${R2}, '3A', 'GN', 'BCT', 'NDLS', '2026-11-01', 'E_TICKET', 3000, 'WR', 'BCT');
INSERT INTO passengers (psgn_id, pnr, run_id, psgn_no, name, age, gender, mobile_no, class, quota, booking_status,
  current_status, coach_id, berth_no, berth_type, from_station, to_station, fare, mark, marked_at, marked_by,
  zone_code, div_code, lobby_code) VALUES
  (${R1}0001, '1000000001', ${R1}, 1, 'Amit Verma', 40, 'M', '9900000001', '3A', 'GN', 'CNF', 'CNF', 'B1', 1, 'LB',
   'NDLS', 'BCT', 3000, 'O', '${TODAY} 17:10+05:30', 'T1', 'NR', 'DLI', 'NDLS'),
  (${R1}0002, '1000000002', ${R1}, 1, 'Bina Rao', 30, 'F', '9900000002', '3A', 'GN', 'CNF', 'CNF', 'B1', 2, 'MB',
   'NDLS', 'KOTA', 1500, 'NT', '${TODAY} 17:30+05:30', 'T1', 'NR', 'DLI', 'NDLS'),
  (${R1}0003, '1000000003', ${R1}, 1, 'Chetan Das', 50, 'M', '9900000003', '3A', 'GN', 'RAC 5', 'RAC 5', 'B2', 7, 'SL',
   'NDLS', 'BCT', 3000, 'O', '${TODAY} 17:15+05:30', 'T1', 'NR', 'DLI', 'NDLS'),
  (${R1}0004, '1000000004', ${R1}, 1, 'Deepa Iyer', 35, 'F', '9900000004', '3A', 'GN', 'GNWL 10', 'CNF/B1/2', 'B1', 2, 'MB',
   'NDLS', 'BCT', 3000, 'O', '${TODAY} 17:45+05:30', 'T1', 'NR', 'DLI', 'NDLS'),
  (${R1}0005, '1000000005', ${R1}, 1, 'Eshan Roy', 28, 'M', '9900000005', '3A', 'GN', 'GNWL 12', 'CNF/B1/1', 'B1', 1, 'LB',
   'MTJ', 'KOTA', 900, 'O', '${TODAY} 19:00+05:30', 'T1', 'NR', 'DLI', 'NDLS'),
  (${R2}0001, '1000000006', ${R2}, 1, 'Farah Khan', 45, 'F', '9900000006', '3A', 'GN', 'CNF', 'CNF', 'B1', 1, 'LB',
   'BCT', 'NDLS', 3000, 'O', '${TODAY} 17:20+05:30', 'T3', 'WR', 'BCT', 'BCTL');
INSERT INTO checking_events VALUES
  (1, ${R1}, ${R1}1, ${R1}0001, 'T1', 'D1', 'O', 'B1', 1, NULL, NULL, 'NDLS', '${TODAY} 17:10+05:30', '${TODAY} 17:12+05:30', 'NR', 'DLI', 'NDLS'),
  (2, ${R1}, ${R1}1, ${R1}0002, 'T1', 'D1', 'NT', 'B1', 2, NULL, NULL, 'NDLS', '${TODAY} 17:30+05:30', '${TODAY} 18:30+05:30', 'NR', 'DLI', 'NDLS'),
  (3, ${R1}, ${R1}1, ${R1}0003, 'T1', 'D1', 'O', 'B2', 7, NULL, NULL, 'NDLS', '${TODAY} 17:15+05:30', NULL, 'NR', 'DLI', 'NDLS'),
  (4, ${R1}, ${R1}1, ${R1}0004, 'T1', 'D1', 'ALLOTTED', 'B1', 2, NULL, NULL, 'NDLS', '${TODAY} 17:45+05:30', NULL, 'NR', 'DLI', 'NDLS'),
  (5, ${R2}, ${R2}1, ${R2}0001, 'T3', 'D3', 'O', 'B1', 1, NULL, NULL, 'BCT', '${TODAY} 17:20+05:30', '${TODAY} 17:21+05:30', 'WR', 'BCT', 'BCTL');
INSERT INTO reallocations VALUES
  (1, ${R1}, ${R1}0004, '1000000004', 'GNWL 10', 'B1', 2, 'NDLS', 'BCT', '${TODAY} 17:45+05:30', 'T1', NULL, 'NR', 'DLI', 'NDLS'),
  (2, ${R1}, ${R1}0005, '1000000005', 'GNWL 12', 'B1', 1, 'MTJ', 'KOTA', '${TODAY} 19:00+05:30', 'T1', NULL, 'NR', 'DLI', 'NDLS');
INSERT INTO efts VALUES
  ('EFT1', ${R1}, ${R1}1, 'TRIP1', 'T1', 'D1', '1000000004', 'Deepa Iyer', 'B1', 'NDLS', 'BCT', 'UPGRADE', 400, 250, 650,
   'UPI', '${TODAY} 17:50+05:30', '${TODAY} 17:55+05:30', 'NR', 'DLI', 'NDLS'),
  ('EFT3', ${R2}, ${R2}1, 'TRIP3', 'T3', 'D3', NULL, 'Gopal Shah', 'B1', 'BCT', 'NDLS', 'TICKETLESS', 2500, 250, 2750,
   'CASH', '${TODAY} 18:00+05:30', NULL, 'WR', 'BCT', 'BCTL');
INSERT INTO digital_payments VALUES
  ('TX1', 'EFT1', 650, 'UPI', 'SUCCESS', '${TODAY} 17:51+05:30', 'T1', 'POS1', 'SO1', 'NR', 'DLI', 'NDLS');
INSERT INTO tdrs VALUES
  ('TDR1', '1000000002', ${R1}, 'NOT_TRAVELLED', 'B1', '3A', '${TODAY} 23:00+05:30', NULL, NULL, 'REFUNDED', 1200, 'NR', 'DLI'),
  ('TDR2', '1000000006', ${R2}, 'AC_FAILURE', 'B1', '3A', '${TODAY} 23:00+05:30', NULL, NULL, 'FILED', NULL, 'WR', 'BCT');
INSERT INTO coach_deficiencies VALUES
  (1, ${R1}, 'B1', 'WATER', 'No water', 'MTJ', '${TODAY} 19:00+05:30', 'T1', 'CLOSED', '${TODAY} 22:00+05:30', 'NR', 'DLI', 'NDLS'),
  (2, ${R2}, 'B1', 'AC', 'AC not cooling', 'KOTA', '${TODAY} 23:00+05:30', 'T3', 'OPEN', NULL, 'WR', 'BCT', 'BCTL');
INSERT INTO onboard_staff VALUES
  (1, ${R1}, 'TTE', 'T1', 'Ramesh Kumar', '9812345612', '{B1,B2}', 'NR', 'DLI'),
  (2, ${R1}, 'COACH_ATTENDANT', 'CA1', 'Mohan Lal', '9812345699', '{A1}', 'NR', 'DLI'),
  (3, ${R2}, 'TTE', 'T3', 'Anil Patil', '9812345614', '{B1}', 'WR', 'BCT');
-- Raw rows written directly: the report rollups (migration 014) are refreshed the way every loader does.
SELECT hht_fill_rollups(0, 9223372036854775807);
`;

const files = readDefinitionFiles(process.cwd());
const checked = checkDefinitions(files);
const byId = new Map(checked.reports.map((r) => [r.definition.id, r]));

function report(id: string): CheckedReport {
  const r = byId.get(id);
  if (!r) throw new Error(`report ${id} did not validate`);
  return r;
}
function view(id: string, endpoint: string): CheckedView {
  const v = report(id).views.find((x) => x.endpoint === endpoint);
  if (!v) throw new Error(`no view ${endpoint} in ${id}`);
  return v;
}

describe('catalogue B definitions', () => {
  it('validate with no error and use the spec call names', () => {
    expect(checked.errors).toEqual([]);
    for (const id of IDS) expect(byId.has(id), id).toBe(true);
    const endpoints = IDS.flatMap((id) => report(id).views.map((v) => v.endpoint));
    expect(endpoints).toEqual(expect.arrayContaining([
      'trainSchedule', 'trainInfo', 'trainMannedWithHht', 'UnmannedReport', 'unmannedMannedAll', 'UnManned_Manned_test',
      'coachManningSummary', 'orgToDestDateRange', 'onboardSummary', 'tdrSummary', 'TteManningReport', 'Active_Users',
      'CoachDeficiencySummary', 'TWRBeatwise', 'tripId', 'eft-search', 'unmanned-report-history', 'syncDelaySummary',
      'SyncDelayDateWise', 'AllocationException', 'allotmentReport', 'getZeroBooking', 'nullTwrReport',
    ]));
    expect(view('traininfo', 'trainInfo').method).toBe('GET');
    expect(view('tripidsearch', 'tripId').rowsPath).toBe('eftList');
  });

  it('trims the trip id and enforces the 31-day range of unmanned-report-history', () => {
    expect(parseFilter(report('tripidsearch'), { id: '  TRIP1 ' }, TODAY)).toEqual({ id: 'TRIP1' });
    expect(() => parseFilter(report('unmannedcoachhistory'), { start_date: '2026-10-01', end_date: TODAY }, TODAY)).toThrow(HttpError);
    expect(() => parseFilter(report('tripidsearch'), {}, TODAY)).toThrow(/Trip ID is required/);
    expect(parseFilter(report('mannedcoachsummary'), {}, TODAY)).toEqual({ start_date: '2026-11-13', end_date: TODAY });
  });
});

describe.each(TEST_DRIVERS)('catalogue B reports on %s', (driver) => {
  let empty: TestDb;
  let t: TestDb;
  beforeAll(async () => {
    empty = await createTestDb(driver);
    t = await createTestDb(driver);
    await t.db.exec(FIXTURE);
  }, 60_000);
  afterAll(async () => {
    await empty?.drop();
    await t?.drop();
  });

  const run = async (db: TestDb, id: string, endpoint: string, scope: UserScope, filter = FILTERS[id]) => {
    const values = parseFilter(report(id), filter, TODAY);
    return (await runView(db.db, view(id, endpoint), values, scope, { timeoutMs: 15_000 })).rows as Record<string, unknown>[];
  };
  const views = IDS.flatMap((id) => report(id).views.map((v) => [id, v.endpoint] as const));

  it.each(views)('%s / %s runs on the empty schema for SU and DLI, returns its columns on data', async (id, endpoint) => {
    expect(await run(empty, id, endpoint, { kind: 'all' })).toEqual([]);
    expect(await run(empty, id, endpoint, { kind: 'division', code: 'DLI' })).toEqual([]);
    const rows = await run(t, id, endpoint, { kind: 'all' });
    expect(rows.length, `${endpoint} returns fixture rows`).toBeGreaterThan(0);
    const fields = view(id, endpoint).columns.map((c) => c.field).sort();
    expect(Object.keys(rows[0] as object).sort()).toEqual(fields);
  });

  it.each(views)('%s / %s gives a DLI user only DLI rows and a BCT user only BCT rows', async (id, endpoint) => {
    const all = await run(t, id, endpoint, { kind: 'all' });
    const dli = await run(t, id, endpoint, { kind: 'division', code: 'DLI' });
    const bct = await run(t, id, endpoint, { kind: 'division', code: 'BCT' });
    expect(dli.length, 'the fixture has DLI rows for every view').toBeGreaterThan(0);
    expect(dli.length + bct.length).toBeLessThanOrEqual(all.length);
    for (const [rows, code] of [[dli, 'DLI'], [bct, 'BCT']] as const) {
      for (const r of rows) {
        if ('division' in r) expect(r.division).toBe(code);
        if ('train_no' in r) expect(r.train_no).toBe(code === 'DLI' ? '12952' : '12951');
        if ('lobby' in r && r.lobby !== null) expect(r.lobby).toBe(code === 'DLI' ? 'NDLS' : 'BCTL');
      }
    }
  });

  it.each(views)('%s / %s refuses lobby users where rows have no lobby, else scopes by lobby', async (id, endpoint) => {
    if (NO_LOBBY.has(id)) {
      await expect(run(t, id, endpoint, { kind: 'lobby', code: 'NDLS' })).rejects.toMatchObject({ statusCode: 403 });
    } else {
      const rows = await run(t, id, endpoint, { kind: 'lobby', code: 'BCTL' });
      for (const r of rows) {
        if ('train_no' in r) expect(r.train_no).toBe('12951');
        if ('lobby' in r) expect(r.lobby).toBe('BCTL');
      }
    }
  });

  it('counts manned coaches from beats with an HHT and drills to the unmanned one', async () => {
    const rows = await run(t, 'Train_Manned_with_HHT', 'trainMannedWithHht', { kind: 'all' });
    expect(rows.find((r) => r.train_no === '12952')).toMatchObject({
      reserved_coaches: 3, manned_coaches: 2, unmanned_coaches: 1, hhts_used: 1, ttes: 1, manned_pct: 66.7,
    });
    const unmanned = await run(t, 'unmanned_coaches', 'UnmannedReport', { kind: 'all' }, { trainNo: '12952', startDate: TODAY });
    expect(unmanned.map((r) => r.coach)).toEqual(['A1']);
    const all = await run(t, 'unmanned_coaches', 'unmannedMannedAll', { kind: 'all' }, { trainNo: '12952', startDate: TODAY });
    expect(all.map((r) => [r.coach, r.status, r.hht_ids])).toEqual([['B1', 'MANNED', 'D1'], ['B2', 'MANNED', 'D1'], ['A1', 'UNMANNED', null]]);
    const summary = await run(t, 'mannedcoachsummary', 'coachManningSummary', { kind: 'division', code: 'DLI' });
    expect(summary).toEqual([expect.objectContaining({ division: 'DLI', run_date: TODAY, coaches: 3, manned: 2, unmanned: 1 })]);
    const history = await run(t, 'unmannedcoachhistory', 'unmanned-report-history', { kind: 'all' });
    expect(history.map((r) => [r.train_no, r.coach, r.days_unmanned])).toEqual(expect.arrayContaining([['12952', 'A1', 1], ['12951', 'A1', 1]]));
  });

  it('decodes days of run and lists the schedule in order', async () => {
    const trains = await run(t, 'traininfo', 'trainInfo', { kind: 'all' });
    expect(trains.map((r) => [r.train_no, r.days_of_run, r.coaches])).toEqual([['12951', 'Mon, Wed, Fri', 2], ['12952', 'Daily', 3]]);
    const stops = await run(t, 'trainDetails', 'trainSchedule', { kind: 'all' });
    expect(stops.map((r) => r.station_code)).toEqual(['NDLS', 'MTJ', 'KOTA', 'BCT']);
    expect(stops[0]).toMatchObject({ arrival: 'Source', departure: '16:55' });
    expect(await run(t, 'trainDetails', 'trainSchedule', { kind: 'division', code: 'BCT' })).toEqual([]);
  });

  it('finds trains from origin to destination in that order only', async () => {
    const rows = await run(t, 'orgtodest-report', 'orgToDestDateRange', { kind: 'all' });
    expect(rows).toEqual([expect.objectContaining({ train_no: '12952', passengers: 5, od_passengers: 3, capacity: 192 })]);
    expect(rows[0]?.arrival_date).toBe('2026-11-21');
  });

  it('finds the three kinds of allotment anomaly', async () => {
    const rows = await run(t, 'bertallotmentanomaly', 'AllocationException', { kind: 'all' });
    const kinds = rows.map((r) => `${r.pnr}:${r.anomaly}:${r.other_pnr}`).sort();
    expect(kinds).toEqual([
      '1000000004:ALLOTTED_WITHIN_NT_GRACE:1000000002',
      '1000000004:OUT_OF_PRIORITY:1000000003',
      '1000000005:DOUBLE_ALLOTMENT:1000000001',
      '1000000005:OUT_OF_PRIORITY:1000000003',
    ]);
    expect(rows[0]?.passenger).toMatch(/^[A-Z]\*+ [A-Z]\*+$/);
  });

  it('still finds a RAC passenger waiting when they were given a berth later (their status reads CNF/coach/berth now)', async () => {
    await t.db.query(
      `INSERT INTO reallocations VALUES (3, ${R1}, ${R1}0003, '1000000003', 'RAC 5', 'B2', 8, 'NDLS', 'BCT', '${TODAY} 20:00+05:30', 'T1', NULL, 'NR', 'DLI', 'NDLS')`,
    );
    await t.db.query(`UPDATE passengers SET current_status = 'CNF/B2/8', berth_no = 8 WHERE psgn_id = ${R1}0003`);
    try {
      const rows = await run(t, 'bertallotmentanomaly', 'AllocationException', { kind: 'all' });
      const waiting = rows.filter((r) => r.anomaly === 'OUT_OF_PRIORITY');
      expect(waiting.map((r) => `${String(r.pnr)}:${String(r.other_pnr)}`).sort()).toEqual(['1000000004:1000000003', '1000000005:1000000003']);
      for (const r of waiting) expect(r.detail).toBe('RAC passenger PNR 1000000003 (RAC 5) was still waiting');
      // Moved since to a berth no allotment names: found as a RAC passenger given a berth, not as a berth's holder.
      await t.db.query(`UPDATE passengers SET berth_no = 9 WHERE psgn_id = ${R1}0003`);
      const moved = await run(t, 'bertallotmentanomaly', 'AllocationException', { kind: 'all' });
      expect(moved.filter((r) => r.anomaly === 'OUT_OF_PRIORITY')).toEqual(waiting);
    } finally {
      await t.db.query('DELETE FROM reallocations WHERE realloc_id = 3');
      await t.db.query(`UPDATE passengers SET current_status = 'RAC 5', berth_no = 7 WHERE psgn_id = ${R1}0003`);
    }
  });

  it('rewritten SQL (allotment anomalies, allotments, zero booking) gives the rows of the SQL it replaced on this fixture', async () => {
    const reference = (endpoint: string): string => readFileSync(new URL(`./reference-sql/${endpoint}.sql`, import.meta.url), 'utf8');
    const same = async (id: string, endpoint: string): Promise<void> => {
      const v = view(id, endpoint);
      const values = parseFilter(report(id), FILTERS[id], TODAY);
      for (const scope of [{ kind: 'all' }, { kind: 'division', code: 'DLI' }] as UserScope[]) {
        const opts = { timeoutMs: 15_000, rowsPerPage: 1000 };
        const now = await runView(t.db, v, values, scope, opts);
        const before = await runView(t.db, { ...v, sql: reference(endpoint) }, values, scope, opts);
        expect(now.rows, `${endpoint} as ${JSON.stringify(scope)}`).toEqual(before.rows);
      }
    };
    for (const [id, endpoint] of [['bertallotmentanomaly', 'AllocationException'], ['bertallotmentanomaly', 'allotmentReport'], ['nullTWR', 'getZeroBooking']] as const) {
      await same(id, endpoint);
    }
    // The RAC passenger given a berth before the waitlisted ones were: no longer waiting for either (one allotment
    // earlier than both, so only the rule "allotted by then" decides).
    await t.db.query(
      `INSERT INTO reallocations VALUES (3, ${R1}, ${R1}0003, '1000000003', 'RAC 5', 'B2', 8, 'NDLS', 'BCT', '${TODAY} 17:00+05:30', 'T1', NULL, 'NR', 'DLI', 'NDLS')`,
    );
    try {
      const rows = await run(t, 'bertallotmentanomaly', 'AllocationException', { kind: 'all' });
      expect(rows.filter((r) => r.anomaly === 'OUT_OF_PRIORITY')).toEqual([]);
      await same('bertallotmentanomaly', 'AllocationException');
    } finally {
      await t.db.query('DELETE FROM reallocations WHERE realloc_id = 3');
    }
  });

  it('reports beat-wise TWR, zero-booking and null TWR beats', async () => {
    const twr = await run(t, 'Train_Working_Report_BeatWise', 'TWRBeatwise', { kind: 'all' });
    // Checked: 0001 O, 0002 NT, 0003 O, and 0004 given a berth on board with no O/NT event (the allotment marks O).
    expect(twr[0]).toMatchObject({ beat_no: 1, checked: 4, nt: 1, allotted: 1, eft_count: 1, eft_amount: 650, coaches: 'B1, B2' });
    const zero = await run(t, 'nullTWR', 'getZeroBooking', { kind: 'all' });
    expect(zero.map((r) => `${r.train_no}/${r.beat_no}/${r.twr_status}`).sort()).toEqual(['12951/1/EMPTY', '12952/2/NOT_SUBMITTED']);
    const nullTwr = await run(t, 'nullTWR', 'nullTwrReport', { kind: 'all' });
    expect(nullTwr).toHaveLength(2);
  });

  it('finds EFTs by trip id and an EFT by number with its digital payment', async () => {
    const list = await run(t, 'tripidsearch', 'tripId', { kind: 'all' });
    expect(list).toEqual([expect.objectContaining({ eft_no: 'EFT1', total: 650, passenger: 'D**** I***', eft_date: TODAY })]);
    expect(await run(t, 'tripidsearch', 'tripId', { kind: 'division', code: 'BCT' })).toEqual([]);
    const eft = await run(t, 'eftsearch', 'eft-search', { kind: 'all' });
    expect(eft).toEqual([expect.objectContaining({ eft_no: 'EFT1', payment_status: 'SUCCESS', txn_id: 'TX1', sync_delay_min: 5 })]);
    expect(await run(t, 'eftsearch', 'eft-search', { kind: 'all' }, { eftNo: 'EFT1', srcDate: '2026-11-19' })).toEqual([]);
  });

  it('summarises sync delay, TTE manning and active users', async () => {
    const sync = await run(t, 'sync_delay_new', 'syncDelaySummary', { kind: 'all' });
    expect(sync[0]).toMatchObject({ train_no: '12952', events: 4, pending_records: 2, max_delay_min: 60 });
    const datewise = await run(t, 'sync_delay_new', 'SyncDelayDateWise', { kind: 'division', code: 'DLI' });
    expect(datewise).toEqual([expect.objectContaining({ event_date: TODAY, events: 4, delayed_over_30: 1 })]);
    const manning = await run(t, 'ttemanning', 'TteManningReport', { kind: 'division', code: 'DLI' });
    expect(manning.map((r) => [r.tte_id, r.coaches_manned, r.hht_ids, r.mobile])).toEqual([
      ['T1', 2, 'D1', '98XXXXXX12'], ['T2', 0, null, '98XXXXXX13'],
    ]);
    const active = await run(t, 'ttemanning', 'Active_Users', { kind: 'lobby', code: 'NDLS' });
    expect(active).toEqual([expect.objectContaining({ tte_id: 'T1', events: 4, pending: 2 })]);
  });

  it('sums TDRs, coach deficiencies and on-board staff', async () => {
    const tdr = await run(t, 'tdrsummary', 'tdrSummary', { kind: 'all' });
    expect(tdr.find((r) => r.division === 'DLI')).toMatchObject({ reason: 'NOT_TRAVELLED', refunded: 1, refund_amount: 1200 });
    const def = await run(t, 'coachdefsummary', 'CoachDeficiencySummary', { kind: 'all' });
    expect(def.find((r) => r.division === 'DLI')).toMatchObject({ category: 'WATER', closed: 1, avg_hours_to_close: 3 });
    const staff = await run(t, 'onboard-staff-summary', 'onboardSummary', { kind: 'division', code: 'DLI' });
    expect(staff.map((r) => r.staff_type)).toEqual(['COACH_ATTENDANT', 'TTE']);
  });
});
