import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from 'vite';
import { htmlStylesheets, kb, measureBundle, type BundleReport } from '../support/bundle-size';
import { LOGIN_FIRST_LOAD_LIMIT, REPORT_EXTRA_LIMIT } from '../bench/bundle-size';

/**
 * The client build, made here into a temporary folder (about 5 s), stays within its budgets: the
 * login's first load (JS+CSS with the theme) at most 160 kB gzip, what a report page adds at most 300 kB gzip.
 */
describe('client bundle budgets', { timeout: 120_000 }, () => {
  const outDir = mkdtempSync(join(tmpdir(), 'hht-bundle-'));
  let report: BundleReport;
  let html: string;
  const text = (file: string): string => readFileSync(join(outDir, file), 'utf8');

  beforeAll(async () => {
    // Vitest runs with NODE_ENV=test, which would make Vite bundle React's development build.
    const nodeEnv = process.env.NODE_ENV;
    process.env.NODE_ENV = 'production';
    try {
      await build({ configFile: resolve('vite.config.ts'), mode: 'production', logLevel: 'warn', build: { outDir, emptyOutDir: true } });
    } finally {
      process.env.NODE_ENV = nodeEnv;
    }
    report = measureBundle(outDir);
    html = text('index.html');
  }, 120_000);
  afterAll(() => rmSync(outDir, { recursive: true, force: true }));

  it('the login first load is at most 160 kB gzip, the theme stylesheet included', () => {
    expect(report.login.files.map((f) => f.file)).toContain('themes/lara-light-indigo/theme.css');
    expect(report.login.gzip, report.login.files.map((f) => `${f.file} ${f.gzip}`).join('\n')).toBeLessThanOrEqual(LOGIN_FIRST_LOAD_LIMIT);
  });

  it('a report page adds at most 300 kB gzip, and the results grid is not part of it', () => {
    expect(report.reportExtra.gzip, report.reportExtra.files.map((f) => `${f.file} ${f.gzip}`).join('\n')).toBeLessThanOrEqual(REPORT_EXTRA_LIMIT);
    const gridFiles = report.resultsGrid.files.map((f) => f.file);
    expect(gridFiles.length).toBeGreaterThan(0);
    expect(gridFiles.some((f) => text(f).includes('ag-root-wrapper'))).toBe(true);
    for (const f of report.reportExtra.files) expect(text(f.file).includes('ag-root-wrapper'), f.file).toBe(false);
  });

  it("no chunk passes Vite's 500 kB warning, and the login loads none of AG Grid's", () => {
    // A warning in the build log is easy to miss: anything that grows past it fails here. AG Grid's core, one prebuilt
    // module of about 650 kB, is cut into parts at build time (scripts/vite/split-flat-module.ts).
    const large = report.chunks.filter((c) => c.bytes > 500_000).map((c) => `${c.file} ${kb(c.bytes)} kB`);
    expect(large).toEqual([]);
    const gridFiles = report.resultsGrid.files.map((f) => f.file);
    expect(gridFiles.filter((f) => /^assets\/ag-grid-core-\d+-[\w-]+\.js$/.test(f)).length).toBeGreaterThanOrEqual(2);
    for (const f of gridFiles) expect(report.login.files.map((x) => x.file)).not.toContain(f);
  });

  it('the login loads no shell, report, grid, chart or PrimeReact component code', () => {
    const js = report.login.files.filter((f) => f.file.endsWith('.js')).map((f) => text(f.file)).join('\n');
    for (const marker of ['ag-root-wrapper', 'layout-topbar', 'report-filter-form', 'Chart.js', 'p-dialog', 'p-toast', 'data-pc-name']) {
      expect(js.includes(marker), marker).toBe(false);
    }
  });

  it('index.html links the default theme ahead of the app CSS, and no font face loads until the dyslexia option is on', () => {
    const sheets = htmlStylesheets(html);
    expect(sheets[0]).toBe('themes/lara-light-indigo/theme.css');
    expect(html).toMatch(/<link rel="stylesheet" id="theme-link" data-theme="lara-light-indigo" href="\/themes\/lara-light-indigo\/theme.css" \/>/);
    expect(sheets.length).toBeGreaterThan(1);
    const css = report.login.files.filter((f) => f.file.startsWith('assets/') && f.file.endsWith('.css')).map((f) => text(f.file)).join('\n');
    expect(css).toContain('OpenDyslexic'); // the rule of the option, without its font faces:
    expect(css).not.toMatch(/@font-face\s*\{[^}]*OpenDyslexic/);
  });
});
