/**
 * `npm run bench -- --load [--database-url URL] [--seconds N]`: the server under load on PostgreSQL.
 * Builds the server (dist/server), starts it with HHT_WORKERS=2 on a seeded database (hht_bench_load, made once),
 * signs a user in through the real routes (test hooks give captcha and OTP), and measures
 * 1. throughput and p99 of one light report (getVacantBerths) with wrk, 50 connections, against the same SQL run
 *    directly with pg by 50 concurrent clients;
 * 2. for 6 reports, the median latency of one API call against the same SQL run directly (one at a time,
 *    interleaved), and their ratio;
 * 3. the machine's ceiling for that SQL alone: pgbench (C, 50 connections, 2 threads), no Node in the way;
 * and prints each acceptance point of issue 10 with its number and the load average.
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

// ---- the real server, compiled, 2 workers ----
// --server-dir DIR: run the server built in another checkout (old against new); otherwise build this one.
const serverDir = arg('server-dir') ?? process.cwd();
if (!arg('server-dir')) execFileSync(process.execPath, ['scripts/build-server.mjs'], { stdio: 'inherit' });
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const server = spawn(process.execPath, ['dist/server/main.js'], {
  cwd: serverDir,
  env: {
    ...process.env, PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: dbUrl.toString(), HHT_WORKERS: arg('workers') ?? '2',
    HHT_SEED: 'demo', HHT_SEED_SCALE: 'small', HHT_TEST_HOOKS: '1', LOG_LEVEL: 'warn', HHT_DATA_DIR: mkdtempSync(join(tmpdir(), 'hht-unused-')),
  },
  stdio: ['ignore', 'pipe', 'pipe'],
});
let out = '';
server.stdout.on('data', (d: Buffer) => (out += d.toString()));
server.stderr.on('data', (d: Buffer) => (out += d.toString()));
const stop = (): void => {
  if (server.exitCode === null) server.kill('SIGTERM');
};
process.on('exit', stop);
await new Promise<void>((resolve, reject) => {
  const check = setInterval(() => {
    if (out.includes('IR-HHT Portal ready')) {
      clearInterval(check);
      resolve();
    }
  }, 200);
  server.once('exit', (code) => reject(new Error(`server exited with ${code}:\n${out}`)));
});

// ---- sign in through the real routes (captcha, password, login-grant cookie, OTP), as the browser does ----
const authHeaders = (await loginOverHttp(base, 'HHTSU')).headers();

// ---- the reports, their sample filters and their SQL ----
const db = await openDb({ databaseUrl: dbUrl.toString(), dataDir: null });
const today = istDate(new Date());
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
await db.close();
const pool = new pg.Pool({ connectionString: dbUrl.toString(), max: 50 });

console.log(`# Load benchmark (PostgreSQL, ${arg('workers') ?? '2'} server processes, ${seconds} s per run, ${new Date().toISOString()}, load average ${loadavg()[0]?.toFixed(1)})\n`);

// ---- 1. one light report under 50 connections ----
const light = targets.find((t) => t.endpoint === LIGHT);
if (!light) throw new Error('no light report');
const luaFile = join(mkdtempSync(join(tmpdir(), 'hht-wrk-')), 'post.lua');
/** CPU seconds (user + system) the server's processes have used so far: the primary and its workers. */
function serverCpuSeconds(): number {
  const pids = [String(server.pid), ...execFileSync('ps', ['--ppid', String(server.pid), '-o', 'pid='], { encoding: 'utf8' }).split('\n').map((x) => x.trim()).filter(Boolean)];
  const tick = 100; // USER_HZ on Linux
  return pids.reduce((sum, pid) => {
    try {
      const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
      return sum + (Number(f[11]) + Number(f[12])) / tick;
    } catch {
      return sum;
    }
  }, 0);
}

function wrk(acceptEncoding: string | null): { rps: number; p99: number; errors: string; cpuMsPerRequest: number } {
  const headers = { 'Content-Type': 'application/json', ...authHeaders, ...(acceptEncoding ? { 'Accept-Encoding': acceptEncoding } : {}) };
  writeFileSync(luaFile, [
    'wrk.method = "POST"',
    `wrk.body = ${JSON.stringify(JSON.stringify(light?.body))}`,
    ...Object.entries(headers).map(([k, v]) => `wrk.headers[${JSON.stringify(k)}] = ${JSON.stringify(v)}`),
    // Non-2xx answers are counted by wrk as "Non-2xx or 3xx responses": a bench of errors must show.
  ].join('\n'));
  const cpu0 = serverCpuSeconds();
  const text = execFileSync('wrk', ['-t2', '-c50', `-d${seconds}s`, '--latency', '-s', luaFile, `${base}/api/${LIGHT}`], { encoding: 'utf8' });
  const cpu = serverCpuSeconds() - cpu0;
  const total = Number(/(\d+) requests in/.exec(text)?.[1]);
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(text)?.[1]);
  const m = /\s99%\s+([\d.]+)(us|ms|s)/.exec(text);
  const p99 = m ? Number(m[1]) * (m[2] === 'us' ? 0.001 : m[2] === 's' ? 1000 : 1) : NaN;
  const errors = [/Non-2xx or 3xx responses: \d+/.exec(text)?.[0], /Socket errors:.*/.exec(text)?.[0]].filter(Boolean).join('; ');
  return { rps, p99, errors, cpuMsPerRequest: (cpu * 1000) / total };
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
const apiPlain = wrk(null);
const direct = await directLoad(light);
const apiBr = wrk('gzip, deflate, br');
console.log(`| ${LIGHT}, 50 connections | req/s | p99 ms | server CPU ms per request | notes |\n|---|---:|---:|---:|---|`);
console.log(`| API (wrk, identity) | ${apiPlain.rps.toFixed(0)} | ${apiPlain.p99.toFixed(1)} | ${apiPlain.cpuMsPerRequest.toFixed(2)} | ${apiPlain.errors || 'all 2xx'} |`);
console.log(`| API (wrk, Accept-Encoding br) | ${apiBr.rps.toFixed(0)} | ${apiBr.p99.toFixed(1)} | ${apiBr.cpuMsPerRequest.toFixed(2)} | ${apiBr.errors || 'all 2xx'} |`);
console.log(`| same SQL, pg, 50 clients | ${direct.rps.toFixed(0)} | ${direct.p99.toFixed(1)} | | from Node, same machine |`);
console.log(`| ratio SQL / API (throughput) | ${(direct.rps / apiPlain.rps).toFixed(2)}x | | | |\n`);

// ---- 2. latency of single calls, API vs direct SQL, interleaved ----
// The API through node:http with a kept-alive connection and no compression (the SQL side is a pooled pg
// connection, uncompressed): what is compared is the server's cost over its SQL, not a client library's.
const agent = new Agent({ keepAlive: true, maxSockets: 1 });
const post = (path: string, body: string): Promise<{ status: number; text: string }> =>
  new Promise((resolve, reject) => {
    const req = httpRequest(`${base}${path}`, { method: 'POST', agent, headers: { 'content-type': 'application/json', ...authHeaders } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
const ROUNDS = Number(arg('rounds') ?? '60');
console.log('| report call | rows | API median ms | SQL median ms | ratio | API p10 ms | SQL p10 ms | ratio p10 |\n|---|---:|---:|---:|---:|---:|---:|---:|');
const ratios: number[] = [];
for (const t of targets) {
  const api: number[] = [];
  const sql: number[] = [];
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
  }
  const a = median(api);
  const s = median(sql);
  ratios.push(a / s);
  const a10 = pct(api, 0.1);
  const s10 = pct(sql, 0.1);
  console.log(`| ${t.endpoint} | ${rows} | ${a.toFixed(2)} | ${s.toFixed(2)} | ${(a / s).toFixed(2)}x | ${a10.toFixed(2)} | ${s10.toFixed(2)} | ${(a10 / s10).toFixed(2)}x |`);
}
agent.destroy();

// ---- 3. the SQL alone, from a C client: the most this machine gives for this query ----
function pgbench(t: Target): { tps: number; p99: number } | null {
  const literal = (v: unknown): string => (v === null ? 'NULL' : `'${String(v).replace(/'/g, "''")}'`);
  const inlined = t.sql.replace(/\$(\d+)/g, (_, i: string) => literal(t.params[Number(i) - 1]));
  const dir = mkdtempSync(join(tmpdir(), 'hht-pgbench-'));
  writeFileSync(join(dir, 'q.sql'), `${inlined.replace(/\s+/g, ' ')};\n`);
  const bin = ['/usr/lib/postgresql/15/bin/pgbench', 'pgbench'].find((b) => {
    try {
      execFileSync(b, ['--version'], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  });
  if (!bin) return null;
  const out = execFileSync(bin, ['-n', '-c', '50', '-j', '2', '-T', String(seconds), '-M', 'extended', '-r', '-l', '--log-prefix', join(dir, 'log'), '-f', join(dir, 'q.sql'), dbUrl.toString()], { encoding: 'utf8', cwd: dir });
  const tps = Number(/tps = ([\d.]+)/.exec(out)?.[1]);
  const lat = readdirSync(dir).filter((f) => f.startsWith('log')).flatMap((f) =>
    readFileSync(join(dir, f), 'utf8').split('\n').filter(Boolean).map((l) => Number(l.split(' ')[2]) / 1000),
  );
  return { tps, p99: pct(lat, 0.99) };
}
const ceiling = pgbench(light);
if (ceiling) console.log(`\n| ${LIGHT}: the SQL alone, pgbench (C), 50 connections | ${ceiling.tps.toFixed(0)} req/s | p99 ${ceiling.p99.toFixed(1)} ms |`);

// ---- acceptance (issue 10): the numbers against the targets ----
const best = apiBr.rps > apiPlain.rps ? { name: 'brotli', ...apiBr } : { name: 'identity', ...apiPlain };
const yes = (ok: boolean): string => (ok ? 'MET' : 'NOT MET');
console.log(`\nAcceptance (issue 10), load average ${loadavg().map((x) => x.toFixed(1)).join(' / ')} (1/5/15 min) at the end:`);
console.log(`- ${LIGHT}, 50 connections: ${best.rps.toFixed(0)} req/s (${best.name}), target 2,500: ${yes(best.rps >= 2500)}${ceiling ? `; the SQL alone from pgbench: ${ceiling.tps.toFixed(0)} req/s` : ''}`);
console.log(`- p99 ${best.p99.toFixed(1)} ms, target < 100 ms: ${yes(best.p99 < 100)}`);
console.log(`- API / SQL latency, ${targets.length} reports: ${ratios.map((r) => `${r.toFixed(2)}x`).join(', ')}; target <= 1.5x: ${yes(ratios.every((r) => r <= 1.5))} (${ratios.filter((r) => r <= 1.5).length} of ${ratios.length})`);
console.log(`- throughput API / same SQL from Node: ${(apiPlain.rps / direct.rps).toFixed(2)} (identity), ${(apiBr.rps / direct.rps).toFixed(2)} (brotli)`);
await pool.end();
stop();
