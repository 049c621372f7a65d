/**
 * A server-paged view with a count SQL (source.count) shows the count that SQL reads instead of counting its rows:
 * it must be the number of rows the view gives, for every user scope and filter. Checked here for every such view
 * of reports/, against the rows counted, on the seeded data; and a count SQL that answers no row count is an error.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloneSeededTestDb } from '../support/seeded';
import { TEST_DRIVERS, type TestDb } from '../support/db';
import { sampleFilter } from '../support/sample-filters';
import { checkDefinitions, type CheckedView } from '../../src/shared/definitions/validate';
import { readDefinitionFiles } from '../../src/server/reports/definition-files';
import { parseFilter } from '../../src/server/reports/filter';
import { runView } from '../../src/server/reports/executor';
import type { UserScope } from '../../src/server/reports/scope';
import { addDays } from '../../src/server/demo/runs';

const checked = checkDefinitions(readDefinitionFiles(process.cwd()));
/** Views whose count is checked elsewhere: the seeded data holds no audit entries (tests/api/audit-trail.test.ts). */
const ELSEWHERE = new Set(['audit-trail']);
const counted = checked.reports.flatMap((report) =>
  report.views.filter((v) => v.countSql !== undefined && !ELSEWHERE.has(v.endpoint)).map((view) => ({ report, view })),
);

describe.each(TEST_DRIVERS)('count SQL of server-paged views on %s', (driver) => {
  let t: TestDb & { today: string };
  beforeAll(async () => {
    t = await cloneSeededTestDb(driver);
  }, 300_000);
  afterAll(async () => {
    await t?.drop();
  });
  const opts = { timeoutMs: 60_000, rowsPerPage: 2 }; // the tiny seed has a handful of rows a day

  it('there are such views (sync delay, active users, TTE manning, TTE-wise EFT, EFT passenger details, allotments, unmanned coaches and their history)', () => {
    expect(counted.map((c) => c.view.endpoint).sort()).toEqual([
      'Active_Users', 'TteManningReport', 'UnmannedReport', 'allotmentReport', 'eft-psgn-report', 'syncDelaySummary', 'tteEftSummary',
      'unmanned-report-history',
    ]);
  });

  it.each(counted.map((c) => [c.view.endpoint, c] as const))('%s: the count equals the rows, for every scope and filter', async (_name, { report, view }) => {
    const day = (await t.db.query<{ d: string }>('SELECT max(event_date)::text AS d FROM rollup_sync WHERE event_date <= $1::date', [t.today])).rows[0]?.d;
    expect(day).toBeDefined();
    const place = (await t.db.query<{ zone_code: string; div_code: string; lobby_code: string }>(
      'SELECT zone_code, div_code, lobby_code FROM rollup_sync WHERE event_date = $1::date ORDER BY events DESC LIMIT 1', [day],
    )).rows[0];
    expect(place).toBeDefined();
    if (!place) return;
    const base = { ...(await sampleFilter(t.db, report, t.today)), srcDate: day };
    const props = Object.keys((report.filterSchema.properties ?? {}) as object);
    // The sample's train where the report takes one, and the report India-wide too (a train may have a row or two).
    const wide: Record<string, unknown> = { ...base };
    if (!((report.filterSchema.required as string[] | undefined) ?? []).includes('trainNo')) delete wide.trainNo;
    // A run date's views also for tomorrow's runs (planned, nobody on board yet: every coach unmanned) and an earlier day.
    const dates = props.includes('startDate') ? [addDays(t.today, 1), addDays(t.today, -2)].map((d) => ({ ...wide, startDate: d })) : [];
    const filters = [base, wide, ...dates, ...(['zone', 'division', 'lobby'] as const).filter((f) => props.includes(f)).map((f) => ({
      ...wide, [f]: f === 'zone' ? place.zone_code : f === 'division' ? place.div_code : place.lobby_code,
    }))];
    const scopes: UserScope[] = [
      { kind: 'all' }, { kind: 'zone', code: place.zone_code }, { kind: 'division', code: place.div_code }, { kind: 'lobby', code: place.lobby_code },
      { kind: 'lobby', code: 'NOSUCH' },
    ];
    const rowsCounted: CheckedView = { ...view };
    delete rowsCounted.countSql;
    let nonZero = 0;
    let scopedNonZero = 0;
    for (const filter of filters) {
      const values = parseFilter(report, filter, t.today);
      for (const scope of scopes) {
        if (scope.kind !== 'all' && !view.scope[scope.kind]) continue; // no rule for the level: denied (deny by default)
        const stored = await runView(t.db, view, values, scope, opts);
        const rows = await runView(t.db, rowsCounted, values, scope, opts);
        expect(stored.total, `${JSON.stringify(filter)} as ${JSON.stringify(scope)}`).toBe(rows.total);
        expect(stored.rows).toEqual(rows.rows);
        if (rows.total > opts.rowsPerPage) nonZero += 1;
        if (scope.kind !== 'all' && rows.total > 0) scopedNonZero += 1;
      }
    }
    // The comparison was made on answers of more than one page, and on scoped answers that were not empty.
    expect(nonZero).toBeGreaterThan(0);
    expect(scopedNonZero).toBeGreaterThan(2);
  });

  it('a count SQL that answers no whole number fails the call instead of showing a wrong count', async () => {
    const view: CheckedView = {
      endpoint: 'countProbe', method: 'POST', columns: [{ field: 'n', headerName: 'N', type: 'number' }],
      sql: 'SELECT n FROM generate_series(1, 10) n WHERE {{scope}}', countSql: 'SELECT NULL::int AS total WHERE {{scope}}',
      scope: {}, params: {}, paging: { mode: 'server', pageSize: 5 },
    };
    await expect(runView(t.db, view, {}, { kind: 'all' }, opts)).rejects.toThrow(/count SQL answered null/);
    const right = { ...view, countSql: 'SELECT 10::int AS total WHERE {{scope}}' };
    expect((await runView(t.db, right, {}, { kind: 'all' }, opts)).total).toBe(10);
  });
});
