/**
 * Every report of the side menu, opened from the menu in a real browser against the real seeded server, as an
 * all-India user (HHTSU) and a division user (HHTDIV): it runs with a known-good filter and shows rows or the
 * empty-state text, never an error, and nothing is logged to the console. The reports delivered with the engine
 * are also sorted, exported to CSV (row count = total) and shared by URL into a new page.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { launchBrowser, type TestBrowser } from '../support/browser';
import { signIn } from '../support/login';
import { MENU_PAGES, menuItems, parseMenuDocument } from '../../src/shared/menu';
import { resolveDefaults } from '../../src/shared/definitions/filter-widgets';
import { STORAGE_KEYS, XSRF_COOKIE } from '../../src/shared/auth-contract';

const menu = parseMenuDocument(JSON.parse(readFileSync('menu.json', 'utf8')));
if (!menu) throw new Error('menu.json does not parse');
const reportIds = menuItems(menu)
  .map(({ item }) => item.path)
  .filter((p) => !MENU_PAGES.includes(p));
const ENGINE_REPORTS = ['All_Passenger_Report', 'vacant_berths', 'Occupancy', 'eft_report', 'Train_Manned_with_HHT', 'TTE_TS', 'trainDetails', 'tripidsearch'];

interface Definition {
  filter: { schema: { properties: Record<string, unknown>; required?: string[] }; defaults?: Record<string, unknown> };
}
const definition = (id: string): Definition => JSON.parse(readFileSync(`reports/${id}.json`, 'utf8')) as Definition;
const istToday = (): string => new Date(Date.now() + 330 * 60_000).toISOString().slice(0, 10);

/** POSTs to the API as the page's signed-in user (bearer token and XSRF header, as the app's client does). */
async function apiPost(page: Page, endpoint: string, body: object): Promise<unknown> {
  const token = await page.evaluate((k) => sessionStorage.getItem(k), STORAGE_KEYS.accessToken);
  const xsrf = (await page.context().cookies()).find((c) => c.name === XSRF_COOKIE)?.value ?? '';
  const res = await page.request.post(`${inject('baseUrl')}/api/${endpoint}`, {
    headers: { authorization: `Bearer ${token}`, 'x-xsrf-token': xsrf },
    data: body,
  });
  if (!res.ok()) throw new Error(`${endpoint}: ${res.status()} ${await res.text()}`);
  return res.json();
}

async function apiRows(page: Page, endpoint: string, body: object): Promise<Record<string, unknown>[]> {
  return ((await apiPost(page, endpoint, body)) as { rows: Record<string, unknown>[] }).rows;
}

/** Known-good values from the seeded data the user can see: a train running today, an EFT, its trip id. */
async function samples(page: Page): Promise<Record<string, string>> {
  const today = istToday();
  const runs = await apiRows(page, 'trainMannedWithHht', {});
  const train = String(runs[0]?.train_no ?? '');
  const efts = await apiRows(page, 'getEftReports', {});
  const eft = efts[0] ?? {};
  const stops = train ? await apiRows(page, 'trainSchedule', { trainNo: train }) : [];
  return {
    trainNo: train,
    startDate: today,
    srcDate: today,
    id: String(eft.trip_id ?? ''),
    eftNo: String(eft.eft_no ?? ''),
    origin: String(stops[0]?.station_code ?? ''),
    destination: String(stops[stops.length - 1]?.station_code ?? ''),
  };
}

function reportUrl(id: string, s: Record<string, string>, eftDate: string): string {
  const def = definition(id);
  const values: Record<string, unknown> = resolveDefaults(def.filter.defaults, istToday());
  for (const name of Object.keys(def.filter.schema.properties)) {
    const required = def.filter.schema.required?.includes(name) ?? false;
    if ((required || name === 'trainNo') && s[name]) values[name] = s[name];
  }
  if ('eftNo' in def.filter.schema.properties) values.srcDate = eftDate;
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(values)) if (v !== undefined && v !== '') params.set(k, String(v));
  params.set('_run', '1');
  return `/layout/uikit/${id}?${params.toString()}`;
}

/**
 * Waits for the result: rows in the grid or the empty-state text; an error state fails with its message. Gives up
 * after 60 s saying what the page shows instead and which API calls failed, so a CI log explains the failure.
 */
async function outcome(page: Page, b: TestBrowser): Promise<{ rows: number; text: string }> {
  const results = page.locator('.report-results');
  const settled = async (): Promise<boolean> =>
    (await results.locator('.ag-row').count()) > 0 || (await results.getByText('No records found').count()) > 0 || (await results.locator('.report-error, [role="alert"]').count()) > 0;
  const deadline = Date.now() + 60_000;
  while (!(await settled())) {
    if (Date.now() > deadline) {
      const shows = (await page.locator('body').innerText().catch(() => '')).replace(/\s+/g, ' ').slice(0, 300);
      throw new Error(`no result after 60 s at ${page.url()}; the page shows: ${shows}; failed API calls: ${b.apiFailures.join(', ') || 'none'}`);
    }
    await page.waitForTimeout(200);
  }
  const error = results.locator('.report-error, [role="alert"]');
  if ((await error.count()) > 0) throw new Error(`error state: ${await error.first().innerText()}`);
  return { rows: await results.locator('.ag-row').count(), text: (await results.locator('.report-count').count()) > 0 ? await results.locator('.report-count').innerText() : 'No records found' };
}

describe.each(['HHTSU', 'HHTDIV'])('every menu report as %s', (userId) => {
  let b: TestBrowser;
  let s: Record<string, string>;
  let eftDate = istToday();
  const seen: Record<string, string> = {};

  beforeAll(async () => {
    b = await launchBrowser({ width: 1440, height: 900 });
    await signIn(b.page, inject('baseUrl'), userId);
    s = await samples(b.page);
    const efts = await apiRows(b.page, 'getEftReports', {});
    eftDate = String(efts[0]?.issued_at ?? istToday()).slice(0, 10);
  });
  afterAll(async () => {
    console.log(`${userId}: ${JSON.stringify(seen)}`);
    await b?.close();
  });

  it('finds known-good values in the seeded data of its scope', () => {
    expect(s.trainNo).toMatch(/^\d{5}$/);
    expect(s.eftNo).not.toBe('');
  });

  it.each(reportIds)('%s runs from the menu with rows or the empty state', async (id) => {
    const { page } = b;
    // Open from the side menu (the menu entry must exist and lead to the report) ...
    await page.goto(`${inject('baseUrl')}/layout/dashboard`);
    const link = page.locator(`.layout-menu a[href="/layout/uikit/${id}"]`);
    await link.first().click();
    await page.waitForURL(new RegExp(`/layout/uikit/${id}`));
    await page.locator('.report-card').first().waitFor();
    // ... then run it with the known-good filter, as a shared link would.
    await page.goto(`${inject('baseUrl')}${reportUrl(id, s, eftDate)}`);
    const r = await outcome(page, b);
    seen[id] = r.rows > 0 ? r.text : 'empty';
    expect(b.errors).toEqual([]);
  });
});

describe('the reports delivered with the engine: sort, CSV export, shared URL', () => {
  let b: TestBrowser;
  let colleague: TestBrowser;
  let s: Record<string, string>;
  beforeAll(async () => {
    b = await launchBrowser({ width: 1440, height: 900 });
    await signIn(b.page, inject('baseUrl'), 'HHTSU');
    s = await samples(b.page);
    // The link is shared with another all-India officer (HQ office, RO) in their own browser and session.
    colleague = await launchBrowser({ width: 1440, height: 900 });
    await signIn(colleague.page, inject('baseUrl'), 'HHTRO');
  });
  afterAll(async () => {
    await b?.close();
    await colleague?.close();
  });

  it.each(ENGINE_REPORTS)('%s', async (id) => {
    const { page } = b;
    const url = reportUrl(id, s, istToday());
    await page.goto(`${inject('baseUrl')}${url}`);
    const first = await outcome(page, b);
    if (first.rows === 0) return; // nothing to sort or export for this filter today

    // Sort by the first sortable column header: the grid reports the sort state.
    const header = page.locator('.ag-header-cell.ag-header-cell-sortable').first();
    await header.click();
    await expect.poll(() => header.getAttribute('aria-sort')).toMatch(/ascending|descending/);

    // Export CSV: the file holds one line per row of the report's total.
    const total = Number((first.text.match(/of ([\d,]+)/)?.[1] ?? first.text.match(/^([\d,]+) record/)?.[1] ?? '0').replace(/,/g, ''));
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: /^CSV/ }).click();
    const file = await (await download).path();
    const lines = readFileSync(file, 'utf8').trim().split('\r\n');
    expect(lines.length - 1).toBe(total);

    // The URL opened by the colleague runs the same filter and gives the same result, in the same order.
    const shared = page.url();
    await colleague.page.goto(shared);
    const again = await outcome(colleague.page, colleague);
    expect(again.text).toBe((await outcome(page, b)).text);
    const sortedBy = await header.getAttribute('col-id');
    const theirs = colleague.page.locator(`.ag-header-cell[col-id="${sortedBy}"]`);
    await expect.poll(() => theirs.getAttribute('aria-sort')).toBe(await header.getAttribute('aria-sort'));
    // The first row's cells (pinned and scrolling parts of the grid).
    const firstRow = (p: Page) => p.locator('.report-results .ag-row[row-index="0"]').allInnerTexts();
    expect(await firstRow(colleague.page)).toEqual(await firstRow(page));
    expect(b.errors).toEqual([]);
    expect(colleague.errors).toEqual([]);
  });
});

describe('coach composition on the report pages that declare it', () => {
  let b: TestBrowser;
  let s: Record<string, string>;
  beforeAll(async () => {
    b = await launchBrowser({ width: 1440, height: 900 });
    await signIn(b.page, inject('baseUrl'), 'HHTDIV');
    s = await samples(b.page);
  });
  afterAll(async () => {
    await b?.close();
  });

  it('vacant_berths shows the run as charted; a click on a coach runs the report for that coach only', async () => {
    const { page } = b;
    // apiPost fails on any status but 2xx.
    const consist = (await apiPost(page, 'coachConsist', { trainNo: s.trainNo, startDate: s.startDate })) as {
      coaches: { coachId: string; class: string; capacity: number }[];
    };
    expect(consist.coaches.length).toBeGreaterThan(0);

    await page.goto(`${inject('baseUrl')}${reportUrl('vacant_berths', s, istToday())}`);
    const section = page.getByRole('region', { name: /Coach composition/ });
    const coaches = section.getByRole('button');
    await expect.poll(() => coaches.count()).toBe(consist.coaches.length);
    expect(await coaches.evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')))).toEqual(
      consist.coaches.map((c) => `${c.coachId} ${c.class}, ${c.capacity.toLocaleString('en-IN')} berths`),
    );
    await outcome(page, b);

    // The coach with the most vacant berths, so the filtered result has rows to check.
    const vacant = await apiRows(page, 'getVacantBerths', { trainNo: s.trainNo, startDate: s.startDate });
    const counts = new Map<string, number>();
    for (const r of vacant) counts.set(String(r.coach), (counts.get(String(r.coach)) ?? 0) + 1);
    const coach = [...counts.entries()].sort((a, b2) => b2[1] - a[1])[0]?.[0] ?? consist.coaches[0]?.coachId ?? '';
    await section.getByRole('button', { name: new RegExp(`^${coach} `) }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('coach')).toBe(coach);
    await expect.poll(() => section.getByRole('button', { name: new RegExp(`^${coach} `) }).getAttribute('aria-pressed')).toBe('true');
    const expected = counts.get(coach) ?? 0;
    const results = page.locator('.report-results');
    if (expected === 0) {
      await results.getByText('No records found').waitFor();
    } else {
      await expect.poll(() => results.locator('.report-count').innerText()).toBe(`${expected.toLocaleString('en-IN')} ${expected === 1 ? 'record' : 'records'}`);
      const shown = await results.locator('.ag-row [col-id="coach"]').allInnerTexts();
      expect(new Set(shown.map((t) => t.trim()))).toEqual(new Set([coach]));
    }
    expect(b.errors).toEqual([]);
  });
});
