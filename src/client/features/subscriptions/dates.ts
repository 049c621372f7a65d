import { resolveDefault } from '../../../shared/definitions/filter-widgets';
import { RELATIVE_DATES } from '../../../shared/subscriptions';

/** Today in India (railway days are Indian days), 'YYYY-MM-DD'. */
export function todayIst(now = new Date()): string {
  return new Date(now.getTime() + 330 * 60_000).toISOString().slice(0, 10);
}

/**
 * What a date on the page most likely means in a subscription: today's date is "the day of the e-mail", yesterday's
 * "the day before" (and so on for the offsets offered); any other date stays fixed.
 */
export function relativeChoice(date: string, today: string): string {
  return RELATIVE_DATES.find((r) => resolveDefault(r, today) === date) ?? 'fixed';
}

const DAY_KEYS = [
  'subscriptions.days.1', 'subscriptions.days.2', 'subscriptions.days.3', 'subscriptions.days.4',
  'subscriptions.days.5', 'subscriptions.days.6', 'subscriptions.days.7',
] as const;

/** The text key of an ISO weekday (1 = Monday). */
export const dayKey = (d: number): (typeof DAY_KEYS)[number] => DAY_KEYS[d - 1] ?? DAY_KEYS[0];

/** The text key of each relative date offered. */
export const RELATIVE_DATE_KEYS = {
  '$today': 'subscriptions.dateToday',
  '$today-1': 'subscriptions.dateYesterday',
  '$today-7': 'subscriptions.dateWeek',
  '$today-30': 'subscriptions.dateMonth',
} as const;
