import { writeFileSync } from 'node:fs';
import { startServer, type RunningServer } from '../support/server';
import { launchBrowser } from '../support/browser';
import { signIn } from '../support/login';

const DB = 'postgresql://postgres@127.0.0.1:55432/hht_client_shots';
const OUT = '/tmp/client-an/shots';
const REPORT = process.env.REPORT ?? '/layout/uikit/coach-deficiency?_run=1';
const which = process.argv[2] as 'before' | 'after';
const env: Record<string, string> = { DATABASE_URL: DB, ...(which === 'before' ? { HHT_CLIENT_DIR: '/tmp/client-an/before/dist/client' } : {}) };
const server: RunningServer = await startServer(env, 600_000);
try {
  for (const [w, h] of [[1366, 768], [390, 844]] as const) {
    const b = await launchBrowser({ width: w, height: h });
    try {
      await b.context.addInitScript(() => { Math.random = () => 0.25; });
      await b.page.goto(`${server.url}/login`);
      await b.page.locator('img[alt^="Captcha"]').waitFor();
      await b.page.waitForLoadState('networkidle');
      await b.page.evaluate(() => document.fonts.ready);
      await b.page.screenshot({ path: `${OUT}/${which}-login-${w}.png`, mask: [b.page.locator('img[alt^="Captcha"]')], animations: 'disabled' });
      await signIn(b.page, server.url, 'HHTSU');
      await b.page.goto(`${server.url}${REPORT}`);
      await b.page.locator('.ag-row, .report-empty').first().waitFor({ timeout: 60_000 });
      await b.page.waitForLoadState('networkidle');
      await b.page.waitForTimeout(1500);
      await b.page.evaluate(() => document.fonts.ready);
      await b.page.screenshot({ path: `${OUT}/${which}-report-${w}.png`, animations: 'disabled', mask: [b.page.locator('.layout-topbar-strip, .layout-footer-version, .train-strip')] });
      writeFileSync(`${OUT}/${which}-errors-${w}.txt`, b.errors.join('\n'));
    } finally {
      await b.close();
    }
  }
} finally {
  await server.stop();
}
