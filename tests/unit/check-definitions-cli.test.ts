import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const runCli = (root?: string) =>
  spawnSync(process.execPath, ['--import', 'tsx', 'src/server/reports/check-cli.ts', ...(root ? [root] : [])], { encoding: 'utf8' });

describe('npm run check:definitions', () => {
  it('passes on the shipped definitions, menu, dashboard and release notes', () => {
    const r = runCli();
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/reports \(\d+ calls\) valid, SQL run against the schema, menu, dashboard and release notes checked, 0 errors/);
    expect(r.status).toBe(0);
  }, 60_000);

  it('lists every error with file, pointer and reason, menu items included, and exits 1', () => {
    const r = runCli('tests/fixtures/broken-definitions');
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('menu.json#/entries/1/items/0: menu item points at unknown report "nope"');
    expect(r.stderr).toContain('reports/typo.json#/filtre: unknown key "filtre"');
    expect(r.stderr).not.toContain('"good"');
  }, 60_000);

  it('runs each view\'s SQL against a migrated empty database: a missing column or a failing query exits 1 with file, view and the database message', () => {
    const root = mkdtempSync(join(tmpdir(), 'hht-check-sql-'));
    try {
      cpSync('schemas', join(root, 'schemas'), { recursive: true });
      cpSync('dashboard.json', join(root, 'dashboard.json'));
      cpSync('docs/release-notes.json', join(root, 'docs/release-notes.json'));
      writeFileSync(join(root, 'menu.json'), JSON.stringify({ entries: [{ type: 'item', path: 'whatsnew', label: 'Whats New' }] }));
      mkdirSync(join(root, 'reports'));
      const def = (id: string, sql: string, fields: string[]) => JSON.stringify({
        id, title: id, endpoint: `get_${id}`,
        filter: { schema: { type: 'object', properties: {} } },
        columns: fields.map((f) => ({ field: f, headerName: f })),
        source: { sql, scope: { zone: 'zone_code' } },
      });
      writeFileSync(join(root, 'reports', 'nocol.json'), def('nocol', 'SELECT train_no, zone_code FROM trains WHERE {{scope}}', ['train_no', 'train_name']));
      writeFileSync(join(root, 'reports', 'typo.json'), def('typo', 'SELECT train_no FROM trainz WHERE {{scope}}', ['train_no']));
      writeFileSync(join(root, 'reports', 'fine.json'), def('fine', 'SELECT train_no FROM trains WHERE {{scope}}', ['train_no']));
      const r = runCli(root);
      expect(r.stderr).toContain('reports/nocol.json#/columns/1/field: the SQL of view "get_nocol" returns no column "train_name" (it returns: train_no, zone_code)');
      expect(r.stderr).toContain('reports/typo.json#/source/sql: SQL of view "get_typo" fails on the database: relation "trainz" does not exist');
      expect(r.stderr).not.toContain('fine.json');
      expect(r.stdout).toContain('check:definitions: 1 reports (1 calls) valid');
      expect(r.status).toBe(1);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  }, 60_000);
});
