/**
 * E-mail subscriptions end to end on the API: a real SMTP server (smtp-server) receives what the sender mails under
 * the test clock, and each message is parsed back (mailparser) and its attachment opened with a real reader.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import ExcelJS from 'exceljs';
import type { Attachment, ParsedMail } from 'mailparser';
import { cloneSeededTestDb } from '../support/seeded';
import { TEST_DRIVERS, type TestDb } from '../support/db';
import { buildTestApp, testConfig } from '../support/app';
import { insertUser, loginAs, type SignedIn } from '../support/login';
import { pdfText } from '../support/pdf-text';
import { startTestSmtp, type TestSmtp } from '../support/smtp';
import { insertDemoUsers } from '../../src/server/auth/demo-users';
import { manualClock } from '../../src/server/clock';
import { openDb, type Db } from '../../src/server/db';
import { createMailSender, type MailSender } from '../../src/server/mail/sender';
import { UnsubscribeTokens } from '../../src/server/mail/unsubscribe-token';
import type { Config } from '../../src/server/config';
import type { SendItem, SubscriptionItem } from '../../src/shared/subscriptions';

const REPORT = 'TTE_TS';
/** The relative filter a subscription keeps: the week before the day of each send. */
const WEEK_BEFORE = { start_date: '$today-7', end_date: '$today-1' };

describe.each(TEST_DRIVERS)('e-mail subscriptions on %s', (driver) => {
  let t: TestDb & { today: string };
  let app: FastifyInstance;
  let smtp: TestSmtp;
  let divAt = 0;
  let divSession: SignedIn;
  /** HHTDIV signed in at the clock's time (access tokens follow the server clock, which the tests move). */
  const me = async (): Promise<SignedIn> => {
    if (divAt !== clock.now().getTime()) {
      divSession = await loginAs(app, 'HHTDIV');
      divAt = clock.now().getTime();
    }
    return divSession;
  };
  const clock = manualClock(new Date());
  const at = (time: string, day?: string): Date => new Date(`${day ?? t.today}T${time}:00+05:30`);
  const addDays = (n: number): string => new Date(Date.parse(`${t.today}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
  let mailConfig: Config['mail'];

  beforeAll(async () => {
    smtp = await startTestSmtp();
    t = await cloneSeededTestDb(driver);
    await insertDemoUsers(t.db);
    clock.set(at('06:00'));
    mailConfig = { ...testConfig().mail, smtpUrl: smtp.url, publicUrl: 'http://portal.test', pollMs: 0, retryMinutes: [1, 5, 15] };
    app = await buildTestApp(t.db, { clock, config: { mail: mailConfig } });
    const put = await app.inject({ method: 'PUT', url: '/api/profile/email', headers: (await me()).headers(), payload: { email: 'amit.saxena@rail.test' } });
    expect(put.statusCode, put.body).toBe(200);
  }, 300_000);
  afterAll(async () => {
    await app?.close();
    await t?.drop();
    await smtp?.close();
  });
  afterEach(async () => {
    await t.db.query('DELETE FROM mail_subscriptions');
    smtp.messages.length = 0;
    smtp.rejecting = false;
  });

  const subscribe = async (who: SignedIn | 'div', body: Record<string, unknown>): Promise<SubscriptionItem> => {
    const res = await app.inject({ method: 'POST', url: '/api/subscriptions', headers: (who === 'div' ? await me() : who).headers(), payload: body });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<SubscriptionItem>();
  };
  const history = async (id: number): Promise<SendItem[]> => {
    const res = await app.inject({ method: 'GET', url: `/api/subscriptions/${id}/sends`, headers: (await me()).headers() });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<SendItem[]>();
  };
  /** The user's own export of the same filters, as the report page's export button would fetch it. */
  const ownExport = async (who: SignedIn, format: string, filter: Record<string, unknown>, lang = 'en', columns?: string[]) => {
    const res = await app.inject({
      method: 'POST', url: `/api/export/${REPORT}?format=${format}${columns ? `&columns=${columns.join(',')}` : ''}`, headers: { ...who.headers(), 'accept-language': lang }, payload: filter,
    });
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    return res;
  };
  const xlsxRows = async (content: Buffer): Promise<unknown[][]> => {
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(content as unknown as ArrayBuffer);
    const rows: unknown[][] = [];
    wb.worksheets[0]?.eachRow((row) => rows.push((row.values as unknown[]).slice(1).map((v) => (v instanceof Date ? v.toISOString() : v))));
    return rows;
  };
  const listUnsubscribe = (mail: ParsedMail): string | undefined => mail.headerLines.find((h) => h.key === 'list-unsubscribe')?.line.replace(/^List-Unsubscribe:\s*/i, '');
  const onlyAttachment = (mail: ParsedMail): Attachment => {
    expect(mail.attachments).toHaveLength(1);
    return mail.attachments[0]!;
  };

  it('keeps the e-mail address in the profile, refusing one that is not an address', async () => {
    const badRes = await app.inject({ method: 'PUT', url: '/api/profile/email', headers: (await me()).headers(), payload: { email: 'amit at rail' } });
    expect(badRes.statusCode).toBe(400);
    expect(badRes.json<{ fields: { field: string }[] }>().fields[0]?.field).toBe('email');
    const got = await app.inject({ method: 'GET', url: '/api/profile/email', headers: (await me()).headers() });
    expect(got.json()).toEqual({ email: 'amit.saxena@rail.test' });
    const status = await app.inject({ method: 'GET', url: '/api/subscriptions/status', headers: (await me()).headers() });
    expect(status.json()).toMatchObject({ enabled: true, email: 'amit.saxena@rail.test', maxMb: 10 });
  });

  it('refuses a subscription without an address, with a bad time, or a filter the report refuses, naming the field', async () => {
    const zone = await loginAs(app, 'HHTZONE');
    const noEmail = await app.inject({
      method: 'POST', url: '/api/subscriptions', headers: zone.headers(),
      payload: { target: 'report', reportId: REPORT, filters: WEEK_BEFORE, format: 'csv', lang: 'en', frequency: 'daily', time: '07:00' },
    });
    expect(noEmail.statusCode).toBe(400);
    expect(noEmail.json<{ message: string }>().message).toMatch(/e-mail address to your profile/);
    const base = { target: 'report', reportId: REPORT, filters: WEEK_BEFORE, format: 'csv', lang: 'en', frequency: 'daily', time: '07:00' };
    const cases: [Record<string, unknown>, string][] = [
      [{ ...base, time: '25:00' }, 'time'],
      [{ ...base, frequency: 'weekly' }, 'weekday'],
      [{ ...base, filters: { start_date: '$today-1', end_date: '$today-9' } }, 'end_date'],
      [{ ...base, format: 'docx' }, 'format'],
    ];
    for (const [payload, field] of cases) {
      const res = await app.inject({ method: 'POST', url: '/api/subscriptions', headers: (await me()).headers(), payload });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json<{ fields: { field: string }[] }>().fields.map((f) => f.field)).toContain(field);
    }
  });

  it('with no mail server configured says so and refuses new subscriptions', async () => {
    const off = await buildTestApp(t.db, { clock, config: { mail: { ...mailConfig, smtpUrl: undefined } } });
    try {
      const who = await loginAs(off, 'HHTDIV');
      const status = await off.inject({ method: 'GET', url: '/api/subscriptions/status', headers: who.headers() });
      expect(status.json<{ enabled: boolean }>().enabled).toBe(false);
      const res = await off.inject({
        method: 'POST', url: '/api/subscriptions', headers: who.headers(),
        payload: { target: 'report', reportId: REPORT, filters: WEEK_BEFORE, format: 'csv', lang: 'en', frequency: 'daily', time: '07:00' },
      });
      expect(res.statusCode).toBe(503);
      expect(res.json<{ message: string }>().message).toMatch(/subscriptions are off/);
    } finally {
      await off.close();
    }
    divAt = 0; // the other app's sign-in superseded this session
  });

  it('mails an xlsx at the IST time, not before, once, with the rows the user\'s own export gives', async () => {
    clock.set(at('06:00'));
    // The columns shown on the page, a hidden one (Division) included.
    const columns = ['tte_id', 'div_code', 'train_no', 'start_date', 'eft_amount', 'sign_on_at'];
    const sub = await subscribe('div', { target: 'report', reportId: REPORT, filters: WEEK_BEFORE, columns, format: 'xlsx', lang: 'en', frequency: 'daily', time: '07:00' });
    expect(sub.nextDueAt).toBe(at('07:00').toISOString());
    clock.set(at('06:59'));
    await app.mailSender.tick();
    expect(smtp.messages).toHaveLength(0);

    clock.set(at('07:00'));
    expect(await app.mailSender.tick()).toBe(1);
    await app.mailSender.tick();
    clock.set(at('07:30'));
    await app.mailSender.tick();
    expect(smtp.messages).toHaveLength(1);
    const mail = smtp.messages[0]!;
    expect(mail.to && !Array.isArray(mail.to) ? mail.to.text : '').toBe('amit.saxena@rail.test');
    expect(mail.subject).toContain('TTE');
    expect(listUnsubscribe(mail)).toMatch(/^<http:\/\/portal\.test\/api\/mail\/unsubscribe\?t=/);
    const file = onlyAttachment(mail);
    expect(file.filename).toBe(`tte-working-summary-${addDays(-7)}-to-${addDays(-1)}.xlsx`);
    // The relative dates resolved on the day of the send, and the same rows as the user's own export of them.
    const own = await ownExport(await me(), 'xlsx', { start_date: addDays(-7), end_date: addDays(-1) }, 'en', columns);
    const mailed = await xlsxRows(file.content);
    expect(mailed.length).toBeGreaterThan(1);
    expect(mailed).toEqual(await xlsxRows(own.rawPayload));
    // A division user's file holds the division only.
    const divCol = (mailed[0] ?? []).indexOf('Division');
    expect(divCol).toBeGreaterThanOrEqual(0);
    expect(new Set(mailed.slice(1).map((r) => r[divCol]))).toEqual(new Set(['DLI']));

    const sends = await history(sub.id);
    expect(sends).toHaveLength(1);
    expect(sends[0]).toMatchObject({ status: 'sent', attempts: 1, rows: mailed.length - 1, linked: false, dueAt: at('07:00').toISOString() });
    const list = (await app.inject({ method: 'GET', url: '/api/subscriptions', headers: (await me()).headers() })).json<SubscriptionItem[]>();
    expect(list.find((s) => s.id === sub.id)?.nextDueAt).toBe(at('07:00', addDays(1)).toISOString());
  });

  it('mails a weekly CSV in Hindi on its weekday, the rows and headings of the user\'s own Hindi export', async () => {
    clock.set(at('06:00'));
    const weekday = ((new Date(`${t.today}T00:00:00Z`).getUTCDay() + 6) % 7) + 1;
    const sub = await subscribe('div', { target: 'report', reportId: REPORT, filters: WEEK_BEFORE, format: 'csv', lang: 'hi', frequency: 'weekly', weekday, time: '08:15' });
    clock.set(at('08:15'));
    await app.mailSender.tick();
    expect(smtp.messages).toHaveLength(1);
    const csv = onlyAttachment(smtp.messages[0]!).content.toString('utf8');
    const own = await ownExport(await me(), 'csv', { start_date: addDays(-7), end_date: addDays(-1) }, 'hi');
    expect(csv).toBe(own.body);
    expect(csv.split('\r\n')[0]).toMatch(/[\u0900-\u097F]/); // headings in Devanagari
    expect(smtp.messages[0]!.text).toContain('साप्ताहिक');
    // The next one is a week later.
    const list = (await app.inject({ method: 'GET', url: '/api/subscriptions', headers: (await me()).headers() })).json<SubscriptionItem[]>();
    expect(list.find((s) => s.id === sub.id)?.nextDueAt).toBe(at('08:15', addDays(7)).toISOString());
  });

  it('mails a PDF with the report heading, its filters resolved and its pages', async () => {
    clock.set(at('06:00'));
    await subscribe('div', { target: 'report', reportId: REPORT, filters: { start_date: '$today-1', end_date: '$today-1' }, format: 'pdf', lang: 'en', frequency: 'daily', time: '09:00' });
    clock.set(at('09:05'));
    await app.mailSender.tick();
    expect(smtp.messages).toHaveLength(1);
    const text = await pdfText(onlyAttachment(smtp.messages[0]!).content);
    const d = addDays(-1).split('-').reverse().join('/');
    expect(text).toContain(`Run Date From: ${d}`);
    expect(text).toMatch(/Page 1 of \d+/);
  });

  it('mails the dashboard as a PDF of its cards', async () => {
    clock.set(at('06:00'));
    await subscribe('div', { target: 'dashboard', format: 'pdf', lang: 'en', frequency: 'daily', time: '07:00' });
    clock.set(at('07:00'));
    await app.mailSender.tick();
    expect(smtp.messages).toHaveLength(1);
    const text = await pdfText(onlyAttachment(smtp.messages[0]!).content);
    expect(text).toContain('Dashboard');
    expect(text).toContain('Passengers Today');
  });

  it('two senders on one database mail a due time exactly once', async () => {
    clock.set(at('06:00'));
    const sub = await subscribe('div', { target: 'report', reportId: REPORT, filters: WEEK_BEFORE, format: 'csv', lang: 'en', frequency: 'daily', time: '10:00' });
    await t.db.query('UPDATE mail_sender_state SET lease_owner = NULL, lease_until = NULL');
    const second: Db = t.url ? await openDb({ databaseUrl: t.url, dataDir: null }) : t.db;
    const make = (db: Db): MailSender =>
      createMailSender({
        db, config: { ...testConfig(), mail: mailConfig }, clock, registry: app.reports, suMobiles: [], tokens: new UnsubscribeTokens('x'),
        dashboard: () => undefined, audit: () => undefined, log: () => undefined,
      });
    const a = make(t.db);
    const b = make(second);
    try {
      clock.set(at('10:00'));
      const counts = await Promise.all([a.tick(), b.tick()]);
      expect(counts.sort()).toEqual([0, 1]);
      expect(smtp.messages).toHaveLength(1);
      // Even when the lease passes to the other sender, the due time's send record keeps it from mailing again.
      await t.db.query("UPDATE mail_sender_state SET lease_until = now() - interval '1 second'");
      expect(await b.tick()).toBe(0);
      await t.db.query("UPDATE mail_sender_state SET lease_until = now() - interval '1 second'");
      expect(await a.tick()).toBe(0);
      expect(smtp.messages).toHaveLength(1);
      expect((await history(sub.id)).map((s) => s.status)).toEqual(['sent']);
    } finally {
      await a.stop();
      await b.stop();
      if (second !== t.db) await second.close();
    }
  });

  it('retries a send the mail server refuses after 1, 5 and 15 minutes, then records it as failed', async () => {
    clock.set(at('06:00'));
    const sub = await subscribe('div', { target: 'report', reportId: REPORT, filters: WEEK_BEFORE, format: 'csv', lang: 'en', frequency: 'daily', time: '11:00' });
    smtp.rejecting = true;
    const due = at('11:00').getTime();
    const expectSend = async (status: string, attempts: number, nextInMin: number | null) => {
      const s = (await history(sub.id))[0];
      expect(s).toMatchObject({ status, attempts });
      expect(s?.nextAttemptAt ?? null).toBe(nextInMin === null ? null : new Date(clock.now().getTime() + nextInMin * 60_000).toISOString());
      if (status !== 'sent') expect(s?.reason).toMatch(/451|unavailable/i);
    };
    clock.set(new Date(due));
    await app.mailSender.tick();
    await expectSend('retrying', 1, 1);
    clock.set(new Date(due + 59_000)); // not before its time
    await app.mailSender.tick();
    expect(smtp.refused).toBeGreaterThanOrEqual(1);
    const refusedBefore = smtp.refused;
    await expectSend('retrying', 1, (60_000 - 59_000) / 60_000);
    expect(smtp.refused).toBe(refusedBefore);
    clock.set(new Date(due + 60_000));
    await app.mailSender.tick();
    await expectSend('retrying', 2, 5);
    clock.set(new Date(due + 6 * 60_000));
    await app.mailSender.tick();
    await expectSend('retrying', 3, 15);
    clock.set(new Date(due + 21 * 60_000));
    await app.mailSender.tick();
    await expectSend('failed', 4, null);
    expect(smtp.messages).toHaveLength(0);
    // The outcome is in the audit trail.
    await app.audit.flush();
    const audit = await t.db.query<{ status: string }>(
      "SELECT details->>'status' AS status FROM audit_trail WHERE action = 'mail_sent' AND details->>'subscription' = $1", [String(sub.id)],
    );
    expect(audit.rows.map((r) => r.status)).toEqual(['failed']);
  });

  it('a mail server that is down is retried too', async () => {
    clock.set(at('06:00'));
    const sub = await subscribe('div', { target: 'report', reportId: REPORT, filters: WEEK_BEFORE, format: 'csv', lang: 'en', frequency: 'daily', time: '12:00' });
    await t.db.query('UPDATE mail_sender_state SET lease_owner = NULL, lease_until = NULL');
    const down = createMailSender({
      db: t.db, config: { ...testConfig(), mail: { ...mailConfig, smtpUrl: 'smtp://127.0.0.1:1' } }, clock, registry: app.reports, suMobiles: [],
      tokens: new UnsubscribeTokens('x'), dashboard: () => undefined, audit: () => undefined, log: () => undefined,
    });
    try {
      clock.set(at('12:00'));
      await down.tick();
      const s = (await history(sub.id))[0];
      expect(s).toMatchObject({ status: 'retrying', attempts: 1 });
      expect(s?.reason).toMatch(/ECONNREFUSED|connect/i);
    } finally {
      await down.stop();
    }
  });

  it('a user who lost access gets nothing: the send is recorded as skipped with the reason', async () => {
    await insertUser(t.db, { userId: 'MAILDU', userLevel: 'DU', rlyCode: 'NR', divCode: 'DLI' });
    await t.db.query("UPDATE users SET email = 'du@rail.test' WHERE user_id = 'MAILDU'");
    const du = await loginAs(app, 'MAILDU');
    clock.set(at('06:00'));
    const a = await subscribe(du, { target: 'report', reportId: REPORT, filters: WEEK_BEFORE, format: 'csv', lang: 'en', frequency: 'daily', time: '13:00' });
    // Level changed to one with no data scope (an RO of no head office).
    await t.db.query("UPDATE users SET user_level = 'RO', off_type = NULL WHERE user_id = 'MAILDU'");
    clock.set(at('13:00'));
    await app.mailSender.tick();
    expect(smtp.messages).toHaveLength(0);
    const sends = await t.db.query<{ status: string; reason: string }>('SELECT status, reason FROM mail_sends WHERE subscription_id = $1', [a.id]);
    expect(sends.rows).toEqual([{ status: 'skipped', reason: 'The profile gives no data scope' }]);

    // Disabled.
    await t.db.query("UPDATE users SET user_level = 'DU', active = false WHERE user_id = 'MAILDU'");
    clock.set(at('13:00', addDays(1)));
    await app.mailSender.tick();
    expect(smtp.messages).toHaveLength(0);
    const later = await t.db.query<{ status: string; reason: string }>('SELECT status, reason FROM mail_sends WHERE subscription_id = $1 ORDER BY due_at', [a.id]);
    expect(later.rows[1]).toEqual({ status: 'skipped', reason: 'The account is disabled' });
  });

  it('the unsubscribe link works without signing in, in both languages, and only for its own subscription', async () => {
    clock.set(at('06:00'));
    const sub = await subscribe('div', { target: 'report', reportId: REPORT, filters: WEEK_BEFORE, format: 'csv', lang: 'en', frequency: 'daily', time: '14:00' });
    clock.set(at('14:00'));
    await app.mailSender.tick();
    const mail = smtp.messages[0]!;
    const link = /http:\/\/portal\.test(\/api\/mail\/unsubscribe\?t=[^\s]+)/.exec(mail.text ?? '')?.[1];
    expect(link).toBeDefined();
    expect(listUnsubscribe(mail)).toContain(link);
    expect(mail.headerLines.find((h) => h.key === 'list-unsubscribe-post')?.line).toBe('List-Unsubscribe-Post: List-Unsubscribe=One-Click');
    const page = await app.inject({ method: 'GET', url: link! });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Stop this e-mail?');
    expect(page.body).toContain('यह ई-मेल बंद करें?');
    // A token for another id, or altered, is refused.
    const forged = await app.inject({ method: 'POST', url: link!.replace(/t=\d+/, `t=${sub.id + 1}`) });
    expect(forged.statusCode).toBe(404);
    const done = await app.inject({ method: 'POST', url: link!, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'List-Unsubscribe=One-Click' });
    expect(done.statusCode).toBe(200);
    expect(done.body).toContain('Unsubscribed');
    expect(done.body).toContain('सदस्यता समाप्त');
    const list = (await app.inject({ method: 'GET', url: '/api/subscriptions', headers: (await me()).headers() })).json<SubscriptionItem[]>();
    expect(list.some((s) => s.id === sub.id)).toBe(false);
    expect((await app.inject({ method: 'GET', url: link! })).statusCode).toBe(404);
  });

  it('a file over HHT_MAIL_MAX_MB is replaced by a link to the report with the send\'s filters', async () => {
    clock.set(at('06:00'));
    const sub = await subscribe('div', { target: 'report', reportId: REPORT, filters: WEEK_BEFORE, format: 'csv', lang: 'en', frequency: 'daily', time: '15:00' });
    await t.db.query('UPDATE mail_sender_state SET lease_owner = NULL, lease_until = NULL');
    const small = createMailSender({
      db: t.db, config: { ...testConfig(), mail: { ...mailConfig, maxBytes: 200 } }, clock, registry: app.reports, suMobiles: [],
      tokens: new UnsubscribeTokens('x'), dashboard: () => undefined, audit: () => undefined, log: () => undefined,
    });
    try {
      clock.set(at('15:00'));
      expect(await small.tick()).toBe(1);
    } finally {
      await small.stop();
    }
    const mail = smtp.messages[0]!;
    expect(mail.attachments).toHaveLength(0);
    expect(mail.text).toContain('larger than the 0.2 KB');
    expect(mail.text).toContain(`http://portal.test/layout/uikit/${REPORT}?start_date=${addDays(-7)}&end_date=${addDays(-1)}&_run=1`);
    expect((await history(sub.id))[0]).toMatchObject({ status: 'sent', linked: true });
  });

  it('pause stops the sends and delete removes the subscription with its history; another officer cannot touch it', async () => {
    clock.set(at('06:00'));
    const sub = await subscribe('div', { target: 'report', reportId: REPORT, filters: WEEK_BEFORE, format: 'csv', lang: 'en', frequency: 'daily', time: '16:00' });
    const other = await loginAs(app, 'HHTZONE');
    expect((await app.inject({ method: 'PATCH', url: `/api/subscriptions/${sub.id}`, headers: other.headers(), payload: { paused: true } })).statusCode).toBe(404);
    expect((await app.inject({ method: 'GET', url: `/api/subscriptions/${sub.id}/sends`, headers: other.headers() })).statusCode).toBe(404);
    const paused = await app.inject({ method: 'PATCH', url: `/api/subscriptions/${sub.id}`, headers: (await me()).headers(), payload: { paused: true } });
    expect(paused.json<SubscriptionItem>().paused).toBe(true);
    clock.set(at('16:00'));
    await app.mailSender.tick();
    expect(smtp.messages).toHaveLength(0);
    expect(await history(sub.id)).toEqual([]);
    const resumed = await app.inject({ method: 'PATCH', url: `/api/subscriptions/${sub.id}`, headers: (await me()).headers(), payload: { paused: false } });
    expect(resumed.json<SubscriptionItem>().nextDueAt).toBe(at('16:00', addDays(1)).toISOString());
    const del = await app.inject({ method: 'DELETE', url: `/api/subscriptions/${sub.id}`, headers: (await me()).headers() });
    expect(del.statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: `/api/subscriptions/${sub.id}/sends`, headers: (await me()).headers() })).statusCode).toBe(404);
  });
});
