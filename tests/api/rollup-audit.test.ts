/**
 * The rollup auditor: drift made by hand in a rollup (a write that bypassed the triggers) is found by one pass of the
 * job, repaired from the raw rows, logged with its run and table, counted in the database and shown to operators.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { TEST_DRIVERS, type TestDb } from '../support/db';
import { cloneSeededTestDb } from '../support/seeded';
import { buildTestApp } from '../support/app';
import { insertUser, loginAs } from '../support/login';
import { readRollupReferences, rollupDrift } from '../../src/server/db/rollup-audit';
import { startRollupAuditor } from '../../src/server/process/rollup-auditor';

describe.each(TEST_DRIVERS)('the rollup auditor on %s', (driver) => {
  let t: TestDb;
  let app: FastifyInstance;
  const refs = readRollupReferences();
  const ref = (table: string) => {
    const r = refs.get(table);
    if (!r) throw new Error(`no reference for ${table}`);
    return r;
  };

  beforeAll(async () => {
    t = await cloneSeededTestDb(driver);
    app = await buildTestApp(t.db);
  });
  afterAll(async () => {
    await app?.close();
    await t?.drop();
  });

  it('finds drift made by hand in one pass, repairs it, logs run and table, and counts it for operators', async () => {
    const runs = (await t.db.query<{ run_id: string }>(
      `SELECT run_id::text FROM train_runs r WHERE EXISTS (SELECT 1 FROM rollup_tdrs d WHERE d.run_id = r.run_id) ORDER BY run_id LIMIT 3`,
    )).rows.map((r) => Number(r.run_id));
    expect(runs).toHaveLength(3);
    const [first = 0, , third = 0] = runs;
    // Drift: writes straight into the rollups, which no trigger watches.
    await t.db.query('UPDATE rollup_run_passengers SET passengers = passengers + 5 WHERE run_id = $1', [first]);
    await t.db.query('DELETE FROM rollup_tdrs WHERE run_id = $1', [third]);
    expect((await rollupDrift(t.db, ref('rollup_run_passengers'), [first, first + 1])).extra).toBeGreaterThan(0);
    expect((await rollupDrift(t.db, ref('rollup_tdrs'), [third, third + 1])).missing).toBeGreaterThan(0);
    await t.db.query('UPDATE hht_rollup_audit_state SET next_run_id = $1 WHERE id = 1', [first]);

    const lines: string[] = [];
    const auditor = startRollupAuditor(t.db, (l) => lines.push(l), (err) => {
      throw err;
    }, 3_600_000);
    const pass = await auditor.tick();
    await auditor.stop();

    expect(pass.runs.slice(0, 3)).toEqual(runs);
    expect(pass.repairs.map((r) => [r.runId, r.table]).sort()).toEqual([[first, 'rollup_run_passengers'], [third, 'rollup_tdrs']].sort());
    expect(lines).toHaveLength(2);
    expect(lines.some((l) => l.includes(`run ${first} rollup_run_passengers`))).toBe(true);
    expect(lines.some((l) => l.includes(`run ${third} rollup_tdrs`))).toBe(true);
    // Repaired: the rollups equal their references again, over every run.
    for (const table of ['rollup_run_passengers', 'rollup_tdrs', 'rollup_sync_day', 'rollup_manning_day']) {
      expect(await rollupDrift(t.db, ref(table)), table).toEqual({ table, missing: 0, extra: 0 });
    }
    // Counted in the database, and shown to a signed-in operator.
    expect((await t.db.query<{ n: string }>('SELECT hht_rollup_repairs()::text AS n')).rows[0]?.n).toBe('2');
    await insertUser(t.db, { userId: 'AUDITUSR', userLevel: 'SU' });
    const user = await loginAs(app, 'AUDITUSR');
    const res = await app.inject({ method: 'GET', url: '/api/health', headers: user.headers() });
    expect(res.json().rollups).toEqual({ repairs: 2 });

    // The next pass goes on from where this one stopped and finds nothing to repair.
    const state = await t.db.query<{ next: string }>('SELECT next_run_id::text AS next FROM hht_rollup_audit_state');
    expect(Number(state.rows[0]?.next)).toBe((pass.runs[pass.runs.length - 1] ?? 0) + 1);
    const again = await startRollupAuditor(t.db, () => undefined, () => undefined, 3_600_000);
    const second = await again.tick();
    await again.stop();
    expect(second.repairs).toEqual([]);
    expect(second.runs[0]).toBeGreaterThan(pass.runs[pass.runs.length - 1] ?? 0);
  });
});
