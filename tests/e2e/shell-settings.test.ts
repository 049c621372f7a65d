import { afterEach, expect, inject, it } from 'vitest';
import { launchBrowser, type TestBrowser } from '../support/browser';
import { signIn } from '../support/login';
import { SHELL_USER_ID } from '../support/shell';
import { seriousViolations } from '../support/axe';

let b: TestBrowser | undefined;
afterEach(async () => {
  await b?.close();
  b = undefined;
});

async function openSettings(): Promise<TestBrowser> {
  b = await launchBrowser({ width: 1280, height: 900 });
  await signIn(b.page, inject('baseUrl'), SHELL_USER_ID);
  await b.page.locator('.layout-menu').waitFor();
  await b.page.getByRole('button', { name: 'Settings' }).click();
  await b.page.locator('#layout-config').waitFor();
  return b;
}
const rootPx = (t: TestBrowser) => t.page.evaluate(() => getComputedStyle(document.documentElement).fontSize);
const themeState = (t: TestBrowser) =>
  t.page.evaluate(() => ({
    links: [...document.querySelectorAll('link[data-theme]')].map((l) => l.getAttribute('href')),
    scheme: getComputedStyle(document.documentElement).colorScheme,
    primary: getComputedStyle(document.documentElement).getPropertyValue('--primary-color').trim(),
  }));

it('scale: 12-16 px, default 14, buttons disabled at the ends', async () => {
  const t = await openSettings();
  const minus = t.page.getByRole('button', { name: 'Decrease scale' });
  const plus = t.page.getByRole('button', { name: 'Increase scale' });
  expect(await rootPx(t)).toBe('14px');
  await plus.click();
  await plus.click();
  expect(await rootPx(t)).toBe('16px');
  expect(await plus.isDisabled()).toBe(true);
  for (let i = 0; i < 4; i++) await minus.click();
  expect(await rootPx(t)).toBe('12px');
  expect(await minus.isDisabled()).toBe(true);
  expect(await plus.isDisabled()).toBe(false);
  expect(await seriousViolations(t.page)).toEqual([]);
});

it('applies a theme of every group without dropping the old stylesheet first, and sets the colour scheme', async () => {
  const t = await openSettings();
  expect(await themeState(t)).toMatchObject({ links: ['/themes/lara-light-indigo/theme.css'], scheme: 'light' });
  const picks: [string, string, 'light' | 'dark'][] = [
    ['Bootstrap', 'Dark Purple', 'dark'],
    ['Material Design', 'Light Indigo', 'light'],
    ['Material Design Compact', 'Dark Deep Purple', 'dark'],
    ['Tailwind', 'Tailwind Light', 'light'],
    ['Fluent', 'Fluent Light', 'light'],
    ['PrimeOne 2022', 'Lara Dark Teal', 'dark'],
    ['PrimeOne 2021', 'Vela Orange', 'dark'],
    ['PrimeOne 2021', 'Saga Green', 'light'],
  ];
  let before = await themeState(t);
  for (const [group, label, scheme] of picks) {
    // Record whether a theme stylesheet was ever missing during the swap (a flash of unstyled content).
    await t.page.evaluate(() => {
      const w = window as unknown as { __noTheme: boolean; __obs: MutationObserver };
      w.__noTheme = false;
      w.__obs = new MutationObserver(() => {
        if (!document.querySelector('link[data-theme]')) w.__noTheme = true;
      });
      w.__obs.observe(document.head, { childList: true, subtree: true, attributes: true });
    });
    const button = t.page.getByRole('region', { name: `${group} themes` }).getByRole('button', { name: label, exact: true });
    await button.click();
    await expect.poll(() => button.getAttribute('aria-pressed')).toBe('true');
    const after = await themeState(t);
    expect(after.links).toHaveLength(1);
    expect(after.links[0]).toMatch(/^\/themes\/[a-z0-9-]+\/theme\.css$/);
    expect(after.links[0]).not.toBe(before.links[0]);
    expect(after.scheme).toBe(scheme);
    expect(await t.page.evaluate(() => (window as unknown as { __noTheme: boolean }).__noTheme)).toBe(false);
    before = after;
  }
  expect(await t.page.getByRole('button', { name: 'Saga Green' }).getAttribute('data-theme-id')).toBe('saga-green');
});

it('a theme that fails to load keeps the old theme and says so', async () => {
  const t = await openSettings();
  await t.page.route('**/themes/arya-purple/theme.css', (r) => r.abort());
  await t.page.getByRole('button', { name: 'Arya Purple' }).click();
  await t.page.getByRole('alert').filter({ hasText: 'could not be loaded' }).waitFor();
  expect(await themeState(t)).toMatchObject({ links: ['/themes/lara-light-indigo/theme.css'], scheme: 'light' });
  expect(await t.page.getByRole('button', { name: 'Lara Light Indigo' }).getAttribute('aria-pressed')).toBe('true');
});

it('menu mode, input style, ripple and theme persist across a reload', async () => {
  const t = await openSettings();
  await t.page.getByRole('button', { name: 'Increase scale' }).click();
  await t.page.getByLabel('Overlay', { exact: true }).check();
  await t.page.getByLabel('Filled', { exact: true }).check();
  await t.page.getByLabel('Ripple Effect').check();
  await t.page.getByRole('button', { name: 'Arya Blue' }).click();
  await expect.poll(() => themeState(t).then((s) => s.scheme)).toBe('dark');
  const wrapper = t.page.locator('.layout-wrapper');
  expect(await wrapper.getAttribute('class')).toMatch(/layout-overlay.*p-input-filled/);
  expect(await wrapper.getAttribute('class')).not.toContain('p-ripple-disabled');

  await t.page.reload();
  await t.page.locator('.layout-menu').waitFor({ state: 'attached' });
  expect(await rootPx(t)).toBe('15px');
  expect(await themeState(t)).toMatchObject({ links: ['/themes/arya-blue/theme.css'], scheme: 'dark' });
  expect(await wrapper.getAttribute('class')).toMatch(/layout-overlay.*p-input-filled/);
  expect(await t.page.locator('#app-sidebar').isVisible()).toBe(false); // overlay: closed until toggled
  await t.page.getByRole('button', { name: 'Settings' }).click();
  expect(await t.page.getByLabel('Overlay', { exact: true }).isChecked()).toBe(true);
  expect(await t.page.getByLabel('Ripple Effect').isChecked()).toBe(true);
  expect(t.errors).toEqual([]);
});
