import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { cloneSeededTestDb } from '../support/seeded';
import type { TestDb } from '../support/db';
import { buildTestApp } from '../support/app';
import { loginAs, type SignedIn } from '../support/login';
import { sampleFilter } from '../support/sample-filters';
import { insertDemoUsers } from '../../src/server/auth/demo-users';
import { checkDefinitions } from '../../src/shared/definitions/validate';
import { readDefinitionFiles } from '../../src/server/reports/definition-files';
import { manualClock } from '../../src/server/clock';

const ATTACKS = ["'; DROP TABLE passengers; --", "1' OR '1'='1", '{{scope}}', ':trainNo', '$1) OR TRUE --'];

/** Every filter field of every report, fed SQL injection strings: the answer is data (200) or a 400, never SQL. */
describe('injection strings in every filter field of every report', () => {
  let t: TestDb & { today: string };
  let app: FastifyInstance;
  let su: SignedIn;
  const checked = checkDefinitions(readDefinitionFiles(process.cwd()));

  beforeAll(async () => {
    t = await cloneSeededTestDb('pglite');
    await insertDemoUsers(t.db);
    app = await buildTestApp(t.db, { clock: manualClock(new Date(`${t.today}T12:00:00+05:30`)) });
    su = await loginAs(app, 'HHTSU');
  }, 300_000);
  afterAll(async () => {
    await app?.close();
    await t?.drop();
  });

  it('answers 200 with data or 400, never an error, and changes no data', async () => {
    const before = (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM passengers')).rows[0]?.n;
    const unexpected: string[] = [];
    for (const report of checked.reports) {
      const base = await sampleFilter(t.db, report, t.today);
      const props = Object.keys((report.filterSchema.properties ?? {}) as object);
      for (const view of report.views) {
        for (const field of props) {
          for (const attack of ATTACKS) {
            const filter = { ...base, [field]: attack };
            const res =
              view.method === 'GET'
                ? await app.inject({ method: 'GET', url: `/api/${view.endpoint}?${new URLSearchParams(Object.entries(filter).map(([k, v]) => [k, String(v)])).toString()}`, headers: su.headers() })
                : await app.inject({ method: 'POST', url: `/api/${view.endpoint}`, headers: su.headers(), payload: filter });
            if (res.statusCode === 400) continue;
            if (res.statusCode !== 200) unexpected.push(`${view.endpoint}.${field} ${res.statusCode}: ${res.body.slice(0, 120)}`);
          }
        }
      }
    }
    expect(unexpected).toEqual([]);
    const after = (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM passengers')).rows[0]?.n;
    expect(after).toBe(before);
  }, 600_000);
});
