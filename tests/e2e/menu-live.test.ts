/**
 * An open browser's side menu follows menu.json and the report definitions without a reload:
 * the server watches its root folder, the menu polls with an ETag.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { launchBrowser, type TestBrowser } from '../support/browser';
import { signIn } from '../support/login';
import { SHELL_USER_ID } from '../support/shell';
import { dataDirWithDemoUsers, startServer, type RunningServer } from '../support/server';

const repo = resolve('.');
let root: string;
let server: RunningServer;
let b: TestBrowser | undefined;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'hht-menu-live-'));
  for (const f of ['reports', 'schemas', 'themes', 'menu.json', 'dashboard.json']) cpSync(join(repo, f), join(root, f), { recursive: true });
  mkdirSync(join(root, 'docs'));
  cpSync(join(repo, 'docs/release-notes.json'), join(root, 'docs/release-notes.json'));
  server = await startServer({
    HHT_ROOT_DIR: root,
    HHT_SEED: 'none',
    HHT_DATA_DIR: await dataDirWithDemoUsers(),
    HHT_CLIENT_DIR: join(repo, 'dist/client'),
  });
}, 240_000);

afterAll(async () => {
  await b?.close();
  await server?.stop();
  rmSync(root, { recursive: true, force: true });
});

/** How editors save: a temp file renamed over the original. */
function atomicSave(file: string, text: string): void {
  writeFileSync(`${file}.swp`, text);
  renameSync(`${file}.swp`, file);
}

const rootLabels = (t: TestBrowser) =>
  t.page.locator('.layout-menu > li').evaluateAll((els) =>
    els.map((e) => (e.querySelector(':scope > .layout-menuitem-root-text') ?? e).textContent?.trim() ?? ''),
  );

it('shows an edited menu.json and a report that broke in the open menu, without a reload', async () => {
  b = await launchBrowser();
  const t = b;
  await signIn(t.page, server.url, SHELL_USER_ID);
  await t.page.locator('.layout-menu').waitFor();
  expect((await rootLabels(t))[1]).toBe('TRAIN CHECKING INFO');
  await expect(t.page.locator('#app-sidebar').getByRole('link', { name: 'Vacant Berths' }).count()).resolves.toBe(1);
  // Any full navigation would reset this marker: the page must not reload.
  await t.page.evaluate(() => ((window as unknown as { hhtMarker: number }).hhtMarker = 42));

  const menu = JSON.parse(readFileSync(join(root, 'menu.json'), 'utf8')) as { entries: { label: string }[] };
  menu.entries[1]!.label = 'TRAIN CHECKING (renamed)';
  atomicSave(join(root, 'menu.json'), JSON.stringify(menu, null, 2));
  await expect.poll(async () => (await rootLabels(t))[1], { timeout: 10_000, interval: 200 }).toBe('TRAIN CHECKING (renamed)');

  // A report definition breaks: its item turns unavailable in the open menu, with the reason.
  atomicSave(join(root, 'reports', 'vacant_berths.json'), '{ "id": "vacant_berths", ');
  const unavailable = t.page.locator('#app-sidebar .layout-menuitem-unavailable', { hasText: 'Vacant Berths' });
  await unavailable.waitFor({ timeout: 10_000 });
  expect(await unavailable.getAttribute('title')).toMatch(/Report definition is broken: invalid JSON/);
  expect(await t.page.locator('#app-sidebar').getByRole('link', { name: 'Vacant Berths' }).count()).toBe(0);

  // Repaired: a link again.
  cpSync(join(repo, 'reports', 'vacant_berths.json'), join(root, 'reports', 'vacant_berths.json'));
  await t.page.locator('#app-sidebar').getByRole('link', { name: 'Vacant Berths' }).waitFor({ timeout: 10_000 });
  expect(await t.page.evaluate(() => (window as unknown as { hhtMarker?: number }).hhtMarker)).toBe(42);
}, 120_000);
