import { hash } from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFromStdin } from 'pg-copy-streams';
import { PreparedPlans } from './prepared-plans';
import { mayWrite, noteLocalWrite, trackWrites } from './write-generation';
import { checkBatchSize, checkChannel, copyStatement, DEFAULT_REPORT_WORK_MEM, nextCursorName, REPORT_ROLE, textParsers, type Db, type IterateOptions, type ListenHandlers, type Listener, type Queryable } from './types';

const types = {
  getTypeParser: (oid: number, format?: string) => textParsers[oid] ?? pg.types.getTypeParser(oid, format as 'text'),
};

export interface PgOpenOptions {
  /** Connect once while opening, so an unreachable server fails at start (default true; replicas may be down). */
  checkOnOpen?: boolean;
  /** Time to wait for a connection, ms (default 5000). */
  connectTimeoutMs?: number;
  /** application_name of every session (shown in pg_stat_activity), e.g. to tell replica reads apart. */
  applicationName?: string;
  /** work_mem of report sessions (default DEFAULT_REPORT_WORK_MEM). */
  reportWorkMem?: string;
}

/** Session settings of every connection: no JIT compilation (see openPg). */
export const NO_JIT = '-c jit=off';

/** Most report statements one session keeps prepared; past it, statements run unprepared (planned each time). */
export const PREPARED_PER_SESSION = 256;
/** Per session: for each statement it prepared, whether it is usable and how many times it ran. */
const preparedBySession = new WeakMap<pg.PoolClient, Map<string, { usable: boolean; runs: number }>>();
/** The error PostgreSQL gives when a prepared statement's tables changed shape under it. */
const CACHED_PLAN_CHANGED = '0A000';

/** Statement names by text, digested once per distinct text (texts are per view, scope and paging: a bounded set). */
const statementNames = new Map<string, string>();
function statementName(sql: string): string {
  let name = statementNames.get(sql);
  if (name === undefined) {
    name = `r_${hash('sha1', sql, 'base64url')}`;
    if (statementNames.size >= 2_000) statementNames.clear();
    statementNames.set(sql, name);
  }
  return name;
}

/**
 * A report session's queries as prepared statements, named by a digest of their text and prepared once per session:
 * on the partitioned tables PostgreSQL spends as long planning a one-train report as running it (planning 0.1-1.0 ms
 * of 0.2-1.9 ms measured for the load bench's six reports), and a prepared statement is planned once for all values
 * when PostgreSQL judges a generic plan as good (plan_cache_mode auto). Where that judgement is wrong, `plans`
 * (prepared-plans.ts) sees the later executions slow down, tries them unprepared alongside, and the statement runs
 * unprepared from then on if that is clearly faster. Each page of a report is one text (executor.ts binds LIMIT and
 * OFFSET), so what a session keeps is bounded by the views it ran, and by PREPARED_PER_SESSION.
 */
function preparedQueryable(c: pg.PoolClient, plans: PreparedPlans): Queryable {
  let known = preparedBySession.get(c);
  if (!known) {
    known = new Map();
    preparedBySession.set(c, known);
  }
  const session = known;
  return {
    query: async (sql, params) => {
      const values = params ? [...params] : undefined;
      const name = statementName(sql);
      const mine = session.get(name);
      const kind = plans.next(name);
      const named = kind === 'prepared' && (mine ? mine.usable : session.size < PREPARED_PER_SESSION);
      let r: pg.QueryResult;
      try {
        const run = plans.begin();
        const t0 = performance.now();
        let solo = false;
        try {
          r = named ? await c.query({ name, text: sql, values }) : await c.query(sql, values);
        } finally {
          solo = plans.end(run);
        }
        if (named) {
          const entry = mine ?? { usable: true, runs: 0 };
          entry.runs += 1;
          session.set(name, entry);
          plans.note(name, entry.runs, performance.now() - t0, 'prepared', solo);
        } else if (kind === 'unprepared') {
          plans.note(name, 0, performance.now() - t0, 'unprepared', solo); // a trial's unprepared run
        }
      } catch (err) {
        // A table changed under the prepared statement (a migration while serving): unprepared from now on.
        if (!named || (err as { code?: unknown }).code !== CACHED_PLAN_CHANGED) throw err;
        session.set(name, { usable: false, runs: mine?.runs ?? 0 });
        r = await c.query(sql, values);
      }
      return { rows: r.rows, fields: r.fields.map((f) => f.name), types: r.fields.map((f) => f.dataTypeID) };
    },
    exec: async (sql) => {
      await c.query(sql);
    },
  };
}

/** Connections each pool of a server process holds at most (the main pool and each report pool). */
export const POOL_MAX = 10;

export async function openPg(connectionString: string, opts: PgOpenOptions = {}): Promise<Db> {
  // JIT off in every session (docs/decisions.md, "JIT off"): over the daily partitions the planner's costs pass
  // PostgreSQL's JIT thresholds, and compiling took 12-25 s for reports that run in 0.7-3.8 s without it; a JIT
  // compile does not check for interrupts, so neither the statement timeout nor a cancel stopped it.
  const base = {
    connectionString, max: POOL_MAX, types, connectionTimeoutMillis: opts.connectTimeoutMs ?? 5000, options: NO_JIT,
    ...(opts.applicationName ? { application_name: opts.applicationName } : {}),
  };
  const pool = new pg.Pool(base);
  if (opts.checkOnOpen !== false) {
    // Fail fast with a clear message when the server is unreachable, instead of on the first request.
    const client = await pool.connect();
    client.release();
  }
  pool.on('error', () => undefined); // idle client errors are reported by the next query instead
  const asQueryable = (c: pg.Pool | pg.PoolClient): Queryable => ({
    query: async (sql, params) => {
      const r = await c.query(sql, params ? [...params] : undefined);
      return { rows: r.rows, fields: r.fields.map((f) => f.name), types: r.fields.map((f) => f.dataTypeID) };
    },
    exec: async (sql) => {
      await c.query(sql);
    },
    // COPY needs one connection for its stream: a transaction's client has it, the pool does not.
    ...(c instanceof pg.Pool
      ? {}
      : {
          copyFrom: async (table: string, columns: readonly string[], lines: string) => {
            await pipeline(Readable.from([lines]), c.query(copyFromStdin(copyStatement(table, columns, 'STDIN'))));
          },
        }),
  });
  // Report reads: one more pool per statement timeout (the server uses one or two values), whose sessions start
  // as the report role with that timeout, so a report call costs no BEGIN/SET LOCAL/COMMIT round trips.
  const reportPools = new Map<number, pg.Pool>();
  const plans = new PreparedPlans();
  const reportPool = (timeoutMs: number): pg.Pool => {
    const ms = Math.max(1, Math.floor(timeoutMs));
    let p = reportPools.get(ms);
    if (!p) {
      p = new pg.Pool({
        ...base,
        options: `${NO_JIT} -c role=${REPORT_ROLE} -c statement_timeout=${ms} -c work_mem=${opts.reportWorkMem ?? DEFAULT_REPORT_WORK_MEM}`,
      });
      p.on('error', () => undefined);
      reportPools.set(ms, p);
    }
    return p;
  };
  const direct = asQueryable(pool);
  return {
    driver: 'pg',
    // Writes are counted once they have ended (committed or not), for the report result cache (write-generation.ts).
    query: async (sql, params) => {
      try {
        return await direct.query(sql, params);
      } finally {
        if (mayWrite(sql)) noteLocalWrite();
      }
    },
    exec: async (sql) => {
      try {
        await direct.exec(sql);
      } finally {
        if (mayWrite(sql)) noteLocalWrite();
      }
    },
    transaction: async (fn) => {
      const c = await pool.connect();
      const tx = trackWrites(asQueryable(c));
      try {
        await c.query('BEGIN');
        const result = await fn(tx.q);
        await c.query('COMMIT');
        return result;
      } catch (err) {
        await c.query('ROLLBACK').catch(() => undefined);
        throw err;
      } finally {
        c.release();
        if (tx.wrote()) noteLocalWrite();
      }
    },
    reportSession: async (timeoutMs, fn) => {
      const c = await reportPool(timeoutMs).connect();
      try {
        return await fn(preparedQueryable(c, plans));
      } finally {
        c.release();
      }
    },
    close: async () => {
      await Promise.all([...reportPools.values()].map((p) => p.end()));
      await pool.end();
    },
    iterate: <T>(sql: string, params: readonly unknown[], opts: IterateOptions) => iterateCursor<T>(pool, asQueryable, sql, params, opts),
    listen: (channel, handlers) => listenPg(connectionString, channel, handlers),
    poolStats: () => [
      { pool: 'main', total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount },
      ...[...reportPools].map(([ms, p]) => ({ pool: `report:${ms}`, total: p.totalCount, idle: p.idleCount, waiting: p.waitingCount })),
    ],
  };
}

const LISTEN_RETRY_MS = 1_000;

/**
 * LISTEN on a client of its own (a pooled connection would be handed to others). When the connection drops,
 * state(false) at once, then a new connection every second until it listens again, then state(true).
 */
async function listenPg(connectionString: string, channel: string, handlers: ListenHandlers): Promise<Listener> {
  const name = checkChannel(channel);
  let closed = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  const connect = async (): Promise<void> => {
    const c = new pg.Client({ connectionString, connectionTimeoutMillis: 5000 });
    let lost = false;
    const onLost = (): void => {
      if (lost) return;
      lost = true;
      c.removeAllListeners('notification');
      void c.end().catch(() => undefined);
      if (closed) return;
      handlers.state(false);
      retry = setTimeout(() => void connect(), LISTEN_RETRY_MS);
      retry.unref();
    };
    c.on('error', onLost);
    c.on('end', onLost);
    c.on('notification', (m) => {
      if (m.channel === name) handlers.message(m.payload ?? '');
    });
    try {
      await c.connect();
      await c.query(`LISTEN ${name}`);
    } catch {
      onLost();
      return;
    }
    if (closed) {
      await c.end().catch(() => undefined);
      return;
    }
    client = c;
    handlers.state(true);
  };
  await connect().catch(() => undefined); // not listening yet: state(false) was called and it retries
  return {
    close: async () => {
      closed = true;
      clearTimeout(retry);
      await client?.end().catch(() => undefined);
    },
  };
}

/**
 * A server-side cursor in a read-only REPEATABLE READ transaction on one pooled connection: whatever `prepare`
 * counts and what the cursor reads come from one snapshot. Ending early rolls back, which closes the cursor.
 */
async function* iterateCursor<T>(
  pool: pg.Pool,
  asQueryable: (c: pg.PoolClient) => Queryable,
  sql: string,
  params: readonly unknown[],
  opts: IterateOptions,
): AsyncGenerator<T[]> {
  const size = checkBatchSize(opts.batchSize);
  const name = nextCursorName();
  const c = await pool.connect();
  let done = false;
  let broken: Error | undefined;
  try {
    await c.query('BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY');
    await opts.setup?.(asQueryable(c));
    await opts.prepare?.(asQueryable(c));
    await c.query(`DECLARE ${name} NO SCROLL CURSOR FOR ${sql}`, [...params]);
    for (;;) {
      const rows = (await c.query(`FETCH FORWARD ${size} FROM ${name}`)).rows as T[];
      if (rows.length > 0) yield rows;
      if (rows.length < size) break;
    }
    await c.query('COMMIT');
    done = true;
  } finally {
    if (!done) {
      await c.query('ROLLBACK').catch((err: unknown) => {
        broken = err instanceof Error ? err : new Error(String(err));
      });
    }
    // A connection whose rollback failed is in an unknown state: the pool discards it instead of reusing it.
    c.release(broken);
  }
}
