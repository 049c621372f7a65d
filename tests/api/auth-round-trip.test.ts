import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createTestDb, TEST_DRIVERS, type TestDb } from '../support/db';
import { buildTestApp } from '../support/app';
import { countingDb } from '../support/counting-db';
import { insertUser, loginAs } from '../support/login';

describe.each(TEST_DRIVERS)('one database round trip per authenticated request, on %s', (driver) => {
  let t: TestDb;
  let app: FastifyInstance;
  let counter: ReturnType<typeof countingDb>;

  beforeAll(async () => {
    t = await createTestDb(driver);
    counter = countingDb(t.db);
    app = await buildTestApp(counter.db);
    await insertUser(t.db, { userId: 'ONETRIP', userLevel: 'LA', rlyCode: 'NR', divCode: 'DLI', lobbyCode: 'NDLS' });
  });
  afterAll(async () => {
    await app?.close();
    await t?.drop();
  });

  it('the token check loads session, user and profile in one statement', async () => {
    const s = await loginAs(app, 'ONETRIP');
    // The sign-in's audit entry written now: otherwise the trail's timer may write it during the request counted.
    await app.audit.flush();
    counter.reset();
    const res = await app.inject({ method: 'GET', url: '/api/userprofile', headers: s.headers() });
    expect(res.statusCode).toBe(200);
    expect(counter.count()).toBe(1); // the profile route itself reads nothing more
    counter.reset();
    expect((await app.inject({ method: 'GET', url: '/api/userprofile' })).statusCode).toBe(403);
    expect(counter.count()).toBe(0); // no token: no database work at all
  });
});
