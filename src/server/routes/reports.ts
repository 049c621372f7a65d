import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../db';
import type { Config } from '../config';
import { istDate } from '../clock';
import { HttpError } from '../plugins/errors';
import type { ReportRegistry } from '../reports/registry';
import { parseFilter } from '../reports/filter';
import { aggregateView, buildQuery, orderClause, parseAggregate, runViewJson, type ReportJson, type RunOptions } from '../reports/executor';
import { ReportResultCache, type CacheAnswer } from '../reports/result-cache';
import { sendEncoded } from '../http/compress';
import { scopePredicate, userScope, type UserScope } from '../reports/scope';
import { EXPORT_CAPS, type PublicReport, type ReportSummary } from '../../shared/report-definition';
import type { CheckedReport } from '../../shared/definitions/validate';
import { FilterValidatorModules, filterValidatorUrl } from '../reports/filter-validator-code';
import { LANGS, type Lang } from '../../shared/definitions/hindi';
import { auditReportRun } from '../audit/events';
import { reportCacheAnswers, timeReportSql } from '../metrics/metrics';
import { localizeFilterSchema, localizeReport, parseAcceptLanguage } from '../../shared/definitions/localize';
import { singleDateField } from '../../shared/definitions/date-field';
import { nearestEarlierDate } from '../reports/nearest-date';
import { freshnessSide } from '../reports/freshness';
import type { Freshness } from '../../shared/freshness';

/** The filter schema of each language, by report (RJSF finds a precompiled validator by a hash of the schema it is given). */
const schemasByLang = new WeakMap<CheckedReport, Map<Lang, { schema: Record<string, unknown>; url: string }>>();

function filterSchemaIn(r: CheckedReport, lang: Lang): { schema: Record<string, unknown>; url: string } {
  let byLang = schemasByLang.get(r);
  if (!byLang) {
    byLang = new Map();
    schemasByLang.set(r, byLang);
  }
  let entry = byLang.get(lang);
  if (!entry) {
    const schema = localizeFilterSchema(r.definition, r.filterSchema, r.fieldHindi, lang);
    entry = { schema, url: filterValidatorUrl(schema) };
    byLang.set(lang, entry);
  }
  return entry;
}

/** Every filter schema the browser may be given (each report in each language): what validator modules are built from. */
function servedFilterSchemas(reports: readonly CheckedReport[]): Record<string, unknown>[] {
  return reports.flatMap((r) => LANGS.map((lang) => filterSchemaIn(r, lang).schema));
}

/** The language a request asks for (Accept-Language: hi or en; anything else is English). */
export const requestLang = (request: FastifyRequest): Lang => parseAcceptLanguage(request.headers['accept-language']);

/**
 * The definition as the browser gets it, in a language: no SQL, no `hi` block, field $refs inlined, export caps and
 * the URL of the compiled validator of its filter schema in that language (RJSF looks validators up by a hash of the
 * schema, titles included; the constraints are the same in every language).
 */
export function publicReport(r: CheckedReport, lang: Lang = 'en'): PublicReport {
  const { definition } = localizeReport(r.definition, r.filterSchema, r.fieldHindi, lang);
  const { schema, url } = filterSchemaIn(r, lang);
  const { source: _source, tabs, $schema: _s, ...rest } = definition;
  const out: PublicReport = {
    ...rest,
    filter: { ...definition.filter, schema },
    exportCaps: EXPORT_CAPS,
    filterValidator: url,
  };
  if (tabs) out.tabs = tabs.map(({ source: _src, ...t }) => t);
  return out;
}

export function scopeOf(request: FastifyRequest, suMobiles: readonly string[]): UserScope {
  const user = request.sessionUser;
  if (!user) throw new HttpError(403, 'Session expired, Please login again');
  const scope = userScope(user, suMobiles);
  if (!scope) throw new HttpError(403, 'Your profile gives no data scope for reports');
  return scope;
}

const intQuery = (v: unknown, name: string): number | undefined => {
  if (v === undefined || v === '') return undefined;
  if (typeof v !== 'string' || !/^\d{1,6}$/.test(v) || Number(v) < 1) {
    throw new HttpError(400, `${name} must be a positive whole number`, [{ field: name, reason: 'must be a positive whole number' }]);
  }
  return Number(v);
};

/** {a: {b: rows}} for 'a.b'. */
function nest(path: string, value: unknown): Record<string, unknown> {
  return path.split('.').reduceRight<Record<string, unknown>>((inner, key, i, all) => (i === all.length - 1 ? { [key]: value } : { [key]: inner }), {});
}

/** Stands for the rows while the rest of the answer is serialised; replaced by the rows' JSON text. */
const ROWS_SLOT = '\u0000rows\u0000';
const ROWS_SLOT_JSON = JSON.stringify(ROWS_SLOT);

/**
 * The body of a report call: {rows, total, page, rowsPerPage}, and the rows again at the definition's rowsPath
 * (e.g. tripId -> eftList) as the original backend answered. The rows are JSON text already (runViewJson), tens of
 * kilobytes: they are encoded straight into the body's buffer, never copied into a joined string first.
 */
export function reportBody(r: ReportJson, rowsPath: string | undefined, freshness?: Freshness | null): Buffer {
  const shape: Record<string, unknown> = { rows: ROWS_SLOT, total: r.total, page: r.page, rowsPerPage: r.rowsPerPage };
  if (freshness) shape.freshness = freshness;
  const withPath = rowsPath && rowsPath !== 'rows' ? { ...shape, ...nest(rowsPath, ROWS_SLOT) } : shape;
  const parts = JSON.stringify(withPath).split(ROWS_SLOT_JSON);
  const rowsBytes = Buffer.byteLength(r.rowsJson);
  let size = rowsBytes * (parts.length - 1);
  for (const part of parts) size += Buffer.byteLength(part);
  const body = Buffer.allocUnsafe(size);
  let at = 0;
  for (const [i, part] of parts.entries()) {
    if (i > 0) at += body.write(r.rowsJson, at);
    at += body.write(part, at);
  }
  return body;
}

/** Meta routes and the generic report call: POST /api/<endpoint> for every loaded definition. */
export function reportRoutes(
  app: FastifyInstance,
  deps: { db: Db; config: Config; registry: ReportRegistry; suMobiles: readonly string[]; cache: ReportResultCache },
): void {
  const { db, config, registry, suMobiles, cache } = deps;
  const guard = { preHandler: app.authenticate };

  app.get('/api/meta/reports', guard, async (request, reply): Promise<{ reports: ReportSummary[] }> => {
    const lang = requestLang(request);
    void reply.header('vary', 'Accept-Language');
    const ok: ReportSummary[] = registry.all().map((r) => {
      const hi = lang === 'hi' ? r.definition.hi : undefined;
      const s: ReportSummary = { id: r.definition.id, title: hi?.title ?? r.definition.title, status: 'ok' };
      if (r.definition.description) s.description = hi?.description ?? r.definition.description;
      return s;
    });
    const broken: ReportSummary[] = [...registry.unavailable()].map(([id, e]) => ({
      id,
      title: id,
      status: 'unavailable',
      reason: `${e.file}#${e.pointer}: ${e.reason}`,
    }));
    return { reports: [...ok, ...broken].sort((a, b) => a.id.localeCompare(b.id)) };
  });

  app.get<{ Params: { id: string } }>('/api/meta/reports/:id', guard, async (request, reply) => {
    const r = registry.get(request.params.id);
    void reply.header('vary', 'Accept-Language');
    if (r) {
      // A report the user's level may not read (the SU-only audit trail) is unavailable to them, said before they run
      // it: the run's 403 would end their session (the spec's rule for a 403).
      const scope = (request.sessionUser ? userScope(request.sessionUser, suMobiles) : undefined);
      if (!scope || r.views.every((v) => scopePredicate(scope, v.scope, 0) === null)) {
        throw new HttpError(503, 'This report is unavailable: This report is not available at your user level');
      }
      return publicReport(r, requestLang(request));
    }
    const broken = registry.unavailable().get(request.params.id);
    if (broken) throw new HttpError(503, `This report is unavailable: ${broken.file}#${broken.pointer}: ${broken.reason}`);
    throw new HttpError(404, `No report "${request.params.id}"`);
  });

  // The browser's compiled filter validator of a schema (see filter-validator-code.ts). Not behind the session:
  // a module script is fetched without our bearer header; the name is the schema's sha256, known only to who
  // was given the definition, and the module holds nothing the definition does not.
  const modules = new FilterValidatorModules();
  app.get<{ Params: { file: string } }>('/api/filter-validators/:file', async (request, reply) => {
    const m = /^([A-Za-z0-9_-]{43})\.js$/.exec(request.params.file);
    const text = m ? modules.get(m[1] as string, () => servedFilterSchemas(registry.all())) : undefined;
    if (text === undefined) throw new HttpError(404, 'No such filter validator');
    return reply
      .header('content-type', 'text/javascript; charset=utf-8')
      .header('cache-control', 'public, max-age=31536000, immutable')
      .send(text);
  });

  // With test hooks (never in production), how an answer was had: the load bench counts the cache's hit rate by it.
  const send = (request: FastifyRequest, reply: FastifyReply, answer: CacheAnswer): Promise<FastifyReply> => {
    if (config.testHooks) void reply.header('x-hht-cache', answer.served);
    // An answer held from earlier says how old it is (its freshness is that of when it was computed).
    if (answer.ageMs !== undefined) void reply.header('age', String(Math.floor(answer.ageMs / 1000)));
    reportCacheAnswers.inc({ served: answer.served });
    return sendEncoded(request, reply, answer.body);
  };

  // Part of the answer, so held with it: a cached answer is as fresh as when it was computed (and says its age). Read
  // with the report's own statement (freshnessSide).
  const freshnessReader = (report: CheckedReport, values: Record<string, unknown>, scope: UserScope) => freshnessSide(report, values, scope, app.clock.now());

  const run = async (request: FastifyRequest<{ Params: { endpoint: string }; Querystring: Record<string, string> }>, reply: FastifyReply) => {
    const found = registry.endpoint(request.params.endpoint);
    if (!found || found.view.method !== request.method) {
      return reply.status(404).send({ error: 'Not Found', message: `No route ${request.method} /api/${request.params.endpoint}` });
    }
    const scope = scopeOf(request, suMobiles);
    const q = request.query;
    const values = parseFilter(found.report, request.method === 'GET' ? q : request.body, istDate(app.clock.now()), requestLang(request));
    // What decides the answer, and only that, keys the result cache: the final SQL and its bound values (the
    // user's scope predicate and values, "today" from the app clock are in them), ordering, paging, the rows' path.
    // Nothing else of the user (language, name) shapes a report body; errors are thrown before anything is held.
    if (q.nearest !== undefined) {
      // An empty result's help: the nearest earlier date on which the same filter has rows for this user.
      if (q.nearest !== 'earlier') throw new HttpError(400, 'nearest must be "earlier"', [{ field: 'nearest', reason: 'must be "earlier"' }]);
      const field = singleDateField(found.report.filterSchema, found.report.definition.filter.rules);
      if (!field) throw new HttpError(400, 'This report has no single date to move', [{ field: 'nearest', reason: 'the report has no single date field' }]);
      const { sql, params } = buildQuery(found.view, values, scope);
      const key = (): string | undefined => ReportResultCache.key(['nearest', sql, params, field]);
      const answer = await cache.get(key, async () => JSON.stringify({ nearest: await nearestEarlierDate(db, found.view, values, scope, field, config.reportTimeoutMs) }));
      return send(request, reply, answer);
    }
    if (q.aggregate !== undefined) {
      // One figure over every row (dashboard stat cards), not the rows: see aggregateView.
      const agg = parseAggregate(q.aggregate);
      const { sql, params } = buildQuery(found.view, values, scope);
      const key = (): string | undefined => ReportResultCache.key(['aggregate', sql, params, agg.sumOf]);
      const answer = await cache.get(key, async () => {
        const fresh = freshnessReader(found.report, values, scope);
        const aggregate = await timeReportSql(found.report.definition.id, () => aggregateView(db, found.view, values, scope, agg, config.reportTimeoutMs, fresh.side));
        const freshness = fresh.got();
        return { text: JSON.stringify({ rows: [], total: aggregate.count, page: 1, rowsPerPage: 0, aggregate, ...(freshness ? { freshness } : {}) }), rowCount: aggregate.count };
      });
      auditReportRun(request, reply, found.report.definition.id, answer);
      return send(request, reply, answer);
    }
    const sortDir = q.sortDir === 'desc' ? 'desc' : q.sortDir === 'asc' || q.sortDir === undefined ? 'asc' : undefined;
    if (!sortDir) throw new HttpError(400, 'sortDir must be asc or desc', [{ field: 'sortDir', reason: 'must be asc or desc' }]);
    const opts: RunOptions = {
      sortBy: q.sortBy || undefined,
      sortDir,
      page: intQuery(q.page, 'page'),
      rowsPerPage: intQuery(q.rowsPerPage, 'rowsPerPage'),
      timeoutMs: config.reportTimeoutMs,
    };
    const { rowsPath, paging } = found.view;
    const { sql, params } = buildQuery(found.view, values, scope);
    const order = orderClause(found.view, opts.sortBy, opts.sortDir); // a bad sortBy is a 400 whether the cache is on or not
    const key = (): string | undefined =>
      ReportResultCache.key(['rows', sql, params, order, paging?.mode, paging?.pageSize, opts.page, opts.rowsPerPage, rowsPath]);
    // A call whose original backend answered with rows elsewhere (e.g. tripId -> eftList) gets them there too.
    const answer = await cache.get(key, async () => {
      const fresh = freshnessReader(found.report, values, scope);
      const ran = await timeReportSql(found.report.definition.id, () => runViewJson(db, found.view, values, scope, { ...opts, side: fresh.side }));
      return { text: reportBody(ran, rowsPath, fresh.got()), rowCount: ran.total };
    });
    auditReportRun(request, reply, found.report.definition.id, answer);
    return send(request, reply, answer);
  };
  // Static routes (login, devices, ...) win over these parametric ones in Fastify's router.
  type RunRoute = { Params: { endpoint: string }; Querystring: Record<string, string> };
  app.post<RunRoute>('/api/:endpoint', guard, run);
  app.get<RunRoute>('/api/:endpoint', guard, run);
}
