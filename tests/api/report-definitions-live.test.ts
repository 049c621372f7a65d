/**
 * Report definitions that cannot break silently, on real files in a temp root and a real
 * database (PGlite, and PostgreSQL when TEST_DATABASE_URL is set): atomic saves and deletions are seen; SQL that
 * fails on the database or misses a column makes the report unavailable at load with the database's message; a
 * second file claiming a live endpoint is refused; report SQL cannot read users.
 */
import { cpSync, mkdirSync, mkdtempSync, renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createTestDb, TEST_DRIVERS, type TestDb } from '../support/db';
import { buildTestApp } from '../support/app';
import { insertUser, loginAs, type SignedIn } from '../support/login';
import { ReportRegistry } from '../../src/server/reports/registry';
import { SqlChecker } from '../../src/server/reports/sql-check';
import { runView } from '../../src/server/reports/executor';
import { HttpError } from '../../src/server/plugins/errors';

const repo = resolve('.');

const TRAINS_SQL =
  'SELECT train_no, name, zone_code, div_code FROM trains WHERE (:trainNo::text IS NULL OR train_no = :trainNo) AND {{scope}}';

/** A small valid definition; overrides replace top-level keys. */
function definition(id: string, endpoint: string, sql = TRAINS_SQL, fields = ['train_no', 'name']): Record<string, unknown> {
  return {
    id,
    title: `Title of ${id}`,
    endpoint,
    filter: { schema: { type: 'object', properties: { trainNo: { $ref: 'fields/train-no.json' } } } },
    columns: fields.map((f) => ({ field: f, headerName: f })),
    source: { sql, scope: { zone: 'zone_code', division: 'div_code' } },
  };
}

/** A throwaway root: schemas/, menu.json and the given reports. */
function tempRoot(reports: Record<string, Record<string, unknown>>): string {
  const dir = mkdtempSync(join(tmpdir(), 'hht-defs-'));
  cpSync(join(repo, 'schemas'), join(dir, 'schemas'), { recursive: true });
  cpSync(join(repo, 'menu.json'), join(dir, 'menu.json'));
  mkdirSync(join(dir, 'reports'));
  for (const [id, def] of Object.entries(reports)) writeFileSync(join(dir, 'reports', `${id}.json`), JSON.stringify(def, null, 2));
  return dir;
}

/** How vim, JetBrains, Sublime and `sed -i` save: write a temp file beside it, rename it over the original. */
function atomicSave(file: string, text: string): void {
  const tmp = `${file}.tmp-${process.pid}`;
  writeFileSync(tmp, text);
  renameSync(tmp, file);
}

const quiet = { info: () => undefined, error: () => undefined };

describe.each(TEST_DRIVERS)('report definitions on %s', (driver) => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb(driver);
    await insertUser(t.db, { userId: 'TDEFSU', userLevel: 'SU' });
  }, 60_000);
  afterAll(async () => {
    await t?.drop();
  });

  describe('watching', () => {
    let root: string;
    let registry: ReportRegistry;
    beforeAll(async () => {
      root = tempRoot({ alpha: definition('alpha', 'getAlpha'), beta: definition('beta', 'getBeta') });
      registry = new ReportRegistry(root, quiet, { sqlCheck: new SqlChecker(t.db), debounceMs: 100 });
      await registry.load();
      registry.watch();
    });
    afterAll(async () => {
      await registry?.close();
      rmSync(root, { recursive: true, force: true });
    });

    it('takes every atomic save of a file, and a deletion after them, within 2 s each', async () => {
      const file = join(root, 'reports', 'alpha.json');
      for (const title of ['First save', 'Second save', 'Third save']) {
        atomicSave(file, JSON.stringify({ ...definition('alpha', 'getAlpha'), title }));
        await expect.poll(() => registry.get('alpha')?.definition.title, { timeout: 2000, interval: 50 }).toBe(title);
      }
      unlinkSync(file);
      await expect.poll(() => registry.get('alpha'), { timeout: 2000, interval: 50 }).toBeUndefined();
      expect(registry.endpoint('getAlpha')).toBeUndefined();
      expect(registry.get('beta')).toBeDefined();
    });

    it('takes a new file written as temp + rename, and a deletion of an atomically saved one', async () => {
      atomicSave(join(root, 'reports', 'gamma.json'), JSON.stringify(definition('gamma', 'getGamma')));
      await expect.poll(() => registry.endpoint('getGamma')?.report.definition.id, { timeout: 2000, interval: 50 }).toBe('gamma');
      atomicSave(join(root, 'reports', 'beta.json'), JSON.stringify({ ...definition('beta', 'getBeta'), title: 'Beta again' }));
      await expect.poll(() => registry.get('beta')?.definition.title, { timeout: 2000, interval: 50 }).toBe('Beta again');
      unlinkSync(join(root, 'reports', 'beta.json'));
      await expect.poll(() => registry.get('beta'), { timeout: 2000, interval: 50 }).toBeUndefined();
    });
  });

  describe('SQL checked at load', () => {
    it('makes a report whose SQL misses a column, or fails, unavailable with file, view and the database message', async () => {
      const root = tempRoot({
        good: definition('good', 'getGood'),
        nocol: definition('nocol', 'getNoCol', TRAINS_SQL, ['train_no', 'train_nme']),
        badcol: definition('badcol', 'getBadCol', TRAINS_SQL.replace('name,', 'nam,')),
        syntax: definition('syntax', 'getSyntax', TRAINS_SQL.replace('FROM', 'FORM')),
        badscope: { ...definition('badscope', 'getBadScope'), source: { sql: TRAINS_SQL, scope: { zone: 'zone_cd' } } },
        tabbed: {
          ...definition('tabbed', 'getTabbed'),
          tabs: [{
            id: 'second', label: 'Second', endpoint: 'getTabbedSecond',
            columns: [{ field: 'train_no', headerName: 'Train' }, { field: 'nope', headerName: 'Nope' }],
            source: { sql: TRAINS_SQL, scope: { zone: 'zone_code' } },
          }],
        },
      });
      try {
        const registry = new ReportRegistry(root, quiet, { sqlCheck: new SqlChecker(t.db) });
        const errors = await registry.load();
        expect(registry.all().map((r) => r.definition.id)).toEqual(['good']);
        const broken = registry.unavailable();
        expect(broken.get('nocol')).toEqual({
          file: 'reports/nocol.json',
          pointer: '/columns/1/field',
          reason: 'the SQL of view "getNoCol" returns no column "train_nme" (it returns: train_no, name, zone_code, div_code)',
        });
        expect(broken.get('badcol')).toMatchObject({ file: 'reports/badcol.json', pointer: '/source/sql' });
        expect(broken.get('badcol')?.reason).toMatch(/^SQL of view "getBadCol" fails on the database: column "nam" does not exist/);
        expect(broken.get('syntax')?.reason).toMatch(/^SQL of view "getSyntax" fails on the database: syntax error at or near/);
        expect(broken.get('badscope')?.reason).toMatch(/column "zone_cd" does not exist/);
        expect(broken.get('tabbed')).toMatchObject({ pointer: '/tabs/0/columns/1/field', reason: expect.stringContaining('view "getTabbedSecond" returns no column "nope"') });
        expect(errors.map((e) => e.file).sort()).toEqual(['reports/badcol.json', 'reports/badscope.json', 'reports/nocol.json', 'reports/syntax.json', 'reports/tabbed.json']);
        await registry.close();
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
    });
  });

  describe('collisions', () => {
    it('leaves the live report running when a new file claims its endpoint, and names both files', async () => {
      const root = tempRoot({ original: definition('original', 'getShared') });
      try {
        const registry = new ReportRegistry(root, quiet, { sqlCheck: new SqlChecker(t.db) });
        await registry.load();
        // "aaa" sorts first: the old rule (first alphabetically wins) handed it the endpoint.
        writeFileSync(join(root, 'reports', 'aaa_newcomer.json'), JSON.stringify({ ...definition('aaa_newcomer', 'getShared'), title: 'Impostor' }));
        const errors = await registry.load();
        expect(registry.endpoint('getShared')?.report.file).toBe('reports/original.json');
        expect(registry.get('original')).toBeDefined();
        expect(registry.get('aaa_newcomer')).toBeUndefined();
        expect(errors).toContainEqual({
          file: 'reports/aaa_newcomer.json',
          pointer: '/endpoint',
          reason: 'endpoint "getShared" is already served by reports/original.json; this file is refused until one of them is changed',
        });
        // The newcomer is edited (still colliding): the original keeps it.
        writeFileSync(join(root, 'reports', 'aaa_newcomer.json'), JSON.stringify({ ...definition('aaa_newcomer', 'getShared'), title: 'Impostor 2' }));
        await registry.load();
        expect(registry.endpoint('getShared')?.report.file).toBe('reports/original.json');
        await registry.close();

        // A fresh start with both files: neither wins by its name; both are refused and say why.
        const fresh = new ReportRegistry(root, quiet);
        const atStart = await fresh.load();
        expect(fresh.endpoint('getShared')).toBeUndefined();
        expect(atStart.map((e) => [e.file, e.reason])).toEqual([
          ['reports/aaa_newcomer.json', 'endpoint "getShared" is also claimed by reports/original.json; both are refused until one of them is changed'],
          ['reports/original.json', 'endpoint "getShared" is also claimed by reports/aaa_newcomer.json; both are refused until one of them is changed'],
        ]);
        await fresh.close();
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
    });
  });

  describe('report SQL runs as the report role', () => {
    let root: string;
    let app: FastifyInstance;
    let su: SignedIn;
    beforeAll(async () => {
      root = tempRoot({ trains_list: definition('trains_list', 'getTrainsList') });
      app = await buildTestApp(t.db, { config: { rootDir: root } });
      su = await loginAs(app, 'TDEFSU');
    }, 60_000);
    afterAll(async () => {
      await app?.close();
      rmSync(root, { recursive: true, force: true });
    });

    it('refuses at load a definition that selects from users, and the call never returns password hashes', async () => {
      const hashes = (await t.db.query<{ password_hash: string }>("SELECT password_hash FROM users WHERE user_id = 'TDEFSU'")).rows;
      expect(hashes[0]?.password_hash).toMatch(/^\$2/);
      const leak = 'SELECT user_id AS train_no, password_hash AS name FROM users WHERE :trainNo::text IS NULL AND {{scope}}';
      writeFileSync(join(root, 'reports', 'leak.json'), JSON.stringify({
        ...definition('leak', 'getLeak', leak),
        source: { sql: leak, scope: { zone: 'rly_code', division: 'div_code' } },
      }));
      await app.reports.load();
      expect(app.reports.get('leak')).toBeUndefined();
      expect(app.reports.unavailable().get('leak')?.reason).toMatch(/permission denied for table users/);
      const res = await app.inject({ method: 'POST', url: '/api/getLeak', headers: su.headers(), payload: {} });
      expect(res.statusCode).toBe(404);
      expect(res.body).not.toContain(hashes[0]!.password_hash);
      const meta = await app.inject({ method: 'GET', url: '/api/meta/reports/leak', headers: su.headers() });
      expect(meta.statusCode).toBe(503);
      expect(meta.json<{ message: string }>().message).toMatch(/permission denied for table users/);
    });

    it('denies users to report SQL at run time too: a clean 503, no SQL, no hash', async () => {
      const ok = await app.inject({ method: 'POST', url: '/api/getTrainsList', headers: su.headers(), payload: {} });
      expect(ok.statusCode).toBe(200);
      // A view that reads users although it passed its check (e.g. a function it calls changed underneath).
      const view = app.reports.endpoint('getTrainsList')?.view;
      expect(view).toBeDefined();
      const leaking = { ...view!, sql: 'SELECT user_id AS train_no, password_hash AS name FROM users WHERE :trainNo::text IS NULL AND {{scope}}' };
      const run = runView(t.db, leaking, {}, { kind: 'all' }, { timeoutMs: 5000 });
      await expect(run).rejects.toThrow(HttpError);
      await expect(run).rejects.toMatchObject({ statusCode: 503, message: 'This report is unavailable: its SQL reads data reports may not read' });
    });

    it('serves the filter schema compiled by Ajv as a module of our origin, named by the schema hash', async () => {
      const def = await app.inject({ method: 'GET', url: '/api/meta/reports/trains_list', headers: su.headers() });
      const url = def.json<{ filterValidator: string }>().filterValidator;
      expect(url).toMatch(/^\/api\/filter-validators\/[A-Za-z0-9_-]{43}\.js$/);
      const mod = await app.inject({ method: 'GET', url });
      expect(mod.statusCode).toBe(200);
      expect(mod.headers['content-type']).toBe('text/javascript; charset=utf-8');
      expect(mod.body).toMatch(/^\/\/ Generated by the IR-HHT Portal/);
      expect(mod.body).toContain('export default function validators(require)');
      expect(mod.body).toContain('^[0-9]{5}$'); // the train-no field's pattern, compiled in
      expect(mod.body).not.toMatch(/new Function|eval\(/);
      expect((await app.inject({ method: 'GET', url: `/api/filter-validators/${'A'.repeat(43)}.js` })).statusCode).toBe(404);
      expect((await app.inject({ method: 'GET', url: '/api/filter-validators/..%2f..%2fpackage.json' })).statusCode).toBe(404);
    });

    it('opens no auth, session or feedback table to the report role', async () => {
      for (const table of ['users', 'auth_sessions', 'auth_otps', 'auth_refresh_tokens', 'auth_login_grants', 'feedback', 'device_audit', 'schema_migrations']) {
        await expect(t.db.reportSession(5000, (q) => q.query(`SELECT * FROM ${table} LIMIT 1`))).rejects.toThrow(/permission denied/);
      }
      const rows = await t.db.reportSession(5000, (q) => q.query<{ u: string }>('SELECT current_user AS u'));
      expect(rows.rows[0]?.u).toBe('hht_report');
      expect((await t.db.query<{ u: string }>('SELECT current_user AS u')).rows[0]?.u).not.toBe('hht_report');
    });
  });
});
