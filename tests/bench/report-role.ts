/**
 * Per-call cost of running report SQL as the role hht_report, measured as
 * ratios inside one run, interleaved: the same small query run directly on the pool, the old way (a transaction
 * with SET LOCAL statement_timeout: BEGIN/SET/query/COMMIT), and the new Db.reportSession (PostgreSQL: a pool whose
 * sessions start as the role with the timeout; PGlite: SET LOCAL ROLE in a transaction).
 */
import type { Db } from '../../src/server/db';

const SQL = 'SELECT train_no, name FROM trains WHERE train_no = $1';

export async function benchReportRole(db: Db, rounds = 7, calls = 300): Promise<void> {
  const ways: Record<string, () => Promise<unknown>> = {
    direct: () => db.query(SQL, ['12301']),
    'old: transaction + SET LOCAL timeout': () =>
      db.transaction(async (tx) => {
        if (db.driver === 'pg') await tx.query('SET LOCAL statement_timeout = 15000');
        return tx.query(SQL, ['12301']);
      }),
    'new: reportSession (role + timeout)': () => db.reportSession(15_000, (q) => q.query(SQL, ['12301'])),
  };
  const perCall: Record<string, number[]> = Object.fromEntries(Object.keys(ways).map((k) => [k, []]));
  for (const fn of Object.values(ways)) await fn(); // warm the pools
  for (let r = 0; r < rounds; r += 1) {
    for (const [name, fn] of Object.entries(ways)) {
      const t0 = performance.now();
      for (let i = 0; i < calls; i += 1) await fn();
      perCall[name]?.push(((performance.now() - t0) * 1000) / calls);
    }
  }
  const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
  const base = median(perCall.direct ?? []);
  console.log(`\n## Report role: cost per call (${db.driver}, ${rounds} interleaved rounds of ${calls} calls, medians)\n`);
  console.log('| way | µs per call | vs direct |\n|---|---:|---:|');
  for (const [name, xs] of Object.entries(perCall)) console.log(`| ${name} | ${median(xs).toFixed(0)} | ${(median(xs) / base).toFixed(2)}x |`);
}
