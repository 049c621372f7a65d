import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { TEST_DRIVERS, type TestDb } from '../support/db';
import { cloneSeededTestDb } from '../support/seeded';
import { buildTestApp } from '../support/app';
import { migrate } from '../../src/server/db/migrate';
import { insertUser, loginAs } from '../support/login';

describe.each(TEST_DRIVERS)('health and migrations on %s', (driver) => {
  let t: TestDb;
  let app: FastifyInstance;
  beforeAll(async () => {
    t = await cloneSeededTestDb(driver);
    app = await buildTestApp(t.db);
  });
  afterAll(async () => {
    await app?.close();
    await t?.drop();
  });

  it('without a session shows only the status: no database details', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('with a bad bearer token refuses like any protected route', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/health', headers: { authorization: 'Bearer not-a-token' } });
    expect(res.statusCode).toBe(403);
    expect(res.body).not.toContain('migrations');
  });

  it('with a valid bearer token reports driver, migrations and estimated data set size, without counting rows', async () => {
    await insertUser(t.db, { userId: 'HEALTHUSR', userLevel: 'SU' });
    const user = await loginAs(app, 'HEALTHUSR');
    // The figures are the planner's (pg_class.reltuples), as fresh as the last ANALYZE.
    await t.db.query('ANALYZE train_runs');
    await t.db.query('ANALYZE passengers');
    const real = (
      await t.db.query<{ runs: number; psgn: number }>(
        'SELECT (SELECT count(*) FROM train_runs)::int AS runs, (SELECT count(*) FROM passengers)::int AS psgn',
      )
    ).rows[0];
    expect(real?.runs).toBeGreaterThan(0);
    const res = await app.inject({ method: 'GET', url: '/api/health', headers: user.headers() });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.status).toBe('ok');
    expect(body.database.driver).toBe(driver);
    expect(body.database.migrations).toContain('001');
    expect(body.dataset).toEqual({ trainRuns: real?.runs, passengers: expect.any(Number), estimated: true });
    expect(Math.abs(body.dataset.passengers - (real?.psgn ?? 0))).toBeLessThanOrEqual((real?.psgn ?? 0) * 0.1);
  });

  it('applies migrations exactly once', async () => {
    const before = (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM schema_migrations')).rows[0]?.n;
    await migrate(t.db);
    const after = (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM schema_migrations')).rows[0]?.n;
    expect(after).toBe(before);
  });

  it('answers unknown API paths without a session with a JSON 403, never the app page', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/no-such-thing' });
    expect(res.statusCode).toBe(403);
    expect(res.headers['content-type']).toContain('application/json');
    const nested = await app.inject({ method: 'GET', url: '/api/a/b/c' });
    expect(nested.statusCode).toBe(404);
    expect(nested.json().message).toContain('/api/a/b/c');
  });

  it('answers a missing static file with 404, not the app page', async () => {
    const res = await app.inject({ method: 'GET', url: '/themes/no-such-theme/theme.css' });
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('<html');
  });

  it('queues concurrent queries instead of failing', async () => {
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) => t.db.query<{ v: number }>('SELECT $1::int AS v, pg_sleep(0.001)', [i])),
    );
    expect(results.map((r) => r.rows[0]?.v)).toEqual(Array.from({ length: 40 }, (_, i) => i));
  });
});
