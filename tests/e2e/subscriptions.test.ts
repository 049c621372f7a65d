/**
 * E-mail subscriptions in the browser: subscribe from a report page (the e-mail address given in the dialog), the
 * server's clock moved past the send time (test hook), the mail received by a real SMTP server, and the delivery
 * history on the subscriptions page. Its own server, since the shared one has no mail server configured.
 */
import { mkdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, type TestBrowser } from '../support/browser';
import { signIn } from '../support/login';
import { startServer, type RunningServer } from '../support/server';
import { startTestSmtp, type TestSmtp } from '../support/smtp';

const SHOTS = '.tmp/screenshots';
const OFFICE = { width: 1366, height: 768 };
const PHONE = { width: 390, height: 844 };

const istNow = (): Date => new Date(Date.now() + 330 * 60_000);
const istDay = (offsetDays: number): string => new Date(istNow().getTime() + offsetDays * 86_400_000).toISOString().slice(0, 10);

describe('e-mail subscriptions in the browser', () => {
  let smtp: TestSmtp;
  let server: RunningServer;
  let b: TestBrowser;

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    smtp = await startTestSmtp();
    server = await startServer({ HHT_SMTP_URL: smtp.url, HHT_MAIL_POLL_MS: '0', HHT_PUBLIC_URL: 'http://portal.test' });
    b = await launchBrowser(OFFICE);
  }, 300_000);
  afterAll(async () => {
    await b?.close();
    await server?.stop();
    await smtp?.close();
  });

  it('subscribes from a report page, mails at the time chosen, and shows the delivery history', async () => {
    const p = b.page;
    const base = server.url;
    await signIn(p, base, 'HHTDIV');
    const yesterday = istDay(-1);
    await p.goto(`${base}/layout/uikit/TTE_TS?start_date=${yesterday}&end_date=${yesterday}&_run=1`);
    await p.locator('.report-count').waitFor({ timeout: 60_000 });
    // "E-mail me this" is the app's button on the result toolbar.
    await p.locator('.report-result-actions').getByTestId('subscribe-button').click();
    const dialog = p.getByRole('dialog');
    await dialog.getByLabel('Your e-mail address').waitFor();
    // Yesterday's date on the page is offered as "the day before the e-mail".
    await expect.poll(() => dialog.locator('.sub-dates').innerText()).toContain('The day before the e-mail');
    await dialog.getByLabel('Your e-mail address').fill('amit.saxena@rail.test');
    // Five minutes from now (India time), so the send falls due when the test moves the clock.
    const due = new Date(istNow().getTime() + 5 * 60_000);
    const hhmm = `${String(due.getUTCHours()).padStart(2, '0')}:${String(due.getUTCMinutes()).padStart(2, '0')}`;
    await dialog.getByLabel('At (IST)').fill(hhmm);
    await p.screenshot({ path: `${SHOTS}/subscribe-dialog-1366x768.png` });
    await dialog.getByRole('button', { name: 'Subscribe' }).click();
    await expect.poll(() => dialog.getByTestId('subscribe-message').innerText()).toMatch(/^Subscribed\. The first e-mail comes/);

    // Not before its time: nothing yet.
    expect(smtp.messages).toHaveLength(0);
    const move = await fetch(`${base}/api/test-hooks/clock`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ advanceMs: 6 * 60_000 }) });
    expect(move.status).toBe(200);
    await expect.poll(() => smtp.messages.length, { timeout: 30_000 }).toBe(1);
    const mail = smtp.messages[0]!;
    expect(mail.attachments[0]?.filename).toBe(`tte-working-summary-${yesterday}-to-${yesterday}.xlsx`);

    await dialog.getByRole('link', { name: 'My e-mail subscriptions' }).click();
    await p.getByRole('heading', { name: 'E-mail subscriptions' }).waitFor();
    const card = p.locator('.sub-card').first();
    await card.getByRole('button', { name: 'Delivery history' }).click();
    const history = card.locator('.sub-history');
    await history.waitFor();
    expect(await history.innerText()).toContain('Sent');
    await expect.poll(() => p.getByLabel('Your e-mail address').inputValue()).toBe('amit.saxena@rail.test');
    await p.screenshot({ path: `${SHOTS}/subscriptions-page-1366x768.png`, fullPage: false });

    await p.setViewportSize(PHONE);
    await p.reload();
    await p.locator('.sub-card').first().getByRole('button', { name: 'Delivery history' }).click();
    await p.locator('.sub-history').waitFor();
    await p.screenshot({ path: `${SHOTS}/subscriptions-page-390x844.png`, fullPage: false });

    await p.goto(`${base}/layout/uikit/TTE_TS?start_date=${yesterday}&end_date=${yesterday}&_run=1`);
    await p.locator('.report-count').waitFor({ timeout: 60_000 });
    await p.getByTestId('subscribe-button').click();
    await p.getByRole('dialog').getByLabel('At (IST)').waitFor();
    await p.screenshot({ path: `${SHOTS}/subscribe-dialog-390x844.png` });
    expect(b.errors).toEqual([]);
  }, 240_000);
});
