/**
 * How fresh a report answer is (docs/report-definitions.md, "Freshness"): the time of the latest record terminals
 * synced for the runs the answer covers and, for one train run, each beat's last sync. Sent in every report answer
 * as `freshness`; an answer served again from the server's result cache also carries an `Age` header (seconds).
 */

/** A beat on duty with no sync for longer than this is stale, unless its definition says otherwise. */
export const FRESHNESS_STALE_AFTER_MINUTES = 60;

export interface BeatFreshness {
  beatNo: number;
  tteId: string;
  deviceId: string | null;
  /** Latest sync of the beat's records (checking events, EFTs); null when nothing has synced yet. */
  lastSyncAt: string | null;
  /** Minutes from that sync to the answer's time (computedAt); null without a sync. */
  lagMinutes: number | null;
  /** Signed on and not signed off at the answer's time. */
  onDuty: boolean;
  /** On duty and no sync for longer than staleAfterMinutes (counted from sign-on when nothing has synced). */
  stale: boolean;
}

export interface Freshness {
  /** The latest synced record among the runs the answer covers; null when none has synced. */
  asOf: string | null;
  /** Server time the answer was computed at. */
  computedAt: string;
  staleAfterMinutes: number;
  /** One train run's beats (reports whose filter names one train and one date), in beat order. */
  beats?: BeatFreshness[];
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isTime = (v: unknown): v is string => typeof v === 'string' && !Number.isNaN(Date.parse(v));
const timeOrNull = (v: unknown): string | null | undefined => (v === null ? null : isTime(v) ? v : undefined);

function parseBeat(v: unknown): BeatFreshness | null {
  if (!isObject(v)) return null;
  const lastSyncAt = timeOrNull(v.lastSyncAt);
  const { beatNo, tteId, deviceId, lagMinutes, onDuty, stale } = v;
  if (typeof beatNo !== 'number' || typeof tteId !== 'string' || lastSyncAt === undefined) return null;
  if (!(deviceId === null || typeof deviceId === 'string') || !(lagMinutes === null || typeof lagMinutes === 'number')) return null;
  if (typeof onDuty !== 'boolean' || typeof stale !== 'boolean') return null;
  return { beatNo, tteId, deviceId, lastSyncAt, lagMinutes, onDuty, stale };
}

/** A report answer's `freshness`, checked; null when absent or malformed (the original backend sends none). */
export function parseFreshness(v: unknown): Freshness | null {
  if (!isObject(v)) return null;
  const asOf = timeOrNull(v.asOf);
  if (asOf === undefined || !isTime(v.computedAt) || typeof v.staleAfterMinutes !== 'number') return null;
  const out: Freshness = { asOf, computedAt: v.computedAt, staleAfterMinutes: v.staleAfterMinutes };
  if (Array.isArray(v.beats)) {
    const beats = v.beats.map(parseBeat);
    if (beats.some((b) => b === null)) return null;
    out.beats = beats as BeatFreshness[];
  }
  return out;
}
