/**
 * A count of the writes this process has committed through any Db (both drivers): the report result cache
 * (reports/result-cache.ts) drops what it holds when it moves, so an answer computed before a write this process
 * made is never served after it, without waiting for the database's notification (which covers other processes
 * and writers outside the app). Moving it too often only costs cache hits; missing a write would serve stale
 * answers, so anything that may write counts: every transaction, and every statement that is not a plain read.
 */
let writes = 0;

/** The writes committed (or attempted) so far in this process. */
export function localWrites(): number {
  return writes;
}

/** Called by the drivers after a statement or transaction that may have changed data has ended. */
export function noteLocalWrite(): void {
  writes += 1;
}

/** Reads that change nothing: a SELECT (or VALUES, SHOW, ...) that calls none of our own functions (which may write). */
const READ = /^\s*(SELECT|VALUES|SHOW|EXPLAIN|TABLE|FETCH|LISTEN|UNLISTEN|SET|RESET)\b/i;
const WRITES_INSIDE = /\b(INSERT|UPDATE|DELETE|TRUNCATE|MERGE|COPY)\b|\bhht_\w+\s*\(/i;

/** Whether a statement run outside a transaction may change data. */
export function mayWrite(sql: string): boolean {
  return !READ.test(sql) || WRITES_INSIDE.test(sql);
}
