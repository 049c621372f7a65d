/**
 * `npm run bench -- --mixed --database-url URL [--seconds N] [--readers N] [--cache-off] [--compare DIR [--rounds N]]
 * [--cpu-prof DIR] [--function-stats]`: terminals and officers at once, over HTTP, on PostgreSQL. Clones the small data set (database hht_bench_mixed_src, seeded once by a first
 * server start) into a fresh database, starts the built server on it (dist/server, one process, feed off), issues
 * device credentials, and measures:
 * 1. sync alone: batches of 200 fresh CHECK records (each passenger once: new events, never the same passenger again),
 *    one batch at a time, records/s and p99 batch time;
 * 2. readers alone: N connections (50) reading a light report (getVacantBerths) from wrk, req/s and p99;
 * 3. both at once, the same figures for each side.
 * Numbers, not pass/fail; the load average is printed with them (the machine may be shared). With --compare DIR the
 * server built in DIR (the old code) and this one run in alternate rounds on fresh clones, and the medians' ratios
 * are printed.
 */
import { execFile, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openDb, type Db } from '../../src/server/db';
import { istDate } from '../../src/server/clock';
import { issueCredential } from '../../src/server/hht/credentials';
import { checkDefinitions } from '../../src/shared/definitions/validate';
import { readDefinitionFiles } from '../../src/server/reports/definition-files';
import type { HhtRecord } from '../../src/shared/hht-sync';
import { insertUser, loginOverHttp } from '../support/login';
import { freePort } from '../support/server';
import { sampleFilter } from '../support/sample-filters';
import { serverReady } from '../support/server-ready';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}
const adminUrl = arg('database-url') ?? process.env.TEST_DATABASE_URL;
if (!adminUrl) throw new Error('--mixed needs PostgreSQL: pass --database-url or set TEST_DATABASE_URL');
const seconds = Number(arg('seconds') ?? '10');
const readers = Number(arg('readers') ?? '50');
const BATCH = 200;
const LIGHT = 'getVacantBerths';
const SOURCE_DB = 'hht_bench_mixed_src';
const pct = (xs: number[], p: number): number => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))] ?? NaN;
const load = (): string => loadavg().map((x) => x.toFixed(1)).join(' ');

const urlOf = (name: string): string => {
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  return u.toString();
};
const admin = async (sql: string): Promise<unknown[]> => {
  const c = new pg.Client({ connectionString: adminUrl });
  await c.connect();
  try {
    return (await c.query(sql)).rows;
  } finally {
    await c.end();
  }
};

/** --cpu-prof DIR: the server writes a V8 CPU profile there when it stops (where its event loop spends the run). */
const cpuProfDir = arg('cpu-prof');

async function startServer(databaseUrl: string, extraEnv: Record<string, string> = {}, cwd = process.cwd()): Promise<{ base: string; stop: () => Promise<void> }> {
  const port = await freePort();
  const server = spawn(process.execPath, [...(cpuProfDir ? ['--cpu-prof', `--cpu-prof-dir=${cpuProfDir}`] : []), 'dist/server/main.js'], {
    cwd,
    env: {
      ...process.env, PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: databaseUrl, HHT_WORKERS: arg('workers') ?? '1',
      HHT_SEED: 'demo', HHT_SEED_SCALE: 'small', HHT_FEED: 'off', HHT_TEST_HOOKS: '1', LOG_LEVEL: 'warn',
      HHT_DATA_DIR: mkdtempSync(join(tmpdir(), 'hht-unused-')), ...extraEnv,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const kill = (): void => {
    if (server.exitCode === null) server.kill('SIGTERM');
  };
  process.on('exit', kill);
  await serverReady(server, { timeoutMs: 900_000 });
  return {
    base: `http://127.0.0.1:${port}`,
    stop: async () => {
      if (server.exitCode !== null) return;
      const exited = new Promise((r) => server.once('exit', r));
      kill();
      await exited;
    },
  };
}

interface Device { deviceId: string; token: string; checks: { beatId: number; psgnId: number }[] }

/**
 * The devices of the beats of the last 30 days' runs (a credential issued for each), each with the passengers of its
 * beats' coaches: a record names a passenger of its beat's coaches (the sync refuses others), and every passenger
 * belongs to one device's list, so no record repeats a passenger.
 */
async function devices(db: Db, today: string): Promise<Device[]> {
  const rows = (await db.query<{ device_id: string; beat_id: string; psgn_id: string }>(
    `SELECT b.device_id, b.beat_id::text, p.psgn_id::text FROM beats b JOIN train_runs tr USING (run_id)
       JOIN passengers p ON p.run_id = b.run_id AND p.coach_id = ANY(b.coaches)
      WHERE b.device_id IS NOT NULL AND tr.start_date BETWEEN $1::date - 30 AND $1::date - 1
      ORDER BY b.device_id, b.beat_id, p.psgn_id`,
    [today],
  )).rows;
  const byDevice = new Map<string, Device>();
  for (const r of rows) {
    let dev = byDevice.get(r.device_id);
    if (!dev) {
      dev = { deviceId: r.device_id, token: (await issueCredential(db, r.device_id, 'BENCH', new Date())).token, checks: [] };
      byDevice.set(r.device_id, dev);
    }
    dev.checks.push({ beatId: Number(r.beat_id), psgnId: Number(r.psgn_id) });
  }
  return [...byDevice.values()];
}

/** Sync batches one after another until `until`, each of 200 records for passengers not used before. */
async function syncLoop(base: string, devs: Device[], until: number, tag: string): Promise<{ records: number; stored: number; seconds: number; batchMs: number[] }> {
  const batchMs: number[] = [];
  let records = 0;
  let stored = 0;
  let n = 0;
  const t0 = performance.now();
  while (Date.now() < until) {
    const dev = devs.find((d) => d.checks.length >= BATCH);
    if (!dev) throw new Error('no fresh passengers left: shorten --seconds');
    const checks = dev.checks.splice(0, BATCH);
    const now = Date.now();
    const recs: HhtRecord[] = checks.map((c, i) => ({
      id: `${tag}-${n}-${i}`, type: 'CHECK', beatId: c.beatId, eventType: i % 13 === 0 ? 'NT' : 'O', psgnId: c.psgnId,
      deviceTime: new Date(now - (BATCH - i) * 1000).toISOString(),
    }));
    const s = performance.now();
    const res = await fetch(`${base}/api/hht/sync`, {
      method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${dev.token}` },
      body: JSON.stringify({ batchId: `${tag}-${n}`, records: recs }),
    });
    const body = await res.text();
    if (!res.ok) throw new Error(`sync: ${res.status} ${body.slice(0, 300)}`);
    batchMs.push(performance.now() - s);
    records += recs.length;
    stored += Number((JSON.parse(body) as { stored?: unknown }).stored ?? 0);
    n += 1;
  }
  return { records, stored, seconds: (performance.now() - t0) / 1000, batchMs };
}

/**
 * `count` connections reading the light report for `secs` seconds, from wrk (another process, in C): readers in this
 * process would share its event loop with the sync loop, and the bench would measure its own client.
 */
async function readLoop(base: string, headers: Record<string, string>, body: Record<string, unknown>, count: number, secs: number): Promise<{ rps: number; p99: number; errors: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'hht-mixed-wrk-'));
  const lua = join(dir, 'post.lua');
  writeFileSync(lua, [
    'wrk.method = "POST"',
    `wrk.body = ${JSON.stringify(JSON.stringify(body))}`,
    ...Object.entries({ ...headers, 'Content-Type': 'application/json' }).map(([k, v]) => `wrk.headers[${JSON.stringify(k)}] = ${JSON.stringify(v)}`),
  ].join('\n'));
  const text = await new Promise<string>((resolve, reject) => {
    execFile('wrk', ['-t2', `-c${count}`, `-d${secs}s`, '--latency', '-s', lua, `${base}/api/${LIGHT}`], { encoding: 'utf8' }, (err, out) => (err ? reject(err) : resolve(out)));
  });
  const m = /\s99%\s+([\d.]+)(us|ms|s)/.exec(text);
  const errors = [/Non-2xx or 3xx responses: \d+/.exec(text)?.[0], /Socket errors:.*/.exec(text)?.[0]].filter(Boolean).join('; ');
  return {
    rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(text)?.[1]),
    p99: m ? Number(m[1]) * (m[2] === 'us' ? 0.001 : m[2] === 's' ? 1000 : 1) : NaN,
    errors,
  };
}

/**
 * What the database's sessions of the bench database are doing, sampled every 50 ms until `until`: per kind of
 * session (a report read, a write, the rest) and state, the share of samples waiting and on what (locks, I/O, the
 * client: an idle session in a transaction waits on the server's event loop).
 */
async function sampleWaits(url: string, until: number): Promise<Map<string, number>> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  const counts = new Map<string, number>();
  try {
    while (Date.now() < until) {
      const rows = (await c.query<{ what: string }>(
        `SELECT (CASE WHEN usename = 'hht_report' OR query ~* '^\\s*(SELECT|WITH)' THEN 'read' WHEN query ~* '(INSERT|UPDATE|DELETE|COMMIT|hht_)' THEN 'write' ELSE 'other' END)
                || ' ' || state || coalesce(' ' || wait_event_type || ':' || wait_event, '') AS what
           FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND state <> 'idle'`,
      )).rows;
      for (const r of rows) counts.set(r.what, (counts.get(r.what) ?? 0) + 1);
      counts.set('(samples)', (counts.get('(samples)') ?? 0) + 1);
      await new Promise((r) => setTimeout(r, 50));
    }
  } finally {
    await c.end();
  }
  return counts;
}

interface Round { label: string; alone: number; aloneP99: number; readers: number; readersP99: number; mixed: number; mixedP99: number; mixedReaders: number; mixedReadersP99: number }

/**
 * One round on a fresh clone of the data set: the server built in `serverDir` started on it, sync alone, readers
 * alone, both at once; the database's sessions sampled during the last phase.
 */
async function measure(serverDir: string, label: string): Promise<Round> {
  const name = `hht_bench_mixed_${process.pid}`;
  await admin(`CREATE DATABASE ${name} TEMPLATE ${SOURCE_DB}`);
  const dbUrl = urlOf(name);
  if (functionStats) await admin(`ALTER DATABASE ${name} SET track_functions = 'pl'`);
  const db = await openDb({ databaseUrl: dbUrl, dataDir: null });
  try {
    // The server's start brings a clone of an older day's data set up to today (its window fill) before anything is read.
    const server = await startServer(dbUrl, process.argv.includes('--cache-off') ? { HHT_REPORT_CACHE_MS: '0' } : {}, serverDir);
    try {
      const today = istDate(new Date());
      const devs = await devices(db, today);
      await insertUser(db, { userId: 'MIXEDSU', userLevel: 'SU' });
      const report = checkDefinitions(readDefinitionFiles(process.cwd())).reports.find((r) => r.views.some((v) => v.endpoint === LIGHT));
      if (!report) throw new Error(`no ${LIGHT} report`);
      const filter = await sampleFilter(db, report, today);
      const headers = (await loginOverHttp(server.base, 'MIXEDSU')).headers();
      console.log(`\n## ${label} (${serverDir}), ${devs.length} devices, load average before: ${load()}\n`);
      console.log('| phase | sync records/s | stored | sync p99 ms/batch | readers req/s | readers p99 ms |\n|---|---:|---:|---:|---:|---:|');
      const alone = await syncLoop(server.base, devs, Date.now() + seconds * 1000, 'alone');
      console.log(`| sync alone | ${(alone.records / alone.seconds).toFixed(0)} | ${alone.stored} of ${alone.records} | ${pct(alone.batchMs, 0.99).toFixed(0)} | | |`);
      const r = await readLoop(server.base, headers, filter, readers, seconds);
      console.log(`| readers alone | | | | ${r.rps.toFixed(0)} | ${r.p99.toFixed(0)} |${r.errors ? ` ${r.errors}` : ''}`);
      const until = Date.now() + seconds * 1000;
      const [s, rr, waits] = await Promise.all([
        syncLoop(server.base, devs, until, 'mixed'), readLoop(server.base, headers, filter, readers, seconds), sampleWaits(dbUrl, until),
      ]);
      console.log(`| both at once | ${(s.records / s.seconds).toFixed(0)} | ${s.stored} of ${s.records} | ${pct(s.batchMs, 0.99).toFixed(0)} | ${rr.rps.toFixed(0)} | ${rr.p99.toFixed(0)} |${rr.errors ? ` ${rr.errors}` : ''}`);
      console.log(`\nload average after: ${load()}`);
      const samples = waits.get('(samples)') ?? 1;
      console.log('\nDatabase sessions during "both at once" (pg_stat_activity every 50 ms; mean sessions per sample):');
      for (const [what, n] of [...waits].filter(([w]) => w !== '(samples)').sort((a, b) => b[1] - a[1])) console.log(`- ${what}: ${(n / samples).toFixed(2)}`);
      if (functionStats) {
        const fns = (await db.query<{ funcname: string; calls: string; total: number; self: number }>(
          'SELECT funcname, calls::text, total_time AS total, self_time AS self FROM pg_stat_user_functions ORDER BY total_time DESC LIMIT 15',
        )).rows;
        console.log('\nDatabase functions over the whole run (ms): name, calls, total, self');
        for (const f of fns) console.log(`- ${f.funcname}: ${f.calls}, ${f.total.toFixed(0)}, ${f.self.toFixed(0)}`);
      }
      return {
        label, alone: alone.records / alone.seconds, aloneP99: pct(alone.batchMs, 0.99), readers: r.rps, readersP99: r.p99,
        mixed: s.records / s.seconds, mixedP99: pct(s.batchMs, 0.99), mixedReaders: rr.rps, mixedReadersP99: rr.p99,
      };
    } finally {
      await server.stop();
    }
  } finally {
    await db.close();
    await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
}

// --function-stats: time spent in each of our database functions (rollup upkeep at commit among them), per round.
const functionStats = process.argv.includes('--function-stats');
// --compare DIR: the server built in another checkout (the old code), measured in alternate rounds with this one.
const compareDir = arg('compare');
const rounds = Number(arg('rounds') ?? (compareDir ? '2' : '1'));
if (!process.argv.includes('--no-build')) execFileSync(process.execPath, ['scripts/build-server.mjs'], { stdio: 'inherit' });

// ---- the data: a clone of a small data set seeded once (by this checkout's server) ----
if ((await admin(`SELECT 1 FROM pg_database WHERE datname = '${SOURCE_DB}'`)).length === 0) {
  await admin(`CREATE DATABASE ${SOURCE_DB}`);
  console.error(`seeding ${SOURCE_DB} through a first server start (minutes, once)`);
  await (await startServer(urlOf(SOURCE_DB))).stop();
}
console.log(`# Mixed: sync over HTTP (batches of ${BATCH} fresh CHECK records) and ${readers} readers of ${LIGHT} (wrk), ${seconds} s each, ` +
  `report cache ${process.argv.includes('--cache-off') ? 'off' : 'on'}, ${rounds} round(s)${compareDir ? `, old (${compareDir}) and new alternating` : ''}`);
const results: Round[] = [];
for (let i = 0; i < rounds; i += 1) {
  // Alternating which goes first, so neither always meets the machine's load first.
  const order = compareDir ? (i % 2 === 0 ? [[compareDir, 'old'], [process.cwd(), 'new']] : [[process.cwd(), 'new'], [compareDir, 'old']]) : [[process.cwd(), 'this']];
  for (const [dir, label] of order) results.push(await measure(dir ?? process.cwd(), `${label} round ${i + 1}`));
}
if (results.length > 1) {
  const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)] ?? NaN;
  const labels = [...new Set(results.map((r) => r.label.split(' ')[0] ?? ''))];
  console.log(`\n## Medians over the rounds, load average ${load()}\n`);
  console.log('| server | sync alone rec/s | p99 ms | readers alone req/s | p99 ms | both: sync rec/s | sync p99 ms | both: readers req/s | readers p99 ms |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|');
  const med: Record<string, Round> = {};
  for (const l of labels) {
    const rs = results.filter((r) => r.label.startsWith(`${l} `));
    const m = (f: (r: Round) => number): number => median(rs.map(f));
    const row: Round = {
      label: l, alone: m((r) => r.alone), aloneP99: m((r) => r.aloneP99), readers: m((r) => r.readers), readersP99: m((r) => r.readersP99),
      mixed: m((r) => r.mixed), mixedP99: m((r) => r.mixedP99), mixedReaders: m((r) => r.mixedReaders), mixedReadersP99: m((r) => r.mixedReadersP99),
    };
    med[l] = row;
    console.log(`| ${l} | ${row.alone.toFixed(0)} | ${row.aloneP99.toFixed(0)} | ${row.readers.toFixed(0)} | ${row.readersP99.toFixed(0)} | ${row.mixed.toFixed(0)} | ${row.mixedP99.toFixed(0)} | ${row.mixedReaders.toFixed(0)} | ${row.mixedReadersP99.toFixed(0)} |`);
  }
  if (med.old && med.new) {
    console.log(`\nnew / old: sync alone ${(med.new.alone / med.old.alone).toFixed(2)}x, sync under readers ${(med.new.mixed / med.old.mixed).toFixed(2)}x, ` +
      `readers under sync ${(med.new.mixedReaders / med.old.mixedReaders).toFixed(2)}x (req/s)`);
  }
}
