import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
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
import { checkDefinitions, type CheckedReport } from '../../src/shared/definitions/validate';
import { readDefinitionFiles } from '../../src/server/reports/definition-files';
import { manualClock } from '../../src/server/clock';
import { liveExportWorkers, writeInWorker } from '../../src/server/reports/export/worker-export';
import { EXPORTS_BUSY_MESSAGE } from '../../src/server/reports/export/export-slots';

const BATCH = 7;

async function until(check: () => Promise<boolean> | boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Cursors still open: PGlite's named cursors of its one session, or PostgreSQL connections left in a transaction. */
async function openCursors(t: TestDb): Promise<number> {
  if (t.db.driver === 'pglite') return (await t.db.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_cursors WHERE name <> ''")).rows[0]?.n ?? -1;
  return (
    await t.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND state LIKE 'idle in transaction%'`,
    )
  ).rows[0]?.n ?? -1;
}

describe.each(TEST_DRIVERS)('streamed exports on %s', (driver) => {
  let t: TestDb & { today: string };
  let app: FastifyInstance;
  let su: SignedIn;
  let report: CheckedReport;
  let filter: Record<string, unknown>;
  let total = 0;

  beforeAll(async () => {
    t = await cloneSeededTestDb(driver);
    await insertDemoUsers(t.db);
    // A tiny batch size so every export here spans many batches; one export at a time to test the cap.
    app = await buildTestApp(t.db, { clock: manualClock(new Date(`${t.today}T12:00:00+05:30`)), config: { exportBatchRows: BATCH, maxExports: 1 } });
    su = await loginAs(app, 'HHTSU');
    const checked = checkDefinitions(readDefinitionFiles(process.cwd()));
    report = checked.reports.find((r) => r.definition.id === 'All_Passenger_Report')!;
    filter = await sampleFilter(t.db, report, t.today);
    const view = report.views[0]!;
    const run = await app.inject({ method: view.method, url: `/api/${view.endpoint}`, headers: su.headers(), payload: filter });
    expect(run.statusCode, run.body).toBe(200);
    total = run.json<{ total: number }>().total;
  }, 300_000);
  afterAll(async () => {
    await app?.close();
    await t?.drop();
  });

  const exportCall = (format: string) =>
    app.inject({ method: 'POST', url: `/api/export/All_Passenger_Report?format=${format}`, headers: su.headers(), payload: filter });

  it('the test export spans many batches', () => {
    expect(total).toBeGreaterThan(BATCH * 10);
  });

  it('CSV read in batches holds every row of the report', async () => {
    const res = await exportCall('csv');
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    expect(res.headers['x-total-rows']).toBe(String(total));
    expect(res.body.replace(/^\uFEFF/, '').split('\r\n').filter((l) => l !== '').length - 1).toBe(total);
    expect(await openCursors(t)).toBe(0);
  });

  it('xlsx written in a worker holds every row of the report', async () => {
    const res = await exportCall('xlsx');
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    expect(wb.worksheets[0]!.actualRowCount - 1).toBe(total);
    await until(() => liveExportWorkers() === 0);
  });

  it('PDF written in a worker holds every row of the report', async () => {
    const res = await exportCall('pdf');
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    const text = await pdfText(res.rawPayload);
    expect(text).toContain(`, ${total} rows`);
    // Every row is one line of the table: count the PNR column's values (10 digits) across all pages.
    const pnrField = report.views[0]!.columns.find((c) => /pnr/i.test(c.field));
    if (pnrField) expect(text.match(/\b\d{10}\b/g)?.length ?? 0).toBeGreaterThanOrEqual(total);
    await until(() => liveExportWorkers() === 0);
  });

  it('a download the client abandons closes the cursor, stops the worker and frees its slot', async () => {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;
    const body = JSON.stringify(filter);
    const gotFirstChunk = await new Promise<boolean>((resolve, reject) => {
      const req = http.request(
        { port, host: '127.0.0.1', method: 'POST', path: '/api/export/All_Passenger_Report?format=xlsx', headers: { ...su.headers(), 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
        (res) => {
          expect(res.statusCode).toBe(200);
          res.once('data', () => {
            req.destroy(); // the officer cancels the download
            resolve(true);
          });
        },
      );
      req.on('error', (err) => (req.destroyed ? undefined : reject(err)));
      req.end(body);
    });
    expect(gotFirstChunk).toBe(true);
    await until(async () => liveExportWorkers() === 0 && (await openCursors(t)) === 0);
    // maxExports is 1: a new export runs only if the abandoned one gave its slot back.
    const again = await exportCall('csv');
    expect(again.statusCode, again.body.slice(0, 200)).toBe(200);
  });

  it('past the cap on exports at once, a new one is refused with 503 and a clear message', async () => {
    // maxExports is 1 and an xlsx export holds its slot for seconds (worker start, writing): of two sent together,
    // one runs and the other is refused.
    const both = await Promise.all([exportCall('xlsx'), exportCall('xlsx')]);
    const codes = both.map((r) => r.statusCode).sort();
    expect(codes).toEqual([200, 503]);
    const refused = both.find((r) => r.statusCode === 503)!;
    expect(refused.json<{ message: string }>().message).toBe(EXPORTS_BUSY_MESSAGE);
    expect(refused.headers['retry-after']).toBe('30');
    expect((await exportCall('csv')).statusCode).toBe(200); // the slot is free again
  });
});

describe('writeInWorker', () => {
  it('stops the worker and closes the rows when the stream is destroyed mid-way', async () => {
    let closed = false;
    let sent = 0;
    async function* endless(): AsyncGenerator<Record<string, unknown>[]> {
      try {
        for (;;) {
          sent += 1;
          yield Array.from({ length: 50 }, (_, i) => ({ a: `row ${sent}-${i}`, b: i }));
        }
      } finally {
        closed = true;
      }
    }
    const out: Readable = writeInWorker('xlsx', {
      columns: [{ field: 'a', headerName: 'A' }, { field: 'b', headerName: 'B', type: 'number' }],
      rows: endless(),
      meta: { title: 'Endless', filters: [], user: 'test', generatedAt: new Date() },
    });
    await new Promise<void>((resolve) => out.once('data', () => resolve()));
    out.pause();
    // Backpressure: with nobody reading, batches stop going to the worker once the buffers between are full (how many
    // that takes depends on the machine's speed): the count settles and then stays put.
    let before = -1;
    for (let i = 0; i < 40 && sent !== before; i++) {
      before = sent;
      await new Promise((r) => setTimeout(r, 250));
    }
    const settled = sent;
    await new Promise((r) => setTimeout(r, 750));
    expect(sent).toBe(settled);
    expect(sent).toBeLessThan(1000);
    out.destroy();
    await until(() => closed && liveExportWorkers() === 0);
  });
});
