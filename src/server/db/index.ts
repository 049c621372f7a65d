import { openPg } from './pg-driver';
import { openPglite } from './pglite-driver';
import type { Db } from './types';

export type { Db, Queryable, DriverName, Listener, ListenHandlers } from './types';

export interface DbOptions {
  /** PostgreSQL connection string; when set, the embedded database is not used. */
  databaseUrl?: string | undefined;
  /** Embedded database folder; null means in memory (tests). */
  dataDir: string | null;
}

export function openDb(opts: DbOptions): Promise<Db> {
  return opts.databaseUrl ? openPg(opts.databaseUrl) : openPglite(opts.dataDir);
}
