/**
 * GET /metrics on its own port: Prometheus text that Debian's promtool accepts, counters that match a known
 * sequence of calls (requests per route, report SQL, exports, device syncs with refusals by reason, the audit
 * queue), and with HHT_WORKERS=2 on PostgreSQL the two workers' figures summed by the primary.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { TEST_DRIVERS, createTestDb, type TestDb } from '../support/db';
import { cloneSeededTestDb } from '../support/seeded';
import { buildTestApp } from '../support/app';
import { loginAs, type SignedIn } from '../support/login';
import { startServer, freePort, type RunningServer } from '../support/server';
import { manualClock } from '../../src/server/clock';
import { startMetricsServer, type MetricsServer } from '../../src/server/metrics/server';
import { EXTRAS_USERS, insertExtrasUsers, istNoon } from './extras-users';

const PROMTOOL = '/usr/bin/promtool';

/** promtool check metrics on a scrape: its exit code and complaints (none expected). */
function promtool(text: string): { status: number | null; output: string } {
  const r = spawnSync(PROMTOOL, ['check', 'metrics'], { input: text, encoding: 'utf8' });
  return { status: r.status, output: `${r.stdout}${r.stderr}` };
}

/** One sample's value from Prometheus text: the line with exactly these labels (any order), or 0 when absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  const want = Object.entries(labels).map(([k, v]) => `${k}="${v}"`).sort();
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = (m[2] ?? '').match(/[a-zA-Z_]+="(?:[^"\\]|\\.)*"/g)?.sort() ?? [];
    if (have.length === want.length && have.every((h, i) => h === want[i])) return Number(m[3]);
  }
  return 0;
}

function scrape(port: number, path = '/metrics'): Promise<{ status: number; type: string; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, agent: false }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type']), body }));
    });
    req.on('error', reject);
    req.end();
  });
}

// Without promtool (apt-get install -y prometheus) the checks are skipped locally; CI installs it and never skips.
describe.runIf(existsSync(PROMTOOL) || process.env.CI === 'true')('metrics', () => {
  describe.each(TEST_DRIVERS)('one process on %s', (driver) => {
    let t: TestDb & { today: string };
    let app: FastifyInstance;
    let metrics: MetricsServer;
    let su: SignedIn;

    beforeAll(async () => {
      t = await cloneSeededTestDb(driver);
      app = await buildTestApp(t.db, { clock: manualClock(istNoon(t.today)) });
      await insertExtrasUsers(t.db);
      su = await loginAs(app, EXTRAS_USERS.su.userId);
      metrics = await startMetricsServer({ port: 0, host: '127.0.0.1', cluster: false });
    });
    afterAll(async () => {
      await metrics?.close();
      await app?.close();
      await t?.drop();
    });

    it('serves Prometheus text that promtool accepts, and only GET /metrics', async () => {
      const res = await scrape(metrics.port);
      expect(res.status).toBe(200);
      expect(res.type).toMatch(/^text\/plain; version=0\.0\.4/);
      const check = promtool(res.body);
      expect(check.output).toBe('');
      expect(check.status).toBe(0);
      expect((await scrape(metrics.port, '/')).status).toBe(404);
    });

    it('counts a known sequence of calls', async () => {
      const before = (await scrape(metrics.port)).body;
      for (let i = 0; i < 3; i += 1) expect((await app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
      const filter = { start_date: t.today, end_date: t.today, zone: 'NR' };
      // The same call twice: computed once (its SQL timed), then a hit of the result cache.
      for (let i = 0; i < 2; i += 1) expect((await app.inject({ method: 'POST', url: '/api/eftSummary', headers: su.headers(), payload: filter })).statusCode).toBe(200);
      const csv = await app.inject({ method: 'POST', url: '/api/export/eft-summary?format=csv', headers: su.headers(), payload: filter });
      expect(csv.statusCode).toBe(200);
      // Device sync: one batch without a credential (refused: credential), one with a bad body (refused: invalid).
      expect((await app.inject({ method: 'POST', url: '/api/hht/sync', payload: { records: [] } })).statusCode).toBe(401);
      const device = (await t.db.query<{ id: string }>(`SELECT device_id AS id FROM devices WHERE status = 'IN_SERVICE' ORDER BY 1 LIMIT 1`)).rows[0]?.id ?? '';
      const issued = await app.inject({ method: 'POST', url: '/api/hht/credentials/issue', headers: su.headers(), payload: { deviceId: device } });
      const token = issued.json<{ token: string }>().token;
      const bad = await app.inject({ method: 'POST', url: '/api/hht/sync', headers: { authorization: `Bearer ${token}` }, payload: { records: 'none' } });
      expect(bad.statusCode).toBe(400);
      app.audit.record({ action: 'sign_in', userId: 'QUEUED' });
      // What the trail gave up is read from its own totals when scraped (the trail's tests drive those).
      app.audit.counts.refused += 3;
      const after = (await scrape(metrics.port)).body;
      expect(promtool(after).status).toBe(0);

      const delta = (name: string, labels: Record<string, string> = {}): number => sample(after, name, labels) - sample(before, name, labels);
      expect(delta('hht_http_requests_total', { method: 'GET', route: '/api/health', status: '200' })).toBe(3);
      expect(delta('hht_http_request_duration_seconds_count', { method: 'GET', route: '/api/health' })).toBe(3);
      expect(delta('hht_http_requests_total', { method: 'POST', route: '/api/:endpoint', status: '200' })).toBe(2);
      expect(delta('hht_report_sql_seconds_count', { report: 'eft-summary' })).toBe(1);
      expect(delta('hht_report_cache_answers_total', { served: 'computed' })).toBe(1);
      expect(delta('hht_report_cache_answers_total', { served: 'hit' })).toBe(1);
      expect(delta('hht_export_rows_total', { format: 'csv' })).toBe(Number(csv.headers['x-total-rows']));
      expect(delta('hht_export_bytes_total', { format: 'csv' })).toBe(csv.rawPayload.length);
      expect(sample(after, 'hht_export_slots_in_use')).toBe(0);
      expect(delta('hht_sync_batches_total', { outcome: 'refused' })).toBe(2);
      expect(delta('hht_sync_refusals_total', { reason: 'credential' })).toBe(1);
      expect(delta('hht_sync_refusals_total', { reason: 'invalid' })).toBe(1);
      expect(sample(after, 'hht_audit_queue_length')).toBeGreaterThanOrEqual(1);
      expect(delta('hht_audit_entries_lost_total', { reason: 'refused' })).toBe(3);
      expect(sample(after, 'hht_audit_entries_lost_total', { reason: 'dropped' })).toBe(app.audit.counts.dropped);
      if (driver === 'pg') expect(after).toMatch(/^hht_db_pool_connections\{pool="main",state="idle"\} \d+$/m);
    });

    it('counts the rollup auditor\'s repairs as the database records them', async () => {
      const before = sample((await scrape(metrics.port)).body, 'hht_rollup_repairs');
      await t.db.query("INSERT INTO hht_rollup_repairs (run_id, table_name, rows_missing, rows_extra) VALUES (1, 'rollup_sync', 1, 0), (2, 'rollup_efts', 0, 2)");
      try {
        const body = (await scrape(metrics.port)).body;
        expect(sample(body, 'hht_rollup_repairs') - before).toBe(2);
        expect(promtool(body).status).toBe(0);
      } finally {
        await t.db.query('DELETE FROM hht_rollup_repairs WHERE run_id IN (1, 2)');
      }
    });
  });

  describe.runIf(process.env.TEST_DATABASE_URL)('two workers on PostgreSQL', () => {
    let t: TestDb | undefined;
    let server: RunningServer | undefined;
    afterAll(async () => {
      await server?.stop();
      await t?.drop();
    });

    it('serves both workers\' figures summed on the primary\'s metrics port', async () => {
      t = await createTestDb('pg');
      const metricsPort = await freePort();
      server = await startServer({ HHT_SEED: 'none', HHT_WORKERS: '2', DATABASE_URL: t.url ?? '', HHT_METRICS_PORT: String(metricsPort) });
      const port = server.port;
      const health = (): Promise<string | undefined> =>
        new Promise((resolve, reject) => {
          const req = request({ host: '127.0.0.1', port, path: '/api/health', agent: false, headers: { connection: 'close' } }, (res) => {
            res.resume();
            res.on('end', () => resolve(res.headers['x-hht-pid'] as string | undefined));
          });
          req.on('error', reject);
          req.end();
        });
      const byPid = new Map<string, number>();
      let calls = 0;
      // New connections until both workers have answered; every call is counted.
      while (byPid.size < 2 || calls < 10) {
        const pid = (await health()) ?? '?';
        byPid.set(pid, (byPid.get(pid) ?? 0) + 1);
        calls += 1;
        if (calls > 400) throw new Error(`only pids ${[...byPid.keys()].join(', ')} answered`);
      }
      const res = await scrape(metricsPort);
      expect(res.status).toBe(200);
      expect(promtool(res.body).status).toBe(0);
      expect(sample(res.body, 'hht_http_requests_total', { method: 'GET', route: '/api/health', status: '200' })).toBe(calls);
      expect(byPid.size).toBe(2);
    }, 240_000);
  });
});
