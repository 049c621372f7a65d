/**
 * Saved views and freshness in a real browser: an SU saves a shared view (filter, sort, a hidden column), another
 * signed-in officer of the same all-India scope opens its link and gets the same filter, sort and columns; the owner
 * renames and deletes it from My views, after which the link explains itself. Every report answer and dashboard card
 * says as of when its data is, in English and in Hindi, on a desktop and on a phone.
 * Screenshots go to HHT_SHOTS_DIR when it is set.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { launchBrowser, type TestBrowser } from '../support/browser';
import { signIn } from '../support/login';
import { seriousViolations } from '../support/axe';

const base = (): string => inject('baseUrl');
const SHOTS = process.env.HHT_SHOTS_DIR;
const shot = async (page: Page, name: string): Promise<void> => {
  if (SHOTS) await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: false });
};
const REPORT = '/layout/uikit/Train_Manned_with_HHT';
const headers = (page: Page) => page.locator('.ag-header-cell-text').allInnerTexts();
// Names of this run, so views left by an earlier run on a reused data folder do not match.
const RUN = String(Date.now() % 1_000_000);
const NAME = `Manning today, newest trains first ${RUN}`;
const RENAMED = `Morning manning check ${RUN}`;
const PHONE_NAME = `Vacant berths on my train ${RUN}`;

describe('saved views: save, open as a colleague of the same scope, rename and delete', () => {
  let owner: TestBrowser;
  let colleague: TestBrowser;
  let link = '';

  beforeAll(async () => {
    owner = await launchBrowser({ width: 1366, height: 768 });
    colleague = await launchBrowser({ width: 1366, height: 768 });
    await signIn(owner.page, base(), 'HHTSU');
    await signIn(colleague.page, base(), 'HHTRO'); // RO of a headquarters office: all-India, as the SU
  }, 180_000);
  afterAll(async () => {
    await owner?.close();
    await colleague?.close();
  });

  it('saves a shared view of the filter, sort and columns, and shows its link', async () => {
    const { page } = owner;
    await page.goto(`${base()}${REPORT}`);
    await page.locator('.ag-header-cell-text', { hasText: 'Train Name' }).waitFor();
    // Sort by Train No, descending, and hide Train Name.
    await page.locator('.ag-header-cell', { hasText: 'Train No' }).locator('.ag-header-cell-label').click();
    await page.locator('.ag-header-cell', { hasText: 'Train No' }).locator('.ag-header-cell-label').click();
    await page.waitForURL(/_dir=desc/);
    await page.getByRole('button', { name: 'Columns' }).click();
    await page.getByLabel('Train Name', { exact: true }).click();
    await page.keyboard.press('Escape');
    await expect.poll(() => headers(page)).not.toContain('Train Name');
    const beforeFilter = new URL(page.url()).searchParams.get('startDate');

    // Save view is the app's button beside the report's title.
    await page.locator('.report-header-actions').getByRole('button', { name: 'Save view' }).click();
    const dialog = page.getByRole('dialog', { name: 'Save this view' });
    await dialog.getByLabel('Name').fill(NAME);
    await dialog.getByLabel('Share with everyone who may open this report').check();
    await shot(page, 'save-view-dialog-1366');
    expect(await seriousViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText(`View "${NAME}" saved.`).waitFor();
    link = await dialog.getByLabel('Link to this view').inputValue();
    expect(link).toMatch(new RegExp(`^${base()}${REPORT}\\?_view=[A-Za-z0-9_-]{16}$`));
    await dialog.locator('.p-dialog-footer').getByRole('button', { name: 'Close' }).click();
    expect(beforeFilter).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('opens in another signed-in session of the same scope with the same filter, sort and columns', async () => {
    const { page } = colleague;
    await page.goto(link);
    await page.waitForURL(/_run=1/);
    const url = new URL(page.url());
    expect(url.searchParams.get('_sort')).toBe('train_no');
    expect(url.searchParams.get('_dir')).toBe('desc');
    expect(url.searchParams.get('startDate')).toBe(new URL(owner.page.url()).searchParams.get('startDate'));
    await page.locator('.ag-header-cell-text', { hasText: 'Train No' }).waitFor();
    const shown = await headers(page);
    expect(shown).not.toContain('Train Name');
    expect(shown).toEqual(await headers(owner.page));
    // Sorted as saved: train numbers descending.
    const trains = await page.locator('.ag-row [col-id="train_no"]').allInnerTexts();
    expect(trains.length).toBeGreaterThan(1);
    expect([...trains].sort().reverse()).toEqual(trains);
    expect(colleague.errors).toEqual([]);
  });

  it('My views lists it; the owner renames it and deletes it, and the link then says it is gone', async () => {
    const { page } = owner;
    await page.locator('.layout-menu a', { hasText: 'My Views' }).first().click();
    await page.waitForURL(/\/layout\/uikit\/myviews$/);
    const row = page.locator('tr', { hasText: NAME });
    await row.waitFor();
    await expect.poll(() => row.locator('td').allInnerTexts()).toEqual(expect.arrayContaining(['Trains Manned with HHT', 'Shared', 'You']));
    await shot(page, 'my-views-1366');
    expect(await seriousViolations(page)).toEqual([]);
    await row.getByRole('button', { name: `Rename: ${NAME}` }).click();
    const rename = page.getByRole('dialog', { name: 'Rename view' });
    await rename.getByLabel('Name').fill(RENAMED);
    await rename.getByRole('button', { name: 'Save' }).click();
    await page.getByText(`View renamed to "${RENAMED}".`).waitFor();

    // The colleague sees it under its new name, not theirs to change.
    await colleague.page.goto(`${base()}/layout/uikit/myviews`);
    const theirs = colleague.page.locator('tr', { hasText: RENAMED });
    await theirs.waitFor();
    expect(await theirs.locator('td').allInnerTexts()).toEqual(expect.arrayContaining(['HHTSU']));
    expect(await theirs.getByRole('button', { name: /Delete/ }).count()).toBe(0);

    await page.locator('tr', { hasText: RENAMED }).getByRole('button', { name: `Delete: ${RENAMED}` }).click();
    await page.getByRole('dialog', { name: 'Delete view' }).getByRole('button', { name: 'Delete' }).click();
    await page.getByText(`View "${RENAMED}" deleted.`).waitFor();
    // The notice comes with the answer to the delete; the list is asked for again after it.
    await expect.poll(() => page.locator('tr', { hasText: RENAMED }).count()).toBe(0);

    await colleague.page.goto(link);
    await colleague.page.getByText('This view does not exist, or it is not shared with you.').waitFor();
    await colleague.page.getByRole('link', { name: 'Go to My views' }).waitFor();
  });
});

describe('freshness on a train report and a dashboard card, in English and Hindi', () => {
  let b: TestBrowser;
  let train = '';
  const today = (): string => new Date(Date.now() + 330 * 60_000).toISOString().slice(0, 10);

  beforeAll(async () => {
    b = await launchBrowser({ width: 1366, height: 768 });
    await signIn(b.page, base(), 'HHTSU');
    // A train running today: the first of the manning report's runs of today.
    await b.page.goto(`${base()}${REPORT}`);
    const cell = b.page.locator('.ag-row [col-id="train_no"]').first();
    await cell.waitFor();
    train = (await cell.innerText()).trim();
    expect(train).toMatch(/^\d{5}$/);
  }, 180_000);
  afterAll(async () => {
    await b?.close();
  });

  const setLanguage = async (page: Page, lang: 'en' | 'hi') => {
    await page.locator(`button[data-language="${lang}"]`).first().click();
    await page.waitForFunction((l) => document.documentElement.lang === l, lang);
  };

  it("a train report says as of when its data is and lists each beat's last sync", async () => {
    const { page } = b;
    await page.goto(`${base()}/layout/uikit/vacant_berths?trainNo=${train}&startDate=${today()}&_run=1`);
    const note = page.getByTestId('freshness').first();
    await note.waitFor();
    expect(await note.getByTestId('freshness-asof').innerText()).toMatch(/^Data as of \d{2}\/\d{2}\/\d{4}/);
    await expect.poll(() => note.locator('summary').innerText()).toMatch(/Last sync of (each of \d+ beats|1 beat)/);
    await note.locator('summary').click();
    expect(await note.locator('.freshness-beat').count()).toBeGreaterThan(0);
    expect(await note.locator('.freshness-beat').first().innerText()).toMatch(/^Beat 1 \(/);
    await shot(page, 'freshness-train-report-1366');

    await setLanguage(page, 'hi');
    await expect.poll(() => note.getByTestId('freshness-asof').innerText()).toMatch(/^डेटा .* तक का/);
    expect(await note.locator('summary').innerText()).toMatch(/अंतिम सिंक/);
    await shot(page, 'freshness-train-report-hi-1366');
    await setLanguage(page, 'en');
  });

  it('each dashboard card says as of when its figure is, in both languages', async () => {
    const { page } = b;
    await page.goto(`${base()}/layout/dashboard`);
    const first = page.locator('.dash-card').getByTestId('freshness').first();
    await first.waitFor();
    expect(await first.innerText()).toMatch(/Data as of \d{2}\/\d{2}\/\d{4}|No synced records yet/);
    await setLanguage(page, 'hi');
    await expect.poll(() => page.locator('.dash-card').getByTestId('freshness').first().innerText()).toMatch(/डेटा .* तक का|अभी कोई सिंक रिकॉर्ड नहीं/);
    await shot(page, 'freshness-dashboard-hi-1366');
    await setLanguage(page, 'en');
    expect(b.errors).toEqual([]);
  });

  it('on a phone the card list shows the freshness too, and the save-view dialog and My views fit', async () => {
    const phone = await launchBrowser({ width: 390, height: 844 });
    try {
      await signIn(phone.page, base(), 'HHTSU');
      const { page } = phone;
      await page.goto(`${base()}/layout/uikit/vacant_berths?trainNo=${train}&startDate=${today()}&_run=1`);
      await page.getByTestId('freshness').first().waitFor();
      expect(await page.locator('.ag-root').count()).toBe(0); // the card list, not the grid
      await page.getByTestId('freshness').first().scrollIntoViewIfNeeded();
      await shot(page, 'freshness-train-report-390');
      await page.getByRole('button', { name: 'Save view' }).click();
      const dialog = page.getByRole('dialog', { name: 'Save this view' });
      await dialog.getByLabel('Name').fill(PHONE_NAME);
      await shot(page, 'save-view-dialog-390');
      await dialog.getByRole('button', { name: 'Save' }).click();
      await dialog.getByText(`View "${PHONE_NAME}" saved.`).waitFor();
      await dialog.locator('.p-dialog-footer').getByRole('button', { name: 'Close' }).click();
      await page.goto(`${base()}/layout/uikit/myviews`);
      await page.locator('tr', { hasText: PHONE_NAME }).waitFor();
      await shot(page, 'my-views-390');
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(width).toBeLessThanOrEqual(390);
    } finally {
      await phone.close();
    }
  });
});
