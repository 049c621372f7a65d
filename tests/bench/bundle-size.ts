/**
 * Client bundle section of `npm run bench`: the login route's first load and what a report page adds, gzip, from the
 * built dist/client (run `npm run build` first). Budgets: login <= 160 kB, report extra <= 300 kB.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { kb, measureBundle } from '../support/bundle-size';

export const LOGIN_FIRST_LOAD_LIMIT = 160_000;
export const REPORT_EXTRA_LIMIT = 300_000;

export function printBundleSizes(distDir = resolve('dist/client')): void {
  console.log('\n## Client bundle (gzip -9, dist/client)\n');
  if (!existsSync(resolve(distDir, '.vite/manifest.json'))) {
    console.log('No built client with a manifest: run `npm run build` first.');
    return;
  }
  const r = measureBundle(distDir);
  console.log('| route | files | raw kB | gzip kB | limit kB |\n|---|---:|---:|---:|---:|');
  console.log(`| /login first load (JS+CSS, theme) | ${r.login.files.length} | ${kb(r.login.bytes)} | ${kb(r.login.gzip)} | ${kb(LOGIN_FIRST_LOAD_LIMIT)} |`);
  console.log(`| report route extra (shell + report) | ${r.reportExtra.files.length} | ${kb(r.reportExtra.bytes)} | ${kb(r.reportExtra.gzip)} | ${kb(REPORT_EXTRA_LIMIT)} |`);
  console.log(`| + results grid, on the first run (AG Grid) | ${r.resultsGrid.files.length} | ${kb(r.resultsGrid.bytes)} | ${kb(r.resultsGrid.gzip)} | - |`);
  console.log('\n| login file | gzip kB |\n|---|---:|');
  for (const f of r.login.files) console.log(`| ${f.file} | ${kb(f.gzip)} |`);
  console.log('\n| report extra file | gzip kB |\n|---|---:|');
  for (const f of r.reportExtra.files) console.log(`| ${f.file} | ${kb(f.gzip)} |`);
  console.log('\n| results grid file | gzip kB |\n|---|---:|');
  for (const f of r.resultsGrid.files) console.log(`| ${f.file} | ${kb(f.gzip)} |`);
  console.log('\n| largest chunks | raw kB | gzip kB |\n|---|---:|---:|');
  for (const f of r.chunks.slice(0, 12)) console.log(`| ${f.file} | ${kb(f.bytes)} | ${kb(f.gzip)} |`);
}

if (import.meta.url === `file://${process.argv[1]}`) printBundleSizes();
