import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { TEST_DRIVERS, type TestDb } from '../support/db';
import { cloneSeededTestDb } from '../support/seeded';
import { buildTestApp } from '../support/app';
import { loginAs, type SignedIn } from '../support/login';
import { manualClock } from '../../src/server/clock';
import type { DashboardCard, DashboardConfig } from '../../src/shared/dashboard';
import { EXTRAS_USERS, insertExtrasUsers, istNoon } from './extras-users';

/** A copy of the repository's definition files the test may break. */
function copyRoot(): string {
  const root = mkdtempSync(join(tmpdir(), 'hht-dash-'));
  for (const dir of ['reports', 'schemas', 'docs']) cpSync(dir, join(root, dir), { recursive: true });
  cpSync('dashboard.json', join(root, 'dashboard.json'));
  return root;
}

const waitFor = async (check: () => Promise<boolean>, ms = 3000): Promise<void> => {
  const start = Date.now();
  while (Date.now() - start < ms) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`not within ${ms} ms`);
};

/** The number a stat card shows, computed from the rows as the client does. */
function statValue(card: DashboardCard, rows: Record<string, unknown>[]): number {
  if (card.aggregate === 'count') return rows.length;
  if (card.aggregate === 'sum') return rows.reduce((s, r) => s + Number(r[card.valueField ?? ''] ?? 0), 0);
  return Number(rows[0]?.[card.valueField ?? ''] ?? 0);
}

describe.each(TEST_DRIVERS)('dashboard on %s', (driver) => {
  let t: TestDb & { today: string };
  let app: FastifyInstance;
  let root: string;
  let su: SignedIn;
  let div: SignedIn;
  let lobby: SignedIn;
  const expectedCards = ['psgn-count', 'TDRCard', 'psgnCount7days', 'EFTCard', 'RACClearedAndWLCleared', 'SUMReleaseCard', 'Total_Registered_Devices', 'Total_Trains_Manned'];

  beforeAll(async () => {
    t = await cloneSeededTestDb(driver);
    root = copyRoot();
    app = await buildTestApp(t.db, { clock: manualClock(istNoon(t.today)), config: { rootDir: root } });
    await insertExtrasUsers(t.db);
    su = await loginAs(app, EXTRAS_USERS.su.userId);
    div = await loginAs(app, EXTRAS_USERS.div.userId);
    lobby = await loginAs(app, EXTRAS_USERS.la.userId);
  });
  afterAll(async () => {
    await app?.close();
    await t?.drop();
    rmSync(root, { recursive: true, force: true });
  });

  const cards = async (s: SignedIn) => (await app.inject({ method: 'GET', url: '/api/meta/dashboard', headers: s.headers() })).json<DashboardConfig>().cards;
  const call = (s: SignedIn, c: DashboardCard) =>
    c.method === 'GET'
      ? app.inject({ method: 'GET', url: `/api/${c.endpoint}`, headers: s.headers() })
      : app.inject({ method: 'POST', url: `/api/${c.endpoint}`, headers: s.headers(), payload: {} });

  it('serves the cards in display order to signed-in users only', async () => {
    expect((await app.inject({ method: 'GET', url: '/api/meta/dashboard' })).statusCode).toBe(403);
    const list = await cards(su);
    const file = JSON.parse(readFileSync('dashboard.json', 'utf8')) as DashboardConfig;
    expect(list.map((c) => c.id)).toEqual(file.cards.map((c) => c.id));
    for (const e of expectedCards) expect(list.map((c) => c.endpoint)).toContain(e);
    expect(list.find((c) => c.endpoint === 'TDRCard')?.withCredentials).toBe(true);
    expect(list.filter((c) => c.kind === 'chart').map((c) => c.chart?.type).sort()).toEqual(['doughnut', 'line', 'pie']);
    expect(list.find((c) => c.endpoint === 'Total_Registered_Devices')?.link).toBe('/layout/uikit/devices');
  });

  const aggregateOf = async (s: SignedIn, endpoint: string, method: string | undefined, aggregate: string) => {
    const url = `/api/${endpoint}?aggregate=${encodeURIComponent(aggregate)}`;
    return method === 'GET'
      ? app.inject({ method: 'GET', url, headers: s.headers() })
      : app.inject({ method: 'POST', url, headers: s.headers(), payload: {} });
  };

  it("answers a stat card's ?aggregate= with the figure of every row, in the user's scope", async () => {
    const stats = (await cards(su)).filter((c) => c.kind === 'stat' && (c.aggregate === 'count' || c.aggregate === 'sum'));
    expect(stats.map((c) => c.endpoint)).toEqual(expect.arrayContaining(['TDRCard', 'EFTCard']));
    for (const c of stats) {
      const agg = c.aggregate === 'count' ? 'count' : `sum:${c.valueField ?? ''}`;
      for (const s of [su, div, lobby]) {
        const rows = (await call(s, c)).json<{ rows: Record<string, unknown>[] }>().rows;
        const res = await aggregateOf(s, c.endpoint, c.method, agg);
        expect(res.statusCode, `${c.endpoint}: ${res.body}`).toBe(200);
        const body = res.json<{ rows: unknown[]; total: number; aggregate: { count: number; sum?: number } }>();
        expect(body.rows, c.endpoint).toEqual([]);
        expect(body.aggregate.count, c.endpoint).toBe(rows.length);
        expect(body.total, c.endpoint).toBe(rows.length);
        if (c.aggregate === 'sum') expect(body.aggregate.sum, c.endpoint).toBeCloseTo(statValue(c, rows), 2);
      }
    }
  });

  it('refuses an aggregate that is not count or a sum of one of the report\'s columns, naming the parameter', async () => {
    for (const bad of ['avg:total', 'sum:total;drop table users', 'sum:no_such_column', '']) {
      const res = await aggregateOf(su, 'EFTCard', 'POST', bad);
      expect(res.statusCode, bad).toBe(400);
      expect(JSON.stringify(res.json()), bad).toContain('aggregate');
    }
  });

  it('counts and sums past the client-paging cap (a list of 20,005 rows)', async () => {
    writeFileSync(join(root, 'reports', 'zz_cap_fixture.sql'), 'SELECT g.n, g.n * 2 AS amount FROM (SELECT generate_series(1, 20005) AS n, \'NR\'::text AS zone_code) g WHERE {{scope}}');
    writeFileSync(
      join(root, 'reports', 'zz_cap_fixture.json'),
      JSON.stringify({
        $schema: '../schemas/report.schema.json',
        id: 'zz_cap_fixture',
        title: 'Cap fixture',
        description: 'More rows than client paging returns.',
        endpoint: 'zzCapFixture',
        filter: { schema: { type: 'object', properties: {} } },
        columns: [
          { field: 'n', headerName: 'N', type: 'number' },
          { field: 'amount', headerName: 'Amount', type: 'number' },
        ],
        paging: { mode: 'client', pageSize: 50 },
        source: { sql: 'zz_cap_fixture.sql', scope: { zone: 'g.zone_code', division: 'g.zone_code', lobby: 'g.zone_code' } },
      }),
    );
    let res = await aggregateOf(su, 'zzCapFixture', 'POST', 'sum:amount');
    await waitFor(async () => {
      res = await aggregateOf(su, 'zzCapFixture', 'POST', 'sum:amount');
      return res.statusCode === 200;
    }, 8000);
    expect(res.json().aggregate).toEqual({ count: 20005, sum: 20005 * 20006 });
    const list = await app.inject({ method: 'POST', url: '/api/zzCapFixture', headers: su.headers(), payload: {} });
    expect(list.json<{ rows: unknown[]; total: number }>().rows.length).toBeLessThan(20005);
  });

  it('answers every card call with rows for SU, and scoped (never more) for a division and a lobby', async () => {
    for (const c of await cards(su)) {
      const all = await call(su, c);
      expect(all.statusCode, `${c.endpoint}: ${all.body}`).toBe(200);
      const allRows = all.json<{ rows: Record<string, unknown>[] }>().rows;
      expect(allRows.length, c.endpoint).toBeGreaterThan(0);
      for (const s of [div, lobby]) {
        const mine = await call(s, c);
        expect(mine.statusCode, `${c.endpoint}: ${mine.body}`).toBe(200);
        const rows = mine.json<{ rows: Record<string, unknown>[] }>().rows;
        if (c.kind === 'stat') expect(statValue(c, rows), c.endpoint).toBeLessThanOrEqual(statValue(c, allRows));
      }
      if (c.kind === 'stat') expect(statValue(c, allRows), c.endpoint).toBeGreaterThan(0);
      const link = c.link ?? '';
      if (!link.startsWith('/')) {
        const report = await app.inject({ method: 'GET', url: `/api/meta/reports/${link}`, headers: su.headers() });
        expect(report.statusCode, `link ${link}`).toBe(200);
        expect(report.json().endpoint).toBe(c.endpoint);
      }
    }
  });

  it('gives card values that match the data', async () => {
    const n = async (sql: string, params: unknown[] = []) => Number((await t.db.query<{ n: number }>(sql, params)).rows[0]?.n);
    const psgn = (await (await call(div, { id: 'p', title: 'p', endpoint: 'psgn-count', kind: 'stat' })).json<{ rows: { passengers: number }[] }>()).rows;
    expect(psgn.reduce((s, r) => s + r.passengers, 0)).toBe(
      await n(`SELECT count(*)::int AS n FROM passengers p JOIN train_runs tr ON tr.run_id = p.run_id
                WHERE tr.start_date = $1::date AND tr.div_code = 'DLI' AND p.current_status <> 'CAN'`, [t.today]),
    );
    const devices = (await app.inject({ method: 'GET', url: '/api/Total_Registered_Devices', headers: div.headers() })).json<{ rows: { total: number }[] }>().rows;
    expect(devices.reduce((s, r) => s + r.total, 0)).toBe(await n("SELECT count(*)::int AS n FROM devices WHERE div_code = 'DLI'"));
    const seven = (await app.inject({ method: 'POST', url: '/api/psgnCount7days', headers: su.headers(), payload: {} })).json<{ rows: { run_date: string }[] }>().rows;
    expect(seven).toHaveLength(7);
    expect(seven[6]?.run_date).toBe(t.today);
    const manned = (await app.inject({ method: 'GET', url: `/api/Total_Trains_Manned?srcDate=${t.today}`, headers: su.headers() })).json<{ rows: { is_manned: number }[] }>().rows;
    expect(manned.length).toBe(await n('SELECT count(*)::int AS n FROM train_runs WHERE start_date = $1::date', [t.today]));
    const bad = await app.inject({ method: 'GET', url: '/api/Total_Trains_Manned?srcDate=yesterday', headers: su.headers() });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields[0].field).toBe('srcDate');
  });

  it('keeps the last good dashboard when dashboard.json breaks, and takes a fixed one', async () => {
    const good = await cards(su);
    const file = JSON.parse(readFileSync(join(root, 'dashboard.json'), 'utf8')) as DashboardConfig;
    writeFileSync(join(root, 'dashboard.json'), JSON.stringify({ cards: [{ ...file.cards[0], colour: 'red' }] }));
    await new Promise((r) => setTimeout(r, 700));
    expect((await cards(su)).map((c) => c.id)).toEqual(good.map((c) => c.id));
    writeFileSync(join(root, 'dashboard.json'), '{"cards": [');
    await new Promise((r) => setTimeout(r, 700));
    expect((await cards(su)).map((c) => c.id)).toEqual(good.map((c) => c.id));
    const dup = { cards: [file.cards[0], file.cards[0]] };
    writeFileSync(join(root, 'dashboard.json'), JSON.stringify(dup));
    await new Promise((r) => setTimeout(r, 700));
    expect((await cards(su)).length).toBe(good.length);
    const reordered = { cards: [...file.cards].reverse() };
    writeFileSync(join(root, 'dashboard.json'), JSON.stringify(reordered));
    await waitFor(async () => (await cards(su))[0]?.id === reordered.cards[0]?.id);
    expect((await cards(su)).map((c) => c.id)).toEqual(reordered.cards.map((c) => c.id));
  });

  it('lists the user trains for getArrayOfTrainNo, as TrainManningData does', async () => {
    const mine = (await app.inject({ method: 'GET', url: '/api/getArrayOfTrainNo', headers: div.headers() })).json<string[]>();
    const manning = (await app.inject({ method: 'POST', url: '/api/TrainManningData', headers: div.headers(), payload: { userLevel: 'DA', code: 'DLI' } }))
      .json<{ train_no: string }[]>().map((r) => r.train_no);
    expect(mine).toEqual(manning);
    expect(mine.length).toBeGreaterThan(0);
    const dli = (await t.db.query<{ train_no: string }>("SELECT train_no FROM trains WHERE div_code = 'DLI' ORDER BY 1")).rows.map((r) => r.train_no);
    expect(mine).toEqual(dli);
    const all = (await app.inject({ method: 'GET', url: '/api/getArrayOfTrainNo', headers: su.headers() })).json<string[]>();
    expect(all.length).toBeGreaterThan(mine.length);
    expect((await app.inject({ method: 'GET', url: '/api/getArrayOfTrainNo' })).statusCode).toBe(403);
  });
});

describe('dashboard.json in the repository', () => {
  it('is valid and every card links to an existing report or page', async () => {
    const { WatchedJson } = await import('../../src/server/meta/watched-json');
    const { checkDashboard } = await import('../../src/server/meta/dashboard');
    const w = new WatchedJson<DashboardConfig>({
      rootDir: '.', file: 'dashboard.json', schemaFile: 'schemas/dashboard.schema.json', crossCheck: checkDashboard,
      log: { info: () => undefined, error: () => undefined },
    });
    expect(w.load()).toEqual([]);
    const root = copyRoot();
    try {
      writeFileSync(join(root, 'dashboard.json'), JSON.stringify({ cards: [{ id: 'x', title: 'X', endpoint: 'psgn-count', kind: 'stat', chart: { type: 'radar', labelField: 'a', series: [] } }] }));
      const bad = new WatchedJson<DashboardConfig>({ rootDir: root, file: 'dashboard.json', schemaFile: 'schemas/dashboard.schema.json', crossCheck: checkDashboard, log: { info: () => undefined, error: () => undefined } });
      const problems = bad.load();
      expect(problems.map((p) => p.pointer).sort()).toEqual(['/cards/0/chart/series', '/cards/0/chart/type']);
      expect(bad.get()).toBeUndefined();
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
