import { openPg } from './pg-driver';
import { openPglite } from './pglite-driver';
import { withReplicas } from './replicas';
import type { Db } from './types';

export type { Db, Queryable, DriverName, Listener, ListenHandlers } from './types';

export interface DbOptions {
  /** PostgreSQL connection string; when set, the embedded database is not used. */
  databaseUrl?: string | undefined;
  /** Streaming replicas of databaseUrl that serve report reads (PostgreSQL only; see replicas.ts). */
  replicaUrls?: readonly string[] | undefined;
  /** Largest lag a replica may have and serve reads, ms; 0 = strict read-your-writes (default 2000). */
  replicaMaxLagMs?: number | undefined;
  /** Embedded database folder; null means in memory (tests). */
  dataDir: string | null;
  /** Where replica state changes are told (down, back, lagging). */
  log?: ((line: string) => void) | undefined;
  /** work_mem of PostgreSQL report sessions (default DEFAULT_REPORT_WORK_MEM). */
  reportWorkMem?: string | undefined;
}

export async function openDb(opts: DbOptions): Promise<Db> {
  if (!opts.databaseUrl) return openPglite(opts.dataDir);
  const workMem = opts.reportWorkMem ? { reportWorkMem: opts.reportWorkMem } : {};
  const primary = await openPg(opts.databaseUrl, workMem);
  if (!opts.replicaUrls || opts.replicaUrls.length === 0) return primary;
  return withReplicas(primary, { urls: opts.replicaUrls, maxLagMs: opts.replicaMaxLagMs ?? 2000, ...(opts.log ? { log: opts.log } : {}), ...workMem });
}
