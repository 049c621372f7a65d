/**
 * Value labels: a column with `labels` shows words, never the stored code. Every report and tab of the catalogue
 * runs on the seeded data (the sample day and the six days before, DLI and BCT), and every value a labelled column
 * returns must have a label, so no raw code reaches the grid, print or an export. The export of a labelled column
 * carries the words.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloneSeededTestDb } from '../support/seeded';
import { TEST_DRIVERS, type TestDb } from '../support/db';
import { sampleFilter } from '../support/sample-filters';
import { checkDefinitions } from '../../src/shared/definitions/validate';
import { readDefinitionFiles } from '../../src/server/reports/definition-files';
import { parseFilter } from '../../src/server/reports/filter';
import { runView } from '../../src/server/reports/executor';
import { columnPlain, columnText } from '../../src/shared/column-types';
import { addDays } from '../../src/server/demo/runs';
import type { FastifyInstance } from 'fastify';
import ExcelJS from 'exceljs';
import { buildTestApp } from '../support/app';
import { loginAs } from '../support/login';
import { pdfText } from '../support/pdf-text';
import { insertDemoUsers } from '../../src/server/auth/demo-users';
import { manualClock } from '../../src/server/clock';

const checked = checkDefinitions(readDefinitionFiles(process.cwd()));

describe.each(TEST_DRIVERS)('value labels of the catalogue (%s)', (driver) => {
  let t: TestDb & { today: string };
  beforeAll(async () => {
    t = await cloneSeededTestDb(driver);
  }, 120_000);
  afterAll(async () => {
    await t?.drop();
  });

  it('every value of a labelled column has its words', async () => {
    const missing = new Set<string>();
    const seen = new Map<string, number>();
    for (const report of checked.reports) {
      for (const view of report.views) {
        const labelled = view.columns.filter((c) => c.labels);
        if (labelled.length === 0) continue;
        for (const offset of [0, -1, -2, -3, -4, -5, -6]) {
          for (const div of ['DLI', 'BCT']) {
            const day = addDays(t.today, offset);
            const filter = parseFilter(report, await sampleFilter(t.db, report, day, div), day);
            const { rows } = await runView(t.db, view, filter, { kind: 'all' }, { timeoutMs: 30_000, rowsPerPage: 1000 });
            for (const row of rows) {
              for (const c of labelled) {
                const values = ([] as unknown[]).concat(row[c.field]);
                for (const v of values) {
                  if (v === null || v === undefined) continue;
                  // Labels give words to codes; a time or number beside them (Train Schedule's arrival is a time,
                  // or "Source" at the first station) is data and shown as it is.
                  if (/^[0-9:./ -]+$/.test(String(v))) continue;
                  const key = `${report.definition.id} / ${view.endpoint} ${c.field}`;
                  seen.set(key, (seen.get(key) ?? 0) + 1);
                  const words = c.labels?.[String(v)];
                  if (words === undefined) {
                    missing.add(`${key}: ${String(v)}`);
                    continue;
                  }
                  // What people read is the label, in the grid, print, PDF/xlsx text and CSV alike.
                  expect(columnText(c, v)).toBe(words);
                  expect(columnPlain(c, v)).toBe(words);
                }
              }
            }
          }
        }
      }
    }
    expect([...missing]).toEqual([]);
    // The check saw values in most labelled columns (a column the seed never fills cannot prove anything).
    expect(seen.size).toBeGreaterThan(40);
  }, 300_000);

  it('exports carry the words of labelled columns and of coded filter values, never the codes', async () => {
    await insertDemoUsers(t.db);
    const app: FastifyInstance = await buildTestApp(t.db, { clock: manualClock(new Date(`${t.today}T12:00:00+05:30`)) });
    try {
      const su = await loginAs(app, 'HHTSU');
      const filter = { start_date: addDays(t.today, -7), end_date: t.today, reason: 'TICKETLESS' };
      const post = (format: string) =>
        app.inject({ method: 'POST', url: `/api/export/eft_report?format=${format}`, headers: su.headers(), payload: filter });
      const csv = await post('csv');
      expect(csv.statusCode, csv.body.slice(0, 200)).toBe(200);
      expect(Number(csv.headers['x-total-rows'])).toBeGreaterThan(0);
      expect(csv.body).toContain('Ticketless');
      expect(csv.body).not.toContain('TICKETLESS');
      const xlsx = await post('xlsx');
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
      const texts: string[] = [];
      wb.worksheets[0]!.eachRow((row) => row.eachCell((cell) => texts.push(String(cell.value))));
      expect(texts).toContain('Ticketless');
      expect(texts).not.toContain('TICKETLESS');
      const pdf = await pdfText((await post('pdf')).rawPayload);
      expect(pdf).toContain('Reason: Ticketless');
      expect(pdf).not.toContain('TICKETLESS');
    } finally {
      await app.close();
    }
  }, 120_000);
});
