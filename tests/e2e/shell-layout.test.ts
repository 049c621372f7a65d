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

async function open(width: number): Promise<TestBrowser> {
  b = await launchBrowser({ width, height: 800 });
  await signIn(b.page, inject('baseUrl'), SHELL_USER_ID);
  await b.page.locator('.layout-menu').waitFor({ state: 'attached' });
  return b;
}

const sidebar = (t: TestBrowser) => t.page.locator('#app-sidebar');
const mask = (t: TestBrowser) => t.page.locator('.layout-mask');
const toggle = (t: TestBrowser) => t.page.getByRole('button', { name: 'Toggle menu' });
const blocked = (t: TestBrowser) => t.page.evaluate(() => getComputedStyle(document.body).overflow === 'hidden');
const settle = (t: TestBrowser) => t.page.waitForTimeout(400); // the 0.3 s sidebar transition

async function chooseMenuMode(t: TestBrowser, mode: 'Static' | 'Overlay'): Promise<void> {
  await t.page.getByRole('button', { name: 'Settings' }).click();
  await t.page.getByLabel(mode, { exact: true }).check();
  await t.page.getByRole('button', { name: 'Close settings' }).click();
  await settle(t);
}

it('top bar: logo with tooltip to the dashboard, user name, designation and division, and the shell passes axe', async () => {
  const t = await open(1280);
  await expect.poll(() => t.page.url()).toMatch(/\/layout\/dashboard$/);
  const topbar = t.page.locator('.layout-topbar');
  // the user's name, designation and division/lobby code from the session profile
  expect((await topbar.locator('.layout-topbar-user-name').innerText()).trim()).not.toBe('');
  // The meta line is a flex row (the code never gives way), so innerText puts its parts on lines of their own.
  expect((await topbar.locator('.layout-topbar-user-meta').innerText()).replace(/\s+/g, ' ')).toMatch(/\S+ · [A-Z0-9]+/);
  await t.page.locator('.layout-topbar-logo').hover();
  await t.page.getByText('Click me to Dashboard').waitFor();
  await t.page.goto(`${inject('baseUrl')}/layout/uikit/vacant_berths`);
  await t.page.getByRole('heading', { name: 'Vacant Berths' }).waitFor();
  await t.page.locator('.layout-topbar-logo').click();
  await expect.poll(() => t.page.url()).toMatch(/\/layout\/dashboard$/);
  expect(await seriousViolations(t.page)).toEqual([]);
  expect(t.errors).toEqual([]);
});

it('side menu: the spec order from menu.json, links under /layout/uikit/, Logout as a command', async () => {
  const t = await open(1280);
  const roots = await t.page.locator('.layout-menu > li').evaluateAll((els) =>
    els.map((e) => (e.querySelector(':scope > .layout-menuitem-root-text') ?? e).textContent?.trim()),
  );
  expect(roots).toEqual(['Feedback Form', 'TRAIN CHECKING INFO', 'Train Information', 'CONSOLIDATED REPORTS', 'UTILITIES', 'EXCEPTION REPORT', 'My Views', 'Whats New', 'Logout']);
  expect(await t.page.getByRole('link', { name: 'Train Schedule' }).getAttribute('href')).toBe('/layout/uikit/trainDetails');
  expect(await t.page.getByRole('link', { name: 'All Train Details' }).getAttribute('href')).toBe('/layout/uikit/traininfo');
  expect(await t.page.locator('#app-sidebar a').count()).toBe(40); // every report and page of menu.json, My Views included
  await t.page.locator('#app-sidebar').getByRole('button', { name: 'Logout' }).click();
  await expect.poll(() => t.page.url()).toMatch(/\/login$/);
});

it('desktop static: the toggle hides and shows the docked menu with a 0.3 s transition, no mask', async () => {
  const t = await open(1280);
  await expect.poll(() => sidebar(t).isVisible()).toBe(true);
  expect(await sidebar(t).evaluate((e) => getComputedStyle(e).transitionDuration)).toContain('0.3s');
  await toggle(t).click();
  await expect.poll(() => sidebar(t).isVisible()).toBe(false);
  await expect.poll(() => mask(t).count()).toBe(0);
  await toggle(t).click();
  await expect.poll(() => sidebar(t).isVisible()).toBe(true);
  // a docked menu stays after navigation
  await t.page.getByRole('link', { name: 'Occupancy', exact: true }).click();
  await expect.poll(() => t.page.url()).toMatch(/\/layout\/uikit\/Occupancy$/);
  await expect.poll(() => sidebar(t).isVisible()).toBe(true);
});

it('desktop overlay: the menu opens over the content with a mask, closes on outside click and after navigation', async () => {
  const t = await open(1280);
  await chooseMenuMode(t, 'Overlay');
  await expect.poll(() => sidebar(t).isVisible()).toBe(false);
  await toggle(t).click();
  await expect.poll(() => sidebar(t).isVisible()).toBe(true);
  await expect.poll(() => mask(t).isVisible()).toBe(true);
  await expect.poll(() => blocked(t)).toBe(false);
  await t.page.mouse.click(1000, 500); // on the mask: outside the menu
  await expect.poll(() => sidebar(t).isVisible()).toBe(false);
  await expect.poll(() => mask(t).count()).toBe(0);

  await toggle(t).click();
  await settle(t);
  await t.page.getByRole('link', { name: 'Vacant Berths' }).click();
  await expect.poll(() => t.page.url()).toMatch(/\/layout\/uikit\/vacant_berths$/);
  await expect.poll(() => sidebar(t).isVisible()).toBe(false);
  await expect.poll(() => mask(t).count()).toBe(0);

  // Escape closes too
  await toggle(t).click();
  await settle(t);
  await t.page.keyboard.press('Escape');
  await expect.poll(() => sidebar(t).isVisible()).toBe(false);
});

it('mobile: off-canvas menu with mask and blocked page scroll; outside click and navigation close it', async () => {
  const t = await open(390);
  await expect.poll(() => sidebar(t).isVisible()).toBe(false);
  await toggle(t).click();
  await expect.poll(() => sidebar(t).isVisible()).toBe(true);
  await expect.poll(() => mask(t).isVisible()).toBe(true);
  await expect.poll(() => blocked(t)).toBe(true);
  await t.page.mouse.click(370, 600); // the mask, right of the menu
  await expect.poll(() => sidebar(t).isVisible()).toBe(false);
  await expect.poll(() => blocked(t)).toBe(false);

  await toggle(t).click();
  await settle(t);
  await t.page.getByRole('link', { name: 'Trip ID Search' }).click();
  await expect.poll(() => t.page.url()).toMatch(/\/layout\/uikit\/tripidsearch$/);
  await expect.poll(() => sidebar(t).isVisible()).toBe(false);
  await expect.poll(() => mask(t).count()).toBe(0);
  await expect.poll(() => blocked(t)).toBe(false);
});

it('mobile overlay mode also opens over the content with a mask', async () => {
  const t = await open(390);
  await chooseMenuMode(t, 'Overlay');
  await toggle(t).click();
  await expect.poll(() => sidebar(t).isVisible()).toBe(true);
  await expect.poll(() => mask(t).isVisible()).toBe(true);
  await t.page.mouse.click(370, 600);
  await expect.poll(() => sidebar(t).isVisible()).toBe(false);
});

it('profile menu: opens from the top bar, closes on an outside click and after navigation', async () => {
  const t = await open(1280);
  const button = t.page.getByRole('button', { name: 'Profile menu' });
  const menu = t.page.locator('#profile-menu');
  await button.click();
  await menu.waitFor();
  expect(await button.getAttribute('aria-expanded')).toBe('true');
  expect(await menu.innerText()).toContain('Designation');
  await t.page.locator('.layout-main').click({ position: { x: 300, y: 300 } });
  await menu.waitFor({ state: 'detached' });
  await button.click();
  await menu.getByRole('link', { name: 'Dashboard' }).click();
  await menu.waitFor({ state: 'detached' });
  await button.click();
  await t.page.keyboard.press('Escape');
  await menu.waitFor({ state: 'detached' });
  expect(await button.evaluate((e) => e === document.activeElement)).toBe(true);
});

it('navigating to the current URL reloads the page; other links keep working', async () => {
  const t = await open(1280);
  // The page loads its data (the report definition) again each time the link to the URL shown is followed.
  let loads = 0;
  t.page.on('request', (r) => {
    if (r.url().endsWith('/api/meta/reports/eft_report')) loads += 1;
  });
  await t.page.getByRole('link', { name: 'EFT Report' }).click();
  await t.page.getByRole('heading', { name: 'EFT Report' }).waitFor();
  await expect.poll(() => loads).toBe(1);
  await t.page.getByRole('link', { name: 'EFT Report' }).click();
  await expect.poll(() => loads).toBe(2);
  // The path the link names; the reloaded page may already have written its opening run's filter into the search.
  expect(new URL(t.page.url()).pathname).toBe('/layout/uikit/eft_report');
});

it('restores the scroll position on back and scrolls to an anchor', async () => {
  b = await launchBrowser({ width: 1280, height: 300 });
  const t = b;
  await signIn(t.page, inject('baseUrl'), SHELL_USER_ID);
  await t.page.locator('.layout-menu').waitFor({ state: 'attached' });
  // An in-app link to an anchor of the release notes scrolls to it (as far as the page can), below the top bar.
  await t.page.getByRole('link', { name: 'Whats New' }).click();
  await t.page.getByRole('heading', { name: "What's New" }).waitFor();
  await t.page.evaluate(() => {
    const a = document.createElement('a');
    a.href = '#wn-v1.5.0';
    a.textContent = 'to v1.5.0';
    a.id = 'test-anchor-link';
    document.querySelector('.wn-heading')?.after(a);
  });
  await t.page.locator('#test-anchor-link').click();
  await expect.poll(() => t.page.url()).toMatch(/#wn-v1\.5\.0$/);
  await expect
    .poll(() =>
      t.page.evaluate(() => {
        const el = document.getElementById('wn-v1.5.0')!;
        const want = Math.min(document.documentElement.scrollHeight - innerHeight, el.getBoundingClientRect().top + scrollY - 70);
        return want > 0 && Math.abs(scrollY - want) <= 2;
      }),
    )
    .toBe(true);
  await t.page.evaluate(() => window.scrollTo(0, 120));
  await t.page.waitForTimeout(100);
  const y = await t.page.evaluate(() => window.scrollY);
  await t.page.getByRole('link', { name: 'Feedback Form' }).click();
  await t.page.waitForURL(/feedbackform$/);
  await t.page.goBack();
  await expect.poll(() => t.page.evaluate(() => window.scrollY)).toBe(y);
});

it('the layout routes: /layout -> dashboard, /layout/utilities, unknown -> /notfound', async () => {
  const t = await open(1280);
  const base = inject('baseUrl');
  await t.page.goto(`${base}/layout`);
  await expect.poll(() => t.page.url()).toMatch(/\/layout\/dashboard$/);
  await t.page.goto(`${base}/layout/utilities`);
  await t.page.getByRole('heading', { name: 'Utilities' }).waitFor();
  await t.page.goto(`${base}/layout/nope/x`);
  await expect.poll(() => t.page.url()).toMatch(/\/notfound$/);
});
