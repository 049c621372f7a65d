import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createTestDb, TEST_DRIVERS, type TestDb } from '../support/db';
import { buildTestApp } from '../support/app';
import { enc, insertUser } from '../support/login';
import { manualClock } from '../../src/server/clock';
import { ConfigError, loadConfig } from '../../src/server/config';
import { SERVER_MESSAGES } from '../../src/shared/auth-contract';

/** Fastify's inject connects from 127.0.0.1: in these tests that is the load balancer. */
const LB = '127.0.0.1';

describe.each(TEST_DRIVERS)('client addresses behind proxies on %s', (driver) => {
  let t: TestDb;
  const apps: FastifyInstance[] = [];
  const clock = manualClock(new Date('2026-03-10T04:30:00Z'));

  /** An app whose HHT_TRUST_PROXY is `trust`, as the environment would set it. */
  const appWith = async (trust: string): Promise<FastifyInstance> => {
    const app = await buildTestApp(t.db, { clock, config: { trustProxy: loadConfig({ HHT_TRUST_PROXY: trust }).trustProxy } });
    apps.push(app);
    return app;
  };
  const login = async (app: FastifyInstance, userId: string, pwd: string, xff: string, remoteAddress = LB) => {
    const headers = { 'x-forwarded-for': xff };
    const cap = (await app.inject({ method: 'GET', url: '/api/captcha', headers, remoteAddress })).json<{ captchaId: string }>();
    const answer = (await app.inject({ method: 'GET', url: `/api/test-hooks/captcha/${cap.captchaId}` })).json<{ answer: string }>().answer;
    const res = await app.inject({
      method: 'POST', url: '/api/loginInfo', headers, remoteAddress,
      payload: { userId: enc(userId), pwd: enc(pwd), captchaId: cap.captchaId, captchaAnswer: answer },
    });
    expect(res.statusCode).toBe(200);
    return res.json<{ code: number; message: string }>();
  };
  const failureAddresses = async (userId: string): Promise<string[]> =>
    (await t.db.query<{ ip: string }>('SELECT DISTINCT ip FROM auth_login_failures WHERE user_id = $1 ORDER BY ip', [userId])).rows.map((r) => r.ip);

  beforeAll(async () => {
    t = await createTestDb(driver);
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    await t?.drop();
  });

  it.each([
    ['a hop count (one load balancer)', '1', 'OFFICER1'],
    ['the load balancer\'s address', LB, 'OFFICER2'],
    ['the load balancer\'s CIDR', '127.0.0.0/30', 'OFFICER3'],
  ])('behind %s, a spoofed X-Forwarded-For cannot lock out an officer at another address', async (_name, trust, userId) => {
    const app = await appWith(trust);
    await insertUser(t.db, { userId, userLevel: 'DA', divCode: 'DLI', rlyCode: 'NR' });
    // The attacker at 127.0.0.12 claims to be 127.0.0.13; the load balancer appends the address it saw.
    for (let i = 0; i < 5; i++) await login(app, userId, 'WRONG', '127.0.0.13, 127.0.0.12');
    expect(await failureAddresses(userId)).toEqual([]); // the fifth locked (and cleared the counter)
    const lock = await t.db.query<{ ip: string }>('SELECT ip FROM auth_lockouts WHERE user_id = $1', [userId]);
    expect(lock.rows.map((r) => r.ip)).toEqual(['127.0.0.12']);
    // The officer at 127.0.0.13 signs in with the right password.
    expect(await login(app, userId, 'HHT@DEMO1', '127.0.0.13')).toMatchObject({ code: 1, message: SERVER_MESSAGES.loginOk });
  });

  it('a client that reaches the server past the listed proxies is known by its socket address', async () => {
    const app = await appWith(LB);
    await insertUser(t.db, { userId: 'DIRECT1', userLevel: 'DA', divCode: 'DLI', rlyCode: 'NR' });
    await login(app, 'DIRECT1', 'WRONG', '127.0.0.13', '127.0.0.12');
    expect(await failureAddresses('DIRECT1')).toEqual(['127.0.0.12']);
  });

  it.each([
    ['a hop count', '2'],
    ['both proxies\' addresses', `${LB},10.20.0.0/16`],
  ])('behind two proxies given as %s, the client is the address the outer proxy saw', async (_name, trust) => {
    const app = await appWith(trust);
    const userId = `TWOHOP${trust.length}`;
    await insertUser(t.db, { userId, userLevel: 'DA', divCode: 'DLI', rlyCode: 'NR' });
    // client 203.0.113.7 -> outer proxy 10.20.1.5 -> inner proxy 127.0.0.1 -> server; the client put a spoof first.
    await login(app, userId, 'WRONG', '198.51.100.1, 203.0.113.7, 10.20.1.5');
    expect(await failureAddresses(userId)).toEqual(['203.0.113.7']);
  });

  it('per-address limits hold whatever X-Forwarded-For a client sends', async () => {
    const app = await appWith('1');
    const statuses: number[] = [];
    let retryAfter: string | undefined;
    for (let i = 0; i < 70; i++) {
      const res = await app.inject({ method: 'GET', url: '/api/captcha', headers: { 'x-forwarded-for': `10.9.${i}.1, 192.0.2.44` } });
      statuses.push(res.statusCode);
      if (res.statusCode === 429) retryAfter = String(res.headers['retry-after']);
    }
    expect(statuses.filter((s) => s === 200).length).toBe(60);
    expect(statuses.filter((s) => s === 429).length).toBe(10);
    expect(Number(retryAfter)).toBeGreaterThan(0);
  });
});

describe('HHT_TRUST_PROXY configuration', () => {
  const problemsOf = (value: string): string[] => {
    try {
      loadConfig({ HHT_TRUST_PROXY: value });
      return [];
    } catch (err) {
      return err instanceof ConfigError ? err.problems : [String(err)];
    }
  };

  it('reads nothing, a hop count or the proxies\' addresses and CIDRs', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ HHT_TRUST_PROXY: '0' }).trustProxy).toBe(false);
    expect(loadConfig({ HHT_TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ HHT_TRUST_PROXY: '10.0.0.5, 10.0.1.0/24,fd00::/8' }).trustProxy).toEqual(['10.0.0.5', '10.0.1.0/24', 'fd00::/8']);
  });

  it('does not offer trusting every address', () => {
    for (const v of ['true', 'all', '*', '0.0.0.0/0', '::/0']) {
      expect(problemsOf(v)).toEqual([expect.stringContaining('trusting every address is not offered')]);
    }
    expect(problemsOf('10.0.0.300')).toEqual([expect.stringContaining('"10.0.0.300"')]);
    expect(problemsOf('11')).toEqual([expect.stringContaining('hop count from 0 to 10')]);
  });
});
