import type { Readable } from 'node:stream';
import type { Db } from '../../db';
import type { Config } from '../../config';
import { istDate } from '../../clock';
import { HttpError } from '../../plugins/errors';
import type { CheckedReport } from '../../../shared/definitions/validate';
import type { Lang } from '../../../shared/definitions/hindi';
import type { ColumnDef } from '../../../shared/report-definition';
import { EXPORT_CAPS } from '../../../shared/report-definition';
import { formatDate } from '../../../shared/column-types';
import { filterEnumName } from '../../../shared/filter-labels';
import { localizeReport, localizeViewColumns } from '../../../shared/definitions/localize';
import { parseFilter } from '../filter';
import { buildQuery, orderClause } from '../executor';
import type { UserScope } from '../scope';
import { EXPORT_FORMATS, exportFileName, isExportFormat, type ExportFormat } from './index';
import { openReportRows } from './report-rows';
import type { ExportMeta } from './types';

/** What an export is asked for: by a signed-in request (routes/export.ts) or by a mail subscription at send time. */
export interface ExportAsk {
  format: string | undefined;
  tab?: string | undefined;
  /** Visible columns in order; all the view's visible columns when absent. */
  columns?: readonly string[] | undefined;
  sortBy?: string | undefined;
  sortDir?: 'asc' | 'desc' | undefined;
  /** The filter as sent (validated and defaulted here). */
  body: unknown;
  lang: Lang;
  /** The user's row scope, read from the stored profile by the caller. */
  scope: UserScope;
  /** 'Name (user id)', printed in the PDF heading. */
  userLabel: string;
  now: Date;
}

/** An export checked and its query built, before any database work: every refusal (400/403) happens here. */
export interface ExportPlan {
  format: ExportFormat;
  values: Record<string, unknown>;
  columns: ColumnDef[];
  sql: string;
  params: unknown[];
  order: string;
  fileName: string;
  contentType: string;
  meta: Omit<ExportMeta, 'rowCount'>;
}

export function planExport(report: CheckedReport, ask: ExportAsk): ExportPlan {
  const format = ask.format;
  const allowed = report.definition.export?.formats ?? [];
  if (!isExportFormat(format) || !allowed.includes(format)) {
    throw new HttpError(400, `format must be one of ${allowed.join(', ') || '(none: this report has no export)'}`, [
      { field: 'format', reason: `must be one of ${allowed.join(', ')}` },
    ]);
  }
  const view = ask.tab ? report.views.find((v) => v.tabId === ask.tab) : report.views[0];
  if (!view) throw new HttpError(400, `No tab "${ask.tab}" in this report`, [{ field: 'tab', reason: 'is not a tab of this report' }]);

  // Headers, code labels, title and filter line in the user's language.
  const { lang } = ask;
  const viewColumns = localizeViewColumns(report.definition, view.tabId, view.columns, lang);
  let columns = viewColumns.filter((c) => !c.hidden);
  if (ask.columns && ask.columns.length > 0) {
    const unknown = ask.columns.filter((f) => !viewColumns.some((c) => c.field === f));
    if (unknown.length > 0) {
      throw new HttpError(400, `Unknown columns: ${unknown.join(', ')}`, [{ field: 'columns', reason: `unknown: ${unknown.join(', ')}` }]);
    }
    columns = ask.columns.map((f) => viewColumns.find((c) => c.field === f)).filter((c) => c !== undefined);
  }

  const values = parseFilter(report, ask.body, istDate(ask.now), lang);
  const { sql, params } = buildQuery(view, values, ask.scope);
  const order = orderClause(view, ask.sortBy || undefined, ask.sortDir === 'desc' ? 'desc' : 'asc');

  const local = localizeReport(report.definition, report.filterSchema, report.fieldHindi, lang);
  const def = local.definition;
  const props = (local.filterSchema.properties ?? {}) as Record<string, { title?: string; format?: string }>;
  return {
    format,
    values,
    columns,
    sql,
    params,
    order,
    fileName: exportFileName(report.definition.export?.fileName ?? report.definition.id, values, format),
    contentType: EXPORT_FORMATS[format].contentType,
    meta: {
      title: view.tabId ? `${def.title} - ${def.tabs?.find((t) => t.id === view.tabId)?.label ?? view.tabId}` : def.title,
      // Dates read dd/mm/yyyy in exports, filter line included.
      filters: Object.entries(values).map(([k, v]) => ({
        label: props[k]?.title ?? k,
        value: filterEnumName(props[k], def.filter.uiSchema, k, v) ?? (props[k]?.format === 'date' ? formatDate(v) : String(v)),
      })),
      lang,
      user: ask.userLabel,
      generatedAt: ask.now,
    },
  };
}

export interface ExportFile {
  total: number;
  stream: Readable;
  /** Closes the rows' cursor if the stream was not read to the end; safe to call twice. */
  close(): Promise<void>;
}

/** Opens the plan's rows (a refusal such as too many rows is still an HttpError here) and starts writing the file. */
export async function writeExport(db: Db, config: Config, plan: ExportPlan): Promise<ExportFile> {
  const { total, rows, close } = await openReportRows(db, {
    sql: plan.sql,
    params: plan.params,
    order: plan.order,
    cap: EXPORT_CAPS[plan.format],
    formatLabel: plan.format.toUpperCase(),
    suggestCsv: plan.format !== 'csv',
    batchSize: config.exportBatchRows,
    timeoutMs: config.reportTimeoutMs * 2,
  });
  const stream = EXPORT_FORMATS[plan.format].write({ columns: plan.columns, rows, meta: { ...plan.meta, rowCount: total } });
  return { total, stream, close };
}
