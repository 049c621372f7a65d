import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createTestDb, TEST_DRIVERS, type TestDb } from '../support/db';
import { buildTestApp } from '../support/app';
import { insertUser, loginAs, TEST_PAYLOAD_KEY, type SignedIn } from '../support/login';
import { manualClock } from '../../src/server/clock';
import { decryptJson } from '../../src/shared/crypto';
import { parseProfile } from '../../src/shared/profile';

const START = new Date('2025-03-10T04:30:00Z');

describe.each(TEST_DRIVERS)('tokens, session rules and XSRF on %s', (driver) => {
  let t: TestDb;
  let app: FastifyInstance;
  const clock = manualClock(START);

  beforeAll(async () => {
    t = await createTestDb(driver);
    app = await buildTestApp(t.db, { clock });
    await insertUser(t.db, {
      userId: 'SESSDIV', name: 'Amit Saxena', designation: 'Sr DCM', userLevel: 'DA', rlyCode: 'NR', divCode: 'DLI',
      mobileNo: '9812234567',
    });
    for (const id of ['SESS1', 'SESS2', 'SESS3', 'SESS4', 'SESS5', 'SESS6', 'SESS7', 'SESS8', 'SESS9', 'SESS10']) {
      await insertUser(t.db, { userId: id, userLevel: 'ZA', rlyCode: 'NR' });
    }
  });
  afterAll(async () => {
    await app?.close();
    await t?.drop();
  });

  const profile = (s: SignedIn, headers: Record<string, string> = s.headers()) =>
    app.inject({ method: 'GET', url: '/api/userprofile', headers });
  const refresh = (refreshToken: string, s: SignedIn) =>
    app.inject({
      method: 'POST', url: '/api/refreshToken',
      headers: { authorization: `Bearer ${refreshToken}`, cookie: s.cookie, 'x-xsrf-token': s.xsrfToken },
    });

  it('the access token is an HS256 JWT with sub = user id and a session id, valid 15 minutes', async () => {
    const s = await loginAs(app, 'SESSDIV');
    const [header, payload] = s.accessToken.split('.').slice(0, 2).map((p) => JSON.parse(Buffer.from(p, 'base64url').toString()) as Record<string, unknown>);
    expect(header?.alg).toBe('HS256');
    expect(payload?.sub).toBe('SESSDIV');
    expect(typeof payload?.sid).toBe('string');
    expect(Number(payload?.exp) - Number(payload?.iat)).toBe(15 * 60);
  });

  it('GET /api/userprofile returns the encrypted profile of the stored user', async () => {
    const s = await loginAs(app, 'SESSDIV');
    const res = await profile(s);
    expect(res.statusCode).toBe(200);
    const { encryptedProfile } = res.json<{ encryptedProfile: string }>();
    expect(encryptedProfile).toMatch(/^U2FsdGVkX1/);
    expect(parseProfile(decryptJson(encryptedProfile, TEST_PAYLOAD_KEY))).toEqual({
      name: 'Amit Saxena', designation: 'Sr DCM', userLevel: 'DA', rlyCode: 'NR', lobbyCode: null, divCode: 'DLI',
      offCode: null, offType: null, mobileNo: '9812234567',
    });
  });

  it('no or invalid token -> 403; expired -> 401 JSON TOKEN_EXPIRED', async () => {
    const s = await loginAs(app, 'SESS1');
    expect((await app.inject({ method: 'GET', url: '/api/userprofile' })).statusCode).toBe(403);
    expect((await profile(s, { authorization: 'Bearer not.a.jwt' })).statusCode).toBe(403);
    const tampered = s.accessToken.slice(0, -3) + (s.accessToken.endsWith('AAA') ? 'BBB' : 'AAA');
    expect((await profile(s, { authorization: `Bearer ${tampered}` })).statusCode).toBe(403);
    expect((await profile(s, { authorization: `Bearer ${s.refreshToken}` })).statusCode).toBe(403);
    clock.advance(15 * 60_000 - 1000);
    expect((await profile(s)).statusCode).toBe(200);
    clock.advance(1000);
    const expired = await profile(s);
    expect(expired.statusCode).toBe(401);
    expect(expired.headers['content-type']).toMatch(/application\/json/);
    expect(expired.json()).toEqual({ code: 'TOKEN_EXPIRED', message: 'Access token expired' });
  });

  it('a refresh whose answer was lost may be asked again within 30 s; the lost token is then refused and ends the session', async () => {
    const s = await loginAs(app, 'SESS8');
    clock.advance(16 * 60_000);
    const lost = await refresh(s.refreshToken, s);
    expect(lost.statusCode).toBe(200);
    clock.advance(29_000);
    // The page reloaded before the answer arrived: the client still holds the token it sent.
    const again = await refresh(s.refreshToken, s);
    expect(again.statusCode).toBe(200);
    const p = again.json<{ accessToken: string; refreshToken: string }>();
    expect(p.refreshToken).not.toBe(lost.json<{ refreshToken: string }>().refreshToken);
    expect((await profile(s, { ...s.headers(), authorization: `Bearer ${p.accessToken}` })).statusCode).toBe(200);
    const next = await refresh(p.refreshToken, s);
    expect(next.statusCode).toBe(200);
    // The answer that never arrived has been retired: if it turns up after all, someone else holds it.
    const stray = await refresh(lost.json<{ refreshToken: string }>().refreshToken, s);
    expect(stray.statusCode).toBe(401);
    expect(stray.body).toBe('Session invalid or superseded');
    expect((await profile(s, { ...s.headers(), authorization: `Bearer ${next.json<{ accessToken: string }>().accessToken}` })).statusCode).toBe(401);
  });

  it('refreshes sent at once with one token (two tabs, a retry) each get a pair that keeps the session working', async () => {
    const s = await loginAs(app, 'SESS10');
    let token = s.refreshToken;
    for (let trial = 0; trial < 10; trial++) {
      clock.advance(16 * 60_000);
      const answers = await Promise.all([refresh(token, s), refresh(token, s), refresh(token, s)]);
      expect(answers.map((a) => a.statusCode), answers.map((a) => a.body).join('\n')).toEqual([200, 200, 200]);
      const pairs = answers.map((a) => a.json<{ accessToken: string; refreshToken: string }>());
      for (const p of pairs) expect((await profile(s, { ...s.headers(), authorization: `Bearer ${p.accessToken}` })).statusCode).toBe(200);
      // Whichever answer the client kept refreshes again later.
      clock.advance(60_000);
      const kept = pairs[trial % pairs.length]?.refreshToken ?? '';
      const next = await refresh(kept, s);
      expect(next.statusCode, next.body).toBe(200);
      token = next.json<{ refreshToken: string }>().refreshToken;
    }
  });

  it('a used refresh token after the 30 s grace, or once its successor was used, revokes the session', async () => {
    const s = await loginAs(app, 'SESS9');
    clock.advance(16 * 60_000);
    const r1 = await refresh(s.refreshToken, s);
    expect(r1.statusCode).toBe(200);
    clock.advance(30_001);
    const late = await refresh(s.refreshToken, s);
    expect(late.statusCode).toBe(401);
    expect(late.body).toBe('Session invalid or superseded');
    expect((await refresh(r1.json<{ refreshToken: string }>().refreshToken, s)).statusCode).toBe(401);
  });

  it('refresh: new pair, rotation, and reuse of an old refresh token revokes the session', async () => {
    const s = await loginAs(app, 'SESS2');
    clock.advance(16 * 60_000);
    expect((await profile(s)).statusCode).toBe(401);
    const r1 = await refresh(s.refreshToken, s);
    expect(r1.statusCode).toBe(200);
    const p1 = r1.json<{ accessToken: string; refreshToken: string }>();
    expect(p1.refreshToken).not.toBe(s.refreshToken);
    expect((await profile(s, { ...s.headers(), authorization: `Bearer ${p1.accessToken}` })).statusCode).toBe(200);
    const r2 = await refresh(p1.refreshToken, s);
    expect(r2.statusCode).toBe(200);
    const p2 = r2.json<{ accessToken: string; refreshToken: string }>();
    // The first refresh token comes back after its successor was used (so its answer was not lost): theft assumed,
    // session revoked for everybody.
    const reuse = await refresh(s.refreshToken, s);
    expect(reuse.statusCode).toBe(401);
    expect(reuse.body).toContain('Session invalid or superseded');
    const after = await profile(s, { ...s.headers(), authorization: `Bearer ${p2.accessToken}` });
    expect(after.statusCode).toBe(401);
    expect(after.headers['content-type']).toMatch(/^text\/plain/);
    expect(after.body).toBe('Session invalid or superseded');
    expect((await refresh(p2.refreshToken, s)).statusCode).toBe(401);
  });

  it('refresh with no, unknown or an access token -> 403; without the XSRF header -> 403', async () => {
    const s = await loginAs(app, 'SESS3');
    expect((await app.inject({ method: 'POST', url: '/api/refreshToken', headers: { cookie: s.cookie, 'x-xsrf-token': s.xsrfToken } })).statusCode).toBe(403);
    expect((await refresh('unknown-token', s)).statusCode).toBe(403);
    expect((await refresh(s.accessToken, s)).statusCode).toBe(403);
    const noXsrf = await app.inject({ method: 'POST', url: '/api/refreshToken', headers: { authorization: `Bearer ${s.refreshToken}`, cookie: s.cookie } });
    expect(noXsrf.statusCode).toBe(403);
    expect((await refresh(s.refreshToken, s)).statusCode).toBe(200); // not consumed by the refused call
  });

  it('a new login supersedes the previous session: its token gets 401 "Session invalid or superseded"', async () => {
    const first = await loginAs(app, 'SESS4');
    expect((await profile(first)).statusCode).toBe(200);
    const second = await loginAs(app, 'SESS4');
    const res = await profile(first);
    expect(res.statusCode).toBe(401);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.body).toContain('Session invalid or superseded');
    expect((await refresh(first.refreshToken, first)).statusCode).toBe(401);
    expect((await profile(second)).statusCode).toBe(200);
  });

  it('XSRF: a mutating request under a session needs X-XSRF-TOKEN equal to the cookie', async () => {
    const s = await loginAs(app, 'SESS5');
    const body = { userLevel: 'ZA', code: 'NR' };
    const call = (headers: Record<string, string>) => app.inject({ method: 'POST', url: '/api/TrainManningData', headers, payload: body });
    const { 'x-xsrf-token': _x, ...noHeader } = s.headers();
    expect((await call(noHeader)).statusCode).toBe(403);
    expect((await call({ ...s.headers(), 'x-xsrf-token': 'something-else' })).statusCode).toBe(403);
    const { cookie: _c, ...noCookie } = s.headers();
    expect((await call(noCookie)).statusCode).toBe(403);
    expect((await call(s.headers())).statusCode).toBe(200);
    // GET needs no XSRF header
    expect((await profile(s, { authorization: `Bearer ${s.accessToken}` })).statusCode).toBe(200);
  });

  it('logout: userId must be the token subject; afterwards the session is gone', async () => {
    const s = await loginAs(app, 'SESS6');
    const wrong = await app.inject({ method: 'POST', url: '/api/logout', headers: s.headers(), payload: { userId: 'SESS7' } });
    expect(wrong.statusCode).toBe(403);
    const bad = await app.inject({ method: 'POST', url: '/api/logout', headers: s.headers(), payload: { user: 'SESS6' } });
    expect(bad.statusCode).toBe(400);
    const ok = await app.inject({ method: 'POST', url: '/api/logout', headers: s.headers(), payload: { userId: 'SESS6' } });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ code: 1, message: 'Logged out successfully.' });
    const after = await profile(s);
    expect(after.statusCode).toBe(401);
    expect(after.body).toContain('Session invalid or superseded');
    expect((await refresh(s.refreshToken, s)).statusCode).toBe(401);
  });

  it('a deactivated user loses the session at once', async () => {
    const s = await loginAs(app, 'SESS7');
    await t.db.query(`UPDATE users SET active = false WHERE user_id = 'SESS7'`);
    expect((await profile(s)).statusCode).toBe(401);
  });
});
