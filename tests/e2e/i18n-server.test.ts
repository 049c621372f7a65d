/**
 * Hindi end to end: the real menu and a real report of the catalogue in Hindi. The server words them according
 * to Accept-Language (the definitions' optional Hindi labels), the client asks in the interface
 * language and reloads them when it changes. Needs both halves (server and client).
 */
import { afterAll, beforeAll, beforeEach, expect, inject, it } from 'vitest';
import { launchBrowser, type TestBrowser } from '../support/browser';
import { signIn } from '../support/login';
import { englishLeft } from '../support/i18n';
import { seriousViolations } from '../support/axe';

let b: TestBrowser;
const base = (): string => inject('baseUrl');
const DEVANAGARI = /[\u0900-\u097F]/;

beforeAll(async () => {
  b = await launchBrowser({ width: 1366, height: 768 });
  await signIn(b.page, base(), 'HHTDIV');
});
afterAll(async () => {
  await b?.close();
});
// Once in CI every test here timed out after a good sign-in, and the next files passed: say where the page was.
beforeEach(({ onTestFailed }) => {
  onTestFailed(() => {
    console.error(`page at ${b.page.url()}; API errors: ${b.apiFailures.slice(-10).join(', ') || 'none'}; page errors: ${b.errors.slice(-5).join(' | ') || 'none'}`);
  });
});

it('the menu, a report title, its filters and column headers switch to Hindi and back, with no English left but codes', async () => {
  const { page } = b;
  await page.goto(`${base()}/layout/uikit/vacant_berths`);
  await page.getByRole('heading', { name: 'Vacant Berths' }).waitFor();
  await page.locator('#app-sidebar').getByText('Vacant Berths').waitFor();
  const englishHeaders = await page.locator('.ag-header-cell-text').allInnerTexts();

  await page.locator('button[data-language="hi"]').first().click();
  const title = page.locator('.report-header h1');
  await expect.poll(() => title.innerText(), { timeout: 15_000 }).toMatch(DEVANAGARI);
  await expect.poll(() => page.locator('#app-sidebar').innerText(), { timeout: 15_000 }).toMatch(DEVANAGARI);
  expect(await englishLeft(page, '#app-sidebar')).toEqual([]);
  expect(await englishLeft(page, '.report-header')).toEqual([]);
  // Filter labels (and the form's own words); the values in the boxes are data.
  const labels = (await page.locator('.report-filter-form label').allInnerTexts()).join(' ');
  expect(labels).toMatch(DEVANAGARI);
  expect(labels.match(/[A-Za-z]{3,}/g)?.filter((w) => !['HHT', 'TTE', 'PNR', 'EFT', 'TDR', 'PRS', 'RAC'].includes(w)) ?? []).toEqual([]);
  if (englishHeaders.length > 0) {
    await expect.poll(async () => (await page.locator('.ag-header-cell-text').allInnerTexts()).join(' '), { timeout: 15_000 }).toMatch(DEVANAGARI);
    expect(await englishLeft(page, '.ag-header')).toEqual([]);
  }

  await page.locator('button[data-language="en"]').first().click();
  await page.getByRole('heading', { name: 'Vacant Berths' }).waitFor();
  await page.locator('#app-sidebar').getByText('Vacant Berths').waitFor();
  expect(b.errors).toEqual([]);
});

it('the dashboard card titles come in Hindi', async () => {
  const { page } = b;
  await page.goto(`${base()}/layout/dashboard`);
  await page.locator('button[data-language="hi"]').first().click();
  await page.getByRole('heading', { name: 'डैशबोर्ड' }).waitFor();
  await expect.poll(async () => (await page.locator('.dash-card-title').allInnerTexts()).join(' '), { timeout: 15_000 }).toMatch(DEVANAGARI);
  await page.locator('button[data-language="en"]').first().click();
});

for (const [w, h] of [[1366, 768], [390, 844]] as const) {
  it(`a report with results in Hindi at ${w}x${h}: drop-down filters, grid and pager, no serious axe violation`, async () => {
    const { page } = b;
    await page.setViewportSize({ width: w, height: h });
    // EFT Report runs on open for the division user (dates default): locked zone/division, a lobby cascade, two
    // choice filters of our select widget, and more rows than one page, so the pager's drop-down shows.
    await page.goto(`${base()}/layout/uikit/eft_report`);
    await page.locator('button[data-language="hi"]').first().click();
    await expect.poll(() => page.locator('.report-header h1').innerText(), { timeout: 15_000 }).toMatch(DEVANAGARI);
    // A grid on the office screen, a card list on a phone (whose filter folds after the run: Edit opens it).
    await page.locator('.report-results .ag-row, .report-results .report-card-row').first().waitFor({ timeout: 60_000 });
    await page.locator('.report-results .p-paginator').scrollIntoViewIfNeeded();
    const folded = page.locator('.report-filter-folded');
    if (await folded.isVisible()) await folded.getByRole('button').click();
    // The arrows of the drop-downs are named in Hindi too.
    const arrows = await page.locator('.report-filter-form .p-dropdown [role="button"]').evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') ?? ''));
    expect(arrows.length).toBeGreaterThan(0);
    for (const a of arrows) expect(a).toMatch(DEVANAGARI);
    expect(await seriousViolations(page)).toEqual([]);
    await page.locator('button[data-language="en"]').first().click();
    await page.getByRole('heading', { name: 'EFT Report' }).waitFor();
    expect(b.errors).toEqual([]);
  });
}
