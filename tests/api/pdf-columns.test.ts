/**
 * PDF exports of wide reports keep every date, id and header word whole (never "23/11/202" / "6"): the file is
 * read back with Mozilla's pdf.js and each text item (one line of one cell) checked against the report's own rows.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { cloneSeededTestDb } from '../support/seeded';
import type { TestDb } from '../support/db';
import { buildTestApp } from '../support/app';
import { loginAs, type SignedIn } from '../support/login';
import { sampleFilter } from '../support/sample-filters';
import { insertDemoUsers } from '../../src/server/auth/demo-users';
import { checkDefinitions } from '../../src/shared/definitions/validate';
import { readDefinitionFiles } from '../../src/server/reports/definition-files';
import { manualClock } from '../../src/server/clock';
import { columnText } from '../../src/shared/column-types';

/** The text items of each page, as pdf.js extracts them (a line of a cell is one item). */
async function pdfItems(pdf: Uint8Array): Promise<string[][]> {
  const doc = await getDocument({ data: new Uint8Array(pdf), disableFontFace: true, useSystemFonts: false, verbosity: 0 }).promise;
  try {
    const pages: string[][] = [];
    for (let n = 1; n <= doc.numPages; n += 1) {
      const content = await (await doc.getPage(n)).getTextContent();
      pages.push(content.items.flatMap((i) => ('str' in i && i.str.trim() !== '' ? [i.str.trim()] : [])));
    }
    return pages;
  } finally {
    await doc.destroy();
  }
}

// The widest reports: EFT Search (32 columns), TTE Sign On/Off (19), EFT Report (17).
const WIDE = ['eftsearch', 'TTE_TS', 'eft_report'];

describe('PDF columns sized from their content', () => {
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

  it.each(WIDE)('%s: every date cell is one whole text item, no header word is cut', async (id) => {
    const report = checked.reports.find((r) => r.definition.id === id);
    if (!report) throw new Error(`no report ${id}`);
    const view = report.views[0]!;
    const filter = await sampleFilter(t.db, report, t.today);
    const query = new URLSearchParams({ rowsPerPage: '1000' });
    if (view.method === 'GET') for (const [k, v] of Object.entries(filter)) query.set(k, String(v));
    const run = await app.inject({ method: view.method, url: `/api/${view.endpoint}?${query.toString()}`, headers: su.headers(), ...(view.method === 'POST' ? { payload: filter } : {}) });
    expect(run.statusCode, run.body).toBe(200);
    const rows = run.json<{ rows: Record<string, unknown>[] }>().rows;
    const columns = view.columns.filter((c) => !c.hidden);
    const dateColumns = columns.filter((c) => c.type === 'date' || c.type === 'datetime');
    const dates = new Set(rows.flatMap((r) => dateColumns.map((c) => columnText(c, r[c.field])).filter((s) => s !== '')));
    expect(rows.length, 'the sample filter finds rows').toBeGreaterThan(0);
    expect(dates.size, 'the report shows dates').toBeGreaterThan(0);

    const res = await app.inject({ method: 'POST', url: `/api/export/${id}?format=pdf`, headers: su.headers(), payload: filter });
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    const pages = await pdfItems(res.rawPayload);
    const items = pages.flat();

    // A date (or date and time) of a cell is one item: never "23/11/202" on one line and "6" on the next.
    for (const d of dates) expect(items.some((s) => s === d || s === d.split(' ')[0]), `date ${d} whole in one item`).toBe(true);
    // ...and no item ends in the head of a date ("23/", "23/11", "23/11/202") or starts with its tail ("/2026", "11/2026").
    const cutDate = items.filter((s) => /\b\d{2}\/(\d{2}(\/\d{0,3})?)?$/.test(s) || /^\/|^\d{1,2}\/\d{4}\b/.test(s));
    expect(cutDate, 'no item holds part of a date').toEqual([]);

    // Each header word appears whole in an item of a header row (the table starts on the first page).
    const words = new Set(items.flatMap((s) => s.split(/\s+/)));
    for (const c of columns) for (const w of c.headerName.split(/\s+/)) expect(words.has(w), `header word "${w}" of ${c.headerName}`).toBe(true);

    // Identifier columns (EFT No, PNR, TDR and transaction ids) keep their values whole too.
    const ids = columns.filter((c) => /(^|_)(no|id|pnr)$/.test(c.field) && c.type === 'text');
    for (const c of ids) {
      for (const r of rows.slice(0, 50)) {
        const v = columnText(c, r[c.field]);
        if (v && !v.includes(' ')) expect(items.some((s) => s === v || s.split(/\s+/).includes(v)), `${c.field} ${v} whole`).toBe(true);
      }
    }
  }, 120_000);
});
