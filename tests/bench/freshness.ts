/**
 * `npm run bench -- --freshness [--rounds N]`: what the freshness of an answer costs. A light report (Vacant Berths of
 * one train run, with its beats) and a dashboard figure (a day's passenger count) are run with and without their
 * freshness (read with the rows' own statement, as the report call does), interleaved in one run on the tiny data
 * set (PGlite), and the medians compared as a ratio.
 */
import { cloneSeededTestDb } from '../support/seeded';
import { reportOf } from '../support/report-rows';
import type { CheckedReport } from '../../src/shared/definitions/validate';
import { parseFilter } from '../../src/server/reports/filter';
import { aggregateView, runViewJson, type SideRead } from '../../src/server/reports/executor';
import { freshnessSide } from '../../src/server/reports/freshness';
import { loadavg } from 'node:os';

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const rounds = Number(arg('--rounds') ?? 200);
const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? 0;
};

const t = await cloneSeededTestDb('pglite');
const scope = { kind: 'division', code: 'DLI' } as const;
const now = new Date(`${t.today}T12:00:00+05:30`);

const cases = [
  {
    name: 'Vacant Berths, one train run (rows + beats)',
    report: reportOf('vacant_berths'),
    filter: { trainNo: '12002', startDate: t.today },
    run: (r: CheckedReport, v: Record<string, unknown>, also?: SideRead) => runViewJson(t.db, r.views[0]!, v, scope, { timeoutMs: 30_000, side: also }),
  },
  {
    name: 'Passenger count card, one day (aggregate)',
    report: reportOf('dash_psgn_count'),
    filter: { srcDate: t.today },
    run: (r: CheckedReport, v: Record<string, unknown>, also?: SideRead) => aggregateView(t.db, r.views[0]!, v, scope, {}, 30_000, also),
  },
];

console.log(`freshness cost: ${rounds} rounds each, interleaved; load average before ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
for (const c of cases) {
  const values = parseFilter(c.report, c.filter, t.today);
  const without: number[] = [];
  const withF: number[] = [];
  for (let i = 0; i < 10; i += 1) await c.run(c.report, values); // warm-up
  for (let i = 0; i < rounds; i += 1) {
    const a = performance.now();
    await c.run(c.report, values);
    without.push(performance.now() - a);
    const b = performance.now();
    // As the report call does: the freshness read with the rows' own statement.
    await c.run(c.report, values, freshnessSide(c.report, values, scope, now).side);
    withF.push(performance.now() - b);
  }
  const m0 = median(without);
  const m1 = median(withF);
  console.log(`${c.name}: p50 without ${m0.toFixed(2)} ms, with freshness ${m1.toFixed(2)} ms, ratio ${(m1 / m0).toFixed(2)}`);
}
console.log(`load average after ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
await t.drop();
