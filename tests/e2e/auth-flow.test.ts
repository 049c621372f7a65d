import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Dialog, Page } from 'playwright-core';
import { launchBrowser, type TestBrowser } from '../support/browser';
import { startServer, type RunningServer } from '../support/server';
import { openLoginCaptcha, signIn } from '../support/login';
import { STORAGE_KEYS } from '../../src/shared/auth-contract';
import { decryptJson } from '../../src/shared/crypto';
import { DEFAULT_PAYLOAD_KEY } from '../../src/shared/constants';

/**
 * The whole sign-in flow in Chromium against a real server process (own server: demo users are inserted at
 * start by HHT_SEED=demo; per-IP limits raised because every browser request comes from 127.0.0.1).
 */
let server: RunningServer;
let b: TestBrowser;
let page: Page;
const dialogs: string[] = [];

beforeAll(async () => {
  server = await startServer({ HHT_RATE_LIMITS: 'captcha=1000,login=1000,otp=1000', HHT_SEED: 'demo' });
});
afterAll(async () => {
  await server?.stop();
});
beforeEach(async () => {
  await b?.close();
  b = await launchBrowser();
  page = b.page;
  dialogs.length = 0;
  page.on('dialog', (d: Dialog) => {
    dialogs.push(d.message());
    void d.accept();
  });
});
afterAll(async () => {
  await b?.close();
});

const base = (): string => server.url;
const hook = async <T>(path: string): Promise<T> => (await (await fetch(`${base()}/api/test-hooks/${path}`)).json()) as T;
const advanceServer = async (ms: number): Promise<void> => {
  const res = await fetch(`${base()}/api/test-hooks/clock`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ advanceMs: ms }) });
  expect(res.status).toBe(200);
};
/** axe-core violations (WCAG 2 A/AA) on the current page; evaluated through the protocol, so the CSP allows it. */
async function axeViolations(p: Page): Promise<string[]> {
  const source = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  await p.evaluate(source);
  return p.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(o: unknown): Promise<{ violations: { id: string; nodes: unknown[] }[] }> } }).axe;
    const r = await axe.run({ runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa'] } });
    return r.violations.map((v) => `${v.id} (${v.nodes.length})`);
  });
}
const message = (p: Page, id: 'login-message' | 'otp-message') => p.getByTestId(id);

/** Opens /login and returns the id of the captcha on screen (not one the page being left asked for). */
const openLogin = (p: Page): Promise<string> => openLoginCaptcha(p, base());

async function fillCredentials(p: Page, user: string, pwd: string, answer: string): Promise<void> {
  await p.getByLabel('Username').fill(user);
  await p.getByLabel('Password', { exact: true }).fill(pwd);
  await p.getByLabel('Captcha answer').fill(answer);
}

/** Which of the session's own keys (tokens, encrypted train list) are still in session storage. */
async function sessionKeys(page: Page): Promise<string[]> {
  const keys = Object.values(STORAGE_KEYS);
  return page.evaluate((ks) => ks.filter((k) => sessionStorage.getItem(k) !== null), keys);
}

describe('login screen and step 1', () => {
  it('shows the heading, a random background, both fields, captcha with Refresh; upper-cases credentials; Login disabled until valid', async () => {
    const id1 = await openLogin(page);
    await page.getByRole('heading', { name: 'Welcome to IR-HHT' }).waitFor();
    expect(['tracks', 'express']).toContain(await page.locator('main.hht-login').getAttribute('data-background'));
    expect(await page.getByRole('img', { name: /Captcha/ }).getAttribute('src')).toMatch(/^data:image\/svg\+xml;base64,/);
    const login = page.getByRole('button', { name: 'Login' });
    expect(await login.isDisabled()).toBe(true);
    await page.getByLabel('Username').fill('hhtdiv');
    expect(await page.getByLabel('Username').inputValue()).toBe('HHTDIV');
    await page.getByLabel('Password', { exact: true }).fill('hht@demo1');
    expect(await page.getByLabel('Password', { exact: true }).inputValue()).toBe('HHT@DEMO1');
    expect(await page.getByLabel('Password', { exact: true }).getAttribute('type')).toBe('password');
    expect(await login.isDisabled()).toBe(true); // captcha answer empty
    await page.getByLabel('Username').press('Enter');
    expect(await message(page, 'login-message').textContent()).toBe('Please solve the CAPTCHA.');
    await page.getByLabel('Captcha answer').fill('ABCDEFGHIJ');
    expect(await page.getByLabel('Captcha answer').inputValue()).toBe('ABCDEFGH'); // max 8
    expect(await login.isDisabled()).toBe(false);
    await page.getByLabel('Username').fill('A'.repeat(30));
    expect(await page.getByLabel('Username').inputValue()).toHaveLength(25);
    const refreshed = page.waitForResponse((r) => r.url().endsWith('/api/captcha'));
    await page.getByRole('button', { name: 'Refresh' }).click();
    const id2 = ((await (await refreshed).json()) as { captchaId: string }).captchaId;
    expect(id2).not.toBe(id1);
    expect(await page.getByLabel('Captcha answer').inputValue()).toBe('');
    expect(b.errors).toEqual([]);
  });

  it('has no WCAG 2 A/AA violations on either step', async () => {
    const id = await openLogin(page);
    await page.getByRole('heading', { name: 'Welcome to IR-HHT' }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await fillCredentials(page, 'HHTLOBBY', 'HHT@DEMO1', (await hook<{ answer: string }>(`captcha/${id}`)).answer);
    await page.getByRole('button', { name: 'Login' }).click();
    await expect.poll(() => message(page, 'otp-message').textContent()).toMatch(/^OTP sent successfully on /);
    expect(await axeViolations(page)).toEqual([]);
  });

  it('blocks paste into the credential and captcha inputs', async () => {
    await openLogin(page);
    for (const label of ['Username', 'Captcha answer']) {
      const prevented = await page.getByLabel(label).evaluate((el) => {
        const ev = new ClipboardEvent('paste', { bubbles: true, cancelable: true });
        el.dispatchEvent(ev);
        return ev.defaultPrevented;
      });
      expect(prevented, label).toBe(true);
    }
    const pwdPrevented = await page.getByLabel('Password', { exact: true }).evaluate((el) => {
      const ev = new ClipboardEvent('copy', { bubbles: true, cancelable: true });
      el.dispatchEvent(ev);
      return ev.defaultPrevented;
    });
    expect(pwdPrevented).toBe(true);
  });

  it('wrong password shows the server message, resets the form and loads a new captcha', async () => {
    const id = await openLogin(page);
    const { answer } = await hook<{ answer: string }>(`captcha/${id}`);
    await fillCredentials(page, 'HHTZONE', 'WRONGPASS', answer);
    const next = page.waitForResponse((r) => r.url().endsWith('/api/captcha'));
    await page.getByRole('button', { name: 'Login' }).click();
    await next;
    expect(await message(page, 'login-message').textContent()).toBe('Invalid User ID or Password');
    expect(await page.getByLabel('Username').inputValue()).toBe('');
    expect(await page.getByLabel('Password', { exact: true }).inputValue()).toBe('');
  });

  it('5 wrong captchas lock the form for 30 s with a live countdown, then a new captcha and a reset counter', async () => {
    await page.clock.install();
    await openLogin(page);
    for (let i = 1; i <= 5; i++) {
      await fillCredentials(page, 'HHTDIV', 'HHT@DEMO1', 'WRONG');
      const res = page.waitForResponse((r) => r.url().endsWith('/api/loginInfo'));
      await page.getByRole('button', { name: 'Login' }).click();
      expect(((await (await res).json()) as { code: number }).code).toBe(-10);
      if (i < 5) await expect.poll(() => message(page, 'login-message').textContent()).toBe('Invalid or expired captcha. Please try again.');
    }
    await expect.poll(() => message(page, 'login-message').textContent()).toBe('Too many attempts. Try again in 30s.');
    expect(await page.getByRole('button', { name: 'Login' }).isDisabled()).toBe(true);
    expect(await page.getByLabel('Captcha answer').isDisabled()).toBe(true);
    await page.clock.runFor(1000);
    await expect.poll(() => message(page, 'login-message').textContent()).toBe('Too many attempts. Try again in 29s.');
    await page.clock.runFor(10_000);
    await expect.poll(() => message(page, 'login-message').textContent()).toBe('Too many attempts. Try again in 19s.');
    const fresh = page.waitForResponse((r) => r.url().endsWith('/api/captcha'));
    await page.clock.runFor(19_000);
    const { captchaId } = (await (await fresh).json()) as { captchaId: string };
    await expect.poll(() => message(page, 'login-message').count()).toBe(0);
    expect(await page.getByLabel('Captcha answer').isDisabled()).toBe(false);
    // The server keeps the same 30 s lock on real time: move its auth clock past it as the page's clock moved.
    const moved = await fetch(`${server.url}/api/test-hooks/clock`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"advanceMs":30000}' });
    expect(moved.status).toBe(200);
    // Counter reset: one more wrong captcha does not lock again.
    await fillCredentials(page, 'HHTDIV', 'HHT@DEMO1', 'WRONG');
    await page.getByRole('button', { name: 'Login' }).click();
    await expect.poll(() => message(page, 'login-message').textContent()).toBe('Invalid or expired captcha. Please try again.');
    expect(captchaId).toBeTruthy();
  });
});

describe('network failures (requests aborted in the browser)', () => {
  it('captcha load, login, OTP send, verify and resend each show their message', async () => {
    await page.route('**/api/captcha', (r) => r.abort());
    await page.goto(`${base()}/login`);
    await expect.poll(() => message(page, 'login-message').textContent()).toBe('Failed to load CAPTCHA.');
    await page.unroute('**/api/captcha');
    const cap = page.waitForResponse((r) => r.url().endsWith('/api/captcha'));
    await page.getByRole('button', { name: 'Refresh' }).click();
    const id = ((await (await cap).json()) as { captchaId: string }).captchaId;
    await page.route('**/api/loginInfo', (r) => r.abort());
    await fillCredentials(page, 'HHTLOBBY', 'HHT@DEMO1', (await hook<{ answer: string }>(`captcha/${id}`)).answer);
    await page.getByRole('button', { name: 'Login' }).click();
    await expect.poll(() => message(page, 'login-message').textContent()).toBe('Error logging in.');
    await page.unroute('**/api/loginInfo');

    await page.route('**/api/loginOtpDetails', (r) => r.abort());
    await page.clock.install();
    const id2 = await openLogin(page);
    await fillCredentials(page, 'HHTLOBBY', 'HHT@DEMO1', (await hook<{ answer: string }>(`captcha/${id2}`)).answer);
    await page.getByRole('button', { name: 'Login' }).click();
    await expect.poll(() => message(page, 'otp-message').textContent()).toBe('Failed to send OTP. Please try again.');
    await page.route('**/api/VerifyOtp', (r) => r.abort());
    await page.getByLabel('OTP', { exact: true }).fill('123456');
    await page.getByRole('button', { name: 'Verify OTP' }).click();
    await expect.poll(() => message(page, 'otp-message').textContent()).toBe('Error verifying OTP. Please try again.');
    await page.route('**/api/ResendOtp', (r) => r.abort());
    await page.clock.runFor(31_000);
    await page.getByRole('button', { name: 'Resend OTP' }).click();
    await expect.poll(() => message(page, 'otp-message').textContent()).toBe('Error resending OTP. Please try again.');
  });

  it('"OTP not found" from the server is shown when no OTP exists', async () => {
    await page.route('**/api/loginOtpDetails', (r) => r.abort());
    const id = await openLogin(page);
    await fillCredentials(page, 'HHTRO', 'HHT@DEMO1', (await hook<{ answer: string }>(`captcha/${id}`)).answer);
    await page.getByRole('button', { name: 'Login' }).click();
    await expect.poll(() => message(page, 'otp-message').textContent()).toBe('Failed to send OTP. Please try again.');
    await page.getByLabel('OTP', { exact: true }).fill('123456');
    await page.getByRole('button', { name: 'Verify OTP' }).click();
    await expect.poll(() => message(page, 'otp-message').textContent()).toBe('OTP not found or expired. Please resend OTP.');
  });
});

describe('step 2 and the session', () => {
  it('HHTDIV: OTP sent automatically, messages, resend timer 30 s then 60 s, wrong OTP, verify, /layout with profile and trains', async () => {
    await page.clock.install();
    const id = await openLogin(page);
    const { answer } = await hook<{ answer: string }>(`captcha/${id}`);
    await fillCredentials(page, 'hhtdiv', 'hht@demo1', answer);
    // From here the page's clock moves only when the test moves it, however slow the machine is.
    await page.clock.pauseAt(Date.now() + 1000);
    const sent = page.waitForResponse((r) => r.url().endsWith('/api/loginOtpDetails'));
    await page.getByRole('button', { name: 'Login' }).click();
    await sent;
    await expect.poll(() => message(page, 'otp-message').textContent()).toBe('OTP sent successfully on 98******67');
    const resend = page.getByRole('button', { name: /Please wait|Resend OTP/ });
    expect(await resend.textContent()).toBe('Please wait 30s');
    expect(await resend.isDisabled()).toBe(true);
    // digits only, max 6
    await page.getByLabel('OTP', { exact: true }).pressSequentially('12ab34567');
    expect(await page.getByLabel('OTP', { exact: true }).inputValue()).toBe('123456');
    await page.getByLabel('OTP', { exact: true }).fill('');
    await page.getByRole('button', { name: 'Verify OTP' }).click();
    expect(await message(page, 'otp-message').textContent()).toBe('Please enter the OTP.');
    const { otp: first } = await hook<{ otp: string }>('otp/HHTDIV');
    const wrong = String((Number(first) + 1) % 1_000_000).padStart(6, '0');
    await page.getByLabel('OTP', { exact: true }).fill(wrong);
    await page.getByRole('button', { name: 'Verify OTP' }).click();
    await expect.poll(() => message(page, 'otp-message').textContent()).toBe('Incorrect OTP.');

    await page.clock.runFor(10_000);
    await expect.poll(() => resend.textContent()).toBe('Please wait 20s');
    await page.clock.runFor(20_000);
    await expect.poll(() => resend.textContent()).toBe('Resend OTP');
    await advanceServer(30_000); // the server enforces the same wait
    await resend.click();
    await expect.poll(() => message(page, 'otp-message').textContent()).toBe('OTP resent successfully on 98******67');
    await expect.poll(() => resend.textContent()).toBe('Please wait 60s');
    const { otp } = await hook<{ otp: string }>('otp/HHTDIV');
    await page.getByLabel('OTP', { exact: true }).fill(otp);
    await page.getByRole('button', { name: 'Verify OTP' }).click();
    await page.waitForURL(/\/layout\/dashboard$/);
    await expect.poll(() => page.getByTestId('profile-name').textContent()).toBe('Amit Saxena');
    expect(await page.getByTestId('profile-designation').textContent()).toBe('Senior Divisional Commercial Manager');
    const storage = await page.evaluate(() => ({ ...sessionStorage }));
    expect(storage[STORAGE_KEYS.accessToken]?.split('.')).toHaveLength(3);
    expect(storage[STORAGE_KEYS.refreshToken]).toBeTruthy();
    expect(Array.isArray(decryptJson(storage[STORAGE_KEYS.trains], DEFAULT_PAYLOAD_KEY))).toBe(true);
  });

  it('Back to Login clears the OTP step; a second Login says "Please enter the OTP." while the OTP lives', async () => {
    let id = await openLogin(page);
    let { answer } = await hook<{ answer: string }>(`captcha/${id}`);
    await fillCredentials(page, 'HHTZONE', 'HHT@DEMO1', answer);
    await page.getByRole('button', { name: 'Login' }).click();
    await expect.poll(() => message(page, 'otp-message').textContent()).toMatch(/^OTP sent successfully on /);
    await page.getByLabel('OTP', { exact: true }).fill('12');
    const cap = page.waitForResponse((r) => r.url().endsWith('/api/captcha'));
    await page.getByRole('button', { name: 'Back to Login' }).click();
    id = ((await (await cap).json()) as { captchaId: string }).captchaId;
    expect(await page.getByLabel('OTP', { exact: true }).count()).toBe(0);
    ({ answer } = await hook<{ answer: string }>(`captcha/${id}`));
    await fillCredentials(page, 'HHTZONE', 'HHT@DEMO1', answer);
    await page.getByRole('button', { name: 'Login' }).click();
    await expect.poll(() => message(page, 'otp-message').textContent()).toBe('Please enter the OTP.');
    expect(await page.getByLabel('OTP', { exact: true }).inputValue()).toBe('');
  });

  it('HHTSU: full flow, then Logout alerts "Logged out successfully." and returns to login; the guard then refuses /layout', async () => {
    await signIn(page, base(), 'HHTSU');
    await expect.poll(() => page.getByTestId('profile-name').textContent()).toBe('Rajesh Kumar Verma');
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL(/\/login$/);
    expect(dialogs).toEqual(['Logged out successfully.']);
    expect(await sessionKeys(page)).toEqual([]);
    await page.goto(`${base()}/layout`);
    await page.waitForURL(/\/login$/);
    await expect.poll(() => page.getByText('Session Expired, Please login again').count()).toBe(1);
  });

  it('guard: /layout without a session redirects to login with "Session Expired, Please login again"', async () => {
    await page.goto(`${base()}/layout/dashboard`);
    await page.waitForURL(/\/login$/);
    await expect.poll(() => page.getByText('Session Expired, Please login again').count()).toBe(1);
  });

  it('a 403 (garbage token) forces logout with "Session expired, Please login again"', async () => {
    await signIn(page, base(), 'HHTDIV');
    await page.evaluate((k) => sessionStorage.setItem(k, 'garbage'), STORAGE_KEYS.accessToken);
    await page.reload();
    await page.waitForURL(/\/login$/);
    await expect.poll(() => page.getByText('Session expired, Please login again').count()).toBe(1);
    expect(await sessionKeys(page)).toEqual([]);
  });

  it('an expired access token is refreshed once and the call retried; the session continues', async () => {
    await signIn(page, base(), 'HHTZONE');
    const before = await page.evaluate((k) => sessionStorage.getItem(k), STORAGE_KEYS.refreshToken);
    await advanceServer(16 * 60_000);
    const refreshes: number[] = [];
    page.on('response', (r) => {
      if (r.url().endsWith('/api/refreshToken')) refreshes.push(r.status());
    });
    await page.reload();
    await page.waitForURL(/\/layout\/dashboard$/, { timeout: 60_000 });
    await expect.poll(() => page.getByTestId('profile-name').textContent()).toBe('Sunita Malhotra');
    expect(refreshes).toEqual([200]);
    await expect.poll(() => page.url()).toMatch(/\/layout\/dashboard$/);
    expect(await page.evaluate((k) => sessionStorage.getItem(k), STORAGE_KEYS.refreshToken)).not.toBe(before);
  });

  it('a refresh whose answer is lost on the way is tried again and the session continues', async () => {
    await signIn(page, base(), 'HHTZONE');
    await page.waitForURL(/\/layout\/dashboard$/);
    const sent: number[] = [];
    // The first refresh reaches the server (which rotates the token) but its answer never reaches the page.
    await page.route('**/api/refreshToken', async (route) => {
      sent.push(Date.now());
      if (sent.length === 1) {
        await route.fetch();
        await route.abort('connectionreset');
      } else {
        await route.continue();
      }
    });
    await advanceServer(16 * 60_000);
    await page.goto(`${base()}/layout/uikit/vacant_berths`);
    await expect.poll(() => page.getByTestId('profile-name').textContent(), { timeout: 20_000 }).toBe('Sunita Malhotra');
    await expect.poll(() => sent.length, { timeout: 20_000 }).toBe(2);
    expect(page.url()).toBe(`${base()}/layout/uikit/vacant_berths`);
    expect(dialogs).toEqual([]);
    expect(await sessionKeys(page)).toEqual(Object.values(STORAGE_KEYS));
    // The session is really alive on the server: a reload (new calls with the new access token) stays in.
    await page.unroute('**/api/refreshToken');
    await page.reload();
    await expect.poll(() => page.getByTestId('profile-name').textContent()).toBe('Sunita Malhotra');
    expect(page.url()).toBe(`${base()}/layout/uikit/vacant_berths`);
  });

  it('a superseded session: alert "Already Logged in with different session", tokens cleared, back to login', async () => {
    await signIn(page, base(), 'HHTDIV');
    const other = await launchBrowser();
    try {
      await signIn(other.page, base(), 'HHTDIV');
    } finally {
      await other.close();
    }
    await page.reload();
    await page.waitForURL(/\/login$/);
    expect(dialogs).toEqual(['Already Logged in with different session']);
    expect(await sessionKeys(page)).toEqual([]);

    // Signing in again in the same tab gives a session that lasts across page loads.
    await signIn(page, base(), 'HHTDIV');
    for (const path of ['/layout/uikit/vacant_berths', '/layout/utilities/devices', '/layout/dashboard']) {
      await page.goto(`${base()}${path}`);
      await expect.poll(() => page.getByTestId('profile-name').textContent()).toBe('Amit Saxena');
      expect(page.url()).toBe(`${base()}${path}`);
    }
    expect(dialogs).toEqual(['Already Logged in with different session']);
  });
});
