import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { buildTestApp } from '../support/app';
import type { Config } from '../../src/server/config';
import { insertUser, loginAs, type SignedIn } from '../support/login';
import { hasPgBinaries, startPrimaryWithReplica, waitForReplay, withDatabase, type PrimaryWithReplica } from '../support/pg-cluster';
import { openDb, type Db } from '../../src/server/db';
import { openPg } from '../../src/server/db/pg-driver';
import { migrate } from '../../src/server/db/migrate';
import { metricsRegistry } from '../../src/server/metrics/metrics';
import { classifyReplicaError, hasReplicas, parseLsn, withReplicas, type RoutedDb } from '../../src/server/db/replicas';

/** A report whose rows say which server answered (pg_is_in_recovery() is true on a replica only) and a zone name. */
const whereReport = JSON.stringify({
  id: 'where',
  title: 'Where',
  endpoint: 'get_where',
  filter: { schema: { type: 'object', properties: {} } },
  columns: [
    { field: 'on_replica', headerName: 'On replica' },
    { field: 'zone_code', headerName: 'Zone' },
    { field: 'name', headerName: 'Name' },
  ],
  source: { sql: 'SELECT pg_is_in_recovery() AS on_replica, zone_code, name FROM zones WHERE {{scope}}', scope: { zone: 'zone_code' } },
});

const waitUntil = async (check: () => Promise<boolean>, ms: number): Promise<void> => {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
};

describe('parts of replica routing', () => {
  it('orders WAL positions and sorts errors into down, retry and the read\'s own', () => {
    expect(parseLsn('0/16B3748') < parseLsn('0/16B3750')).toBe(true);
    expect(parseLsn('1/0') > parseLsn('0/FFFFFFFF')).toBe(true);
    expect(() => parseLsn('nonsense')).toThrow(/WAL position/);
    expect(classifyReplicaError(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' }))).toBe('down');
    expect(classifyReplicaError(Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }))).toBe('down');
    expect(classifyReplicaError(new Error('Connection terminated unexpectedly'))).toBe('down');
    expect(classifyReplicaError(Object.assign(new Error('database "x" does not exist'), { code: '3D000' }))).toBe('down');
    expect(classifyReplicaError(Object.assign(new Error('canceling statement due to conflict with recovery'), { code: '40001' }))).toBe('retry');
    expect(classifyReplicaError(Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' }))).toBe('none');
    expect(classifyReplicaError(Object.assign(new Error('permission denied for table users'), { code: '42501' }))).toBe('none');
  });
});

describe.skipIf(!hasPgBinaries())('read replicas: a real primary and a pg_basebackup streaming replica', () => {
  let cluster: PrimaryWithReplica;
  let primaryUrl: string;
  let replicaUrl: string;
  let primary: pg.Client;
  let root: string;
  /**
   * The apps here report where each read ran (pg_is_in_recovery): the report result cache would answer a repeated
   * call from memory wherever it first ran, so it is off; the cache's own behaviour with replicas is tested in
   * report-cache.test.ts and tests/unit/result-cache.test.ts.
   */
  const routingConfig = (): Partial<Config> => ({ rootDir: root, reportCache: { ttlMs: 0, maxBytes: 0 } });
  /** The app of most tests: strict routing (max lag 0), as the PostgreSQL API suite runs in CI. */
  let db: RoutedDb;
  let app: FastifyInstance;
  let su: SignedIn;

  beforeAll(async () => {
    cluster = await startPrimaryWithReplica();
    const admin = new pg.Client({ connectionString: cluster.primaryUrl });
    await admin.connect();
    await admin.query('CREATE DATABASE hht_replica_case');
    await admin.end();
    primaryUrl = withDatabase(cluster.primaryUrl, 'hht_replica_case');
    replicaUrl = withDatabase(cluster.replicaUrl, 'hht_replica_case');
    const setup = await openPg(primaryUrl);
    await migrate(setup);
    await setup.query("INSERT INTO zones (zone_code, name) VALUES ('NR', 'Northern Railway') ON CONFLICT (zone_code) DO NOTHING");
    await setup.close();
    await waitForReplay(primaryUrl, cluster.replicaUrl, 'hht_replica_case');
    primary = new pg.Client({ connectionString: primaryUrl });
    await primary.connect();

    root = mkdtempSync(join(tmpdir(), 'hht-replica-defs-'));
    cpSync('reports', join(root, 'reports'), { recursive: true });
    cpSync('schemas', join(root, 'schemas'), { recursive: true });
    cpSync('menu.json', join(root, 'menu.json'));
    writeFileSync(join(root, 'reports', 'where.json'), whereReport);

    const opened = await openDb({ databaseUrl: primaryUrl, replicaUrls: [replicaUrl], replicaMaxLagMs: 0, dataDir: null });
    if (!hasReplicas(opened)) throw new Error('openDb with replica URLs must route reads');
    db = opened;
    app = await buildTestApp(db, { config: routingConfig() });
    // One session per user: each app of these tests signs its own user in.
    for (const userId of ['REPLSU', 'REPLA', 'REPLB', 'REPLC']) await insertUser(db, { userId, userLevel: 'SU' });
    su = await loginAs(app, 'REPLSU');
  }, 120_000);

  afterAll(async () => {
    await app?.close();
    await db?.close();
    await primary?.end();
    await cluster?.stop();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  const where = async (a: FastifyInstance = app, who: SignedIn = su) => {
    const res = await a.inject({ method: 'POST', url: '/api/get_where', headers: who.headers(), payload: {} });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ rows: { on_replica: boolean; zone_code: string; name: string }[] }>().rows;
  };

  it('serves reports from the replica (pg_is_in_recovery() in the report, sessions in pg_stat_activity), with what was just written', async () => {
    const before = db.replicas.counts();
    // Written on the primary just now: strict routing reads the replica only once it has replayed this.
    await primary.query("UPDATE zones SET name = 'Northern Railway (new)' WHERE zone_code = 'NR'");
    const rows = await where();
    expect(rows).toEqual([{ on_replica: true, zone_code: 'NR', name: 'Northern Railway (new)' }]);
    expect(db.replicas.counts().replica).toBe(before.replica + 1);
    expect(db.replicas.status()).toEqual([expect.objectContaining({ state: 'healthy', failures: 0 })]);
    // Which replica served, by name (the metrics' hht_db_reads_total{served_by="replica",replica=...}).
    const name = db.replicas.status()[0]?.name ?? '';
    expect(db.replicas.counts().byReplica[name]).toBe((before.byReplica[name] ?? 0) + 1);
    const scraped = await metricsRegistry.metrics();
    expect(scraped).toMatch(new RegExp(`^hht_db_reads_total\\{served_by="replica",replica="${name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}"\\} [1-9]\\d*$`, 'm'));

    // The report's SQL was the last statement of a session on the replica, under our application_name; no
    // session on the primary ran it.
    const ranReport = "SELECT count(*)::int AS n FROM pg_stat_activity WHERE pid <> pg_backend_pid() AND query LIKE '%AS on_replica, zone_code%'";
    const onReplica = new pg.Client({ connectionString: replicaUrl });
    await onReplica.connect();
    const sessions = await onReplica.query<{ n: number }>(`${ranReport} AND application_name = 'hht-portal-replica-read'`);
    await onReplica.end();
    expect(sessions.rows[0]?.n).toBeGreaterThan(0);
    expect((await primary.query<{ n: number }>(ranReport)).rows[0]?.n).toBe(0);

    // Export cursors (Db.iterate) read the replica too.
    const batches: { r: boolean }[][] = [];
    for await (const b of db.iterate<{ r: boolean }>('SELECT pg_is_in_recovery() AS r FROM generate_series(1, 5)', [], { batchSize: 2 })) batches.push(b);
    expect(batches.flat()).toEqual(Array.from({ length: 5 }, () => ({ r: true })));
  });

  it('sends writes and the reads right after them to the primary: sign-in, session check, supersede, feedback', async () => {
    const user = await loginAs(app, 'REPLSU'); // supersedes su's session: written on the primary
    const profile = await app.inject({ method: 'GET', url: '/api/userprofile', headers: user.headers() });
    expect(profile.statusCode).toBe(200); // the session check right after sign-in saw the new session
    const old = await app.inject({ method: 'GET', url: '/api/userprofile', headers: su.headers() });
    expect(old.statusCode).toBe(401);
    su = user;

    const sent = await app.inject({ method: 'POST', url: '/api/dashboard-feedback', headers: su.headers(), payload: { category: 'Performance', rating: 4, message: 'Replica check' } });
    expect(sent.statusCode, sent.body).toBe(201);
    const stored = await primary.query("SELECT 1 FROM feedback WHERE user_id = 'REPLSU'");
    expect(stored.rows).toHaveLength(1);
    const sessions = await primary.query<{ n: number }>("SELECT count(*)::int AS n FROM auth_sessions WHERE user_id = 'REPLSU' AND revoked_at IS NULL");
    expect(sessions.rows[0]?.n).toBe(1);
    // The replica cannot take writes at all: anything that writes through it would fail loudly, not silently.
    const onReplica = new pg.Client({ connectionString: replicaUrl });
    await onReplica.connect();
    await expect(onReplica.query("UPDATE zones SET name = name WHERE zone_code = 'NR'")).rejects.toThrow(/read-only transaction/);
    await onReplica.end();
  });

  it('skips a lagging replica: within the allowed lag it serves (stale) reads, past it the primary does', async () => {
    const lenient = await withReplicas(await openPg(primaryUrl), { urls: [replicaUrl], maxLagMs: 60_000, probeIntervalMs: 3_600_000 });
    const tight = await withReplicas(await openPg(primaryUrl), { urls: [replicaUrl], maxLagMs: 200, probeIntervalMs: 3_600_000 });
    const lenientApp = await buildTestApp(lenient, { config: routingConfig() });
    const tightApp = await buildTestApp(tight, { config: routingConfig() });
    const replicaAdmin = new pg.Client({ connectionString: replicaUrl });
    await replicaAdmin.connect();
    try {
      await replicaAdmin.query('SELECT pg_wal_replay_pause()');
      await primary.query("UPDATE zones SET name = 'Northern Railway (paused)' WHERE zone_code = 'NR'");
      await lenient.replicas.probeNow();
      await tight.replicas.probeNow();
      await new Promise((r) => setTimeout(r, 400));
      await lenient.replicas.probeNow();
      await tight.replicas.probeNow();
      expect(tight.replicas.status()[0]).toMatchObject({ state: 'lagging' });
      expect(tight.replicas.status()[0]?.lagMs).toBeGreaterThanOrEqual(200);
      expect(lenient.replicas.status()[0]).toMatchObject({ state: 'healthy' });

      // Sign-in works on both (the primary); the lenient app reads the paused replica, the tight one the primary.
      const a = await loginAs(lenientApp, 'REPLA');
      expect(await where(lenientApp, a)).toEqual([{ on_replica: true, zone_code: 'NR', name: 'Northern Railway (new)' }]);
      const b = await loginAs(tightApp, 'REPLB');
      expect(await where(tightApp, b)).toEqual([{ on_replica: false, zone_code: 'NR', name: 'Northern Railway (paused)' }]);
      // Strict routing waits briefly for the paused replica, then reads the primary: current data, no error.
      su = await loginAs(app, 'REPLSU');
      expect(await where()).toEqual([{ on_replica: false, zone_code: 'NR', name: 'Northern Railway (paused)' }]);

      await replicaAdmin.query('SELECT pg_wal_replay_resume()');
      await waitForReplay(primaryUrl, cluster.replicaUrl, 'hht_replica_case');
      await tight.replicas.probeNow();
      expect(tight.replicas.status()[0]).toMatchObject({ state: 'healthy', lagMs: 0 });
      expect((await where(tightApp, b))[0]).toMatchObject({ on_replica: true, name: 'Northern Railway (paused)' });
    } finally {
      await replicaAdmin.query('SELECT pg_wal_replay_resume()').catch(() => undefined);
      await replicaAdmin.end();
      await lenientApp.close();
      await tightApp.close();
      await lenient.close();
      await tight.close();
    }
  });

  it('a stopped replica costs no error: reads go to the primary (even one already routed there), and it is used again once back', async () => {
    // No probe between the stop and the reads (an hour apart): the first read finds the replica gone mid-request.
    const unprobed: Db = await withReplicas(await openPg(primaryUrl), { urls: [replicaUrl], maxLagMs: 60_000, probeIntervalMs: 3_600_000 });
    const unprobedApp = await buildTestApp(unprobed, { config: routingConfig() });
    try {
      if (!hasReplicas(unprobed)) throw new Error('not routed');
      const u = await loginAs(unprobedApp, 'REPLC');
      expect((await where(unprobedApp, u))[0]?.on_replica).toBe(true); // opens pooled sessions on the replica
      su = await loginAs(app, 'REPLSU');
      expect((await where())[0]?.on_replica).toBe(true);

      await cluster.stopReplica();
      // Several reads at once meet the stopped replica: each is answered from the primary, the failure counts once.
      const together = await Promise.all(Array.from({ length: 5 }, () => where(unprobedApp, u)));
      expect(together.map((rows) => rows[0]?.on_replica)).toEqual([false, false, false, false, false]);
      for (let i = 0; i < 2; i++) expect((await where(unprobedApp, u))[0]?.on_replica).toBe(false);
      const retried = unprobed.replicas.counts().retriedOnPrimary;
      expect(retried).toBeGreaterThanOrEqual(1);
      expect(retried).toBeLessThanOrEqual(5);
      expect(unprobed.replicas.status()[0]).toMatchObject({ state: 'down', failures: 1 });
      for (let i = 0; i < 3; i++) expect((await where())[0]?.on_replica).toBe(false);
      const exported: boolean[] = [];
      for await (const b of db.iterate<{ r: boolean }>('SELECT pg_is_in_recovery() AS r', [], { batchSize: 10 })) exported.push(...b.map((x) => x.r));
      expect(exported).toEqual([false]);
      await db.replicas.probeNow();
      expect(db.replicas.status()[0]?.state).toBe('down');
      const health = await app.inject({ method: 'GET', url: '/api/health', headers: su.headers() });
      expect(health.json()).toMatchObject({ status: 'ok', replicas: [{ state: 'down', lagMs: null }] });

      await cluster.startReplica();
      // Back-off, then the periodic probe (1 s) finds it healthy again and reads return to it.
      await waitUntil(async () => db.replicas.status()[0]?.state === 'healthy', 40_000);
      expect((await where())[0]?.on_replica).toBe(true);
      const healthy = await app.inject({ method: 'GET', url: '/api/health', headers: su.headers() });
      expect(healthy.json()).toMatchObject({ replicas: [{ state: 'healthy' }] });
      await waitUntil(async () => {
        await unprobed.replicas.probeNow();
        return unprobed.replicas.status()[0]?.state === 'healthy';
      }, 40_000);
      expect((await where(unprobedApp, u))[0]?.on_replica).toBe(true);
    } finally {
      await unprobedApp.close();
      await unprobed.close();
    }
  }, 120_000);

  it('a replica that accepts connections but never answers is skipped after the connect timeout', async () => {
    const sockets: Socket[] = [];
    const blackHole = createServer((s) => sockets.push(s)); // accepts, never says a word
    await new Promise<void>((r) => blackHole.listen(0, '127.0.0.1', r));
    const port = (blackHole.address() as { port: number }).port;
    const started = Date.now();
    const silent = await withReplicas(await openPg(primaryUrl), { urls: [`postgresql://postgres@127.0.0.1:${port}/hht_replica_case`], maxLagMs: 2000, probeIntervalMs: 3_600_000 });
    try {
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(silent.replicas.status()[0]).toMatchObject({ state: 'down', failures: 1 });
      const rows = await silent.reportSession(5000, (q) => q.query<{ r: boolean }>('SELECT pg_is_in_recovery() AS r'));
      expect(rows.rows).toEqual([{ r: false }]);
    } finally {
      await silent.close();
      for (const s of sockets) s.destroy();
      blackHole.close();
    }
  });

  it('with no replica reachable from the start, the server still starts and reads the primary', async () => {
    const nowhere = await withReplicas(await openPg(primaryUrl), { urls: ['postgresql://postgres@127.0.0.1:1/hht_replica_case'], maxLagMs: 2000, probeIntervalMs: 3_600_000 });
    try {
      expect(nowhere.replicas.status()[0]).toMatchObject({ name: '127.0.0.1:1/hht_replica_case', state: 'down' });
      const rows = await nowhere.reportSession(5000, (q) => q.query<{ r: boolean }>('SELECT pg_is_in_recovery() AS r'));
      expect(rows.rows).toEqual([{ r: false }]);
      expect(nowhere.replicas.counts()).toEqual({ replica: 0, primary: 1, retriedOnPrimary: 0, byReplica: {} });
    } finally {
      await nowhere.close();
    }
  });
});
