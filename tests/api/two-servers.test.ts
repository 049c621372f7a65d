import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../support/db';
import { insertUser, loginOverHttp, TEST_PAYLOAD_KEY, type SignedIn } from '../support/login';
import { decryptJson } from '../../src/shared/crypto';
import { startServer, type RunningServer } from '../support/server';

/**
 * Several app servers on one PostgreSQL database behave as one (docs/deployment.md): two real server processes,
 * as two machines behind a load balancer would run, and one signed-in user moved between them. When CI provides
 * a streaming replica (TEST_DATABASE_REPLICA_URLS) both servers read reports through it, as in production.
 */
describe.runIf(process.env.TEST_DATABASE_URL)('two app servers on one PostgreSQL database', () => {
  let t: TestDb;
  let a: RunningServer;
  let b: RunningServer;

  beforeAll(async () => {
    t = await createTestDb('pg');
    await insertUser(t.db, { userId: 'ROAMER', userLevel: 'SU' });
    const env = {
      HHT_SEED: 'none', HHT_WORKERS: '1', DATABASE_URL: t.url ?? '',
      ...(t.replicaUrls?.length ? { DATABASE_REPLICA_URLS: t.replicaUrls.join(','), DATABASE_REPLICA_MAX_LAG_MS: '0' } : {}),
    };
    [a, b] = await Promise.all([startServer(env), startServer(env)]);
  }, 300_000);
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await t?.drop();
  });

  const profile = (server: RunningServer, s: SignedIn) => fetch(`${server.url}/api/userprofile`, { headers: s.headers() });
  const refresh = (server: RunningServer, s: SignedIn) =>
    fetch(`${server.url}/api/refreshToken`, {
      method: 'POST',
      headers: { authorization: `Bearer ${s.refreshToken}`, cookie: s.cookie, 'x-xsrf-token': s.xsrfToken },
    });
  const withTokens = (s: SignedIn, accessToken: string, refreshToken: string): SignedIn => ({
    ...s, accessToken, refreshToken,
    headers: () => ({ authorization: `Bearer ${accessToken}`, cookie: s.cookie, 'x-xsrf-token': s.xsrfToken }),
  });

  /**
   * The status of a request to another process once the sign-out has reached it: the route that ended the session
   * answered after its own listener heard the change, and another process drops the session when its listener does
   * (docs/decisions.md, the session cache): on a starved machine a request may arrive before that, so ask again for
   * up to 2 s. A process that never heard of the change still fails.
   */
  const afterFence = async (ask: () => Promise<Response>): Promise<number> => {
    const until = Date.now() + 2_000;
    for (;;) {
      const r = await ask();
      if (r.status !== 200 || Date.now() > until) return r.status;
      await new Promise((done) => setTimeout(done, 50));
    }
  };

  it('a user signed in on A is served by B, refreshes on B, is superseded across them and signs out on B for both', async () => {
    expect(a.port).not.toBe(b.port);
    const s1 = await loginOverHttp(a.url, 'ROAMER');

    // The token A issued works on B (shared signing key in the database, session rows on the primary).
    const onB = await profile(b, s1);
    expect(onB.status).toBe(200);
    expect(JSON.stringify(decryptJson((await onB.json() as { encryptedProfile: string }).encryptedProfile, TEST_PAYLOAD_KEY))).toContain('ROAMER');
    const reports = await fetch(`${b.url}/api/meta/reports`, { headers: s1.headers() });
    expect(reports.status).toBe(200);

    // Refresh on B: the new pair works on A; the old refresh token, now used, is refused on A.
    const r = await refresh(b, s1);
    expect(r.status).toBe(200);
    const fresh = (await r.json()) as { accessToken: string; refreshToken: string };
    const s1b = withTokens(s1, fresh.accessToken, fresh.refreshToken);
    expect((await profile(a, s1b)).status).toBe(200);
    // The new pair refreshed on A; the first refresh token (its successor used, so not a lost answer) is refused on A.
    expect((await refresh(a, s1b)).status).toBe(200);
    expect((await refresh(a, s1)).status).toBe(401);

    // One session per user across servers: signing in on B supersedes the session A and B were serving.
    const s2 = await loginOverHttp(b.url, 'ROAMER');
    expect(await afterFence(() => profile(a, s1b))).toBe(401);
    expect(await (await profile(a, s1b)).text()).toContain('Session invalid or superseded');
    expect((await profile(a, s2)).status).toBe(200);

    // Sign-out on B ends the session on A too.
    const out = await fetch(`${b.url}/api/logout`, {
      method: 'POST', headers: { ...s2.headers(), 'content-type': 'application/json' }, body: JSON.stringify({ userId: 'ROAMER' }),
    });
    expect(out.status).toBe(200);
    expect((await profile(b, s2)).status).toBe(401);
    expect(await afterFence(() => profile(a, s2))).toBe(401);
    expect((await refresh(a, s2)).status).toBe(401);
  }, 120_000);
});
