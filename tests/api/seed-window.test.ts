import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DRIVERS, createTestDb, type TestDb } from '../support/db';
import { createSeededTestDb } from '../support/seeded';
import type { Db } from '../../src/server/db';
import { ensureSeeded, fillWindow } from '../../src/server/demo';
import { SEED_TABLES } from '../../src/server/demo/loader';

const SLOW = 240_000;
const quiet = { log: () => undefined };

/** md5 of every seeded table's rows in a fixed order (C collation, so the order is the same everywhere). */
async function checksums(db: Db): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const t of SEED_TABLES) {
    const { rows } = await db.query<{ h: string | null; n: number }>(
      `SELECT md5(string_agg(x::text, E'\\n' ORDER BY x::text COLLATE "C")) AS h, count(*)::int AS n FROM ${t} x`,
    );
    out[t] = `${rows[0]?.n}:${rows[0]?.h}`;
  }
  return out;
}

async function scalar(db: Db, sql: string, params: unknown[] = []): Promise<number> {
  const { rows } = await db.query<{ n: number }>(sql, params);
  return Number(rows[0]?.n ?? 0);
}

describe.each(TEST_DRIVERS)('seed window on %s', (driver) => {
  const today = '2026-03-15';
  let a: TestDb & { today: string };
  const extra: TestDb[] = [];
  beforeAll(async () => {
    a = await createSeededTestDb(driver, { today });
  }, SLOW);
  afterAll(async () => {
    await a?.drop();
    for (const t of extra) await t.drop();
  });

  it('covers today-30 .. today+1 with one run per running day', async () => {
    const { rows } = await a.db.query<{ lo: string; hi: string }>('SELECT min(start_date) AS lo, max(start_date) AS hi FROM train_runs');
    expect(rows[0]).toEqual({ lo: '2026-02-13', hi: '2026-03-16' });
    // 12002 and 12951 run daily: 32 runs each.
    expect(await scalar(a.db, "SELECT count(*)::int AS n FROM train_runs WHERE train_no = '12002'")).toBe(32);
  });

  it('leaves planner statistics for what it loaded (PGlite has no autovacuum)', async () => {
    for (const table of ['checking_events', 'passengers', 'beats']) {
      const rows = await scalar(a.db, `SELECT count(*)::int AS n FROM ${table}`);
      const { rows: stat } = await a.db.query<{ reltuples: number }>('SELECT reltuples::float8 AS reltuples FROM pg_class WHERE relname = $1', [table]);
      expect(rows).toBeGreaterThan(0);
      expect(Math.abs(Number(stat[0]?.reltuples) - rows) / rows).toBeLessThan(0.05);
    }
  });

  it('analyses a data set seeded without statistics (an older version) at the next start', async () => {
    await a.db.query("UPDATE pg_class SET reltuples = -1 WHERE relname = 'checking_events'");
    expect(await fillWindow(a.db, { scale: 'tiny', today, ...quiet })).toBe(0);
    const { rows } = await a.db.query<{ reltuples: number }>("SELECT reltuples::float8 AS reltuples FROM pg_class WHERE relname = 'checking_events'");
    expect(Number(rows[0]?.reltuples)).toBeGreaterThan(0);
  });

  it('produces identical data for the same date in a fresh database', async () => {
    const b = await createSeededTestDb(driver, { today });
    extra.push(b);
    expect(await checksums(b.db)).toEqual(await checksums(a.db));
  }, SLOW);

  it('does nothing when the database is already seeded', async () => {
    const before = await checksums(a.db);
    expect(await ensureSeeded(a.db, { scale: 'tiny', today, ...quiet })).toBe(false);
    expect(await fillWindow(a.db, { scale: 'tiny', today, ...quiet })).toBe(0);
    expect(await checksums(a.db)).toEqual(before);
  }, SLOW);

  it('fills exactly the missing days when the date moves on, and charts the runs that were tomorrow', async () => {
    const later = '2026-03-18';
    const added = await fillWindow(a.db, { scale: 'tiny', today: later, ...quiet });
    // New days 03-17, 03-18, 03-19, plus 03-16 regenerated from its booking phase.
    const expected = await scalar(
      a.db,
      "SELECT count(*)::int AS n FROM train_runs WHERE start_date BETWEEN '2026-03-16' AND '2026-03-19'",
    );
    expect(added).toBe(expected);
    expect(await scalar(a.db, "SELECT count(*)::int AS n FROM train_runs WHERE start_date <= $1::date AND chart1_at IS NULL", [later])).toBe(0);
    expect(await scalar(a.db, "SELECT count(*)::int AS n FROM beats b JOIN train_runs r USING (run_id) WHERE r.start_date = '2026-03-16'")).toBeGreaterThan(0);
    expect(await fillWindow(a.db, { scale: 'tiny', today: later, ...quiet })).toBe(0);

    // The rolled data set equals one seeded directly at the later date, for the days both hold.
    const direct = await createSeededTestDb(driver, { today: later });
    extra.push(direct);
    const q = `SELECT md5(string_agg(p::text, '' ORDER BY psgn_id)) AS n FROM passengers p
               JOIN train_runs r USING (run_id) WHERE r.start_date BETWEEN '2026-02-16' AND '2026-03-19'`;
    const h1 = (await a.db.query<{ n: string }>(q)).rows[0]?.n;
    const h2 = (await direct.db.query<{ n: string }>(q)).rows[0]?.n;
    expect(h1).toBe(h2);
  }, SLOW);

  it('shifts the window with the date', async () => {
    const t = await createTestDb(driver);
    extra.push(t);
    await ensureSeeded(t.db, { scale: 'tiny', today: '2026-06-01', ...quiet });
    const { rows } = await t.db.query<{ lo: string; hi: string }>('SELECT min(start_date) AS lo, max(start_date) AS hi FROM train_runs');
    expect(rows[0]).toEqual({ lo: '2026-05-02', hi: '2026-06-02' });
  }, SLOW);
});
