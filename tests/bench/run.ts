/**
 * `npm run bench [-- --scale small|medium|large] [--data-dir DIR] [--database-url URL] [--section sync]`: seeds (or reuses) a data
 * set and measures seed time, the latency of every report call and export throughput per format.
 * `npm run bench -- --scale national --days N --database-url URL [--baseline-url URL]`: N national days loaded with
 * COPY, load time and disk per day, report latency per class against the large seed (tests/bench/national.ts).
 * `npm run bench -- --section reports [--data-dir DIR] [--database-url URL] [--baseline-ref REF]`: every report's
 * endpoints at default filters, slowest ten, non-zero exit past the budget (tests/bench/reports.ts).
 * `npm run bench -- --section national-compare --database-url URL --baseline-url URL2 --baseline-tree DIR`: national
 * summaries, dashboard and CHECK batches on a national day loaded by this tree vs one loaded by an older checkout.
 * `npm run bench -- --section report-role [--database-url URL]`: only the cost of running report SQL as the report
 * role (an empty migrated database; see report-role.ts).
 * Numbers, not pass/fail: timings belong here, not in unit tests. `--exports`: the export section (exports.ts).
 * `npm run bench -- --load [--database-url URL] [--seconds N]`: only the load section (tests/bench/load.ts).
 * `npm run bench -- --mixed --database-url URL`: sync over HTTP while 50 connections read a report (tests/bench/mixed.ts).
 * `npm run bench -- --section replicas`: read-replica routing cost and failover (tests/bench/replicas.ts).
 * `npm run bench -- --audit-write --database-url URL`: the trail's own CPU per entry in process (tests/bench/audit-write.ts).
 * `npm run bench -- --freshness [--rounds N]`: the cost of an answer's freshness query (tests/bench/freshness.ts).
 * Every run ends with the client bundle sizes (of dist/client: `npm run build` first); `--client` prints only
 * those, `--lighthouse` those and Lighthouse on /login.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { openDb } from '../../src/server/db';
import { migrate } from '../../src/server/db/migrate';
import { ensureSeeded, type SeedScale } from '../../src/server/demo';
import { istDate } from '../../src/server/clock';
import { checkDefinitions } from '../../src/shared/definitions/validate';
import { readDefinitionFiles } from '../../src/server/reports/definition-files';
import { parseFilter } from '../../src/server/reports/filter';
import { runView } from '../../src/server/reports/executor';
import { EXPORT_FORMATS, inBatches, type ExportFormat } from '../../src/server/reports/export';
import { PASSENGER_EXPORT_COLUMNS } from './passenger-columns';
import { sampleFilter } from '../support/sample-filters';
import { benchReportRole } from './report-role';
import { printBundleSizes } from './bundle-size';
import { printLighthouse } from './lighthouse';

if (process.argv.includes('--exports')) {
  await import('./exports'); // its own section: export latency and memory (see exports.ts)
}

if (process.argv.includes('--profile')) {
  await import('./profile'); // CPU profile of the built server under load (tests/bench/profile.ts)
  process.exit(0);
}

if (process.argv.includes('--freshness')) {
  await import('./freshness'); // the cost of an answer's freshness, with and without in one run (tests/bench/freshness.ts)
  process.exit(0);
}

if (process.argv.includes('--audit-cost')) {
  await import('./audit-cost'); // the audit trail's cost under load, trail on and off in one run (tests/bench/audit-cost.ts)
  process.exit(0);
}

if (process.argv.includes('--audit-write')) {
  await import('./audit-write'); // the trail's own CPU per entry, COPY against INSERT (tests/bench/audit-write.ts)
  process.exit(0);
}

if (process.argv.includes('--mixed')) {
  await import('./mixed'); // terminals syncing over HTTP while officers read (tests/bench/mixed.ts)
  process.exit(0);
}

if (process.argv.includes('--load')) {
  await import('./load'); // the server under load on PostgreSQL: a separate section (tests/bench/load.ts)
  process.exit(0);
}

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

// Client sections, no database: `--client` prints the bundle sizes, `--lighthouse` also Lighthouse on /login (slow).
if (process.argv.includes('--client') || process.argv.includes('--lighthouse')) {
  printBundleSizes();
  if (process.argv.includes('--lighthouse')) await printLighthouse();
  process.exit(0);
}

// `--section reports`: every endpoint of the catalogue at its default filters, both drivers (tests/bench/reports.ts).
if (arg('section') === 'reports') {
  process.exit(await (await import('./reports')).benchReports());
}

// `--section national-compare`: the national summaries and CHECK batches, this tree's load vs an older tree's (national-compare.ts).
if (arg('section') === 'national-compare') {
  await (await import('./national-compare')).benchNationalCompare();
  process.exit(0);
}

// `--section sync`: only the device sync numbers (tests/bench/hht-sync.ts), on fresh tiny data sets.
if (arg('section') === 'sync') {
  await (await import('./hht-sync')).benchSync(arg('database-url'));
  process.exit(0);
}

// `--scale national --days N --database-url URL [--baseline-url URL]`: the national data set and its targets (national.ts).
if (arg('scale') === 'national') {
  await import('./national');
  process.exit(0);
}

// `--section replicas [--database-url P --replica-urls R]`: replica routing cost and failover (tests/bench/replicas.ts).
if (arg('section') === 'replicas') {
  await (await import('./replicas')).benchReplicas(arg('database-url'), arg('replica-urls'));
  process.exit(0);
}

const scale = (arg('scale') ?? 'small') as SeedScale;
const databaseUrl = arg('database-url');
const dataDir = arg('data-dir') ?? mkdtempSync(join(tmpdir(), `hht-bench-${scale}-`));
const today = istDate(new Date());
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

const db = await openDb({ databaseUrl, dataDir: databaseUrl ? null : dataDir });
await migrate(db);
if (arg('section') === 'report-role') {
  await benchReportRole(db);
  await db.close();
  process.exit(0);
}
let t0 = performance.now();
const seeded = await ensureSeeded(db, { scale, today, log: () => undefined });
const seedMs = performance.now() - t0;
const counts = (await db.query<{ runs: number; psgn: number }>(
  'SELECT (SELECT count(*) FROM train_runs)::int AS runs, (SELECT count(*) FROM passengers)::int AS psgn',
)).rows[0];
console.log(`# Benchmark (${db.driver}, scale ${scale}, today ${today})`);
console.log(seeded ? `seed: ${(seedMs / 1000).toFixed(1)} s` : `seed: reused data set in ${databaseUrl ?? dataDir}`);
console.log(`data set: ${counts?.runs} train runs, ${counts?.psgn} passengers\n`);

console.log('| call | rows | median ms (5 runs) |\n|---|---:|---:|');
const checked = checkDefinitions(readDefinitionFiles(process.cwd()));
for (const report of checked.reports) {
  const filter = parseFilter(report, await sampleFilter(db, report, today), today);
  for (const view of report.views) {
    const times: number[] = [];
    let rows = 0;
    for (let i = 0; i < 5; i += 1) {
      t0 = performance.now();
      const r = await runView(db, view, filter, { kind: 'all' }, { timeoutMs: 60_000 });
      times.push(performance.now() - t0);
      rows = r.total;
    }
    console.log(`| ${report.definition.id} / ${view.endpoint} | ${rows} | ${median(times).toFixed(1)} |`);
  }
}

// Export throughput: passenger rows through each writer into a sink that discards bytes.
const columns = PASSENGER_EXPORT_COLUMNS;
console.log('\n| export | rows | seconds | rows/s | bytes |\n|---|---:|---:|---:|---:|');
for (const [format, n] of [['csv', 100_000], ['xlsx', 50_000], ['pdf', 5_000]] as [ExportFormat, number][]) {
  const rows = (await db.query(`SELECT pnr, mask_name(name) AS name, age, coach_id, berth_no, booking_status, fare, marked_at FROM passengers LIMIT ${n}`)).rows;
  let bytes = 0;
  t0 = performance.now();
  const sink = new Writable({ write(chunk: Buffer, _enc, cb) { bytes += chunk.length; cb(); } });
  await pipeline(EXPORT_FORMATS[format].write({ columns, rows: inBatches(rows), meta: { title: 'Bench', filters: [], user: 'bench', generatedAt: new Date() } }), sink);
  const s = (performance.now() - t0) / 1000;
  console.log(`| ${format} | ${rows.length} | ${s.toFixed(2)} | ${Math.round(rows.length / s)} | ${bytes} |`);
}
await db.close();

// Authenticated request cost: one statement per token check (tests/bench/auth-round-trip.ts; --skip-auth leaves it out).
if (!process.argv.includes('--skip-auth')) await (await import('./auth-round-trip')).benchAuthRoundTrip(databaseUrl);
printBundleSizes();
