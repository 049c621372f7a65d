import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { TEST_DRIVERS, type TestDb } from '../support/db';
import { cloneSeededTestDb } from '../support/seeded';
import { buildTestApp } from '../support/app';
import { insertUser, loginAs, randomIp, type SignedIn } from '../support/login';
import { manualClock } from '../../src/server/clock';
import { istNoon } from './extras-users';

/** Routes that need no token: sign-in, public files, test hooks. */
/** Routes of the hand-held terminals (device credential instead of a session). */
const DEVICE_ROUTES = new Set(['/api/hht/sync']);
// filter-validators: compiled filter schemas, content-addressed, fetched by the browser as module scripts (no bearer).
// mail/unsubscribe: the link in a subscription mail, signed for its subscription, works without signing in.
const PUBLIC = /^\/api\/(captcha|loginInfo|loginOtpDetails|ResendOtp|VerifyOtp|refreshToken|health|openapi\.json|test-hooks\/|filter-validators\/|mail\/unsubscribe$)|^\/(?!api\/)/;

describe.each(TEST_DRIVERS)('bad input is a 400 naming the field, strangers get 403 first, on %s', (driver) => {
  let t: TestDb & { today: string };
  let app: FastifyInstance;
  let su: SignedIn;
  let deviceId: string;

  beforeAll(async () => {
    t = await cloneSeededTestDb(driver);
    app = await buildTestApp(t.db, { clock: manualClock(istNoon(t.today)) });
    await insertUser(t.db, { userId: 'BADINSU', userLevel: 'SU' });
    su = await loginAs(app, 'BADINSU');
    deviceId = (await t.db.query<{ id: string }>('SELECT device_id AS id FROM devices ORDER BY device_id LIMIT 1')).rows[0]?.id ?? '';
    expect(deviceId).not.toBe('');
  });
  afterAll(async () => {
    await app?.close();
    await t?.drop();
  });

  const send = (method: 'GET' | 'POST', url: string, payload?: object, signed = true) =>
    app.inject({ method, url, headers: signed ? su.headers() : { 'x-forwarded-for': randomIp() }, ...(payload ? { payload } : {}) });
  const fieldsOf = (body: string): string[] => (JSON.parse(body) as { fields?: { field: string }[] }).fields?.map((f) => f.field) ?? [];

  it.each([
    ['/api/multipleDeviceCount', { startDate: '2026-02-30' }],
    ['/api/multipleDeviceInfo', { tteId: 'TTE1', startDate: '2026-02-30' }],
    ['/api/coachConsist', { trainNo: '12952', startDate: '2026-02-30' }],
    ['/api/running-details', { trainNo: '12952', startDate: '2025-04-31' }],
    ['/api/multipleDeviceCount', { startDate: '2025-13-01' }],
  ])('impossible date on %s -> 400 naming startDate', async (url, payload) => {
    const res = await send('POST', url, payload);
    expect(res.statusCode, res.body).toBe(400);
    expect(fieldsOf(res.body)).toContain('startDate');
  });

  it('a real leap day passes the date check', async () => {
    const res = await send('POST', '/api/multipleDeviceCount', { startDate: '2024-02-29' });
    expect(res.statusCode, res.body).toBe(200);
  });

  it('srcDate of the OTP calls must be a real day', async () => {
    const res = await app.inject({ method: 'POST', url: '/api/loginOtpDetails', headers: { 'x-forwarded-for': randomIp() }, payload: { userId: 'x', srcDate: '30/02/2026' } });
    expect(res.statusCode).toBe(400);
    expect(fieldsOf(res.body)).toContain('srcDate');
  });

  it('NUL characters are refused with 400 naming the field (query, body, nested, keys)', async () => {
    const cases: [string, 'GET' | 'POST', object | undefined, string][] = [
      ['/api/Device?q=AB%00CD', 'GET', undefined, 'q'],
      ['/api/dashboard-feedback', 'POST', { category: 'Other', rating: 4, message: 'Works well\u0000 thanks a lot' }, 'message'],
      ['/api/UpdateDevice', 'POST', { deviceId, version: 1, status: 'IN_SERVICE', assignedTteId: null, remarks: 'a\u0000b' }, 'remarks'],
      ['/api/UpdateDevice', 'POST', { deviceId: `${deviceId}\u0000`, version: 1, status: 'IN_SERVICE', assignedTteId: null }, 'deviceId'],
      ['/api/coachConsist', 'POST', { trainNo: '12952', startDate: '2025-03-10', ['x\u0000']: 1 }, 'x\u0000'],
      ['/api/TrainManningData', 'POST', { userLevel: 'DA', code: ['DLI\u0000'] }, 'code.0'],
    ];
    for (const [url, method, payload, field] of cases) {
      const res = await send(method, url, payload);
      expect(res.statusCode, `${url} ${res.body}`).toBe(400);
      expect(fieldsOf(res.body), url).toContain(field);
      expect(res.body).not.toMatch(/\bat .+:\d+:\d+/); // no stack trace
    }
  });

  it('every protected route checks the token before the body: a stranger with a bad body gets 403', async () => {
    const routes = app.routeList.filter((r) => r.method !== 'HEAD' && !PUBLIC.test(r.url));
    expect(routes.length).toBeGreaterThan(15);
    expect(routes.map((r) => r.url)).toEqual(expect.arrayContaining(['/api/running-details', '/api/logout', '/api/TrainManningData', '/api/UpdateDevice']));
    for (const r of routes) {
      const url = r.url.replace(/:(\w+)/g, 'x');
      const res = await app.inject({
        method: r.method as 'GET' | 'POST', url: r.method === 'GET' ? `${url}?junk=%00` : url,
        headers: { 'x-forwarded-for': randomIp(), ...(r.method === 'GET' ? {} : { 'content-type': 'application/json' }) },
        ...(r.method === 'GET' ? {} : { payload: '{"junk": [1, {"deep": "\\u0000"}], "startDate": "2026-02-30"' }),
      });
      // Terminals authenticate with a device credential, not an officer's session: a missing one is a 401.
      expect(res.statusCode, `${r.method} ${r.url}: ${res.body}`).toBe(DEVICE_ROUTES.has(r.url) ? 401 : 403);
    }
  });
});
