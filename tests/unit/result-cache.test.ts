import { describe, expect, it } from 'vitest';
import { ReportResultCache } from '../../src/server/reports/result-cache';
import { mayWrite, noteLocalWrite, trackWrites, watchTables } from '../../src/server/db/write-generation';
import { AUDIT_INSERT_SQL, AUDIT_PARTITIONS_SQL } from '../../src/server/audit/trail';
import type { Db, ListenHandlers } from '../../src/server/db';

/** Only what the cache uses of a Db: a listen whose handlers the test drives, and the table list query. */
function fakeDb(): { db: Db; handlers: () => ListenHandlers } {
  let h: ListenHandlers | undefined;
  const db = {
    driver: 'pglite',
    query: async () => ({ rows: [{ name: 'passengers' }, { name: 'train_runs' }] }),
    listen: async (_channel: string, handlers: ListenHandlers) => {
      h = handlers;
      handlers.state(true);
      return { close: async () => undefined };
    },
  } as unknown as Db; // the cache calls query (table list) and listen only
  return { db, handlers: () => h as ListenHandlers };
}

async function started(opts: Partial<ConstructorParameters<typeof ReportResultCache>[0]> = {}) {
  const fake = fakeDb();
  let now = 1_000;
  const cache = new ReportResultCache({ ttlMs: 5_000, maxBytes: 1024 * 1024, nowMs: () => now, ...opts });
  await cache.start(fake.db);
  return { cache, handlers: fake.handlers, advance: (ms: number) => void (now += ms) };
}

const body = (n: number, fill = 'x'): string => JSON.stringify({ rows: fill.repeat(n) });

describe('report result cache', () => {
  it('holds an answer, serves it until the TTL, then computes again', async () => {
    const { cache, advance } = await started();
    let runs = 0;
    const compute = async () => `{"n":${(runs += 1)}}`;
    const k = ReportResultCache.key(['rows', 'SELECT 1', [1]]);
    expect((await cache.get(k, compute)).body.json.toString()).toBe('{"n":1}');
    expect((await cache.get(k, compute)).body.json.toString()).toBe('{"n":1}');
    advance(5_001);
    expect((await cache.get(k, compute)).body.json.toString()).toBe('{"n":2}');
    expect(cache.stats.hits).toBe(1);
  });

  it('concurrent identical misses share one computation', async () => {
    const { cache } = await started();
    let runs = 0;
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => (release = r));
    const compute = async () => {
      runs += 1;
      await gate;
      return '{"a":1}';
    };
    const k = ReportResultCache.key(['same']);
    const all = Promise.all([cache.get(k, compute), cache.get(k, compute), cache.get(k, compute)]);
    release();
    const answers = await all;
    expect(runs).toBe(1);
    expect(answers.map((a) => a.served).sort()).toEqual(['computed', 'shared', 'shared']);
    expect(answers.every((a) => a.body.json.toString() === '{"a":1}')).toBe(true);
    expect(cache.stats.shared).toBe(2);
  });

  it('an answer computed across a change is not held, and a request after the change does not join it', async () => {
    const { cache, handlers } = await started();
    let runs = 0;
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => (release = r));
    const slow = async () => {
      runs += 1;
      await gate;
      return `{"run":${runs}}`;
    };
    const k = ReportResultCache.key(['across']);
    const first = cache.get(k, slow);
    handlers().message(''); // another process wrote while the query ran
    const second = cache.get(k, async () => `{"run":"after"}`);
    release();
    expect((await first).body.json.toString()).toBe('{"run":1}');
    expect((await second).body.json.toString()).toBe('{"run":"after"}');
    // The first answer was not held; the second (begun after the change) was.
    expect((await cache.get(k, async () => '{"run":"third"}')).body.json.toString()).toBe('{"run":"after"}');
  });

  it('a write of this process drops what was held, before any notification', async () => {
    const { cache } = await started();
    const k = ReportResultCache.key(['local']);
    await cache.get(k, async () => '{"v":1}');
    noteLocalWrite();
    expect((await cache.get(k, async () => '{"v":2}')).body.json.toString()).toBe('{"v":2}');
  });

  it('serves nothing while the listening connection is down, and starts empty when it is back', async () => {
    const { cache, handlers } = await started();
    const k = ReportResultCache.key(['down']);
    await cache.get(k, async () => '{"v":1}');
    handlers().state(false);
    expect(cache.active).toBe(false);
    expect((await cache.get(k, async () => '{"v":2}')).body.json.toString()).toBe('{"v":2}');
    expect(cache.size).toBe(0);
    handlers().state(true);
    expect((await cache.get(k, async () => '{"v":3}')).body.json.toString()).toBe('{"v":3}');
    expect((await cache.get(k, async () => '{"v":4}')).body.json.toString()).toBe('{"v":3}');
  });

  it('errors are not held: the next call computes again', async () => {
    const { cache } = await started();
    const k = ReportResultCache.key(['err']);
    await expect(cache.get(k, async () => Promise.reject(new Error('timeout')))).rejects.toThrow('timeout');
    expect(cache.size).toBe(0);
    expect((await cache.get(k, async () => '{"ok":true}')).body.json.toString()).toBe('{"ok":true}');
  });

  it('stays within its memory bound, dropping the least recently used; bodies over the entry limit are not held', async () => {
    const { cache } = await started({ maxBytes: 3_000, maxEntryBytes: 1_500 });
    const [a, b, c, big] = ['a', 'b', 'c', 'big'].map((x) => ReportResultCache.key([x]));
    await cache.get(a, async () => body(1_000));
    await cache.get(b, async () => body(1_000));
    await cache.get(a, async () => 'recomputed'); // a is now the most recently used
    await cache.get(c, async () => body(1_000)); // over 3,000 bytes: b goes
    expect(cache.heldBytes).toBeLessThanOrEqual(3_000);
    expect(cache.stats.evicted).toBe(1);
    expect((await cache.get(a, async () => 'recomputed')).body.json.toString()).toBe(body(1_000));
    expect((await cache.get(b, async () => 'recomputed')).body.json.toString()).toBe('recomputed');
    await cache.get(big, async () => body(2_000));
    expect((await cache.get(big, async () => 'again')).body.json.toString()).toBe('again');
  });

  it('compressed forms are made once per answer and count against the bound', async () => {
    const { cache } = await started();
    const k = ReportResultCache.key(['zip']);
    const held = (await cache.get(k, async () => body(5_000, 'ab'))).body;
    const before = cache.heldBytes;
    const br = await held.encode('br');
    expect(await held.encode('br')).toBe(br); // the same buffer, not compressed again
    await new Promise((r) => setTimeout(r, 0));
    expect(cache.heldBytes).toBe(before + br.length);
  });

  it('with replicas that may lag, an answer begun within the lag of a change is served but not held', async () => {
    const { cache, handlers, advance } = await started({ replicaLagMs: 2_000 });
    const k = ReportResultCache.key(['replica']);
    advance(10_000);
    cache.generation(); // the change before this test is long past
    advance(10_000);
    handlers().message(''); // a write on the primary, announced now
    expect((await cache.get(k, async () => '{"v":1}')).served).toBe('computed');
    expect((await cache.get(k, async () => '{"v":2}')).body.json.toString()).toBe('{"v":2}'); // not held: a replica may not have it yet
    advance(2_001);
    expect((await cache.get(k, async () => '{"v":3}')).body.json.toString()).toBe('{"v":3}');
    expect((await cache.get(k, async () => '{"v":4}')).served).toBe('hit');
  });

  it('with replicas, a fresh cache holds answers at once: starting to count is not a change', async () => {
    const { cache } = await started({ replicaLagMs: 2_000 });
    const k = ReportResultCache.key(['fresh']);
    expect((await cache.get(k, async () => '{"v":1}')).served).toBe('computed');
    expect((await cache.get(k, async () => '{"v":2}')).served).toBe('hit');
  });

  it('keys only plain values, and different values make different keys', () => {
    expect(ReportResultCache.key(['s', ['1']])).not.toBe(ReportResultCache.key(['s', [1]]));
    expect(ReportResultCache.key(['s', [null]])).not.toBe(ReportResultCache.key(['s', ['null']]));
    expect(ReportResultCache.key(['s', [new Date(0)]])).toBeUndefined();
    expect(ReportResultCache.key(['s', [Number.NaN]])).toBeUndefined();
  });

  it('TTL 0: off, nothing held, no connection opened', async () => {
    let listened = false;
    const db = { listen: async () => ((listened = true), { close: async () => undefined }) } as unknown as Db; // listen only
    const cache = new ReportResultCache({ ttlMs: 0, maxBytes: 1024 });
    await cache.start(db);
    expect(listened).toBe(false);
    expect(cache.active).toBe(false);
    let runs = 0;
    const k = ReportResultCache.key(['off']);
    await cache.get(k, async () => `${(runs += 1)}`);
    await cache.get(k, async () => `${(runs += 1)}`);
    expect(runs).toBe(2);
  });
});

describe('which statements count as writes to data reports read', () => {
  it('reads do not count; writes to watched tables and their partitions, and our functions, do', async () => {
    watchTables(['passengers', 'train_runs', 'coach_deficiencies']);
    try {
      expect(mayWrite('SELECT * FROM passengers WHERE run_id = $1')).toBe(false);
      expect(mayWrite('SELECT 1')).toBe(false);
      expect(mayWrite("UPDATE auth_sessions SET revoked_at = now() WHERE session_id = $1")).toBe(false);
      expect(mayWrite('INSERT INTO auth_rate_counters (bucket) VALUES ($1)')).toBe(false);
      // The audit trail's flush (every second) must leave held answers alone.
      expect(mayWrite(AUDIT_PARTITIONS_SQL)).toBe(false);
      expect(mayWrite(AUDIT_INSERT_SQL)).toBe(false);
      // A transaction's COPY counts by its table, as a statement does: the trail's COPY leaves held answers alone.
      const copying = (): ReturnType<typeof trackWrites> =>
        trackWrites({ query: async () => ({ rows: [] }), exec: async () => undefined, copyFrom: async () => undefined });
      const audit = copying();
      await audit.q.copyFrom?.('audit_trail', ['at'], '');
      expect(audit.wrote()).toBe(false);
      const seed = copying();
      await seed.q.copyFrom?.('passengers', ['psgn_id'], '');
      expect(seed.wrote()).toBe(true);
      expect(mayWrite('UPDATE coach_deficiencies SET status = $1')).toBe(true);
      expect(mayWrite('DELETE FROM passengers_other WHERE run_id >= $1')).toBe(true);
      expect(mayWrite('SELECT hht_fill_rollups($1::bigint, $2::bigint)')).toBe(true);
      expect(mayWrite('WITH x AS (DELETE FROM train_runs RETURNING 1) SELECT count(*) FROM x')).toBe(true);
    } finally {
      watchTables([]);
    }
    expect(mayWrite('INSERT INTO anything VALUES (1)')).toBe(true); // nothing watched: every write counts
  });
});
