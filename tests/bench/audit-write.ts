/**
 * `npm run bench -- --audit-write --database-url URL [--db-name NAME] [--entries N] [--rounds N]`: the audit trail's
 * own CPU per entry, in process: N report-run entries recorded (as the report route builds them) and flushed to
 * PostgreSQL, the Node CPU of this process (process.cpuUsage) and the database cluster's CPU (/proc, see
 * process-cpu.ts) per entry, interleaved round by round, medians. Three ways: the trail as the report route writes
 * it (one row of audit_batches per batch of entries, migration 041; a repeated call's kept head written once a batch
 * and its figures per entry, 042), the same with each entry made whole, and the layout before batches, one row per
 * entry COPYed into a table of the same shape (bench_audit_rows, made here: BRIN on at, b-tree on user_id, json
 * details).
 * A migrated database is enough; its entries are left in the trail like any others.
 */
import { loadavg } from 'node:os';
import pg from 'pg';
import { openDb } from '../../src/server/db';
import { migrate } from '../../src/server/db/migrate';
import { AuditTrail, entryHead } from '../../src/server/audit/trail';
import { copyValue } from '../../src/server/db/copy-text';
import { sentFilters, sentFiltersJson } from '../../src/server/audit/plugin';
import { postmasterPid, processTreeCpuSeconds } from './process-cpu';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}
const adminUrl = arg('database-url') ?? process.env.TEST_DATABASE_URL;
if (!adminUrl) throw new Error('--audit-write needs PostgreSQL: pass --database-url or set TEST_DATABASE_URL');
const dbUrl = new URL(adminUrl);
dbUrl.pathname = `/${arg('db-name') ?? 'hht_bench_audit_write'}`;
const ENTRIES = Number(arg('entries') ?? '20000');
const ROUNDS = Number(arg('rounds') ?? '7');
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

const admin = new pg.Client({ connectionString: adminUrl });
await admin.connect();
const exists = (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [dbUrl.pathname.slice(1)])).rowCount;
if (!exists) await admin.query(`CREATE DATABASE ${dbUrl.pathname.slice(1)}`);
const pm = await postmasterPid(admin);
await admin.end();
if (pm === undefined) throw new Error('--audit-write reads the database CPU from /proc: run it on the database machine as a user who may read its data directory');

const db = await openDb({ databaseUrl: dbUrl.toString(), dataDir: null });
await migrate(db);
// The former layout: one row per entry.
await db.exec(`CREATE TABLE IF NOT EXISTS bench_audit_rows (at timestamptz NOT NULL, seq bigserial, action text NOT NULL, user_id text,
    user_level text, report text, ip text, details json NOT NULL) PARTITION BY RANGE (at);
  CREATE TABLE IF NOT EXISTS bench_audit_rows_all PARTITION OF bench_audit_rows FOR VALUES FROM ('2000-01-01') TO ('2100-01-01');
  CREATE INDEX IF NOT EXISTS bench_audit_rows_at ON bench_audit_rows USING brin (at);
  CREATE INDEX IF NOT EXISTS bench_audit_rows_user ON bench_audit_rows (user_id);`);
const ROW_COLUMNS = ['at', 'action', 'user_id', 'user_level', 'report', 'ip', 'details'] as const;

/** What the trail's record() and flush() did before batches: a COPY line per entry, one COPY per flush. */
class RowPerEntry {
  private lines: string[] = [];
  record(e: { action: string; userId: string; userLevel: string; ip: string; report: string; details: Record<string, unknown> }): void {
    this.lines.push(`${new Date().toISOString()}\t${copyValue(e.action)}\t${copyValue(e.userId)}\t${copyValue(e.userLevel)}\t${copyValue(e.report)}\t${copyValue(e.ip)}\t${copyValue(JSON.stringify(e.details))}\n`);
  }
  async flush(): Promise<void> {
    const lines = this.lines;
    this.lines = [];
    await db.transaction(async (tx) => tx.copyFrom?.('bench_audit_rows', ROW_COLUMNS, lines.join('')));
  }
}

type Way = 'heads' | 'entries' | 'rows';

/**
 * Records ENTRIES report-run entries, flushes, and returns µs of CPU per entry. Each call's body arrives as text and is
 * parsed, as Fastify does, in every way. 'heads': as the report route does (a head kept per request text and fields,
 * then the figures); 'entries': each entry made whole (the route's way before heads); 'rows': the former layout.
 */
async function round(way: Way): Promise<{ node: number; db: number }> {
  const trail =
    way === 'rows'
      ? new RowPerEntry()
      : new AuditTrail({ db, flushMs: 1000, nowMs: () => Date.now(), enabled: true, onError: (err) => { throw err; } });
  const db0 = processTreeCpuSeconds(pm as number, { reaped: true });
  const node0 = process.cpuUsage();
  for (let i = 0; i < ENTRIES; i += 1) {
    // 50 officers x 40 trains x 2 class choices: 4,000 different calls, each made again about 5 times a round.
    const text = `{"trainNo":"${12301 + (i % 40)}","startDate":"2026-11-26"${i % 2 ? ',"cls":"3A"' : ''}}`;
    const body = JSON.parse(text) as Record<string, unknown>;
    const fields = { action: 'report_run', userId: `USER${i % 50}`, userLevel: 'SU', ip: '127.0.0.1', report: 'getVacantBerths' } as const;
    const figures = { rows: 40 + (i % 9), ms: i % 30, served: i % 3 ? 'hit' : 'computed' };
    if (trail instanceof RowPerEntry) trail.record({ ...fields, details: sentFilters(body, figures) });
    else if (way === 'entries') trail.record({ ...fields, detailsJson: sentFiltersJson(body, figures) });
    else {
      let head = trail.findHead(text, fields.report, fields.userId, fields.userLevel, fields.ip);
      if (!head) trail.keepHead(text, fields.report, fields.userId, fields.userLevel, fields.ip, (head = entryHead(fields, sentFiltersJson(body, {}))));
      trail.recordCall(head, figures.rows, figures.ms, figures.served);
    }
    // A flush every 2,500 entries, as a process serving 2,500 report calls a second would.
    if (i % 2_500 === 2_499) await trail.flush();
  }
  await trail.flush();
  const node = process.cpuUsage(node0);
  const dbS = processTreeCpuSeconds(pm as number, { reaped: true }) - db0;
  return { node: (node.user + node.system) / ENTRIES, db: (dbS * 1e6) / ENTRIES };
}

const ways: [string, Way][] = [
  ['one row per batch, a repeated call\'s head once a batch (as the report route writes)', 'heads'],
  ['one row per batch, each entry made whole', 'entries'],
  ['one row per entry (COPY, the former layout)', 'rows'],
];
const results = new Map(ways.map(([name]) => [name, { node: [] as number[], db: [] as number[] }]));
for (const [, target] of ways) await round(target); // warm-up
console.log(`# The audit trail's CPU per entry, in process (${ENTRIES} entries x ${ROUNDS} rounds per way, ${new Date().toISOString()}, load average ${loadavg()[0]?.toFixed(1)})\n`);
for (let r = 0; r < ROUNDS; r += 1) {
  for (const [name, target] of r % 2 === 0 ? ways : [...ways].reverse()) {
    const x = await round(target);
    results.get(name)?.node.push(x.node);
    results.get(name)?.db.push(x.db);
  }
}
console.log('| way | Node µs per entry (median) | database µs per entry (median) | both |\n|---|---:|---:|---:|');
for (const [name, r] of results) {
  console.log(`| ${name} | ${median(r.node).toFixed(1)} | ${median(r.db).toFixed(1)} | ${(median(r.node) + median(r.db)).toFixed(1)} |`);
}
console.log(`\nload average at the end ${loadavg().map((x) => x.toFixed(1)).join(' ')}`);
await db.close();
