/**
 * The freshness of a report answer, defined once for every report from its filter, not per report: the runs an
 * answer covers are those of the filter's train (fields/train-no.json), its single date or date range (run start
 * dates) and its zone/division/lobby fields, within the user's scope; the answer is as of the latest record
 * terminals synced for those runs (checking events through rollup_sync, whose last_sync_at is their latest
 * sync_time, and EFTs). A filter naming one train and one date is one run: each of its beats gets its last sync,
 * its lag behind the answer's time and whether it is stale. A definition may opt out (freshness.basis "none") or
 * set its stale limit (freshness.staleAfterMinutes).
 */
import type { CheckedReport } from '../../shared/definitions/validate';
import { FRESHNESS_STALE_AFTER_MINUTES, type BeatFreshness, type Freshness } from '../../shared/freshness';
import { singleDateField } from '../../shared/definitions/date-field';
import { scopePredicate, type UserScope } from './scope';
import type { SideRead } from './executor';

/** Which filter fields say which runs an answer covers, found from the shared field each one references. */
export interface RunFilterFields {
  train?: string;
  /** One run date, or the two ends of a date range. */
  date?: string;
  range?: { start: string; end: string };
  zone?: string;
  division?: string;
  lobby?: string;
}

const FIELD_ROLES: Record<string, 'train' | 'zone' | 'division' | 'lobby'> = {
  'fields/train-no.json': 'train',
  'fields/zone.json': 'zone',
  'fields/division.json': 'division',
  'fields/lobby.json': 'lobby',
};

const byReport = new WeakMap<CheckedReport, RunFilterFields>();

export function runFilterFields(report: CheckedReport): RunFilterFields {
  let found = byReport.get(report);
  if (found) return found;
  found = {};
  const props = report.definition.filter.schema.properties ?? {};
  for (const [key, prop] of Object.entries(props)) {
    const ref = typeof prop === 'object' && prop !== null && '$ref' in prop ? (prop as { $ref?: unknown }).$ref : undefined;
    const role = typeof ref === 'string' ? FIELD_ROLES[ref] : undefined;
    if (role && found[role] === undefined) found[role] = key;
  }
  const rules = report.definition.filter.rules;
  const date = singleDateField(report.filterSchema, rules);
  if (date) found.date = date;
  else if (rules?.[0]) found.range = { start: rules[0].start, end: rules[0].end };
  byReport.set(report, found);
  return found;
}

/** The stale limit of a report (minutes). */
export const staleAfterMinutes = (report: CheckedReport): number => report.definition.freshness?.staleAfterMinutes ?? FRESHNESS_STALE_AFTER_MINUTES;

/** Whether answers of the report carry a freshness at all. */
export const hasFreshness = (report: CheckedReport): boolean => report.definition.freshness?.basis !== 'none';

const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

/**
 * SQL conditions and bound values narrowing one table (by its alias) to the runs an answer covers; the values are
 * numbered from $first, so the conditions can join a statement that already has parameters.
 */
function runConditions(
  fields: RunFilterFields,
  values: Record<string, unknown>,
  scope: UserScope,
  cols: { scopeAlias: string; runAlias: string },
  first: number,
): { where: string; params: unknown[] } | null {
  const params: unknown[] = [];
  const where: string[] = [];
  const add = (sql: (n: number) => string, value: unknown): void => {
    params.push(value);
    where.push(sql(first + params.length - 1));
  };
  const s = cols.scopeAlias;
  const r = cols.runAlias;
  const pred = scopePredicate(scope, { zone: `${s}.zone_code`, division: `${s}.div_code`, lobby: `${s}.lobby_code` }, first);
  if (!pred) return null;
  if (pred.params.length > 0) add(() => pred.sql, pred.params[0]);
  const train = fields.train ? text(values[fields.train]) : null;
  if (train) add((n) => `${r}.train_no = $${n}`, train);
  const date = fields.date ? text(values[fields.date]) : null;
  if (date) add((n) => `${r}.start_date = $${n}::date`, date);
  const from = fields.range ? text(values[fields.range.start]) : null;
  const to = fields.range ? text(values[fields.range.end]) : null;
  if (from) add((n) => `${r}.start_date >= $${n}::date`, from);
  if (to) add((n) => `${r}.start_date <= $${n}::date`, to);
  for (const [role, column] of [['zone', 'zone_code'], ['division', 'div_code'], ['lobby', 'lobby_code']] as const) {
    const field = fields[role];
    const v = field ? values[field] : undefined;
    if (typeof v === 'string' && v !== '') add((n) => `${s}.${column} = $${n}`, v);
    else if (Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === 'string')) add((n) => `${s}.${column} = ANY($${n}::text[])`, v);
  }
  return { where: where.length > 0 ? where.join(' AND ') : 'TRUE', params };
}

/**
 * A time as the statements give it: whole milliseconds since the epoch (msSql), so no text is parsed; the floor is
 * what the driver's parse of the timestamp gave (sub-millisecond digits dropped). Anything else is no time.
 */
const msSql = (expr: string): string => `floor(extract(epoch FROM ${expr}) * 1000)::float8`;
const ms = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const iso = (t: number | null): string | null => (t === null ? null : new Date(t).toISOString());

/** A beat's row as the freshness statement gives it. */
interface BeatRow { beatNo: number; tteId: string; deviceId: string | null; signOnAt: number | null; signOffAt: number | null; lastSync: number | null }

function beatRow(r: Record<string, unknown>): BeatRow {
  const { beat_no: beatNo, tte_id: tteId, device_id: deviceId } = r;
  if (typeof beatNo !== 'number' || typeof tteId !== 'string' || !(deviceId === null || typeof deviceId === 'string')) {
    throw new Error(`freshness: a beat row is not one: ${JSON.stringify(r).slice(0, 200)}`);
  }
  return { beatNo, tteId, deviceId, signOnAt: ms(r.sign_on_at), signOffAt: ms(r.sign_off_at), lastSync: ms(r.last_sync) };
}

/**
 * The freshness of an answer as one SQL statement (parameters numbered from $first) and what makes the Freshness of
 * its rows. Null when the definition opts out or the user's level has no scope (the report refuses them).
 */
export interface FreshnessStatement {
  sql: string;
  params: unknown[];
  /** The Freshness from the statement's rows. */
  fromRows(rows: readonly Record<string, unknown>[]): Freshness;
}

export function freshnessStatement(
  report: CheckedReport,
  values: Record<string, unknown>,
  scope: UserScope,
  now: Date,
  first = 1,
): FreshnessStatement | null {
  if (!hasFreshness(report)) return null;
  const fields = runFilterFields(report);
  const limit = staleAfterMinutes(report);
  const base = (): Freshness => ({ asOf: null, computedAt: now.toISOString(), staleAfterMinutes: limit });
  const oneRun = fields.train !== undefined && fields.date !== undefined && text(values[fields.train]) !== null && text(values[fields.date]) !== null;
  if (oneRun) {
    const beats = runConditions(fields, values, scope, { scopeAlias: 'b', runAlias: 'tr' }, first);
    if (!beats) return null;
    // One run: every synced record of it belongs to a beat (rollup_sync by the beat's TTE, EFTs by beat), so the
    // answer's as-of is the latest of its beats' and one query gives both.
    return {
      sql: `SELECT b.beat_no, b.tte_id, b.device_id, ${msSql('b.sign_on_at')} AS sign_on_at, ${msSql('b.sign_off_at')} AS sign_off_at,
                ${msSql(`greatest((SELECT max(rs.last_sync_at) FROM rollup_sync rs WHERE rs.run_id = b.run_id AND rs.tte_id = b.tte_id),
                         (SELECT max(ef.synced_at) FROM efts ef WHERE ef.run_id = b.run_id AND ef.beat_id = b.beat_id))`)} AS last_sync
           FROM beats b JOIN train_runs tr ON tr.run_id = b.run_id
          WHERE ${beats.where}
          ORDER BY b.beat_no`,
      params: beats.params,
      fromRows: (rows) => {
        const out = base();
        let latest: number | null = null;
        out.beats = rows.map((r) => {
          const b = beatRow(r);
          if (b.lastSync !== null && (latest === null || b.lastSync > latest)) latest = b.lastSync;
          return beatFreshness(b, now, limit);
        });
        out.asOf = iso(latest);
        return out;
      },
    };
  }
  // Two subqueries, each with its own parameters: the second's numbers follow the first's.
  const events = runConditions(fields, values, scope, { scopeAlias: 'rs', runAlias: 'rs' }, first);
  const efts = events && runConditions(fields, values, scope, { scopeAlias: 'e', runAlias: 'tr' }, first + events.params.length);
  if (!events || !efts) return null;
  return {
    sql: `SELECT ${msSql(`greatest(
           (SELECT max(rs.last_sync_at) FROM rollup_sync rs WHERE ${events.where}),
           (SELECT max(e.synced_at) FROM efts e JOIN train_runs tr ON tr.run_id = e.run_id WHERE ${efts.where}))`)} AS as_of`,
    params: [...events.params, ...efts.params],
    fromRows: (rows) => ({ ...base(), asOf: iso(ms(rows[0]?.as_of)) }),
  };
}

/**
 * The freshness as a read that rides along with the answer's own statement (SideRead, executor.ts): rows and
 * freshness then come in one round trip and from one snapshot. `got()` is the Freshness once read (null before it
 * is, or when the definition opts out or the level has no scope).
 */
export function freshnessSide(
  report: CheckedReport,
  values: Record<string, unknown>,
  scope: UserScope,
  now: Date,
): { side: SideRead; got: () => Freshness | null } {
  let freshness: Freshness | null = null;
  const side: SideRead = (first) => {
    const st = freshnessStatement(report, values, scope, now, first);
    return st && { sql: st.sql, params: st.params, take: (rows) => void (freshness = st.fromRows(rows)) };
  };
  return { side, got: () => freshness };
}

/** One beat's last sync, lag and staleness at `now`. */
export function beatFreshness(b: BeatRow, now: Date, limitMinutes: number): BeatFreshness {
  const t = now.getTime();
  const onDuty = b.signOnAt !== null && b.signOnAt <= t && (b.signOffAt === null || b.signOffAt > t);
  const lagMinutes = b.lastSync === null ? null : Math.max(0, Math.round((t - b.lastSync) / 60_000));
  // Nothing synced since sign-on counts from the sign-on.
  const since = b.lastSync ?? b.signOnAt;
  const stale = onDuty && since !== null && t - since > limitMinutes * 60_000;
  return { beatNo: b.beatNo, tteId: b.tteId, deviceId: b.deviceId, lastSyncAt: iso(b.lastSync), lagMinutes, onDuty, stale };
}
