import { openPg } from './pg-driver';
import type { Db, IterateOptions } from './types';

/**
 * Read routing over PostgreSQL streaming replicas (DATABASE_REPLICA_URLS). Report reads (Db.reportSession) and
 * export cursors (Db.iterate) go to a healthy replica; everything else (query, exec, transaction: sign-in state,
 * sessions, devices, feedback, sync, the feed, and the reads right after them) goes to the primary. A replica that
 * lags past the limit or fails is skipped with back-off and probed again; with none healthy, reads use the primary;
 * a replica failing during a read costs no error: the read (idempotent) runs again on the primary.
 */
export interface ReplicaOptions {
  urls: readonly string[];
  /**
   * Largest replication lag a replica may have and still serve reads, ms. 0 is strict: a read goes to a replica
   * only once it has replayed everything the primary had flushed when the read began (read-your-writes; costs one
   * round trip to each server per read), else to the primary.
   */
  maxLagMs: number;
  /** work_mem of the replicas' report sessions (as the primary's). */
  reportWorkMem?: string;
  /** How often replicas are probed (health and lag), ms. */
  probeIntervalMs?: number;
  /** Strict mode: longest wait for a replica to catch up before the read goes to the primary, ms. */
  catchUpWaitMs?: number;
  log?: (line: string) => void;
}

export type ReplicaState = 'starting' | 'healthy' | 'lagging' | 'down' | 'not-a-replica';

export interface ReplicaStatus {
  /** host:port/database, never the user or password. */
  name: string;
  state: ReplicaState;
  /** Time the replica has been missing WAL the primary had flushed (0 = caught up at the last probe); null = unknown. */
  lagMs: number | null;
  /** Failures in a row; the back-off doubles with each, up to MAX_BACKOFF_MS. */
  failures: number;
  lastError: string | null;
}

export interface ReadCounts {
  /** Reads a replica served. */
  replica: number;
  /** Reads the primary served (no healthy replica, too far behind, or a retry). */
  primary: number;
  /** Reads that failed on a replica and were run again on the primary. */
  retriedOnPrimary: number;
  /** Reads each replica served, by its name (host:port/database). */
  byReplica: Record<string, number>;
}

export interface ReplicaRouting {
  /** The largest lag a replica may have and still serve reads, ms (0: strict read-your-writes). */
  readonly maxLagMs: number;
  status(): ReplicaStatus[];
  counts(): ReadCounts;
  /** Probes every replica now (tests, and the first probe at start). */
  probeNow(): Promise<void>;
}

export interface RoutedDb extends Db {
  readonly replicas: ReplicaRouting;
}

export function hasReplicas(db: Db): db is RoutedDb {
  return 'replicas' in db;
}

const DEFAULT_PROBE_MS = 1000;
const DEFAULT_CATCH_UP_WAIT_MS = 250;
const FIRST_BACKOFF_MS = 1000;
const MAX_BACKOFF_MS = 30_000;
/** A replica is given less time to connect than the primary: the primary is the fallback, so waiting is waste. */
const REPLICA_CONNECT_TIMEOUT_MS = 2000;
/** A probe or catch-up check that gets no answer (a frozen server, a network black hole) counts as a failure. */
const CHECK_TIMEOUT_MS = 2000;

/** The promise, or a rejection (code ETIMEDOUT, so it reads as "down") after ms. */
function within<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(Object.assign(new Error(`${what} did not answer within ${ms} ms`), { code: 'ETIMEDOUT' })), ms);
  });
  work.catch(() => undefined); // a late failure after the timeout is not unhandled
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

interface Replica {
  name: string;
  db: Db;
  state: ReplicaState;
  lagMs: number | null;
  failures: number;
  retryAt: number;
  lastError: string | null;
}

/** '16/B374D848' -> a number that orders like the WAL position. */
export function parseLsn(text: string): bigint {
  const m = /^([0-9A-Fa-f]{1,8})\/([0-9A-Fa-f]{1,8})$/.exec(text);
  if (!m) throw new Error(`not a WAL position: "${text}"`);
  return (BigInt(`0x${m[1]}`) << 32n) + BigInt(`0x${m[2]}`);
}

/**
 * What a failed replica read means: 'down' (unreachable, shut down, database not there yet: skip it for a while),
 * 'retry' (this read only: cancelled by a conflict with WAL replay), or 'none' (the read's own error, such as the
 * report timeout or bad SQL: the primary would fail the same way, so the caller gets it).
 */
export function classifyReplicaError(err: unknown): 'down' | 'retry' | 'none' {
  const code = typeof err === 'object' && err !== null && 'code' in err ? (err as { code: unknown }).code : undefined;
  if (typeof code === 'string') {
    if (code.startsWith('08')) return 'down'; // connection exception class
    // admin/crash shutdown, cannot connect now (starting), database does not exist (yet), too many connections
    if (['57P01', '57P02', '57P03', '3D000', '53300'].includes(code)) return 'down';
    if (['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN'].includes(code)) return 'down';
    // On a standby, "canceling statement due to conflict with recovery" (40001) and recovery deadlocks (40P01).
    if (code === '40001' || code === '40P01') return 'retry';
  }
  const message = err instanceof Error ? err.message : String(err);
  if (/Connection terminated|timeout exceeded when trying to connect|connection error|server closed the connection/i.test(message)) return 'down';
  return 'none';
}

function safeName(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || '5432'}${u.pathname}`;
  } catch {
    return 'replica';
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function withReplicas(primary: Db, opts: ReplicaOptions): Promise<RoutedDb> {
  const log = opts.log ?? (() => undefined);
  const probeMs = opts.probeIntervalMs ?? DEFAULT_PROBE_MS;
  const catchUpWaitMs = opts.catchUpWaitMs ?? DEFAULT_CATCH_UP_WAIT_MS;
  const strict = opts.maxLagMs === 0;
  const counts: ReadCounts = { replica: 0, primary: 0, retriedOnPrimary: 0, byReplica: {} };
  const servedBy = (r: Replica): void => {
    counts.replica += 1;
    counts.byReplica[r.name] = (counts.byReplica[r.name] ?? 0) + 1;
  };
  const replicas: Replica[] = await Promise.all(
    opts.urls.map(async (url) => ({
      name: safeName(url),
      db: await openPg(url, {
        checkOnOpen: false, connectTimeoutMs: REPLICA_CONNECT_TIMEOUT_MS, applicationName: 'hht-portal-replica-read',
        ...(opts.reportWorkMem ? { reportWorkMem: opts.reportWorkMem } : {}),
      }),
      state: 'starting' as ReplicaState,
      lagMs: null,
      failures: 0,
      retryAt: 0,
      lastError: null,
    })),
  );

  // The primary's flushed WAL position at each probe: a replica's lag is how long ago the primary first had WAL
  // the replica has not replayed yet. Unlike now() - pg_last_xact_replay_timestamp(), this reads 0 on an idle system.
  const samples: { t: number; lsn: bigint }[] = [];
  const keepMs = Math.max(60_000, opts.maxLagMs * 4);
  const primaryLsn = async (): Promise<bigint> => {
    const row = (await primary.query<{ lsn: string }>('SELECT pg_current_wal_flush_lsn()::text AS lsn')).rows[0];
    if (!row) throw new Error('no WAL position from the primary');
    return parseLsn(row.lsn);
  };
  const replayLsn = async (r: Replica): Promise<{ recovering: boolean; lsn: bigint | null }> => {
    const sql = 'SELECT pg_is_in_recovery() AS rec, pg_last_wal_replay_lsn()::text AS lsn';
    const row = (await within(r.db.query<{ rec: boolean; lsn: string | null }>(sql), CHECK_TIMEOUT_MS, `replica ${r.name}`)).rows[0];
    return { recovering: row?.rec === true, lsn: row?.lsn ? parseLsn(row.lsn) : null };
  };
  const lagOf = (replayed: bigint, now: number): number => {
    const behind = samples.find((s) => s.lsn > replayed);
    return behind ? now - behind.t : 0;
  };

  const setState = (r: Replica, state: ReplicaState, why?: string): void => {
    if (r.state !== state && (state === 'down' || r.state === 'down' || state === 'not-a-replica' || state === 'lagging' || r.state === 'lagging')) {
      log(`replica ${r.name}: ${r.state} -> ${state}${why ? ` (${why})` : ''}`);
    }
    r.state = state;
  };
  const markDown = (r: Replica, err: unknown): void => {
    // Reads that were already on the replica when it failed each report it: count the failure once.
    if (r.state === 'down' && Date.now() < r.retryAt) return;
    r.failures += 1;
    r.retryAt = Date.now() + Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** (r.failures - 1));
    r.lastError = err instanceof Error ? err.message : String(err);
    r.lagMs = null;
    setState(r, 'down', r.lastError);
  };

  const probeOne = async (r: Replica, now: number): Promise<void> => {
    if (r.state === 'down' && now < r.retryAt) return;
    try {
      const { recovering, lsn } = await replayLsn(r);
      if (!recovering) {
        // Promoted, or pointed at a primary by mistake: it no longer follows our primary's writes.
        r.lagMs = null;
        setState(r, 'not-a-replica', 'pg_is_in_recovery() is false');
        return;
      }
      r.failures = 0;
      r.lastError = null;
      r.lagMs = lsn === null ? null : lagOf(lsn, now);
      const tooFar = r.lagMs === null || (!strict && r.lagMs > opts.maxLagMs);
      setState(r, tooFar ? 'lagging' : 'healthy', tooFar ? `lag ${r.lagMs ?? 'unknown'} ms` : undefined);
    } catch (err) {
      markDown(r, err);
    }
  };

  let probing: Promise<void> | undefined;
  const probeAll = (): Promise<void> => {
    probing ??= (async () => {
      const now = Date.now();
      try {
        samples.push({ t: now, lsn: await within(primaryLsn(), CHECK_TIMEOUT_MS, 'the primary') });
        while (samples.length > 1 && (samples[0]?.t ?? now) < now - keepMs) samples.shift();
      } catch {
        // The primary's own trouble shows on its requests; lag is judged on the samples we have.
      }
      await Promise.all(replicas.map((r) => probeOne(r, now)));
    })().finally(() => {
      probing = undefined;
    });
    return probing;
  };
  await probeAll();
  const timer = setInterval(() => void probeAll(), probeMs);
  timer.unref();

  let turn = 0;
  const pick = (): Replica | undefined => {
    const healthy = replicas.filter((r) => r.state === 'healthy');
    if (healthy.length === 0) return undefined;
    turn = (turn + 1) % healthy.length;
    return healthy[turn];
  };

  /** Strict mode: waits (briefly) until the replica has replayed what the primary had flushed when the read began. */
  const caughtUp = async (r: Replica): Promise<boolean> => {
    if (!strict) return true;
    // The primary's own failure is not the replica's: the read then goes to the primary and fails (or not) there.
    const target = await primaryLsn().catch(() => undefined);
    if (target === undefined) return false;
    const deadline = Date.now() + catchUpWaitMs;
    for (;;) {
      const { lsn } = await replayLsn(r);
      if (lsn !== null && lsn >= target) return true;
      if (Date.now() >= deadline) return false;
      await sleep(2);
    }
  };

  /** The replica to read from, or undefined for the primary. A replica failing its check is marked down. */
  const choose = async (): Promise<Replica | undefined> => {
    const r = pick();
    if (!r) return undefined;
    try {
      return (await caughtUp(r)) ? r : undefined;
    } catch (err) {
      if (classifyReplicaError(err) === 'down') markDown(r, err);
      return undefined;
    }
  };

  /** After a replica read failed: true when the read should run again on the primary. */
  const failedOn = (r: Replica, err: unknown): boolean => {
    const kind = classifyReplicaError(err);
    if (kind === 'none') return false;
    if (kind === 'down') markDown(r, err);
    counts.retriedOnPrimary += 1;
    return true;
  };

  async function* routedIterate<T>(sql: string, params: readonly unknown[], iterOpts: IterateOptions): AsyncGenerator<T[]> {
    const r = await choose();
    if (r) {
      const it = r.db.iterate<T>(sql, params, iterOpts)[Symbol.asyncIterator]();
      let first: IteratorResult<T[]> | undefined;
      try {
        first = await it.next();
      } catch (err) {
        if (!failedOn(r, err)) throw err;
      }
      if (first) {
        // From the first batch on, rows have left: a failure now cannot be retried without repeating them.
        servedBy(r);
        try {
          if (first.done) return;
          yield first.value;
          yield* { [Symbol.asyncIterator]: () => it };
        } finally {
          await it.return?.(undefined);
        }
        return;
      }
    }
    counts.primary += 1;
    yield* primary.iterate<T>(sql, params, iterOpts);
  }

  return {
    driver: primary.driver,
    query: (sql, params) => primary.query(sql, params),
    exec: (sql) => primary.exec(sql),
    transaction: (fn) => primary.transaction(fn),
    // Change notifications are raised on the primary (triggers run there; standbys cannot LISTEN).
    listen: (channel, handlers) => primary.listen(channel, handlers),
    poolStats: () => [
      ...(primary.poolStats?.() ?? []),
      ...replicas.flatMap((r) => (r.db.poolStats?.() ?? []).map((p) => ({ ...p, pool: `${r.name} ${p.pool}` }))),
    ],
    reportSession: async (timeoutMs, fn) => {
      const r = await choose();
      if (r) {
        try {
          const out = await r.db.reportSession(timeoutMs, fn);
          servedBy(r);
          return out;
        } catch (err) {
          if (!failedOn(r, err)) throw err;
        }
      }
      counts.primary += 1;
      return primary.reportSession(timeoutMs, fn);
    },
    iterate: <T>(sql: string, params: readonly unknown[], iterOpts: IterateOptions) => routedIterate<T>(sql, params, iterOpts),
    close: async () => {
      clearInterval(timer);
      await probing?.catch(() => undefined);
      await Promise.all(replicas.map((r) => r.db.close().catch(() => undefined)));
      await primary.close();
    },
    replicas: {
      maxLagMs: opts.maxLagMs,
      status: () => replicas.map((r) => ({ name: r.name, state: r.state, lagMs: r.lagMs, failures: r.failures, lastError: r.lastError })),
      counts: () => ({ ...counts, byReplica: { ...counts.byReplica } }),
      probeNow: probeAll,
    },
  };
}
