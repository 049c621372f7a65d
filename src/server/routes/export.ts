import type { FastifyInstance } from 'fastify';
import type { Db } from '../db';
import type { Config } from '../config';
import { HttpError } from '../plugins/errors';
import type { ReportRegistry } from '../reports/registry';
import { EXPORTS_BUSY_MESSAGE, ExportSlots } from '../reports/export/export-slots';
import { planExport, writeExport, type ExportFile } from '../reports/export/plan';
import { requestLang, scopeOf } from './reports';
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
    const user = request.sessionUser;
    // Headers, code labels, title and filter line in the user's language (Accept-Language: hi or en).
    const plan = planExport(report, {
      format: q.format,
      tab: q.tab,
      columns: q.columns ? q.columns.split(',').map((s) => s.trim()).filter(Boolean) : undefined,
      sortBy: q.sortBy,
      sortDir: q.sortDir === 'desc' ? 'desc' : 'asc',
      body: request.body,
      lang: requestLang(request),
      scope: scopeOf(request, suMobiles),
      userLabel: user ? `${user.name} (${user.userId})` : 'unknown',
      now: app.clock.now(),
    });
    const release = slots.tryAcquire();
    if (!release) {
      void reply.header('retry-after', '30');
      throw new HttpError(503, EXPORTS_BUSY_MESSAGE);
    }
    let file: ExportFile;
    try {
      file = await writeExport(db, config, plan);
    } catch (err) {
      release();
      throw err;
    }
    const { total, stream, close } = file;
    const { format } = plan;
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
    return reply
      .header('content-type', plan.contentType)
      .header('content-disposition', `attachment; filename="${plan.fileName}"`)
      .header('x-total-rows', String(total))
      .header('cache-control', 'no-store')
      .send(counted);
  });
}
