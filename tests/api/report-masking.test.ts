/**
 * One masking rule for passengers' personal data (DOMAIN.md, docs/report-definitions.md): no report shows a
 * passenger's full name or mobile number, whatever the user's level. Every report and tab of the catalogue runs
 * on the seeded data with its sample filter under each scope (all India, a zone, a division, a lobby), and no cell
 * may hold a name or mobile exactly as stored, nor contain a stored mobile.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloneSeededTestDb } from '../support/seeded';
import { TEST_DRIVERS, type TestDb } from '../support/db';
import { sampleFilter } from '../support/sample-filters';
import { checkDefinitions } from '../../src/shared/definitions/validate';
import { readDefinitionFiles } from '../../src/server/reports/definition-files';
import { parseFilter } from '../../src/server/reports/filter';
import { runView } from '../../src/server/reports/executor';
import type { UserScope } from '../../src/server/reports/scope';
import { HttpError } from '../../src/server/plugins/errors';

const checked = checkDefinitions(readDefinitionFiles(process.cwd()));

/** The scope of each user level, on the division the samples are taken from (DLI of NR, lobby NDLS). */
const SCOPES: [string, UserScope][] = [
  ['SU', { kind: 'all' }],
  ['ZA', { kind: 'zone', code: 'NR' }],
  ['DA', { kind: 'division', code: 'DLI' }],
  ['LA', { kind: 'lobby', code: 'NDLS' }],
];

describe.each(TEST_DRIVERS)('personal data is masked in every report (%s)', (driver) => {
  let t: TestDb & { today: string };
  const names = new Set<string>();
  const mobiles = new Set<string>();

  beforeAll(async () => {
    t = await cloneSeededTestDb(driver);
    // Stored values that masking changes (a one-letter name would read the same masked). Staff names are shown
    // by design (who checked the coach), and the generator draws them from the same name list: a passenger
    // who shares a TTE's name is not a leak when that TTE is named.
    const personal = await t.db.query<{ v: string; kind: string }>(
      `SELECT v, 'name' AS kind FROM (
         SELECT name AS v FROM passengers UNION SELECT psgn_name FROM efts UNION SELECT name FROM dropped_etickets
         EXCEPT SELECT name FROM ttes EXCEPT SELECT name FROM onboard_staff) n
        WHERE v <> mask_name(v)
       UNION SELECT mobile_no, 'mobile' FROM passengers`,
    );
    for (const r of personal.rows) (r.kind === 'name' ? names : mobiles).add(r.v);
  }, 120_000);
  afterAll(async () => {
    await t?.drop();
  });

  it('the seed holds personal data to look for', () => {
    expect(names.size).toBeGreaterThan(100);
    expect(mobiles.size).toBeGreaterThan(100);
  });

  it.each(SCOPES)('no report shows a stored passenger name or mobile to %s', async (_level, scope) => {
    const leaks: string[] = [];
    let cells = 0;
    for (const report of checked.reports) {
      const filter = parseFilter(report, await sampleFilter(t.db, report, t.today, 'DLI'), t.today);
      for (const view of report.views) {
        let rows: Record<string, unknown>[];
        try {
          rows = (await runView(t.db, view, filter, scope, { timeoutMs: 30_000, rowsPerPage: 1000 })).rows;
        } catch (err) {
          if (err instanceof HttpError && err.statusCode === 403) continue; // no rule for this level: denied
          throw err;
        }
        for (const row of rows) {
          for (const [field, value] of Object.entries(row)) {
            if (typeof value !== 'string') continue;
            cells += 1;
            const digits = value.match(/\d{10}/g) ?? [];
            if (names.has(value) || digits.some((d) => mobiles.has(d))) {
              leaks.push(`${report.definition.id} / ${view.endpoint} ${field}: ${value}`);
            }
          }
        }
      }
    }
    expect(cells).toBeGreaterThan(300);
    expect([...new Set(leaks)].slice(0, 20)).toEqual([]);
  }, 300_000);
});
