import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { cloneSeededTestDb } from '../support/seeded';
import type { TestDb } from '../support/db';
import { buildTestApp } from '../support/app';
import { loginAs, type SignedIn } from '../support/login';
import { manualClock } from '../../src/server/clock';
import type { Db } from '../../src/server/db';
import { localWrites } from '../../src/server/db/write-generation';
import type { IssuedCredential } from '../../src/shared/hht-sync';
import { IngestThread } from '../../src/server/hht/ingest-thread';
import { ingestBatch, type IngestBatch } from '../../src/server/hht/ingest';
import { EXTRAS_USERS, insertExtrasUsers, istNoon } from './extras-users';

/**
 * The Db, counting the statements on sync batches run through it (in its transactions or not): a batch stored by the
 * sync thread runs none here. Other writes (the audit trail's queue) may run meanwhile and are not counted.
 */
function countingTransactions(db: Db): { db: Db; count: () => number } {
  let n = 0;
  const counting = <Q extends Pick<Db, 'query'>>(q: Q): Q['query'] => (sql, params) => {
    if (/hht_sync_batches/.test(sql)) n += 1;
    return q.query(sql, params);
  };
  const wrapped = new Proxy(db, {
    get(target, prop, receiver) {
      if (prop === 'query') return counting(target);
      if (prop === 'transaction') {
        return <T>(fn: (tx: Parameters<Parameters<Db['transaction']>[0]>[0]) => Promise<T>) =>
          target.transaction((tx) => fn({ ...tx, query: counting(tx) }));
      }
      const v: unknown = Reflect.get(target, prop, receiver);
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
  return { db: wrapped, count: () => n };
}

interface Answer { rows: { description: string }[]; total: number }

// The sync thread runs on PostgreSQL only (the embedded database has one connection, owned by the main thread).
describe.skipIf(!process.env.TEST_DATABASE_URL)('device sync in its own thread on PostgreSQL', () => {
  let t: TestDb & { today: string };
  let counted: ReturnType<typeof countingTransactions>;
  let app: FastifyInstance;
  let su: SignedIn;
  let beat: { beat_id: number; device_id: string; coaches: string[]; train_no: string };
  let other: { beat_id: number };
  let token: string;

  const sync = (batchId: string, records: object[]) =>
    app.inject({ method: 'POST', url: '/api/hht/sync', headers: { authorization: `Bearer ${token}` }, payload: { batchId, records } });
  const deficiency = (id: string, beatId: number, description: string) => ({
    id, type: 'DEFICIENCY', beatId, coachId: beat.coaches[0] ?? 'B1', category: 'BEDROLL', description, stationCode: 'NDLS',
    reportedAt: new Date(istNoon(t.today).getTime() - 600_000).toISOString(),
  });

  beforeAll(async () => {
    t = await cloneSeededTestDb('pg');
    counted = countingTransactions(t.db);
    // DATABASE_URL set, as a server on PostgreSQL has it: the app starts the sync thread on it.
    app = await buildTestApp(counted.db, { clock: manualClock(istNoon(t.today)), config: { databaseUrl: t.url } });
    await insertExtrasUsers(t.db);
    su = await loginAs(app, EXTRAS_USERS.su.userId);
    const beats = (await t.db.query<{ beat_id: number; device_id: string; coaches: string[]; train_no: string }>(
      `SELECT b.beat_id, b.device_id, b.coaches, tr.train_no FROM beats b JOIN devices d USING (device_id)
         JOIN train_runs tr ON tr.run_id = b.run_id
        WHERE d.status = 'IN_SERVICE' AND tr.start_date = $1::date - 1 ORDER BY b.beat_id`,
      [t.today],
    )).rows;
    const first = beats[0];
    const another = beats.find((b) => b.device_id !== first?.device_id);
    if (!first || !another) throw new Error('the seed has no two beats with devices');
    beat = first;
    other = another;
    const issued = await app.inject({ method: 'POST', url: '/api/hht/credentials/issue', headers: su.headers(), payload: { deviceId: beat.device_id } });
    expect(issued.statusCode).toBe(200);
    token = issued.json<IssuedCredential>().token;
  });
  afterAll(async () => {
    await app?.close(); // closes the thread too: a thread left open would keep the test process alive
    await t?.drop();
  });

  it('stores a batch outside the request thread, and the very next report answer shows it', async () => {
    const d = new Date(`${t.today}T00:00:00Z`);
    d.setUTCDate(d.getUTCDate() - 7);
    const filter = { start_date: d.toISOString().slice(0, 10), end_date: t.today, trainNo: beat.train_no, category: 'BEDROLL' };
    const answer = async (): Promise<{ body: Answer; served: unknown }> => {
      const res = await app.inject({ method: 'POST', url: '/api/coach-deficiency', headers: su.headers(), payload: filter });
      expect(res.statusCode).toBe(200);
      return { body: res.json<Answer>(), served: res.headers['x-hht-cache'] };
    };
    const before = await answer();
    expect((await answer()).served).toBe('hit'); // held
    const transactions = counted.count();
    const writes = localWrites();
    const res = await sync('thread-1', [deficiency('thread-def-1', beat.beat_id, 'Thread test: torn curtain')]);
    expect(res.statusCode).toBe(200);
    expect(res.json<{ stored: number }>().stored).toBe(1);
    expect(counted.count()).toBe(transactions); // not stored through this thread's Db
    expect(transactions).toBe(0);
    // This process's write count moved before the device heard back: the held answer is not served again.
    expect(localWrites()).toBeGreaterThan(writes);
    const after = await answer();
    expect(after.served).toBe('computed');
    expect(after.body.total).toBe(before.body.total + 1);
    expect(after.body.rows.some((r) => r.description === 'Thread test: torn curtain')).toBe(true);
    const stored = await t.db.query<{ n: number }>("SELECT count(*)::int AS n FROM coach_deficiencies WHERE description = 'Thread test: torn curtain'");
    expect(stored.rows[0]?.n).toBe(1);
  });

  it('a refused batch and a reused batch id answer as they do in the request thread: 400 naming the field, 409, nothing stored', async () => {
    const refused = await sync('thread-2', [deficiency('thread-def-2', other.beat_id, 'Thread test: not my beat')]);
    expect(refused.statusCode).toBe(400);
    expect(refused.json<{ message: string }>().message).toContain('records[0].beatId');
    const again = await sync('thread-1', [deficiency('thread-def-3', beat.beat_id, 'Thread test: other records')]);
    expect(again.statusCode).toBe(409);
    expect(again.json<{ message: string }>().message).toContain('thread-1');
    const stored = await t.db.query<{ n: number }>("SELECT count(*)::int AS n FROM coach_deficiencies WHERE description LIKE 'Thread test: %'");
    expect(stored.rows[0]?.n).toBe(1);
    // The first batch again, as sent: the same answer, replayed.
    const replay = await sync('thread-1', [deficiency('thread-def-1', beat.beat_id, 'Thread test: torn curtain')]);
    expect(replay.statusCode).toBe(200);
    expect(replay.json<{ replayed: boolean; stored: number }>()).toMatchObject({ replayed: true, stored: 1 });
  });

  it('a sync thread that stopped hands later batches to the request thread: they are stored, not lost', async () => {
    const fellBack: string[] = [];
    const thread = await IngestThread.start(t.url ?? '', (b) => {
      fellBack.push(b.batchId);
      return ingestBatch(t.db, b);
    });
    const batch = (batchId: string, id: string): IngestBatch => ({
      deviceId: beat.device_id, batchId, receivedAt: istNoon(t.today), records: [deficiency(id, beat.beat_id, `Thread test: ${batchId}`)] as IngestBatch['records'],
    });
    expect((await thread.ingest(batch('thread-3', 'thread-def-4'))).stored).toBe(1);
    expect(fellBack).toEqual([]);
    await thread.terminate();
    expect((await thread.ingest(batch('thread-4', 'thread-def-5'))).stored).toBe(1);
    expect(fellBack).toEqual(['thread-4']);
    const stored = await t.db.query<{ d: string }>("SELECT description AS d FROM coach_deficiencies WHERE description IN ('Thread test: thread-3', 'Thread test: thread-4') ORDER BY 1");
    expect(stored.rows.map((r) => r.d)).toEqual(['Thread test: thread-3', 'Thread test: thread-4']);
    await thread.close();
  });
});
