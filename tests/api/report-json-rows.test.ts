/**
 * Report rows as JSON made by the database (runViewJson, src/server/reports/json-rows.ts) must mean exactly what the
 * row path (runView, then JSON.stringify) means: every type the engine converts, NaN and infinities, time zones,
 * order, both paging modes, the client-paging cap, and the fallback for a type without an exact JSON form.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, TEST_DRIVERS, type TestDb } from '../support/db';
import { runView, runViewJson } from '../../src/server/reports/executor';
import { jsonSelectList } from '../../src/server/reports/json-rows';
import { reportBody } from '../../src/server/routes/reports';
import type { CheckedView } from '../../src/shared/definitions/validate';
import { CLIENT_PAGING_MAX_ROWS } from '../../src/shared/report-definition';

const view = (sql: string, extra: Partial<CheckedView> = {}): CheckedView => ({
  endpoint: 'jsonTest',
  method: 'POST',
  columns: [{ field: 'n', headerName: 'N', type: 'number' }, { field: 'at', headerName: 'At', type: 'datetime' }],
  sql,
  scope: {}, // the all-India scope used here needs no rule
  params: {},
  ...extra,
});

// Every type the JSON path handles, with the awkward values of each (NULLs, NaN, infinities, time zones, ms).
const TYPES_SQL = `SELECT n, n::bigint * 1000000007 AS big, n::smallint AS small, (n % 2 = 0) AS even,
    ('name ' || n)::varchar AS name, ('x' || n)::char(4) AS padded, 'héllo "q" \\ ₹'::text AS awkward,
    (n / 7.0)::numeric(12, 4) AS num, CASE WHEN n = 3 THEN 'NaN'::numeric WHEN n = 4 THEN NULL ELSE n * 1.50 END AS money,
    (n / 3.0)::float8 AS f8, CASE WHEN n = 5 THEN 'Infinity'::float8 WHEN n = 6 THEN '-Infinity'::float4 ELSE n * 0.1 END AS f4,
    DATE '2026-03-01' + n AS day, TIMESTAMP '2026-03-01 10:20:30.123456' + n * interval '1 hour' AS local_at,
    TIMESTAMPTZ '2026-03-01 23:59:59.987654+05:30' + n * interval '1 day' AS at,
    CASE WHEN n = 2 THEN 'infinity'::timestamptz END AS inf_at,
    ARRAY['a', 'b' || n] AS tags, ARRAY[n, n + 1] AS nums, json_build_object('k', n, 'l', ARRAY[1, 2]) AS doc,
    jsonb_build_object('z', n, 'a', 'x') AS docb, md5(n::text)::uuid AS id
  FROM generate_series(1, $1::int) n WHERE {{scope}}`;

const sqlWithCount = (count: number): string => TYPES_SQL.replace('$1::int', String(count));

describe.each(TEST_DRIVERS)('report rows as JSON from the database, on %s', (driver) => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb(driver);
  }, 120_000);
  afterAll(async () => {
    await t?.drop();
  });
  const opts = { timeoutMs: 30_000 };
  const viaRows = async (v: CheckedView, o: Parameters<typeof runView>[4] = opts): Promise<unknown> => {
    const r = await runView(t.db, v, {}, { kind: 'all' }, o);
    return JSON.parse(JSON.stringify(r));
  };
  const viaJson = async (v: CheckedView, o: Parameters<typeof runView>[4] = opts): Promise<unknown> => {
    const r = await runViewJson(t.db, v, {}, { kind: 'all' }, o);
    return JSON.parse(reportBody(r, undefined).toString());
  };

  it('every converted type means the same as through the row path (client paging)', async () => {
    const v = view(sqlWithCount(12));
    // The JSON path really is taken: every column of this query has a JSON form (else the test compares a fallback).
    const probe = await t.db.query(`SELECT * FROM (${sqlWithCount(0).replace('{{scope}}', 'TRUE')}) q`);
    expect(probe.types).toHaveLength(20);
    expect(jsonSelectList(probe.fields ?? [], probe.types ?? [])).not.toBeNull();
    const rows = await viaRows(v);
    expect((rows as { rows: unknown[] }).rows).toHaveLength(12);
    expect(await viaJson(v)).toEqual(rows);
    // Spot checks of what "the same" is: a Date as ISO UTC with ms, dates and local timestamps as stored text.
    const first = (rows as { rows: Record<string, unknown>[] }).rows[0];
    expect(first?.at).toBe('2026-03-02T18:29:59.987Z');
    expect(first?.day).toBe('2026-03-02');
    expect(first?.local_at).toBe('2026-03-01 11:20:30.123456');
    expect((rows as { rows: Record<string, unknown>[] }).rows[2]?.money).toBeNull(); // NaN
  });

  it('sorted and server-paged answers are the same rows in the same order, with the same total', async () => {
    const sortable = { columns: [{ field: 'f8', headerName: 'F' }, { field: 'at', headerName: 'At' }, { field: 'money', headerName: 'M' }] };
    const v = view(sqlWithCount(40), sortable);
    for (const sortBy of ['f8', 'at', 'money']) {
      for (const sortDir of ['asc', 'desc'] as const) expect(await viaJson(v, { ...opts, sortBy, sortDir })).toEqual(await viaRows(v, { ...opts, sortBy, sortDir }));
    }
    const paged = view(sqlWithCount(40), { ...sortable, paging: { mode: 'server', pageSize: 15 } });
    for (const page of [1, 2, 3, 4]) {
      const o = { ...opts, page, sortBy: 'money', sortDir: 'desc' as const };
      const json = await viaJson(paged, o);
      expect(json).toEqual(await viaRows(paged, o));
      expect(json).toMatchObject({ total: 40, page, rowsPerPage: 15 });
    }
  });

  it('past the client-paging cap: the first rows and the true total, as the row path gives', async () => {
    const v = view(`SELECT n, TIMESTAMPTZ '2026-03-01 10:00+05:30' + n * interval '1 second' AS at FROM generate_series(1, ${CLIENT_PAGING_MAX_ROWS + 5}) n WHERE {{scope}}`);
    const json = (await viaJson(v)) as { rows: unknown[]; total: number; rowsPerPage: number };
    expect(json.total).toBe(CLIENT_PAGING_MAX_ROWS + 5);
    expect(json.rows).toHaveLength(CLIENT_PAGING_MAX_ROWS);
    expect(json).toEqual(await viaRows(v));
  });

  it('a type without an exact JSON form (interval) keeps the row path, with the same answer', async () => {
    const v = view(`SELECT n, n * interval '1 minute' AS took FROM generate_series(1, 3) n WHERE {{scope}}`);
    expect(await viaJson(v)).toEqual(await viaRows(v));
    expect(jsonSelectList(['n', 'took'], [23, 1186])).toBeNull();
    expect(jsonSelectList(['n', 'n'], [23, 23])).toBeNull(); // duplicate names
    expect(jsonSelectList(['a"b'], [25])).toBe('q."a""b"');
  });

  it('reportBody puts the rows at rowsPath too, as the original backend answered', () => {
    const body = JSON.parse(reportBody({ rowsJson: '[{"a":1}]', total: 1, page: 1, rowsPerPage: 1 }, 'data.eftList').toString()) as unknown;
    expect(body).toEqual({ rows: [{ a: 1 }], total: 1, page: 1, rowsPerPage: 1, data: { eftList: [{ a: 1 }] } });
    expect(Object.keys(body as object)).toEqual(['rows', 'total', 'page', 'rowsPerPage', 'data']);
  });

  it('reportBody writes rows of any script byte for byte, with the freshness after them', () => {
    const rows = [{ name: 'यात्री', note: 'naïve € 😀' }, { name: 'B\u0000"q"' }];
    const freshness = { asOf: '2026-11-27T10:00:00.000Z', computedAt: '2026-11-27T10:05:00.000Z', staleAfterMinutes: 60 };
    const buf = reportBody({ rowsJson: JSON.stringify(rows), total: 2, page: 1, rowsPerPage: 2 }, 'tripId.eftList', freshness);
    const text = JSON.stringify({ rows, total: 2, page: 1, rowsPerPage: 2, freshness, tripId: { eftList: rows } });
    expect(buf.toString()).toBe(text);
    expect(buf.length).toBe(Buffer.byteLength(text));
  });
});
