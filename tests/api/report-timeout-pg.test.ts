/**
 * A report statement on PostgreSQL ends when its timeout passes, and no backend works on after the 503: report
 * sessions set a statement timeout and run without JIT (a JIT compile does not check for interrupts, so neither the
 * timeout nor a cancel stopped it; docs/decisions.md, "JIT off").
 */
import pg from 'pg';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloneSeededTestDb } from '../support/seeded';
import type { TestDb } from '../support/db';
import { buildTestApp } from '../support/app';
import { insertUser, loginAs, type SignedIn } from '../support/login';
import { openDb, type Db } from '../../src/server/db';
import { checkDefinitions } from '../../src/shared/definitions/validate';
import { readDefinitionFiles } from '../../src/server/reports/definition-files';
import { parseFilter } from '../../src/server/reports/filter';
import { buildQuery, TIMEOUT_MESSAGE } from '../../src/server/reports/executor';

/** The slowest report of the catalogue before its rewrite, and the one whose JIT compile outlived its 503. */
const ENDPOINT = 'getZeroBooking';
const TIMEOUT_MS = 500;

describe.skipIf(!process.env.TEST_DATABASE_URL)('report statements past their timeout on PostgreSQL', () => {
  let t: TestDb & { today: string };
  let db: Db;
  let app: FastifyInstance;
  let su: SignedIn;
  const admin = async <T>(fn: (c: pg.Client) => Promise<T>): Promise<T> => {
    const c = new pg.Client({ connectionString: t.url });
    await c.connect();
    try {
      return await fn(c);
    } finally {
      await c.end();
    }
  };
  /** Backends of the test database running a statement or waiting for a lock in one (the lock holder is idle). */
  const reportBackends = (): Promise<number> =>
    admin(async (c) => (await c.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_stat_activity
        WHERE datname = current_database() AND pid <> pg_backend_pid() AND state = 'active'`,
    )).rows[0]?.n ?? -1);

  beforeAll(async () => {
    t = await cloneSeededTestDb('pg');
    // JIT for every statement of this database, as the planner's costs over many daily partitions ask for it at
    // national scale: the sessions the server opens must not take it up.
    await admin((c) => c.query(`ALTER DATABASE "${new URL(t.url ?? '').pathname.slice(1)}" SET jit = on`));
    await admin((c) => c.query(`ALTER DATABASE "${new URL(t.url ?? '').pathname.slice(1)}" SET jit_above_cost = 0`));
    await admin((c) => c.query(`ALTER DATABASE "${new URL(t.url ?? '').pathname.slice(1)}" SET jit_inline_above_cost = 0`));
    await admin((c) => c.query(`ALTER DATABASE "${new URL(t.url ?? '').pathname.slice(1)}" SET jit_optimize_above_cost = 0`));
    db = await openDb({ databaseUrl: t.url, dataDir: null });
    app = await buildTestApp(db, { config: { reportTimeoutMs: TIMEOUT_MS } });
    await insertUser(db, { userId: 'TIMEOUTSU', userLevel: 'SU' });
    su = await loginAs(app, 'TIMEOUTSU');
  }, 180_000);
  afterAll(async () => {
    await app?.close();
    await db?.close();
    await t?.drop(); // closes t.db too
  });

  it('the database really compiles with JIT outside report sessions (the setting the test relies on)', async () => {
    const plan = await admin(async (c) => (await c.query<{ 'QUERY PLAN': unknown }>('EXPLAIN (ANALYZE, FORMAT JSON) SELECT count(*) FROM passengers')).rows[0]?.['QUERY PLAN']);
    expect(JSON.stringify(plan)).toContain('"JIT"');
  });

  it('report sessions and the server\'s other sessions run without JIT, whatever the database asks', async () => {
    const report = checkDefinitions(readDefinitionFiles(process.cwd())).reports.find((r) => r.views.some((v) => v.endpoint === ENDPOINT));
    const view = report?.views.find((v) => v.endpoint === ENDPOINT);
    if (!report || !view) throw new Error(`no ${ENDPOINT} view`);
    const { sql, params } = buildQuery(view, parseFilter(report, { startDate: t.today }, t.today), { kind: 'all' });
    const plan = await db.reportSession(10_000, async (q) => (await q.query<{ 'QUERY PLAN': unknown }>(`EXPLAIN (ANALYZE, FORMAT JSON) ${sql}`, params)).rows[0]?.['QUERY PLAN']);
    expect(JSON.stringify(plan)).not.toContain('"JIT"');
    expect((await db.query<{ jit: string }>('SHOW jit')).rows[0]?.jit).toBe('off');
  });

  it(`a ${ENDPOINT} call past its timeout answers 503 and its statement is gone from pg_stat_activity within 1 s`, async () => {
    // The statement outlasts its timeout deterministically: it waits for a lock the test holds for 10 s.
    const holder = new pg.Client({ connectionString: t.url });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('LOCK TABLE checking_events IN ACCESS EXCLUSIVE MODE');
      const started = Date.now();
      const call = app.inject({ method: 'POST', url: `/api/${ENDPOINT}`, headers: su.headers(), payload: { startDate: t.today } });
      const res = await call;
      expect(res.statusCode, res.body).toBe(503);
      expect(res.body).toContain(TIMEOUT_MESSAGE);
      // Gone within 1 s of the timeout, while the lock it waited for is still held.
      let left = await reportBackends();
      while (left > 0 && Date.now() - started < TIMEOUT_MS + 1_000) {
        await new Promise((r) => setTimeout(r, 50));
        left = await reportBackends();
      }
      expect(left).toBe(0);
      expect(Date.now() - started).toBeLessThan(TIMEOUT_MS + 1_000);
    } finally {
      await holder.query('ROLLBACK').catch(() => undefined);
      await holder.end();
    }
  }, 30_000);
});
