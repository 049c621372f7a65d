import { resolveDefault } from '../../shared/definitions/filter-widgets';
import { istDate } from '../clock';

const IST_MS = 330 * 60_000;
const DAY_MS = 86_400_000;

export interface Timing {
  frequency: 'daily' | 'weekly';
  /** ISO weekday 1 (Monday) .. 7 (Sunday); weekly only. */
  weekday: number | null;
  /** 'HH:MM' in India. */
  time: string;
}

/** The instant of `time` (India) on the Indian calendar day `date` ('YYYY-MM-DD'). */
function istInstant(date: string, time: string): number {
  const [h = 0, m = 0] = time.split(':').map(Number);
  return Date.parse(`${date}T00:00:00Z`) + (h * 60 + m) * 60_000 - IST_MS;
}

const isoWeekday = (date: string): number => {
  const d = new Date(`${date}T00:00:00Z`).getUTCDay();
  return d === 0 ? 7 : d;
};

const addDays = (date: string, n: number): string => new Date(Date.parse(`${date}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);

/** The first send time strictly after `after`. */
export function nextDue(t: Timing, after: Date): Date {
  let day = istDate(after);
  for (let i = 0; i < 9; i += 1, day = addDays(day, 1)) {
    if (t.frequency === 'weekly' && isoWeekday(day) !== t.weekday) continue;
    const at = istInstant(day, t.time);
    if (at > after.getTime()) return new Date(at);
  }
  throw new Error(`no send time found after ${after.toISOString()}`);
}

/** The latest send time at or before `at` (a sender that was down for days mails the latest due time only). */
export function latestDue(t: Timing, at: Date): Date {
  const step = t.frequency === 'weekly' ? 7 * DAY_MS : DAY_MS;
  // nextDue of a moment one period back is at most `at` away from `at`; walk forward while still not past `at`.
  let due = nextDue(t, new Date(at.getTime() - step));
  for (;;) {
    const following = nextDue(t, due);
    if (following.getTime() > at.getTime()) return due;
    due = following;
  }
}

/** The subscription's filters for a send on `now`: relative dates ('$today-1') made the Indian calendar's dates. */
export function resolveFilters(filters: Record<string, unknown>, now: Date): Record<string, unknown> {
  const today = istDate(now);
  return Object.fromEntries(Object.entries(filters).map(([k, v]) => [k, resolveDefault(v, today)]));
}
