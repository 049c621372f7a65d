/**
 * `npm run bench -- --scale national --days N --database-url URL [--baseline-url URL2] [--rounds R] [--all]`
 *
 * Loads (or reuses) N national days (about 3,000 runs and 2 M passengers each) into URL with COPY, prints the load
 * time and disk per day, then the latency (p50/p95 over R rounds, India-wide scope) of the report classes that have
 * national targets: one-train reports, the dashboard's India-wide calls, the summaries. With --baseline-url the
 * same calls run against the large seed in that database (seeded first when empty), interleaved call by call with
 * the national ones so machine load hits both alike, and the p95 ratio national / large is the flatness figure.
 * --all adds every other report call (5 rounds). A dashboard call is made the way the dashboard makes it: a stat
 * card that counts or sums asks for the one figure (`?aggregate=`, aggregateView), charts read their rows; the
 * rows column then shows the count the card displays. Each call is first made SETTLE_CALLS times unmeasured (the
 * plan a server process keeps for its statement settles in those: prepared-plans.ts); the slowest is shown.
 */
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { openDb, type Db } from '../../src/server/db';
import { migrate } from '../../src/server/db/migrate';
import { ensureSeeded } from '../../src/server/demo';
import { nationalDays, seedNational, type DayFigures } from '../../src/server/demo/national';
import { PARTITIONED_TABLES } from '../../src/server/db/partitions';
import { istDate } from '../../src/server/clock';
import { checkDefinitions, type CheckedReport, type CheckedView } from '../../src/shared/definitions/validate';
import { readDefinitionFiles } from '../../src/server/reports/definition-files';
import { parseFilter } from '../../src/server/reports/filter';
import { aggregateView, parseAggregate, runView } from '../../src/server/reports/executor';
import { cardAggregate, type DashboardConfig } from '../../src/shared/dashboard';
import { sampleFilter } from '../support/sample-filters';
import { CUSTOM_PLAN_RUNS, LATER_RUNS_TO_JUDGE, TRIAL_PAIRS } from '../../src/server/db/prepared-plans';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const databaseUrl = arg('database-url');
if (!databaseUrl) throw new Error('--scale national needs --database-url (PostgreSQL: the load uses COPY)');
const baselineUrl = arg('baseline-url');
const days = Number(arg('days') ?? '7');
const rounds = Number(arg('rounds') ?? '20');
const today = arg('today') ?? istDate(new Date());

/** The report classes with national targets, and their p95 targets (ms). */
const SUMMARIES = new Set([
  'syncDelaySummary', 'SyncDelayDateWise', 'Active_Users', 'TteManningReport', 'eftSummary', 'tteEftSummary', 'tdrSummary',
  'coachManningSummary', 'psgnCount7days',
]);
const TARGET: Record<string, number> = { 'one-train': 25, dashboard: 300, summary: 300, SyncDelayDateWise: 150 };

/** Warm-up calls per call and database: PostgreSQL's custom plans, then a prepared-plan trial's calls at most. */
const SETTLE_CALLS = CUSTOM_PLAN_RUNS + LATER_RUNS_TO_JUDGE + 2 * TRIAL_PAIRS + 1;

const p = (xs: number[], q: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)] ?? NaN;
};
const gib = (b: number): string => (b / 2 ** 30).toFixed(2);

async function openMigrated(url: string): Promise<Db> {
  const db = await openDb({ databaseUrl: url, dataDir: null });
  const t0 = performance.now();
  const applied = await migrate(db);
  const s = (performance.now() - t0) / 1000;
  if (s > 1) console.log(`migrations up to ${applied[applied.length - 1]} applied in ${s.toFixed(1)} s (${url.replace(/\/\/[^@]*@/, '//')})`);
  return db;
}

const national = await openMigrated(databaseUrl);
console.log(`# National-scale benchmark (PostgreSQL, ${days} days ending ${today})`);
const uptime = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
console.log(`load average at start: ${uptime}\n`);

const t0 = performance.now();
const figures: DayFigures[] = await seedNational(national, { databaseUrl, days, today, log: (l) => console.error(l), progress: true });
if (figures.length > 0) {
  console.log('| day | runs | passengers | rows | load s | disk GiB |\n|---|---:|---:|---:|---:|---:|');
  for (const f of figures) {
    console.log(`| ${f.date} | ${f.runs} | ${f.passengers.toLocaleString('en-IN')} | ${f.rows.toLocaleString('en-IN')} | ${f.seconds.toFixed(0)} | ${gib(f.bytes)} |`);
  }
  console.log(`load: ${figures.length} days in ${((performance.now() - t0) / 1000).toFixed(0)} s including ANALYZE\n`);
}
// Disk per day as it stands (each day's partitions of the four large tables, with their indexes), and in total.
const sizes = await national.query<{ d: string; bytes: number }>(
  `SELECT substring(c.relname from '_r([0-9]{8})$') AS d, sum(pg_total_relation_size(c.oid))::bigint AS bytes
     FROM pg_class c WHERE c.relkind = 'r' AND c.relname ~ $1 GROUP BY 1 ORDER BY 1`,
  [`^(${PARTITIONED_TABLES.join('|')})_r[0-9]{8}$`],
);
const counts = (await national.query<{ runs: number; psgn: number; bytes: number }>(
  `SELECT (SELECT count(*) FROM train_runs WHERE start_date = ANY($1::date[]))::int AS runs,
          (SELECT count(*) FROM passengers)::int AS psgn, pg_database_size(current_database()) AS bytes`,
  [nationalDays(today, days)],
)).rows[0];
console.log(`data set: ${counts?.runs} train runs, ${counts?.psgn.toLocaleString('en-IN')} passengers, database ${gib(counts?.bytes ?? 0)} GiB`);
console.log(`large tables per day (partitions + indexes): ${sizes.rows.filter((r) => r.bytes > 1e8).map((r) => `${r.d} ${gib(r.bytes)} GiB`).join(', ')}\n`);

let baseline: Db | undefined;
if (baselineUrl) {
  baseline = await openMigrated(baselineUrl);
  const seeded = await ensureSeeded(baseline, { scale: 'large', today, log: () => undefined });
  const b = (await baseline.query<{ runs: number; psgn: number }>('SELECT (SELECT count(*) FROM train_runs)::int AS runs, (SELECT count(*) FROM passengers)::int AS psgn')).rows[0];
  console.log(`baseline: large seed${seeded ? ' (seeded now)' : ''}, ${b?.runs} runs, ${b?.psgn.toLocaleString('en-IN')} passengers\n`);
}

/**
 * Server CPU time: the sum of utime + stime (from /proc, 10 ms ticks) of every backend connected to a database.
 * Only when PostgreSQL runs on this machine (else NaN). Unlike wall time it does not grow with other jobs'
 * load, so it is the figure to compare with the targets on a shared machine.
 */
const admin = new pg.Client({ connectionString: databaseUrl });
await admin.connect();
async function serverCpuMs(db: string): Promise<number> {
  const { rows } = await admin.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = $1', [db]);
  let ticks = 0;
  for (const r of rows) {
    try {
      const f = readFileSync(`/proc/${r.pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
      ticks += Number(f[11]) + Number(f[12]);
    } catch {
      return NaN;
    }
  }
  return ticks * 10;
}
const dbName = (url: string): string => decodeURIComponent(new URL(url).pathname.slice(1));

const checked = checkDefinitions(readDefinitionFiles(process.cwd()));
const dashboardCards = new Map(
  (JSON.parse(readFileSync('dashboard.json', 'utf8')) as DashboardConfig).cards.map((c) => [c.endpoint, c] as const),
);

function classOf(report: CheckedReport, view: CheckedView): string | undefined {
  if (dashboardCards.has(view.endpoint)) return 'dashboard';
  if (SUMMARIES.has(view.endpoint)) return 'summary';
  const required = (report.filterSchema.required as string[] | undefined) ?? [];
  if (required.includes('trainNo')) return 'one-train';
  return process.argv.includes('--all') ? 'other' : undefined;
}

interface Result {
  cls: string;
  call: string;
  rows: number;
  n: number[];
  b: number[];
  /** Server CPU ms summed over the measured national / baseline calls. */
  nCpu: number;
  bCpu: number;
  /** The slowest national warm-up call (ms). */
  settleMax: number;
}
const results: Result[] = [];
const nationalDay = today;
for (const report of checked.reports) {
  for (const view of report.views) {
    const cls = classOf(report, view);
    if (!cls) continue;
    const filterN = parseFilter(report, await sampleFilter(national, report, nationalDay), nationalDay);
    const filterB = baseline ? parseFilter(report, await sampleFilter(baseline, report, today), today) : undefined;
    const r: Result = { cls, call: `${report.definition.id} / ${view.endpoint}`, rows: 0, n: [], b: [], nCpu: 0, bCpu: 0, settleMax: 0 };
    const count = cls === 'other' ? 5 : rounds;
    // The call as its page makes it: a stat card's figure, or the view's rows (the answer's row count).
    const card = dashboardCards.get(view.endpoint);
    const agg = card ? cardAggregate(card) : undefined;
    const call = async (db: Db, filter: Record<string, unknown>): Promise<number> =>
      agg
        ? (await aggregateView(db, view, filter, { kind: 'all' }, parseAggregate(agg), 120_000)).count
        : (await runView(db, view, filter, { kind: 'all' }, { timeoutMs: 120_000 })).total;
    if (agg) r.call += ` ?aggregate=${agg}`;
    // Warm-up calls (buffers, and the process's plan for the statement settled: prepared-plans.ts may try a
    // statement unprepared for a few calls after PostgreSQL's custom plans), then the measured rounds, alternating
    // the two databases. The slowest warm-up call is shown: what a server process pays once per statement.
    for (let i = 0; i < SETTLE_CALLS; i++) {
      const s = performance.now();
      await call(national, filterN);
      r.settleMax = Math.max(r.settleMax, performance.now() - s);
      if (baseline && filterB) await call(baseline, filterB);
    }
    for (let i = 0; i < count; i++) {
      let c = await serverCpuMs(dbName(databaseUrl));
      let s = performance.now();
      r.rows = await call(national, filterN);
      r.n.push(performance.now() - s);
      r.nCpu += (await serverCpuMs(dbName(databaseUrl))) - c;
      if (baseline && filterB && baselineUrl) {
        c = await serverCpuMs(dbName(baselineUrl));
        s = performance.now();
        await call(baseline, filterB);
        r.b.push(performance.now() - s);
        r.bCpu += (await serverCpuMs(dbName(baselineUrl))) - c;
      }
    }
    results.push(r);
  }
}

console.log(
  `| class | call | rows | p50 ms | p95 ms | server CPU ms/call | target | large p95 ms | large CPU ms/call | p95 ratio | CPU ratio | slowest of ${SETTLE_CALLS} warm-up ms |\n` +
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
);
for (const cls of ['one-train', 'dashboard', 'summary', 'other']) {
  for (const r of results.filter((x) => x.cls === cls)) {
    const target = r.call.endsWith('/ SyncDelayDateWise') ? TARGET.SyncDelayDateWise : TARGET[cls];
    const p95 = p(r.n, 0.95);
    const b95 = r.b.length > 0 ? p(r.b, 0.95) : NaN;
    const flag = target !== undefined && p95 > target ? ' (over)' : '';
    const nCpu = r.nCpu / r.n.length;
    const bCpu = r.b.length > 0 ? r.bCpu / r.b.length : NaN;
    const fmt = (x: number, d = 1): string => (Number.isNaN(x) ? '' : x.toFixed(d));
    console.log(
      `| ${cls} | ${r.call} | ${r.rows} | ${p(r.n, 0.5).toFixed(1)} | ${p95.toFixed(1)}${flag} | ${fmt(nCpu)} | ${target ?? ''} | ` +
        `${fmt(b95)} | ${fmt(bCpu)} | ${fmt(p95 / b95, 2)} | ${fmt(nCpu / bCpu, 2)} | ${fmt(r.settleMax)} |`,
    );
  }
}
for (const cls of ['one-train', 'dashboard', 'summary']) {
  const rs = results.filter((x) => x.cls === cls);
  if (rs.length === 0) continue;
  const worst = rs.reduce((a, x) => (p(x.n, 0.95) > p(a.n, 0.95) ? x : a));
  const ratios = rs.filter((x) => x.b.length > 0).map((x) => p(x.n, 0.95) / p(x.b, 0.95));
  console.log(
    `${cls}: ${rs.length} calls, worst p95 ${p(worst.n, 0.95).toFixed(1)} ms (${worst.call})` +
      (ratios.length > 0 ? `, p95 ratio to large: median ${p(ratios, 0.5).toFixed(2)}, max ${Math.max(...ratios).toFixed(2)}` : ''),
  );
}
console.log(`load average at end: ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`);
await admin.end();
await national.close();
await baseline?.close();
