/**
 * A live day: a server whose clock the test hooks move from early morning to just before midnight (IST).
 * At each time every report and tab shows nothing after the clock, today's figures grow, and the reports agree:
 * TWR checked = passengers with a mark, TTE_TS = TWR, an allotted passenger's current status is the berth held,
 * a run not charted yet shows booked statuses, Digital Payments' counts are what their links list, and a
 * deficiency closed later is OPEN until then.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DRIVERS, createTestDb, type TestDb } from '../support/db';
import { SEED_TODAY } from '../support/seeded';
import { buildTestApp, testConfig } from '../support/app';
import { loginAs } from '../support/login';
import { sampleFilter } from '../support/sample-filters';
import { ensureSeeded } from '../../src/server/demo';
import { addDays } from '../../src/server/demo/runs';
import { manualClock } from '../../src/server/clock';
import { insertDemoUsers } from '../../src/server/auth/demo-users';
import { startBackgroundJobs, type BackgroundJobs } from '../../src/server/process/background-jobs';
import { checkDefinitions, type CheckedReport, type CheckedView } from '../../src/shared/definitions/validate';
import { readDefinitionFiles } from '../../src/server/reports/definition-files';
import { parseFilter } from '../../src/server/reports/filter';
import { runView } from '../../src/server/reports/executor';

const SLOW = 900_000;
const ist = (hhmm: string): Date => new Date(`${SEED_TODAY}T${hhmm}:00+05:30`);
/** Early morning, midday, just before midnight (IST). */
const STEPS = ['05:30', '12:30', '23:50'] as const;

type Row = Record<string, unknown>;
const checked = checkDefinitions(readDefinitionFiles(process.cwd()));
const reportOf = (id: string): CheckedReport => {
  const r = checked.reports.find((x) => x.definition.id === id);
  if (!r) throw new Error(`${id} definition missing`);
  return r;
};
const viewOf = (report: CheckedReport, tabId?: string): CheckedView => {
  const v = report.views.find((x) => x.tabId === tabId);
  if (!v) throw new Error(`${report.definition.id} view ${tabId ?? 'main'} missing`);
  return v;
};

describe.each(TEST_DRIVERS)('a live day on %s', (driver) => {
  let t: TestDb;
  let app: FastifyInstance;
  let jobs: BackgroundJobs;
  /** Per step: today's TWR checked total, and each deficiency's status by its report row. */
  const checkedToday: number[] = [];
  const deficiencies: Map<string, string>[] = [];
  const unchartedRuns: string[] = [];

  const run = async (id: string, tabId: string | undefined, values: Row): Promise<Row[]> => {
    const report = reportOf(id);
    const filter = parseFilter(report, values, SEED_TODAY);
    return (await runView(t.db, viewOf(report, tabId), filter, { kind: 'all' }, { timeoutMs: 60_000, rowsPerPage: 1000 })).rows as Row[];
  };

  beforeAll(async () => {
    t = await createTestDb(driver);
    await ensureSeeded(t.db, { scale: 'tiny', today: SEED_TODAY, liveAt: ist(STEPS[0]), log: () => undefined });
    await insertDemoUsers(t.db);
    const config = { seed: 'demo' as const, feed: true };
    app = await buildTestApp(t.db, { clock: manualClock(ist(STEPS[0])), config });
    // What the server process does: the live feed among the background jobs, on the app's (movable) clock.
    jobs = startBackgroundJobs(t.db, testConfig(config), () => undefined, app.log, app.clock);
  }, SLOW);
  afterAll(async () => {
    await jobs?.stop();
    await app?.close();
    await t?.drop();
  });

  it.each(STEPS)('at %s IST', async (hhmm) => {
    const now = ist(hhmm);
    const ahead = now.getTime() - app.clock.now().getTime();
    if (ahead > 0) {
      const moved = await app.inject({ method: 'POST', url: '/api/test-hooks/clock', payload: { advanceMs: ahead } });
      expect(moved.statusCode, moved.body).toBe(200);
    }
    expect(app.clock.now().toISOString()).toBe(now.toISOString());
    const su = await loginAs(app, 'HHTSU'); // the access token of the hours before has expired


    // Every report and tab, over HTTP, today and yesterday: no time after the clock.
    const late: string[] = [];
    let calls = 0;
    for (const day of [SEED_TODAY, addDays(SEED_TODAY, -1)]) {
      for (const report of checked.reports) {
        const body = await sampleFilter(t.db, report, day);
        try {
          parseFilter(report, body, SEED_TODAY);
        } catch {
          continue; // nothing to sample yet for a required field (an EFT number early in the morning)
        }
        for (const view of report.views) {
          calls += 1;
          const query = new URLSearchParams({ rowsPerPage: '1000' });
          if (view.method === 'GET') for (const [k, v] of Object.entries(body)) if (v !== undefined && v !== null) query.set(k, String(v));
          const res = await app.inject({
            method: view.method, url: `/api/${view.endpoint}?${query.toString()}`, headers: su.headers(),
            ...(view.method === 'POST' ? { payload: body } : {}),
          });
          expect(res.statusCode, `${view.endpoint}: ${res.body.slice(0, 300)}`).toBe(200);
          const rows = res.json<{ rows: Row[] }>().rows;
          for (const col of view.columns.filter((c) => c.type === 'datetime')) {
            for (const row of rows) {
              const v = row[col.field];
              if (v !== null && v !== undefined && Date.parse(String(v)) > now.getTime()) late.push(`${view.endpoint}.${col.field} ${String(v)}`);
            }
          }
        }
      }
    }
    expect(late.slice(0, 10)).toEqual([]);
    expect(calls).toBeGreaterThan(checked.reports.length);

    // Per run of today and yesterday: the TWR's checked is the run's passengers with a mark; TTE_TS says the same.
    const runs = (await t.db.query<{ train_no: string; d: string; charted: boolean }>(
      `SELECT train_no, start_date::text AS d, chart1_at IS NOT NULL AS charted
         FROM train_runs WHERE start_date BETWEEN $1::date - 1 AND $1::date ORDER BY 1, 2`,
      [SEED_TODAY],
    )).rows;
    expect(runs.length).toBeGreaterThan(0);
    let todayChecked = 0;
    for (const r of runs) {
      const where = { trainNo: r.train_no, startDate: r.d };
      const twr = await run('Train_Working_Report_BeatWise', undefined, where);
      const twrChecked = twr.reduce((s, b) => s + Number(b.checked), 0);
      const o = await run('All_Passenger_Report', 'turned-up', where);
      const nt = await run('All_Passenger_Report', 'not-turned-up', where);
      expect(twrChecked, `${r.train_no} ${r.d}: TWR checked vs passengers marked O/NT`).toBe(o.length + nt.length);
      const tte = await run('TTE_TS', undefined, { start_date: r.d, end_date: r.d, trainNo: r.train_no });
      expect(tte.map((b) => [b.beat_no, b.checked, b.nt, b.allotted]).sort()).toEqual(twr.map((b) => [b.beat_no, b.checked, b.nt, b.allotted]).sort());
      if (r.d === SEED_TODAY) todayChecked += twrChecked;

      // A passenger given a berth on board shows it as their current status, on the berth the report lists.
      const all = await run('All_Passenger_Report', undefined, where);
      if (!r.charted) {
        // Before its chart time a run is in its booking phase: the booked status, a berth only if confirmed.
        unchartedRuns.push(`${r.train_no} ${r.d} ${hhmm}`);
        expect(all.length).toBeGreaterThan(0);
        for (const p of all) {
          expect(p.current_status, `${String(p.pnr)}/${String(p.psgn_no)}`).toBe(p.booking_status);
          if (p.booking_status !== 'CNF') expect(p.berth_no).toBeNull();
        }
      }
      const allotted = (await t.db.query<{ pnr: string; psgn_no: number }>(
        `SELECT p.pnr, p.psgn_no FROM reallocations ra JOIN passengers p USING (psgn_id) JOIN train_runs tr ON tr.run_id = ra.run_id
          WHERE tr.train_no = $1 AND tr.start_date = $2::date`,
        [r.train_no, r.d],
      )).rows;
      for (const a of allotted) {
        const row = all.find((p) => p.pnr === a.pnr && Number(p.psgn_no) === Number(a.psgn_no));
        expect(row?.current_status, `${a.pnr}/${a.psgn_no}`).toBe(`CNF/${String(row?.coach)}/${String(row?.berth_no)}`);
      }
    }
    checkedToday.push(todayChecked);

    // Digital Payments: a sign-on's transaction count and amount are what its link lists (today and yesterday).
    for (const srcDate of [SEED_TODAY, addDays(SEED_TODAY, -1)]) {
      for (const row of await run('digitalpayment', 'sign-on-off', { srcDate })) {
        const listed = await run('digitalpayment', undefined, { srcDate: String(row.src_date), signOnId: String(row.sign_on_id) });
        expect(Number(row.txn_count), `${String(row.sign_on_id)} on ${srcDate}`).toBe(listed.length);
        const success = listed.filter((p) => p.status === 'SUCCESS').reduce((sum, p) => sum + Number(p.amount), 0);
        expect(Number(row.digital_amount)).toBeCloseTo(success, 2);
      }
    }

    const defs = await run('coach-deficiency', undefined, { start_date: addDays(SEED_TODAY, -7), end_date: SEED_TODAY });
    deficiencies.push(new Map(defs.map((d) => [`${String(d.train_no)}|${String(d.coach)}|${String(d.reported_at)}`, String(d.status)])));
  }, SLOW);

  it("today's figures grow through the day, and a deficiency closed later is OPEN until its closing syncs", () => {
    expect(checkedToday).toHaveLength(STEPS.length);
    for (let i = 1; i < checkedToday.length; i++) expect(checkedToday[i]).toBeGreaterThanOrEqual(checkedToday[i - 1] ?? 0);
    expect(checkedToday.at(-1)).toBeGreaterThan(checkedToday[0] ?? 0);
    // Some run of today was not charted yet in the morning (so its passengers' status was checked above).
    expect(unchartedRuns.length).toBeGreaterThan(0);
    const [first, , last] = deficiencies;
    const closedLater = [...(first ?? new Map<string, string>())].filter(([k, s]) => s === 'OPEN' && last?.get(k) === 'CLOSED');
    expect(closedLater.length).toBeGreaterThan(0);
  });
});
