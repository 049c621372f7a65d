import type { FastifyInstance } from 'fastify';
import type { Db } from '../db';
import type { Config } from '../config';
import { istDate } from '../clock';
import { HttpError } from '../plugins/errors';
import type { ReportRegistry } from '../reports/registry';
import { parseFilter } from '../reports/filter';
import { buildQuery, orderClause, withTimeout } from '../reports/executor';
import { EXPORT_FORMATS, exportFileName, inBatches, isExportFormat } from '../reports/export';
import { EXPORT_CAPS } from '../../shared/report-definition';
import { formatDate } from '../../shared/column-types';
import { filterEnumName } from '../../shared/filter-labels';
import { scopeOf } from './reports';

type ExportRoute = {
  Params: { reportId: string };
  Querystring: { format?: string; tab?: string; columns?: string; sortBy?: string; sortDir?: string };
};

/** POST /api/export/<reportId>?format=csv|xlsx|pdf: every row of the filter (up to the format's cap) as a file. */
export function exportRoutes(
  app: FastifyInstance,
  deps: { db: Db; config: Config; registry: ReportRegistry; suMobiles: readonly string[] },
): void {
  const { db, config, registry, suMobiles } = deps;
  app.post<ExportRoute>('/api/export/:reportId', { preHandler: app.authenticate }, async (request, reply) => {
    const report = registry.get(request.params.reportId);
    if (!report) throw new HttpError(404, `No report "${request.params.reportId}"`);
    const q = request.query;
    const format = q.format;
    const allowed = report.definition.export?.formats ?? [];
    if (!isExportFormat(format) || !allowed.includes(format)) {
      throw new HttpError(400, `format must be one of ${allowed.join(', ') || '(none: this report has no export)'}`, [
        { field: 'format', reason: `must be one of ${allowed.join(', ')}` },
      ]);
    }
    const view = q.tab ? report.views.find((v) => v.tabId === q.tab) : report.views[0];
    if (!view) throw new HttpError(400, `No tab "${q.tab}" in this report`, [{ field: 'tab', reason: 'is not a tab of this report' }]);

    let columns = view.columns.filter((c) => !c.hidden);
    if (q.columns) {
      const wanted = q.columns.split(',').map((s) => s.trim()).filter(Boolean);
      const unknown = wanted.filter((f) => !view.columns.some((c) => c.field === f));
      if (unknown.length > 0) {
        throw new HttpError(400, `Unknown columns: ${unknown.join(', ')}`, [{ field: 'columns', reason: `unknown: ${unknown.join(', ')}` }]);
      }
      columns = wanted.map((f) => view.columns.find((c) => c.field === f)).filter((c) => c !== undefined);
    }

    const scope = scopeOf(request, suMobiles);
    const values = parseFilter(report, request.body, istDate(app.clock.now()));
    const { sql, params } = buildQuery(view, values, scope);
    const order = orderClause(view, q.sortBy || undefined, q.sortDir === 'desc' ? 'desc' : 'asc');
    const cap = EXPORT_CAPS[format];
    const rows = await withTimeout(db, config.reportTimeoutMs * 2, async (query) => {
      const total = (await query<{ n: number }>(`SELECT count(*)::int AS n FROM (${sql}) q`, params)).rows[0]?.n ?? 0;
      if (total > cap) {
        throw new HttpError(400, `${total.toLocaleString('en-IN')} rows match; ${format.toUpperCase()} export is limited to ${cap.toLocaleString('en-IN')} rows. Narrow the filter${format === 'csv' ? '' : ' or export CSV'}.`);
      }
      return (await query(`SELECT * FROM (${sql}) q${order}`, params)).rows;
    });

    const props = (report.filterSchema.properties ?? {}) as Record<string, { title?: string; format?: string }>;
    const user = request.sessionUser;
    const stream = EXPORT_FORMATS[format].write({
      columns,
      rows: inBatches(rows),
      meta: {
        title: view.tabId ? `${report.definition.title} - ${report.definition.tabs?.find((t) => t.id === view.tabId)?.label ?? view.tabId}` : report.definition.title,
        // Dates read dd/mm/yyyy in exports, filter line included.
        filters: Object.entries(values).map(([k, v]) => ({
          label: props[k]?.title ?? k,
          value: filterEnumName(props[k], report.definition.filter.uiSchema, k, v) ?? (props[k]?.format === 'date' ? formatDate(v) : String(v)),
        })),
        user: user ? `${user.name} (${user.userId})` : 'unknown',
        generatedAt: app.clock.now(),
        rowCount: rows.length,
      },
    });
    const fileName = exportFileName(report.definition.export?.fileName ?? report.definition.id, values, format);
    return reply
      .header('content-type', EXPORT_FORMATS[format].contentType)
      .header('content-disposition', `attachment; filename="${fileName}"`)
      .header('x-total-rows', String(rows.length))
      .header('cache-control', 'no-store')
      .send(stream);
  });
}
