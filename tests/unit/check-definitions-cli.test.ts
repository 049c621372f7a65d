import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

const runCli = (root?: string) =>
  spawnSync(process.execPath, ['--import', 'tsx', 'src/server/reports/check-cli.ts', ...(root ? [root] : [])], { encoding: 'utf8' });

describe('npm run check:definitions', () => {
  it('passes on the shipped definitions, menu, dashboard and release notes', () => {
    const r = runCli();
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/reports \(\d+ calls\) valid, menu, dashboard and release notes checked, 0 errors/);
    expect(r.status).toBe(0);
  }, 60_000);

  it('lists every error with file, pointer and reason, menu items included, and exits 1', () => {
    const r = runCli('tests/fixtures/broken-definitions');
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('menu.json#/entries/1/items/0: menu item points at unknown report "nope"');
    expect(r.stderr).toContain('reports/typo.json#/filtre: unknown key "filtre"');
    expect(r.stderr).not.toContain('"good"');
  }, 60_000);
});
