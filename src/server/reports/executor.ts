import type { Db, Queryable } from '../db';
import { REPORT_ROLE } from '../db/types';
import type { CheckedView } from '../../shared/definitions/validate';
import { compileNamedSql, SCOPE_TOKEN, withoutFinalOrderBy, type CompiledSql } from '../../shared/definitions/sql-params';
import { CLIENT_PAGING_MAX_ROWS, type ReportResult } from '../../shared/report-definition';
import { HttpError } from '../plugins/errors';
import { scopePredicate, type UserScope } from './scope';
import { jsonRowsSql, reportJsonPlan, sideColumn, sideRows } from './json-rows';

export interface RunOptions {
  sortBy?: string | undefined;
  sortDir?: 'asc' | 'desc' | undefined;
  /** 1-based page (server paging). */
  page?: number | undefined;
  rowsPerPage?: number | undefined;
  /** Statement timeout in ms. */
  timeoutMs: number;
  /** A statement whose rows the answer needs too (its freshness): see SideRead. */
  side?: SideRead | undefined;
}

/**
 * A statement whose rows an answer needs besides its own (its freshness), its parameters numbered from $first; null
 * when there is none. Where the answer is one statement, it rides along as one more column of it (its rows as JSON:
 * one round trip, one snapshot); otherwise it runs on its own in the same report session, after the rows.
 */
export type SideRead = (first: number) => SideStatement | null;
export interface SideStatement {
  sql: string;
  params: unknown[];
  /** Given the statement's rows once read. */
  take(rows: readonly Record<string, unknown>[]): void;
}

/** A side read as a statement of its own (parameters from $1), in a report session. */
async function runSide(query: Db['query'], side: SideRead | undefined): Promise<void> {
  const st = side?.(1);
  if (st) st.take((await query<Record<string, unknown>>(st.sql, st.params)).rows);
}

export const TIMEOUT_MESSAGE = 'The report took too long to run. Narrow the filter (one train, a shorter date range) and try again.';

/** A view's SQL (or its count SQL) with positional parameters, made once per loaded view, not per call. */
const compiledByView = { rows: new WeakMap<CheckedView, CompiledSql>(), count: new WeakMap<CheckedView, CompiledSql>() };
function compiledSql(view: CheckedView, which: 'rows' | 'count'): CompiledSql {
  let compiled = compiledByView[which].get(view);
  if (!compiled) {
    compiled = compileNamedSql(which === 'count' ? (view.countSql ?? view.sql) : view.sql);
    compiledByView[which].set(view, compiled);
  }
  return compiled;
}

/**
 * The view's SQL with values bound and the scope predicate in place; throws 403 when the level has no rule.
 * A name the definition fixes (source.params) takes the fixed value whatever the request holds; any other name
 * takes the filter value, or NULL. Both are bound as parameters, never spliced.
 */
export function buildQuery(
  view: CheckedView,
  values: Record<string, unknown>,
  scope: UserScope,
  which: 'rows' | 'count' = 'rows',
): { sql: string; params: unknown[] } {
  const compiled = compiledSql(view, which);
  // hasOwn: a name like "constructor" must not pick up an inherited property of the object.
  const params: unknown[] = compiled.names.map((n) =>
    Object.hasOwn(view.params, n) ? view.params[n] : ((Object.hasOwn(values, n) ? values[n] : undefined) ?? null),
  );
  const predicate = scopePredicate(scope, view.scope, params.length + 1);
  if (!predicate) throw new HttpError(403, 'This report is not available at your user level');
  params.push(...predicate.params);
  return { sql: compiled.text.split(SCOPE_TOKEN).join(predicate.sql), params };
}

export function orderClause(view: CheckedView, sortBy: string | undefined, sortDir: 'asc' | 'desc' | undefined): string {
  if (!sortBy) return '';
  const col = view.columns.find((c) => c.field === sortBy && c.sortable !== false);
  if (!col) throw new HttpError(400, `Cannot sort by "${sortBy}"`, [{ field: 'sortBy', reason: 'is not a sortable column of this report' }]);
  // The field name comes from the definition, not the request, and matches ^[A-Za-z_][A-Za-z0-9_]*$.
  return ` ORDER BY "${col.field}" ${sortDir === 'desc' ? 'DESC' : 'ASC'} NULLS LAST`;
}

/**
 * Settings every report query runs under, at the start of its transaction (exports' cursors): the report role,
 * which reads domain tables only, and on PostgreSQL the statement timeout.
 */
export async function prepareReportTx(db: Db, tx: Queryable, timeoutMs: number): Promise<void> {
  await tx.exec(`SET LOCAL ROLE ${REPORT_ROLE}`);
  if (db.driver === 'pg') await tx.query(`SET LOCAL statement_timeout = ${Math.floor(timeoutMs)}`);
}

/**
 * PostgreSQL's statement-timeout cancel becomes the 503 users are shown; SQL reaching past the domain tables says so
 * without echoing SQL or table names; any other error is returned as is.
 */
export function asTimeoutError(err: unknown): unknown {
  if (!(err instanceof Error)) return err;
  if (/statement timeout|canceling statement/i.test(err.message)) return new HttpError(503, TIMEOUT_MESSAGE);
  if (/permission denied/i.test(err.message)) return new HttpError(503, 'This report is unavailable: its SQL reads data reports may not read');
  return err;
}

/**
 * Runs report queries as the report role under a statement timeout: PostgreSQL cancels a query past it; PGlite
 * cannot, so the caller is answered at the deadline.
 */
export async function withTimeout<T>(db: Db, timeoutMs: number, work: (q: Db['query']) => Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new HttpError(503, TIMEOUT_MESSAGE)), timeoutMs + 250);
  });
  const run = db.reportSession(timeoutMs, (q) => work((sql, params) => q.query(sql, params)));
  run.catch(() => undefined);
  try {
    return await Promise.race([run, deadline]);
  } catch (err) {
    throw asTimeoutError(err);
  } finally {
    clearTimeout(timer);
  }
}

const unorderedTexts = new Map<string, string>();
/** A report's SQL for counting or summing: its own final ORDER BY dropped (withoutFinalOrderBy), remembered per text. */
function unordered(sql: string): string {
  let text = unorderedTexts.get(sql);
  if (text === undefined) {
    text = withoutFinalOrderBy(sql);
    if (unorderedTexts.size >= 1000) unorderedTexts.clear(); // texts are per view and scope: a handful each
    unorderedTexts.set(sql, text);
  }
  return text;
}

/**
 * The number of rows of a server-paged view: its count SQL (source.count) when it has one, which reads a stored
 * count, else the rows of its SQL counted.
 */
async function countRows(
  query: Db['query'],
  view: CheckedView,
  values: Record<string, unknown>,
  scope: UserScope,
  sql: string,
  params: unknown[],
): Promise<number> {
  if (view.countSql === undefined) {
    return (await query<{ total: number }>(`SELECT count(*)::int AS total FROM (${unordered(sql)}) q`, params)).rows[0]?.total ?? 0;
  }
  const count = buildQuery(view, values, scope, 'count');
  const total = (await query<{ total: unknown }>(count.sql, count.params)).rows[0]?.total;
  // A definition's SQL is data: a count SQL answering anything but one whole number is its author's error, not 0.
  if (typeof total !== 'number' || !Number.isInteger(total) || total < 0) throw new Error(`${view.endpoint}: its count SQL answered ${String(total)}, not a row count`);
  return total;
}

/**
 * LIMIT and OFFSET of one page as bound values, not literals: every page of a report is then one statement text,
 * which the database driver prepares once per session (pg-driver.ts) instead of once per page number.
 */
function pageClause(params: readonly unknown[], rowsPerPage: number, page: number): { sql: string; params: unknown[] } {
  const n = params.length;
  return { sql: ` LIMIT $${n + 1}::int OFFSET $${n + 2}::int`, params: [...params, rowsPerPage, (page - 1) * rowsPerPage] };
}

/** Runs one view of a report: client paging returns every row (up to a cap), server paging one page. */
export async function runView(
  db: Db,
  view: CheckedView,
  values: Record<string, unknown>,
  scope: UserScope,
  opts: RunOptions,
): Promise<ReportResult> {
  const { sql, params } = buildQuery(view, values, scope);
  const order = orderClause(view, opts.sortBy, opts.sortDir);
  const server = view.paging?.mode === 'server';
  return withTimeout(db, opts.timeoutMs, async (query) => {
    if (server) {
      const rowsPerPage = Math.min(Math.max(opts.rowsPerPage ?? view.paging?.pageSize ?? 50, 1), 1000);
      const page = Math.max(opts.page ?? 1, 1);
      const total = await countRows(query, view, values, scope, sql, params);
      const paged = pageClause(params, rowsPerPage, page);
      const rows = (await query(`SELECT * FROM (${sql}) q${order}${paged.sql}`, paged.params)).rows;
      await runSide(query, opts.side);
      return { rows, total, page, rowsPerPage };
    }
    // Client paging: every row up to a cap; past it the first rows and the true total, so the UI can say so.
    const rows = (await query(`SELECT * FROM (${sql}) q${order} LIMIT ${CLIENT_PAGING_MAX_ROWS + 1}`, params)).rows;
    await runSide(query, opts.side);
    if (rows.length <= CLIENT_PAGING_MAX_ROWS) return { rows, total: rows.length, page: 1, rowsPerPage: rows.length };
    const total = (await query<{ total: number }>(`SELECT count(*)::int AS total FROM (${unordered(sql)}) q`, params)).rows[0]?.total ?? 0;
    return { rows: rows.slice(0, CLIENT_PAGING_MAX_ROWS), total, page: 1, rowsPerPage: CLIENT_PAGING_MAX_ROWS };
  });
}

/** A report answer whose rows are JSON text already (runViewJson): total, page and rowsPerPage as in ReportResult. */
export interface ReportJson {
  rowsJson: string;
  total: number;
  page: number;
  rowsPerPage: number;
}

/**
 * runView's answer with the rows as JSON text made by the database (json-rows.ts): the same rows, in the same order
 * and paging, for a fraction of the server's CPU. A view whose column types have no exact JSON form, and a
 * client-paged result past the row cap, go through runView.
 */
export async function runViewJson(
  db: Db,
  view: CheckedView,
  values: Record<string, unknown>,
  scope: UserScope,
  opts: RunOptions,
): Promise<ReportJson> {
  const { sql, params } = buildQuery(view, values, scope);
  const order = orderClause(view, opts.sortBy, opts.sortDir);
  const server = view.paging?.mode === 'server';
  const viaRows = async (): Promise<ReportJson> => {
    const r = await runView(db, view, values, scope, opts);
    return { rowsJson: JSON.stringify(r.rows), total: r.total, page: r.page, rowsPerPage: r.rowsPerPage };
  };
  const answer = await withTimeout(db, opts.timeoutMs, async (query): Promise<ReportJson | null> => {
    const list = await reportJsonPlan(view, query, sql, params);
    if (list === null) return null;
    type Agg = { n: number; rows: string; side?: unknown };
    // The rows as JSON, and the side read (freshness) as one more column of the same statement.
    const withSide = async (inner: string, innerParams: unknown[]): Promise<Agg | undefined> => {
      const side = opts.side?.(innerParams.length + 1);
      const agg = (await query<Agg>(jsonRowsSql(list, inner, side?.sql), side ? [...innerParams, ...side.params] : innerParams)).rows[0];
      if (side) side.take(sideRows(agg?.side));
      return agg;
    };
    if (server) {
      const rowsPerPage = Math.min(Math.max(opts.rowsPerPage ?? view.paging?.pageSize ?? 50, 1), 1000);
      const page = Math.max(opts.page ?? 1, 1);
      const total = await countRows(query, view, values, scope, sql, params);
      const paged = pageClause(params, rowsPerPage, page);
      const agg = await withSide(`SELECT * FROM (${sql}) q${order}${paged.sql}`, paged.params);
      return { rowsJson: agg?.rows ?? '[]', total, page, rowsPerPage };
    }
    const agg = await withSide(`SELECT * FROM (${sql}) q${order} LIMIT ${CLIENT_PAGING_MAX_ROWS + 1}`, params);
    const n = agg?.n ?? 0;
    if (n > CLIENT_PAGING_MAX_ROWS) return null; // past the cap: the first rows and the true total, as runView does
    return { rowsJson: agg?.rows ?? '[]', total: n, page: 1, rowsPerPage: n };
  });
  return answer ?? viaRows();
}

/** What `?aggregate=` asks of a view: its rows counted, or counted and one numeric column summed. */
export interface AggregateRequest {
  sumOf?: string | undefined;
}

export interface ViewAggregate {
  count: number;
  sum?: number;
}

/**
 * One figure over the whole result of a view, computed by the database: the dashboard's stat cards ask for it
 * instead of fetching every row (at national size a card's list passes the client-paging cap, and a phone should
 * not download 60,000 rows to show one number). The column is one of the view's own, never a name from the request.
 */
export async function aggregateView(
  db: Db,
  view: CheckedView,
  values: Record<string, unknown>,
  scope: UserScope,
  req: AggregateRequest,
  timeoutMs: number,
  side?: SideRead,
): Promise<ViewAggregate> {
  const { sql, params } = buildQuery(view, values, scope);
  const col = req.sumOf === undefined ? undefined : view.columns.find((c) => c.field === req.sumOf);
  if (req.sumOf !== undefined && !col) {
    throw new HttpError(400, `Cannot sum "${req.sumOf}"`, [{ field: 'aggregate', reason: 'names no column of this report' }]);
  }
  // The field name comes from the definition (validated ^[A-Za-z_][A-Za-z0-9_]*$), so quoting it is safe.
  const sum = col ? `, sum("${col.field}")::float8 AS s` : '';
  return withTimeout(db, timeoutMs, async (query) => {
    // The side read (freshness) as one more column of the same statement.
    const st = side?.(params.length + 1);
    const row = (
      await query<{ n: number | string; s?: number | string | null; side?: unknown }>(
        `SELECT count(*)::float8 AS n${sum}${st ? `, ${sideColumn(st.sql)} AS side` : ''} FROM (${unordered(sql)}) q`,
        st ? [...params, ...st.params] : params,
      )
    ).rows[0];
    if (st) st.take(sideRows(row?.side));
    const count = Number(row?.n ?? 0);
    return col ? { count, sum: Number(row?.s ?? 0) } : { count };
  });
}

/** `?aggregate=count` or `?aggregate=sum:<column>`; anything else is a 400 naming the parameter. */
export function parseAggregate(raw: string): AggregateRequest {
  if (raw === 'count') return {};
  const m = /^sum:([A-Za-z_][A-Za-z0-9_]*)$/.exec(raw);
  if (!m) throw new HttpError(400, 'aggregate must be "count" or "sum:<column>"', [{ field: 'aggregate', reason: 'must be "count" or "sum:<column>"' }]);
  return { sumOf: m[1] };
}
