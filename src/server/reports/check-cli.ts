/** `npm run check:definitions`: validates every report definition (and the menu's report links); exit 1 on any error. */
import { resolve } from 'node:path';
import { checkDefinitions, checkMenuReports, formatError, type DefinitionError } from '../../shared/definitions/validate';
import { MENU_PAGES, menuItems } from '../../shared/menu';
import { createMenuStore } from '../meta/menu-store';
import { readDefinitionFiles } from './definition-files';

const root = resolve(process.argv[2] ?? process.cwd());
const result = checkDefinitions(readDefinitionFiles(root));
const errors: DefinitionError[] = [...result.errors];

// menu.json: its own schema, then every report item must name a report that exists.
const quiet = { info: () => undefined, error: () => undefined };
const menu = createMenuStore({ rootDir: root, log: quiet, watch: false });
errors.push(...menu.lastProblems());
if (menu.lastProblems().length === 0) {
  const ids = new Set([...result.reports.map((r) => r.definition.id), ...result.failed.keys()].map((f) => f.replace(/^reports\/|\.json$/g, '')));
  const items = menuItems(menu.getMenu())
    .filter(({ item }) => !MENU_PAGES.includes(item.path))
    .map(({ pointer, item }) => ({ pointer, reportId: item.path }));
  errors.push(...checkMenuReports('menu.json', items, ids));
}
menu.close();
for (const e of errors) process.stderr.write(`${formatError(e)}\n`);
const views = result.reports.reduce((n, r) => n + r.views.length, 0);
process.stdout.write(`check:definitions: ${result.reports.length} reports (${views} calls) valid, menu checked, ${errors.length} errors\n`);
process.exit(errors.length > 0 ? 1 : 0);
