/** A report's calls as views: the main call, then each tab (sharing the filter). */
import type { ColumnDef, PagingDef, PublicReport } from '../../../../shared/report-definition';

export interface ReportViewDef {
  /** undefined for the main call. */
  tabId?: string;
  label: string;
  endpoint: string;
  method: 'GET' | 'POST';
  columns: ColumnDef[];
  paging: PagingDef;
  rowsPath?: string;
}

export const DEFAULT_PAGING: PagingDef = { mode: 'client', pageSize: 50 };

export function reportViews(report: PublicReport): ReportViewDef[] {
  const main: ReportViewDef = {
    label: report.title,
    endpoint: report.endpoint,
    method: report.method ?? 'POST',
    columns: report.columns,
    paging: report.paging ?? DEFAULT_PAGING,
  };
  if (report.response) main.rowsPath = report.response.rowsPath;
  const tabs = (report.tabs ?? []).map((t): ReportViewDef => {
    const v: ReportViewDef = {
      tabId: t.id,
      label: t.label,
      endpoint: t.endpoint,
      method: t.method ?? report.method ?? 'POST',
      columns: t.columns ?? report.columns,
      paging: t.paging ?? report.paging ?? DEFAULT_PAGING,
    };
    const rp = t.response?.rowsPath ?? report.response?.rowsPath;
    if (rp) v.rowsPath = rp;
    return v;
  });
  return [main, ...tabs];
}
