import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DRIVERS } from '../support/db';
import { createSeededTestDb } from '../support/seeded';
import type { Db } from '../../src/server/db';
import { SEED_TABLES } from '../../src/server/demo/loader';
import { isHastyAllotmentRun, runIdOf } from '../../src/server/demo/runs';
import { checkDefinitions } from '../../src/shared/definitions/validate';
import { readDefinitionFiles } from '../../src/server/reports/definition-files';
import { parseFilter } from '../../src/server/reports/filter';
import { runView } from '../../src/server/reports/executor';

async function scalar(db: Db, sql: string, params: unknown[] = []): Promise<number> {
  const { rows } = await db.query<{ n: number }>(sql, params);
  return Number(rows[0]?.n ?? 0);
}

describe.each(TEST_DRIVERS)('seeded data sanity on %s', (driver) => {
  let t: Awaited<ReturnType<typeof createSeededTestDb>>;
  beforeAll(async () => {
    t = await createSeededTestDb(driver);
  }, 240_000);
  afterAll(async () => {
    await t?.drop();
  });

  it('fills every table', async () => {
    for (const table of SEED_TABLES) {
      expect(await scalar(t.db, `SELECT count(*)::int AS n FROM ${table}`), table).toBeGreaterThan(0);
    }
    expect(await scalar(t.db, 'SELECT count(*)::int AS n FROM users')).toBe(0);
  });

  it('honours every foreign key (the load skips the triggers, so check them here)', async () => {
    const { rows } = await t.db.query<{ sql: string; name: string }>(`
      SELECT c.conname AS name, format('SELECT count(*)::int AS n FROM %s ch WHERE (%s) IS NOT NULL AND NOT EXISTS (SELECT 1 FROM %s p WHERE (%s) = (%s))',
        c.conrelid::regclass, string_agg('ch.' || quote_ident(a.attname), ', '), c.confrelid::regclass,
        string_agg('p.' || quote_ident(fa.attname), ', '), string_agg('ch.' || quote_ident(a.attname), ', ')) AS sql
      FROM pg_constraint c
      JOIN LATERAL unnest(c.conkey, c.confkey) AS k(col, fcol) ON true
      JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.col
      JOIN pg_attribute fa ON fa.attrelid = c.confrelid AND fa.attnum = k.fcol
      -- Top-level keys only: on partitioned tables (migration 013) PostgreSQL adds one per partition pair, which the
      -- parent's check already covers (and which read as violations when checked against a single partition).
      WHERE c.contype = 'f' AND c.conparentid = 0 GROUP BY c.oid, c.conname, c.conrelid, c.confrelid`);
    expect(rows.length).toBeGreaterThan(20);
    for (const r of rows) expect(await scalar(t.db, r.sql), r.name).toBe(0);
  });

  it('keeps every run within its coaches and capacity', async () => {
    expect(await scalar(t.db, 'SELECT count(*)::int AS n FROM train_runs r WHERE NOT EXISTS (SELECT 1 FROM run_coaches c WHERE c.run_id = r.run_id)')).toBe(0);
    expect(
      await scalar(t.db, `SELECT count(*)::int AS n FROM passengers p JOIN run_coaches c USING (run_id, coach_id)
                          WHERE p.berth_no NOT BETWEEN 1 AND c.capacity`),
    ).toBe(0);
    // Booked 85-105 %: confirmed and RAC passengers never exceed what the berths can hold per segment.
    expect(
      await scalar(t.db, `SELECT count(*)::int AS n FROM (SELECT run_id, coach_id, count(*) AS n FROM passengers
                          WHERE coach_id IS NOT NULL GROUP BY 1, 2) x JOIN run_coaches c USING (run_id, coach_id) WHERE x.n > c.capacity * 2`),
    ).toBe(0);
  });

  it('keeps marks, events, EFTs and payments consistent', async () => {
    expect(await scalar(t.db, "SELECT count(*)::int AS n FROM passengers WHERE mark IS NOT NULL AND (marked_at IS NULL OR marked_by IS NULL)")).toBe(0);
    expect(await scalar(t.db, 'SELECT count(*)::int AS n FROM efts WHERE total <> excess_fare + excess_charge OR total < 250')).toBe(0);
    expect(
      await scalar(t.db, `SELECT count(*)::int AS n FROM digital_payments d JOIN efts e USING (eft_no)
                          WHERE e.payment_mode NOT IN ('CARD', 'UPI') OR d.mode <> e.payment_mode`),
    ).toBe(0);
    expect(await scalar(t.db, 'SELECT count(*)::int AS n FROM efts e JOIN beats b USING (beat_id) WHERE e.trip_id <> b.trip_id')).toBe(0);
    expect(await scalar(t.db, 'SELECT count(*)::int AS n FROM checking_events WHERE sync_time < device_time')).toBe(0);
    const nt = await scalar(t.db, "SELECT (100 * count(*) FILTER (WHERE event_type = 'NT') / count(*))::int AS n FROM checking_events WHERE event_type IN ('O', 'NT')");
    expect(nt).toBeGreaterThanOrEqual(3);
    expect(nt).toBeLessThanOrEqual(10);
    expect(await scalar(t.db, "SELECT count(*)::int AS n FROM train_runs WHERE chart1_at > (chart2_at - interval '3 hours') OR hht_download_at < chart2_at")).toBe(0);
    // On the HHT only once the chart is on it, and before the TTE signs off.
    expect(await scalar(t.db, 'SELECT count(*)::int AS n FROM checking_events e JOIN train_runs r USING (run_id) WHERE e.device_time < r.hht_download_at')).toBe(0);
    expect(await scalar(t.db, 'SELECT count(*)::int AS n FROM checking_events e JOIN beats b USING (beat_id) WHERE e.device_time > b.sign_off_at')).toBe(0);
    // A berth of a passenger not turned up goes back to PRS only after the NT mark.
    expect(
      await scalar(t.db, `SELECT count(*)::int AS n FROM vacant_berths v JOIN passengers p ON p.run_id = v.run_id AND p.coach_id = v.coach_id
                          AND p.berth_no = v.berth_no AND p.from_station = v.from_station AND p.mark = 'NT'
                          WHERE v.reason = 'NT' AND v.released_at < p.marked_at`),
    ).toBe(0);
  });

  it('shifts berths on runs with fewer than 250 passengers present too', async () => {
    const small = await scalar(
      t.db,
      `SELECT count(*)::int AS n FROM (SELECT run_id FROM passengers GROUP BY run_id HAVING count(*) FILTER (WHERE mark = 'O') BETWEEN 1 AND 249) x
        WHERE EXISTS (SELECT 1 FROM checking_events e WHERE e.run_id = x.run_id AND e.event_type = 'SHIFTED')`,
    );
    expect(small).toBeGreaterThan(0);
  });

  it('makes allotment anomalies only deliberately: one within the NT grace on some hasty runs, none else', async () => {
    const report = checkDefinitions(readDefinitionFiles(process.cwd())).reports.find((r) => r.definition.id === 'bertallotmentanomaly');
    const view = report?.views.find((v) => v.endpoint === 'AllocationException');
    if (!report || !view) throw new Error('no AllocationException view');
    const { rows: dates } = await t.db.query<{ d: string }>('SELECT DISTINCT start_date::text AS d FROM train_runs WHERE chart1_at IS NOT NULL ORDER BY 1');
    // Allotments flagged, per run (a shared RAC berth has two NT holders, so two rows for one allotment).
    const perRun = new Map<number, Set<string>>();
    for (const { d } of dates) {
      const filter = parseFilter(report, { startDate: d }, t.today);
      const { rows } = await runView(t.db, view, filter, { kind: 'all' }, { timeoutMs: 30_000, rowsPerPage: 1000 });
      for (const r of rows as Record<string, unknown>[]) {
        expect(r.anomaly, JSON.stringify(r)).toBe('ALLOTTED_WITHIN_NT_GRACE');
        const runId = runIdOf(String(r.train_no), d);
        expect(isHastyAllotmentRun('tiny', runId), JSON.stringify(r)).toBe(true);
        perRun.set(runId, (perRun.get(runId) ?? new Set<string>()).add(`${String(r.pnr)}|${String(r.allotted_at)}`));
      }
    }
    expect(perRun.size).toBeGreaterThan(0);
    for (const allotments of perRun.values()) expect(allotments.size).toBe(1);
  });

  it('gives DLI and BCT trains, TTEs, EFTs, TDRs and payments today', async () => {
    for (const div of ['DLI', 'BCT']) {
      const today = [t.today, div];
      expect(await scalar(t.db, 'SELECT count(*)::int AS n FROM train_runs WHERE start_date = $1 AND div_code = $2', today), div).toBeGreaterThan(0);
      expect(await scalar(t.db, 'SELECT count(*)::int AS n FROM beats b JOIN train_runs r USING (run_id) WHERE r.start_date = $1 AND b.div_code = $2', today)).toBeGreaterThan(0);
      expect(await scalar(t.db, 'SELECT count(*)::int AS n FROM efts e JOIN train_runs r USING (run_id) WHERE r.start_date = $1 AND e.div_code = $2', today)).toBeGreaterThan(0);
      expect(await scalar(t.db, 'SELECT count(*)::int AS n FROM tdrs e JOIN train_runs r USING (run_id) WHERE r.start_date = $1 AND e.div_code = $2', today)).toBeGreaterThan(0);
      expect(await scalar(t.db, 'SELECT count(*)::int AS n FROM checking_events e JOIN train_runs r USING (run_id) WHERE r.start_date = $1 AND e.div_code = $2', today)).toBeGreaterThan(0);
    }
    // DLI's New Delhi lobby works trains.
    expect(await scalar(t.db, "SELECT count(*)::int AS n FROM beats WHERE lobby_code = 'NDLS'")).toBeGreaterThan(0);
    // Every division owning a train has data on its runs' days, of every kind.
    const { rows } = await t.db.query<{ div_code: string }>('SELECT DISTINCT div_code FROM trains');
    for (const { div_code } of rows) {
      for (const table of ['beats', 'efts', 'digital_payments', 'tdrs', 'coach_deficiencies', 'complaints', 'vacant_berths', 'reallocations', 'dropped_etickets']) {
        expect(await scalar(t.db, `SELECT count(*)::int AS n FROM ${table} WHERE div_code = $1`, [div_code]), `${table} ${div_code}`).toBeGreaterThan(0);
      }
    }
  });

  it('has devices in every state, some TTEs with two, and last syncs from events', async () => {
    const { rows } = await t.db.query<{ status: string }>('SELECT DISTINCT status FROM devices ORDER BY 1');
    expect(rows.map((r) => r.status)).toEqual(['IN_SERVICE', 'LOST', 'UNDER_REPAIR', 'WITHDRAWN']);
    expect(await scalar(t.db, 'SELECT count(*)::int AS n FROM (SELECT assigned_tte_id FROM devices WHERE assigned_tte_id IS NOT NULL GROUP BY 1 HAVING count(*) > 1) x')).toBeGreaterThan(0);
    expect(await scalar(t.db, 'SELECT count(*)::int AS n FROM devices WHERE last_sync_at IS NOT NULL')).toBeGreaterThan(0);
  });
});
