/**
 * `npm run check:definitions [root]`: report definitions, menu.json, dashboard.json and docs/release-notes.json
 * (see check-portal-files.ts); prints every error as file#pointer: reason and exits 1 on any.
 */
import { resolve } from 'node:path';
import { formatError } from '../../shared/definitions/validate';
import { checkPortalFiles } from './check-portal-files';

const result = checkPortalFiles(resolve(process.argv[2] ?? process.cwd()));
for (const e of result.errors) process.stderr.write(`${formatError(e)}\n`);
process.stdout.write(
  `check:definitions: ${result.reports} reports (${result.calls} calls) valid, menu, dashboard and release notes checked, ${result.errors.length} errors\n`,
);
process.exit(result.errors.length > 0 ? 1 : 0);
