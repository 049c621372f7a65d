import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { launchBrowser, type TestBrowser } from '../support/browser';
import { seriousViolations } from '../support/axe';

let b: TestBrowser;
beforeAll(async () => {
  b = await launchBrowser();
});
afterAll(async () => {
  await b?.close();
});

it('not-found screen: the spec texts, three links to /, no serious axe violation', async () => {
  const base = inject('baseUrl');
  await b.page.goto(`${base}/layout-typo/anything`);
  await expect.poll(() => b.page.url()).toMatch(/\/notfound$/);
  await b.page.getByRole('heading', { name: '404 Not Found' }).waitFor();
  await b.page.getByText('Requested resource is not available.').waitFor();
  const links = b.page.getByRole('link');
  expect((await links.allInnerTexts()).map((t) => t.trim())).toEqual([
    'Frequently Asked Questions',
    'Solution Center',
    'You dont have permission to view this page',
  ]);
  for (const l of await links.all()) expect(await l.getAttribute('href')).toBe('/');
  await b.page.getByText('(Contact to HHT Team)').waitFor();
  expect(await seriousViolations(b.page)).toEqual([]);
  await links.first().click();
  await expect.poll(() => b.page.url()).toMatch(/\/login$/);
  expect(b.errors).toEqual([]);
});

it('login screen: no serious axe violation', async () => {
  await b.page.goto(`${inject('baseUrl')}/login`);
  await b.page.getByRole('heading', { name: 'Welcome to IR-HHT' }).waitFor();
  expect(await seriousViolations(b.page)).toEqual([]);
});

it('themes are served from the build, not a CDN, and the default theme is on before the first render', async () => {
  const base = inject('baseUrl');
  await b.page.goto(`${base}/notfound`);
  await b.page.getByRole('heading', { name: '404 Not Found' }).waitFor();
  expect(await b.page.locator('link#theme-link').getAttribute('href')).toBe('/themes/lara-light-indigo/theme.css');
  expect(await b.page.evaluate(() => getComputedStyle(document.documentElement).colorScheme)).toBe('light');
  for (const id of ['bootstrap4-dark-purple', 'md-light-indigo', 'mdc-dark-deeppurple', 'tailwind-light', 'fluent-light', 'lara-dark-teal', 'arya-orange']) {
    const res = await fetch(`${base}/themes/${id}/theme.css`);
    expect([id, res.status, res.headers.get('content-type')]).toEqual([id, 200, expect.stringContaining('text/css')]);
  }
  // The theme's Inter comes split by script: an English page loads the Latin file alone (src/shared/theme-fonts.ts).
  const fonts = await b.page.evaluate(async () => {
    await document.fonts.ready;
    return performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname).filter((p) => p.startsWith('/themes/'));
  });
  expect(fonts.filter((p) => p.endsWith('.woff2'))).toEqual(['/themes/inter/inter-latin-wght-normal.woff2']);
  expect(await b.page.evaluate(() => document.fonts.check('16px "Inter var"'))).toBe(true);
  const font = await fetch(`${base}/themes/inter/inter-latin-wght-normal.woff2`);
  expect([font.status, font.headers.get('content-type')]).toEqual([200, 'font/woff2']);
});
