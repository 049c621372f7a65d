/**
 * Cross-check of dashboard.json against the report definitions, for `npm run check:definitions` (the schema and
 * the per-card rules are checked by the server's own loader, src/server/meta/dashboard.ts).
 */
import type { DashboardConfig } from '../dashboard';
import { escapePointer, type CheckedReport, type DefinitionError } from './validate';

/**
 * A card's link that is a report id must name an existing report. A card calling a report's endpoint must use
 * that call's method (the other one is a 404) and send only the report's filter fields as params (the server
 * drops the others silently). Endpoints that are no report's (built-in routes) are not checked here.
 */
export function checkDashboardReports(
  file: string,
  config: DashboardConfig,
  reports: readonly CheckedReport[],
  knownIds: ReadonlySet<string>,
): DefinitionError[] {
  const errors: DefinitionError[] = [];
  const byEndpoint = new Map(reports.flatMap((r) => r.views.map((v) => [v.endpoint, { report: r, view: v }] as const)));
  config.cards.forEach((c, i) => {
    const at = `/cards/${i}`;
    if (c.link !== undefined && !c.link.startsWith('/') && !knownIds.has(c.link)) {
      errors.push({ file, pointer: `${at}/link`, reason: `card links to unknown report "${c.link}"` });
    }
    const called = byEndpoint.get(c.endpoint);
    if (!called) return;
    const method = c.method ?? 'POST';
    if (method !== called.view.method) {
      errors.push({
        file,
        pointer: `${at}/method`,
        reason: `${c.endpoint} of report "${called.report.definition.id}" is called with ${called.view.method}, not ${method}`,
      });
    }
    const fields = Object.keys((called.report.filterSchema.properties as Record<string, unknown> | undefined) ?? {});
    for (const k of Object.keys(c.params ?? {})) {
      if (!fields.includes(k)) {
        errors.push({
          file,
          pointer: `${at}/params/${escapePointer(k)}`,
          reason: `"${k}" is not a filter field of report "${called.report.definition.id}"`,
        });
      }
    }
  });
  return errors;
}
