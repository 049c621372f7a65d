import type { Db } from '../db';
import type { CheckedView } from '../../shared/definitions/validate';
import { daysBefore } from '../../shared/definitions/date-field';
import { aggregateView } from './executor';
import type { UserScope } from './scope';

/** How far back "the nearest earlier date with data" looks: the demo and the retention keep about a month. */
export const NEAREST_DAYS_BACK = 31;

export interface NearestDate {
  field: string;
  date: string;
  count: number;
}

/**
 * The latest date before the filter's own on which the same filter (in the user's scope) gives rows: the view's
 * SQL counted day by day backwards, stopping at the first day with rows. Null when none within NEAREST_DAYS_BACK.
 */
export async function nearestEarlierDate(
  db: Db,
  view: CheckedView,
  values: Record<string, unknown>,
  scope: UserScope,
  field: string,
  timeoutMs: number,
): Promise<NearestDate | null> {
  const from = values[field];
  if (typeof from !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(from)) return null;
  for (let back = 1; back <= NEAREST_DAYS_BACK; back++) {
    const date = daysBefore(from, back);
    const { count } = await aggregateView(db, view, { ...values, [field]: date }, scope, {}, timeoutMs);
    if (count > 0) return { field, date, count };
  }
  return null;
}
