/**
 * `npm run bench -- --section reports [--data-dir DIR] [--database-url URL] [--budget MS] [--runs N] [--baseline-ref REF]`
 * `npm run bench -- --section reports --scale national --database-url URL [--budget-ms 1000] [--today YYYY-MM-DD] [--top N]`
 *
 * Every endpoint of the catalogue at its default filters (required fields filled from the data, as the API tests
 * do), on PGlite (DIR, or a small data set seeded into a temporary folder) and on PostgreSQL when URL is given (seeded
 * at scale small when empty), for the SU and for a division user (DLI). Each call goes through the executor the API
 * uses (runViewJson: count, page, JSON rows) N times after one warm-up; its "raw SQL" time is the view's SQL alone in a
 * report session. Prints the slowest ten by p95 and exits 1 when any p95 passes the budget (300 ms unless told), or
 * when a report could not be timed (a required field the day's data gives no value for: --today picks another day).
 * `--baseline-ref REF` also runs the definitions of that git commit (reports/, schemas/), interleaved call by call
 * with the working tree's, and prints both: before and after in one run, on the same data (every call whose SQL,
 * paging or count SQL differs). `--only ENDPOINT,...` times those calls only.
 * `--scale national` times PostgreSQL only (PGlite is not meant for national volumes), on a database loaded beforehand
 * with `npm run seed -- --scale national --days N` (it refuses an empty one rather than seed the small set into it),
 * with a budget of 1,000 ms unless told; a call past `--timeout-ms` (30,000) is listed with rows -1; `--top N` prints the slowest N instead of ten; `--out FILE` writes every
 * call's figures as JSON.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDb, type Db } from '../../src/server/db';
import { migrate } from '../../src/server/db/migrate';
import { ensureSeeded } from '../../src/server/demo';
import { istDate } from '../../src/server/clock';
import { checkDefinitions, type CheckedReport, type CheckedView } from '../../src/shared/definitions/validate';
import { readDefinitionFiles } from '../../src/server/reports/definition-files';
import { parseFilter } from '../../src/server/reports/filter';
import { buildQuery, runViewJson } from '../../src/server/reports/executor';
import type { UserScope } from '../../src/server/reports/scope';
import { HttpError } from '../../src/server/plugins/errors';
import { sampleFilter } from '../support/sample-filters';
import { resolveDefaults } from '../../src/shared/definitions/filter-widgets';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const national = arg('scale') === 'national';
const budgetMs = Number(arg('budget-ms') ?? arg('budget') ?? (national ? '1000' : '300'));
const top = Number(arg('top') ?? '10');
const runs = Number(arg('runs') ?? '7');
const baselineRef = arg('baseline-ref');
/** `--only a,b`: the calls of these endpoints only (a rerun of a few calls). */
const only = arg('only')?.split(',').filter((e) => e !== '');
/** A call past this is cut off (503) and shown with rows -1 and this time. */
const timeoutMs = Number(arg('timeout-ms') ?? '30000');

interface Measure {
  driver: string;
  user: string;
  label: string;
  endpoint: string;
  rows: number;
  p50: number;
  p95: number;
  rawMs: number;
  /** The baseline's figures for the same call (with --baseline-ref). */
  before?: { p50: number; p95: number; rawMs: number };
}

const quantile = (xs: number[], q: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)] ?? NaN;
};

/** Definitions of a git commit (reports/, schemas/) in a temporary folder, for the before figures. */
function definitionsAt(ref: string): CheckedReport[] {
  const dir = mkdtempSync(join(tmpdir(), 'hht-bench-defs-'));
  const tar = execFileSync('git', ['archive', ref, 'reports', 'schemas'], { maxBuffer: 256 * 1024 * 1024 });
  execFileSync('tar', ['-x', '-C', dir], { input: tar });
  return checkDefinitions(readDefinitionFiles(dir)).reports;
}

const scopes: [string, UserScope][] = [['SU', { kind: 'all' }], ['DLI division', { kind: 'division', code: 'DLI' }]];

async function timeView(db: Db, view: CheckedView, values: Record<string, unknown>, scope: UserScope): Promise<{ times: number[]; rows: number; raw: number[] }> {
  const times: number[] = [];
  const raw: number[] = [];
  let rows = 0;
  const once = async (): Promise<number> => {
    const t0 = performance.now();
    const r = await runViewJson(db, view, values, scope, { timeoutMs });
    rows = r.total;
    return performance.now() - t0;
  };
  let first: number;
  try {
    first = await once(); // warm-up: plans, caches
  } catch (err) {
    // Past the statement timeout (a 503): recorded as the timeout itself, and not run again.
    if (!(err instanceof HttpError && err.statusCode === 503)) throw err;
    return { times: [timeoutMs], rows: -1, raw: [timeoutMs] };
  }
  const n = first > 2_000 ? Math.min(runs, 3) : runs; // a call of seconds: fewer runs keep the bench short
  const { sql, params } = buildQuery(view, values, scope);
  // A later run past the statement timeout (a loaded machine) is recorded as the timeout too, as in the warm-up.
  const timedOut = (err: unknown): number => {
    if (err instanceof HttpError && err.statusCode === 503) return timeoutMs;
    if (err instanceof Error && /statement timeout|canceling statement/i.test(err.message)) return timeoutMs;
    throw err;
  };
  for (let i = 0; i < n; i += 1) {
    times.push(await once().catch(timedOut));
    const t0 = performance.now();
    raw.push(await db.reportSession(timeoutMs, (q) => q.query(sql, params)).then(() => performance.now() - t0, timedOut));
  }
  return { times, rows, raw };
}

/**
 * The filter a page opens with: its defaults, and required fields filled from the data. sampleFilter also fills an
 * optional train number (what the API tests want); a report at its default filters is India-wide, or the user's scope.
 */
async function defaultFilter(db: Db, report: CheckedReport, today: string): Promise<Record<string, unknown>> {
  const sample = await sampleFilter(db, report, today);
  const required = new Set((report.filterSchema.required as string[] | undefined) ?? []);
  const defaults = resolveDefaults(report.definition.filter.defaults, today);
  return Object.fromEntries(Object.entries(sample).filter(([k]) => required.has(k) || Object.hasOwn(defaults, k)));
}

/** Reports no filter could be made for from the day's data (not timed), as 'driver report'. */
const skipped: string[] = [];

async function benchDriver(db: Db, label: string, today: string, reports: CheckedReport[], baseline: Map<string, CheckedReport>): Promise<Measure[]> {
  const out: Measure[] = [];
  for (const report of reports) {
    if (only && !report.views.some((v) => only.includes(v.endpoint))) continue;
    let values: Record<string, unknown>;
    try {
      values = parseFilter(report, await defaultFilter(db, report, today), today);
    } catch (err) {
      // A required field the day's data has no value for (an EFT number just after midnight IST): said, not timed.
      console.log(`${label}: ${report.definition.id} skipped, no filter from the data of ${today}: ${err instanceof Error ? err.message : String(err)}`);
      skipped.push(`${label} ${report.definition.id}`);
      continue;
    }
    const old = baseline.get(report.definition.id);
    const oldValues = old ? parseFilter(old, await defaultFilter(db, old, today), today) : undefined;
    for (const view of report.views) {
      if (only && !only.includes(view.endpoint)) continue;
      const oldView = old?.views.find((v) => v.endpoint === view.endpoint);
      for (const [user, scope] of scopes) {
        if (scope.kind !== 'all' && !view.scope[scope.kind]) continue; // no rule for the level: denied, nothing to time
        let before: Measure['before'];
        // A view differs from the baseline's by its SQL, its paging or its count SQL.
        const differs = oldView && (oldView.sql !== view.sql || oldView.paging?.mode !== view.paging?.mode || oldView.countSql !== view.countSql);
        if (oldView && oldValues && differs) {
          const b = await timeView(db, oldView, oldValues, scope);
          before = { p50: quantile(b.times, 0.5), p95: quantile(b.times, 0.95), rawMs: quantile(b.raw, 0.5) };
        }
        const a = await timeView(db, view, values, scope);
        out.push({
          driver: db.driver, user, label: `${report.definition.id} / ${view.endpoint}`, endpoint: view.endpoint, rows: a.rows,
          p50: quantile(a.times, 0.5), p95: quantile(a.times, 0.95), rawMs: quantile(a.raw, 0.5), ...(before ? { before } : {}),
        });
      }
    }
    process.stderr.write(`${label}: ${report.definition.id}\n`);
  }
  return out;
}

async function openSeeded(opts: { databaseUrl?: string; dataDir?: string }, today: string): Promise<Db> {
  const db = await openDb({ databaseUrl: opts.databaseUrl, dataDir: opts.databaseUrl ? null : (opts.dataDir ?? null) });
  await migrate(db);
  if (national) {
    const runs = (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM train_runs WHERE start_date = $1::date', [today])).rows[0]?.n ?? 0;
    if (runs === 0) {
      await db.close();
      throw new Error(`no runs on ${today} in ${opts.databaseUrl ?? ''}: load it first (npm run seed -- --scale national --days N --today ${today})`);
    }
    const d = (await db.query<{ days: number; psgn: number }>(
      'SELECT count(DISTINCT start_date)::int AS days, (SELECT count(*) FROM passengers)::int AS psgn FROM train_runs',
    )).rows[0];
    console.log(`${db.driver}: ${d?.days} run dates, ${d?.psgn.toLocaleString('en-IN')} passengers, ${runs} runs on ${today}`);
    return db;
  }
  const t0 = performance.now();
  if (await ensureSeeded(db, { scale: 'small', today, log: () => undefined })) {
    console.log(`${db.driver}: seeded scale small in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  }
  return db;
}

const fmt = (ms: number): string => (ms >= 100 ? ms.toFixed(0) : ms.toFixed(1));

export async function benchReports(): Promise<number> {
  const today = arg('today') ?? istDate(new Date());
  const reports = checkDefinitions(readDefinitionFiles(process.cwd())).reports;
  const baseline = new Map((baselineRef ? definitionsAt(baselineRef) : []).map((r) => [r.definition.id, r]));
  const load = (): string => loadavg().map((x) => x.toFixed(2)).join(' ');
  console.log(`# Reports at default filters${national ? ', national scale, PostgreSQL only' : ''} (budget p95 ${budgetMs} ms, ${runs} runs after a warm-up${baselineRef ? `, before = ${baselineRef}` : ''})`);
  console.log(`load average at start: ${load()}`);
  const url = arg('database-url');
  if (national && !url) throw new Error('--scale national needs --database-url (PostgreSQL loaded with npm run seed -- --scale national)');
  const targets: { databaseUrl?: string; dataDir?: string; label: string }[] = national
    ? [] // PGlite is not meant for national volumes: PostgreSQL only
    : [{ dataDir: arg('data-dir') ?? mkdtempSync(join(tmpdir(), 'hht-bench-reports-')), label: 'pglite' }];
  if (url) targets.push({ databaseUrl: url, label: 'pg' });
  const all: Measure[] = [];
  for (const t of targets) {
    const db = await openSeeded(t, today);
    try {
      all.push(...(await benchDriver(db, t.label, today, reports, baseline)));
    } finally {
      await db.close();
    }
  }
  console.log(`load average at end: ${load()}\n`);
  const out = arg('out');
  if (out) writeFileSync(out, JSON.stringify({ today, budgetMs, load: load(), calls: all }, null, 1));
  const slowest = [...all].sort((a, b) => b.p95 - a.p95).slice(0, top);
  const head = baselineRef ? '| driver | user | call | rows | p50 ms | p95 ms | raw SQL ms | before p95 ms | before raw ms |' : '| driver | user | call | rows | p50 ms | p95 ms | raw SQL ms |';
  console.log(`Slowest ${top} by p95${national ? ` (scale national, ${today})` : ''}:\n`);
  console.log(head);
  console.log(head.replace(/[^|]+/g, '---'));
  for (const m of slowest) {
    const b = m.before ? ` ${fmt(m.before.p95)} | ${fmt(m.before.rawMs)} |` : baselineRef ? ' | |' : '';
    console.log(`| ${m.driver} | ${m.user} | ${m.label} | ${m.rows} | ${fmt(m.p50)} | ${fmt(m.p95)} | ${fmt(m.rawMs)} |${b}`);
  }
  const changed = all.filter((m) => m.before);
  if (changed.length > 0) {
    console.log('\nEvery call whose SQL, paging or count SQL differs from the baseline (before -> after, p95 ms):\n');
    console.log('| driver | user | call | before p95 | after p95 | before raw | after raw |\n|---|---|---|---:|---:|---:|---:|');
    for (const m of changed) console.log(`| ${m.driver} | ${m.user} | ${m.label} | ${fmt(m.before?.p95 ?? NaN)} | ${fmt(m.p95)} | ${fmt(m.before?.rawMs ?? NaN)} | ${fmt(m.rawMs)} |`);
  }
  const over = all.filter((m) => m.p95 > budgetMs);
  console.log(`\n${all.length} calls measured; ${over.length} over the ${budgetMs} ms budget${over.length ? `: ${over.map((m) => `${m.driver} ${m.user} ${m.endpoint}`).join(', ')}` : ''}`);
  // A report not timed is not within budget either: said, and the bench fails (--today picks a day with data).
  if (skipped.length > 0) console.log(`${skipped.length} report(s) not timed, no filter from the data of ${today}: ${skipped.join(', ')}`);
  return over.length > 0 || skipped.length > 0 ? 1 : 0;
}
