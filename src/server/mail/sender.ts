import { randomBytes } from 'node:crypto';
import nodemailer from 'nodemailer';
import type { Config } from '../config';
import type { Db } from '../db';
import { istDate, type Clock } from '../clock';
import { HttpError } from '../plugins/errors';
import type { ReportRegistry } from '../reports/registry';
import { userScope } from '../reports/scope';
import type { SessionUser } from '../auth/session-user';
import type { AuditEvent } from '../audit/actions';
import { latestDue, nextDue } from './schedule';
import { subscriptionWithUser, type SubscriptionWithUser } from './store';
import { buildReportFile, reportLink, reportTitle, subscriptionPlan, type BuiltFile } from './attachment';
import { buildDashboardPdf } from './dashboard-pdf';
import { mailWords } from './texts';
import type { UnsubscribeTokens } from './unsubscribe-token';
import type { DashboardConfig } from '../../shared/dashboard';

/** How long a process's claim on sending lasts without renewal (another process takes over after it). */
const LEASE_SECONDS = 120;
/** Sends handled per tick; the rest wait for the next one. */
const BATCH = 50;

export interface MailSenderDeps {
  db: Db;
  config: Config;
  clock: Clock;
  registry: ReportRegistry;
  suMobiles: readonly string[];
  tokens: UnsubscribeTokens;
  /** The dashboard's cards as now loaded (dashboard subscriptions). */
  dashboard: () => DashboardConfig | undefined;
  audit: (e: AuditEvent) => void;
  log: (line: string) => void;
}

export interface MailSender {
  /** Records the sends that fell due and mails those whose attempt is due; returns how many were mailed. */
  tick(): Promise<number>;
  stop(): Promise<void>;
}

/** A send that must not be retried: the user may no longer have the file (skipped) or it cannot be made (failed). */
class Final extends Error {
  constructor(readonly status: 'skipped' | 'failed', message: string) {
    super(message);
  }
}

const profileOf = (u: SubscriptionWithUser): SessionUser => ({
  userId: u.user_id, sessionId: '', name: u.name, designation: u.designation, userLevel: u.user_level, rlyCode: u.rly_code,
  divCode: u.div_code, lobbyCode: u.lobby_code, offCode: u.off_code, offType: u.off_type, mobileNo: u.mobile_no,
});

/**
 * The subscription sender. Every server process may run one; a lease in the database (as the live feed's) lets one
 * of them send at a time, and the unique (subscription, due time) row plus a conditional claim of each send make
 * sure a due time is mailed once even if two processes ever overlapped. Each send re-reads the user (active, level,
 * scope, address) and builds the file through the export code the user's own export runs.
 */
export function createMailSender(deps: MailSenderDeps): MailSender {
  const { db, config, clock, registry, suMobiles, tokens, log } = deps;
  const owner = `${process.pid}-${randomBytes(4).toString('hex')}`;
  const smtpUrl = config.mail.smtpUrl;
  const transport = smtpUrl
    ? nodemailer.createTransport({ url: smtpUrl, connectionTimeout: 30_000, greetingTimeout: 30_000, socketTimeout: 60_000 })
    : undefined;
  let running: Promise<number> | null = null;
  let stopped = false;

  const takeLease = async (): Promise<boolean> =>
    (
      await db.query(
        `UPDATE mail_sender_state SET lease_owner = $1, lease_until = now() + make_interval(secs => $2)
          WHERE id = 1 AND (lease_owner IS NULL OR lease_owner = $1 OR lease_until < now()) RETURNING id`,
        [owner, LEASE_SECONDS],
      )
    ).rows.length > 0;

  /** A send row for each subscription whose time came, and its next time. */
  const recordDue = async (now: Date): Promise<void> => {
    const due = await db.query<{ id: string | number; frequency: 'daily' | 'weekly'; weekday: number | null; send_time: string; next_due_at: Date | string }>(
      'SELECT id, frequency, weekday, send_time, next_due_at FROM mail_subscriptions WHERE NOT paused AND next_due_at <= $1 ORDER BY next_due_at LIMIT 500',
      [now],
    );
    for (const s of due.rows) {
      const timing = { frequency: s.frequency, weekday: s.weekday, time: s.send_time };
      const scheduled = new Date(s.next_due_at);
      const latest = latestDue(timing, now);
      const at = latest.getTime() > scheduled.getTime() && latest.getTime() <= now.getTime() ? latest : scheduled;
      await db.transaction(async (tx) => {
        await tx.query(
          `INSERT INTO mail_sends (subscription_id, due_at, status, next_attempt_at) VALUES ($1, $2, 'pending', $3)
             ON CONFLICT (subscription_id, due_at) DO NOTHING`,
          [s.id, at, now],
        );
        await tx.query('UPDATE mail_subscriptions SET next_due_at = $2 WHERE id = $1 AND next_due_at = $3', [s.id, nextDue(timing, now), s.next_due_at]);
      });
    }
  };

  const buildFile = async (sub: SubscriptionWithUser, now: Date): Promise<{ title: string; file: BuiltFile; link: string }> => {
    const user = profileOf(sub);
    const scope = userScope(user, suMobiles);
    if (!scope) throw new Final('skipped', 'The profile gives no data scope');
    const userLabel = `${sub.name} (${sub.user_id})`;
    if (sub.target === 'dashboard') {
      const dashboard = deps.dashboard();
      if (!dashboard) throw new Final('failed', 'The dashboard is not available');
      const file = await buildDashboardPdf(db, config, { dashboard, registry, scope, lang: sub.lang, userLabel, now });
      const title = sub.lang === 'hi' ? 'डैशबोर्ड' : 'Dashboard';
      return { title, file, link: `${config.mail.publicUrl}/layout/dashboard` };
    }
    const report = sub.report_id ? registry.get(sub.report_id) : undefined;
    if (!report) throw new Final('skipped', `The report ${sub.report_id ?? ''} is no longer in the portal`);
    let plan;
    try {
      plan = subscriptionPlan(report, sub, scope, userLabel, now);
    } catch (err) {
      if (err instanceof HttpError && err.statusCode === 403) throw new Final('skipped', `Not allowed at the user's level now: ${err.message}`);
      if (err instanceof HttpError && err.statusCode === 400) throw new Final('failed', `The saved filter is no longer valid: ${err.message}`);
      throw err;
    }
    let file: BuiltFile;
    try {
      file = await buildReportFile(db, config, plan);
    } catch (err) {
      if (err instanceof HttpError && err.statusCode === 400) throw new Final('failed', err.message);
      throw err;
    }
    return { title: reportTitle(report, sub.tab, sub.lang), file, link: reportLink(config.mail.publicUrl, report.definition.id, file.values, sub) };
  };

  const deliver = async (sub: SubscriptionWithUser, now: Date, dueAt: Date): Promise<{ rows: number; bytes: number; linked: boolean; resolved: Record<string, unknown> }> => {
    if (!transport) throw new Error('No mail server is configured (HHT_SMTP_URL)');
    if (!sub.active) throw new Final('skipped', 'The account is disabled');
    if (!sub.email) throw new Final('skipped', 'No e-mail address in the profile');
    const { title, file, link } = await buildFile(sub, now);
    const words = mailWords(sub.lang);
    const unsubscribeUrl = `${config.mail.publicUrl}/api/mail/unsubscribe?t=${tokens.make(Number(sub.id))}`;
    const filterText = file.filters.map((f) => `${f.label}: ${f.value}`).join(', ');
    const max = config.mail.maxBytes;
    const maxSize = max >= 1024 * 1024 ? `${(max / 1024 / 1024).toLocaleString('en-IN', { maximumFractionDigits: 1 })} MB` : `${(max / 1024).toLocaleString('en-IN', { maximumFractionDigits: 1 })} KB`;
    const text = [
      words.intro(title, sub.frequency),
      words.filters(filterText || words.noFilter),
      file.content ? words.attached(file.rows, file.fileName) : words.tooLarge(maxSize, link),
      '',
      words.manage(`${config.mail.publicUrl}/layout/uikit/subscriptions`),
      words.unsubscribe(unsubscribeUrl),
    ].join('\n');
    await transport.sendMail({
      from: config.mail.from,
      to: sub.email,
      subject: words.subject(title, istDate(dueAt)),
      text,
      // One-click unsubscribe (RFC 8058): mail programs POST to the List-Unsubscribe address.
      headers: { 'X-HHT-Subscription': String(sub.id), 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
      list: { unsubscribe: { url: unsubscribeUrl, comment: 'Unsubscribe' } },
      ...(file.content ? { attachments: [{ filename: file.fileName, content: file.content, contentType: file.contentType }] } : {}),
    });
    return { rows: file.rows, bytes: file.bytes, linked: !file.content, resolved: file.values };
  };

  const handle = async (sendId: number, now: Date): Promise<boolean> => {
    const claim = await db.query<{ attempts: number; subscription_id: string | number; due_at: Date | string }>(
      `UPDATE mail_sends SET status = 'sending', attempts = attempts + 1, claimed_by = $2
        WHERE id = $1 AND status IN ('pending', 'retrying') RETURNING attempts, subscription_id, due_at`,
      [sendId, owner],
    );
    const c = claim.rows[0];
    if (!c) return false; // another process took it
    const sub = await subscriptionWithUser(db, Number(c.subscription_id));
    const finish = (status: 'sent' | 'skipped' | 'failed', fields: { rows?: number; bytes?: number; linked?: boolean; reason?: string; resolved?: Record<string, unknown> }) =>
      db.query(
        `UPDATE mail_sends SET status = $2, rows = $3, bytes = $4, linked = $5, reason = $6, resolved_filters = $7, finished_at = $8,
                next_attempt_at = NULL WHERE id = $1`,
        [sendId, status, fields.rows ?? null, fields.bytes ?? null, fields.linked ?? false, fields.reason ?? null,
          fields.resolved ? JSON.stringify(fields.resolved) : null, now],
      );
    const audit = (status: string, details: Record<string, unknown>): void =>
      deps.audit({
        action: 'mail_sent', at: now, userId: sub?.user_id ?? null, userLevel: sub?.user_level ?? null, report: sub?.report_id ?? null,
        details: { subscription: Number(c.subscription_id), status, dueAt: new Date(c.due_at).toISOString(), attempt: c.attempts, ...details },
      });
    if (!sub) return false; // deleted meanwhile (its sends went with it)
    if (sub.paused) {
      await finish('skipped', { reason: 'The subscription is paused' });
      return false;
    }
    try {
      const done = await deliver(sub, now, new Date(c.due_at));
      await finish('sent', done);
      audit('sent', { rows: done.rows, bytes: done.bytes, linked: done.linked });
      return true;
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      if (err instanceof Final) {
        await finish(err.status, { reason });
        audit(err.status, { reason });
        return false;
      }
      const waits = config.mail.retryMinutes;
      if (c.attempts <= waits.length) {
        const next = new Date(now.getTime() + (waits[c.attempts - 1] ?? 1) * 60_000);
        await db.query(`UPDATE mail_sends SET status = 'retrying', reason = $2, next_attempt_at = $3 WHERE id = $1`, [sendId, reason, next]);
        log(`mail: send ${sendId} failed (attempt ${c.attempts}), retried at ${next.toISOString()}: ${reason}`);
      } else {
        await finish('failed', { reason });
        audit('failed', { reason });
        log(`mail: send ${sendId} failed after ${c.attempts} attempts: ${reason}`);
      }
      return false;
    }
  };

  const run = async (): Promise<number> => {
    if (!transport || !(await takeLease())) return 0;
    const now = clock.now();
    // A send left 'sending' by a process whose lease ran out is tried again (it may have been mailed: at least once).
    await db.query(
      `UPDATE mail_sends SET status = 'retrying', next_attempt_at = $2, reason = 'interrupted' WHERE status = 'sending' AND claimed_by <> $1`,
      [owner, now],
    );
    await recordDue(now);
    const open = await db.query<{ id: string | number }>(
      `SELECT id FROM mail_sends WHERE status IN ('pending', 'retrying') AND next_attempt_at <= $1 ORDER BY next_attempt_at, id LIMIT ${BATCH}`,
      [now],
    );
    let sent = 0;
    for (const { id } of open.rows) {
      if (stopped || !(await takeLease())) break; // renewed before each send
      if (await handle(Number(id), now)) sent += 1;
    }
    return sent;
  };

  const tick = (): Promise<number> => {
    if (stopped) return Promise.resolve(0);
    running ??= run().finally(() => {
      running = null;
    });
    return running;
  };

  const timer =
    transport && config.mail.pollMs > 0
      ? setInterval(() => {
          tick().catch((err: unknown) => log(`mail: tick failed: ${err instanceof Error ? err.message : String(err)}`));
        }, config.mail.pollMs)
      : undefined;
  timer?.unref();

  return {
    tick,
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      await running?.catch(() => 0);
      transport?.close();
      await db.query('UPDATE mail_sender_state SET lease_owner = NULL, lease_until = NULL WHERE id = 1 AND lease_owner = $1', [owner]).catch(() => undefined);
    },
  };
}
