import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Db, Queryable } from './types';

export const MIGRATIONS_DIR = new URL('./migrations/', import.meta.url).pathname;
/** One file per database function (the rollups and their upkeep), named for the function it defines. */
export const FUNCTIONS_DIR = new URL('./functions/', import.meta.url).pathname;
const NAME = /^(\d{3})_[a-z0-9_]+\.sql$/;
const FUNCTION_FILE = /^[a-z][a-z0-9_]*\.sql$/;

export interface Migration {
  version: string;
  name: string;
  sql: string;
}

export interface FunctionFile {
  /** The file name without .sql: the function it defines. */
  name: string;
  sql: string;
  checksum: string;
}

export function readMigrations(dir = MIGRATIONS_DIR): Migration[] {
  return readdirSync(dir)
    .filter((f) => NAME.test(f))
    .sort()
    .map((f) => ({ version: f.slice(0, 3), name: f, sql: readFileSync(join(dir, f), 'utf8') }));
}

export function readFunctionFiles(dir = FUNCTIONS_DIR): FunctionFile[] {
  return readdirSync(dir)
    .filter((f) => FUNCTION_FILE.test(f))
    .sort()
    .map((f) => {
      const sql = readFileSync(join(dir, f), 'utf8');
      return { name: f.slice(0, -4), sql, checksum: createHash('sha256').update(sql).digest('hex') };
    });
}

/**
 * Applies the function files whose text differs from what was last applied (checksum in schema_functions), so a
 * function has one home and a change to it is one edit. Bodies are not checked against each other while the files
 * go in (check_function_bodies off, as pg_dump does): a function may call one whose file comes later. A file that
 * changes a function's arguments or result type drops the old one first (CREATE OR REPLACE cannot). Returns the
 * names applied.
 */
export async function applyFunctionFiles(tx: Queryable, files = readFunctionFiles()): Promise<string[]> {
  await tx.exec(`CREATE TABLE IF NOT EXISTS schema_functions (
    name text PRIMARY KEY, checksum text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`);
  const known = new Map(
    (await tx.query<{ name: string; checksum: string }>('SELECT name, checksum FROM schema_functions')).rows.map((r) => [r.name, r.checksum]),
  );
  const changed = files.filter((f) => known.get(f.name) !== f.checksum);
  if (changed.length === 0) return [];
  await tx.query('SET LOCAL check_function_bodies = off');
  for (const f of changed) {
    await tx.exec(f.sql);
    await tx.query(
      `INSERT INTO schema_functions (name, checksum) VALUES ($1, $2)
       ON CONFLICT (name) DO UPDATE SET checksum = EXCLUDED.checksum, applied_at = now()`,
      [f.name, f.checksum],
    );
  }
  await tx.query('SET LOCAL check_function_bodies = on');
  return changed.map((f) => f.name);
}

/**
 * Applies each pending migration exactly once (tables, types, indexes), then the function files that changed, in
 * one transaction, under an advisory lock so that two instances starting together on one PostgreSQL do not race.
 * Returns the migration versions now applied.
 */
export async function migrate(db: Db, migrations = readMigrations(), functions = readFunctionFiles()): Promise<string[]> {
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
    await applyFunctionFiles(tx, functions);
    // The dirty-set triggers on the tables the rollups read, and what a migration left in the dirty set (migration 025).
    await callIfDefined(tx, 'hht_watch_rollup_sources()');
    await callIfDefined(tx, 'hht_drain_dirty()');
    // Tables a migration granted to the report role announce their changes too (migration 017).
    await callIfDefined(tx, 'hht_watch_report_tables()');
    return [...done].sort();
  });
}

/** Calls a function without arguments if the database has it (a migration test may stop before it exists). */
async function callIfDefined(tx: Queryable, signature: string): Promise<void> {
  const { rows } = await tx.query<{ ok: boolean }>('SELECT to_regprocedure($1) IS NOT NULL AS ok', [signature]);
  if (rows[0]?.ok === true) await tx.query(`SELECT ${signature}`);
}
