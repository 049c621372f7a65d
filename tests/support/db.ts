import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDb, type Db } from '../../src/server/db';
import { migrate } from '../../src/server/db/migrate';

export interface TestDb {
  db: Db;
  /** Connection string of the fresh PostgreSQL database, when running on PostgreSQL. */
  url?: string;
  drop(): Promise<void>;
}

/** Drivers the API tests run on: PGlite always, PostgreSQL too when TEST_DATABASE_URL is set. */
export const TEST_DRIVERS: ('pglite' | 'pg')[] = process.env.TEST_DATABASE_URL ? ['pglite', 'pg'] : ['pglite'];

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
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error('TEST_DATABASE_URL is not set');
  const name = `hht_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const db = await openDb({ databaseUrl: url.toString(), dataDir: null });
  await migrate(db);
  return {
    db,
    url: url.toString(),
    drop: async () => {
      await db.close();
      const a = new pg.Client({ connectionString: adminUrl });
      await a.connect();
      await a.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await a.end();
    },
  };
}
