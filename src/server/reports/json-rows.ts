import type { Queryable } from '../db';
import type { CheckedView } from '../../shared/definitions/validate';

/**
 * Report rows as JSON text made by PostgreSQL (json_agg), so the server neither parses each row into objects nor
 * serialises them again: on a 260-row report that was a third of the server's CPU per call. The text must mean
 * exactly what the row path (driver parsers, then JSON.stringify) gives once parsed, so a column is taken as it is
 * only for types whose JSON is the same value, converted for the few whose JSON differs, and a view with any other
 * type keeps the row path (reportJsonPlan returns null).
 */

const T = {
  BOOL: 16, INT8: 20, INT2: 21, INT4: 23, TEXT: 25, NAME: 19, JSON: 114, FLOAT4: 700, FLOAT8: 701, BPCHAR: 1042,
  VARCHAR: 1043, DATE: 1082, TIMESTAMP: 1114, TIMESTAMPTZ: 1184, NUMERIC: 1700, UUID: 2950, JSONB: 3802,
  TEXT_ARRAY: 1009, VARCHAR_ARRAY: 1015, INT4_ARRAY: 1007, INT2_ARRAY: 1005,
} as const;

/** JSON of these is the value the row path gives (numbers, text, booleans, JSON, arrays of text or int4/int2). */
const AS_IS = new Set<number>([T.BOOL, T.INT8, T.INT2, T.INT4, T.TEXT, T.NAME, T.JSON, T.BPCHAR, T.VARCHAR, T.UUID, T.JSONB, T.TEXT_ARRAY, T.VARCHAR_ARRAY, T.INT4_ARRAY, T.INT2_ARRAY]);

const quote = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/** The select-list item for one column of q, or null when its type has no exact JSON form here. */
function columnJson(name: string, type: number): string | null {
  const col = `q.${quote(name)}`;
  if (AS_IS.has(type)) return col;
  switch (type) {
    // The row path parses these to JS numbers; NaN and ±Infinity become null in JSON.stringify, but PostgreSQL's
    // JSON writes them as strings.
    case T.NUMERIC:
    case T.FLOAT4:
    case T.FLOAT8:
      return `CASE WHEN ${col} IN ('NaN', 'Infinity', '-Infinity') THEN NULL ELSE ${col} END AS ${quote(name)}`;
    // The row path keeps the server's text of dates and timestamps (textParsers); JSON would write ISO with a 'T'.
    case T.DATE:
    case T.TIMESTAMP:
      return `${col}::text AS ${quote(name)}`;
    // The row path makes a Date, which JSON.stringify writes as toISOString(): UTC, milliseconds, 'Z'.
    case T.TIMESTAMPTZ:
      return `CASE WHEN isfinite(${col}) THEN to_char(${col} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') END AS ${quote(name)}`;
    default:
      return null;
  }
}

/** The select list turning q's columns into their JSON-ready form, or null: keep the row path for this view. */
export function jsonSelectList(fields: readonly string[], types: readonly number[]): string | null {
  if (fields.length === 0 || fields.length !== types.length) return null;
  if (new Set(fields).size !== fields.length) return null; // duplicate names: the row path keeps the last
  const items: string[] = [];
  for (let i = 0; i < fields.length; i += 1) {
    const item = columnJson(fields[i] as string, types[i] as number);
    if (item === null) return null;
    items.push(item);
  }
  return items.join(', ');
}

/** Select lists per view, learnt once per view (a LIMIT 0 run of its SQL): types do not depend on the values. */
const plans = new WeakMap<CheckedView, string | null>();

/** The select list learnt for a view: undefined before its first run, null when it keeps the row path. */
export function learntJsonPlan(view: CheckedView): string | null | undefined {
  return plans.get(view);
}

export async function reportJsonPlan(view: CheckedView, query: Queryable['query'], sql: string, params: unknown[]): Promise<string | null> {
  if (plans.has(view)) return plans.get(view) ?? null;
  const probe = await query(`SELECT * FROM (${sql}) q LIMIT 0`, params);
  const list = probe.fields && probe.types ? jsonSelectList(probe.fields, probe.types) : null;
  plans.set(view, list);
  return list;
}

/**
 * One statement: the row count and the rows' JSON array of a query (its own ORDER BY and LIMIT inside), and with
 * `sideSql` the rows of another statement as a third column, `side` (sideColumn).
 */
export function jsonRowsSql(selectList: string, innerSql: string, sideSql?: string): string {
  const side = sideSql === undefined ? '' : `, ${sideColumn(sideSql)} AS side`;
  return `SELECT count(*)::int AS n, coalesce(json_agg(j), '[]')::text AS rows${side} FROM (SELECT ${selectList} FROM (${innerSql}) q) j`;
}

/**
 * Another statement's rows as one value of a statement (JSON text of an array of row objects), so a report answer
 * and what it needs besides (its freshness) come in one round trip. Uncorrelated: PostgreSQL runs it once.
 */
export function sideColumn(sql: string): string {
  return `(SELECT coalesce(json_agg(s), '[]')::text FROM (${sql}) s)`;
}

/** The rows of a sideColumn value; anything else is an error (the SQL is ours, so it is a bug, not bad input). */
export function sideRows(value: unknown): Record<string, unknown>[] {
  const rows: unknown = typeof value === 'string' ? JSON.parse(value) : value;
  if (!Array.isArray(rows) || !rows.every((r) => typeof r === 'object' && r !== null && !Array.isArray(r))) {
    throw new Error(`a side read gave ${String(value).slice(0, 100)}, not rows`);
  }
  return rows as Record<string, unknown>[];
}
