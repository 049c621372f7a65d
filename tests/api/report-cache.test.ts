import { brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { TEST_DRIVERS, type TestDb } from '../support/db';
import { cloneSeededTestDb } from '../support/seeded';
import { buildTestApp } from '../support/app';
import { loginAs, type SignedIn } from '../support/login';
import { manualClock } from '../../src/server/clock';
import type { Db } from '../../src/server/db';
import { localWrites } from '../../src/server/db/write-generation';
import type { IssuedCredential } from '../../src/shared/hht-sync';
import { EXTRAS_USERS, insertExtrasUsers, istNoon } from './extras-users';

/** The Db, counting report queries (Db.reportSession): a cache hit runs none. */
function countingReports(db: Db): { db: Db; runs: () => number } {
  let n = 0;
  const wrapped = new Proxy(db, {
    get(target, prop, receiver) {
      if (prop === 'reportSession') {
        return (timeoutMs: number, fn: Parameters<Db['reportSession']>[1]) => {
          n += 1;
          return target.reportSession(timeoutMs, fn);
        };
      }
      const v: unknown = Reflect.get(target, prop, receiver);
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
  return { db: wrapped, runs: () => n };
}

interface Answer {
  rows: { train_no: string; div_code: string; status: string; category: string; description: string }[];
  total: number;
}

async function waitFor(cond: () => boolean, ms = 3000): Promise<void> {
  const until = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe.each(TEST_DRIVERS)('report result cache on %s', (driver) => {
  let t: TestDb & { today: string };
  let counted: ReturnType<typeof countingReports>;
  let app: FastifyInstance;
  let su: SignedIn;
  let dli: SignedIn;
  let bct: SignedIn;
  let week: { start_date: string; end_date: string };

  const call = (s: SignedIn, filter: object, query = '', headers: Record<string, string> = {}) =>
    app.inject({ method: 'POST', url: `/api/coach-deficiency${query}`, headers: { ...s.headers(), ...headers }, payload: filter });
  const answer = async (s: SignedIn, filter: object): Promise<Answer> => {
    const res = await call(s, filter);
    expect(res.statusCode).toBe(200);
    return res.json<Answer>();
  };

  beforeAll(async () => {
    t = await cloneSeededTestDb(driver);
    counted = countingReports(t.db);
    app = await buildTestApp(counted.db, { clock: manualClock(istNoon(t.today)) });
    await insertExtrasUsers(t.db);
    su = await loginAs(app, EXTRAS_USERS.su.userId);
    dli = await loginAs(app, EXTRAS_USERS.div.userId);
    bct = await loginAs(app, EXTRAS_USERS.bct.userId);
    const d = new Date(`${t.today}T00:00:00Z`);
    d.setUTCDate(d.getUTCDate() - 7);
    week = { start_date: d.toISOString().slice(0, 10), end_date: t.today };
  });
  afterAll(async () => {
    await app?.close();
    await t?.drop();
  });

  it('serves a second identical call from memory: no SQL runs, same bytes, compressed once', async () => {
    expect(app.reportCache.active).toBe(true);
    const filter = { ...week, category: 'WATER' };
    const first = await call(su, filter);
    expect(first.statusCode).toBe(200);
    const runs = counted.runs();
    const hits = app.reportCache.stats.hits;
    const second = await call(su, filter);
    expect(second.statusCode).toBe(200);
    expect(second.body).toBe(first.body);
    expect(counted.runs()).toBe(runs);
    expect(first.headers['x-hht-cache']).toBe('computed'); // told with test hooks only
    expect(second.headers['x-hht-cache']).toBe('hit');
    expect(app.reportCache.stats.hits).toBe(hits + 1);
    expect(second.json<Answer>().total).toBeGreaterThan(0);
    // The compressed form comes from the held answer: the same bytes each time, decoding to the same JSON.
    const br1 = await call(su, filter, '', { 'accept-encoding': 'br' });
    const br2 = await call(su, filter, '', { 'accept-encoding': 'br' });
    expect(br1.headers['content-encoding']).toBe('br');
    expect(br1.headers.vary).toContain('Accept-Encoding');
    expect(br2.rawPayload.equals(br1.rawPayload)).toBe(true);
    expect(brotliDecompressSync(br2.rawPayload).toString()).toBe(first.body);
    expect(counted.runs()).toBe(runs);
  });

  it('users of different scopes never share an answer: each gets its own division with the cache warm', async () => {
    const filter = { ...week };
    for (let round = 0; round < 2; round += 1) {
      const a = await answer(dli, filter);
      const b = await answer(bct, filter);
      const all = await answer(su, filter);
      expect(a.total).toBeGreaterThan(0);
      expect(b.total).toBeGreaterThan(0);
      expect(a.rows.every((r) => r.div_code === 'DLI')).toBe(true);
      expect(b.rows.every((r) => r.div_code === 'BCT')).toBe(true);
      expect(all.rows.some((r) => r.div_code === 'DLI') && all.rows.some((r) => r.div_code === 'BCT')).toBe(true);
    }
    // A second user of the same division and filter shares the held answer (same SQL, same bound values).
    const du = await loginAs(app, EXTRAS_USERS.du.userId);
    const runs = counted.runs();
    expect((await answer(du, filter)).rows.every((r) => r.div_code === 'DLI')).toBe(true);
    expect(counted.runs()).toBe(runs);
  });

  it('a synced HHT record changes the very next answer', async () => {
    const beat = (
      await t.db.query<{ beat_id: number; device_id: string; coaches: string[]; train_no: string }>(
        `SELECT b.beat_id, b.device_id, b.coaches, tr.train_no FROM beats b JOIN devices d USING (device_id)
          JOIN train_runs tr ON tr.run_id = b.run_id
         WHERE d.status = 'IN_SERVICE' AND tr.start_date = $1::date - 1 ORDER BY b.beat_id LIMIT 1`,
        [t.today],
      )
    ).rows[0];
    if (!beat) throw new Error('no beat in the seed');
    const filter = { ...week, trainNo: beat.train_no, category: 'BEDROLL' };
    const before = await answer(su, filter);
    expect((await answer(su, filter)).total).toBe(before.total); // held
    const issued = await app.inject({ method: 'POST', url: '/api/hht/credentials/issue', headers: su.headers(), payload: { deviceId: beat.device_id } });
    expect(issued.statusCode).toBe(200);
    const token = issued.json<IssuedCredential>().token;
    const synced = await app.inject({
      method: 'POST', url: '/api/hht/sync', headers: { authorization: `Bearer ${token}` },
      payload: {
        batchId: 'cache-1',
        records: [{
          id: 'cache-def-1', type: 'DEFICIENCY', beatId: beat.beat_id, coachId: beat.coaches[0] ?? 'B1', category: 'BEDROLL',
          description: 'Cache test: no blanket', stationCode: 'NDLS', reportedAt: new Date(istNoon(t.today).getTime() - 600_000).toISOString(),
        }],
      },
    });
    expect(synced.statusCode).toBe(200);
    const after = await answer(su, filter);
    expect(after.total).toBe(before.total + 1);
    expect(after.rows.some((r) => r.description === 'Cache test: no blanket')).toBe(true);
  });

  it.skipIf(driver !== 'pg')('a write from another connection (plain SQL, even as a bulk load with triggers off) is announced by the database and drops what was held', async () => {
    const filter = { ...week, status: 'OPEN', category: 'AC' };
    const before = await answer(su, filter);
    expect(before.total).toBeGreaterThan(0);
    const runs = counted.runs();
    await answer(su, filter);
    expect(counted.runs()).toBe(runs); // held
    const gen = app.reportCache.generation();
    const writes = localWrites();
    const other = new pg.Client({ connectionString: t.url });
    await other.connect();
    try {
      // As a bulk load would write: session_replication_role = replica skips ordinary triggers, not this one.
      await other.query('BEGIN');
      await other.query('SET LOCAL session_replication_role = replica');
      await other.query(`UPDATE coach_deficiencies SET status = 'CLOSED', closed_at = now()
        WHERE deficiency_id = (SELECT cd.deficiency_id FROM coach_deficiencies cd JOIN train_runs tr USING (run_id)
                               WHERE cd.status = 'OPEN' AND cd.category = 'AC' AND tr.start_date BETWEEN $1::date AND $2::date
                               ORDER BY cd.deficiency_id LIMIT 1)`, [week.start_date, week.end_date]);
      await other.query('COMMIT');
    } finally {
      await other.end();
    }
    await waitFor(() => app.reportCache.generation() !== gen);
    expect(localWrites()).toBe(writes); // not this process's write: the notification moved it
    expect((await answer(su, filter)).total).toBe(before.total - 1);
  });

  it('every table the report role reads announces its changes (trigger of migration 017)', async () => {
    const missing = await t.db.query<{ relname: string }>(
      `SELECT c.relname FROM pg_class c JOIN pg_namespace s ON s.oid = c.relnamespace
        WHERE s.nspname = current_schema() AND c.relkind IN ('r', 'p') AND NOT c.relispartition
          AND has_table_privilege('hht_report', c.oid, 'SELECT')
          AND NOT EXISTS (SELECT 1 FROM pg_trigger g WHERE g.tgrelid = c.oid AND g.tgname = 'hht_report_data_changed'
                            AND g.tgenabled = 'A')`, // fires under session_replication_role = replica (bulk loads) too
    );
    expect(missing.rows).toEqual([]);
    const watched = await t.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_trigger WHERE tgname = 'hht_report_data_changed'`,
    );
    expect(watched.rows[0]?.n).toBeGreaterThanOrEqual(20);
  });

  it('a clock move by the test hook drops what was held (the live feed releases records as time passes)', async () => {
    const filter = { ...week, category: 'ELECTRICAL' };
    await answer(su, filter);
    const runs = counted.runs();
    await answer(su, filter);
    expect(counted.runs()).toBe(runs);
    const moved = await app.inject({ method: 'POST', url: '/api/test-hooks/clock', payload: { advanceMs: 60_000 } });
    expect(moved.statusCode).toBe(200);
    await answer(su, filter);
    expect(counted.runs()).toBe(runs + 1);
  });

  it('errors are not held: a failing call runs again and fails again', async () => {
    const filter = { ...week };
    const stored = app.reportCache.stats.stored;
    const runs = counted.runs();
    for (let i = 0; i < 2; i += 1) {
      const res = await call(su, filter, '?aggregate=sum:no_such_column');
      expect(res.statusCode).toBe(400);
      expect(res.json<{ message: string }>().message).toContain('Cannot sum');
    }
    expect(app.reportCache.stats.stored).toBe(stored);
    expect(counted.runs()).toBe(runs); // refused before any SQL, each time
    // A good aggregate is held like rows are.
    const ok1 = await call(su, filter, '?aggregate=count');
    const runsAfter = counted.runs();
    const ok2 = await call(su, filter, '?aggregate=count');
    expect(ok2.body).toBe(ok1.body);
    expect(counted.runs()).toBe(runsAfter);
  });

  it('HHT_REPORT_CACHE_MS=0 turns it off: every call runs its SQL', async () => {
    const off = await buildTestApp(counted.db, { clock: manualClock(istNoon(t.today)), config: { reportCache: { ttlMs: 0, maxBytes: 1024 * 1024 } } });
    try {
      const s = await loginAs(off, EXTRAS_USERS.su.userId);
      expect(off.reportCache.active).toBe(false);
      const runs = counted.runs();
      for (let i = 0; i < 3; i += 1) {
        const res = await off.inject({ method: 'POST', url: '/api/coach-deficiency', headers: s.headers(), payload: week });
        expect(res.statusCode).toBe(200);
      }
      expect(counted.runs()).toBe(runs + 3);
      expect(off.reportCache.stats.hits).toBe(0);
    } finally {
      await off.close();
    }
  });
});
