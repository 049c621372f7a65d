/** Subscriptions and their sends as the database holds them, and as the API gives them. */
import type { Queryable } from '../db';
import type { SendItem, SendStatus, SubscriptionItem } from '../../shared/subscriptions';
import type { UserRow } from '../auth/user-rows';

export interface SubscriptionRow {
  id: number | string;
  user_id: string;
  target: 'report' | 'dashboard';
  report_id: string | null;
  tab: string | null;
  filters: Record<string, unknown> | string;
  columns: string[] | null;
  sort_by: string | null;
  sort_dir: 'asc' | 'desc' | null;
  format: 'csv' | 'xlsx' | 'pdf';
  lang: 'en' | 'hi';
  frequency: 'daily' | 'weekly';
  weekday: number | null;
  send_time: string;
  paused: boolean;
  next_due_at: Date | string;
  created_at: Date | string;
}

export interface SendRow {
  id: number | string;
  subscription_id: number | string;
  due_at: Date | string;
  status: SendStatus;
  attempts: number;
  next_attempt_at: Date | string | null;
  rows: number | null;
  bytes: number | null;
  linked: boolean;
  reason: string | null;
  finished_at: Date | string | null;
  resolved_filters: Record<string, unknown> | string | null;
}

const iso = (v: Date | string): string => new Date(v).toISOString();
const isoOrNull = (v: Date | string | null): string | null => (v === null ? null : iso(v));
/** jsonb comes back parsed from both drivers; a text value (older pg type parsers) is parsed here. */
export const jsonObject = (v: unknown): Record<string, unknown> => {
  const parsed: unknown = typeof v === 'string' ? JSON.parse(v) : v;
  return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
};

export const SUBSCRIPTION_COLUMNS = `s.id, s.user_id, s.target, s.report_id, s.tab, s.filters, s.columns, s.sort_by, s.sort_dir, s.format,
  s.lang, s.frequency, s.weekday, s.send_time, s.paused, s.next_due_at, s.created_at`;
export const SEND_COLUMNS = `m.id, m.subscription_id, m.due_at, m.status, m.attempts, m.next_attempt_at, m.rows, m.bytes, m.linked, m.reason,
  m.finished_at, m.resolved_filters`;

export function sendItem(r: SendRow): SendItem {
  return {
    id: Number(r.id),
    dueAt: iso(r.due_at),
    status: r.status,
    attempts: r.attempts,
    nextAttemptAt: r.status === 'pending' || r.status === 'retrying' ? isoOrNull(r.next_attempt_at) : null,
    rows: r.rows,
    bytes: r.bytes,
    linked: r.linked,
    reason: r.reason,
    finishedAt: isoOrNull(r.finished_at),
  };
}

export function subscriptionItem(r: SubscriptionRow, title: string, lastSend: SendRow | undefined): SubscriptionItem {
  return {
    id: Number(r.id),
    target: r.target,
    reportId: r.report_id,
    title,
    tab: r.tab,
    filters: jsonObject(r.filters),
    format: r.format,
    lang: r.lang,
    frequency: r.frequency,
    weekday: r.weekday,
    time: r.send_time,
    paused: r.paused,
    nextDueAt: iso(r.next_due_at),
    createdAt: iso(r.created_at),
    lastSend: lastSend ? sendItem(lastSend) : null,
  };
}

/** A subscription with its owner as stored now: what a send reads (scope, level, address, whether active). */
export type SubscriptionWithUser = SubscriptionRow & Omit<UserRow, 'password_hash'> & { email: string | null };

export async function subscriptionWithUser(db: Queryable, id: number): Promise<SubscriptionWithUser | undefined> {
  const r = await db.query<SubscriptionWithUser>(
    `SELECT ${SUBSCRIPTION_COLUMNS}, u.name, u.designation, u.user_level, u.rly_code, u.div_code, u.lobby_code, u.off_code,
            u.off_type, u.mobile_no, u.active, u.email
       FROM mail_subscriptions s JOIN users u ON u.user_id = s.user_id WHERE s.id = $1`,
    [id],
  );
  return r.rows[0];
}
