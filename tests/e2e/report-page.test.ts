/**
 * The generic report page in a real browser, signed in to the real server (real headers, CSP, session), with
 * one made-up report's calls answered by the test (route interception) so that every page behaviour can be
 * pinned down exactly. The real reports on seeded data are exercised by report-catalogue.test.ts.
 */
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import type { Page, Route } from 'playwright-core';
import { launchBrowser, type TestBrowser } from '../support/browser';
import { signIn } from '../support/login';
import { filterValidatorModule, filterValidatorUrl } from '../../src/server/reports/filter-validator-code';

const definition = {
  id: 'fixture_report',
  title: 'Fixture Report',
  description: 'A made-up report for the browser test.',
  endpoint: 'getFixture',
  filter: {
    schema: {
      type: 'object',
      required: ['trainNo', 'startDate'],
      properties: {
        trainNo: { title: 'Train No', type: 'string', pattern: '^[0-9]{5}$' },
        startDate: { title: 'Run Date', type: 'string', format: 'date' },
        zone: { title: 'Zone', type: 'string' },
        division: { title: 'Division', type: 'string' },
      },
    },
    uiSchema: { trainNo: { 'ui:widget': 'train' }, startDate: { 'ui:widget': 'date' }, zone: { 'ui:widget': 'zone' }, division: { 'ui:widget': 'division' } },
    defaults: { startDate: '$today' },
  },
  columns: [
    { field: 'coach', headerName: 'Coach', pinned: 'left', link: { report: 'other_report', params: { trainNo: '{train}', coach: '{coach}' } } },
    { field: 'berth', headerName: 'Berth', type: 'number' },
    { field: 'state', headerName: 'State', type: 'status' },
    { field: 'fare', headerName: 'Fare', type: 'currency' },
  ],
  export: { formats: ['csv', 'pdf'], fileName: 'fixture-{trainNo}' },
  paging: { mode: 'client', pageSize: 50 },
  tabs: [{ id: 'paged', label: 'Paged', endpoint: 'getFixturePaged', paging: { mode: 'server', pageSize: 20 } }],
  exportCaps: { csv: 200000, xlsx: 100000, pdf: 5000 },
  // The made-up schema's compiled validator, served below as the server would serve a real one.
  filterValidator: '',
};
definition.filterValidator = filterValidatorUrl(definition.filter.schema);
const rows = Array.from({ length: 45 }, (_, i) => ({ coach: `S${(i % 9) + 1}`, berth: i + 1, state: i % 2 ? 'Released' : 'Pending', fare: 100 * i, train: '12951' }));

let b: TestBrowser;
const calls: string[] = [];

async function fakeApi(route: Route): Promise<void> {
  const req = route.request();
  const url = new URL(req.url());
  // The side menu polls for changes every few seconds; those are not the page's calls.
  if (url.pathname !== '/api/meta/menu') calls.push(`${req.method()} ${url.pathname}${url.search} ${req.postData() ?? ''}`);
  switch (url.pathname) {
    case '/api/meta/reports/fixture_report':
      return route.fulfill({ json: definition });
    case definition.filterValidator:
      return route.fulfill({ body: filterValidatorModule(definition.filter.schema), headers: { 'content-type': 'text/javascript; charset=utf-8' } });
    case '/api/dropDownRailwayCode':
      return route.fulfill({ json: [{ id: { rly_Code: 'CR', div_Code: 'BB', off_Code: 'CSMT' } }, { id: { rly_Code: 'WR', div_Code: 'BCT', off_Code: 'BCT' } }] });
    case '/api/getFixture':
      return route.fulfill({ json: { rows, total: rows.length, page: 1, rowsPerPage: rows.length } });
    case '/api/getFixturePaged': {
      const page = Number(url.searchParams.get('page') ?? 1);
      const n = Number(url.searchParams.get('rowsPerPage') ?? 20);
      const sorted = url.searchParams.get('sortDir') === 'desc' ? [...rows].reverse() : rows;
      return route.fulfill({ json: { rows: sorted.slice((page - 1) * n, page * n), total: rows.length, page, rowsPerPage: n } });
    }
    case '/api/export/fixture_report':
      return route.fulfill({ body: 'coach\nS1\n', headers: { 'content-type': 'text/csv', 'content-disposition': 'attachment; filename="fixture-12951.csv"' } });
    default:
      return route.continue(); // everything else (session, menu, unknown reports) goes to the real server
  }
}

/** The train box suggests from the user's train list; close the suggestions (Escape) as a user would. */
async function closeSuggestions(page: Page): Promise<void> {
  const panel = page.locator('.p-autocomplete-panel');
  await panel.waitFor({ state: 'visible', timeout: 5_000 }).catch(() => undefined);
  await page.keyboard.press('Escape');
  await panel.waitFor({ state: 'hidden' });
}

async function open(page: Page, path: string): Promise<void> {
  await page.route('**/api/**', fakeApi);
  await page.goto(`${inject('baseUrl')}${path}`);
}

beforeAll(async () => {
  b = await launchBrowser({ width: 1366, height: 900 });
  await signIn(b.page, inject('baseUrl'), 'HHTSU');
});
afterAll(async () => {
  await b?.close();
});

it('runs a report from its definition, keeps the filter in a shareable URL, pages and sorts on the server, exports and prints', async () => {
  const { page } = b;
  await open(page, '/layout/uikit/fixture_report');
  await page.getByRole('heading', { name: 'Fixture Report' }).waitFor();

  // Client-side validation works under the server's CSP (no eval) and speaks plainly.
  await page.getByLabel('Train No').fill('12');
  await closeSuggestions(page);
  await page.getByRole('button', { name: /^Run/ }).click();
  await page.getByText('Train No is not valid').waitFor();
  expect(calls.filter((c) => c.includes('getFixture'))).toEqual([]);

  await page.getByLabel('Train No').fill('12951');
  await closeSuggestions(page);
  await page.locator('.p-dropdown:has(#root_zone)').click();
  await page.getByRole('option', { name: 'CR' }).click();
  await page.getByRole('button', { name: /^Run/ }).click();
  await page.getByText('45 records').waitFor();
  const shared = page.url();
  expect(new URL(shared).searchParams.get('trainNo')).toBe('12951');
  expect(new URL(shared).searchParams.get('zone')).toBe('CR');
  await page.getByText('₹ 100.00', { exact: true }).waitFor();
  // Drill-down: a router link filled from the row.
  expect(await page.getByRole('link', { name: 'S2' }).first().getAttribute('href')).toBe('/layout/uikit/other_report?trainNo=12951&coach=S2&_run=1');

  // Server paging and sorting go through the URL (back/forward work).
  await page.getByRole('menuitem', { name: 'Paged' }).or(page.getByText('Paged', { exact: true })).first().click();
  await page.getByText('45 records · showing 1–20').waitFor();
  await page.getByRole('columnheader', { name: 'Berth', exact: true }).click();
  await page.getByRole('columnheader', { name: 'Berth', exact: true }).click();
  await expect.poll(() => new URL(page.url()).searchParams.get('_dir')).toBe('desc');
  await page.getByRole('button', { name: /^(Page )?2$/ }).click();
  await page.getByText('45 records · showing 21–40').waitFor();
  expect(calls.at(-1)).toContain('page=2&rowsPerPage=20&sortBy=berth&sortDir=desc');
  await page.goBack();
  await page.getByText('45 records · showing 1–20').waitFor();

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'CSV' }).click();
  expect((await download).suggestedFilename()).toBe('fixture-12951.csv');
  expect(calls.find((c) => c.startsWith('POST /api/export/'))).toContain('format=csv&tab=paged&columns=coach%2Cberth%2Cstate%2Cfare');

  await page.evaluate(() => {
    window.print = () => {
      document.body.dataset.printed = 'yes';
    };
  });
  await page.getByRole('button', { name: 'Print' }).click();
  await page.waitForFunction(() => document.body.dataset.printed === 'yes');
  expect(await page.locator('.report-print-root tbody tr').count()).toBe(45);

  expect(b.errors).toEqual([]);

  // The shared URL gives the same result in a fresh page.
  const other = await b.context.newPage();
  await signIn(other, inject('baseUrl'), 'HHTSU'); // a new tab has its own session storage
  await open(other, new URL(shared).pathname + new URL(shared).search);
  await other.getByText('45 records').waitFor();
  expect(await other.getByLabel('Train No').inputValue()).toBe('12951');
  await other.close();

  // Signing in again ends the first tab's session; its menu, which polls for changes, is then refused (401).
  expect(b.errors.filter((e) => !e.includes('status of 401'))).toEqual([]);
});

it('shows a not-found message for an unknown report id', async () => {
  await signIn(b.page, inject('baseUrl'), 'HHTSU'); // the first test's second tab superseded this session
  await open(b.page, '/layout/uikit/no_such_report');
  await b.page.getByRole('heading', { name: 'Report not found' }).waitFor();
  expect(await b.page.getByRole('link', { name: 'Back to the dashboard' }).getAttribute('href')).toBe('/layout/dashboard');
});
