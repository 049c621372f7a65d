import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createTestDb, TEST_DRIVERS, type TestDb } from '../support/db';
import { buildTestApp } from '../support/app';
import { migrate } from '../../src/server/db/migrate';

describe.each(TEST_DRIVERS)('health and migrations on %s', (driver) => {
  let t: TestDb;
  let app: FastifyInstance;
  beforeAll(async () => {
    t = await createTestDb(driver);
    app = await buildTestApp(t.db);
  });
  afterAll(async () => {
    await app?.close();
    await t?.drop();
  });

  it('reports driver, applied migrations and data set counts', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.status).toBe('ok');
    expect(body.database.driver).toBe(driver);
    expect(body.database.migrations).toContain('001');
    expect(body.dataset).toEqual({ trainRuns: expect.any(Number), passengers: expect.any(Number) });
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
