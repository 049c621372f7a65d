/** E-mail subscriptions: the API's payloads, shared by the server and the client. */

export const SUBSCRIPTION_FORMATS = ['csv', 'xlsx', 'pdf'] as const;
export type SubscriptionFormat = (typeof SUBSCRIPTION_FORMATS)[number];
export const SUBSCRIPTION_FREQUENCIES = ['daily', 'weekly'] as const;
export type SubscriptionFrequency = (typeof SUBSCRIPTION_FREQUENCIES)[number];
export const SUBSCRIPTION_TARGETS = ['report', 'dashboard'] as const;
export type SubscriptionTarget = (typeof SUBSCRIPTION_TARGETS)[number];
export const SEND_STATUSES = ['pending', 'sending', 'retrying', 'sent', 'failed', 'skipped'] as const;
export type SendStatus = (typeof SEND_STATUSES)[number];

/**
 * Relative dates a date filter may hold in a subscription, resolved on the day of each send (India's calendar):
 * the same tokens report definitions use for their defaults.
 */
export const RELATIVE_DATES = ['$today', '$today-1', '$today-7', '$today-30'] as const;
export type RelativeDate = (typeof RELATIVE_DATES)[number];
export const isRelativeDate = (v: unknown): v is RelativeDate => typeof v === 'string' && (RELATIVE_DATES as readonly string[]).includes(v);

/** 'HH:MM', 24-hour, India time. */
export const SEND_TIME_PATTERN = '^([01][0-9]|2[0-3]):[0-5][0-9]$';

/** What the client sends to create a subscription. */
export interface SubscriptionInput {
  target: SubscriptionTarget;
  /** A report id (target 'report'). */
  reportId?: string;
  tab?: string;
  /** The report page's current filter; a date field may hold a relative date instead of a date. */
  filters?: Record<string, unknown>;
  columns?: string[];
  sortBy?: string;
  sortDir?: 'asc' | 'desc';
  format: SubscriptionFormat;
  lang: 'en' | 'hi';
  frequency: SubscriptionFrequency;
  /** ISO weekday, 1 = Monday .. 7 = Sunday (weekly only). */
  weekday?: number;
  /** India time of day, 'HH:MM'. */
  time: string;
}

export interface SendItem {
  id: number;
  dueAt: string;
  status: SendStatus;
  attempts: number;
  nextAttemptAt: string | null;
  rows: number | null;
  bytes: number | null;
  /** The file was over the size limit: the mail carried a link to the report instead. */
  linked: boolean;
  /** Why a send was skipped or failed (or the last error of one being retried). */
  reason: string | null;
  finishedAt: string | null;
}

export interface SubscriptionItem {
  id: number;
  target: SubscriptionTarget;
  reportId: string | null;
  /** The report's title (and tab), in the language the request asked for (Accept-Language). */
  title: string;
  tab: string | null;
  filters: Record<string, unknown>;
  format: SubscriptionFormat;
  lang: 'en' | 'hi';
  frequency: SubscriptionFrequency;
  weekday: number | null;
  time: string;
  paused: boolean;
  nextDueAt: string;
  createdAt: string;
  lastSend: SendItem | null;
}

/** GET /api/subscriptions/status: whether mail is on, and the address sends go to. */
export interface MailStatus {
  enabled: boolean;
  email: string | null;
  maxMb: number;
}

export const SUBSCRIPTION_MESSAGES = {
  off: 'E-mail subscriptions are off on this portal: no mail server is configured.',
  noEmail: 'Add your e-mail address to your profile before subscribing.',
  notFound: 'No such subscription of yours.',
} as const;

/**
 * An e-mail address as the profile accepts it: one '@', a dotted domain, no spaces or angle brackets (it goes into a
 * mail header), at most 254 characters.
 */
export function isEmailAddress(v: string): boolean {
  return v.length <= 254 && /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/.test(v);
}
