import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ensureSeeded } from '../../src/server/db/seed';
import { FUNCTIONS_DIR, MIGRATIONS_DIR } from '../../src/server/db/migrate';
import { createTestDb, createTestDbFrom, sourceKey, type TestDb } from './db';

/** The date tests seed around unless they pass their own: a fixed day keeps results stable. */
export const SEED_TODAY = '2026-03-15';

/**
 * A fresh, migrated database holding the `tiny` data set (every zone/division/lobby/office; trains of DLI,
 * BCT and MAS; a run of DLI and BCT on `today`) for the window today-30 .. today+1.
 */
export async function createSeededTestDb(
  driver: 'pglite' | 'pg' = 'pglite',
  opts: { today?: string } = {},
): Promise<TestDb & { today: string }> {
  const t = await createTestDb(driver);
  const today = opts.today ?? SEED_TODAY;
  await ensureSeeded(t.db, { scale: 'tiny', today, log: () => undefined });
  return { ...t, today };
}

/**
 * The same tiny data set, seeded once per code version and then cloned (a PGlite image under .tmp, a PostgreSQL
 * template): for tests that read the data. Tests of the generator itself use createSeededTestDb, which really seeds.
 */
export async function cloneSeededTestDb(
  driver: 'pglite' | 'pg' = 'pglite',
  opts: { today?: string; liveAt?: Date } = {},
): Promise<TestDb & { today: string }> {
  const today = opts.today ?? SEED_TODAY;
  const { liveAt } = opts;
  // A live seed releases its records through the HHT ingest: that code is part of what it produces.
  const files = [MIGRATIONS_DIR, FUNCTIONS_DIR, SEED_DIR, ...(liveAt ? [HHT_DIR] : [])].flatMap((dir) => listFiles(dir));
  const key = `tiny|${today}|${liveAt?.toISOString() ?? 'complete'}|${sourceKey(...files)}`;
  const t = await createTestDbFrom(driver, key, (db) => ensureSeeded(db, { scale: 'tiny', today, liveAt, log: () => undefined }).then(() => undefined));
  return { ...t, today };
}

const SEED_DIR = new URL('../../src/server/db/seed/', import.meta.url).pathname;
const HHT_DIR = new URL('../../src/server/hht/', import.meta.url).pathname;

function listFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => join(d.parentPath, d.name))
    .sort();
}
