import type { Train } from '../reference';

export const DAY_MS = 86_400_000;
export const MIN_MS = 60_000;
export const IST_OFFSET_MIN = 330;
export const EPOCH_2000 = Date.UTC(2000, 0, 1);

export function dayIndex(date: string): number {
  const [y, m, d] = date.split('-').map((x) => Number.parseInt(x, 10)) as [number, number, number];
  return Math.round((Date.UTC(y, m - 1, d) - EPOCH_2000) / DAY_MS);
}

export function dateOfIndex(idx: number): string {
  return new Date(EPOCH_2000 + idx * DAY_MS).toISOString().slice(0, 10);
}

export function addDays(date: string, days: number): string {
  return dateOfIndex(dayIndex(date) + days);
}

/** Monday = 0 .. Sunday = 6, matching trains.run_days. */
export function weekdayMon0(date: string): number {
  return (new Date(EPOCH_2000 + dayIndex(date) * DAY_MS).getUTCDay() + 6) % 7;
}

export function runsOn(train: Train, date: string): boolean {
  return train.row.run_days[weekdayMon0(date)] === 'Y';
}

export function runIdOf(trainNo: string, date: string): number {
  return dayIndex(date) * 100000 + Number.parseInt(trainNo, 10);
}

export const iso = (ms: number): string => new Date(ms).toISOString();
export const pad = (n: number, w: number): string => String(n).padStart(w, '0');
