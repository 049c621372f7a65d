/**
 * A live day: a server whose clock the test hooks move from early morning to just before midnight (IST).
 * At each time every report and tab shows nothing after the clock, today's figures grow, and the reports agree:
 * TWR checked = passengers with a mark, TTE_TS = TWR, an allotted passenger's current status is the berth held,
 * a run not charted yet shows booked statuses, Digital Payments' counts are what their links list, and a
 * deficiency closed later is OPEN until then.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DRIVERS } from '../support/db';
import { SEED_TODAY } from '../support/seeded';
import { loginAs } from '../support/login';
import { sampleFilter } from '../support/sample-filters';
import { LIVE_DAY_TIMEOUT_MS, istToday, startLiveDay, type LiveDay } from '../support/live-day';
import { catalogue, reportRows, type Row } from '../support/report-rows';
import { addDays } from '../../src/server/demo/runs';
import { parseFilter } from '../../src/server/reports/filter';

const SLOW = LIVE_DAY_TIMEOUT_MS;
/** Early morning, midday, just before midnight (IST). */
const STEPS = ['05:30', '12:30', '23:50'] as const;
const checked = catalogue;

describe.each(TEST_DRIVERS)('a live day on %s', (driver) => {
  let live: LiveDay;
  /** Per step: today's TWR checked total, and each deficiency's status by its report row. */
  const checkedToday: number[] = [];
  const deficiencies: Map<string, string>[] = [];
  const unchartedRuns: string[] = [];

  const run = (id: string, tabId: string | undefined, values: Row): Promise<Row[]> => reportRows(live.t.db, id, tabId, values, SEED_TODAY, 1000);

  beforeAll(async () => {
    live = await startLiveDay(driver, STEPS[0]);
  }, SLOW);
  afterAll(async () => {
    await live?.stop();
  });

  it.each(STEPS)('at %s IST', async (hhmm) => {
    await live.moveTo(hhmm);
    const now = istToday(hhmm);
    const { app, t } = live;
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
