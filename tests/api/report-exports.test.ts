import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import ExcelJS from 'exceljs';
import { cloneSeededTestDb } from '../support/seeded';
import { TEST_DRIVERS, type TestDb } from '../support/db';
import { buildTestApp } from '../support/app';
import { loginAs, type SignedIn } from '../support/login';
import { sampleFilter } from '../support/sample-filters';
import { pdfText } from '../support/pdf-text';
import { insertDemoUsers } from '../../src/server/auth/demo-users';
import { checkDefinitions } from '../../src/shared/definitions/validate';
import { readDefinitionFiles } from '../../src/server/reports/definition-files';
import { manualClock } from '../../src/server/clock';

describe.each(TEST_DRIVERS)('every report exports to CSV, xlsx and PDF on %s', (driver) => {
  let t: TestDb & { today: string };
  let app: FastifyInstance;
  let su: SignedIn;
  const checked = checkDefinitions(readDefinitionFiles(process.cwd()));

  beforeAll(async () => {
    t = await cloneSeededTestDb(driver);
    await insertDemoUsers(t.db);
    app = await buildTestApp(t.db, { clock: manualClock(new Date(`${t.today}T12:00:00+05:30`)) });
    su = await loginAs(app, 'HHTSU');
  }, 300_000);
  afterAll(async () => {
    await app?.close();
    await t?.drop();
  });

  const withExport = checked.reports.filter((r) => (r.definition.export?.formats.length ?? 0) > 0);

  it.each(withExport.map((r) => [r.definition.id, r] as const))('%s: each file holds every row of the report', async (_id, report) => {
    const filter = await sampleFilter(t.db, report, t.today);
    // Reading the Audit Trail adds rows to it (every run and export is audited), so the count is pinned to
    // the sign-ins, which this test does not add to between the run and the exports.
    if (report.definition.id === 'audit_trail') filter['action'] = 'sign_in';
    const view = report.views[0]!;
    const query = new URLSearchParams({ rowsPerPage: '1000' });
    if (view.method === 'GET') for (const [k, v] of Object.entries(filter)) query.set(k, String(v));
    const run = await app.inject({
      method: view.method,
      url: `/api/${view.endpoint}?${query.toString()}`,
      headers: su.headers(),
      ...(view.method === 'POST' ? { payload: filter } : {}),
    });
    expect(run.statusCode, run.body).toBe(200);
    const total = run.json<{ total: number }>().total;
    const visible = view.columns.filter((c) => !c.hidden).length;
    for (const format of report.definition.export?.formats ?? []) {
      const res = await app.inject({ method: 'POST', url: `/api/export/${report.definition.id}?format=${format}`, headers: su.headers(), payload: filter });
      expect(res.statusCode, `${format}: ${res.body.slice(0, 200)}`).toBe(200);
      expect(res.headers['x-total-rows']).toBe(String(total));
      if (format === 'csv') {
        const lines = res.body.replace(/^\uFEFF/, '').split('\r\n').filter((l) => l !== '');
        expect(lines.length - 1).toBe(total);
      } else if (format === 'xlsx') {
        const wb = new ExcelJS.Workbook();
        await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
        const ws = wb.worksheets[0]!;
        expect(ws.actualRowCount - 1).toBe(total);
        expect(ws.getRow(1).cellCount).toBe(visible);
      } else {
        expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
        expect(res.rawPayload.toString('latin1').trimEnd().endsWith('%%EOF')).toBe(true);
        const text = await pdfText(res.rawPayload);
        expect(text).toContain(`, ${total} rows`);
        expect(text).toMatch(/Page 1 of \d+/);
        expect(text).toContain(report.definition.title);
        expect(text).not.toMatch(/Filters:[^\n]*\d{4}-\d{2}-\d{2}/); // filter dates read dd/mm/yyyy too
        // Amounts print with the rupee sign (an embedded font has it; the standard PDF fonts do not).
        const rows = run.json<{ rows: Record<string, unknown>[] }>().rows;
        const amounts = view.columns.filter((c) => !c.hidden && c.type === 'currency');
        if (rows.some((r) => amounts.some((c) => r[c.field] !== null && r[c.field] !== undefined))) {
          expect(text).toMatch(/₹\s?[\d,]+/);
          expect(text).not.toContain('Rs.');
        }
      }
    }
  });
});
