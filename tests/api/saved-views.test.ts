/**
 * Saved views: private and shared, never wider than the opener's own scope, changed only by their owner, bodies
 * validated field by field, and a view whose report or filter no longer holds says so.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { TEST_DRIVERS, type TestDb } from '../support/db';
import { cloneSeededTestDb } from '../support/seeded';
import { buildTestApp } from '../support/app';
import { loginAs, type SignedIn } from '../support/login';
import { manualClock } from '../../src/server/clock';
import { parseSavedView, type SavedView, type SavedViewState } from '../../src/shared/saved-views';
import { EXTRAS_USERS, insertExtrasUsers, istNoon } from './extras-users';

const REPORT = 'Train_Manned_with_HHT';

describe.each(TEST_DRIVERS)('saved views on %s', (driver) => {
  let t: TestDb & { today: string };
  let app: FastifyInstance;
  let su: SignedIn;
  let du: SignedIn;
  let bct: SignedIn;

  const state = (over: Partial<SavedViewState> = {}): SavedViewState => ({
    filter: { startDate: t.today },
    tab: null,
    sortBy: 'train_no',
    sortDir: 'desc',
    columns: [{ colId: 'division', hide: false, pinned: 'left' }, { colId: 'train_no', hide: false, width: 120, pinned: null }, { colId: 'ttes', hide: true, pinned: null }],
    layout: 'cards',
    ...over,
  });
  const call = (s: SignedIn, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
    app.inject({ method, url, headers: s.headers(), ...(payload ? { payload } : {}) });
  const save = async (s: SignedIn, body: object): Promise<SavedView> => {
    const res = await call(s, 'POST', '/api/saved-views', body);
    expect(res.statusCode, res.body).toBe(201);
    const v = parseSavedView(res.json());
    if (!v) throw new Error(`not a view: ${res.body}`);
    return v;
  };
  const list = async (s: SignedIn): Promise<SavedView[]> => {
    const res = await call(s, 'GET', '/api/saved-views');
    expect(res.statusCode).toBe(200);
    return res.json<{ views: unknown[] }>().views.map((v) => parseSavedView(v) as SavedView);
  };
  const fieldsOf = (res: { json: <T>() => T }): string[] => res.json<{ fields?: { field: string }[] }>().fields?.map((f) => f.field) ?? [];

  beforeAll(async () => {
    t = await cloneSeededTestDb(driver);
    app = await buildTestApp(t.db, { clock: manualClock(istNoon(t.today)) });
    await insertExtrasUsers(t.db);
    su = await loginAs(app, EXTRAS_USERS.su.userId);
    du = await loginAs(app, EXTRAS_USERS.du.userId);
    bct = await loginAs(app, EXTRAS_USERS.bct.userId);
  }, 600_000);
  afterAll(async () => {
    await app?.close();
    await t?.drop();
  });

  it("a shared view of an SU's India-wide filter, opened by a division user, shows only that division's rows", async () => {
    const saved = await save(su, { reportId: REPORT, name: '  All India today ', shared: true, state: state() });
    expect(saved).toMatchObject({ reportId: REPORT, reportTitle: 'Trains Manned with HHT', name: 'All India today', shared: true, ownerId: 'XSU', mine: true, problem: null });
    expect(saved.viewId).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect(saved.state).toEqual(state());

    const opened = await call(du, 'GET', `/api/saved-views/${saved.viewId}`);
    expect(opened.statusCode).toBe(200);
    const asDu = parseSavedView(opened.json());
    expect(asDu).toMatchObject({ mine: false, ownerId: 'XSU', state: state(), problem: null });
    expect((await list(du)).map((v) => v.viewId)).toContain(saved.viewId);

    // Run the report with the view's filter, as each of them: the view carries no scope, the opener's applies.
    const rows = async (s: SignedIn) => {
      const res = await call(s, 'POST', '/api/trainMannedWithHht', asDu?.state.filter);
      expect(res.statusCode).toBe(200);
      return res.json<{ rows: { division: string }[] }>().rows;
    };
    const suDivisions = new Set((await rows(su)).map((r) => r.division));
    const duRows = await rows(du);
    expect(suDivisions.size).toBeGreaterThan(1);
    expect(duRows.length).toBeGreaterThan(0);
    expect(new Set(duRows.map((r) => r.division))).toEqual(new Set(['DLI']));
    const bctRows = await rows(bct);
    expect(new Set(bctRows.map((r) => r.division))).toEqual(new Set(['BCT']));
  });

  it('a private view is seen by its owner only; a shared view of an SU-only report is not seen by a division user', async () => {
    const mine = await save(su, { reportId: REPORT, name: 'Mine only', shared: false, state: state() });
    const audit = await save(su, { reportId: 'audit_trail', name: 'Sign-ins', shared: true, state: state({ filter: {}, sortBy: null, sortDir: null, columns: null, layout: null }) });
    const duIds = (await list(du)).map((v) => v.viewId);
    expect(duIds).not.toContain(mine.viewId);
    expect(duIds).not.toContain(audit.viewId);
    expect((await call(du, 'GET', `/api/saved-views/${mine.viewId}`)).statusCode).toBe(404);
    expect((await call(du, 'GET', `/api/saved-views/${audit.viewId}`)).statusCode).toBe(404);
    const suIds = (await list(su)).map((v) => v.viewId);
    expect(suIds).toEqual(expect.arrayContaining([mine.viewId, audit.viewId]));
  });

  it('only the owner renames, shares or deletes a view; anyone else gets 404 and the view is unchanged', async () => {
    const v = await save(su, { reportId: REPORT, name: 'Morning check', shared: true, state: state() });
    for (const [method, payload] of [['PATCH', { name: 'Taken over' }], ['PATCH', { shared: false }], ['DELETE', undefined]] as const) {
      const res = await call(du, method, `/api/saved-views/${v.viewId}`, payload);
      expect(res.statusCode).toBe(404);
      expect(res.body).not.toContain('Morning check');
    }
    expect(parseSavedView((await call(su, 'GET', `/api/saved-views/${v.viewId}`)).json())).toMatchObject({ name: 'Morning check', shared: true });

    const renamed = await call(su, 'PATCH', `/api/saved-views/${v.viewId}`, { name: 'Morning check, DLI' });
    expect(renamed.statusCode).toBe(200);
    expect(parseSavedView(renamed.json())).toMatchObject({ name: 'Morning check, DLI', shared: true });
    expect((await call(su, 'PATCH', `/api/saved-views/${v.viewId}`, { shared: false })).statusCode).toBe(200);
    expect((await call(du, 'GET', `/api/saved-views/${v.viewId}`)).statusCode).toBe(404);
    expect((await call(su, 'DELETE', `/api/saved-views/${v.viewId}`)).statusCode).toBe(204);
    expect((await call(su, 'GET', `/api/saved-views/${v.viewId}`)).statusCode).toBe(404);

    // Each change is in the audit trail.
    await app.audit.flush();
    const changes = await t.db.query<{ change: string }>(
      `SELECT details->>'change' AS change FROM audit_trail WHERE action = 'view_changed' AND details->>'viewId' = $1 ORDER BY seq`,
      [v.viewId],
    );
    expect(changes.rows.map((r) => r.change)).toEqual(['saved', 'renamed', 'made_private', 'deleted']);
  });

  it('refuses bad bodies with a 400 naming the field, and stores nothing', async () => {
    const before = (await list(du)).length;
    const cases: [object, string][] = [
      [{ reportId: REPORT, shared: false, state: state() }, 'name'],
      [{ reportId: REPORT, name: '   ', shared: false, state: state() }, 'name'],
      [{ reportId: REPORT, name: 'x'.repeat(81), shared: false, state: state() }, 'name'],
      [{ reportId: 'no_such_report', name: 'x', shared: false, state: state() }, 'reportId'],
      [{ reportId: 'audit_trail', name: 'x', shared: false, state: state({ filter: {} }) }, 'reportId'],
      [{ reportId: REPORT, name: 'x', shared: 'yes', state: state() }, 'shared'],
      [{ reportId: REPORT, name: 'x', shared: false, state: state({ filter: { startDate: '15-03-2026' } }) }, 'state.filter.startDate'],
      [{ reportId: REPORT, name: 'x', shared: false, state: state({ tab: 'nope' }) }, 'state.tab'],
      [{ reportId: REPORT, name: 'x', shared: false, state: state({ layout: 'table' as never }) }, 'state.layout'],
      [{ reportId: REPORT, name: 'x', shared: false, state: { ...state(), columns: [{ colId: 'a', pinned: null }] } }, 'state.columns.0.hide'],
      [{ reportId: REPORT, name: 'x', shared: false, state: state(), extra: 1 }, 'extra'],
    ];
    for (const [body, field] of cases) {
      const res = await call(du, 'POST', '/api/saved-views', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(fieldsOf(res), JSON.stringify(body)).toContain(field);
    }
    expect((await call(du, 'PATCH', '/api/saved-views/AAAAAAAAAAAAAAAA', {})).statusCode).toBe(400);
    expect(fieldsOf(await call(du, 'GET', '/api/saved-views/not-an-id'))).toContain('viewId');
    expect((await list(du)).length).toBe(before);
  });

  it('a view whose report is gone, or whose filter the report no longer accepts, says so instead of opening half-applied', async () => {
    // Views saved when the report and its filter were valid; since then the report was removed / its schema changed.
    for (const [id, report, filter] of [['GoneGoneGoneGone', 'removed_report', { startDate: t.today }], ['OldFilterOldFilt', REPORT, { startDate: '15/03/2026' }]] as const) {
      await t.db.query(
        `INSERT INTO saved_views (view_id, owner_id, report_id, name, shared, state, created_at, updated_at)
         VALUES ($1, 'XDU', $2, 'old', false, $3::jsonb, now(), now())`,
        [id, report, JSON.stringify(state({ filter }))],
      );
    }
    const gone = parseSavedView((await call(du, 'GET', '/api/saved-views/GoneGoneGoneGone')).json());
    expect(gone).toMatchObject({ reportTitle: null, problem: { code: 'report_missing' } });
    const old = parseSavedView((await call(du, 'GET', '/api/saved-views/OldFilterOldFilt')).json());
    expect(old?.problem?.code).toBe('filter_invalid');
    expect(old?.problem?.code === 'filter_invalid' && [...new Set(old.problem.fields.map((f) => f.field))]).toEqual(['startDate']);
    // In Hindi the reasons are Hindi.
    const hi = await app.inject({ method: 'GET', url: '/api/saved-views/OldFilterOldFilt', headers: { ...du.headers(), 'accept-language': 'hi' } });
    expect(JSON.stringify(hi.json<SavedView>().problem)).toMatch(/[\u0900-\u097F]/);
    // Both stay in the owner's list, so they can be deleted.
    const listed = await list(du);
    expect(listed.find((v) => v.viewId === 'GoneGoneGoneGone')?.problem).toEqual({ code: 'report_missing' });
    expect((await call(du, 'DELETE', '/api/saved-views/GoneGoneGoneGone')).statusCode).toBe(204);
  });
});
