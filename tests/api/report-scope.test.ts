import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloneSeededTestDb } from '../support/seeded';
import { TEST_DRIVERS, type TestDb } from '../support/db';
import { sampleFilter } from '../support/sample-filters';
import { checkDefinitions, type CheckedView } from '../../src/shared/definitions/validate';
import { readDefinitionFiles } from '../../src/server/reports/definition-files';
import { parseFilter } from '../../src/server/reports/filter';
import { buildQuery } from '../../src/server/reports/executor';
import type { UserScope } from '../../src/server/reports/scope';
import type { Db } from '../../src/server/db';

/** Fact and reference rows of every division but `keep` are deleted, children first (retried until no progress). */
async function keepOnlyDivision(db: Db, keep: string): Promise<void> {
  const tables = (
    await db.query<{ table_name: string }>(
      `SELECT table_name FROM information_schema.columns
        WHERE column_name = 'div_code' AND table_schema = current_schema()
          AND table_name NOT IN ('divisions', 'users')`,
    )
  ).rows.map((r) => r.table_name);
  const statements = [
    `DELETE FROM run_coaches WHERE run_id IN (SELECT run_id FROM train_runs WHERE div_code <> '${keep}')`,
    `DELETE FROM train_stops WHERE train_no IN (SELECT train_no FROM trains WHERE div_code <> '${keep}')`,
    `DELETE FROM train_consist WHERE train_no IN (SELECT train_no FROM trains WHERE div_code <> '${keep}')`,
    ...tables.map((t) => `DELETE FROM ${t} WHERE div_code IS DISTINCT FROM '${keep}'`),
  ];
  let pending = statements;
  for (let round = 0; round < 12 && pending.length > 0; round += 1) {
    const failed: string[] = [];
    for (const s of pending) {
      try {
        await db.query(s);
      } catch {
        failed.push(s); // a foreign key still points at these rows: retry after their children are gone
      }
    }
    pending = failed;
  }
}

const canonical = (rows: Record<string, unknown>[]): string[] => rows.map((r) => JSON.stringify(r)).sort();

describe.each(TEST_DRIVERS)('row scope of every report on %s', (driver) => {
  let t: TestDb & { today: string };
  const checked = checkDefinitions(readDefinitionFiles(process.cwd()));
  const divScope: UserScope = { kind: 'division', code: 'DLI' };
  const all: UserScope = { kind: 'all' };
  const results = new Map<string, { view: CheckedView; asDiv: string[]; asSuFull: number; filter: Record<string, unknown> }>();

  beforeAll(async () => {
    t = await cloneSeededTestDb(driver);
    // Filters from DLI's data and from another division's (BCT): a DLI user asking for a BCT train must get nothing.
    for (const report of checked.reports) {
      for (const sampleDiv of ['DLI', 'BCT']) {
        const filter = parseFilter(report, await sampleFilter(t.db, report, t.today, sampleDiv), t.today);
        for (const view of report.views) {
          if (Object.keys(view.scope).length === 0) {
            // No scope rule on purpose (source.suOnly: the audit trail): a division user is refused outright.
            expect(() => buildQuery(view, filter, divScope)).toThrow(/not available at your user level/);
            continue;
          }
          const div = buildQuery(view, filter, divScope);
          const su = buildQuery(view, filter, all);
          results.set(`${view.endpoint} (${sampleDiv} sample)`, {
            view,
            asDiv: canonical((await t.db.query(div.sql, div.params)).rows),
            asSuFull: (await t.db.query(su.sql, su.params)).rows.length,
            filter,
          });
        }
      }
    }
    await keepOnlyDivision(t.db, 'DLI');
  }, 600_000);
  afterAll(async () => {
    await t?.drop();
  });

  it('HHTDIV (division DLI) receives exactly what an all-India user sees once every other division is gone', async () => {
    const mismatched: string[] = [];
    for (const [key, before] of results) {
      const su = buildQuery(before.view, before.filter, all);
      const onlyDli = canonical((await t.db.query(su.sql, su.params)).rows);
      if (JSON.stringify(onlyDli) !== JSON.stringify(before.asDiv)) mismatched.push(key);
    }
    expect(mismatched).toEqual([]);
  });

  it('the comparison has teeth: most calls return rows to HHTDIV, and some rows of other divisions exist', () => {
    const views = [...results.entries()].filter(([k]) => k.endsWith('(DLI sample)'));
    const withRows = views.filter(([, r]) => r.asDiv.length > 0).map(([e]) => e);
    const empty = views.filter(([, r]) => r.asDiv.length === 0).map(([e]) => e);
    expect(withRows.length, `calls with no DLI rows: ${empty.join(', ')}`).toBeGreaterThanOrEqual(Math.ceil(views.length * 0.6));
    // With another division's train, an all-India user sees rows the DLI user must not.
    const other = [...results.entries()].filter(([k]) => k.endsWith('(BCT sample)'));
    expect(other.filter(([, r]) => r.asSuFull > r.asDiv.length).length).toBeGreaterThan(0);
  });
});
