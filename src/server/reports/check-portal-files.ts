/**
 * Everything `npm run check:definitions` checks under a root folder: report definitions (with their links),
 * menu.json, dashboard.json and docs/release-notes.json, each with the validator the server uses for it plus
 * the checks across files. Every error at once, each with file, JSON pointer and reason.
 */
import { checkDefinitions, checkMenuReports, type CheckedReport, type DefinitionError } from '../../shared/definitions/validate';
import { checkDashboardReports } from '../../shared/definitions/dashboard-reports';
import type { DashboardConfig } from '../../shared/dashboard';
import type { ReleaseNotes } from '../../shared/release-notes';
import { MENU_PAGES, menuItems } from '../../shared/menu';
import { createMenuStore } from '../meta/menu-store';
import { WatchedJson } from '../meta/watched-json';
import { checkDashboard } from '../meta/dashboard';
import { checkReleaseNotes } from '../meta/release-notes';
import { readDefinitionFiles } from './definition-files';
import { missingFieldHindi, missingReportHindi, type HindiProblem } from '../../shared/definitions/hindi';
import { checkMenuHindi, missingDashboardHindi, missingMenuHindi } from '../../shared/definitions/hindi-portal';

export interface PortalFilesCheck {
  errors: DefinitionError[];
  /** Valid reports and their calls (main call and tabs). */
  reports: number;
  calls: number;
  /** The reports that passed, for the checks that need a database (their SQL). */
  checked: CheckedReport[];
  /** English texts with no Hindi (a warning, not an error): reports, shared fields, menu and dashboard. */
  missingHindi: HindiProblem[];
}

export function checkPortalFiles(root: string): PortalFilesCheck {
  const input = readDefinitionFiles(root);
  const result = checkDefinitions(input);
  const errors: DefinitionError[] = [...result.errors];
  const missingHindi: HindiProblem[] = [];
  for (const f of input.fields) {
    try {
      const json: unknown = JSON.parse(f.text);
      if (typeof json === 'object' && json !== null && !Array.isArray(json)) missingHindi.push(...missingFieldHindi(f.file, json as Record<string, unknown>));
    } catch {
      // a broken field file is already an error
    }
  }
  for (const r of result.reports) {
    missingHindi.push(...missingReportHindi(r.file, r.definition, (r.filterSchema.properties ?? {}) as Record<string, unknown>, r.fieldHindi));
  }
  // Broken reports count as existing for menu items and card links: their own errors already say what is wrong.
  const ids = new Set([...result.reports.map((r) => r.definition.id), ...[...result.failed.keys()].map((f) => f.replace(/^reports\/|\.json$/g, ''))]);

  // menu.json: its own schema, then every report item must name a report that exists.
  const quietMenu = { info: () => undefined, error: () => undefined };
  const menu = createMenuStore({ rootDir: root, log: quietMenu, watch: false });
  errors.push(...menu.lastProblems());
  if (menu.lastProblems().length === 0) {
    const items = menuItems(menu.getMenu())
      .filter(({ item }) => !MENU_PAGES.includes(item.path))
      .map(({ pointer, item }) => ({ pointer, reportId: item.path }));
    errors.push(...checkMenuReports('menu.json', items, ids));
    missingHindi.push(...missingMenuHindi('menu.json', menu.getMenu(), menu.hindi()));
    // Stale Hindi (a renamed section's old label): a warning, the menu itself is served.
    missingHindi.push(...checkMenuHindi('menu.json', menu.getMenu(), menu.hindi()).map((p) => ({ ...p, reason: `${p.reason} (stale: ignored)` })));
  }
  menu.close();

  // dashboard.json and the release notes: the loader the server serves them with (schema, then its cross-checks).
  const quiet = { info: () => undefined, error: () => undefined };
  const dashboard = new WatchedJson<DashboardConfig>({
    rootDir: root, file: 'dashboard.json', schemaFile: 'schemas/dashboard.schema.json', crossCheck: checkDashboard, log: quiet,
  });
  errors.push(...dashboard.load());
  const cards = dashboard.get();
  if (cards) {
    errors.push(...checkDashboardReports('dashboard.json', cards, result.reports, ids));
    missingHindi.push(...missingDashboardHindi('dashboard.json', cards, cards.hi));
  }
  const notes = new WatchedJson<ReleaseNotes>({
    rootDir: root, file: 'docs/release-notes.json', schemaFile: 'schemas/release-notes.schema.json', crossCheck: checkReleaseNotes, log: quiet,
  });
  errors.push(...notes.load());

  return { errors, reports: result.reports.length, calls: result.reports.reduce((n, r) => n + r.views.length, 0), checked: result.reports, missingHindi };
}
