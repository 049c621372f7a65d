/**
 * Where a first start's preparation spends its time, phase by phase, in one process (no server):
 * `tsx tests/bench/seed-phases.ts [--data-dir DIR | --database-url URL] [--today YYYY-MM-DD] [--live-at ISO]`.
 * Prints wall and CPU time (process.cpuUsage: this process, every thread) of migrations, reference data, generating
 * and planning each day, loading, releasing the terminals' records, ANALYZE and the rest, and the statements that took
 * longest, grouped by their first words; then the load average.
 */
import { loadavg } from 'node:os';
import { openDb, type Db } from '../../src/server/db';
import { migrate } from '../../src/server/db/migrate';
import type { Queryable } from '../../src/server/db/types';
import { ensureSeeded } from '../../src/server/demo';
import { insertDemoUsers } from '../../src/server/auth/demo-users';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const today = arg('today') ?? '2026-11-27';
const liveAt = arg('live-at') ?? `${today}T09:30:00Z`;
const databaseUrl = arg('database-url');
const dataDir = arg('data-dir') ?? '/tmp/seed-phases';

interface Tally { ms: number; n: number }
const statements = new Map<string, Tally>();
/** Statements before the first ANALYZE run on tables without statistics: counted apart. */
let analysed = false;
function note(sql: string, ms: number): void {
  const text = sql.replace(/\s+/g, ' ').trim();
  const key = `${analysed ? '' : '(no stats) '}${text.slice(0, 70)}`;
  if (text.startsWith('ANALYZE')) analysed = true;
  const t = statements.get(key) ?? { ms: 0, n: 0 };
  t.ms += ms;
  t.n += 1;
  statements.set(key, t);
}

function timedQueryable<Q extends Queryable>(q: Q): Q {
  return new Proxy(q, {
    get(target, prop, receiver) {
      if (prop === 'query' || prop === 'exec') {
        return async (sql: string, params?: readonly unknown[]) => {
          const t0 = performance.now();
          try {
            return prop === 'query' ? await target.query(sql, params) : await target.exec(sql);
          } finally {
            note(sql, performance.now() - t0);
          }
        };
      }
      if (prop === 'transaction') {
        const db = target as unknown as Db;
        // The commit's own time (the rollup drain runs there): from the last statement's end to the transaction's.
        return <T>(fn: (tx: Queryable) => Promise<T>) => {
          let end = performance.now();
          return db
            .transaction(async (tx) => {
              try {
                return await fn(timedQueryable(tx));
              } finally {
                end = performance.now();
              }
            })
            .finally(() => note('(commit)', performance.now() - end));
        };
      }
      return Reflect.get(target, prop, receiver) as unknown;
    },
  });
}

const phases: [string, number, number][] = [];
async function phase<T>(name: string, work: () => Promise<T>): Promise<T> {
  const w0 = performance.now();
  const c0 = process.cpuUsage();
  try {
    return await work();
  } finally {
    const c = process.cpuUsage(c0);
    phases.push([name, (performance.now() - w0) / 1000, (c.user + c.system) / 1e6]);
  }
}

const load0 = loadavg();
const raw = await openDb({ databaseUrl, dataDir: databaseUrl ? null : dataDir });
const db = timedQueryable(raw);
const log = (line: string): void => void process.stdout.write(`${line}\n`);
await phase('migrations', () => migrate(db));
await phase('seed (ensureSeeded)', () => ensureSeeded(db, { scale: 'small', today, log, liveAt: new Date(liveAt) }));
await phase('demo users', () => insertDemoUsers(db));
await raw.close();

console.log('\n| phase | wall s | CPU s |\n|---|---:|---:|');
for (const [name, wall, cpu] of phases) console.log(`| ${name} | ${wall.toFixed(1)} | ${cpu.toFixed(1)} |`);
console.log('\n| statement | calls | total s |\n|---|---:|---:|');
for (const [sql, t] of [...statements].sort((a, b) => b[1].ms - a[1].ms).slice(0, 25)) {
  console.log(`| ${sql.replace(/\|/g, '/')} | ${t.n} | ${(t.ms / 1000).toFixed(2)} |`);
}
console.log(`\nload average before ${load0.map((x) => x.toFixed(2)).join(' ')}, after ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
