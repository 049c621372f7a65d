/**
 * The Hindi interface: the language switch in a real browser. The sign-in screen is ours alone; the report page
 * gets a made-up definition answered by the test according to the request's Accept-Language (route interception),
 * as the server does for the real catalogue (i18n-server.test.ts covers the real menu and reports).
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page, Route } from 'playwright-core';
import { launchBrowser, type TestBrowser } from '../support/browser';
import { signIn } from '../support/login';
import { seriousViolations } from '../support/axe';
import { englishLeft } from '../support/i18n';
import { filterValidatorModule, filterValidatorUrl } from '../../src/server/reports/filter-validator-code';

/** The same report in both languages, as the server would word it. */
function fixture(lang: 'en' | 'hi') {
  const hi = lang === 'hi';
  const schema = {
    type: 'object',
    required: ['trainNo', 'startDate'],
    properties: {
      trainNo: { title: hi ? 'गाड़ी संख्या' : 'Train No', type: 'string', pattern: '^[0-9]{5}$' },
      startDate: { title: hi ? 'यात्रा तिथि' : 'Run Date', type: 'string', format: 'date' },
    },
  };
  return {
    id: 'i18n_fixture',
    title: hi ? 'रिक्त बर्थ परीक्षण' : 'Vacant Berth Check',
    description: hi ? 'ब्राउज़र परीक्षण के लिए बनाई गई रिपोर्ट।' : 'A made-up report for the browser test.',
    endpoint: 'getI18nFixture',
    filter: { schema, uiSchema: { trainNo: { 'ui:widget': 'train' }, startDate: { 'ui:widget': 'date' } }, defaults: { startDate: '$today' } },
    columns: [
      { field: 'coach', headerName: hi ? 'कोच' : 'Coach', pinned: 'left' },
      { field: 'berth', headerName: hi ? 'बर्थ' : 'Berth', type: 'number' },
      { field: 'fare', headerName: hi ? 'किराया' : 'Fare', type: 'currency' },
    ],
    export: { formats: ['csv', 'pdf'], fileName: 'i18n-{trainNo}' },
    paging: { mode: 'client', pageSize: 50 },
    exportCaps: { csv: 200000, xlsx: 100000, pdf: 5000 },
    filterValidator: filterValidatorUrl(schema),
  };
}
const rows = Array.from({ length: 12 }, (_, i) => ({ coach: `S${(i % 9) + 1}`, berth: i + 1, fare: 123456 * i }));
const languagesAsked: string[] = [];

async function fakeReport(route: Route): Promise<void> {
  const url = new URL(route.request().url());
  const lang = route.request().headers()['accept-language'] === 'hi' ? 'hi' : 'en';
  if (url.pathname === '/api/meta/reports/i18n_fixture') {
    languagesAsked.push(lang);
    return route.fulfill({ json: fixture(lang) });
  }
  for (const l of ['en', 'hi'] as const) {
    const def = fixture(l);
    if (url.pathname === def.filterValidator) {
      return route.fulfill({ body: filterValidatorModule(def.filter.schema), headers: { 'content-type': 'text/javascript; charset=utf-8' } });
    }
  }
  if (url.pathname === '/api/getI18nFixture') return route.fulfill({ json: { rows, total: rows.length, page: 1, rowsPerPage: rows.length } });
  return route.continue();
}

const base = (): string => inject('baseUrl');
const choose = (page: Page, lang: 'en' | 'hi') => page.locator(`button[data-language="${lang}"]`).first().click();

describe('the sign-in screen', () => {
  let b: TestBrowser;
  beforeAll(async () => {
    b = await launchBrowser({ width: 1366, height: 768 });
  });
  afterAll(async () => {
    await b?.close();
  });

  it('switches to Hindi and back, is remembered by the browser, and has no English left but codes', async () => {
    const { page } = b;
    await page.goto(`${base()}/login`);
    await page.getByRole('heading', { name: 'Welcome to IR-HHT' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
    expect(await page.getByRole('button', { name: 'English' }).getAttribute('aria-pressed')).toBe('true');

    await choose(page, 'hi');
    await page.getByRole('heading', { name: 'IR-HHT में आपका स्वागत है' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('hi');
    await page.getByLabel('यूज़रनेम').waitFor();
    await page.getByLabel('कैप्चा उत्तर').waitFor();
    expect(await page.getByRole('button', { name: 'हिन्दी' }).getAttribute('aria-pressed')).toBe('true');
    expect(await englishLeft(page, 'body')).toEqual([]);

    // A message of the spec's catalogue, in Hindi: Enter without a captcha answer.
    await page.getByLabel('यूज़रनेम').fill('HHTDIV');
    await page.getByLabel('यूज़रनेम').press('Enter');
    await page.getByText('कृपया कैप्चा हल करें।').waitFor();

    // Remembered in this browser: a new visit opens in Hindi.
    await page.reload();
    await page.getByRole('heading', { name: 'IR-HHT में आपका स्वागत है' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('hi');

    await choose(page, 'en');
    await page.getByRole('heading', { name: 'Welcome to IR-HHT' }).waitFor();
    await page.getByLabel('Username').waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
    expect(b.errors).toEqual([]);
  });

  it('the OTP step in Hindi: labels, buttons and the server message', async () => {
    const { page } = b;
    await page.goto(`${base()}/login`);
    await choose(page, 'hi');
    await page.getByLabel('यूज़रनेम').fill('HHTDIV');
    await page.getByLabel('पासवर्ड', { exact: true }).fill('HHT@DEMO1');
    await page.locator('.hht-captcha img').waitFor();
    // A fresh captcha whose id we know: Refresh, and ask the test hook for the answer of that response.
    const fresh = page.waitForResponse((r) => r.url().endsWith('/api/captcha'));
    await page.getByRole('button', { name: 'रीफ़्रेश करें' }).click();
    const { captchaId } = (await (await fresh).json()) as { captchaId: string };
    const answer = ((await (await page.request.get(`${base()}/api/test-hooks/captcha/${captchaId}`)).json()) as { answer: string }).answer;
    await page.getByLabel('कैप्चा उत्तर').fill(answer);
    await page.getByRole('button', { name: 'लॉगिन करें' }).click();
    await page.getByRole('button', { name: 'OTP सत्यापित करें' }).waitFor();
    await page.getByRole('button', { name: 'लॉगिन पर वापस जाएँ' }).waitFor();
    await page.getByText(/OTP सफलतापूर्वक .* पर भेजा गया/).waitFor();
    await page.getByRole('button', { name: 'OTP सत्यापित करें' }).click();
    await page.getByText('कृपया OTP दर्ज करें।').waitFor();
    expect(await englishLeft(page, 'body', ['HHTDIV'])).toEqual([]); // the user id is data
    await page.getByRole('button', { name: 'लॉगिन पर वापस जाएँ' }).click();
    await page.getByLabel('यूज़रनेम').waitFor();
    await choose(page, 'en');
  });

  for (const [w, h] of [[1366, 768], [390, 844]] as const) {
    it(`has no serious or critical axe violation in Hindi at ${w}x${h}`, async () => {
      await b.page.setViewportSize({ width: w, height: h });
      await b.page.goto(`${base()}/login`);
      await choose(b.page, 'hi');
      await b.page.getByRole('heading', { name: 'IR-HHT में आपका स्वागत है' }).waitFor();
      expect(await seriousViolations(b.page)).toEqual([]);
      await choose(b.page, 'en');
    });
  }
});

describe('signed in', () => {
  let b: TestBrowser;
  beforeAll(async () => {
    b = await launchBrowser({ width: 1366, height: 768 });
    await signIn(b.page, base(), 'HHTDIV');
  });
  afterAll(async () => {
    await b?.close();
  });

  it("a report's title, filters and column headers follow the language, and its page has no English left but data and codes", async () => {
    const { page } = b;
    await page.route('**/api/**', fakeReport);
    await page.goto(`${base()}/layout/uikit/i18n_fixture?trainNo=12951&_run=1`);
    await page.getByRole('heading', { name: 'Vacant Berth Check' }).waitFor();
    await page.getByRole('columnheader', { name: 'Coach' }).waitFor();
    await page.getByText('12 records').waitFor();

    await choose(page, 'hi');
    await page.getByRole('heading', { name: 'रिक्त बर्थ परीक्षण' }).waitFor();
    await page.getByLabel('गाड़ी संख्या').waitFor();
    await page.getByLabel('यात्रा तिथि').waitFor();
    await page.getByRole('columnheader', { name: 'कोच' }).waitFor();
    await page.getByRole('columnheader', { name: 'किराया' }).waitFor();
    await page.getByText('12 रिकॉर्ड').waitFor();
    await page.getByRole('button', { name: /चलाएँ/ }).waitFor();
    // Indian grouping of the fare column (data), in Hindi as in English.
    await page.getByText('₹ 13,58,016.00').waitFor();
    expect(languagesAsked).toEqual(['en', 'hi']);
    expect(await page.evaluate(() => document.title)).toBe('रिक्त बर्थ परीक्षण · IR-HHT पोर्टल');
    expect(await englishLeft(page, 'main')).toEqual([]);

    // A filter problem is told in Hindi too (the client's own check of the definition's schema).
    await page.getByLabel('गाड़ी संख्या').fill('12');
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: /चलाएँ/ }).click();
    await page.getByText('गाड़ी संख्या मान्य नहीं है').waitFor();

    await choose(page, 'en');
    await page.getByRole('heading', { name: 'Vacant Berth Check' }).waitFor();
    await page.getByRole('columnheader', { name: 'Coach' }).waitFor();
    await page.getByLabel('Train No').waitFor();
    expect(languagesAsked).toEqual(['en', 'hi', 'en']);
    await page.unroute('**/api/**', fakeReport);
  });

  for (const [w, h] of [[1366, 768], [390, 844]] as const) {
    it(`dashboard, settings and accessibility panels in Hindi at ${w}x${h}: shell texts in Hindi, no serious axe violation`, async () => {
      const { page } = b;
      await page.setViewportSize({ width: w, height: h });
      await page.goto(`${base()}/layout/dashboard`);
      await choose(page, 'hi');
      await page.getByRole('heading', { name: 'डैशबोर्ड' }).waitFor();
      await page.locator('.dash-card').first().waitFor();
      expect(await page.evaluate(() => document.documentElement.lang)).toBe('hi');
      expect(await seriousViolations(page)).toEqual([]);

      await page.getByRole('button', { name: 'सुगम्यता', exact: true }).click();
      await page.getByRole('heading', { name: 'रंग कंट्रास्ट' }).waitFor();
      await page.getByRole('button', { name: 'डार्क मोड' }).waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      await page.keyboard.press('Escape');

      await page.locator('.layout-topbar-actions > button[aria-controls="layout-config"]').click();
      await page.getByRole('heading', { name: 'सेटिंग्स' }).waitFor();
      await page.getByText('मेनू प्रकार').waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      await page.keyboard.press('Escape');

      await choose(page, 'en');
      await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
      expect(b.errors).toEqual([]);
    });
  }
});
