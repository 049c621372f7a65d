/** Drill-down links: a column's link {report, params} with '{field}' placeholders filled from the row. */
import type { ColumnLink } from '../../../../shared/report-definition';
import { VIEW_KEYS } from './filter-url';
import type { Row } from './parse';

export const REPORT_BASE = '/layout/uikit';

const text = (v: unknown): string | null => {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string') return v.trim() === '' ? null : v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return null;
};

/** The target's filter for this row, or null when a placeholder has no value in the row (no link then). */
export function fillLinkParams(params: Record<string, string>, row: Row): Record<string, string> | null {
  const out: Record<string, string> = {};
  for (const [key, template] of Object.entries(params)) {
    let missing = false;
    const value = template.replace(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_m, field: string) => {
      const v = text(row[field]);
      if (v === null) missing = true;
      return v ?? '';
    });
    if (missing) return null;
    out[key] = value;
  }
  return out;
}

/** '/layout/uikit/<report>?a=1&_run=1' for a row, or null. */
export function drillDownHref(link: ColumnLink, row: Row): string | null {
  const params = fillLinkParams(link.params, row);
  if (!params) return null;
  const q = new URLSearchParams(params);
  q.set(VIEW_KEYS.run, '1');
  return `${REPORT_BASE}/${encodeURIComponent(link.report)}?${q.toString()}`;
}
