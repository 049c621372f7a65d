/**
 * `npm run bench -- --load [--database-url URL] [--seconds N] [--pgbench-rounds N] [--pgbench-only]
 * [--write-pgbench-script] [--vs-feed-on] [--date YYYY-MM-DD] [--baseline-dir DIR [--baseline-workers N]] [--floor]`: the server under
 * load on PostgreSQL.
 * Builds the server (dist/server), starts it with HHT_WORKERS=2 on a seeded database (hht_bench_load, made once),
 * twice: with the report result cache as served, then with HHT_REPORT_CACHE_MS=0. Each time it signs a user in
 * through the real routes (test hooks give captcha and OTP), and measures
 * 1. throughput and p99 of one light report (getVacantBerths) with wrk, 50 connections, one filter (identity and
 *    brotli), then rotating through every train run of the last 7 days x 4 class choices (a realistic hit rate);
 * 2. for 6 reports, the median latency of one API call against the same SQL run directly (one at a time,
 *    interleaved), and their ratio; then the same SQL run directly by 50 concurrent pg clients;
 * 3. the server with the cache off against the same SQL from pgbench (C, 50 connections, 2 threads, -M prepared, the
 *    committed script tests/bench/light-report.pgbench.sql), in alternate rounds, and their ratio; with --floor, a
 *    bare node:http + pg server running the same statement (tests/bench/bare-report-server.ts) takes a turn in
 *    every round too: the ceiling of any Node server with pg on the same cores;
 * and prints each figure against its target (docs/benchmarks.md, "Serving") with the load average.
 */
import { execFileSync, spawn } from 'node:child_process';
import { Agent, request as httpRequest } from 'node:http';
import { loadavg } from 'node:os';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openDb } from '../../src/server/db';
import { istDate } from '../../src/server/clock';
import { checkDefinitions, type CheckedReport, type CheckedView } from '../../src/shared/definitions/validate';
import { readDefinitionFiles } from '../../src/server/reports/definition-files';
import { parseFilter } from '../../src/server/reports/filter';
import { buildQuery } from '../../src/server/reports/executor';
import { CLIENT_PAGING_MAX_ROWS } from '../../src/shared/report-definition';
import { loginOverHttp } from '../support/login';
import { freePort } from '../support/server';
import { sampleFilter } from '../support/sample-filters';
import { serverReady } from '../support/server-ready';
import { pgbenchScript, recordServerStatements } from './server-statements';
import { runWrk, type WrkRun } from './wrk';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}
const adminUrl = arg('database-url') ?? process.env.TEST_DATABASE_URL;
if (!adminUrl) throw new Error('--load needs PostgreSQL: pass --database-url or set TEST_DATABASE_URL');
const seconds = Number(arg('seconds') ?? '10');
const DB_NAME = arg('db-name') ?? 'hht_bench_load';
const LIGHT = 'getVacantBerths';
const REPORTS = ['getVacantBerths', 'chart-load-new', 'coach-deficiency', 'classwise-Occupancy', 'psgnCoachWiseCount', 'allotmentReport'];
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const pct = (xs: number[], p: number): number => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))] ?? NaN;

// ---- database (seeded by the server itself on first use: HHT_SEED=demo) ----
const admin = new pg.Client({ connectionString: adminUrl });
await admin.connect();
if ((await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [DB_NAME])).rows.length === 0) {
  await admin.query(`CREATE DATABASE ${DB_NAME}`);
}
await admin.end();
const dbUrl = new URL(adminUrl);
dbUrl.pathname = `/${DB_NAME}`;

// ---- the real server, compiled, 2 workers: started twice, with the report result cache (as served) and without ----
// --server-dir DIR: run the server built in another checkout (old against new); otherwise build this one.
const serverDir = arg('server-dir') ?? process.cwd();
if (!arg('server-dir')) execFileSync(process.execPath, ['scripts/build-server.mjs'], { stdio: 'inherit' });

interface CpuSeconds { user: number; system: number }
interface Server { base: string; stop: () => Promise<void>; cpuSeconds: () => CpuSeconds }
/** The bare server of --floor, run from its TypeScript source through tsx. */
const BARE_SERVER_ARGS = ['--import', 'tsx', join(import.meta.dirname, 'bare-report-server.ts')];
async function startServer(extraEnv: Record<string, string>, dir = serverDir, workers = arg('workers') ?? '2', args = ['dist/server/main.js']): Promise<Server> {
  const port = await freePort();
  const server = spawn(process.execPath, args, {
    cwd: dir,
    env: {
      ...process.env, PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: dbUrl.toString(), HHT_WORKERS: workers,
      HHT_SEED: 'demo', HHT_SEED_SCALE: 'small', HHT_TEST_HOOKS: '1', LOG_LEVEL: 'warn', HHT_DATA_DIR: mkdtempSync(join(tmpdir(), 'hht-unused-')),
      ...extraEnv,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const kill = (): void => {
    if (server.exitCode === null) server.kill('SIGTERM');
  };
  process.on('exit', kill);
  await serverReady(server);
  /** CPU seconds (user, system) the server's processes have used so far: the primary and its workers. */
  const cpuSeconds = (): CpuSeconds => {
    let children = '';
    try {
      children = execFileSync('ps', ['--ppid', String(server.pid), '-o', 'pid='], { encoding: 'utf8' });
    } catch {
      // ps exits 1 when the process has no children (one server process, HHT_WORKERS=1)
    }
    const pids = [String(server.pid), ...children.split('\n').map((x) => x.trim()).filter(Boolean)];
    const tick = 100; // USER_HZ on Linux
    return pids.reduce((sum, pid) => {
      try {
        const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
        return { user: sum.user + Number(f[11]) / tick, system: sum.system + Number(f[12]) / tick };
      } catch {
        return sum;
      }
    }, { user: 0, system: 0 });
  };
  return {
    base: `http://127.0.0.1:${port}`,
    cpuSeconds,
    stop: async () => {
      if (server.exitCode !== null) return;
      const exited = new Promise((r) => server.once('exit', r));
      kill();
      await exited;
      process.off('exit', kill);
    },
  };
}

// ---- the reports, their sample filters and their SQL ----
// A database made just now has no data yet: the server's first start (HHT_SEED=demo) migrates and seeds it.
const db = await openDb({ databaseUrl: dbUrl.toString(), dataDir: null });
if ((await db.query<{ t: boolean }>("SELECT to_regclass('train_runs') IS NOT NULL AS t")).rows[0]?.t !== true) {
  console.error(`seeding ${DB_NAME} through a first server start (a few minutes, once)`);
  await (await startServer({})).stop();
}
// --date YYYY-MM-DD: the day the sample filters read (default today in IST). Just after midnight IST today's runs have
// synced next to nothing, and an empty answer measures a different server than the usual one.
const today = arg('date') ?? istDate(new Date());
if (!/^\d{4}-\d{2}-\d{2}$/.test(today)) throw new Error(`--date must be YYYY-MM-DD, not ${today}`);
const checked = checkDefinitions(readDefinitionFiles(process.cwd()));
interface Target { endpoint: string; body: Record<string, unknown>; sql: string; params: unknown[] }
const targets: Target[] = [];
for (const endpoint of REPORTS) {
  const found = checked.reports.flatMap((r: CheckedReport) => r.views.map((v: CheckedView) => ({ r, v }))).find((x) => x.v.endpoint === endpoint);
  if (!found) throw new Error(`no report view ${endpoint}`);
  const body = await sampleFilter(db, found.r, today);
  const { sql, params } = buildQuery(found.v, parseFilter(found.r, body, today), { kind: 'all' });
  // What the API runs for a client-paged view: every row up to the cap.
  targets.push({ endpoint, body, sql: `SELECT * FROM (${sql}) q LIMIT ${CLIENT_PAGING_MAX_ROWS + 1}`, params });
}
const light = targets.find((t) => t.endpoint === LIGHT);
if (!light) throw new Error('no light report');
// Many officers, many filters: the light report for every train run of the last 7 days, all classes and each class
// (a division looks at its running trains; each filter is a different answer, so a different cache entry).
const runs = (await db.query<{ train_no: string; d: string }>(
  "SELECT train_no, start_date::text AS d FROM train_runs WHERE start_date BETWEEN $1::date - 6 AND $1::date ORDER BY 2, 1", [today],
)).rows;
const rotating = runs.flatMap((r) => [undefined, '3A', 'SL', '2A'].map((cls) => ({ ...light.body, trainNo: r.train_no, startDate: r.d, ...(cls ? { cls } : {}) })));
await db.close();
const pool = new pg.Pool({ connectionString: dbUrl.toString(), max: 50 });

console.log(`# Load benchmark (PostgreSQL, ${arg('workers') ?? '2'} server processes, ${seconds} s per run, ${new Date().toISOString()}, load average ${loadavg()[0]?.toFixed(1)})\n`);

interface WrkResult extends WrkRun { cpuMsPerRequest: number; systemMsPerRequest: number }
/** wrk, 50 connections, POSTing one body, or rotating through several (one after the other, per thread). */
function wrk(server: Server, auth: Record<string, string>, acceptEncoding: string | null, bodies: readonly object[], countCache = false, duration = seconds): WrkResult {
  const cpu0 = server.cpuSeconds();
  const run = runWrk({ url: `${server.base}/api/${LIGHT}`, headers: { ...auth, ...(acceptEncoding ? { 'Accept-Encoding': acceptEncoding } : {}) }, bodies, seconds: duration, countCache });
  const cpu1 = server.cpuSeconds();
  const cpu = cpu1.user + cpu1.system - cpu0.user - cpu0.system;
  return { ...run, cpuMsPerRequest: (cpu * 1000) / run.total, systemMsPerRequest: ((cpu1.system - cpu0.system) * 1000) / run.total };
}
async function directLoad(t: Target): Promise<{ rps: number; p99: number }> {
  const lat: number[] = [];
  const until = performance.now() + seconds * 1000;
  await Promise.all(Array.from({ length: 50 }, async () => {
    while (performance.now() < until) {
      const t0 = performance.now();
      await pool.query(t.sql, t.params);
      lat.push(performance.now() - t0);
    }
  }));
  return { rps: lat.length / seconds, p99: pct(lat, 0.99) };
}

// Single calls: the API through node:http with a kept-alive connection and no compression (the SQL side is a pooled
// pg connection, uncompressed): what is compared is the server's cost over its SQL, not a client library's.
const ROUNDS = Number(arg('rounds') ?? '60');
async function singleCalls(server: Server, auth: Record<string, string>): Promise<{ endpoint: string; rows: number; api: number; sql: number; prepared: number }[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const post = (path: string, body: string): Promise<{ status: number; text: string }> =>
    new Promise((resolve, reject) => {
      const req = httpRequest(`${server.base}${path}`, { method: 'POST', agent, headers: { 'content-type': 'application/json', ...auth } }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      });
      req.on('error', reject);
      req.end(body);
    });
  const out: { endpoint: string; rows: number; api: number; sql: number; prepared: number }[] = [];
  for (const t of targets) {
    const api: number[] = [];
    const sql: number[] = [];
    const prepared: number[] = [];
    let rows = 0;
    const body = JSON.stringify(t.body);
    for (let i = 0; i < ROUNDS + 5; i += 1) {
      let t0 = performance.now();
      const res = await post(`/api/${t.endpoint}`, body);
      const json = JSON.parse(res.text) as { total?: number };
      if (res.status !== 200) throw new Error(`${t.endpoint}: ${res.status} ${res.text}`);
      if (i >= 5) api.push(performance.now() - t0);
      rows = json.total ?? 0;
      t0 = performance.now();
      await pool.query(t.sql, t.params);
      if (i >= 5) sql.push(performance.now() - t0);
      // The same SQL as a prepared statement (planned once per connection), as the server's report sessions run it.
      t0 = performance.now();
      await pool.query({ name: `bench_${t.endpoint}`, text: t.sql, values: t.params });
      if (i >= 5) prepared.push(performance.now() - t0);
    }
    out.push({ endpoint: t.endpoint, rows, api: median(api), sql: median(sql), prepared: median(prepared) });
  }
  agent.destroy();
  return out;
}

interface Side { plain: WrkResult; br: WrkResult; rotating: WrkResult; calls: Awaited<ReturnType<typeof singleCalls>> }
/** One server start: the light report (identity, brotli), rotating filters (brotli), then the single calls. */
async function measure(env: Record<string, string>): Promise<Side> {
  const server = await startServer(env);
  try {
    // Sign in through the real routes (captcha, password, login-grant cookie, OTP), as the browser does.
    const auth = (await loginOverHttp(server.base, 'HHTSU')).headers();
    const plain = wrk(server, auth, null, [light?.body ?? {}]);
    const br = wrk(server, auth, 'gzip, deflate, br', [light?.body ?? {}]);
    const rotatingRun = wrk(server, auth, 'gzip, deflate, br', rotating, true);
    const calls = await singleCalls(server, auth);
    return { plain, br, rotating: rotatingRun, calls };
  } finally {
    await server.stop();
  }
}

// ---- the SQL alone, from a C client: pgbench with the committed script, prepared, against the server uncached ----
/**
 * The light report's SQL as pgbench runs it (tests/bench/light-report.pgbench.sql): the statements the server sends
 * for one uncached call of the sample filter, recorded from the app (server-statements.ts), each bound value a
 * pgbench variable. The bench refuses a committed script that is no longer what the server sends;
 * --write-pgbench-script writes it anew.
 */
const PGBENCH_SCRIPT = join(import.meta.dirname, 'light-report.pgbench.sql');
const pgbenchBin = ['/usr/lib/postgresql/15/bin/pgbench', 'pgbench'].find((b) => {
  try {
    execFileSync(b, ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
});
const lightStatements = await recordServerStatements(dbUrl.toString(), LIGHT, light.body, 'HHTSU');
const lightScript = pgbenchScript(lightStatements, [
  `${LIGHT} at 50 connections: the statements the server sends PostgreSQL for one uncached call (the rows as JSON, the`,
  'answer\'s freshness), recorded from the app; tests/bench/load.ts runs them with pgbench -M prepared, the sample',
  'filter\'s values given with -D (regenerate: npm run bench -- --load --write-pgbench-script).',
]);
if (process.argv.includes('--write-pgbench-script')) writeFileSync(PGBENCH_SCRIPT, lightScript.script);
if (readFileSync(PGBENCH_SCRIPT, 'utf8') !== lightScript.script) {
  throw new Error(`${PGBENCH_SCRIPT} is not the report's SQL any more: run npm run bench -- --load --write-pgbench-script and commit it`);
}
/** pgbench, 50 connections, 2 threads, prepared statements, the committed script: tps and p99 (from its per-transaction log). */
function pgbench(): { rps: number; p99: number } {
  if (!pgbenchBin) throw new Error('pgbench not found: apt-get install -y postgresql-client');
  const dir = mkdtempSync(join(tmpdir(), 'hht-pgbench-'));
  const out = execFileSync(pgbenchBin, [
    '-n', '-c', '50', '-j', '2', '-T', String(seconds), '-M', 'prepared', '-l', '--log-prefix', join(dir, 'log'),
    ...lightScript.vars.flatMap((v) => ['-D', v]), '-f', PGBENCH_SCRIPT, dbUrl.toString(),
  ], { encoding: 'utf8', cwd: dir });
  const lat = readdirSync(dir).filter((f) => f.startsWith('log')).flatMap((f) =>
    readFileSync(join(dir, f), 'utf8').split('\n').filter(Boolean).map((l) => Number(l.split(' ')[2]) / 1000),
  );
  return { rps: Number(/tps = ([\d.]+)/.exec(out)?.[1]), p99: pct(lat, 0.99) };
}

// The server with the cache off and pgbench in alternate rounds (the same connections and duration): their medians'
// ratio is the server's distance from its database. --baseline-dir DIR: a server built in another checkout (node
// scripts/build-server.mjs there) takes its turn in every round too, so old and new are compared in one run;
// --baseline-workers N runs it with N processes (the same tree as DIR: one process against two, in one run).
const ROUNDS_VS = Number(arg('pgbench-rounds') ?? '3');
const baselineDir = arg('baseline-dir');
const FLOOR = process.argv.includes('--floor');
if (FLOOR && lightStatements.length !== 1) throw new Error(`--floor runs one statement; ${LIGHT} sends ${lightStatements.length}`);
type DbResult = { rps: number; p99: number };
const vs: { api: WrkResult; db: DbResult; baseline?: WrkResult; floor?: WrkResult }[] = [];
{
  // The live feed off: pgbench has no background work beside it (the feed's release every 15 s holds the server's
  // event loop and writes to the database; the runs above, as served, keep it on).
  const env = { HHT_REPORT_CACHE_MS: '0', ...(process.argv.includes('--vs-feed-on') ? {} : { HHT_FEED: 'off' }) };
  const dirs = [serverDir, ...(baselineDir ? [baselineDir] : [])];
  // Two servers open at once hold more connections than PostgreSQL's default 100 leave pgbench's 50: with a baseline,
  // each turn starts its server, warms it up and stops it; alone, the server stays up through the rounds.
  const perTurn = dirs.length > 1 || FLOOR;
  const kept = new Map<string, Server>();
  const probed = new Set<string>();
  // One session per user: signing in on one server supersedes the session held on another, so each turn signs in.
  // A kept-alive socket the server closes just as it is reused fails the sign-in: once more, on a new one.
  const signedIn = async (server: Server): Promise<Record<string, string>> =>
    (await loginOverHttp(server.base, 'HHTSU').catch(() => loginOverHttp(server.base, 'HHTSU'))).headers();
  const up = async (dir: string, workers?: string): Promise<Server> => {
    const held = kept.get(dir);
    if (held) return held;
    const server = await startServer(env, dir, workers);
    if (!perTurn) kept.set(dir, server);
    const auth = await signedIn(server);
    if (!probed.has(`${dir} ${workers ?? ''}`)) {
      probed.add(`${dir} ${workers ?? ''}`);
      // What is measured: the sample filter's answer (its size says whether the day has data).
      const probe = await fetch(`${server.base}/api/${LIGHT}`, { method: 'POST', headers: { 'content-type': 'application/json', ...auth }, body: JSON.stringify(light.body) });
      const probeText = await probe.text();
      if (probe.status !== 200) throw new Error(`${LIGHT} answered ${probe.status}: ${probeText.slice(0, 300)}`);
      console.log(`${dir} (${workers ?? arg('workers') ?? '2'} processes): ${LIGHT} ${JSON.stringify(light.body)}: ${probeText.length} bytes, ${(JSON.parse(probeText) as { total?: number }).total ?? '?'} rows`);
    }
    // Warm-up: connections, prepared statements, JIT of the server's code.
    wrk(server, auth, null, [light.body], false, perTurn ? Math.min(seconds, 3) : seconds);
    return server;
  };
  /** The light report on one server, whose every answer must be a 200. */
  const turn = async (dir: string, workers?: string): Promise<WrkResult> => {
    const server = await up(dir, workers);
    try {
      const r = wrk(server, await signedIn(server), null, [light.body]);
      if (r.errors) throw new Error(`${server.base}: ${r.errors}`);
      return r;
    } finally {
      if (perTurn) await server.stop();
    }
  };
  /** The bare server's turn: started, warmed up, measured and stopped like a baseline's. */
  const floorTurn = async (): Promise<WrkResult> => {
    const server = await startServer({ STATEMENT: JSON.stringify(lightStatements[0]) }, serverDir, '1', BARE_SERVER_ARGS);
    try {
      wrk(server, {}, null, [light.body], false, Math.min(seconds, 3));
      const r = wrk(server, {}, null, [light.body]);
      if (r.errors) throw new Error(`the bare server: ${r.errors}`);
      return r;
    } finally {
      await server.stop();
    }
  };
  try {
    if (!perTurn) await up(serverDir);
    for (let i = 0; i < ROUNDS_VS; i += 1) {
      // Each round the turns move on by one (this tree, pgbench, the baseline; then pgbench, the baseline, this tree...).
      const turns: (() => Promise<unknown>)[] = [];
      const round: Partial<{ api: WrkResult; db: DbResult; baseline: WrkResult; floor: WrkResult }> = {};
      turns.push(async () => (round.api = await turn(serverDir)));
      turns.push(async () => (round.db = pgbench()));
      if (baselineDir) turns.push(async () => (round.baseline = await turn(baselineDir, arg('baseline-workers'))));
      if (FLOOR) turns.push(async () => (round.floor = await floorTurn()));
      for (let k = 0; k < turns.length; k += 1) await turns[(i + k) % turns.length]?.();
      if (!round.api || !round.db) throw new Error('a round did not run');
      vs.push({ api: round.api, db: round.db, ...(round.baseline ? { baseline: round.baseline } : {}), ...(round.floor ? { floor: round.floor } : {}) });
    }
  } finally {
    for (const server of kept.values()) await server.stop();
  }
}
const vsApi = median(vs.map((v) => v.api.rps));
const vsDb = median(vs.map((v) => v.db.rps));
const vsApiP99 = median(vs.map((v) => v.api.p99));
const vsDbP99 = median(vs.map((v) => v.db.p99));
const apiRows = (name: string, rs: WrkResult[]): void => {
  console.log(`| ${name} req/s (p99 ms) | ${rs.map((r) => `${r.rps.toFixed(0)} (${r.p99.toFixed(1)})`).join(' | ')} | ${median(rs.map((r) => r.rps)).toFixed(0)} (${median(rs.map((r) => r.p99)).toFixed(1)}) |`);
  console.log(`| ${name} / pgbench | ${rs.map((r, i) => `${(r.rps / (vs[i]?.db.rps ?? NaN)).toFixed(2)}x`).join(' | ')} | ${(median(rs.map((r) => r.rps)) / vsDb).toFixed(2)}x |`);
  console.log(`| ${name}: server CPU ms per request (of it system) | ${rs.map((r) => `${r.cpuMsPerRequest.toFixed(2)} (${r.systemMsPerRequest.toFixed(2)})`).join(' | ')} | ` +
    `${median(rs.map((r) => r.cpuMsPerRequest)).toFixed(2)} (${median(rs.map((r) => r.systemMsPerRequest)).toFixed(2)}) |`);
};
console.log(`\n| ${LIGHT}, 50 connections, cache off, alternate rounds | ${vs.map((_, i) => `round ${i + 1}`).join(' | ')} | median |\n|---|${vs.map(() => '---:|').join('')}---:|`);
console.log(`| pgbench -M prepared tps (p99 ms) | ${vs.map((v) => `${v.db.rps.toFixed(0)} (${v.db.p99.toFixed(1)})`).join(' | ')} | ${vsDb.toFixed(0)} (${vsDbP99.toFixed(1)}) |`);
apiRows('API', vs.map((v) => v.api));
const baselineRuns = vs.flatMap((v) => (v.baseline ? [v.baseline] : []));
if (baselineRuns.length === vs.length && baselineRuns.length > 0) {
  apiRows('baseline API', baselineRuns);
  console.log(`| API / baseline, CPU per request | ${vs.map((v) => `${(v.api.cpuMsPerRequest / (v.baseline?.cpuMsPerRequest ?? NaN)).toFixed(2)}x`).join(' | ')} | ` +
    `${(median(vs.map((v) => v.api.cpuMsPerRequest)) / median(baselineRuns.map((r) => r.cpuMsPerRequest))).toFixed(2)}x |`);
}
const floorRuns = vs.flatMap((v) => (v.floor ? [v.floor] : []));
if (floorRuns.length === vs.length && floorRuns.length > 0) {
  apiRows('floor: bare node:http + pg, 1 process', floorRuns);
  const floorRatio = median(floorRuns.map((r) => r.rps)) / vsDb;
  console.log(`\nthe floor server reaches ${floorRatio.toFixed(2)}x of pgbench: ${floorRatio >= 0.9 ? 'a Node server with pg can reach 0.9x here' : 'no Node server with pg reaches 0.9x on these cores'}`);
}
console.log(`load average ${loadavg().map((x) => x.toFixed(1)).join(' / ')} (1/5/15 min)\n`);
// --pgbench-only: this comparison alone (the rest takes minutes).
if (process.argv.includes('--pgbench-only')) {
  await pool.end();
  process.exit(0);
}

const on = await measure({}); // the default, as served (HHT_REPORT_CACHE_MS unset)
const off = await measure({ HHT_REPORT_CACHE_MS: '0' });
const direct = await directLoad(light);

const row = (name: string, r: WrkResult, note = ''): string =>
  `| ${name} | ${r.rps.toFixed(0)} | ${r.p99.toFixed(1)} | ${r.cpuMsPerRequest.toFixed(2)} | ${[r.errors || 'all 2xx', note].filter(Boolean).join('; ')} |`;
console.log(`| ${LIGHT}, 50 connections | req/s | p99 ms | server CPU ms per request | notes |\n|---|---:|---:|---:|---|`);
console.log(row('API, cache on (default), identity', on.plain, 'one filter: served from memory'));
console.log(row('API, cache on (default), br', on.br, 'one filter: served from memory'));
console.log(row(`API, cache on, ${rotating.length} rotating filters, br`, on.rotating, `each filter again every ${rotating.length} requests per wrk thread; ${((on.rotating.hitRate ?? NaN) * 100).toFixed(1)} % served from memory`));
console.log(row('API, cache off (HHT_REPORT_CACHE_MS=0), identity', off.plain));
console.log(row('API, cache off, br', off.br));
console.log(row(`API, cache off, ${rotating.length} rotating filters, br`, off.rotating));
console.log(`| same SQL, pg, 50 clients | ${direct.rps.toFixed(0)} | ${direct.p99.toFixed(1)} | | from Node, same machine |\n`);

console.log('| report call | rows | SQL median ms | API cached median ms | ratio | API uncached median ms | ratio | SQL prepared median ms | API uncached / SQL prepared |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|');
const ratiosOn: number[] = [];
const ratiosOff: number[] = [];
const ratiosPrepared: number[] = [];
for (const [i, c] of on.calls.entries()) {
  const u = off.calls[i];
  if (!u) continue;
  const sqlMs = median([c.sql, u.sql]); // both runs measured the same SQL: their middle
  ratiosOn.push(c.api / c.sql);
  ratiosOff.push(u.api / u.sql);
  const prep = median([c.prepared, u.prepared]);
  ratiosPrepared.push(u.api / u.prepared);
  console.log(`| ${c.endpoint} | ${c.rows} | ${sqlMs.toFixed(2)} | ${c.api.toFixed(2)} | ${(c.api / c.sql).toFixed(2)}x | ${u.api.toFixed(2)} | ${(u.api / u.sql).toFixed(2)}x | ${prep.toFixed(2)} | ${(u.api / u.prepared).toFixed(2)}x |`);
}

// ---- acceptance: the numbers against the targets, for each way of serving ----
const yes = (ok: boolean): string => (ok ? 'MET' : 'NOT MET');
const best = (a: WrkResult, b: WrkResult): WrkResult & { name: string } => (b.rps > a.rps ? { name: 'brotli', ...b } : { name: 'identity', ...a });
const target = (r: WrkResult & { name?: string }): string =>
  `${r.rps.toFixed(0)} req/s${r.name ? ` (${r.name})` : ''}, p99 ${r.p99.toFixed(1)} ms: 2,500 req/s ${yes(r.rps >= 2500)}, p99 < 100 ms ${yes(r.p99 < 100)}`;
const ratioLine = (rs: number[]): string => `${rs.map((r) => `${r.toFixed(2)}x`).join(', ')}; target <= 1.5x: ${yes(rs.every((r) => r <= 1.5))} (${rs.filter((r) => r <= 1.5).length} of ${rs.length})`;
console.log(`\nAcceptance against the serving targets, load average ${loadavg().map((x) => x.toFixed(1)).join(' / ')} (1/5/15 min) at the end:`);
console.log(`- ${LIGHT}, 50 connections, cache on (as served), one filter: ${target(best(on.plain, on.br))}`);
console.log(`- same, ${rotating.length} different filters in rotation, ${((on.rotating.hitRate ?? NaN) * 100).toFixed(1)} % of answers from memory: ${target(on.rotating)}`);
console.log(`- same, cache off (every call runs its SQL): ${target(best(off.plain, off.br))}`);
console.log(`- cache off against the same SQL from pgbench -M prepared (${vs.length} alternate rounds, medians): ${vsApi.toFixed(0)} req/s against ${vsDb.toFixed(0)} tps, ` +
  `${(vsApi / vsDb).toFixed(2)}x: 0.9x ${yes(vsApi >= 0.9 * vsDb)}; p99 ${vsApiP99.toFixed(1)} ms: < 150 ms ${yes(vsApiP99 < 150)}`);
console.log(`- API / SQL latency of single calls, cache off: ${ratioLine(ratiosOff)}`);
console.log(`- API / SQL latency of single calls, cache on (repeated call): ${ratioLine(ratiosOn)}`);
console.log(`- API uncached / the same SQL prepared (its planning saved too: the server's own overhead): ${ratioLine(ratiosPrepared)}`);
console.log(`- throughput API / same SQL from Node: cache on ${(best(on.plain, on.br).rps / direct.rps).toFixed(2)}, cache off ${(best(off.plain, off.br).rps / direct.rps).toFixed(2)}`);
await pool.end();
