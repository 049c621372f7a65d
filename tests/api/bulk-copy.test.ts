import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DRIVERS, createTestDb, type TestDb } from '../support/db';
import type { Db, Queryable } from '../../src/server/db';
import { bulkInsert } from '../../src/server/db/bulk';
import { drainRollups, listRollupTables } from '../../src/server/db/rollups';
import { buildReference } from '../../src/server/demo/reference';
import { generateDay, loadDay, loadReference, SEED_TABLES } from '../../src/server/demo/loader';

const SLOW = 240_000;

/** The INSERT path: the transaction without copyFrom, so bulkInsert expands JSON with json_populate_recordset. */
function insertOnly(tx: Queryable): Queryable {
  return { query: (sql, params) => tx.query(sql, params), exec: (sql) => tx.exec(sql) };
}

/**
 * The seed as it was before COPY and the deferred drain: every transaction inserts (no copyFrom) and drains its
 * rollups at its commit (the request to defer is dropped).
 */
function slowPath(db: Db): Db {
  const wrap = (tx: Queryable): Queryable => ({
    query: (sql, params) => (/hht\.drain_later/.test(sql) ? Promise.resolve({ rows: [] }) : tx.query(sql, params)),
    exec: (sql) => tx.exec(sql),
  });
  return new Proxy(db, {
    get(target, prop, receiver) {
      if (prop === 'transaction') return <T>(fn: (tx: Queryable) => Promise<T>) => target.transaction((tx) => fn(wrap(tx)));
      return Reflect.get(target, prop, receiver) as unknown;
    },
  });
}

/** Every row of each table as text, sorted (C collation: the same order on both drivers). */
async function tableTexts(db: Queryable, tables: readonly string[]): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const t of tables) {
    const { rows } = await db.query<{ r: string }>(`SELECT x::text AS r FROM ${t} x ORDER BY x::text COLLATE "C"`);
    out[t] = rows.map((r) => r.r);
  }
  return out;
}

const PROBE_COLUMNS = `id int PRIMARY KEY, name text, note text DEFAULT 'default note', at timestamptz, day date, amount numeric,
  n int, ok boolean, tags text[], big bigint`;

/** Values COPY's text format must escape or that JSON reads its own way. */
const PROBE_ROWS: Record<string, unknown>[] = [
  { id: 1, name: 'राजेश कुमार वर्मा', note: 'tab\there', at: '2026-03-15T04:30:00.000Z', day: '2026-03-15', amount: 1250.5, n: 3, ok: true, tags: ['S1', 'B2'], big: 9_007_199_254_740_991 },
  { id: 2, name: 'line\nbreak\rreturn', note: 'back\\slash \\N not null', at: new Date('2026-03-16T00:00:00+05:30'), day: null, amount: '0.10', n: 0, ok: false, tags: ['quote " and \\ back', 'a,b', '{x}', null], big: -1 },
  { id: 3, name: '', note: null, at: undefined, amount: Number.NaN, n: null, ok: null, tags: [], big: null },
  { id: 4, name: 'श्री', at: '2026-03-15 10:00:00+05:30', amount: -0, n: -7, tags: ['अ\tब'] },
  // A later batch whose first row lacks keys that its other rows have: the batch leaves those columns out (defaults).
  { id: 5, name: 'first of its batch' },
  { id: 6, name: 'has a note its batch leaves out', note: 'dropped', n: 6 },
];

describe.each(TEST_DRIVERS)('bulk load by COPY on %s', (driver) => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb(driver);
  }, SLOW);
  afterAll(async () => {
    await t?.drop();
  });

  it('the transaction offers COPY', async () => {
    await t.db.transaction(async (tx) => {
      expect(typeof tx.copyFrom).toBe('function');
    });
  });

  it('writes the rows INSERT writes: Hindi names, escapes, NULLs, missing keys, dates, numbers and arrays', async () => {
    await t.db.exec(`CREATE TABLE probe_insert (${PROBE_COLUMNS}); CREATE TABLE probe_copy (${PROBE_COLUMNS});`);
    await t.db.transaction(async (tx) => {
      await bulkInsert(insertOnly(tx), 'probe_insert', PROBE_ROWS, 4);
      await bulkInsert(tx, 'probe_copy', PROBE_ROWS, 4);
    });
    const got = await tableTexts(t.db, ['probe_insert', 'probe_copy']);
    expect(got.probe_insert).toHaveLength(PROBE_ROWS.length);
    expect(got.probe_copy).toEqual(got.probe_insert);
    const { rows } = await t.db.query<{ name: string; note: string | null; tags: string[]; amount: string | null; n: number | null }>(
      'SELECT name, note, tags, amount::text AS amount, n FROM probe_copy WHERE id IN (2, 3, 6) ORDER BY id',
    );
    expect(rows[0]?.name).toBe('line\nbreak\rreturn');
    expect(rows[0]?.note).toBe('back\\slash \\N not null');
    expect(rows[0]?.tags).toEqual(['quote " and \\ back', 'a,b', '{x}', null]);
    expect(rows[1]?.amount).toBeNull(); // NaN: JSON has no NaN, so INSERT reads null
    expect(rows[2]).toMatchObject({ note: 'default note', n: null }); // its batch's first row had neither
  });

  it('loads seeded days with the same rows and rollups as inserting and draining at each commit', async () => {
    const slow = await createTestDb(driver);
    try {
      const ref = buildReference('tiny');
      const today = '2026-03-15';
      // A short window: a past day, today and tomorrow (booking phase, no chart yet).
      const dates = ['2026-03-14', today, '2026-03-16'];
      for (const [db, drain] of [[t.db, true], [slowPath(slow.db), false]] as const) {
        await db.transaction((tx) => loadReference(tx, ref));
        for (const date of dates) expect(await loadDay(db, generateDay(ref, date, today), date)).toBe(true);
        if (drain) expect(await drainRollups(db)).toBeGreaterThan(0);
      }
      const tables = [...SEED_TABLES, ...(await listRollupTables(t.db))];
      const fast = await tableTexts(t.db, tables);
      const reference = await tableTexts(slow.db, tables);
      expect((reference.passengers ?? []).length).toBeGreaterThan(500);
      expect((reference.rollup_run_passengers ?? []).length).toBeGreaterThan(0);
      for (const table of tables) expect({ table, rows: fast[table] }).toEqual({ table, rows: reference[table] });
      const { rows } = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM hht_dirty');
      expect(rows[0]?.n).toBe(0);
    } finally {
      await slow.drop();
    }
  }, SLOW);
});
