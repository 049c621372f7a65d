import cluster from 'node:cluster';
import client from 'prom-client';
import type { Db } from '../db';
import type { PoolStats } from '../db/types';
import { hasReplicas } from '../db/replicas';
import { ExportSlots } from '../reports/export/export-slots';

/**
 * The portal's Prometheus metrics, one set per process on prom-client's global registry (what the metrics server
 * and, with HHT_WORKERS > 1, the primary's aggregation read). Counters and histograms are fed by hooks where things
 * happen; gauges read their sources (below) when scraped.
 */

/** What a scrape reads from one running app (a process holds one; tests may hold several). */
export interface MetricSources {
  db: Db;
  now: () => Date;
  auditQueued: () => number;
  /** Audit entries given up since start: the oldest dropped from a full queue, and those the database refused. */
  auditLost: () => { dropped: number; refused: number };
  /** Whether this app runs the live HHT feed (HHT_FEED on with the demo seed): feed lag means nothing otherwise. */
  feedLive: boolean;
}

const sources = new Set<MetricSources>();

/** Adds an app's sources; the returned function removes them (app close). */
export function addMetricSources(s: MetricSources): () => void {
  sources.add(s);
  return () => sources.delete(s);
}

const sumOf = (f: (s: MetricSources) => number): number => [...sources].reduce((n, s) => n + f(s), 0);

/** Seconds buckets from 2 ms to 30 s: report calls are mostly under 100 ms, exports and syncs run longer. */
const SECONDS = [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

export const httpRequests = new client.Counter({
  name: 'hht_http_requests_total',
  help: 'HTTP requests answered, by method, route pattern and status code.',
  labelNames: ['method', 'route', 'status'] as const,
});
export const httpDuration = new client.Histogram({
  name: 'hht_http_request_duration_seconds',
  help: 'Time to answer an HTTP request (to the last byte handed to the socket), by method and route pattern.',
  labelNames: ['method', 'route'] as const,
  buckets: SECONDS,
});
export const reportSql = new client.Histogram({
  name: 'hht_report_sql_seconds',
  help: 'Time of a report call computed by the database (result-cache misses), by report id.',
  labelNames: ['report'] as const,
  buckets: SECONDS,
});
export const reportCacheAnswers = new client.Counter({
  name: 'hht_report_cache_answers_total',
  help: 'Report answers by how they were had: hit (from memory), shared (an identical query under way), computed.',
  labelNames: ['served'] as const,
});
export const exportRows = new client.Counter({
  name: 'hht_export_rows_total',
  help: 'Rows written to export files, by format.',
  labelNames: ['format'] as const,
});
export const exportBytes = new client.Counter({
  name: 'hht_export_bytes_total',
  help: 'Bytes of export files sent, by format.',
  labelNames: ['format'] as const,
});
export const syncBatches = new client.Counter({
  name: 'hht_sync_batches_total',
  help: 'Device sync batches, by outcome (accepted or refused).',
  labelNames: ['outcome'] as const,
});
export const syncRecords = new client.Counter({
  name: 'hht_sync_records_total',
  help: 'Records in accepted device sync batches, by record type.',
  labelNames: ['type'] as const,
});
export const syncRefusals = new client.Counter({
  name: 'hht_sync_refusals_total',
  help: 'Device sync batches refused, by reason (invalid, credential, device_refused, too_large, rate_limited, other).',
  labelNames: ['reason'] as const,
});

new client.Gauge({
  name: 'hht_export_slots_in_use',
  help: 'Exports streaming now (each holds a slot of HHT_MAX_EXPORTS and a database cursor).',
  collect() {
    this.set(ExportSlots.inUse);
  },
});
new client.Gauge({
  name: 'hht_audit_queue_length',
  help: 'Audit trail entries waiting in memory to be written (flushed every HHT_AUDIT_FLUSH_MS).',
  collect() {
    this.set(sumOf((s) => s.auditQueued()));
  },
});

new client.Counter({
  name: 'hht_audit_entries_lost_total',
  help: 'Audit trail entries given up: dropped (the oldest, from a full queue while the database was away) or refused (data the database cannot store).',
  labelNames: ['reason'] as const,
  collect() {
    // Totals kept by each process's trail, read when scraped.
    this.reset();
    this.inc({ reason: 'dropped' }, sumOf((s) => s.auditLost().dropped));
    this.inc({ reason: 'refused' }, sumOf((s) => s.auditLost().refused));
  },
});

/** Pools of a database (pg): clients open, idle and requests waiting for one; none on PGlite. */
const poolStats = (db: Db): PoolStats[] => db.poolStats?.() ?? [];

new client.Gauge({
  name: 'hht_db_pool_waiting',
  help: 'Queries waiting for a free database connection, by pool (main, report:<timeout ms>, replica pools).',
  labelNames: ['pool'] as const,
  collect() {
    this.reset();
    for (const s of sources) for (const p of poolStats(s.db)) this.inc({ pool: p.pool }, p.waiting);
  },
});
new client.Gauge({
  name: 'hht_db_pool_connections',
  help: 'Open database connections, by pool and state (busy or idle).',
  labelNames: ['pool', 'state'] as const,
  collect() {
    this.reset();
    for (const s of sources) {
      for (const p of poolStats(s.db)) {
        this.inc({ pool: p.pool, state: 'idle' }, p.idle);
        this.inc({ pool: p.pool, state: 'busy' }, p.total - p.idle);
      }
    }
  },
});

new client.Gauge({
  name: 'hht_replica_lag_seconds',
  help: 'Replication lag of each read replica at its last probe (absent while unknown).',
  labelNames: ['replica', 'state'] as const,
  aggregator: 'max',
  collect() {
    this.reset();
    for (const s of sources) {
      for (const r of hasReplicas(s.db) ? s.db.replicas.status() : []) {
        if (r.lagMs !== null) this.set({ replica: r.name, state: r.state }, r.lagMs / 1000);
      }
    }
  },
});
const readsSeen = new Map<string, number>();
new client.Counter({
  name: 'hht_db_reads_total',
  help: 'Report reads and export cursors by who served them: a replica (named), the primary, or the primary after a replica failed.',
  labelNames: ['served_by', 'replica'] as const,
  collect() {
    const now = new Map<string, { served_by: string; replica: string; n: number }>();
    const add = (served_by: string, replica: string, n: number): void => {
      const k = `${served_by}|${replica}`;
      now.set(k, { served_by, replica, n: (now.get(k)?.n ?? 0) + n });
    };
    for (const s of sources) {
      if (!hasReplicas(s.db)) continue;
      const c = s.db.replicas.counts();
      add('primary', '', c.primary);
      add('retried_on_primary', '', c.retriedOnPrimary);
      for (const [name, n] of Object.entries(c.byReplica)) add('replica', name, n);
    }
    // Counters only grow: what the sources count now, less what was reported before.
    for (const [k, v] of now) {
      const delta = v.n - (readsSeen.get(k) ?? 0);
      if (delta > 0) {
        this.inc({ served_by: v.served_by, replica: v.replica }, delta);
        readsSeen.set(k, v.n);
      }
    }
  },
});

/** The first source's database answers figures that are the same from every process (the feed, the rollups). */
const firstSource = (): MetricSources | undefined => sources.values().next().value;

// Labelled gauges below: an unlabelled gauge always shows a sample (0), these are absent when there is no figure.
new client.Gauge({
  name: 'hht_feed_lag_seconds',
  help: 'How far the live HHT feed\'s high-water mark is behind the clock (absent without the live feed).',
  labelNames: ['feed'] as const,
  aggregator: 'max',
  async collect() {
    this.reset();
    const s = [...sources].find((x) => x.feedLive);
    if (!s) return;
    const row = (await s.db.query<{ hwm: Date | string | null }>('SELECT hwm FROM hht_feed_state WHERE id = 1').catch(() => ({ rows: [] }))).rows[0];
    if (row?.hwm) this.set({ feed: 'live' }, Math.max(0, (s.now().getTime() - new Date(row.hwm).getTime()) / 1000));
  },
});

/** The rollup auditor's repairs (src/server/db/rollup-audit.ts): the same figure from every process, so one is kept. */
new client.Gauge({
  name: 'hht_rollup_repairs',
  help: 'Rollup rows the rollup auditor found drifted from their raw rows and repaired (database-wide, since it began).',
  aggregator: 'first',
  async collect() {
    this.reset();
    const s = firstSource();
    if (!s) return;
    const n = (await s.db.query<{ n: number }>('SELECT hht_rollup_repairs()::float8 AS n').catch(() => ({ rows: [] }))).rows[0]?.n;
    if (typeof n === 'number') this.set(n);
  },
});

// No collectDefaultMetrics: three of its gauges end in _total, which promtool refuses; node_exporter covers the process.

// A worker answers the primary's aggregation requests (prom-client listens once an AggregatorRegistry exists).
if (cluster.isWorker) new client.AggregatorRegistry();

export const metricsRegistry = client.register;

/** Runs a report's database work, timed into hht_report_sql_seconds under the report's id. */
export async function timeReportSql<T>(report: string, run: () => Promise<T>): Promise<T> {
  const end = reportSql.startTimer({ report });
  try {
    return await run();
  } finally {
    end();
  }
}
