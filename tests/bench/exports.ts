/**
 * `npm run bench -- --exports [--database-url URL | --data-dir DIR]` (a seeded medium data set, 200,000+ passengers):
 * another user's light report (vacant_berths, through the executor on the same event loop and database) while a
 * 100,000-row xlsx export runs, old writer (all rows in memory, xlsx on the main thread) against new (cursor in
 * batches, xlsx in a worker), and this process's RSS during a 200,000-row CSV export against idle.
 */
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { openDb } from '../../src/server/db';
import { istDate } from '../../src/server/clock';
import { checkDefinitions } from '../../src/shared/definitions/validate';
import { readDefinitionFiles } from '../../src/server/reports/definition-files';
import { parseFilter } from '../../src/server/reports/filter';
import { runView } from '../../src/server/reports/executor';
import { EXPORT_FORMATS, inBatches } from '../../src/server/reports/export';
import { openReportRows } from '../../src/server/reports/export/report-rows';
import { PASSENGER_EXPORT_COLUMNS } from './passenger-columns';
import { sampleFilter } from '../support/sample-filters';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}
const databaseUrl = arg('database-url');
const dataDir = arg('data-dir') ?? null;
if (!databaseUrl && !dataDir) throw new Error('--exports needs --database-url or --data-dir of a seeded medium data set');
const db = await openDb({ databaseUrl, dataDir });
const pct = (xs: number[], p: number): number => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))] ?? NaN;

const today = (await db.query<{ d: string }>('SELECT max(start_date)::text AS d FROM train_runs WHERE start_date <= current_date')).rows[0]?.d ?? istDate(new Date());
const report = checkDefinitions(readDefinitionFiles(process.cwd())).reports.find((r) => r.definition.id === 'vacant_berths')!;
const view = report.views[0]!;
const filter = parseFilter(report, await sampleFilter(db, report, today), today);
const light = async (): Promise<number> => {
  const t0 = performance.now();
  await runView(db, view, filter, { kind: 'all' }, { timeoutMs: 60_000 });
  if (process.env.BENCH_TRACE) process.stderr.write(`${(performance.now() - t0).toFixed(0)} `);
  return performance.now() - t0;
};

const columns = PASSENGER_EXPORT_COLUMNS;
const exportSql = (n: number): string =>
  `SELECT pnr, mask_name(name) AS name, age, coach_id, berth_no, booking_status, fare, marked_at FROM passengers ORDER BY psgn_id LIMIT ${n}`;
const sink = (): Writable => new Writable({ write(_c, _e, cb) { cb(); } });
const meta = { title: 'Bench', filters: [], user: 'bench', generatedAt: new Date() };

async function newExport(format: 'csv' | 'xlsx', n: number): Promise<void> {
  const opened = await openReportRows(db, { sql: exportSql(n), params: [], order: '', cap: n, formatLabel: format, suggestCsv: false, batchSize: 1000, timeoutMs: 600_000 });
  await pipeline(EXPORT_FORMATS[format].write({ columns, rows: opened.rows, meta }), sink());
}
async function oldExport(n: number): Promise<void> {
  // As before this change: every row loaded, then xlsx written on the main thread.
  const rows = (await db.query(exportSql(n))).rows;
  const { xlsxStream } = await import('../../src/server/reports/export/xlsx');
  await pipeline(xlsxStream({ columns, rows: inBatches(rows), meta }), sink());
}

/** Light-report latencies, one call after another, while `work` runs (or for `idleMs` when work is null). */
async function latencies(work: Promise<void> | null, idleMs = 3000): Promise<{ ms: number[]; workMs: number }> {
  const ms: number[] = [];
  const t0 = performance.now();
  let done = false;
  const w = (work ?? new Promise<void>((r) => setTimeout(r, idleMs))).then(() => (done = true));
  while (!done) {
    ms.push(await light());
    // A real request arrives through the event loop; without this, PGlite (in-process, answered in microtasks)
    // would starve the timers and the loop would never see the export (or the idle timer) finish.
    await new Promise((r) => setImmediate(r));
  }
  await w;
  return { ms, workMs: performance.now() - t0 };
}

console.log(`# Export bench (${db.driver}, light report vacant_berths, today ${today})\n`);
console.log('| while | calls | p50 ms | p99 ms | max ms | export s |\n|---|---:|---:|---:|---:|---:|');
const line = (label: string, r: { ms: number[]; workMs: number }): void =>
  console.log(`| ${label} | ${r.ms.length} | ${pct(r.ms, 0.5).toFixed(1)} | ${pct(r.ms, 0.99).toFixed(1)} | ${Math.max(...r.ms).toFixed(1)} | ${(r.workMs / 1000).toFixed(1)} |`);
await light(); // warm up
const withOld = !process.argv.includes('--no-old');
for (let round = 1; round <= 2; round += 1) {
  line(`idle (round ${round})`, await latencies(null));
  line(`new: 100,000-row xlsx (round ${round})`, await latencies(newExport('xlsx', 100_000)));
  if (withOld) line(`old: 100,000-row xlsx (round ${round})`, await latencies(oldExport(100_000)));
}

// Memory: RSS sampled every 50 ms during a 200,000-row CSV export, against idle.
const sampleRss = async (work: Promise<void>): Promise<number> => {
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
  await work;
  clearInterval(timer);
  return peak;
};
global.gc?.();
const idleRss = process.memoryUsage().rss;
const peakNew = await sampleRss(newExport('csv', 200_000));
console.log(`\nRSS idle ${(idleRss / 2 ** 20).toFixed(0)} MB; peak during a 200,000-row CSV export (new) ${(peakNew / 2 ** 20).toFixed(0)} MB (+${((peakNew - idleRss) / 2 ** 20).toFixed(0)} MB)`);
await db.close();
process.exit(0);
