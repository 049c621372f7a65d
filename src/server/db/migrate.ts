import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Db } from './types';

export const MIGRATIONS_DIR = new URL('./migrations/', import.meta.url).pathname;
const NAME = /^(\d{3})_[a-z0-9_]+\.sql$/;

export interface Migration {
  version: string;
  name: string;
  sql: string;
}

export function readMigrations(dir = MIGRATIONS_DIR): Migration[] {
  return readdirSync(dir)
    .filter((f) => NAME.test(f))
    .sort()
    .map((f) => ({ version: f.slice(0, 3), name: f, sql: readFileSync(join(dir, f), 'utf8') }));
}

/**
 * Applies each pending migration exactly once, in a transaction, under an advisory lock so that two
 * instances starting together on one PostgreSQL do not race. Returns the versions now applied.
 */
export async function migrate(db: Db, migrations = readMigrations()): Promise<string[]> {
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock(424242)');
    await tx.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version text PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`);
    const done = new Set(
      (await tx.query<{ version: string }>('SELECT version FROM schema_migrations')).rows.map((r) => r.version),
    );
    for (const m of migrations) {
      if (done.has(m.version)) continue;
      await tx.exec(m.sql);
      await tx.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [m.version, m.name]);
      done.add(m.version);
    }
    // Tables a migration granted to the report role announce their changes too (migration 017).
    const watch = await tx.query<{ ok: boolean }>("SELECT to_regprocedure('hht_watch_report_tables()') IS NOT NULL AS ok");
    if (watch.rows[0]?.ok === true) await tx.query('SELECT hht_watch_report_tables()');
    return [...done].sort();
  });
}
