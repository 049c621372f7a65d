import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { openDb, type Db } from '../../src/server/db';
import { openPglite } from '../../src/server/db/pglite-driver';
import { migrate } from '../../src/server/db/migrate';
import { waitForReplay, withDatabase } from './pg-cluster';

export interface TestDb {
  db: Db;
  /** Connection string of the fresh PostgreSQL database, when running on PostgreSQL. */
  url?: string;
  /** The same database on each streaming replica reads are routed to (TEST_DATABASE_REPLICA_URLS), if any. */
  replicaUrls?: string[];
  drop(): Promise<void>;
}

/** Drivers the API tests run on: PGlite always, PostgreSQL too when TEST_DATABASE_URL is set. */
export const TEST_DRIVERS: ('pglite' | 'pg')[] = process.env.TEST_DATABASE_URL ? ['pglite', 'pg'] : ['pglite'];

const adminQuery = async (sql: string): Promise<void> => {
  const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
};

/**
 * Streaming replicas of TEST_DATABASE_URL's server (comma-separated; CI sets it): when set, every PostgreSQL test
 * database is opened with them, so report reads and exports of the whole API suite are served by a replica. Strict
 * routing (max lag 0) keeps results exact: a read uses the replica once it has replayed what the test just wrote.
 */
export const TEST_REPLICA_URLS = (process.env.TEST_DATABASE_REPLICA_URLS ?? '').split(',').map((u) => u.trim()).filter(Boolean);

async function openPgDatabase(name: string): Promise<TestDb> {
  const url = new URL(process.env.TEST_DATABASE_URL ?? '');
  url.pathname = `/${name}`;
  const replicaUrls = TEST_REPLICA_URLS.map((r) => withDatabase(r, name));
  for (const r of TEST_REPLICA_URLS) {
    // Normally milliseconds; on a loaded machine it may take longer, and then reads simply use the primary
    // until the replica has the database (routing treats a missing database as a replica that is down).
    await waitForReplay(url.toString(), r, name).catch((err: unknown) => console.warn(String(err)));
  }
  const db = await openDb({ databaseUrl: url.toString(), dataDir: null, replicaUrls, replicaMaxLagMs: 0 });
  return {
    db,
    url: url.toString(),
    replicaUrls,
    drop: async () => {
      await db.close();
      await adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

/**
 * A fresh, migrated database: in-memory PGlite, or a new database created on TEST_DATABASE_URL's server
 * (dropped again by drop()).
 */
export async function createTestDb(driver: 'pglite' | 'pg' = 'pglite'): Promise<TestDb> {
  if (driver === 'pglite') {
    const db = await openDb({ dataDir: null });
    await migrate(db);
    return { db, drop: () => db.close() };
  }
  if (!process.env.TEST_DATABASE_URL) throw new Error('TEST_DATABASE_URL is not set');
  const name = `hht_test_${randomBytes(6).toString('hex')}`;
  await adminQuery(`CREATE DATABASE ${name}`);
  const t = await openPgDatabase(name);
  await migrate(t.db);
  return t;
}

const CACHE_DIR = join(process.cwd(), '.tmp', 'test-db-images');

/**
 * A fresh database whose content `build` made once and that is then cloned: a PGlite image file under .tmp/
 * (shared by every test file and run) or a PostgreSQL template database. `key` must change whenever what
 * `build` produces could (callers hash their inputs into it).
 */
export async function createTestDbFrom(
  driver: 'pglite' | 'pg',
  key: string,
  build: (db: Db) => Promise<void>,
): Promise<TestDb> {
  const id = createHash('sha256').update(key).digest('hex').slice(0, 16);
  if (driver === 'pglite') {
    const file = join(CACHE_DIR, `${id}.tar`);
    if (!existsSync(file)) {
      const t = await createTestDb('pglite');
      await build(t.db);
      const image = await t.db.dumpImage?.();
      await t.drop();
      if (!image) throw new Error('the PGlite driver cannot dump an image');
      mkdirSync(CACHE_DIR, { recursive: true });
      const tmp = `${file}.${process.pid}.tmp`;
      writeFileSync(tmp, Buffer.from(await image.arrayBuffer()));
      renameSync(tmp, file); // atomic: a parallel test file never reads half an image
    }
    const db = await openPglite(null, new Blob([readFileSync(file)]));
    await migrate(db);
    return { db, drop: () => db.close() };
  }
  const template = `hht_tpl_${id}`;
  const exists = async (): Promise<boolean> => {
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    try {
      return (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [template])).rows.length > 0;
    } finally {
      await admin.end();
    }
  };
  if (!(await exists())) {
    const building = `${template}_b${randomBytes(3).toString('hex')}`;
    await adminQuery(`CREATE DATABASE ${building}`);
    const t = await openPgDatabase(building);
    await migrate(t.db);
    await build(t.db);
    await t.db.close();
    try {
      await adminQuery(`ALTER DATABASE ${building} RENAME TO ${template}`);
    } catch {
      await adminQuery(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`); // another file built it first
    }
  }
  const name = `hht_test_${randomBytes(6).toString('hex')}`;
  await adminQuery(`CREATE DATABASE ${name} TEMPLATE ${template}`);
  return openPgDatabase(name);
}

/** A key that changes with every file under the given folders (migrations, seed code). */
export function sourceKey(...files: string[]): string {
  const h = createHash('sha256');
  for (const f of files) h.update(f).update(readFileSync(f));
  return h.digest('hex');
}
