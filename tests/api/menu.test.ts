import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createTestDb, type TestDb } from '../support/db';
import { buildTestApp } from '../support/app';
import { dataDirWithDemoUsers, startServer, type RunningServer } from '../support/server';
import { insertUser, loginAs, loginOverHttp, type SignedIn } from '../support/login';
import { createMenuStore, type MenuProblem } from '../../src/server/meta/menu-store';
import { parseMenuDocument, type MenuDocument } from '../../src/shared/menu';

const repo = resolve('.');
const repoMenu = (): { entries: { type: string; label: string; path?: string; items?: { path?: string; label: string }[] }[] } =>
  JSON.parse(readFileSync(join(repo, 'menu.json'), 'utf8'));

/** A throwaway root with copies of menu.json and schemas/. */
function tempRoot(): string {
  const dir = mkdtempSync(join(tmpdir(), 'hht-menu-'));
  cpSync(join(repo, 'menu.json'), join(dir, 'menu.json'));
  cpSync(join(repo, 'schemas'), join(dir, 'schemas'), { recursive: true });
  return dir;
}

const labels = (m: MenuDocument): string[] => m.entries.map((e) => e.label);
const paths = (m: MenuDocument): string[] =>
  m.entries.flatMap((e) => (e.type === 'section' ? e.items : [e])).flatMap((e) => (e.type === 'item' ? [e.path] : []));

describe('menu.json as shipped', () => {
  it('holds the spec menu in the spec order, with a Logout command last', () => {
    const store = createMenuStore({ rootDir: repo, log: { info: () => {}, error: () => {} }, watch: false });
    expect(store.lastProblems()).toEqual([]);
    const m = store.getMenu();
    expect(labels(m)).toEqual([
      'Feedback Form', 'TRAIN CHECKING INFO', 'Train Information', 'CONSOLIDATED REPORTS', 'UTILITIES',
      'EXCEPTION REPORT', 'My Views', 'Whats New', 'Logout',
    ]);
    expect(paths(m)).toEqual([
      'feedbackform',
      'TTE_TS', 'All_Passenger_Report', 'vacant_berths', 'shiftedgotdown', 'Reallocation_List_Report', 'Occupancy',
      'census-occupency-report', 'eft_report', 'eft-summary', 'digitalpayment', 'dropped_e_ticket', 'release_berths',
      'chart_upload_time', 'tdrService', 'onboard-staff', 'coach-deficiency', 'dynamic-fare', 'railmadad',
      'trainDetails', 'traininfo',
      'Train_Manned_with_HHT', 'unmanned_coaches', 'mannedcoachsummary', 'orgtodest-report', 'onboard-staff-summary',
      'tdrsummary', 'ttemanning', 'coachdefsummary', 'Train_Working_Report_BeatWise',
      'tripidsearch', 'eftsearch', 'unmannedcoachhistory', 'devices', // the spec's UTILITIES, and Devices (What's New promises it there)
      'audit_trail', // SU's audit trail (refused to every other level)
      'sync_delay_new', 'bertallotmentanomaly', 'nullTWR',
      'myviews', // the officer's saved views (a handwritten page)
      'whatsnew',
    ]);
    const info = m.entries.find((e) => e.label === 'Train Information');
    expect(info?.type === 'section' && info.items.map((i) => i.label)).toEqual(['Train Schedule', 'All Train Details']);
    expect(m.entries.at(-1)).toMatchObject({ type: 'command', command: 'logout' });
    store.close();
  });
});

describe('menu store', () => {
  let root: string;
  const logged: { level: string; obj: object; msg: string }[] = [];
  const log = {
    info: (obj: object, msg: string) => logged.push({ level: 'info', obj, msg }),
    error: (obj: object, msg: string) => logged.push({ level: 'error', obj, msg }),
  };
  afterEach(() => {
    logged.length = 0;
    rmSync(root, { recursive: true, force: true });
  });

  it('reloads a reordered and relabelled menu.json through the file watcher', async () => {
    root = tempRoot();
    const store = createMenuStore({ rootDir: root, log, debounceMs: 50 });
    const doc = repoMenu();
    doc.entries.reverse();
    doc.entries[0]!.label = 'Sign out';
    writeFileSync(join(root, 'menu.json'), JSON.stringify(doc));
    await expect.poll(() => labels(store.getMenu())[0], { timeout: 5000 }).toBe('Sign out');
    expect(labels(store.getMenu())[1]).toBe('Whats New');
    store.close();
  });

  it.each<[string, (d: ReturnType<typeof repoMenu>) => unknown, Partial<MenuProblem>]>([
    ['an unknown key', (d) => ((d.entries[0] as Record<string, unknown>).colour = 'red'), { pointer: '/entries/0', reason: 'must NOT have additional properties (colour)' }],
    ['a bad path', (d) => (d.entries[1]!.items![2]!.path = 'vacant berths'), { pointer: '/entries/1/items/2/path' }],
    ['a duplicate path', (d) => (d.entries[1]!.items![3]!.path = 'TTE_TS'), { pointer: '/entries/1/items/3/path', reason: expect.stringContaining('duplicate path "TTE_TS"') }],
    ['a missing label', (d) => delete (d.entries[2] as Record<string, unknown>).label, { pointer: '/entries/2' }],
  ])('keeps the last good menu on %s and logs file, pointer and reason', (_name, breakIt, expected) => {
    root = tempRoot();
    const store = createMenuStore({ rootDir: root, log, watch: false });
    const before = store.getMenu();
    const doc = repoMenu();
    breakIt(doc);
    writeFileSync(join(root, 'menu.json'), JSON.stringify(doc));
    const problems = store.reload();
    expect(problems).toContainEqual(expect.objectContaining({ file: join(root, 'menu.json'), ...expected }));
    expect(store.getMenu()).toEqual(before);
    const line = logged.find((l) => l.level === 'error');
    expect(line?.msg).toContain(join(root, 'menu.json'));
    expect(line?.msg).toContain(problems[0]!.pointer);
    store.close();
  });

  it('keeps the last good menu on a file that is not JSON', () => {
    root = tempRoot();
    const store = createMenuStore({ rootDir: root, log, watch: false });
    writeFileSync(join(root, 'menu.json'), '{ "entries": [');
    expect(store.reload()[0]).toMatchObject({ pointer: '/', reason: expect.stringMatching(/JSON/) });
    expect(labels(store.getMenu())[0]).toBe('Feedback Form');
    store.close();
  });

  it('marks items unavailable with a reason and available again', () => {
    root = tempRoot();
    const store = createMenuStore({ rootDir: root, log, watch: false });
    store.setUnavailable('vacant_berths', 'definition vacant_berths.json is invalid');
    const find = () => {
      const s = store.getMenu().entries[1];
      return s?.type === 'section' ? s.items.find((i) => i.type === 'item' && i.path === 'vacant_berths') : undefined;
    };
    expect(find()).toMatchObject({ unavailable: 'definition vacant_berths.json is invalid' });
    store.setUnavailable('vacant_berths', null);
    expect(find()).not.toHaveProperty('unavailable');
    store.close();
  });
});

describe('GET /api/meta/menu in process', () => {
  let t: TestDb;
  let app: FastifyInstance;
  let user: SignedIn;
  beforeAll(async () => {
    t = await createTestDb();
    app = await buildTestApp(t.db);
    await insertUser(t.db, { userId: 'TMENU', userLevel: 'DA', rlyCode: 'NR', divCode: 'DLI' });
    user = await loginAs(app, 'TMENU');
  });
  afterAll(async () => {
    await app?.close();
    await t?.drop();
  });

  it('serves the menu in the shape the client parses, without file metadata', async () => {
    app.menuStore.setUnavailable('nullTWR', 'broken definition');
    expect((await app.inject({ method: 'GET', url: '/api/meta/menu' })).statusCode).toBe(403);
    const res = await app.inject({ method: 'GET', url: '/api/meta/menu', headers: user.headers() });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('private, no-cache');
    const body = res.json();
    expect(body).not.toHaveProperty('$schema');
    const m = parseMenuDocument(body);
    expect(m).not.toBeNull();
    expect(paths(m!)).toHaveLength(40);
    expect(JSON.stringify(m)).toContain('"unavailable":"broken definition"');
  });

  it('answers a poll of an unchanged menu with 304 (ETag), and a changed one with the new menu and tag', async () => {
    const first = await app.inject({ method: 'GET', url: '/api/meta/menu', headers: user.headers() });
    const etag = first.headers.etag;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    const same = await app.inject({ method: 'GET', url: '/api/meta/menu', headers: { ...user.headers(), 'if-none-match': String(etag) } });
    expect(same.statusCode).toBe(304);
    expect(same.body).toBe('');
    // Without a session the tag does not help.
    expect((await app.inject({ method: 'GET', url: '/api/meta/menu', headers: { 'if-none-match': String(etag) } })).statusCode).toBe(403);
    app.menuStore.setUnavailable('vacant_berths', 'broken for the poll test');
    const changed = await app.inject({ method: 'GET', url: '/api/meta/menu', headers: { ...user.headers(), 'if-none-match': String(etag) } });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
    expect(changed.body).toContain('broken for the poll test');
    app.menuStore.setUnavailable('vacant_berths', null);
  });
});

describe('menu on a running server', () => {
  let root: string;
  let server: RunningServer;
  let user: SignedIn;
  beforeAll(async () => {
    root = tempRoot();
    server = await startServer({
      HHT_ROOT_DIR: root,
      HHT_SEED: 'none',
      HHT_DATA_DIR: await dataDirWithDemoUsers(),
      HHT_CLIENT_DIR: join(repo, 'dist/client'),
    });
    user = await loginOverHttp(server.url, 'HHTSU');
  });
  afterAll(async () => {
    await server?.stop();
    rmSync(root, { recursive: true, force: true });
  });
  const fetchLabels = async (): Promise<string[]> => {
    const res = await fetch(`${server.url}/api/meta/menu`, { headers: user.headers() });
    const m = parseMenuDocument(await res.json());
    return m ? labels(m) : [];
  };

  it('shows a reordered menu.json on the next load, and keeps it when the next edit is invalid', async () => {
    expect((await fetchLabels())[0]).toBe('Feedback Form');
    const doc = repoMenu();
    const [first, second] = [doc.entries[1]!, doc.entries[2]!];
    doc.entries[1] = second;
    doc.entries[2] = first;
    writeFileSync(join(root, 'menu.json'), JSON.stringify(doc, null, 2));
    await expect.poll(fetchLabels, { timeout: 10_000 }).toEqual([
      'Feedback Form', 'Train Information', 'TRAIN CHECKING INFO', 'CONSOLIDATED REPORTS', 'UTILITIES',
      'EXCEPTION REPORT', 'My Views', 'Whats New', 'Logout',
    ]);
    const reordered = await fetchLabels();

    writeFileSync(join(root, 'menu.json'), JSON.stringify({ entries: [{ type: 'item', path: 'x', label: 'X', bogus: true }] }));
    await expect.poll(() => server.output(), { timeout: 10_000 }).toContain('/entries/0');
    expect(server.output()).toContain(join(root, 'menu.json'));
    expect(server.output()).toContain('must NOT have additional properties');
    expect(await fetchLabels()).toEqual(reordered);
  });
});
