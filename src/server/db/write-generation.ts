import type { Queryable } from './types';

/**
 * A count of the writes this process has committed through any Db (both drivers): the report result cache
 * (reports/result-cache.ts) drops what it holds when it moves, so an answer computed before a write this process
 * made is never served after it, without waiting for the database's notification (which covers other processes
 * and writers outside the app). Moving it too often only costs cache hits; missing a write would serve stale
 * answers, so anything that may write a table reports read counts.
 */
let writes = 0;
/** Names of the tables reports read (watchTables), and our own functions (which may write); undefined: every table. */
let watched: RegExp | undefined;

/** The writes committed (or attempted) so far in this process. */
export function localWrites(): number {
  return writes;
}

/** Called by the drivers after a statement or transaction that may have changed data reports read has ended. */
export function noteLocalWrite(): void {
  writes += 1;
}

/**
 * Only writes naming one of these tables (or one of their partitions, or calling one of our functions) count from
 * now on: sign-in, session and audit writes then leave held report answers alone.
 */
export function watchTables(names: readonly string[]): void {
  const safe = names.filter((n) => /^[a-z_][a-z0-9_]*$/.test(n));
  watched = safe.length > 0 ? new RegExp(`\\b(?:${safe.join('|')})(?:_\\w+)?\\b|\\bhht_\\w+\\s*\\(`, 'i') : undefined;
}

/** Reads that change nothing: a SELECT (or VALUES, SHOW, ...) with no data-changing statement or function call inside. */
const READ = /^\s*(SELECT|VALUES|SHOW|EXPLAIN|TABLE|FETCH|LISTEN|UNLISTEN|SET|RESET|BEGIN|COMMIT|ROLLBACK)\b/i;
const WRITES_INSIDE = /\b(INSERT|UPDATE|DELETE|TRUNCATE|MERGE|COPY)\b|\bhht_\w+\s*\(/i;

/** Whether a statement may change data reports read. */
export function mayWrite(sql: string): boolean {
  if (READ.test(sql) && !WRITES_INSIDE.test(sql)) return false;
  return watched ? watched.test(sql) : true;
}

/** A transaction's queryable that remembers whether any of its statements may have written (see mayWrite). */
export function trackWrites(q: Queryable): { q: Queryable; wrote: () => boolean } {
  let wrote = false;
  return {
    q: {
      query: (sql, params) => {
        if (!wrote && mayWrite(sql)) wrote = true;
        return q.query(sql, params);
      },
      exec: (sql) => {
        if (!wrote && mayWrite(sql)) wrote = true;
        return q.exec(sql);
      },
      ...(q.copyFrom
        ? {
            copyFrom: (table: string, columns: readonly string[], lines: string) => {
              // By the table, as for a statement: the audit trail's COPY every second must leave held answers alone.
              if (!wrote && mayWrite(`COPY ${table}`)) wrote = true;
              return q.copyFrom?.(table, columns, lines) ?? Promise.resolve();
            },
          }
        : {}),
    },
    wrote: () => wrote,
  };
}
