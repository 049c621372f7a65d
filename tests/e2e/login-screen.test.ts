import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { launchBrowser, type TestBrowser } from '../support/browser';

let b: TestBrowser;
beforeAll(async () => {
  b = await launchBrowser();
});
afterAll(async () => {
  await b?.close();
});

it('serves the login screen at / and deep links through the SPA fallback', async () => {
  const base = inject('baseUrl');
  await b.page.goto(`${base}/`);
  await expect.poll(() => b.page.url()).toMatch(/\/login$/);
  await b.page.getByRole('heading', { name: 'Welcome to IR-HHT' }).waitFor();
  await b.page.goto(`${base}/no/such/page`);
  await expect.poll(() => b.page.url()).toMatch(/\/notfound$/);
  await b.page.getByText('Requested resource is not available.').waitFor();
  expect(b.errors).toEqual([]);
});

it("the password's show/hide toggle is reached and worked from the keyboard", async () => {
  await b.page.goto(`${inject('baseUrl')}/login`);
  const password = b.page.getByLabel('Password', { exact: true });
  await password.fill('ABC');
  await password.focus();
  await b.page.keyboard.press('Tab');
  const focused = () => b.page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? '');
  await expect.poll(focused).toBe('Show Password');
  await b.page.keyboard.press('Enter');
  await expect.poll(() => b.page.locator('#hht-password').getAttribute('type')).toBe('text');
  await expect.poll(focused).toBe('Hide Password');
  await b.page.keyboard.press('Enter');
  await expect.poll(() => b.page.locator('#hht-password').getAttribute('type')).toBe('password');
  expect(b.errors).toEqual([]);
});
