/**
 * A Db whose report sessions tell `seen` every statement they run while `recording()` is true: what a report call
 * asks of its database, counted in tests and recorded as the load bench's pgbench script.
 */
import type { Db, Queryable } from '../../src/server/db';

export interface Statement { sql: string; params: unknown[] }

export function recordingDb(db: Db, seen: Statement[], recording: () => boolean = () => true): Db {
  return {
    ...db,
    reportSession: (timeoutMs, fn) =>
      db.reportSession(timeoutMs, (q) => {
        const recorded: Queryable = {
          query: (sql, params) => {
            if (recording()) seen.push({ sql, params: [...(params ?? [])] });
            return q.query(sql, params);
          },
          exec: (sql) => q.exec(sql),
        };
        return fn(recorded);
      }),
  };
}
