import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, type TestBrowser } from '../support/browser';
import { signIn } from '../support/login';

/** Needs the real login page and the shell (src/client/lib/session.tsx lands with them). */
const shellReady = existsSync('src/client/lib/session.tsx') && existsSync('src/client/lib/api.ts');

describe.skipIf(!shellReady)('dashboard and devices in the browser', () => {
  let b: TestBrowser;
  /** Failed responses and console errors, with the URL they concern. */
  const failed: string[] = [];
  /** The browser's own favicon probe is the shell's business (index.html has no icon yet), not this page's. */
  const ignored = (url: string): boolean => url.endsWith('/favicon.ico');
  beforeAll(async () => {
    b = await launchBrowser({ width: 1400, height: 1000 });
    b.page.on('console', (m) => {
      if (m.type() === 'error' && !ignored(m.location().url)) failed.push(`console error: ${m.text()} at ${m.location().url}`);
    });
    b.page.on('response', (r) => {
      if (r.status() >= 400 && !ignored(r.url())) failed.push(`${r.status()} ${r.request().method()} ${r.url()}`);
    });
  });
  afterAll(async () => {
    await b?.close();
  });

  for (const userId of ['HHTSU', 'HHTDIV']) {
    it(`shows ${userId} the dashboard cards with values and charts, each linking to its report`, async () => {
      const base = inject('baseUrl');
      await signIn(b.page, base, userId);
      await b.page.goto(`${base}/layout/dashboard`);
      const passengers = b.page.getByTestId('card-value-passengers');
      await passengers.waitFor();
      await expect.poll(async () => Number((await passengers.innerText()).replace(/[^\d]/g, ''))).toBeGreaterThan(0);
      for (const id of ['tdrs', 'efts', 'rac-wl', 'released', 'devices', 'trains-manned']) {
        await expect.poll(async () => (await b.page.getByTestId(`card-value-${id}`).innerText()).trim()).toMatch(/\d/);
      }
      for (const id of ['passengers-7-days', 'class-share', 'coach-manning']) await b.page.getByTestId(`card-chart-${id}`).waitFor();
      expect(await b.page.locator('[data-testid^="card-"] [role="alert"]').count()).toBe(0);
      await b.page.getByTestId('card-devices').getByRole('link').click();
      await expect.poll(() => b.page.url()).toMatch(/\/layout\/uikit\/devices$/);
      expect(failed).toEqual([]);
    });
  }

  it('lets HHTDIV find a DLI device, change it, and see the change in the audit trail', async () => {
    const base = inject('baseUrl');
    await signIn(b.page, base, 'HHTDIV');
    await b.page.goto(`${base}/layout/utilities/devices`);
    const first = b.page.locator('.dev-link').first();
    await first.waitFor();
    const deviceId = (await first.innerText()).trim();
    await b.page.getByLabel('Search devices').fill(deviceId);
    await expect.poll(() => b.page.locator('.dev-link').count()).toBe(1);
    await b.page.locator('.dev-link').first().click();
    const dialog = b.page.getByRole('dialog');
    await dialog.getByLabel('Remarks').waitFor();
    const remark = `Browser test ${Date.now()}`;
    await dialog.getByLabel('Remarks').fill(remark);
    await dialog.getByRole('button', { name: 'Save changes' }).click();
    await dialog.getByText(`Device ${deviceId} updated.`).waitFor();
    await dialog.getByRole('tab', { name: /Audit trail/ }).click();
    await dialog.getByText(`Remarks: ${remark}`).waitFor();
    expect(failed).toEqual([]);
  });
  it('lets HHTDIV issue a sync credential shown once, which the sync API accepts until it is revoked', async () => {
    const base = inject('baseUrl');
    await signIn(b.page, base, 'HHTDIV');
    await b.page.goto(`${base}/layout/utilities/devices`);
    await b.page.locator('.dev-link').first().click();
    const dialog = b.page.getByRole('dialog');
    await dialog.getByRole('tab', { name: 'Sync credential' }).click();
    await dialog.getByRole('button', { name: /Issue (new )?credential/ }).click();
    const tokenBox = dialog.getByLabel('Device token (shown once)');
    await tokenBox.waitFor();
    const token = await tokenBox.inputValue();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const sync = () =>
      fetch(`${base}/api/hht/sync`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: '{"batchId":"e2e","records":[]}' });
    expect((await sync()).status).toBe(400); // authenticated: the empty batch itself is refused
    await dialog.getByRole('button', { name: 'Revoke credential' }).click();
    await dialog.getByText(/Credential of .* revoked/).waitFor();
    expect((await sync()).status).toBe(401);
    expect(failed).toEqual([]);
  });
});
