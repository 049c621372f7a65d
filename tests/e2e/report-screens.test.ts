/**
 * Every menu report that has rows, on the screens officers use: an office screen (1366x768, the grid) and a phone
 * (390x844, the card list), in English and in Hindi, as an all-India user against the real seeded server. On each:
 * every priority-1 value is seen without a sideways scroll, every filter the request carried is named on the screen,
 * axe finds nothing serious or critical, and in Hindi no English is left but data values and codes.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { launchBrowser, type TestBrowser } from '../support/browser';
import { signIn } from '../support/login';
import { seriousViolations } from '../support/axe';
import { englishBesideData } from '../support/i18n';
import { apiRows, istToday, outcome, reportUrl, samples } from '../support/report-samples';
import { MENU_PAGES, menuItems, parseMenuDocument } from '../../src/shared/menu';

const menu = parseMenuDocument(JSON.parse(readFileSync('menu.json', 'utf8')));
if (!menu) throw new Error('menu.json does not parse');
const reportIds = menuItems(menu)
  .map(({ item }) => item.path)
  .filter((p) => !MENU_PAGES.includes(p));

interface Column {
  field: string;
  priority?: number;
  hidden?: boolean;
}
interface Def {
  endpoint: string;
  columns: Column[];
}
const def = (id: string): Def => JSON.parse(readFileSync(`reports/${id}.json`, 'utf8')) as Def;
/** The fields of the main view's priority-1 columns, in the order the page shows them. */
const firstFields = (id: string): string[] => def(id).columns.filter((c) => c.priority === 1 && c.hidden !== true).map((c) => c.field);

/**
 * Latin words a Hindi report page keeps: the language switch's own "Language" (so an English reader finds it), and
 * stored codes shown as they are (the train strip's STA/STD/ETA/ETD, TWR, NT, UPI, POS, SLA, AC, GC, the turned-up mark O,
 * and the filter lists' codes that have no words yet).
 */
const KEPT_ON_REPORTS = ['Language', 'STA', 'STD', 'ETA', 'ETD', 'TWR', 'NT', 'UPI', 'POS', 'SLA', 'AC', 'O', 'GC', 'BCT', 'UPGRADE', 'PENDING'];

const OFFICE = { width: 1366, height: 768 };
const PHONE = { width: 390, height: 844 };

/** Problems with the priority-1 columns of the grid: missing, or outside the grid's box (a sideways scroll). */
async function gridProblems(page: Page, fields: string[]): Promise<string[]> {
  return page.evaluate((fs) => {
    const problems: string[] = [];
    const box = document.querySelector('.report-results .ag-root-wrapper')?.getBoundingClientRect();
    if (!box) return ['no grid'];
    for (const f of fs) {
      const cell = document.querySelector(`.report-results .ag-header-cell[col-id="${f}"]`)?.getBoundingClientRect();
      if (!cell) problems.push(`${f}: not shown`);
      else if (cell.left < box.left - 1 || cell.right > box.right + 1) problems.push(`${f}: at ${Math.round(cell.left)}-${Math.round(cell.right)}, grid ${Math.round(box.left)}-${Math.round(box.right)}`);
    }
    if (document.documentElement.scrollWidth > window.innerWidth) problems.push(`page ${document.documentElement.scrollWidth} px wide`);
    return problems;
  }, fields);
}

/** Problems with the first card: not one readable value per priority-1 column, or a value off the screen. */
async function cardProblems(page: Page, count: number): Promise<string[]> {
  return page.evaluate((n) => {
    const card = document.querySelector('.report-results .report-card-row');
    if (!card) return ['no card'];
    const values = [...card.querySelectorAll(':scope > .report-card-fields > .report-card-field > dd')];
    const problems: string[] = values.length === n ? [] : [`${values.length} values on the card, ${n} priority-1 columns`];
    values.forEach((dd, i) => {
      const r = dd.getBoundingClientRect();
      if (r.width === 0 || r.left < 0 || r.right > window.innerWidth + 1) problems.push(`value ${i + 1} at ${Math.round(r.left)}-${Math.round(r.right)}`);
    });
    if (document.documentElement.scrollWidth > window.innerWidth) problems.push(`page ${document.documentElement.scrollWidth} px wide`);
    return problems;
  }, count);
}

/** The filter fields the report request carried that the page does not name (none, or a filter is hidden). */
async function unnamedFilters(page: Page, body: Record<string, unknown>): Promise<string[]> {
  const sent = Object.entries(body)
    .filter(([, v]) => v !== null && v !== undefined && v !== '' && !(Array.isArray(v) && v.length === 0))
    .map(([k]) => k);
  const named = await page.locator('.report-applied-line [data-filter-field]').evaluateAll((els) =>
    els.filter((e) => (e as HTMLElement).offsetParent !== null).map((e) => e.getAttribute('data-filter-field') ?? ''),
  );
  return sent.filter((k) => !named.includes(k));
}

describe.each(['en', 'hi'] as const)('menu reports with results at 1366x768 and 390x844 (%s)', (lang) => {
  let b: TestBrowser;
  let s: Record<string, string>;
  let eftDate = istToday();
  const checked: string[] = [];

  beforeAll(async () => {
    b = await launchBrowser(OFFICE);
    await signIn(b.page, inject('baseUrl'), 'HHTSU');
    s = await samples(b.page);
    const efts = await apiRows(b.page, 'getEftReports', {});
    eftDate = String(efts[0]?.issued_at ?? istToday()).slice(0, 10);
    if (lang === 'hi') {
      await b.page.locator('button[data-language="hi"]').first().click();
      await b.page.waitForFunction(() => document.documentElement.lang === 'hi');
    }
  });
  afterAll(async () => {
    console.log(`screens (${lang}): ${checked.length} reports with results checked: ${checked.join(', ')}`);
    await b?.close();
  });

  it.each(reportIds)('%s', async (id) => {
    const { page } = b;
    const { endpoint } = def(id);
    const fields = firstFields(id);
    await page.setViewportSize(OFFICE);
    const sent = page.waitForRequest((r) => new URL(r.url()).pathname === `/api/${endpoint}` && !r.url().includes('nearest='));
    await page.goto(`${inject('baseUrl')}${reportUrl(id, s, eftDate)}`);
    const body = ((await sent).postDataJSON() ?? {}) as Record<string, unknown>;
    const result = await outcome(page, b);
    if (result.rows === 0) return; // an empty result has no columns to check (the empty state is tested elsewhere)
    checked.push(id);
    expect(fields.length).toBeGreaterThan(0);

    // Office screen: the grid, its priority-1 columns inside its box once fitted.
    await page.locator('.report-results .ag-row').first().waitFor();
    await expect.poll(() => gridProblems(page, fields)).toEqual([]);
    expect(await unnamedFilters(page, body)).toEqual([]);
    expect(await seriousViolations(page)).toEqual([]);
    if (lang === 'hi') expect(await englishBesideData(page, KEPT_ON_REPORTS)).toEqual([]);

    // Phone: the card list, the filter folded into one line.
    await page.setViewportSize(PHONE);
    await page.locator('.report-results .report-card-row').first().waitFor();
    await page.locator('.report-filter-folded').waitFor();
    await expect.poll(() => cardProblems(page, fields.length)).toEqual([]);
    expect(await unnamedFilters(page, body)).toEqual([]);
    expect(await seriousViolations(page)).toEqual([]);
    if (lang === 'hi') expect(await englishBesideData(page, KEPT_ON_REPORTS)).toEqual([]);
    expect(b.errors).toEqual([]);
  });

  it('had rows to check in most menu reports', () => {
    expect(checked.length).toBeGreaterThanOrEqual(25);
  });
});
