/**
 * The audit trail in a real browser on the real server: a division officer runs a report; SU opens the Audit Trail
 * report from the menu's catalogue, filters by that officer and sees the run, newest first, with its filters and
 * row count. Screenshots at desktop and phone sizes.
 */
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { mkdirSync } from 'node:fs';
import { launchBrowser, type TestBrowser } from '../support/browser';
import { signIn } from '../support/login';

let officer: TestBrowser;
let su: TestBrowser;
const SHOTS = '.tmp/screenshots';

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  officer = await launchBrowser({ width: 1366, height: 768 });
  su = await launchBrowser({ width: 1366, height: 768 });
  await signIn(officer.page, inject('baseUrl'), 'HHTDIV');
  await signIn(su.page, inject('baseUrl'), 'HHTSU');
});
afterAll(async () => {
  await officer?.close();
  await su?.close();
});

it('shows SU the last report run of the officer it filters by', async () => {
  const base = inject('baseUrl');
  // The officer runs a report.
  const { page } = officer;
  await page.goto(`${base}/layout/uikit/Train_Manned_with_HHT`);
  await page.getByRole('button', { name: /^Run/ }).click();
  const count = page.locator('.report-count');
  await count.waitFor();
  const officerRows = Number((await count.innerText()).replace(/\D/g, ''));

  // SU filters the trail by that officer. Entries are written within a second: run again until it shows.
  const p = su.page;
  await p.goto(`${base}/layout/uikit/audit_trail`);
  await p.getByRole('heading', { name: 'Audit Trail' }).waitFor();
  await p.getByLabel('User ID').fill('HHTDIV');
  await p.locator('.p-dropdown:has(#root_action)').click();
  await p.getByRole('option', { name: 'Report run' }).click();
  const results = p.locator('.report-results');
  await expect
    .poll(async () => {
      await p.getByRole('button', { name: /^Run/ }).click();
      await p.locator('.report-count').waitFor();
      return (await results.locator('.ag-row [col-id="report"]').allInnerTexts()).filter((t) => t === 'Train_Manned_with_HHT').length;
    }, { timeout: 15_000, interval: 1_000 })
    .toBeGreaterThan(0);
  expect(new URL(p.url()).searchParams.get('userId')).toBe('HHTDIV');
  // Newest first: the first row is the officer's last run, with the row count the officer saw.
  // The pinned Time column and the others are two .ag-row elements of one grid row.
  const text = (await results.locator('.ag-row[row-index="0"]').allInnerTexts()).join(' ');
  expect(text).toContain('Train_Manned_with_HHT');
  expect(text).toContain('HHTDIV');
  expect(text).toContain('Report run');
  expect(text).toContain(officerRows.toLocaleString('en-IN'));
  await p.screenshot({ path: `${SHOTS}/audit-trail-1366x768.png` });
  await p.setViewportSize({ width: 390, height: 844 });
  await p.reload();
  await p.getByRole('heading', { name: 'Audit Trail' }).waitFor();
  await p.screenshot({ path: `${SHOTS}/audit-trail-390x844.png`, fullPage: false });
});
