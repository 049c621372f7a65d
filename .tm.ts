import { openDb } from './src/server/db';
import { checkDefinitions } from './src/shared/definitions/validate';
import { readDefinitionFiles } from './src/server/reports/definition-files';
import { parseFilter } from './src/server/reports/filter';
import { runView } from './src/server/reports/executor';
import { sampleFilter } from './tests/support/sample-filters';
const ep = process.argv[2] ?? 'TteManningReport';
const db = await openDb({ databaseUrl: 'postgres://postgres@127.0.0.1:55432/hht_natl_7', dataDir: null });
const today = '2026-11-26';
const checked = checkDefinitions(readDefinitionFiles(process.cwd()));
for (const report of checked.reports) for (const view of report.views) {
  if (view.endpoint !== ep) continue;
  const f = parseFilter(report, await sampleFilter(db, report, today), today);
  console.log(JSON.stringify(f));
  const ts: string[] = [];
  for (let i = 0; i < 14; i++) { const s = performance.now(); await runView(db, view, f, { kind: 'all' }, { timeoutMs: 120000 }); ts.push((performance.now() - s).toFixed(0)); }
  console.log(ts.join(' '));
}
await db.close();
