import { randomInt } from 'node:crypto';
import bcrypt from 'bcryptjs';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { Page, Response as PageResponse } from 'playwright-core';
import type { Queryable } from '../../src/server/db';
import { loadConfig } from '../../src/server/config';
import { DEMO_PASSWORD } from '../../src/server/auth/demo-users';
import { encryptPayload } from '../../src/shared/crypto';
import { LOGIN_GRANT_COOKIE, STORAGE_KEYS, XSRF_COOKIE, toSrcDate } from '../../src/shared/auth-contract';
import type { UserLevel } from '../../src/shared/constants';

/** The payload key the test app and the built client use (HHT_PAYLOAD_KEY or the default). */
export const TEST_PAYLOAD_KEY = loadConfig({ ...process.env, HHT_TEST_HOOKS: '0', NODE_ENV: 'test' }).payloadKey;

export const enc = (text: string): string => encryptPayload(text, TEST_PAYLOAD_KEY);

/** A random client address (x-forwarded-for), so per-IP rate limits of one test do not hit another. */
export function randomIp(): string {
  return `10.${randomInt(0, 256)}.${randomInt(0, 256)}.${randomInt(1, 255)}`;
}

export interface SignedIn {
  userId: string;
  accessToken: string;
  refreshToken: string;
  /** Value of the XSRF-TOKEN cookie. */
  xsrfToken: string;
  /** 'XSRF-TOKEN=...' for a Cookie header. */
  cookie: string;
  /** The address the sign-in came from. */
  ip: string;
  /** Authorization (bearer access token), Cookie and X-XSRF-TOKEN headers for inject calls. */
  headers(): Record<string, string>;
}

/** The XSRF-TOKEN value set by a response, if any. */
export function xsrfFrom(res: LightMyRequestResponse): string | undefined {
  return res.cookies.find((c) => c.name === XSRF_COOKIE)?.value;
}

export interface TestUser {
  userId: string;
  password?: string;
  name?: string;
  designation?: string;
  userLevel: UserLevel;
  rlyCode?: string | null;
  divCode?: string | null;
  lobbyCode?: string | null;
  offCode?: string | null;
  offType?: string | null;
  mobileNo?: string;
  active?: boolean;
}

/** Inserts (or replaces) a user row directly; password defaults to HHT@DEMO1 (cheap bcrypt cost for tests). */
export async function insertUser(db: Queryable, u: TestUser): Promise<void> {
  await db.query(
    `INSERT INTO users (user_id, password_hash, name, designation, user_level, rly_code, div_code, lobby_code, off_code,
                        off_type, mobile_no, active)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
     ON CONFLICT (user_id) DO UPDATE SET password_hash = EXCLUDED.password_hash, name = EXCLUDED.name,
       designation = EXCLUDED.designation, user_level = EXCLUDED.user_level, rly_code = EXCLUDED.rly_code,
       div_code = EXCLUDED.div_code, lobby_code = EXCLUDED.lobby_code, off_code = EXCLUDED.off_code,
       off_type = EXCLUDED.off_type, mobile_no = EXCLUDED.mobile_no, active = EXCLUDED.active`,
    [
      u.userId, bcrypt.hashSync(u.password ?? DEMO_PASSWORD, 4), u.name ?? `Test ${u.userId}`, u.designation ?? 'Test Officer',
      u.userLevel, u.rlyCode ?? null, u.divCode ?? null, u.lobbyCode ?? null, u.offCode ?? null, u.offType ?? null,
      u.mobileNo ?? '9000000001', u.active ?? true,
    ],
  );
}

/**
 * Signs userId in through the real routes (captcha, loginInfo, loginOtpDetails, VerifyOtp), reading the captcha
 * answer and the OTP from the test hooks (the app must be built with testHooks on, as buildTestApp does).
 */
export async function loginAs(
  app: FastifyInstance,
  userId: string,
  opts: { password?: string; ip?: string } = {},
): Promise<SignedIn> {
  const ip = opts.ip ?? randomIp();
  const h = { 'x-forwarded-for': ip };
  const cap = await app.inject({ method: 'GET', url: '/api/captcha', headers: h });
  if (cap.statusCode !== 200) throw new Error(`captcha: ${cap.statusCode} ${cap.body}`);
  const xsrfToken = xsrfFrom(cap);
  if (!xsrfToken) throw new Error('no XSRF-TOKEN cookie on the captcha response');
  const cookie = `${XSRF_COOKIE}=${xsrfToken}`;
  const hc = { ...h, cookie };
  const { captchaId } = cap.json<{ captchaId: string }>();
  const answer = (await app.inject({ method: 'GET', url: `/api/test-hooks/captcha/${captchaId}` })).json<{ answer: string }>().answer;
  const login = await app.inject({
    method: 'POST', url: '/api/loginInfo', headers: hc,
    payload: { userId: enc(userId), pwd: enc(opts.password ?? DEMO_PASSWORD), captchaId, captchaAnswer: answer },
  });
  if (login.json<{ code: number }>().code !== 1) throw new Error(`loginInfo: ${login.body}`);
  // The OTP calls must come from the client that passed the password step: carry its login grant cookie.
  const grant = login.cookies.find((c) => c.name === LOGIN_GRANT_COOKIE)?.value;
  if (!grant) throw new Error('no login grant cookie on the loginInfo response');
  const hg = { ...h, cookie: `${cookie}; ${LOGIN_GRANT_COOKIE}=${grant}` };
  const srcDate = toSrcDate(app.clock.now());
  const sent = await app.inject({ method: 'POST', url: '/api/loginOtpDetails', headers: hg, payload: { userId: enc(userId), srcDate } });
  const sentCode = sent.json<{ code: number }>().code;
  if (sentCode !== 1 && sentCode !== 0) throw new Error(`loginOtpDetails: ${sent.body}`);
  const otp = (await app.inject({ method: 'GET', url: `/api/test-hooks/otp/${userId}` })).json<{ otp: string }>().otp;
  const verify = await app.inject({ method: 'POST', url: '/api/VerifyOtp', headers: hg, payload: { userId: enc(userId), otp: enc(otp) } });
  const body = verify.json<{ code: number; accessToken?: string; refreshToken?: string }>();
  if (body.code !== 1 || !body.accessToken || !body.refreshToken) throw new Error(`VerifyOtp: ${verify.body}`);
  const accessToken = body.accessToken;
  return {
    userId: userId.toUpperCase(),
    accessToken,
    refreshToken: body.refreshToken,
    xsrfToken,
    cookie,
    ip,
    headers: () => ({ authorization: `Bearer ${accessToken}`, cookie, 'x-xsrf-token': xsrfToken, 'x-forwarded-for': ip }),
  };
}

/**
 * Opens /login and returns the id of the captcha on screen, matched by its image: a captcha response of a page being
 * left (a forced logout still loading /login, the new captcha after a failed login) must not be taken for it.
 */
export async function openLoginCaptcha(page: Page, baseUrl: string): Promise<string> {
  const captchaIds = new Map<string, string>(); // image data URL -> captcha id
  const onResponse = (r: PageResponse): void => {
    if (!r.url().endsWith('/api/captcha') || r.status() !== 200) return;
    r.json().then(
      (body: { captchaId: string; imageDataUrl: string }) => captchaIds.set(body.imageDataUrl, body.captchaId),
      () => undefined, // the page that asked was left: its captcha is not the one shown
    );
  };
  page.on('response', onResponse);
  try {
    await page.goto(`${baseUrl}/login`);
    const image = page.locator('img[alt^="Captcha"]');
    // A manual poll: expect.poll is refused in beforeAll hooks, where most sign-ins happen.
    for (const deadline = Date.now() + 30_000; ; await page.waitForTimeout(100)) {
      const captchaId = captchaIds.get((await image.getAttribute('src')) ?? '');
      if (captchaId !== undefined) return captchaId;
      if (Date.now() > deadline) throw new Error('the captcha on screen never arrived');
    }
  } finally {
    page.off('response', onResponse);
  }
}

/**
 * Signs userId (password HHT@DEMO1 unless given) in through the real login page in the browser, using the test
 * hooks for captcha and OTP, and waits for /layout. The server at baseUrl must run with HHT_TEST_HOOKS=1.
 */
export async function signIn(page: Page, baseUrl: string, userId: string, password = DEMO_PASSWORD): Promise<void> {
  const captchaId = await openLoginCaptcha(page, baseUrl);
  await page.getByLabel('Username').fill(userId);
  await page.getByLabel('Password', { exact: true }).fill(password);
  const answer = ((await (await page.request.get(`${baseUrl}/api/test-hooks/captcha/${captchaId}`)).json()) as { answer: string }).answer;
  await page.getByLabel('Captcha answer').fill(answer);
  const otpSent = page.waitForResponse((r) => r.url().endsWith('/api/loginOtpDetails'));
  await page.getByRole('button', { name: 'Login' }).click();
  await otpSent;
  const otp = ((await (await page.request.get(`${baseUrl}/api/test-hooks/otp/${userId}`)).json()) as { otp: string }).otp;
  await page.getByLabel('OTP', { exact: true }).fill(otp);
  await page.getByRole('button', { name: 'Verify OTP' }).click();
  await page.waitForURL(/\/layout(\/|$)/);
  await page.waitForFunction((key) => sessionStorage.getItem(key) !== null, STORAGE_KEYS.trains);
}

/**
 * loginAs over real HTTP, for a server started with startServer() (test hooks on): same result as loginAs.
 * The address is the caller's own (per-IP limits apply to it). opts.fetch: the fetch to use (default global).
 */
export async function loginOverHttp(
  baseUrl: string,
  userId: string,
  opts: { password?: string; fetch?: typeof fetch } = {},
): Promise<SignedIn> {
  const fetch = opts.fetch ?? globalThis.fetch;
  const password = opts.password ?? DEMO_PASSWORD;
  const json = async <T>(res: Response): Promise<T> => {
    if (!res.ok) throw new Error(`${res.url}: ${res.status} ${await res.text()}`);
    return (await res.json()) as T;
  };
  const cap = await fetch(`${baseUrl}/api/captcha`);
  const xsrfToken = /(?:^|,\s*)XSRF-TOKEN=([^;]+)/.exec(cap.headers.get('set-cookie') ?? '')?.[1];
  if (!xsrfToken) throw new Error('no XSRF-TOKEN cookie on the captcha response');
  const cookie = `${XSRF_COOKIE}=${xsrfToken}`;
  const { captchaId } = await json<{ captchaId: string }>(cap);
  const { answer } = await json<{ answer: string }>(await fetch(`${baseUrl}/api/test-hooks/captcha/${captchaId}`));
  let cookies = cookie;
  const send = (path: string, body: unknown): Promise<Response> =>
    fetch(`${baseUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', cookie: cookies }, body: JSON.stringify(body) });
  const post = async <T>(path: string, body: unknown): Promise<T> => json<T>(await send(path, body));
  const loginRes = await send('/api/loginInfo', { userId: enc(userId), pwd: enc(password), captchaId, captchaAnswer: answer });
  const login = await json<{ code: number }>(loginRes);
  if (login.code !== 1) throw new Error(`loginInfo: ${JSON.stringify(login)}`);
  // The OTP calls must carry the login grant cookie of the password step.
  const grant = new RegExp(`(?:^|,\\s*)${LOGIN_GRANT_COOKIE}=([^;]+)`).exec(loginRes.headers.get('set-cookie') ?? '')?.[1];
  if (!grant) throw new Error('no login grant cookie on the loginInfo response');
  cookies = `${cookie}; ${LOGIN_GRANT_COOKIE}=${grant}`;
  await post('/api/loginOtpDetails', { userId: enc(userId), srcDate: toSrcDate(new Date()) });
  const { otp } = await json<{ otp: string }>(await fetch(`${baseUrl}/api/test-hooks/otp/${userId}`));
  const v = await post<{ code: number; accessToken?: string; refreshToken?: string }>('/api/VerifyOtp', { userId: enc(userId), otp: enc(otp) });
  if (v.code !== 1 || !v.accessToken || !v.refreshToken) throw new Error(`VerifyOtp: ${JSON.stringify(v)}`);
  const accessToken = v.accessToken;
  return {
    userId: userId.toUpperCase(), accessToken, refreshToken: v.refreshToken, xsrfToken, cookie, ip: '127.0.0.1',
    headers: () => ({ authorization: `Bearer ${accessToken}`, cookie, 'x-xsrf-token': xsrfToken }),
  };
}
