import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createTestDb, TEST_DRIVERS, type TestDb } from '../support/db';
import { buildTestApp, testConfig } from '../support/app';
import { enc, insertUser, loginAs, randomIp } from '../support/login';
import { buildApp } from '../../src/server/app';
import { authOptionsFromEnv, AuthOptionsError } from '../../src/server/auth/options';
import { openDb } from '../../src/server/db';

describe.each(TEST_DRIVERS)('per-IP rate limits and test hooks on %s', (driver) => {
  let t: TestDb;
  let app: FastifyInstance;

  beforeAll(async () => {
    t = await createTestDb(driver);
    app = await buildApp({
      config: testConfig(), db: t.db,
      auth: { suMobiles: [], rateLimits: { captcha: 5, login: 3, otp: 4 } },
    });
    await app.ready();
    await insertUser(t.db, { userId: 'RATEUSER', userLevel: 'SU' });
  });
  afterAll(async () => {
    await app?.close();
    await t?.drop();
  });

  it('captcha, login and OTP routes answer 429 with a message over the per-IP limit; other addresses are unaffected', async () => {
    const ip = randomIp();
    const h = { 'x-forwarded-for': ip };
    for (let i = 0; i < 5; i++) expect((await app.inject({ method: 'GET', url: '/api/captcha', headers: h })).statusCode).toBe(200);
    const over = await app.inject({ method: 'GET', url: '/api/captcha', headers: h });
    expect(over.statusCode).toBe(429);
    expect(over.json<{ message: string }>().message).toMatch(/^Too many requests from this address\. Try again in \d+s\.$/);
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    expect((await app.inject({ method: 'GET', url: '/api/captcha', headers: { 'x-forwarded-for': randomIp() } })).statusCode).toBe(200);

    const login = () => app.inject({ method: 'POST', url: '/api/loginInfo', headers: h, payload: { userId: enc('X'), pwd: enc('Y'), captchaId: 'x', captchaAnswer: 'x' } });
    for (let i = 0; i < 3; i++) expect((await login()).statusCode).toBe(200);
    expect((await login()).statusCode).toBe(429);

    const otp = () => app.inject({ method: 'POST', url: '/api/VerifyOtp', headers: h, payload: { userId: enc('X'), otp: enc('123456') } });
    for (let i = 0; i < 4; i++) expect((await otp()).statusCode).toBe(200);
    expect((await otp()).statusCode).toBe(429);
    expect((await app.inject({ method: 'POST', url: '/api/ResendOtp', headers: h, payload: { userId: enc('X'), srcDate: '01/01/2025' } })).statusCode).toBe(429);
    // Malformed bodies count too (the limit runs before parsing).
    const counters = (await t.db.query<{ bucket: string; hits: number }>('SELECT bucket, hits FROM auth_rate_counters WHERE ip = $1 ORDER BY bucket', [ip])).rows;
    expect(counters.map((c) => c.bucket)).toEqual(['captcha', 'login', 'otp']);
  });

  it('test hooks exist with testHooks on and are 404 without it', async () => {
    const cap = (await app.inject({ method: 'GET', url: '/api/captcha', headers: { 'x-forwarded-for': randomIp() } })).json<{ captchaId: string }>();
    expect((await app.inject({ method: 'GET', url: `/api/test-hooks/captcha/${cap.captchaId}` })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/api/test-hooks/captcha/unknown' })).statusCode).toBe(404);

    const plain = await buildTestApp(t.db, { config: { testHooks: false } });
    try {
      const c2 = (await plain.inject({ method: 'GET', url: '/api/captcha', headers: { 'x-forwarded-for': randomIp() } })).json<{ captchaId: string }>();
      const r1 = await plain.inject({ method: 'GET', url: `/api/test-hooks/captcha/${c2.captchaId}` });
      expect(r1.statusCode).toBe(404);
      expect(r1.json<{ message: string }>().message).toContain('No route');
      expect((await plain.inject({ method: 'GET', url: '/api/test-hooks/otp/RATEUSER' })).statusCode).toBe(404);
      expect((await plain.inject({ method: 'POST', url: '/api/test-hooks/clock', payload: { advanceMs: 1000 } })).statusCode).toBe(404);
      // Without hooks no plain value is written at all.
      const stored = await t.db.query('SELECT 1 FROM auth_test_hook_values WHERE key = $1', [c2.captchaId]);
      expect(stored.rows).toHaveLength(0);
    } finally {
      await plain.close();
    }
  });

  it('auth options come from the environment: SU mobiles and limits', () => {
    expect(authOptionsFromEnv({})).toEqual({ suMobiles: [], rateLimits: { captcha: 60, login: 30, otp: 60 } });
    expect(authOptionsFromEnv({ HHT_SU_MOBILES: ' 9876543210, 9123456789 ', HHT_RATE_LIMITS: 'login=5' })).toEqual({
      suMobiles: ['9876543210', '9123456789'], rateLimits: { captcha: 60, login: 5, otp: 60 },
    });
    expect(() => authOptionsFromEnv({ HHT_SU_MOBILES: '12345' })).toThrow(AuthOptionsError);
    expect(() => authOptionsFromEnv({ HHT_RATE_LIMITS: 'login:5' })).toThrow(AuthOptionsError);
  });
});

describe.skipIf(!TEST_DRIVERS.includes('pg'))('two instances on one PostgreSQL', () => {
  let t: TestDb;
  let a: FastifyInstance;
  let b: FastifyInstance;
  let otherDb: Awaited<ReturnType<typeof openDb>>;

  beforeAll(async () => {
    t = await createTestDb('pg');
    if (!t.url) throw new Error('no url');
    otherDb = await openDb({ databaseUrl: t.url, dataDir: null }); // a separate pool, as another process has
    a = await buildTestApp(t.db);
    b = await buildTestApp(otherDb);
    await insertUser(t.db, { userId: 'TWOINST', userLevel: 'SU' });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await otherDb?.close();
    await t?.drop();
  });

  it('captcha from one, login on the other; token from one works on the other; supersede and refresh are shared', async () => {
    const ip = randomIp();
    const cap = await a.inject({ method: 'GET', url: '/api/captcha', headers: { 'x-forwarded-for': ip } });
    const { captchaId } = cap.json<{ captchaId: string }>();
    const answer = (await b.inject({ method: 'GET', url: `/api/test-hooks/captcha/${captchaId}` })).json<{ answer: string }>().answer;
    const login = await b.inject({ method: 'POST', url: '/api/loginInfo', headers: { 'x-forwarded-for': ip }, payload: { userId: enc('TWOINST'), pwd: enc('HHT@DEMO1'), captchaId, captchaAnswer: answer } });
    expect(login.json<{ code: number }>().code).toBe(1);

    const s = await loginAs(a, 'TWOINST');
    const onB = await b.inject({ method: 'GET', url: '/api/userprofile', headers: s.headers() });
    expect(onB.statusCode).toBe(200);
    const r = await b.inject({ method: 'POST', url: '/api/refreshToken', headers: { authorization: `Bearer ${s.refreshToken}`, cookie: s.cookie, 'x-xsrf-token': s.xsrfToken } });
    expect(r.statusCode).toBe(200);
    const next = await a.inject({ method: 'POST', url: '/api/refreshToken', headers: { authorization: `Bearer ${r.json<{ refreshToken: string }>().refreshToken}`, cookie: s.cookie, 'x-xsrf-token': s.xsrfToken } });
    expect(next.statusCode).toBe(200);
    const reuse = await a.inject({ method: 'POST', url: '/api/refreshToken', headers: { authorization: `Bearer ${s.refreshToken}`, cookie: s.cookie, 'x-xsrf-token': s.xsrfToken } });
    expect(reuse.statusCode).toBe(401);

    const s2 = await loginAs(b, 'TWOINST');
    const s3 = await loginAs(a, 'TWOINST');
    const old = await b.inject({ method: 'GET', url: '/api/userprofile', headers: s2.headers() });
    expect(old.statusCode).toBe(401);
    expect(old.body).toContain('Session invalid or superseded');
    expect((await b.inject({ method: 'GET', url: '/api/userprofile', headers: s3.headers() })).statusCode).toBe(200);
  });
});
