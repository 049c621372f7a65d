/**
 * The results grid of the built client, as an officer arranges it: sort by a header, hide a column and pin another
 * through the column chooser, and find the layout again after a reload; "Restore default columns" brings back the
 * definition's. On a phone the same report is a card list and loads no grid code.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, type TestBrowser } from '../support/browser';
import { signIn } from '../support/login';
import { istToday, outcome, reportUrl, samples } from '../support/report-samples';

const REPORT = 'All_Passenger_Report';

describe('the results grid keeps the layout an officer gives it', () => {
  let b: TestBrowser;
  let url = '';
  beforeAll(async () => {
    b = await launchBrowser({ width: 1366, height: 768 });
    await signIn(b.page, inject('baseUrl'), 'HHTSU');
    url = `${inject('baseUrl')}${reportUrl(REPORT, await samples(b.page), istToday())}`;
  });
  afterAll(async () => b?.close());

  /** col-id of the headers in the grid's left-pinned, centre and right-pinned parts. */
  const headers = async (): Promise<{ left: string[]; center: string[]; right: string[] }> => {
    const ids = (part: string) => b.page.locator(`.report-results .ag-header ${part} .ag-header-cell`).evaluateAll((els) => els.map((e) => e.getAttribute('col-id') ?? ''));
    return { left: await ids('.ag-grid-pinned-left-cells'), center: await ids('.ag-grid-scrolling-cells'), right: await ids('.ag-grid-pinned-right-cells') };
  };

  it('sorts, hides and pins through the chooser, keeps that over a reload and restores the default', async () => {
    const { page } = b;
    await page.goto(url);
    expect((await outcome(page, b)).rows).toBeGreaterThan(0);
    const before = await headers();
    expect(before.right).toEqual([]);
    const [hidden, pinned] = before.center.slice(-2);
    if (!hidden || !pinned) throw new Error(`${REPORT} shows fewer than two unpinned columns: ${JSON.stringify(before)}`);

    const sortable = page.locator('.report-results .ag-header-cell.ag-header-cell-sortable').first();
    await sortable.click();
    await expect.poll(() => sortable.getAttribute('aria-sort')).toMatch(/ascending|descending/);

    await page.getByRole('button', { name: 'Columns' }).click();
    const chooser = page.locator('.report-column-chooser');
    const row = (field: string) => chooser.locator('li').filter({ has: page.locator(`input[id$="-${field}"]`) });
    await row(hidden).locator('.p-checkbox').click();
    await row(pinned).locator('.p-dropdown').click();
    await page.getByRole('option', { name: 'Pin right' }).click();
    await expect.poll(async () => (await headers()).right).toEqual([pinned]);
    expect((await headers()).center).not.toContain(hidden);

    await page.reload();
    await outcome(page, b);
    await expect.poll(async () => (await headers()).right).toEqual([pinned]);
    const after = await headers();
    expect([...after.left, ...after.center, ...after.right]).not.toContain(hidden);

    await page.getByRole('button', { name: 'Columns' }).click();
    await page.getByRole('button', { name: 'Restore default columns' }).click();
    await expect.poll(headers).toEqual(before);
    expect(b.errors).toEqual([]);
  });

  it('is a card list on a phone, with no grid code loaded', async () => {
    const phone = await launchBrowser({ width: 390, height: 844 });
    try {
      await signIn(phone.page, inject('baseUrl'), 'HHTSU');
      const scripts: string[] = [];
      phone.page.on('request', (r) => {
        if (r.resourceType() === 'script') scripts.push(new URL(r.url()).pathname);
      });
      await phone.page.goto(url);
      expect((await outcome(phone.page, phone)).rows).toBeGreaterThan(0);
      expect(await phone.page.locator('.report-results .report-card-row').count()).toBeGreaterThan(0);
      expect(await phone.page.locator('.report-results .ag-root-wrapper').count()).toBe(0);
      expect(scripts.filter((s) => /\/assets\/ag-(grid|stack)/.test(s))).toEqual([]);
      expect(phone.errors).toEqual([]);
    } finally {
      await phone.close();
    }
  });
});
