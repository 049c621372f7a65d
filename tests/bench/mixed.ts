/**
 * `npm run bench -- --mixed --database-url URL [--seconds N] [--readers N] [--cache-off]`: terminals and officers at
 * once, over HTTP, on PostgreSQL. Clones the small data set (database hht_bench_mixed_src, seeded once by a first
 * server start) into a fresh database, starts the built server on it (dist/server, one process, feed off), issues
 * device credentials, and measures:
 * 1. sync alone: batches of 200 fresh CHECK records (each passenger once: new events, never the same passenger again),
 *    one batch at a time, records/s and p99 batch time;
 * 2. readers alone: N connections (50) reading a light report (getVacantBerths), req/s and p99;
 * 3. both at once, the same figures for each side.
 * Numbers, not pass/fail; the load average is printed with them (the machine may be shared).
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
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

async function startServer(databaseUrl: string, extraEnv: Record<string, string> = {}): Promise<{ base: string; stop: () => Promise<void> }> {
  const port = await freePort();
  const server = spawn(process.execPath, ['dist/server/main.js'], {
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

interface Device { deviceId: string; beatId: number; token: string; psgns: number[] }

/**
 * The runs of the last seven days, each with one beat's device (a credential issued for it) and all the run's
 * passengers: every passenger belongs to one device's list, so no record repeats a passenger.
 */
async function devices(db: Db, today: string): Promise<Device[]> {
  const beats = (await db.query<{ beat_id: number; run_id: number; device_id: string }>(
    `SELECT DISTINCT ON (b.run_id) b.beat_id, b.run_id, b.device_id FROM beats b JOIN train_runs tr USING (run_id)
      WHERE b.device_id IS NOT NULL AND tr.start_date BETWEEN $1::date - 7 AND $1::date - 1 ORDER BY b.run_id, b.beat_no`,
    [today],
  )).rows;
  const out: Device[] = [];
  const tokens = new Map<string, string>();
  for (const b of beats) {
    const psgns = (await db.query<{ id: string }>('SELECT psgn_id::text AS id FROM passengers WHERE run_id = $1 ORDER BY psgn_id', [b.run_id])).rows.map((r) => Number(r.id));
    let token = tokens.get(b.device_id);
    if (!token) {
      token = (await issueCredential(db, b.device_id, 'BENCH', new Date())).token;
      tokens.set(b.device_id, token);
    }
    out.push({ deviceId: b.device_id, beatId: Number(b.beat_id), token, psgns });
  }
  return out;
}

/** Sync batches one after another until `until`, each of 200 records for passengers not used before. */
async function syncLoop(base: string, devs: Device[], until: number, tag: string): Promise<{ records: number; stored: number; seconds: number; batchMs: number[] }> {
  const batchMs: number[] = [];
  let records = 0;
  let stored = 0;
  let n = 0;
  const t0 = performance.now();
  while (Date.now() < until) {
    const dev = devs.find((d) => d.psgns.length >= BATCH);
    if (!dev) throw new Error('no fresh passengers left: shorten --seconds');
    const psgns = dev.psgns.splice(0, BATCH);
    const now = Date.now();
    const recs: HhtRecord[] = psgns.map((p, i) => ({
      id: `${tag}-${n}-${i}`, type: 'CHECK', beatId: dev.beatId, eventType: i % 13 === 0 ? 'NT' : 'O', psgnId: p,
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

/** `count` connections reading the light report in a loop until `until`. */
async function readLoop(base: string, headers: Record<string, string>, body: Record<string, unknown>, count: number, until: number): Promise<{ requests: number; seconds: number; ms: number[] }> {
  const ms: number[] = [];
  const t0 = performance.now();
  await Promise.all(Array.from({ length: count }, async () => {
    while (Date.now() < until) {
      const s = performance.now();
      const res = await fetch(`${base}/api/${LIGHT}`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      await res.arrayBuffer();
      if (!res.ok) throw new Error(`${LIGHT}: ${res.status}`);
      ms.push(performance.now() - s);
    }
  }));
  return { requests: ms.length, seconds: (performance.now() - t0) / 1000, ms };
}

// ---- the data: a clone of a small data set seeded once ----
if ((await admin(`SELECT 1 FROM pg_database WHERE datname = '${SOURCE_DB}'`)).length === 0) {
  await admin(`CREATE DATABASE ${SOURCE_DB}`);
  console.error(`seeding ${SOURCE_DB} through a first server start (minutes, once)`);
  await (await startServer(urlOf(SOURCE_DB))).stop();
}
const name = `hht_bench_mixed_${process.pid}`;
await admin(`CREATE DATABASE ${name} TEMPLATE ${SOURCE_DB}`);
const dbUrl = urlOf(name);
const db = await openDb({ databaseUrl: dbUrl, dataDir: null });
try {
  if (!process.argv.includes('--no-build')) execFileSync(process.execPath, ['scripts/build-server.mjs'], { stdio: 'inherit' });
  // The server's start brings a clone of an older day's data set up to today (its window fill) before anything is read.
  const server = await startServer(dbUrl, process.argv.includes('--cache-off') ? { HHT_REPORT_CACHE_MS: '0' } : {});
  try {
    const today = istDate(new Date());
    const devs = await devices(db, today);
    await insertUser(db, { userId: 'MIXEDSU', userLevel: 'SU' });
    const report = checkDefinitions(readDefinitionFiles(process.cwd())).reports.find((r) => r.views.some((v) => v.endpoint === LIGHT));
    if (!report) throw new Error(`no ${LIGHT} report`);
    const filter = await sampleFilter(db, report, today);
    const su = await loginOverHttp(server.base, 'MIXEDSU');
    const headers = su.headers();
    console.log(`# Mixed: sync over HTTP (batches of ${BATCH} fresh CHECK records) and ${readers} readers of ${LIGHT}, ${seconds} s each, ` +
      `report cache ${process.argv.includes('--cache-off') ? 'off' : 'on'}, ${devs.length} devices`);
    console.log(`load average before: ${load()}\n`);
    console.log('| phase | sync records/s | stored | sync p99 ms/batch | readers req/s | readers p99 ms |\n|---|---:|---:|---:|---:|---:|');
    const alone = await syncLoop(server.base, devs, Date.now() + seconds * 1000, 'alone');
    console.log(`| sync alone | ${(alone.records / alone.seconds).toFixed(0)} | ${alone.stored} of ${alone.records} | ${pct(alone.batchMs, 0.99).toFixed(0)} | | |`);
    const r = await readLoop(server.base, headers, filter, readers, Date.now() + seconds * 1000);
    console.log(`| readers alone | | | | ${(r.requests / r.seconds).toFixed(0)} | ${pct(r.ms, 0.99).toFixed(0)} |`);
    const until = Date.now() + seconds * 1000;
    const [s, rr] = await Promise.all([syncLoop(server.base, devs, until, 'mixed'), readLoop(server.base, headers, filter, readers, until)]);
    console.log(`| both at once | ${(s.records / s.seconds).toFixed(0)} | ${s.stored} of ${s.records} | ${pct(s.batchMs, 0.99).toFixed(0)} | ${(rr.requests / rr.seconds).toFixed(0)} | ${pct(rr.ms, 0.99).toFixed(0)} |`);
    console.log(`\nload average after: ${load()}`);
  } finally {
    await server.stop();
  }
} finally {
  await db.close();
  await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
}
