import type { FastifyInstance } from 'fastify';
import type { Db } from '../db';
import type { Config } from '../config';
import { istDate } from '../clock';
import { HttpError } from '../plugins/errors';
import type { ReportRegistry } from '../reports/registry';
import { parseFilter } from '../reports/filter';
import { buildQuery, orderClause } from '../reports/executor';
import { EXPORT_FORMATS, exportFileName, isExportFormat } from '../reports/export';
import { EXPORTS_BUSY_MESSAGE, ExportSlots } from '../reports/export/export-slots';
import { openReportRows, type ReportRows } from '../reports/export/report-rows';
import { EXPORT_CAPS } from '../../shared/report-definition';
import { formatDate } from '../../shared/column-types';
import { filterEnumName } from '../../shared/filter-labels';
import { requestLang, scopeOf } from './reports';
import { localizeReport, localizeViewColumns } from '../../shared/definitions/localize';
import { auditExport } from '../audit/events';
import { exportBytes, exportRows } from '../metrics/metrics';
import { countBytes } from '../http/byte-count';

type ExportRoute = {
  Params: { reportId: string };
  Querystring: { format?: string; tab?: string; columns?: string; sortBy?: string; sortDir?: string };
};

/**
 * POST /api/export/<reportId>?format=csv|xlsx|pdf: every row of the filter (up to the format's cap) as a file,
 * streamed: rows come from a cursor in batches and the reply's pace decides how fast they are read.
 */
export function exportRoutes(
  app: FastifyInstance,
  deps: { db: Db; config: Config; registry: ReportRegistry; suMobiles: readonly string[] },
): void {
  const { db, config, registry, suMobiles } = deps;
  const slots = new ExportSlots(config.maxExports);
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

    // Headers, code labels, title and filter line in the user's language (Accept-Language: hi or en).
    const lang = requestLang(request);
    const viewColumns = localizeViewColumns(report.definition, view.tabId, view.columns, lang);
    let columns = viewColumns.filter((c) => !c.hidden);
    if (q.columns) {
      const wanted = q.columns.split(',').map((s) => s.trim()).filter(Boolean);
      const unknown = wanted.filter((f) => !viewColumns.some((c) => c.field === f));
      if (unknown.length > 0) {
        throw new HttpError(400, `Unknown columns: ${unknown.join(', ')}`, [{ field: 'columns', reason: `unknown: ${unknown.join(', ')}` }]);
      }
      columns = wanted.map((f) => viewColumns.find((c) => c.field === f)).filter((c) => c !== undefined);
    }

    const scope = scopeOf(request, suMobiles);
    const values = parseFilter(report, request.body, istDate(app.clock.now()), lang);
    const { sql, params } = buildQuery(view, values, scope);
    const order = orderClause(view, q.sortBy || undefined, q.sortDir === 'desc' ? 'desc' : 'asc');
    const release = slots.tryAcquire();
    if (!release) {
      void reply.header('retry-after', '30');
      throw new HttpError(503, EXPORTS_BUSY_MESSAGE);
    }
    let opened: ReportRows;
    try {
      opened = await openReportRows(db, {
        sql,
        params,
        order,
        cap: EXPORT_CAPS[format],
        formatLabel: format.toUpperCase(),
        suggestCsv: format !== 'csv',
        batchSize: config.exportBatchRows,
        timeoutMs: config.reportTimeoutMs * 2,
      });
    } catch (err) {
      release();
      throw err;
    }
    const { total, rows, close } = opened;

    const local = localizeReport(report.definition, report.filterSchema, report.fieldHindi, lang);
    const def = local.definition;
    const props = (local.filterSchema.properties ?? {}) as Record<string, { title?: string; format?: string }>;
    const user = request.sessionUser;
    const stream = EXPORT_FORMATS[format].write({
      columns,
      rows,
      meta: {
        title: view.tabId ? `${def.title} - ${def.tabs?.find((t) => t.id === view.tabId)?.label ?? view.tabId}` : def.title,
        // Dates read dd/mm/yyyy in exports, filter line included.
        filters: Object.entries(values).map(([k, v]) => ({
          label: props[k]?.title ?? k,
          value: filterEnumName(props[k], def.filter.uiSchema, k, v) ?? (props[k]?.format === 'date' ? formatDate(v) : String(v)),
        })),
        lang,
        user: user ? `${user.name} (${user.userId})` : 'unknown',
        generatedAt: app.clock.now(),
        rowCount: total,
      },
    });
    // Finished, failed or abandoned by the client (Fastify destroys the stream): the cursor and the slot go.
    const counted = countBytes(stream);
    counted.once('close', () => {
      release();
      void close().catch(() => undefined);
      exportRows.inc({ format }, total);
      exportBytes.inc({ format }, counted.bytes);
      auditExport(request, report.definition.id, {
        format, rows: total, bytes: counted.bytes, ms: Math.round(reply.elapsedTime), complete: counted.writableFinished,
      });
    });
    const fileName = exportFileName(report.definition.export?.fileName ?? report.definition.id, values, format);
    return reply
      .header('content-type', EXPORT_FORMATS[format].contentType)
      .header('content-disposition', `attachment; filename="${fileName}"`)
      .header('x-total-rows', String(total))
      .header('cache-control', 'no-store')
      .send(counted);
  });
}
