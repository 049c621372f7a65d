import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createTestDb, TEST_DRIVERS, type TestDb } from '../support/db';
import { buildTestApp } from '../support/app';
import { countingDb } from '../support/counting-db';
import { insertUser, loginAs, type SignedIn } from '../support/login';
import { openDb, type Db, type ListenHandlers, type Listener } from '../../src/server/db';
import { SessionCache } from '../../src/server/auth/session-cache';

const profile = (app: FastifyInstance, s: SignedIn) => app.inject({ method: 'GET', url: '/api/userprofile', headers: s.headers() });

describe.each(TEST_DRIVERS)('sessions held per process, dropped on the database notification, on %s', (driver) => {
  let t: TestDb;
  let app: FastifyInstance;
  let counter: ReturnType<typeof countingDb>;

  beforeAll(async () => {
    t = await createTestDb(driver);
    counter = countingDb(t.db);
    app = await buildTestApp(counter.db);
    for (const userId of ['CACHED1', 'CACHED2', 'CACHED3']) await insertUser(t.db, { userId, userLevel: 'LA', rlyCode: 'NR', divCode: 'DLI', lobbyCode: 'NDLS' });
  });
  afterAll(async () => {
    await app?.close();
    await t?.drop();
  });

  it('a session read once is checked without a database statement on the next requests', async () => {
    const s = await loginAs(app, 'CACHED1');
    // The sign-in's audit entry written now: otherwise the trail's timer may write it during the requests counted.
    await app.audit.flush();
    counter.reset();
    expect((await profile(app, s)).statusCode).toBe(200);
    expect(counter.count()).toBe(1);
    counter.reset();
    for (let i = 0; i < 3; i += 1) expect((await profile(app, s)).statusCode).toBe(200);
    expect(counter.count()).toBe(0);
  });

  it('a change made in SQL by hand (user deactivated, session revoked) takes effect on the next request', async () => {
    const s = await loginAs(app, 'CACHED2');
    expect((await profile(app, s)).statusCode).toBe(200);
    await t.db.query(`UPDATE users SET active = false WHERE user_id = 'CACHED2'`);
    await new Promise((r) => setTimeout(r, 50)); // PostgreSQL delivers on the listening connection
    const res = await profile(app, s);
    expect(res.statusCode).toBe(401);
    expect(res.body).toContain('Session invalid or superseded');
    await t.db.query(`UPDATE users SET active = true WHERE user_id = 'CACHED2'`);

    const s2 = await loginAs(app, 'CACHED2');
    expect((await profile(app, s2)).statusCode).toBe(200);
    await t.db.query(`UPDATE auth_sessions SET revoked_at = now() WHERE user_id = 'CACHED2'`);
    await new Promise((r) => setTimeout(r, 50));
    expect((await profile(app, s2)).statusCode).toBe(401);
  });

  it('the end of a held session is checked on every request (the clock passes it, no database change)', async () => {
    const s = await loginAs(app, 'CACHED3');
    // The session ends in 60 s (announced: the next request reads and holds the new end).
    await t.db.query(`UPDATE auth_sessions SET expires_at = now() + interval '60 seconds' WHERE user_id = 'CACHED3' AND revoked_at IS NULL`);
    await new Promise((r) => setTimeout(r, 50));
    expect((await profile(app, s)).statusCode).toBe(200);
    await app.audit.flush();
    counter.reset();
    expect((await profile(app, s)).statusCode).toBe(200);
    expect(counter.count()).toBe(0); // held
    // 2 minutes later by the auth clock: the access token (15 min) is still good, the held session is not.
    await app.inject({ method: 'POST', url: '/api/test-hooks/clock', payload: { advanceMs: 120_000 } });
    expect((await profile(app, s)).statusCode).toBe(403);
  });
});

describe.skipIf(!TEST_DRIVERS.includes('pg'))('two server processes on one PostgreSQL (separate pools and listeners)', () => {
  let t: TestDb;
  let a: FastifyInstance;
  let b: FastifyInstance;
  let otherDb: Db;
  /**
   * A request to b over HTTP, as the user's next request reaches another process: through the network, after the
   * answer. (inject would run it in this tick, before b's event loop has read its listening connection at all.)
   */
  let profileOnB: (s: SignedIn) => Promise<{ statusCode: number; body: string }>;

  beforeAll(async () => {
    t = await createTestDb('pg');
    if (!t.url) throw new Error('no url');
    otherDb = await openDb({ databaseUrl: t.url, dataDir: null });
    a = await buildTestApp(t.db);
    b = await buildTestApp(otherDb);
    const bUrl = await b.listen({ port: 0, host: '127.0.0.1' });
    profileOnB = async (s) => {
      const res = await fetch(`${bUrl}/api/userprofile`, { headers: s.headers() });
      return { statusCode: res.status, body: await res.text() };
    };
    for (const userId of ['TWOCACHE', 'TWOSUPER']) await insertUser(t.db, { userId, userLevel: 'SU' });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await otherDb?.close();
    await t?.drop();
  });

  it('sign-out on one process is refused at once on the other, which held the session', async () => {
    const s = await loginAs(a, 'TWOCACHE');
    expect((await profile(b, s)).statusCode).toBe(200); // b now holds it
    expect((await profile(b, s)).statusCode).toBe(200);
    const out = await a.inject({ method: 'POST', url: '/api/logout', headers: s.headers(), payload: { userId: 'TWOCACHE' } });
    expect(out.statusCode).toBe(200);
    // No wait: the next request to the other process, straight after the logout answer.
    const onB = await profileOnB(s);
    expect(onB.statusCode).toBe(401);
    expect(onB.body).toContain('Session invalid or superseded');
    expect((await profile(a, s)).statusCode).toBe(401);
  });

  it('a sign-in on one process supersedes the session the other held (one session per user)', async () => {
    const first = await loginAs(a, 'TWOSUPER');
    expect((await profile(b, first)).statusCode).toBe(200);
    expect((await profile(a, first)).statusCode).toBe(200);
    const second = await loginAs(a, 'TWOSUPER');
    expect((await profileOnB(first)).statusCode).toBe(401);
    expect((await profile(a, first)).statusCode).toBe(401);
    expect((await profile(b, second)).statusCode).toBe(200);
  });
});

describe('the cache holds nothing while its listening connection is down', () => {
  /** A Db whose listen() is driven by the test, standing in for a dropped PostgreSQL connection. */
  function fakeListenDb(): { db: Db; handlers: () => ListenHandlers } {
    let h: ListenHandlers | undefined;
    const db = {
      listen: (_channel: string, handlers: ListenHandlers): Promise<Listener> => {
        h = handlers;
        handlers.state(true);
        return Promise.resolve({ close: () => Promise.resolve() });
      },
    } as unknown as Db; // only listen() is used by SessionCache.start
    return { db, handlers: () => { if (!h) throw new Error('not listening'); return h; } };
  }

  it('drops everything on a lost connection, holds nothing until listening again, and refuses rows read across a notification', async () => {
    const f = fakeListenDb();
    const cache = new SessionCache<{ session_id: string; user_id: string }>();
    await cache.start(f.db);
    cache.set({ session_id: 'S1', user_id: 'U1' }, cache.generation());
    expect(cache.get('S1')?.user_id).toBe('U1');

    f.handlers().state(false);
    expect(cache.get('S1')).toBeUndefined();
    cache.set({ session_id: 'S1', user_id: 'U1' }, cache.generation());
    expect(cache.get('S1')).toBeUndefined(); // not held while deaf

    f.handlers().state(true);
    const since = cache.generation();
    f.handlers().message('s:OTHER'); // a change announced while our read of S1 was under way
    cache.set({ session_id: 'S1', user_id: 'U1' }, since);
    expect(cache.get('S1')).toBeUndefined();
    cache.set({ session_id: 'S1', user_id: 'U1' }, cache.generation());
    expect(cache.get('S1')).toBeDefined();
    f.handlers().message('u:U1');
    expect(cache.get('S1')).toBeUndefined();
    cache.set({ session_id: 'S2', user_id: 'U2' }, cache.generation());
    f.handlers().message('*');
    expect(cache.get('S2')).toBeUndefined();
  });

  it('re-reads a held session after its time to live', async () => {
    let now = 0;
    const f = fakeListenDb();
    const cache = new SessionCache<{ session_id: string; user_id: string }>({ ttlMs: 1000, nowMs: () => now });
    await cache.start(f.db);
    cache.set({ session_id: 'S1', user_id: 'U1' }, cache.generation());
    now = 999;
    expect(cache.get('S1')).toBeDefined();
    now = 2001;
    expect(cache.get('S1')).toBeUndefined();
  });
});
