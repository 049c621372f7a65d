/**
 * A report's rows as the engine gives them, in process (no HTTP): a report of the catalogue by id, one of its views
 * (its main view, or a tab), a filter as a client would send it.
 */
import type { Db } from '../../src/server/db';
import { checkDefinitions, type CheckedReport, type CheckedView } from '../../src/shared/definitions/validate';
import { readDefinitionFiles } from '../../src/server/reports/definition-files';
import { parseFilter } from '../../src/server/reports/filter';
import { runView } from '../../src/server/reports/executor';

export type Row = Record<string, unknown>;

export const catalogue = checkDefinitions(readDefinitionFiles(process.cwd()));

export function reportOf(id: string): CheckedReport {
  const r = catalogue.reports.find((x) => x.definition.id === id);
  if (!r) throw new Error(`${id} definition missing`);
  return r;
}

export function viewOf(report: CheckedReport, tabId?: string): CheckedView {
  const v = report.views.find((x) => x.tabId === tabId);
  if (!v) throw new Error(`${report.definition.id} view ${tabId ?? 'main'} missing`);
  return v;
}

/** Every row (up to rowsPerPage) of a report's view for a filter, with `today` as the filter's today. */
export async function reportRows(db: Db, id: string, tabId: string | undefined, values: Row, today: string, rowsPerPage = 5000): Promise<Row[]> {
  const report = reportOf(id);
  const filter = parseFilter(report, values, today);
  return (await runView(db, viewOf(report, tabId), filter, { kind: 'all' }, { timeoutMs: 60_000, rowsPerPage })).rows as Row[];
}
