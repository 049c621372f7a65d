/**
 * Migration 041 on a database that already holds audit entries one row each (the layout of 031/040): every entry
 * moves into batches of one month and at most 1,000, and reads back through the view audit_trail as it was, in its
 * order, on both drivers.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { openDb, type Db } from '../../src/server/db';
import { migrate, readFunctionFiles, readMigrations } from '../../src/server/db/migrate';
import { TEST_DRIVERS } from '../support/db';

describe.each(TEST_DRIVERS)('moving kept audit entries into batches on %s', (driver) => {
  let db: Db;
  let dropDb = async (): Promise<void> => undefined;

  beforeAll(async () => {
    if (driver === 'pglite') {
      db = await openDb({ dataDir: null });
    } else {
      const admin = new URL(process.env.TEST_DATABASE_URL ?? '');
      const name = `hht_test_${randomBytes(6).toString('hex')}`;
      const run = async (sql: string): Promise<void> => {
        const c = new pg.Client({ connectionString: admin.toString() });
        await c.connect();
        try {
          await c.query(sql);
        } finally {
          await c.end();
        }
      };
      await run(`CREATE DATABASE ${name}`);
      const url = new URL(admin.toString());
      url.pathname = `/${name}`;
      db = await openDb({ databaseUrl: url.toString(), dataDir: null });
      dropDb = () => run(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    }
    // The schema as it was before migration 041.
    await migrate(db, readMigrations().filter((m) => m.version < '041'), readFunctionFiles());
  }, 120_000);
  afterAll(async () => {
    await db?.close();
    await dropDb();
  });

  it('keeps every entry, its time, figures and order, in batches of one month and at most 1,000', async () => {
    await db.exec(`
      CREATE TABLE audit_trail_m202602 PARTITION OF audit_trail FOR VALUES FROM ('2026-02-01 00:00:00+00') TO ('2026-03-01 00:00:00+00');
      CREATE TABLE audit_trail_m202603 PARTITION OF audit_trail FOR VALUES FROM ('2026-03-01 00:00:00+00') TO ('2026-04-01 00:00:00+00');`);
    // 2,500 entries across a month's turn, two of them at the same millisecond (their order is their seq), one with
    // no user and one with Hindi and quotes in its details.
    await db.query(
      `INSERT INTO audit_trail (at, action, user_id, user_level, report, ip, details)
       SELECT timestamptz '2026-02-28 23:50:00+00' + (i * interval '1 second') - (CASE WHEN i = 7 THEN interval '1 second' ELSE interval '0' END),
              CASE WHEN i % 2 = 0 THEN 'report_run' ELSE 'sign_in' END,
              CASE WHEN i = 3 THEN NULL ELSE 'U' || (i % 7) END, 'SU', 'r' || i, '10.0.0.1',
              CASE WHEN i = 5 THEN json_build_object('note', 'यात्री "q"') ELSE json_build_object('rows', i) END
         FROM generate_series(1, 2500) i`,
    );
    const before = (await db.query<Record<string, unknown>>(
      `SELECT to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.MS') AS at, action, user_id, user_level, report, ip, details::text AS details
         FROM audit_trail ORDER BY at, seq`,
    )).rows;
    expect(before).toHaveLength(2500);

    expect(await migrate(db)).toContain('041');
    const after = (await db.query<Record<string, unknown>>(
      `SELECT to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.MS') AS at, action, user_id, user_level, report, ip, details::text AS details
         FROM audit_trail ORDER BY at, seq`,
    )).rows;
    expect(after.map((r) => ({ ...r, details: JSON.parse(String(r.details)) as unknown }))).toEqual(
      before.map((r) => ({ ...r, details: JSON.parse(String(r.details)) as unknown })),
    );
    const batches = (await db.query<{ month: string; n: number; users: string[]; inside: boolean }>(
      `SELECT to_char(at_first AT TIME ZONE 'UTC', 'YYYY-MM') AS month, n, users,
              (SELECT bool_and(x.at BETWEEN b.at_first AND b.at_last) FROM audit_trail x WHERE x.seq / 10000 = b.seq) AS inside
         FROM audit_batches b ORDER BY seq`,
    )).rows;
    // February has the 600 entries before midnight (the one moved a second back stays in February), March the rest.
    expect(batches.map((b) => [b.month, b.n])).toEqual([['2026-02', 599], ['2026-03', 1000], ['2026-03', 901]]);
    expect(batches.every((b) => b.inside)).toBe(true);
    expect([...(batches[0]?.users ?? [])].sort()).toEqual(['U0', 'U1', 'U2', 'U3', 'U4', 'U5', 'U6']);
    // The old table is gone; its partitions with it.
    expect((await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_class WHERE relname LIKE 'audit_trail_m%'`)).rows[0]?.n).toBe(0);
  });
});
