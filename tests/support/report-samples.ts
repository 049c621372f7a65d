/**
 * Known-good filters for the menu reports in a real browser against the seeded server: values the signed-in user can
 * see (a train running today, an EFT, its trip id), the URL that runs a report with them, and the wait for its result.
 */
import { readFileSync } from 'node:fs';
import { inject } from 'vitest';
import type { Page } from 'playwright-core';
import type { TestBrowser } from './browser';
import { resolveDefaults } from '../../src/shared/definitions/filter-widgets';
import { STORAGE_KEYS, XSRF_COOKIE } from '../../src/shared/auth-contract';

export interface Definition {
  filter: { schema: { properties: Record<string, unknown>; required?: string[] }; defaults?: Record<string, unknown> };
}
export const definition = (id: string): Definition => JSON.parse(readFileSync(`reports/${id}.json`, 'utf8')) as Definition;
export const istToday = (): string => new Date(Date.now() + 330 * 60_000).toISOString().slice(0, 10);

/** POSTs to the API as the page's signed-in user (bearer token and XSRF header, as the app's client does). */
export async function apiPost(page: Page, endpoint: string, body: object): Promise<unknown> {
  const token = await page.evaluate((k) => sessionStorage.getItem(k), STORAGE_KEYS.accessToken);
  const xsrf = (await page.context().cookies()).find((c) => c.name === XSRF_COOKIE)?.value ?? '';
  const res = await page.request.post(`${inject('baseUrl')}/api/${endpoint}`, {
    headers: { authorization: `Bearer ${token}`, 'x-xsrf-token': xsrf },
    data: body,
  });
  if (!res.ok()) throw new Error(`${endpoint}: ${res.status()} ${await res.text()}`);
  return res.json();
}

export async function apiRows(page: Page, endpoint: string, body: object): Promise<Record<string, unknown>[]> {
  return ((await apiPost(page, endpoint, body)) as { rows: Record<string, unknown>[] }).rows;
}

/** Known-good values from the seeded data the user can see: a train running today, an EFT, its trip id. */
export async function samples(page: Page): Promise<Record<string, string>> {
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

export function reportUrl(id: string, s: Record<string, string>, eftDate: string): string {
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
 * Waits for the result: rows in the grid (or cards, on a phone) or the empty state; an error state fails with its message. Gives up
 * after 60 s saying what the page shows instead and which API calls failed, so a CI log explains the failure.
 */
export async function outcome(page: Page, b: TestBrowser): Promise<{ rows: number; text: string }> {
  const results = page.locator('.report-results');
  const settled = async (): Promise<boolean> =>
    (await results.locator('.ag-row, .report-card-row').count()) > 0 || (await results.locator('.report-empty').count()) > 0 || (await results.locator('.report-error, [role="alert"]').count()) > 0;
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
  return { rows: await results.locator('.ag-row, .report-card-row').count(), text: (await results.locator('.report-count').count()) > 0 ? await results.locator('.report-count').innerText() : 'No records found' };
}

