/** The one database access layer: both drivers (PGlite and pg) implement it, and every query is plain PostgreSQL. */
export type DriverName = 'pglite' | 'pg';

export interface QueryResult<T> {
  rows: T[];
  /** Names of the result's columns, in order (known even when no row came back); both drivers fill it. */
  fields?: string[];
  /** PostgreSQL type OIDs of those columns, in the same order; both drivers fill it. */
  types?: number[];
}

/** The database role report SQL runs as (migration 010): it may read the domain tables only. */
export const REPORT_ROLE = 'hht_report';

export interface Queryable {
  /** Positional parameters ($1, $2, ...) only; values are always bound, never spliced. */
  query<T = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<QueryResult<T>>;
  /** Several statements without parameters (migrations, DDL). */
  exec(sql: string): Promise<void>;
  /**
   * COPY table (columns) FROM lines in COPY's text format (copy-text.ts): a transaction's bulk load where the driver
   * has it (both do); bulkInsert falls back to INSERT where it is absent. Table and columns must be checked names.
   */
  copyFrom?(table: string, columns: readonly string[], lines: string): Promise<void>;
}

/** The COPY statement of copyFrom, reading from `source` ('/dev/blob' on PGlite, STDIN on PostgreSQL). */
export function copyStatement(table: string, columns: readonly string[], source: string): string {
  return `COPY ${table} (${columns.map((c) => `"${c}"`).join(', ')}) FROM ${source}`;
}

export interface IterateOptions {
  /** Rows per batch (at least 1). */
  batchSize: number;
  /**
   * Settings of every reading transaction (the report role, the statement timeout): once on PostgreSQL, where one
   * transaction reads everything; before each batch on PGlite, where each batch is a transaction of its own.
   */
  setup?: (tx: Queryable) => Promise<void>;
  /**
   * Runs once, after setup, before any row is read (a count, a cap check). PostgreSQL: in the reading transaction,
   * so under the same snapshot as the rows. Throwing ends the iteration before any row is read.
   */
  prepare?: (tx: Queryable) => Promise<void>;
}

/** What a LISTEN on a channel reports (Db.listen). */
export interface ListenHandlers {
  /** One notification's payload. */
  message(payload: string): void;
  /**
   * false: the listening connection was lost, so notifications may be missed until the next true (reconnected and
   * listening again). Whoever trusts state on the strength of notifications must stop trusting it while false.
   */
  state(listening: boolean): void;
}

export interface Listener {
  close(): Promise<void>;
}

/** Channel names are spliced into LISTEN: our own constants only. */
export function checkChannel(channel: string): string {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(channel)) throw new RangeError(`bad channel name ${channel}`);
  return channel;
}

/** A connection pool's clients now (pg): open, idle, and requests waiting for one. */
export interface PoolStats {
  pool: string;
  total: number;
  idle: number;
  waiting: number;
}

export interface Db extends Queryable {
  readonly driver: DriverName;
  /** The driver's connection pools (pg; the metrics read them); absent on PGlite, which has one session. */
  poolStats?(): PoolStats[];
  /** Runs fn in one transaction on one connection; rolls back if fn throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /**
   * Runs fn as REPORT_ROLE under a statement timeout (ms), so definition SQL can read the domain tables only.
   * PostgreSQL: a connection of a second pool whose sessions start as that role with that timeout (no
   * BEGIN/SET/COMMIT per call). PGlite: SET LOCAL ROLE inside a transaction (in-process, cheap).
   */
  reportSession<T>(timeoutMs: number, fn: (q: Queryable) => Promise<T>): Promise<T>;
  /**
   * The rows of one query in batches, never all in memory. Other requests go on between batches. PostgreSQL: a
   * cursor in one read-only snapshot. PGlite (one session): each batch a LIMIT/OFFSET read of its own, so other
   * users' statements run between batches; a query that cannot stop early (a batch slower than the driver's limit)
   * goes on from a held cursor. Stopping early (break, return(), a thrown error) closes whatever is open.
   */
  iterate<T = Record<string, unknown>>(sql: string, params: readonly unknown[], opts: IterateOptions): AsyncIterable<T[]>;
  /**
   * LISTEN on a channel (NOTIFY, pg_notify): resolves once listening (state(true) has been called). On PostgreSQL a
   * connection of its own, to the primary, reconnected after a loss; on PGlite the one in-process session.
   */
  listen(channel: string, handlers: ListenHandlers): Promise<Listener>;
  close(): Promise<void>;
  /** PGlite only: the whole database as a tar image (used to clone seeded test databases quickly). */
  dumpImage?(): Promise<Blob>;
}

/** Cursor names are spliced into SQL: only ever our own counter, never request text. */
let cursorSeq = 0;
export function nextCursorName(): string {
  cursorSeq += 1;
  return `hht_cursor_${cursorSeq}`;
}

export function checkBatchSize(n: number): number {
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`batchSize must be a whole number of at least 1, got ${n}`);
  return n;
}

/** Type OIDs whose text form we parse the same way on both drivers, so results are identical. */
export const OID = { INT8: 20, NUMERIC: 1700, DATE: 1082, TIMESTAMP: 1114 } as const;

/** numeric/int8 -> number (our sums and money fit easily); date -> 'YYYY-MM-DD' text (no time-zone shifts). */
export const textParsers: Record<number, (value: string) => unknown> = {
  [OID.INT8]: (v) => Number(v),
  [OID.NUMERIC]: (v) => Number(v),
  [OID.DATE]: (v) => v,
  [OID.TIMESTAMP]: (v) => v,
};

/**
 * work_mem of report sessions. PostgreSQL's 4MB made the TTE-wise EFT Summary sort its 54,745 rollup rows on disk
 * instead of hashing them (national bench: 184 -> 123 ms at 16MB). A report query holds a few such nodes at most,
 * and a process keeps at most 10 report connections per timeout: 16MB bounds that to a few hundred MB at the worst.
 */
export const DEFAULT_REPORT_WORK_MEM = '16MB';
