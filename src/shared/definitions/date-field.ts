/**
 * The one run date of a report's filter, if it has one: the only `format: date` field that is not an end of a
 * date-range rule. It is what "the nearest earlier date with data" moves; reports over a range, or with no date, have
 * none. Works on the inlined filter schema (server and browser alike).
 */
import type { DateRangeRule } from '../report-definition';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function singleDateField(schema: Record<string, unknown>, rules: readonly DateRangeRule[] | undefined): string | undefined {
  const props = isObject(schema.properties) ? schema.properties : {};
  const inRange = new Set((rules ?? []).flatMap((r) => [r.start, r.end]));
  const dates = Object.entries(props).filter(([k, p]) => isObject(p) && p.format === 'date' && !inRange.has(k)).map(([k]) => k);
  return dates.length === 1 && inRange.size === 0 ? dates[0] : undefined;
}

/** The ISO date `days` before an ISO date (calendar arithmetic in UTC, so no time zone shifts it). */
export function daysBefore(iso: string, days: number): string {
  const d = new Date(`${iso}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - days);
  return d.toISOString().slice(0, 10);
}
