import { cpSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import ExcelJS from 'exceljs';
import { createTestDb, TEST_DRIVERS, type TestDb } from '../support/db';
import { buildTestApp } from '../support/app';
import { insertUser, loginAs, type SignedIn } from '../support/login';

/** A copy of the repository's definitions the test may change, so hot reload is tested on a real folder. */
function copyDefinitions(): string {
  const root = mkdtempSync(join(tmpdir(), 'hht-defs-'));
  cpSync('reports', join(root, 'reports'), { recursive: true });
  cpSync('schemas', join(root, 'schemas'), { recursive: true });
  cpSync('menu.json', join(root, 'menu.json'));
  return root;
}

const probeReport = (id: string, title: string, scope: Record<string, string>) =>
  JSON.stringify({
    id,
    title,
    endpoint: `get_${id}`,
    filter: {
      schema: {
        type: 'object',
        required: ['trainNo'],
        properties: { trainNo: { $ref: 'fields/train-no.json' }, note: { type: 'string', maxLength: 40 } },
      },
    },
    columns: [
      { field: 'train_no', headerName: 'Train' },
      { field: 'note', headerName: 'Note' },
      { field: 'amount', headerName: 'Amount', type: 'currency' },
    ],
    export: { formats: ['csv', 'xlsx', 'pdf'], fileName: `${id}-{trainNo}` },
    source: {
      sql: "SELECT :trainNo::text AS train_no, :note::text AS note, g * 10.5 AS amount, z.zone_code FROM generate_series(1, 3) g, (SELECT 'NR' AS zone_code) z WHERE {{scope}}",
      scope,
    },
  });

/** A report whose main call and tab share one SQL and differ by a fixed parameter (source.params). */
const fixedParamsReport = JSON.stringify({
  id: 'fixed',
  title: 'Fixed',
  endpoint: 'get_fixed_all',
  filter: { schema: { type: 'object', required: ['trainNo'], properties: { trainNo: { $ref: 'fields/train-no.json' } } } },
  columns: [{ field: 'train_no', headerName: 'Train' }, { field: 'kind', headerName: 'Kind' }],
  source: {
    sql: "SELECT :trainNo::text AS train_no, COALESCE(:kind::text, 'every') AS kind FROM (SELECT 'NR' AS zone_code) z WHERE {{scope}}",
    params: { kind: null },
    scope: { zone: 'zone_code' },
  },
  tabs: [
    {
      id: 'secret', label: 'Secret', endpoint: 'get_fixed_secret',
      source: { sql: "SELECT :trainNo::text AS train_no, :kind::text AS kind FROM (SELECT 'NR' AS zone_code) z WHERE {{scope}}", params: { kind: 'x-fixed-value' }, scope: { zone: 'zone_code' } },
    },
  ],
});

const waitFor = async (check: () => Promise<boolean>, ms = 2000): Promise<number> => {
  const start = Date.now();
  while (Date.now() - start < ms) {
    if (await check()) return Date.now() - start;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`not within ${ms} ms`);
};

describe.each(TEST_DRIVERS)('report engine on %s', (driver) => {
  let t: TestDb;
  let app: FastifyInstance;
  let root: string;
  let su: SignedIn;
  let lobby: SignedIn;

  beforeAll(async () => {
    t = await createTestDb(driver);
    root = copyDefinitions();
    writeFileSync(join(root, 'reports', 'probe.json'), probeReport('probe', 'Probe', { zone: 'zone_code' }));
    writeFileSync(join(root, 'reports', 'fixed.json'), fixedParamsReport);
    app = await buildTestApp(t.db, { config: { rootDir: root } });
    await insertUser(t.db, { userId: 'TSU', userLevel: 'SU' });
    await insertUser(t.db, { userId: 'TLOBBY', userLevel: 'LA', rlyCode: 'NR', divCode: 'DLI', lobbyCode: 'NDLS' });
    su = await loginAs(app, 'TSU');
    lobby = await loginAs(app, 'TLOBBY');
  });
  afterAll(async () => {
    await app?.close();
    await t?.drop();
    rmSync(root, { recursive: true, force: true });
  });

  const run = (who: SignedIn, endpoint: string, payload: unknown, query = '') =>
    app.inject({ method: 'POST', url: `/api/${endpoint}${query}`, headers: who.headers(), payload: payload as object });

  it('refuses definitions and calls without a session', async () => {
    expect((await app.inject({ method: 'GET', url: '/api/meta/reports' })).statusCode).toBe(403);
    expect((await app.inject({ method: 'POST', url: '/api/get_probe', payload: { trainNo: '12951' } })).statusCode).toBe(403);
  });

  it('gives signed-in users the definitions without their SQL, with field schemas inlined', async () => {
    const list = await app.inject({ method: 'GET', url: '/api/meta/reports', headers: su.headers() });
    expect(list.json().reports.map((r: { id: string }) => r.id)).toContain('probe');
    const one = await app.inject({ method: 'GET', url: '/api/meta/reports/probe', headers: su.headers() });
    const body = one.json();
    expect(body.source).toBeUndefined();
    expect(JSON.stringify(body)).not.toContain('generate_series');
    expect(body.filter.schema.properties.trainNo).toMatchObject({ type: 'string', pattern: '^[0-9]{5}$' });
    expect(body.exportCaps).toEqual({ csv: 200000, xlsx: 100000, pdf: 5000 });
    const missing = await app.inject({ method: 'GET', url: '/api/meta/reports/nope', headers: su.headers() });
    expect(missing.statusCode).toBe(404);
  });

  it('validates the body by the report filter: 400 naming each bad field', async () => {
    const res = await run(su, 'get_probe', { note: 'x'.repeat(41) });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields.map((f: { field: string }) => f.field).sort()).toEqual(['note', 'trainNo']);
    const bad = await run(su, 'get_probe', { trainNo: '12A51' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields[0].field).toBe('trainNo');
    const arr = await app.inject({ method: 'POST', url: '/api/get_probe', headers: { ...su.headers(), 'content-type': 'application/json' }, payload: '[1]' });
    expect(arr.statusCode).toBe(400);
  });

  it('trims train numbers and returns {rows,total,page,rowsPerPage}', async () => {
    const res = await run(su, 'get_probe', { trainNo: ' 12951 ' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ total: 3, page: 1, rowsPerPage: 3 });
    expect(res.json().rows[0]).toMatchObject({ train_no: '12951', amount: 10.5 });
  });

  it('binds injection strings as data, never as SQL', async () => {
    const attacks = ["'; DROP TABLE users; --", "1' OR '1'='1", '$1); SELECT pg_sleep(5); --', '{{scope}}', ':trainNo'];
    for (const a of attacks) {
      const res = await run(su, 'get_probe', { trainNo: '12951', note: a });
      expect(res.statusCode).toBe(200);
      expect(res.json().rows[0].note).toBe(a);
      const asTrain = await run(su, 'get_probe', { trainNo: a });
      expect(asTrain.statusCode).toBe(400);
    }
    const users = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM users');
    expect(users.rows[0]?.n).toBeGreaterThan(0);
  });

  it('binds source.params per call; the request cannot override them and the browser never sees them', async () => {
    const all = await run(su, 'get_fixed_all', { trainNo: '12951', kind: 'x-injected' });
    expect(all.statusCode).toBe(200);
    expect(all.json().rows).toEqual([{ train_no: '12951', kind: 'every' }]);
    const tab = await run(su, 'get_fixed_secret', { trainNo: '12951', kind: 'x-injected' });
    expect(tab.json().rows).toEqual([{ train_no: '12951', kind: 'x-fixed-value' }]);
    const viaQuery = await run(su, 'get_fixed_secret', { trainNo: '12951' }, '?kind=x-injected');
    expect(viaQuery.json().rows).toEqual([{ train_no: '12951', kind: 'x-fixed-value' }]);
    const meta = await app.inject({ method: 'GET', url: '/api/meta/reports/fixed', headers: su.headers() });
    expect(meta.statusCode).toBe(200);
    expect(meta.body).not.toContain('x-fixed-value');
    expect(meta.body).not.toContain('params');
  });

  it('answers a signed-in call to an unknown endpoint with a JSON 404 naming it', async () => {
    const res = await run(su, 'noSuchCall', {});
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe('No route POST /api/noSuchCall');
  });

  it('sorts only on defined columns', async () => {
    const desc = await run(su, 'get_probe', { trainNo: '12951' }, '?sortBy=amount&sortDir=desc');
    expect(desc.json().rows.map((r: { amount: number }) => r.amount)).toEqual([31.5, 21, 10.5]);
    const bad = await run(su, 'get_probe', { trainNo: '12951' }, '?sortBy=zone_code');
    expect(bad.statusCode).toBe(400);
    expect((await run(su, 'get_probe', { trainNo: '12951' }, '?sortBy=amount;DROP')).statusCode).toBe(400);
  });

  it('denies a level the report has no scope rule for', async () => {
    const res = await run(lobby, 'get_probe', { trainNo: '12951' });
    expect(res.statusCode).toBe(403);
  });

  it('exports valid CSV, xlsx and PDF files with every row', async () => {
    const exp = (format: string) =>
      app.inject({ method: 'POST', url: `/api/export/probe?format=${format}`, headers: su.headers(), payload: { trainNo: '12951', note: '=1+1' } });
    const csv = await exp('csv');
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-disposition']).toContain('probe-12951.csv');
    const lines = csv.body.trim().split('\r\n');
    expect(lines).toHaveLength(4);
    expect(lines[1]).toBe("12951,'=1+1,10.50");

    const xlsx = await exp('xlsx');
    expect(xlsx.statusCode).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    const ws = wb.worksheets[0];
    expect(ws?.rowCount).toBe(4);
    expect(ws?.getRow(2).getCell(3).value).toBe(10.5);

    const pdf = await exp('pdf');
    expect(pdf.statusCode).toBe(200);
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdf.rawPayload.toString('latin1')).toMatch(/\/Type \/Page\b/);

    const wrong = await exp('docx');
    expect(wrong.statusCode).toBe(400);
  });

  it('picks up an added, changed and deleted report within 2 seconds, and survives a malformed file', async () => {
    const file = join(root, 'reports', 'hot.json');
    const meta = (id: string) => app.inject({ method: 'GET', url: `/api/meta/reports/${id}`, headers: su.headers() });
    writeFileSync(file, probeReport('hot', 'Hot One', { zone: 'zone_code' }));
    await waitFor(async () => (await meta('hot')).statusCode === 200);
    writeFileSync(file, probeReport('hot', 'Hot Two', { zone: 'zone_code' }));
    await waitFor(async () => (await meta('hot')).json().title === 'Hot Two');
    unlinkSync(file);
    await waitFor(async () => (await meta('hot')).statusCode === 404);

    writeFileSync(join(root, 'reports', 'broken.json'), '{ "id": "broken", ');
    await waitFor(async () => (await meta('broken')).statusCode === 503);
    expect((await meta('broken')).json().message).toContain('invalid JSON');
    expect((await run(su, 'get_probe', { trainNo: '12951' })).statusCode).toBe(200);
    const list = await app.inject({ method: 'GET', url: '/api/meta/reports', headers: su.headers() });
    expect(list.json().reports.find((r: { id: string }) => r.id === 'broken')).toMatchObject({ status: 'unavailable' });
  });

  it("marks a broken report's menu item unavailable with the reason, and clears it when fixed", async () => {
    const file = join(root, 'reports', 'vacant_berths.json');
    const good = readFileSync(file, 'utf8');
    const item = async () => {
      const menu = await app.inject({ method: 'GET', url: '/api/meta/menu', headers: su.headers() });
      return JSON.stringify(menu.json()).match(/\{[^{}]*"path":"vacant_berths"[^{}]*\}/)?.[0] ?? '';
    };
    expect(await item()).not.toContain('unavailable');
    writeFileSync(file, good.replace('"title"', '"titel"'));
    await waitFor(async () => (await item()).includes('unavailable'));
    expect(await item()).toContain("Report definition is broken: must have required property 'title'");
    writeFileSync(file, good);
    await waitFor(async () => !(await item()).includes('unavailable'));
  });
});
