import { ensureSeeded } from '../../src/server/db/seed';
import { createTestDb, type TestDb } from './db';

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
