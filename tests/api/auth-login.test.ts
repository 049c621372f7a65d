import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createTestDb, TEST_DRIVERS, type TestDb } from '../support/db';
import { buildTestApp } from '../support/app';
import { enc, insertUser, loginAs, randomIp, xsrfFrom } from '../support/login';
import { manualClock } from '../../src/server/clock';
import { DEMO_USERS, insertDemoUsers } from '../../src/server/auth/demo-users';
import { SERVER_MESSAGES } from '../../src/shared/auth-contract';

const START = new Date('2025-03-10T04:30:00Z');

describe.each(TEST_DRIVERS)('captcha and password step on %s', (driver) => {
  let t: TestDb;
  let app: FastifyInstance;
  const clock = manualClock(START);
  let ip: string;

  beforeAll(async () => {
    t = await createTestDb(driver);
    app = await buildTestApp(t.db, { clock });
    await insertDemoUsers(t.db);
  });
  afterAll(async () => {
    await app?.close();
    await t?.drop();
  });
  beforeEach(() => {
    ip = randomIp();
  });

  const captcha = async (): Promise<{ captchaId: string; answer: string; imageDataUrl: string }> => {
    const res = await app.inject({ method: 'GET', url: '/api/captcha', headers: { 'x-forwarded-for': ip } });
    expect(res.statusCode).toBe(200);
    const body = res.json<{ captchaId: string; imageDataUrl: string }>();
    const answer = (await app.inject({ method: 'GET', url: `/api/test-hooks/captcha/${body.captchaId}` })).json<{ answer: string }>().answer;
    return { ...body, answer };
  };
  const login = async (userId: string, pwd: string, c?: { captchaId: string; answer: string }) => {
    const cap = c ?? (await captcha());
    const res = await app.inject({
      method: 'POST', url: '/api/loginInfo', headers: { 'x-forwarded-for': ip },
      payload: { userId: enc(userId), pwd: enc(pwd), captchaId: cap.captchaId, captchaAnswer: cap.answer },
    });
    expect(res.statusCode).toBe(200);
    return res.json<{ code: number; message: string; loginFlag: boolean }>();
  };

  it('demo users are inserted once, with bcrypt hashes, and can sign in', async () => {
    expect(await insertDemoUsers(t.db)).toBe(0);
    const rows = (await t.db.query<{ user_id: string; password_hash: string }>('SELECT user_id, password_hash FROM users ORDER BY user_id')).rows;
    expect(rows.map((r) => r.user_id)).toEqual(DEMO_USERS.map((u) => u.userId).sort());
    for (const r of rows) expect(r.password_hash).toMatch(/^\$2[aby]\$10\$/);
    expect(await login('HHTDIV', 'HHT@DEMO1')).toEqual({ code: 1, message: SERVER_MESSAGES.loginOk, loginFlag: true });
  });

  it('serves a picture captcha as an SVG data URL, stores only a hash, and sets the XSRF cookie', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/captcha', headers: { 'x-forwarded-for': ip } });
    const { captchaId, imageDataUrl } = res.json<{ captchaId: string; imageDataUrl: string }>();
    expect(imageDataUrl).toMatch(/^data:image\/svg\+xml;base64,/);
    const svg = Buffer.from(imageDataUrl.split(',')[1] ?? '', 'base64').toString('utf8');
    expect(svg).toContain('<svg');
    expect(xsrfFrom(res)).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    const answer = (await app.inject({ method: 'GET', url: `/api/test-hooks/captcha/${captchaId}` })).json<{ answer: string }>().answer;
    expect(answer).toMatch(/^[A-Z2-9]{5}$/);
    expect(svg).not.toContain(answer);
    const stored = (await t.db.query<{ answer_hash: string }>('SELECT answer_hash FROM auth_captchas WHERE captcha_id = $1', [captchaId])).rows[0];
    expect(stored?.answer_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(stored?.answer_hash).not.toContain(answer);
  });

  it('wrong captcha -> -10; captchas are single use and expire after 2 minutes; answers ignore case', async () => {
    const c = await captcha();
    expect(await login('HHTDIV', 'HHT@DEMO1', { captchaId: c.captchaId, answer: 'WRONG' })).toMatchObject({ code: -10, loginFlag: false });
    // consumed by the failed try
    expect((await login('HHTDIV', 'HHT@DEMO1', c)).code).toBe(-10);
    const c2 = await captcha();
    expect((await login('HHTDIV', 'HHT@DEMO1', { captchaId: c2.captchaId, answer: c2.answer.toLowerCase() })).code).toBe(1);
    expect((await login('HHTDIV', 'HHT@DEMO1', c2)).code).toBe(-10); // reused after success
    const c3 = await captcha();
    clock.advance(2 * 60_000 + 1);
    expect((await login('HHTDIV', 'HHT@DEMO1', c3)).code).toBe(-10);
    const c4 = await captcha();
    clock.advance(119_000);
    expect((await login('HHTDIV', 'HHT@DEMO1', c4)).code).toBe(1);
    expect((await login('HHTDIV', 'HHT@DEMO1', { captchaId: 'no-such-captcha', answer: 'ABCDE' })).code).toBe(-10);
  });

  it('wrong password or unknown user -> negative code with a message that does not mention the captcha', async () => {
    const bad = await login('HHTZONE', 'WRONG');
    expect(bad).toEqual({ code: -1, message: SERVER_MESSAGES.badCredentials, loginFlag: false });
    expect(bad.message.toLowerCase()).not.toContain('captcha');
    expect((await login('NOSUCHUSER', 'HHT@DEMO1')).code).toBe(-1);
    expect((await login('HHTZONE', 'hht@demo1')).code).toBe(-1); // the form upper-cases; the server compares exactly
  });

  it('locks the account for 15 minutes after 5 wrong passwords within 15 minutes, saying so', async () => {
    await insertUser(t.db, { userId: 'LOCKME', userLevel: 'DA', divCode: 'DLI', rlyCode: 'NR' });
    for (let i = 0; i < 4; i++) {
      expect((await login('LOCKME', 'WRONG')).code).toBe(-1);
      clock.advance(60_000);
    }
    const fifth = await login('LOCKME', 'WRONG');
    expect(fifth.code).toBe(-2);
    expect(fifth.message).toBe('Account locked after 5 wrong passwords. Try again in 15 minutes.');
    // Even the right password is refused while locked.
    clock.advance(14 * 60_000);
    const locked = await login('LOCKME', 'HHT@DEMO1');
    expect(locked).toMatchObject({ code: -2, loginFlag: false });
    expect(locked.message).toContain('Try again in 1 minute.');
    clock.advance(60_001);
    expect((await login('LOCKME', 'HHT@DEMO1')).code).toBe(1);
  });

  it('a stranger cannot lock an officer out: the lockout is per account AND address', async () => {
    await insertUser(t.db, { userId: 'VICTIM', userLevel: 'DA', divCode: 'DLI', rlyCode: 'NR' });
    const officer = ip;
    ip = randomIp(); // the stranger
    for (let i = 0; i < 4; i++) expect((await login('VICTIM', 'WRONG')).code).toBe(-1);
    expect((await login('VICTIM', 'WRONG')).code).toBe(-2);
    expect((await login('VICTIM', 'HHT@DEMO1')).code).toBe(-2); // the stranger's address stays locked
    for (let i = 0; i < 5; i++) expect((await login('NOSUCHID', 'WRONG')).code).toBe(i < 4 ? -1 : -2);
    ip = officer;
    expect(await login('VICTIM', 'HHT@DEMO1')).toEqual({ code: 1, message: SERVER_MESSAGES.loginOk, loginFlag: true });
    // The officer's own wrong passwords still lock the officer's address.
    for (let i = 0; i < 5; i++) await login('VICTIM', 'WRONG');
    expect((await login('VICTIM', 'HHT@DEMO1')).code).toBe(-2);
  });

  it('the captcha lock is enforced by the server: 5 wrong answers lock the address for 30 s (spec section 4)', async () => {
    for (let i = 0; i < 4; i++) {
      expect(await login('HHTDIV', 'HHT@DEMO1', { captchaId: (await captcha()).captchaId, answer: 'WRONG' })).toEqual({
        code: -10, message: SERVER_MESSAGES.captchaWrong, loginFlag: false,
      });
    }
    expect(await login('HHTDIV', 'HHT@DEMO1', { captchaId: (await captcha()).captchaId, answer: 'WRONG' })).toEqual({
      code: -10, message: 'Too many attempts. Try again in 30s.', loginFlag: false,
    });
    // Even the right answer is refused during the lock, with the seconds left.
    clock.advance(10_000);
    expect(await login('HHTDIV', 'HHT@DEMO1')).toEqual({ code: -10, message: 'Too many attempts. Try again in 20s.', loginFlag: false });
    const me = ip;
    ip = randomIp();
    expect((await login('HHTDIV', 'HHT@DEMO1')).code).toBe(1); // other addresses are not affected
    ip = me;
    clock.advance(20_000);
    expect((await login('HHTDIV', 'HHT@DEMO1')).code).toBe(1); // unlocked, counter reset
    for (let i = 0; i < 4; i++) await login('HHTDIV', 'HHT@DEMO1', { captchaId: (await captcha()).captchaId, answer: 'WRONG' });
    expect((await login('HHTDIV', 'HHT@DEMO1')).code).toBe(1); // 4 wrong then a success: no lock, and reset
    await login('HHTDIV', 'HHT@DEMO1', { captchaId: (await captcha()).captchaId, answer: 'WRONG' });
    expect((await login('HHTDIV', 'HHT@DEMO1')).code).toBe(1);
    // Wrong answers older than 15 minutes do not count towards the lock.
    for (let i = 0; i < 4; i++) await login('HHTDIV', 'HHT@DEMO1', { captchaId: (await captcha()).captchaId, answer: 'WRONG' });
    clock.advance(15 * 60_000);
    expect((await login('HHTDIV', 'HHT@DEMO1', { captchaId: (await captcha()).captchaId, answer: 'WRONG' })).message).toBe(SERVER_MESSAGES.captchaWrong);
    expect((await login('HHTDIV', 'HHT@DEMO1')).code).toBe(1);
  });

  it('failures older than 15 minutes do not count, and a success resets the count', async () => {
    await insertUser(t.db, { userId: 'SLOWFAIL', userLevel: 'DA', divCode: 'DLI', rlyCode: 'NR' });
    for (let i = 0; i < 4; i++) expect((await login('SLOWFAIL', 'WRONG')).code).toBe(-1);
    clock.advance(15 * 60_000 + 1);
    for (let i = 0; i < 4; i++) expect((await login('SLOWFAIL', 'WRONG')).code).toBe(-1);
    expect((await login('SLOWFAIL', 'HHT@DEMO1')).code).toBe(1);
    for (let i = 0; i < 4; i++) expect((await login('SLOWFAIL', 'WRONG')).code).toBe(-1);
    expect((await login('SLOWFAIL', 'HHT@DEMO1')).code).toBe(1);
  });

  it('an inactive user cannot sign in', async () => {
    await insertUser(t.db, { userId: 'GONE', userLevel: 'DA', divCode: 'DLI', active: false });
    expect(await login('GONE', 'HHT@DEMO1')).toMatchObject({ code: -3, loginFlag: false });
  });

  it('undecryptable or malformed bodies get 400 naming the field, never 500', async () => {
    const c = await captcha();
    const post = (payload: unknown, contentType = 'application/json') =>
      app.inject({
        method: 'POST', url: '/api/loginInfo', headers: { 'x-forwarded-for': ip, 'content-type': contentType },
        payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
      });
    const cases: [unknown, string][] = [
      [{ userId: 'not-encrypted', pwd: enc('X'), captchaId: c.captchaId, captchaAnswer: c.answer }, 'userId'],
      [{ userId: enc('HHTDIV'), pwd: 'U2FsdGVkX1+AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=', captchaId: c.captchaId, captchaAnswer: c.answer }, 'pwd'],
      [{ userId: enc('HHTDIV'), pwd: enc('X'), captchaId: c.captchaId }, 'captchaAnswer'],
      [{ userId: 42, pwd: enc('X'), captchaId: c.captchaId, captchaAnswer: 'A' }, 'userId'],
      [{ userId: enc('HHTDIV'), pwd: enc('X'), captchaId: c.captchaId, captchaAnswer: 'TOOLONGANSWER' }, 'captchaAnswer'],
      [{ userId: enc('A'.repeat(26)), pwd: enc('X'), captchaId: c.captchaId, captchaAnswer: 'A' }, 'userId'],
    ];
    for (const [payload, field] of cases) {
      const res = await post(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json<{ fields: { field: string }[] }>().fields.map((f) => f.field)).toContain(field);
    }
    const broken = await post('{"userId": ');
    expect(broken.statusCode).toBe(400);
    expect(broken.json<{ message: string }>().message).toBe('Request body is not valid JSON');
    expect((await post('userId=x', 'text/plain')).statusCode).toBeLessThan(500);
    expect((await post([1, 2])).statusCode).toBe(400);
  });

  it('the full flow works for every demo user', async () => {
    for (const u of DEMO_USERS) {
      const s = await loginAs(app, u.userId);
      expect(s.accessToken.split('.')).toHaveLength(3);
    }
  });
});
