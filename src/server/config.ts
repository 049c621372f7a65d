import { isIP } from 'node:net';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { DEFAULT_PAYLOAD_KEY } from '../shared/constants';
import { DEFAULT_REPORT_WORK_MEM } from './db/types';
import { loadMailSettings, type MailSettings } from './mail/settings';

/**
 * The fewest run dates HHT_RETENTION_DAYS may keep: the demo's rolling window reaches 30 days back (WINDOW_PAST in
 * src/server/demo), so retention never drops a day the window would seed again.
 */
export const MIN_RETENTION_DAYS = 31;

/** Server configuration, read once from the environment and validated with one clear message per bad value. */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /** Streaming replicas of DATABASE_URL that serve report reads (DATABASE_REPLICA_URLS, comma-separated). */
  databaseReplicaUrls: string[];
  /** Largest replication lag a replica may have and serve reads, ms; 0 = strict (DATABASE_REPLICA_MAX_LAG_MS). */
  replicaMaxLagMs: number;
  seed: 'demo' | 'none';
  seedScale: 'small' | 'medium' | 'large';
  /** Live HHT feed (HHT_FEED, default on): with the demo seed, planned records appear as their sync time passes. */
  feed: boolean;
  payloadKey: string;
  /** HHT_JWT_SECRET; when unset a random key is generated on first start (auth/signing-secret.ts). */
  jwtSecret: string | undefined;
  testHooks: boolean;
  /**
   * Which X-Forwarded-For hops are believed (HHT_TRUST_PROXY): false = none (the socket's address), a hop count, or
   * the proxies' addresses/CIDRs. The client is the first address from the right that is not a trusted proxy.
   */
  trustProxy: TrustProxy;
  /** Statement timeout of report queries, ms (HHT_REPORT_TIMEOUT_MS). */
  reportTimeoutMs: number;
  /** Rows read from the database per batch while an export streams (HHT_EXPORT_BATCH_ROWS). */
  exportBatchRows: number;
  /** Exports running at once in one server process; more are refused with 503 (HHT_MAX_EXPORTS). */
  maxExports: number;
  /** work_mem of PostgreSQL report sessions, e.g. '16MB' (HHT_REPORT_WORK_MEM). */
  reportWorkMem: string;
  production: boolean;
  /** External coach consist service (HHT_CONSIST_URL); when absent our server answers from run_coaches. */
  consistUrl: string | undefined;
  /** Token sent as 'Authorization: Bearer <token>' to the consist service (HHT_CONSIST_TOKEN). */
  consistToken: string | undefined;
  /** Timeout of a consist service call, ms (HHT_CONSIST_TIMEOUT_MS, default 5000). */
  consistTimeoutMs: number;
  /** Directory of the built client (dist/client). */
  clientDir: string;
  /** Repository root: reports/, schemas/, menu.json, themes/. */
  rootDir: string;
  /** Server processes sharing the port (HHT_WORKERS, default: the number of cores); PGlite always runs one. */
  workers: number;
  /**
   * HHT_RETENTION_DAYS: run dates kept (today and the days before it); older ones are dropped a whole partition at a
   * time by a background job. Unset: everything is kept. At least MIN_RETENTION_DAYS, so the demo window stays.
   */
  retentionDays: number | undefined;
  /** Socket and request limits, so one client cannot hold connections open (see README). */
  limits: ServerLimits;
  /** Report result cache of each server process (reports/result-cache.ts). */
  reportCache: ReportCacheSettings;
  /** How far a terminal's clock may run ahead of the server's, seconds (HHT_DEVICE_CLOCK_SKEW_S, default 300). */
  deviceClockSkewS: number;
  /** Failed device credentials one address may send per minute before 429 (HHT_DEVICE_AUTH_FAILURES, default 20). */
  deviceAuthFailuresPerMin: number;
  /** Audit trail, Prometheus metrics (operations). */
  ops: OpsSettings;
  /** E-mail subscriptions: SMTP server, sender, size limit, retries (mail/settings.ts). */
  mail: MailSettings;
}

/** The least the audit trail may keep, days: CERT-In's directions ask for 180 days of logs. */
export const MIN_AUDIT_RETENTION_DAYS = 180;

export interface OpsSettings {
  /** Audit trail written (HHT_AUDIT, default on; off only to measure its cost). */
  audit: boolean;
  /** Days of audit trail kept; older months are dropped a partition at a time (HHT_AUDIT_RETENTION_DAYS, >= 180). */
  auditRetentionDays: number;
  /** Longest an audit entry waits in memory before it is written, ms (HHT_AUDIT_FLUSH_MS, at most 1000). */
  auditFlushMs: number;
  /** Port of GET /metrics (Prometheus text), bound to HOST; undefined = no metrics server (HHT_METRICS_PORT). */
  metricsPort: number | undefined;
}

export type TrustProxy = false | number | string[];

export interface ReportCacheSettings {
  /** Longest a finished report answer is served again, ms; 0 turns the cache off (HHT_REPORT_CACHE_MS). */
  ttlMs: number;
  /** Memory the held answers may take per process, bytes (HHT_REPORT_CACHE_MB). */
  maxBytes: number;
}

/** Connection limits of the HTTP server, all in milliseconds except the counts. */
export interface ServerLimits {
  /** Time to receive one whole request, headers and body (HHT_REQUEST_TIMEOUT_MS); the response is not limited. */
  requestTimeoutMs: number;
  /** Time to receive the request headers (HHT_HEADERS_TIMEOUT_MS). */
  headersTimeoutMs: number;
  /** An idle kept-alive connection is closed after this (HHT_KEEPALIVE_TIMEOUT_MS). */
  keepAliveTimeoutMs: number;
  /** A socket with no traffic either way is closed after this (HHT_IDLE_TIMEOUT_MS). */
  idleTimeoutMs: number;
  /** Requests served on one connection before it is closed; 0 = no limit (HHT_MAX_REQUESTS_PER_SOCKET). */
  maxRequestsPerSocket: number;
  /** Open connections per server process; more are refused (HHT_MAX_CONNECTIONS). */
  maxConnections: number;
}

/** The signing key older builds used when HHT_JWT_SECRET was unset: public, so refused (and never a default). */
export const OLD_PUBLIC_JWT_SECRET = 'dev-only-jwt-secret-change-me-in-production-0123456789';

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join('; '));
  }
}


/** A whole number from the environment within [min, max]; one problem line naming the variable otherwise. */
function wholeNumber(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number, problems: string[]): number {
  const text = env[name] ?? String(fallback);
  const value = /^\d+$/.test(text) ? Number(text) : NaN;
  if (!(value >= min && value <= max)) {
    problems.push(`${name} must be a whole number from ${min} to ${max}, got "${text}"`);
    return fallback;
  }
  return value;
}

function loadLimits(env: NodeJS.ProcessEnv, problems: string[]): ServerLimits {
  const limits: ServerLimits = {
    requestTimeoutMs: wholeNumber(env, 'HHT_REQUEST_TIMEOUT_MS', 30_000, 1_000, 3_600_000, problems),
    headersTimeoutMs: wholeNumber(env, 'HHT_HEADERS_TIMEOUT_MS', 10_000, 1_000, 3_600_000, problems),
    keepAliveTimeoutMs: wholeNumber(env, 'HHT_KEEPALIVE_TIMEOUT_MS', 10_000, 100, 3_600_000, problems),
    idleTimeoutMs: wholeNumber(env, 'HHT_IDLE_TIMEOUT_MS', 60_000, 100, 3_600_000, problems),
    maxRequestsPerSocket: wholeNumber(env, 'HHT_MAX_REQUESTS_PER_SOCKET', 10_000, 0, 10_000_000, problems),
    maxConnections: wholeNumber(env, 'HHT_MAX_CONNECTIONS', 4_096, 1, 1_000_000, problems),
  };
  // Node refuses a headers timeout longer than the whole-request timeout.
  if (limits.headersTimeoutMs > limits.requestTimeoutMs) {
    problems.push(`HHT_HEADERS_TIMEOUT_MS (${limits.headersTimeoutMs}) must not exceed HHT_REQUEST_TIMEOUT_MS (${limits.requestTimeoutMs})`);
  }
  return limits;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const problems: string[] = [];
  const rootDir = resolve(env.HHT_ROOT_DIR ?? process.cwd());

  const portText = env.PORT ?? '8080';
  const port = /^\d+$/.test(portText) ? Number(portText) : NaN;
  if (!(port >= 0 && port <= 65535)) problems.push(`PORT must be a whole number from 0 to 65535, got "${portText}"`);

  const host = env.HOST ?? '127.0.0.1';
  if (!/^[A-Za-z0-9.:-]+$/.test(host)) problems.push(`HOST must be a host name or IP address, got "${host}"`);

  const databaseUrl = env.DATABASE_URL || undefined;
  if (databaseUrl !== undefined && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    problems.push('DATABASE_URL must start with postgres:// or postgresql://');
  }

  const databaseReplicaUrls = (env.DATABASE_REPLICA_URLS ?? '').split(',').map((u) => u.trim()).filter((u) => u !== '');
  for (const [i, u] of databaseReplicaUrls.entries()) {
    if (!/^postgres(ql)?:\/\//.test(u)) problems.push(`DATABASE_REPLICA_URLS entry ${i + 1} must start with postgres:// or postgresql://`);
  }
  if (databaseReplicaUrls.length > 0 && databaseUrl === undefined) {
    problems.push('DATABASE_REPLICA_URLS is set but DATABASE_URL is not (replicas follow a PostgreSQL primary)');
  }
  const replicaMaxLagMs = wholeNumber(env, 'DATABASE_REPLICA_MAX_LAG_MS', 2000, 0, 600_000, problems);

  const seed = env.HHT_SEED ?? 'demo';
  if (seed !== 'demo' && seed !== 'none') problems.push(`HHT_SEED must be "demo" or "none", got "${seed}"`);

  const seedScale = env.HHT_SEED_SCALE ?? 'small';
  if (seedScale !== 'small' && seedScale !== 'medium' && seedScale !== 'large') {
    problems.push(`HHT_SEED_SCALE must be small, medium or large, got "${seedScale}"`);
  }

  const production = env.NODE_ENV === 'production';
  const testHooks = env.HHT_TEST_HOOKS === '1';
  if (testHooks && production) problems.push('HHT_TEST_HOOKS=1 is refused when NODE_ENV=production');

  const jwtSecret = env.HHT_JWT_SECRET || undefined;
  if (production && !jwtSecret) problems.push('HHT_JWT_SECRET must be set when NODE_ENV=production');
  if (jwtSecret !== undefined && jwtSecret.length < 32) problems.push('HHT_JWT_SECRET must be at least 32 characters');
  if (jwtSecret === OLD_PUBLIC_JWT_SECRET) problems.push('HHT_JWT_SECRET must not be the old public default');


  const timeoutText = env.HHT_REPORT_TIMEOUT_MS ?? '15000';
  const reportTimeoutMs = /^\d+$/.test(timeoutText) ? Number(timeoutText) : NaN;
  if (!(reportTimeoutMs >= 100 && reportTimeoutMs <= 600_000)) {
    problems.push(`HHT_REPORT_TIMEOUT_MS must be a number of milliseconds from 100 to 600000, got "${timeoutText}"`);
  }

  const batchText = env.HHT_EXPORT_BATCH_ROWS ?? '1000';
  const exportBatchRows = /^\d+$/.test(batchText) ? Number(batchText) : NaN;
  if (!(exportBatchRows >= 1 && exportBatchRows <= 50_000)) {
    problems.push(`HHT_EXPORT_BATCH_ROWS must be a whole number from 1 to 50000, got "${batchText}"`);
  }
  const maxExportsText = env.HHT_MAX_EXPORTS ?? '4';
  const maxExports = /^\d+$/.test(maxExportsText) ? Number(maxExportsText) : NaN;
  if (!(maxExports >= 1 && maxExports <= 64)) problems.push(`HHT_MAX_EXPORTS must be a whole number from 1 to 64, got "${maxExportsText}"`);
  const reportWorkMem = env.HHT_REPORT_WORK_MEM ?? DEFAULT_REPORT_WORK_MEM;
  const workMemMb = /^[1-9][0-9]{0,3}MB$/.test(reportWorkMem) ? Number(reportWorkMem.slice(0, -2)) : NaN;
  if (!(workMemMb >= 1 && workMemMb <= 1024)) problems.push(`HHT_REPORT_WORK_MEM must be from 1MB to 1024MB (e.g. 16MB), got "${reportWorkMem}"`);

  const consistUrl = env.HHT_CONSIST_URL || undefined;
  if (consistUrl !== undefined && !/^https?:\/\/[^\s/]+/.test(consistUrl)) {
    problems.push(`HHT_CONSIST_URL must be an http:// or https:// URL, got "${consistUrl}"`);
  }
  const consistToken = env.HHT_CONSIST_TOKEN || undefined;
  if (consistToken !== undefined && !/^[\x21-\x7E]{1,4096}$/.test(consistToken)) {
    problems.push('HHT_CONSIST_TOKEN must be printable characters without spaces');
  }
  if (consistUrl === undefined && consistToken !== undefined) problems.push('HHT_CONSIST_TOKEN is set but HHT_CONSIST_URL is not');
  const consistTimeoutText = env.HHT_CONSIST_TIMEOUT_MS ?? '5000';
  const consistTimeoutMs = /^\d+$/.test(consistTimeoutText) ? Number(consistTimeoutText) : NaN;
  if (!(consistTimeoutMs >= 100 && consistTimeoutMs <= 60_000)) {
    problems.push(`HHT_CONSIST_TIMEOUT_MS must be a number of milliseconds from 100 to 60000, got "${consistTimeoutText}"`);
  }

  const feedText = env.HHT_FEED ?? 'on';
  if (feedText !== 'on' && feedText !== 'off') problems.push(`HHT_FEED must be "on" or "off", got "${feedText}"`);
  const workers = wholeNumber(env, 'HHT_WORKERS', availableParallelism(), 1, 64, problems);
  const retentionDays = env.HHT_RETENTION_DAYS
    ? wholeNumber(env, 'HHT_RETENTION_DAYS', MIN_RETENTION_DAYS, MIN_RETENTION_DAYS, 36_500, problems)
    : undefined;
  const limits = loadLimits(env, problems);
  const reportCache: ReportCacheSettings = {
    ttlMs: wholeNumber(env, 'HHT_REPORT_CACHE_MS', 5_000, 0, 600_000, problems),
    maxBytes: wholeNumber(env, 'HHT_REPORT_CACHE_MB', 64, 1, 65_536, problems) * 1024 * 1024,
  };

  const deviceTrust = loadDeviceTrust(env, problems);
  const ops = loadOps(env, problems);
  const mail = loadMailSettings(env, port, problems);

  if (problems.length > 0) throw new ConfigError(problems);
  return {
    port,
    host,
    dataDir: resolve(rootDir, env.HHT_DATA_DIR ?? './data'),
    databaseUrl,
    databaseReplicaUrls,
    replicaMaxLagMs,
    seed: seed as Config['seed'],
    seedScale: seedScale as Config['seedScale'],
    feed: feedText === 'on',
    payloadKey: env.HHT_PAYLOAD_KEY || DEFAULT_PAYLOAD_KEY,
    jwtSecret,
    testHooks,
    reportTimeoutMs,
    exportBatchRows,
    maxExports,
    reportWorkMem,
    production,
    consistUrl,
    consistToken,
    consistTimeoutMs,
    clientDir: resolve(rootDir, env.HHT_CLIENT_DIR ?? 'dist/client'),
    rootDir,
    workers,
    retentionDays,
    limits,
    reportCache,
    ...deviceTrust,
    ops,
    mail,
  };
}

// --- Proxies and terminals: whom to believe about addresses and clocks ---------------------------------------------

const MAX_PROXY_HOPS = 10;

/** One IPv4/IPv6 address, or a CIDR block of them. */
function isAddressOrCidr(text: string): boolean {
  const [addr = '', prefix, extra] = text.split('/');
  const family = isIP(addr);
  if (family === 0 || extra !== undefined) return false;
  if (prefix === undefined) return true;
  // A /0 block is every address: refused like "trust everything".
  return /^\d{1,3}$/.test(prefix) && Number(prefix) >= 1 && Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * HHT_TRUST_PROXY: unset or 0 = no proxy; a whole number = that many proxies in front (each appends the address it
 * saw); otherwise the proxies' addresses or CIDRs, comma-separated. Trusting every address is not offered: it would
 * let any client name its own address in X-Forwarded-For.
 */
export function parseTrustProxy(text: string | undefined, problems: string[]): TrustProxy {
  const value = (text ?? '').trim();
  if (value === '' || value === '0') return false;
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    if (hops <= MAX_PROXY_HOPS) return hops;
    problems.push(`HHT_TRUST_PROXY must be a hop count from 0 to ${MAX_PROXY_HOPS} or proxy addresses/CIDRs, got "${value}"`);
    return false;
  }
  const entries = value.split(',').map((e) => e.trim());
  const bad = entries.filter((e) => !isAddressOrCidr(e));
  if (bad.length > 0) {
    problems.push(
      `HHT_TRUST_PROXY must be a hop count from 0 to ${MAX_PROXY_HOPS} or the proxies' addresses/CIDRs (e.g. 10.0.0.5,10.0.1.0/24); ` +
        `trusting every address is not offered; not an address or CIDR: ${bad.map((b) => `"${b}"`).join(', ')}`,
    );
    return false;
  }
  return entries;
}

function loadDeviceTrust(env: NodeJS.ProcessEnv, problems: string[]): Pick<Config, 'trustProxy' | 'deviceClockSkewS' | 'deviceAuthFailuresPerMin'> {
  return {
    trustProxy: parseTrustProxy(env.HHT_TRUST_PROXY, problems),
    deviceClockSkewS: wholeNumber(env, 'HHT_DEVICE_CLOCK_SKEW_S', 300, 0, 86_400, problems),
    deviceAuthFailuresPerMin: wholeNumber(env, 'HHT_DEVICE_AUTH_FAILURES', 20, 1, 100_000, problems),
  };
}

function loadOps(env: NodeJS.ProcessEnv, problems: string[]): OpsSettings {
  const auditText = env.HHT_AUDIT ?? 'on';
  if (auditText !== 'on' && auditText !== 'off') problems.push(`HHT_AUDIT must be "on" or "off", got "${auditText}"`);
  return {
    audit: auditText !== 'off',
    // Below 180 is refused, never raised silently: the operator asked for less than the law allows.
    auditRetentionDays: wholeNumber(env, 'HHT_AUDIT_RETENTION_DAYS', MIN_AUDIT_RETENTION_DAYS, MIN_AUDIT_RETENTION_DAYS, 36_500, problems),
    auditFlushMs: wholeNumber(env, 'HHT_AUDIT_FLUSH_MS', 1_000, 10, 1_000, problems),
    metricsPort: env.HHT_METRICS_PORT ? wholeNumber(env, 'HHT_METRICS_PORT', 0, 1, 65_535, problems) : undefined,
  };
}
