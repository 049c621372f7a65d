import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../support/db';
import { seedNational, nationalDays } from '../../src/server/db/seed/national';
import { buildReference } from '../../src/server/db/seed/reference';
import { generateRun, runsOn, RUN_TABLES } from '../../src/server/db/seed/runs';
import { PARTITIONED_TABLES } from '../../src/server/db/partitions';
import { readRollupReferences, rollupDrift } from '../../src/server/db/rollup-audit';

// The national loader writes with COPY, which only a PostgreSQL server has: this runs when TEST_DATABASE_URL is set.
describe.runIf(process.env.TEST_DATABASE_URL)('national load with COPY on pg', () => {
  let t: TestDb;
  const today = '2026-11-18';
  const TRAINS = 12;
  const lines: string[] = [];
  const n = async (sql: string, params: unknown[] = []): Promise<number> => Number((await t.db.query<{ n: number }>(sql, params)).rows[0]?.n);

  beforeAll(async () => {
    t = await createTestDb('pg');
  });
  afterAll(async () => {
    await t?.drop();
  });

  it('loads the days as the generator makes them, into their partitions, with rollups and unique PNRs', async () => {
    const figures = await seedNational(t.db, { databaseUrl: t.url ?? '', days: 2, today, log: (l) => lines.push(l), progress: false, trainLimit: TRAINS });
    expect(figures.map((f) => f.date)).toEqual(nationalDays(today, 2));
    // Row for row what generateRun makes for those trains and days (PNRs aside, which the loader renumbers).
    const ref = buildReference('national');
    const expected = new Map<string, number>();
    for (const date of nationalDays(today, 2)) {
      ref.trains.slice(0, TRAINS).forEach((train, trainIdx) => {
        if (!runsOn(train, date)) return;
        const run = generateRun({ ref, trainIdx }, train, date, true);
        for (const table of RUN_TABLES) expected.set(table, (expected.get(table) ?? 0) + run[table].length);
      });
    }
    for (const table of RUN_TABLES) expect(await n(`SELECT count(*)::int AS n FROM ${table}`), table).toBe(expected.get(table));
    expect(figures.reduce((s, f) => s + f.passengers, 0)).toBe(expected.get('passengers'));
    for (const table of PARTITIONED_TABLES) expect(await n(`SELECT count(*)::int AS n FROM ${table}_other`), table).toBe(0);
    expect(await n('SELECT count(DISTINCT pnr)::int AS n FROM pnrs')).toBe(expected.get('pnrs'));
    expect(await n('SELECT count(*)::int AS n FROM passengers p WHERE NOT EXISTS (SELECT 1 FROM pnrs r WHERE r.pnr = p.pnr AND r.run_id = p.run_id)')).toBe(0);
    expect(await n('SELECT sum(passengers)::int AS n FROM rollup_run_passengers')).toBe(await n("SELECT count(*)::int AS n FROM passengers WHERE current_status <> 'CAN'"));
    expect(await n('SELECT sum(events)::int AS n FROM rollup_sync')).toBe(await n('SELECT count(*)::int AS n FROM checking_events'));
    // The day rollups (migration 018) cover every day loaded, each day filled after the one before.
    expect(await n('SELECT sum(events)::int AS n FROM rollup_sync_day WHERE lobby_code IS NULL')).toBe(await n('SELECT count(*)::int AS n FROM checking_events'));
    expect(await n('SELECT sum(events)::int AS n FROM rollup_sync_day WHERE lobby_code IS NOT NULL')).toBe(await n('SELECT count(*)::int AS n FROM checking_events'));
    expect(await n('SELECT sum(events)::int AS n FROM rollup_tte_day')).toBe(await n('SELECT count(*)::int AS n FROM checking_events'));
    expect(await n('SELECT sum(efts)::int AS n FROM rollup_efts')).toBe(await n('SELECT count(*)::int AS n FROM efts'));
    // Every rollup equals its reference over the raw rows: the COPY's statement triggers dirtied the day, its commit drained it.
    for (const ref of readRollupReferences().values()) expect(await rollupDrift(t.db, ref)).toEqual({ table: ref.table, missing: 0, extra: 0 });
    expect(await n("SELECT count(*)::int AS n FROM seed_state WHERE scale = 'national' AND last_run_date = $1::date", [today])).toBe(1);
    expect(lines.some((l) => /seed: 2026-11-18 \d+ runs/.test(l))).toBe(true);

    // Loading again keeps the days already there.
    const again = await seedNational(t.db, { databaseUrl: t.url ?? '', days: 2, today, log: (l) => lines.push(l), progress: false, trainLimit: TRAINS });
    expect(again).toEqual([]);
    expect(await n('SELECT count(*)::int AS n FROM passengers')).toBe(expected.get('passengers'));
  });

  it('refuses a database holding another seed and a bad day count', async () => {
    await expect(seedNational(t.db, { databaseUrl: t.url ?? '', days: 0, today, log: () => undefined, progress: false })).rejects.toThrow(/--days must be 1 to 400/);
    await t.db.query("UPDATE seed_state SET scale = 'large'");
    await expect(seedNational(t.db, { databaseUrl: t.url ?? '', days: 1, today, log: () => undefined, progress: false })).rejects.toThrow(/holds the large seed/);
  });
});
