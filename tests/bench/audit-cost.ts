/**
 * `npm run bench -- --audit-cost [--database-url URL] [--db-name NAME] [--seconds N] [--groups N] [--turns N]
 * [--switch [--rounds N] [--settle N]] [--workers N] [--aa] [--port P]`: the audit trail's cost under load, on a
 * seeded PostgreSQL database, with wrk (the load bench's client: 2 threads, 50 kept-alive connections) POSTing the light
 * report for N seconds a turn, rotating through every train run of the last 7 days x 4 class choices (mostly
 * result-cache hits, a miss when a held answer expires). With the trail on, every call writes one entry.
 *
 * As a server runs (the default): each group starts two built servers (dist/server, HHT_WORKERS=2 unless --workers),
 * one with HHT_AUDIT=on and one with HHT_AUDIT=off, warms both up, loads them in turn (alternating, --turns each)
 * and stops them; which goes first changes from group to group. Each server keeps its trail as it started, as in production. A started server differs from the next by several
 * per cent whatever its trail (its code's layout and the JIT's choices), so many groups of new servers are needed.
 * --switch: one server whose trail a test hook turns on and off between turns (POST /api/test-hooks/audit), --rounds
 * ABBA rounds, --settle seconds of load not measured after each switch. Turning the trail on throws away the report
 * route's optimised code (about 90 deoptimisations in the turn after a switch), so this counts the JIT's recompiling
 * and a route compiled for both states, which a server whose trail stays as it started never pays.
 *
 * Prints requests/s, p99 and the CPU time per request of the server's processes and the database (read from /proc; a
 * turn ends after one more flush so its entries' writes count in it), and the cost: the geometric mean of the on/off
 * ratios of each group (or round), with a 95 % confidence interval (t), since one turn moves by 10-20 % here.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { istDate } from '../../src/server/clock';
import { openDb } from '../../src/server/db';
import { insertUser, loginOverHttp } from '../support/login';
import { freePort } from '../support/server';
import { serverReady } from '../support/server-ready';
import { runWrk } from './wrk';
import { backendCpuSecondsBetween, backendCpuTicks, postmasterPid, processTreeCpuSeconds } from './process-cpu';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}
const adminUrl = arg('database-url') ?? process.env.TEST_DATABASE_URL;
if (!adminUrl) throw new Error('--audit-cost needs PostgreSQL: pass --database-url or set TEST_DATABASE_URL');
const seconds = Number(arg('seconds') ?? '5');
/** --switch: one server whose trail is turned on and off between turns (see above); otherwise pairs of new servers. */
const SWITCH = process.argv.includes('--switch');
const rounds = Number(arg('rounds') ?? '20');
/** --groups N: pairs of servers started (12 unless given); --turns N: measured turns of each server in a group (4). */
const groups = Number(arg('groups') ?? '12');
const turnsPerGroup = Number(arg('turns') ?? '4');
/** --settle N (--switch): seconds of load, not measured, after each switch of the trail (3 unless given). */
const settleSeconds = Number(arg('settle') ?? '3');
const DB_NAME = arg('db-name') ?? 'hht_bench_load';
/** --workers N: server processes (HHT_WORKERS), 2 unless given. */
const WORKERS = Number(arg('workers') ?? '2');
/** --aa: an A/A run, the trail off in the "on" turns too: the cost this bench shows when there is none. */
const AA = process.argv.includes('--aa');
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;
const pct = (xs: number[], p: number): number => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))] ?? NaN;

const dbUrl = new URL(adminUrl);
dbUrl.pathname = `/${DB_NAME}`;
execFileSync(process.execPath, ['scripts/build-server.mjs'], { stdio: 'inherit' });

interface Server { base: string; pid: number; stop: () => Promise<void> }
/** Servers started and not yet stopped: stopped if the bench ends first (one exit listener for all of them). */
const running = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of running) child.kill('SIGTERM');
});
/** A built server; its trail as HHT_AUDIT says (on unless audit is false). */
async function startServer(audit = true, port?: number): Promise<Server> {
  port ??= await freePort();
  const child = spawn(process.execPath, ['dist/server/main.js'], {
    env: {
      ...process.env, PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: dbUrl.toString(), HHT_WORKERS: String(WORKERS),
      HHT_SEED: 'demo', HHT_SEED_SCALE: 'small', HHT_FEED: 'off', HHT_TEST_HOOKS: '1', LOG_LEVEL: 'warn',
      HHT_DATA_DIR: mkdtempSync(join(tmpdir(), 'hht-unused-')), HHT_AUDIT: audit ? 'on' : 'off',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  child.once('exit', () => running.delete(child));
  await serverReady(child, { timeoutMs: 900_000 });
  return {
    base: `http://127.0.0.1:${port}`,
    pid: child.pid ?? NaN,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Turns the trail on or off in every worker: new connections until each process has said so. */
async function setTrail(server: Server, enabled: boolean): Promise<void> {
  const pids = new Set<number>();
  for (let i = 0; pids.size < WORKERS; i += 1) {
    if (i > 200) throw new Error(`only ${pids.size} worker(s) answered the audit test hook`);
    const answer = await new Promise<{ enabled: boolean; pid: number }>((resolve, reject) => {
      const req = httpRequest(`${server.base}/api/test-hooks/audit`, { method: 'POST', agent: false, headers: { 'content-type': 'application/json', connection: 'close' } }, (res) => {
        let text = '';
        res.on('data', (d: Buffer) => (text += d.toString()));
        res.on('end', () => resolve(JSON.parse(text) as { enabled: boolean; pid: number }));
      });
      req.on('error', reject);
      req.end(JSON.stringify({ enabled }));
    });
    if (answer.enabled === enabled) pids.add(answer.pid);
  }
}

// The first start of an empty database seeds it; with --switch this server is the one measured.
const server = await startServer(true, arg('port') ? Number(arg('port')) : undefined);
const today = istDate(new Date());
const client = new pg.Client({ connectionString: dbUrl.toString() });
await client.connect();
const runs = (await client.query<{ train_no: string; d: string }>(
  'SELECT train_no, start_date::text AS d FROM train_runs WHERE start_date BETWEEN $1::date - 6 AND $1::date ORDER BY 2, 1', [today],
)).rows;
const bodies = runs.flatMap((r) => [undefined, '3A', 'SL', '2A'].map((cls) => ({ trainNo: r.train_no, startDate: r.d, ...(cls ? { cls } : {}) })));
// The database's CPU: the whole cluster's processes (backends, autovacuum workers that come and go, WAL writer) when
// it runs here and its postmaster.pid is readable, else this database's backends.
const pmPid = await postmasterPid(client);
let backendSeconds = 0;
let backendTicks = await backendCpuTicks(client, DB_NAME);
async function dbCpuSeconds(): Promise<number> {
  if (pmPid !== undefined) return processTreeCpuSeconds(pmPid, { reaped: true });
  const now = await backendCpuTicks(client, DB_NAME);
  backendSeconds += backendCpuSecondsBetween(backendTicks, now);
  backendTicks = now;
  return backendSeconds;
}
const auditBefore = Number((await client.query<{ n: string }>('SELECT coalesce(sum(n), 0) AS n FROM audit_batches')).rows[0]?.n);

/** CPU seconds so far of the server's processes and of the database (see dbCpuSeconds). */
async function cpuNow(server: Server): Promise<{ server: number; db: number }> {
  return { server: processTreeCpuSeconds(server.pid), db: await dbCpuSeconds() };
}

async function load(server: Server, auth: Record<string, string>, turnSeconds = seconds): Promise<{ rps: number; p99: number; errors: string; serverMs: number; dbMs: number; hitRate: number }> {
  const cpu0 = await cpuNow(server);
  const wall0 = performance.now();
  const run = runWrk({ url: `${server.base}/api/getVacantBerths`, headers: auth, bodies, seconds: turnSeconds, countCache: true });
  // The trail's entries are written by a timer: wait for one flush so its INSERTs fall in this turn.
  await new Promise((r) => setTimeout(r, 1_500));
  const cpu1 = await cpuNow(server);
  const wallS = (performance.now() - wall0) / 1000;
  const perRequestMs = (s: number): number => (s * 1000) / run.total;
  return {
    rps: run.rps, p99: run.p99, errors: run.errors, hitRate: run.hitRate ?? NaN,
    serverMs: perRequestMs(cpu1.server - cpu0.server - idleCpuPerSecond.server * wallS),
    dbMs: perRequestMs(cpu1.db - cpu0.db - idleCpuPerSecond.db * wallS),
  };
}

/** Two-sided 95 % quantile of Student's t with df degrees of freedom (table to 30, then the normal's 1.96 plus a little). */
function t95(df: number): number {
  const table = [12.71, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145, 2.131, 2.12, 2.11, 2.101, 2.093, 2.086, 2.08, 2.074, 2.069, 2.064, 2.06, 2.056, 2.052, 2.048, 2.045, 2.042];
  return table[df - 1] ?? 1.96 + 2.4 / df;
}

// A user of its own: one live session per user, and other benches sign HHTSU in on the same database.
const usersDb = await openDb({ databaseUrl: dbUrl.toString(), dataDir: null });
await insertUser(usersDb, { userId: 'BENCHAUDIT', userLevel: 'SU', mobileNo: '9000000099' });
// A pair's two servers sign in users of their own (a sign-in supersedes the user's session on the other server).
await insertUser(usersDb, { userId: 'BENCHAUDIU', userLevel: 'SU', mobileNo: '9000000098' });
await usersDb.close();
type Which = 'on' | 'off';
type Figures = { rps: number[]; p99: number[]; serverMs: number[]; dbMs: number[]; cpuMs: number[] };
const figures = (): Figures => ({ rps: [], p99: [], serverMs: [], dbMs: [], cpuMs: [] });
const results: Record<Which, Figures> = { on: figures(), off: figures() };
/** Each group's (or, with --switch, round's) ratio of requests/s with the trail on to off: the units of the interval. */
const unitRatios: number[] = [];
let idleCpuPerSecond = { server: 0, db: 0 };
const signIn = async (s: Server, user: string): Promise<Record<string, string>> => (await loginOverHttp(s.base, user)).headers();

/** What a server and the database use with no request at all (timers, listeners), taken off each turn's CPU. */
async function measureIdle(s: Server): Promise<void> {
  const cpu0 = await cpuNow(s);
  await new Promise((r) => setTimeout(r, 5_000));
  const cpu1 = await cpuNow(s);
  idleCpuPerSecond = { server: (cpu1.server - cpu0.server) / 5, db: (cpu1.db - cpu0.db) / 5 };
  console.log(`idle: the server's processes use ${(idleCpuPerSecond.server * 1000).toFixed(0)} ms of CPU a second with no request, the database ${(idleCpuPerSecond.db * 1000).toFixed(0)} ms (${pmPid !== undefined ? 'the whole cluster' : 'its backends only'})\n`);
}

/** One measured turn: kept with its state's figures and printed; returns its requests/s. */
async function turn(s: Server, auth: Record<string, string>, which: Which, label: string): Promise<number> {
  const r = await load(s, auth);
  if (r.errors) throw new Error(`calls failed with the trail ${which} (${r.errors}): the figures would not compare`);
  results[which].rps.push(r.rps);
  results[which].p99.push(r.p99);
  results[which].serverMs.push(r.serverMs);
  results[which].dbMs.push(r.dbMs);
  results[which].cpuMs.push(r.serverMs + r.dbMs);
  console.log(`| ${label} | ${which} | ${r.rps.toFixed(0)} | ${r.p99.toFixed(1)} | ${r.serverMs.toFixed(3)} | ${r.dbMs.toFixed(3)} | ${(r.serverMs + r.dbMs).toFixed(3)} | ${(r.hitRate * 100).toFixed(1)} % |`);
  return r.rps;
}
const TABLE_HEAD = '| trail | requests/s | p99 ms | CPU ms per request above idle: server | database | both | from the cache |\n|---|---|---|---|---|---|---|---|';
const aaNote = AA ? ' (A/A: the trail off in both)' : '';

if (SWITCH) {
  console.log(`# Audit trail cost (PostgreSQL ${DB_NAME}, one server of ${WORKERS} process(es), trail switched on and off${aaNote}, wrk with 50 connections, ${seconds} s turns, ${rounds} rounds, settle ${settleSeconds} s, ${new Date().toISOString()}, load average ${loadavg()[0]?.toFixed(1)})\n`);
  // Signed in again every 5 minutes, outside the measured turns: an access token expires within a long run.
  let auth = await signIn(server, 'BENCHAUDIT');
  let signedInAt = Date.now();
  // Warm-up, not counted: plans, caches, and the JIT's code for both ways (the first turns after a start ran slower).
  for (const on of [true, false]) {
    await setTrail(server, on && !AA);
    await load(server, auth, 10);
  }
  await measureIdle(server);
  console.log(`| round ${TABLE_HEAD}`);
  for (let i = 0; i < rounds; i += 1) {
    if (Date.now() - signedInAt > 5 * 60_000) {
      auth = await signIn(server, 'BENCHAUDIT');
      signedInAt = Date.now();
    }
    // ABBA order, so a drift of the machine's load during the run falls on both alike.
    const rps: Partial<Record<Which, number>> = {};
    for (const which of i % 2 === 0 ? (['on', 'off'] as const) : (['off', 'on'] as const)) {
      await setTrail(server, which === 'on' && !AA);
      if (settleSeconds > 0) runWrk({ url: `${server.base}/api/getVacantBerths`, headers: auth, bodies, seconds: settleSeconds });
      rps[which] = await turn(server, auth, which, String(i + 1));
    }
    unitRatios.push((rps.on ?? NaN) / (rps.off ?? NaN));
  }
} else {
  await server.stop(); // it seeded the database; each group starts servers of its own
  console.log(`# Audit trail cost (PostgreSQL ${DB_NAME}, ${groups} groups of two new servers of ${WORKERS} process(es), one with the trail on and one off${aaNote}, ${turnsPerGroup} turns each, wrk with 50 connections, ${seconds} s turns, ${new Date().toISOString()}, load average ${loadavg()[0]?.toFixed(1)})\n`);
  for (let g = 0; g < groups; g += 1) {
    // Which starts first and which user each signs in as change from group to group.
    const states: readonly Which[] = g % 2 === 0 ? ['on', 'off'] : ['off', 'on'];
    const pair: Partial<Record<Which, { server: Server; auth: Record<string, string> }>> = {};
    for (const [k, which] of states.entries()) {
      const s = await startServer(which === 'on' && !AA);
      pair[which] = { server: s, auth: await signIn(s, k === 0 ? 'BENCHAUDIT' : 'BENCHAUDIU') };
    }
    const { on, off } = pair;
    if (!on || !off) throw new Error('a group did not start both servers');
    try {
      // Warm-up, not counted: plans, caches, the JIT's code (a new server's first seconds run slower).
      for (const which of states) {
        const x = which === 'on' ? on : off;
        await load(x.server, x.auth, 10);
      }
      if (g === 0) {
        await measureIdle(on.server);
        console.log(`| group ${TABLE_HEAD}`);
      }
      // Turns alternate, each server's after the other's, starting with the one warmed up first: a server's turn right
      // after its own ran about 10 % faster than one after the other server's (in A/A runs), so an ABBA order, which
      // gives one state a turn after its own more often than the other, made the trail look 3 % dearer than it is.
      const logRps: Record<Which, number[]> = { on: [], off: [] };
      for (let t = 0; t < 2 * turnsPerGroup; t += 1) {
        const which = states[t % 2] as Which;
        const x = which === 'on' ? on : off;
        logRps[which].push(Math.log(await turn(x.server, x.auth, which, String(g + 1))));
      }
      unitRatios.push(Math.exp(mean(logRps.on) - mean(logRps.off)));
    } finally {
      await on.server.stop();
      await off.server.stop();
    }
  }
}
const auditAfter = Number((await client.query<{ n: string }>('SELECT coalesce(sum(n), 0) AS n FROM audit_batches')).rows[0]?.n);
await client.end();
const rpsOn = median(results.on.rps);
const rpsOff = median(results.off.rps);
console.log(`\nmedian requests/s: trail on ${rpsOn.toFixed(0)}, off ${rpsOff.toFixed(0)}: on/off ${(rpsOn / rpsOff).toFixed(3)} (cost ${((1 - rpsOn / rpsOff) * 100).toFixed(1)} %)`);
const cpuOn = median(results.on.cpuMs);
const cpuOff = median(results.off.cpuMs);
console.log(`median CPU per request (server processes + database backends): trail on ${cpuOn.toFixed(3)} ms, off ${cpuOff.toFixed(3)} ms: on/off ${(cpuOn / cpuOff).toFixed(3)} (cost ${((cpuOn / cpuOff - 1) * 100).toFixed(1)} %)`);
for (const part of ['serverMs', 'dbMs'] as const) {
  const on = median(results.on[part]);
  const off = median(results.off[part]);
  console.log(`  of which ${part === 'serverMs' ? 'the server' : 'the database'}: on ${on.toFixed(3)} ms, off ${off.toFixed(3)} ms, difference ${((on - off) * 1000).toFixed(1)} µs per request`);
}
// Group by group (or round by round): the turns compared are next to each other in time, on the same servers.
const unit = SWITCH ? 'round' : 'group';
const logs = unitRatios.map((x) => Math.log(x));
const meanLog = mean(logs);
const sdLog = Math.sqrt(logs.reduce((a, b) => a + (b - meanLog) ** 2, 0) / (logs.length - 1));
const half = (t95(logs.length - 1) * sdLog) / Math.sqrt(logs.length);
const costPct = (logRatio: number): string => ((1 - Math.exp(logRatio)) * 100).toFixed(1);
const sorted = [...unitRatios].sort((a, b) => a - b);
console.log(`requests/s on/off ${unit} by ${unit}: ${sorted.map((x) => x.toFixed(3)).join(', ')}; median ${median(sorted).toFixed(3)}, quartiles ${pct(sorted, 0.25).toFixed(3)}-${pct(sorted, 0.75).toFixed(3)}`);
console.log(`cost by the ${unit}s' ratios (geometric mean of ${unitRatios.length}): ${costPct(meanLog)} %, 95 % confidence interval ${costPct(meanLog + half)} to ${costPct(meanLog - half)} %`);
console.log(`median p99: trail on ${median(results.on.p99).toFixed(1)} ms, off ${median(results.off.p99).toFixed(1)} ms`);
console.log(`audit entries written during the run: ${auditAfter - auditBefore}; load average at the end ${loadavg().map((x) => x.toFixed(1)).join(' ')}`);
await server.stop();
