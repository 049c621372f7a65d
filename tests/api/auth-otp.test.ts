import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createTestDb, TEST_DRIVERS, type TestDb } from '../support/db';
import { testConfig } from '../support/app';
import { buildApp } from '../../src/server/app';
import { enc, insertUser, randomIp } from '../support/login';
import { manualClock } from '../../src/server/clock';
import { DEFAULT_RATE_LIMITS } from '../../src/server/auth/options';
import type { SmsSender } from '../../src/server/auth/sms';
import { LOGIN_GRANT_COOKIE, SERVER_MESSAGES } from '../../src/shared/auth-contract';

const START = new Date('2025-03-10T04:30:00Z');
const SRC_DATE = '10/03/2025';

describe.each(TEST_DRIVERS)('OTP step on %s', (driver) => {
  let t: TestDb;
  let app: FastifyInstance;
  const clock = manualClock(START);
  const sent: { mobileNo: string; text: string; userId: string }[] = [];
  const sms: SmsSender = { send: async (mobileNo, text, userId) => void sent.push({ mobileNo, text, userId }) };
  let ip: string;
  let n = 0;
  let user: string;

  beforeAll(async () => {
    t = await createTestDb(driver);
    // A recording SMS adapter: a real implementation of the adapter interface, not a mock of our code.
    app = await buildApp({ config: testConfig(), db: t.db, clock, auth: { suMobiles: [], rateLimits: DEFAULT_RATE_LIMITS, sms } });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await t?.drop();
  });
  beforeEach(async () => {
    ip = randomIp();
    grant = '';
    user = `OTPUSER${++n}`;
    await insertUser(t.db, { userId: user, userLevel: 'DA', divCode: 'DLI', rlyCode: 'NR', mobileNo: '9876543210' });
  });

  // The login grant cookie of the last password step: the OTP calls of this client carry it.
  let grant = '';
  const post = (url: string, payload: unknown, from: { ip: string; grant: string } = { ip, grant }) =>
    app.inject({
      method: 'POST', url, payload: payload as object,
      headers: { 'x-forwarded-for': from.ip, ...(from.grant ? { cookie: `${LOGIN_GRANT_COOKIE}=${from.grant}` } : {}) },
    });
  const passwordStep = async (userId = user): Promise<void> => {
    const cap = (await app.inject({ method: 'GET', url: '/api/captcha', headers: { 'x-forwarded-for': ip } })).json<{ captchaId: string }>();
    const answer = (await app.inject({ method: 'GET', url: `/api/test-hooks/captcha/${cap.captchaId}` })).json<{ answer: string }>().answer;
    const res = await post('/api/loginInfo', { userId: enc(userId), pwd: enc('HHT@DEMO1'), captchaId: cap.captchaId, captchaAnswer: answer });
    expect(res.json<{ code: number }>().code).toBe(1);
    grant = res.cookies.find((c) => c.name === LOGIN_GRANT_COOKIE)?.value ?? '';
    expect(grant.length).toBeGreaterThan(20);
  };
  const sendOtp = async (userId = user) => (await post('/api/loginOtpDetails', { userId: enc(userId), srcDate: SRC_DATE })).json<{ code: number; message: string }>();
  const resend = async (userId = user) => (await post('/api/ResendOtp', { userId: enc(userId), srcDate: SRC_DATE })).json<{ code: number; message: string }>();
  const hookOtp = async (userId = user) => (await app.inject({ method: 'GET', url: `/api/test-hooks/otp/${userId}` })).json<{ otp: string }>().otp;
  const verify = async (otp: string, userId = user) => (await post('/api/VerifyOtp', { userId: enc(userId), otp: enc(otp) })).json<{
    code: number; message: string; accessToken?: string; refreshToken?: string;
  }>();
  const wrongOf = (otp: string): string => String((Number(otp) + 1) % 1_000_000).padStart(6, '0');

  it('sends an OTP only after a successful password step in the last 5 minutes', async () => {
    expect(await sendOtp()).toEqual({ code: -1, message: SERVER_MESSAGES.otpNoLogin });
    await passwordStep();
    clock.advance(5 * 60_000 + 1);
    expect((await sendOtp()).code).toBe(-1);
    await passwordStep();
    clock.advance(4 * 60_000);
    expect(await sendOtp()).toEqual({ code: 1, message: 'OTP sent successfully on 98******10' });
    expect(sent.at(-1)?.mobileNo).toBe('9876543210');
    const otp = await hookOtp();
    expect(otp).toMatch(/^\d{6}$/);
    expect(sent.at(-1)?.text).toContain(otp);
    expect(sent.at(-1)?.userId).toBe(user);
    const row = (await t.db.query<{ otp_hash: string }>('SELECT otp_hash FROM auth_otps WHERE user_id = $1', [user])).rows[0];
    expect(row?.otp_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(row?.otp_hash).not.toContain(otp);
  });

  it('an unexpired OTP is not replaced: "OTP already exists for this User ID"', async () => {
    await passwordStep();
    expect((await sendOtp()).code).toBe(1);
    const first = await hookOtp();
    expect(await sendOtp()).toEqual({ code: 0, message: 'OTP already exists for this User ID' });
    expect(await hookOtp()).toBe(first);
  });

  it('verifies: wrong -> -1, right -> tokens; the OTP is single use', async () => {
    await passwordStep();
    await sendOtp();
    const otp = await hookOtp();
    expect(await verify(wrongOf(otp))).toEqual({ code: -1, message: SERVER_MESSAGES.otpWrong });
    const ok = await verify(otp);
    expect(ok).toMatchObject({ code: 1, message: 'OTP verified. Logged in.' });
    expect(ok.accessToken?.split('.')).toHaveLength(3);
    expect(ok.refreshToken?.length).toBeGreaterThan(30);
    expect((await verify(otp)).code).toBe(0);
  });

  it('no OTP -> 0; expired after 5 minutes -> 0', async () => {
    expect(await verify('123456')).toEqual({ code: 0, message: SERVER_MESSAGES.otpNotFound });
    await passwordStep();
    await sendOtp();
    const otp = await hookOtp();
    clock.advance(5 * 60_000);
    expect((await verify(otp)).code).toBe(0);
    // After expiry a new one can be requested (within the 5 minutes after the password step: do it again).
    await passwordStep();
    expect((await sendOtp()).code).toBe(1);
    expect((await verify(await hookOtp())).code).toBe(1);
  });

  it('5 wrong tries invalidate the OTP, even the right one after', async () => {
    await passwordStep();
    await sendOtp();
    const otp = await hookOtp();
    for (let i = 0; i < 4; i++) expect((await verify(wrongOf(otp))).message).toBe(SERVER_MESSAGES.otpWrong);
    expect(await verify(wrongOf(otp))).toEqual({ code: -1, message: SERVER_MESSAGES.otpInvalidated });
    expect((await verify(otp)).code).toBe(0);
  });

  it('OTP calls are bound to the login grant: 5 wrong OTPs from another client leave the victim\'s OTP working', async () => {
    await passwordStep();
    expect((await sendOtp()).code).toBe(1);
    const otp = await hookOtp();
    const stranger = { ip: randomIp(), grant: '' };
    for (let i = 0; i < 5; i++) {
      expect((await post('/api/VerifyOtp', { userId: enc(user), otp: enc(wrongOf(otp)) }, stranger)).json<{ code: number }>().code).toBe(0);
    }
    // A forged grant cookie is no better, and the stranger can neither send nor resend the victim's OTP.
    const forged = { ip: stranger.ip, grant: 'x'.repeat(32) };
    expect((await post('/api/VerifyOtp', { userId: enc(user), otp: enc(otp) }, forged)).json<{ code: number }>().code).toBe(0);
    expect((await post('/api/ResendOtp', { userId: enc(user), srcDate: SRC_DATE }, stranger)).json<{ code: number }>().code).toBe(-1);
    expect((await post('/api/loginOtpDetails', { userId: enc(user), srcDate: SRC_DATE }, forged)).json<{ code: number }>().code).toBe(-1);
    expect(await hookOtp()).toBe(otp);
    const attempts = (await t.db.query<{ attempts: number }>('SELECT attempts FROM auth_otps WHERE user_id = $1', [user])).rows[0];
    expect(attempts?.attempts).toBe(0);
    // Another user's grant does not open this user's OTP either.
    const other = `OTHER${n}`;
    await insertUser(t.db, { userId: other, userLevel: 'DA', divCode: 'DLI', rlyCode: 'NR' });
    const mine = grant;
    await passwordStep(other);
    expect((await post('/api/VerifyOtp', { userId: enc(user), otp: enc(otp) }, { ip, grant })).json<{ code: number }>().code).toBe(0);
    grant = mine;
    expect((await verify(otp)).code).toBe(1);
  });

  it('a second password step while the OTP lives: "already exists", and the OTP now answers to the new grant only', async () => {
    await passwordStep();
    expect((await sendOtp()).code).toBe(1);
    const otp = await hookOtp();
    expect((await verify(wrongOf(otp))).code).toBe(-1);
    const first = grant;
    await passwordStep();
    expect(await sendOtp()).toEqual({ code: 0, message: 'OTP already exists for this User ID' });
    expect(await hookOtp()).toBe(otp);
    const attempts = (await t.db.query<{ attempts: number }>('SELECT attempts FROM auth_otps WHERE user_id = $1', [user])).rows[0];
    expect(attempts?.attempts).toBe(1); // moving to another grant does not reset the tries
    expect((await post('/api/VerifyOtp', { userId: enc(user), otp: enc(otp) }, { ip, grant: first })).json<{ code: number }>().code).toBe(0);
    expect((await verify(otp)).code).toBe(1);
  });

  it('20 concurrent wrong OTPs count exactly 20, and only 5 are answered as wrong tries', async () => {
    await passwordStep();
    expect((await sendOtp()).code).toBe(1);
    const otp = await hookOtp();
    const answers = await Promise.all(Array.from({ length: 20 }, () => verify(wrongOf(otp))));
    const row = (await t.db.query<{ attempts: number }>('SELECT attempts FROM auth_otps WHERE user_id = $1', [user])).rows[0];
    expect(row?.attempts).toBe(20);
    expect(answers.filter((a) => a.code === -1)).toHaveLength(5);
    expect(answers.filter((a) => a.message === SERVER_MESSAGES.otpInvalidated)).toHaveLength(1);
    expect((await verify(otp)).code).toBe(0);
  });

  it('resend: login flow only, first after 30 s, then once per 60 s, message contains "success"', async () => {
    expect((await resend()).code).toBe(-1); // no password step
    await passwordStep();
    await sendOtp();
    const first = await hookOtp();
    clock.advance(10_000);
    const early = await resend();
    expect(early).toEqual({ code: -2, message: 'Please wait 20s before requesting a new OTP.' });
    clock.advance(20_000);
    const ok = await resend();
    expect(ok).toEqual({ code: 1, message: 'OTP resent successfully on 98******10' });
    expect(ok.message).toContain('success');
    const second = await hookOtp();
    expect((await verify(first)).code).toBe(second === first ? 1 : -1); // old OTP replaced
    clock.advance(59_000);
    expect((await resend()).code).toBe(-2);
    clock.advance(1_000);
    expect((await resend()).code).toBe(1);
    expect((await verify(await hookOtp())).code).toBe(1);
  });

  it('bad OTP payloads get 400 naming the field', async () => {
    const cases: [string, unknown, string][] = [
      ['/api/VerifyOtp', { userId: enc(user), otp: enc('12ab56') }, 'otp'],
      ['/api/VerifyOtp', { userId: enc(user), otp: '123456' }, 'otp'],
      ['/api/VerifyOtp', { userId: enc(user) }, 'otp'],
      ['/api/loginOtpDetails', { userId: enc(user), srcDate: '2025-03-10' }, 'srcDate'],
      ['/api/loginOtpDetails', { userId: 'garbage', srcDate: SRC_DATE }, 'userId'],
      ['/api/ResendOtp', { userId: enc(user), srcDate: '32/01/2025' }, 'srcDate'],
      ['/api/ResendOtp', { userId: enc(user), srcDate: SRC_DATE, extra: 1 }, 'extra'],
    ];
    for (const [url, payload, field] of cases) {
      const res = await post(url, payload);
      expect(res.statusCode, `${url} ${JSON.stringify(payload)}`).toBe(400);
      expect(res.json<{ fields: { field: string }[] }>().fields.map((f) => f.field)).toContain(field);
    }
  });
});
