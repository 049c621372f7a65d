/** `npm run check:definitions`: validates every report definition (and the menu's report links); exit 1 on any error. */
import { resolve } from 'node:path';
import { checkDefinitions, formatError } from '../../shared/definitions/validate';
import { readDefinitionFiles } from './definition-files';

const root = resolve(process.argv[2] ?? process.cwd());
const result = checkDefinitions(readDefinitionFiles(root));
for (const e of result.errors) process.stderr.write(`${formatError(e)}\n`);
const views = result.reports.reduce((n, r) => n + r.views.length, 0);
process.stdout.write(`check:definitions: ${result.reports.length} reports (${views} calls) valid, ${result.errors.length} errors\n`);
process.exit(result.errors.length > 0 ? 1 : 0);
