/**
 * `npm run check:definitions [root]`: report definitions, menu.json, dashboard.json and docs/release-notes.json
 * (see check-portal-files.ts), then each view's SQL against an empty, migrated in-memory PGlite (as the report
 * role, like the server does at load); prints every error as file#pointer: reason and exits 1 on any. English texts
 * without Hindi are listed as warnings (file#pointer: no Hindi for ...), which do not change the exit code.
 */
import { resolve } from 'node:path';
import { formatError } from '../../shared/definitions/validate';
import { openPglite } from '../db/pglite-driver';
import { migrate } from '../db/migrate';
import { checkPortalFiles } from './check-portal-files';
import { SqlChecker } from './sql-check';

async function main(): Promise<number> {
  const result = checkPortalFiles(resolve(process.argv[2] ?? process.cwd()));
  const db = await openPglite(null);
  let sqlErrors;
  try {
    await migrate(db);
    sqlErrors = await new SqlChecker(db).check(result.checked);
  } finally {
    await db.close();
  }
  const errors = [...result.errors, ...sqlErrors];
  const brokenSql = new Set(sqlErrors.map((e) => e.file));
  const valid = result.checked.filter((r) => !brokenSql.has(r.file));
  for (const e of errors) process.stderr.write(`${formatError(e)}\n`);
  for (const w of result.missingHindi) process.stdout.write(`warning: ${formatError(w)}\n`);
  process.stdout.write(`check:definitions: ${result.missingHindi.length} Hindi texts missing\n`);
  process.stdout.write(
    `check:definitions: ${valid.length} reports (${valid.reduce((n, r) => n + r.views.length, 0)} calls) valid, SQL run against the schema, menu, dashboard and release notes checked, ${errors.length} errors\n`,
  );
  return errors.length > 0 ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`check:definitions failed: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(2);
  },
);
