import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, TEST_DRIVERS, type TestDb } from '../support/db';
import { openPglite } from '../../src/server/db/pglite-driver';

/**
 * Cursors left open: on PGlite named cursors of its one session (the unnamed one is this query's own portal); on
 * PostgreSQL other connections of this database still inside a transaction, on the primary and on any replica
 * (cursors are reads: with replicas configured they run there).
 */
async function openTransactions(t: TestDb): Promise<number> {
  if (t.db.driver === 'pglite') return (await t.db.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_cursors WHERE name <> ''")).rows[0]?.n ?? -1;
  const sql = `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND state LIKE 'idle in transaction%'`;
  let n = (await t.db.query<{ n: number }>(sql)).rows[0]?.n ?? -1;
  for (const url of t.replicaUrls ?? []) {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    try {
      n += (await c.query<{ n: number }>(sql)).rows[0]?.n ?? -1;
    } finally {
      await c.end();
    }
  }
  return n;
}

describe.each(TEST_DRIVERS)('Db.iterate on %s', (driver) => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb(driver);
  }, 120_000);
  afterAll(async () => {
    await t?.drop();
  });

  it('reads every row, in order, in batches of at most the batch size', async () => {
    const sizes: number[] = [];
    const seen: number[] = [];
    for await (const batch of t.db.iterate<{ n: number }>('SELECT n FROM generate_series(1, $1::int) n ORDER BY n', [52], { batchSize: 7 })) {
      sizes.push(batch.length);
      seen.push(...batch.map((r) => r.n));
    }
    expect(seen).toEqual(Array.from({ length: 52 }, (_, i) => i + 1));
    expect(sizes).toEqual([7, 7, 7, 7, 7, 7, 7, 3]);
    expect(await openTransactions(t)).toBe(0);
  });

  it('yields nothing for an empty result and an exact multiple ends cleanly', async () => {
    const empty: unknown[][] = [];
    for await (const b of t.db.iterate('SELECT 1 WHERE false', [], { batchSize: 5 })) empty.push(b);
    expect(empty).toEqual([]);
    let count = 0;
    for await (const b of t.db.iterate('SELECT n FROM generate_series(1, 10) n', [], { batchSize: 5 })) count += b.length;
    expect(count).toBe(10);
  });

  it('runs prepare in the reading transaction, before the first row', async () => {
    let counted = -1;
    let rows = 0;
    const it = t.db.iterate<{ n: number }>('SELECT n FROM generate_series(1, $1::int) n', [30], {
      batchSize: 8,
      prepare: async (tx) => {
        counted = (await tx.query<{ c: number }>('SELECT count(*)::int AS c FROM generate_series(1, $1::int) n', [30])).rows[0]?.c ?? -1;
        // Proves it is the same transaction: the setting is only visible inside it.
        await tx.query("SELECT set_config('hht.iterate_test', 'inside', true)");
      },
    });
    for await (const b of it) rows += b.length;
    expect(counted).toBe(30);
    expect(rows).toBe(30);
  });

  it('a prepare that throws ends the iteration before any row, leaving nothing open', async () => {
    const it = t.db.iterate('SELECT n FROM generate_series(1, 10) n', [], {
      batchSize: 3,
      prepare: () => Promise.reject(new Error('too many rows')),
    });
    await expect((async () => {
      for await (const b of it) void b;
    })()).rejects.toThrow('too many rows');
    expect(await openTransactions(t)).toBe(0);
  });

  it('a query error surfaces on the first read', async () => {
    await expect((async () => {
      for await (const b of t.db.iterate('SELECT * FROM no_such_table', [], { batchSize: 3 })) void b;
    })()).rejects.toThrow(/no_such_table/);
    expect(await openTransactions(t)).toBe(0);
    expect((await t.db.query<{ one: number }>('SELECT 1 AS one')).rows[0]?.one).toBe(1);
  });

  it('stopping early closes the cursor and frees the connection', async () => {
    const it = t.db.iterate<{ n: number }>('SELECT n FROM generate_series(1, 1000) n', [], { batchSize: 10 })[Symbol.asyncIterator]();
    const first = await it.next();
    expect(first.done).toBe(false);
    // PostgreSQL: the cursor is open while the reader holds it. PGlite: each batch was a read of its own, nothing stays open.
    expect(await openTransactions(t)).toBe(driver === 'pg' ? 1 : 0);
    await it.return?.(undefined);
    expect(await openTransactions(t)).toBe(0);
  });

  it('rejects a batch size below 1', async () => {
    await expect((async () => {
      for await (const b of t.db.iterate('SELECT 1', [], { batchSize: 0 })) void b;
    })()).rejects.toThrow(/batchSize/);
  });

  it('lets other queries run between batches', async () => {
    let batches = 0;
    let answeredAt = -1;
    let other: Promise<unknown> = Promise.resolve();
    const reading = (async () => {
      for await (const b of t.db.iterate('SELECT n FROM generate_series(1, 200) n', [], { batchSize: 10 })) {
        void b;
        batches += 1;
        if (batches === 2) other = t.db.query('SELECT 1').then(() => (answeredAt = batches));
        // Mid-way the reader waits for the other query while its cursor stays open: it must be answered (it would
        // hang if the cursor held what it needs). Waiting, rather than racing the remaining batches, keeps the
        // test exact when the cursor runs on a replica and the query on a busier primary.
        if (batches === 10) await other;
        await new Promise((r) => setImmediate(r));
      }
    })();
    await reading;
    expect(batches).toBe(20);
    expect(answeredAt).toBeGreaterThan(0);
    expect(answeredAt).toBeLessThan(20);
  });

  it('runs setup at the start of every reading transaction (each batch on PGlite), prepare once', async () => {
    let prepared = 0;
    const seen: string[] = [];
    const it = t.db.iterate<{ n: number; s: string }>(
      `SELECT n, current_setting('hht.iterate_setup', true) AS s FROM generate_series(1, 25) n ORDER BY n`, [], {
        batchSize: 10,
        setup: async (tx) => {
          await tx.query(`SELECT set_config('hht.iterate_setup', 'on', true)`);
        },
        prepare: async () => {
          prepared += 1;
        },
      });
    for await (const b of it) seen.push(...b.map((r) => r.s));
    expect(seen).toEqual(Array.from({ length: 25 }, () => 'on'));
    expect(prepared).toBe(1);
  });
});

describe('Db.iterate on PGlite reads in batches of their own', () => {
  it('another statement waits for one batch, not for the whole query', async () => {
    const db = await openPglite(null);
    try {
      await db.exec('CREATE SEQUENCE rows_made');
      // Each row the database makes for the export bumps the sequence: what ran before the other statement shows.
      const it = db.iterate<{ n: number }>(`SELECT n, nextval('rows_made') AS v FROM generate_series(1, 20000) n`, [], { batchSize: 1000 })[Symbol.asyncIterator]();
      const first = it.next();
      const other = db.query<{ made: number }>('SELECT last_value::int AS made FROM rows_made');
      expect((await first).value).toHaveLength(1000);
      // A held cursor would have made all 20,000 rows first (its commit runs the whole query).
      expect((await other).rows[0]?.made).toBeLessThanOrEqual(1000);
      let n = 1000;
      for (let r = await it.next(); !r.done; r = await it.next()) n += r.value.length;
      expect(n).toBe(20000);
    } finally {
      await db.close();
    }
  });

  it('a query too slow to page goes on from a held cursor: the same rows, in order, and the cursor closed after', async () => {
    const db = await openPglite(null, undefined, { slowBatchMs: 0 }); // every batch counts as slow
    try {
      const cursors = async (): Promise<number> => (await db.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_cursors WHERE name <> ''")).rows[0]?.n ?? -1;
      const it = db.iterate<{ n: number }>('SELECT n FROM generate_series(1, 95) n ORDER BY n DESC', [], { batchSize: 10 })[Symbol.asyncIterator]();
      const seen: number[] = [];
      seen.push(...((await it.next()).value as { n: number }[]).map((r) => r.n));
      seen.push(...((await it.next()).value as { n: number }[]).map((r) => r.n));
      expect(await cursors()).toBe(1); // the second batch came from the held cursor
      for (let r = await it.next(); !r.done; r = await it.next()) seen.push(...r.value.map((x) => x.n));
      expect(seen).toEqual(Array.from({ length: 95 }, (_, i) => 95 - i));
      expect(await cursors()).toBe(0);
    } finally {
      await db.close();
    }
  });
});
