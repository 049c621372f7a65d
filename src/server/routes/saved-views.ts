/**
 * Saved report views under /api/saved-views. A view holds a report's filter and layout, never rows or a scope: the
 * report call applies the opener's own scope as always, so a shared view never widens anyone's data. Users see their
 * own views and views shared for reports their level may open; only the owner renames, (un)shares or deletes one.
 * Anyone else gets 404 for a view (a 403 would end their session in the portal's client, and says the view exists).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../db';
import { istDate } from '../clock';
import { HttpError } from '../plugins/errors';
import type { ReportRegistry } from '../reports/registry';
import { parseFilter } from '../reports/filter';
import { scopePredicate, userScope, type UserScope } from '../reports/scope';
import type { CheckedReport } from '../../shared/definitions/validate';
import { requestLang } from './reports';
import { requestActor } from '../audit/plugin';
import {
  SAVED_VIEW_LIMITS,
  SAVED_VIEW_STATE_SCHEMA,
  type SavedView,
  type SavedViewChange,
  type SavedViewCreate,
  type SavedViewProblem,
} from '../../shared/saved-views';
import { deleteView, insertView, newViewId, updateView, viewById, viewsVisibleTo, type ViewRow } from '../saved-views/repo';

const VIEW_ID = { type: 'string', pattern: '^[A-Za-z0-9_-]{16}$' } as const;
const NAME = { type: 'string', minLength: 1, maxLength: SAVED_VIEW_LIMITS.nameMax + 40 } as const;

/** Whether the user's level may open the report at all (one of its calls has a scope rule for it). */
const mayOpen = (report: CheckedReport, scope: UserScope | null): boolean =>
  scope !== null && report.views.some((v) => scopePredicate(scope, v.scope, 0) !== null);

/** A name as stored: trimmed, 1..80 characters; otherwise a 400 naming the field. */
function cleanName(raw: string): string {
  const name = raw.trim();
  if (name.length === 0) throw new HttpError(400, 'Give the view a name', [{ field: 'name', reason: 'must not be blank' }]);
  if (name.length > SAVED_VIEW_LIMITS.nameMax) {
    throw new HttpError(400, `A view name has at most ${SAVED_VIEW_LIMITS.nameMax} characters`, [{ field: 'name', reason: `must be at most ${SAVED_VIEW_LIMITS.nameMax} characters` }]);
  }
  return name;
}

const iso = (v: Date | string): string => new Date(v).toISOString();

export function savedViewRoutes(app: FastifyInstance, deps: { db: Db; registry: ReportRegistry; suMobiles: readonly string[] }): void {
  const { db, registry, suMobiles } = deps;

  const who = (request: FastifyRequest): { userId: string; scope: UserScope | null } => {
    const user = request.sessionUser;
    if (!user) throw new HttpError(403, 'Session expired, Please login again');
    return { userId: user.userId, scope: userScope(user, suMobiles) };
  };

  /** Why the view cannot open as saved, now: its report gone or broken, or its filter refused by the current schema. */
  const problemOf = (request: FastifyRequest, row: ViewRow): SavedViewProblem | null => {
    const report = registry.get(row.report_id);
    if (!report) {
      const broken = registry.unavailable().get(row.report_id);
      return broken ? { code: 'report_unavailable', reason: `${broken.file}#${broken.pointer}: ${broken.reason}` } : { code: 'report_missing' };
    }
    try {
      parseFilter(report, row.state.filter, istDate(app.clock.now()), requestLang(request));
      return null;
    } catch (err) {
      if (err instanceof HttpError && err.statusCode === 400) return { code: 'filter_invalid', fields: err.fields ?? [] };
      throw err;
    }
  };

  const toView = (request: FastifyRequest, row: ViewRow, userId: string): SavedView => {
    const report = registry.get(row.report_id);
    const lang = requestLang(request);
    return {
      viewId: row.view_id,
      reportId: row.report_id,
      reportTitle: report ? ((lang === 'hi' ? report.definition.hi?.title : undefined) ?? report.definition.title) : null,
      name: row.name,
      shared: row.shared,
      ownerId: row.owner_id,
      mine: row.owner_id === userId,
      state: row.state,
      createdAt: iso(row.created_at),
      updatedAt: iso(row.updated_at),
      problem: problemOf(request, row),
    };
  };

  /** Own views always (so a view of a report since removed can be deleted); others' only when shared and openable. */
  const visible = (row: ViewRow, userId: string, scope: UserScope | null): boolean => {
    if (row.owner_id === userId) return true;
    const report = registry.get(row.report_id);
    return row.shared && report !== undefined && mayOpen(report, scope);
  };

  const notFound = (viewId: string): HttpError => new HttpError(404, `No saved view "${viewId}" is open to you`);

  const audit = (request: FastifyRequest, row: ViewRow, change: string): void => {
    app.audit.record({ action: 'view_changed', ...requestActor(request), report: row.report_id, details: { viewId: row.view_id, name: row.name, shared: row.shared, change } });
  };

  app.get('/api/saved-views', { preValidation: app.authenticate }, async (request): Promise<{ views: SavedView[] }> => {
    const { userId, scope } = who(request);
    const rows = (await viewsVisibleTo(db, userId)).filter((r) => visible(r, userId, scope));
    return { views: rows.map((r) => toView(request, r, userId)) };
  });

  app.get<{ Params: { viewId: string } }>(
    '/api/saved-views/:viewId',
    { preValidation: app.authenticate, schema: { params: { type: 'object', required: ['viewId'], properties: { viewId: VIEW_ID } } } },
    async (request): Promise<SavedView> => {
      const { userId, scope } = who(request);
      const row = await viewById(db, request.params.viewId);
      if (!row || !visible(row, userId, scope)) throw notFound(request.params.viewId);
      return toView(request, row, userId);
    },
  );

  app.post<{ Body: SavedViewCreate }>(
    '/api/saved-views',
    {
      preValidation: app.authenticate,
      schema: {
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['reportId', 'name', 'shared', 'state'],
          properties: { reportId: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}$' }, name: NAME, shared: { type: 'boolean' }, state: SAVED_VIEW_STATE_SCHEMA },
        },
      },
    },
    async (request, reply): Promise<SavedView> => {
      const { userId, scope } = who(request);
      const { reportId, shared, state } = request.body;
      const name = cleanName(request.body.name);
      const report = registry.get(reportId);
      if (!report || !mayOpen(report, scope)) {
        throw new HttpError(400, `No report "${reportId}" is open to you`, [{ field: 'reportId', reason: 'names no report you may open' }]);
      }
      if (Buffer.byteLength(JSON.stringify(state)) > SAVED_VIEW_LIMITS.stateBytesMax) {
        throw new HttpError(400, 'The view is too large to save', [{ field: 'state', reason: `must be at most ${SAVED_VIEW_LIMITS.stateBytesMax} bytes as JSON` }]);
      }
      // Saved as the report would run it now: a filter the report refuses is named field by field.
      try {
        parseFilter(report, state.filter, istDate(app.clock.now()), requestLang(request));
      } catch (err) {
        if (err instanceof HttpError && err.statusCode === 400) {
          throw new HttpError(400, err.message, (err.fields ?? []).map((f) => ({ field: `state.filter.${f.field}`, reason: f.reason })));
        }
        throw err;
      }
      const tabIds = report.views.flatMap((v) => (v.tabId ? [v.tabId] : []));
      if (state.tab !== null && !tabIds.includes(state.tab)) throw new HttpError(400, `The report has no tab "${state.tab}"`, [{ field: 'state.tab', reason: 'names no tab of the report' }]);
      const row = await insertView(db, { viewId: newViewId(), ownerId: userId, reportId, name, shared, state, at: app.clock.now() });
      audit(request, row, 'saved');
      void reply.code(201);
      return toView(request, row, userId);
    },
  );

  app.patch<{ Params: { viewId: string }; Body: SavedViewChange }>(
    '/api/saved-views/:viewId',
    {
      preValidation: app.authenticate,
      schema: {
        params: { type: 'object', required: ['viewId'], properties: { viewId: VIEW_ID } },
        body: { type: 'object', additionalProperties: false, minProperties: 1, properties: { name: NAME, shared: { type: 'boolean' } } },
      },
    },
    async (request): Promise<SavedView> => {
      const { userId } = who(request);
      const name = request.body.name === undefined ? undefined : cleanName(request.body.name);
      const before = await viewById(db, request.params.viewId);
      const row = await updateView(db, request.params.viewId, userId, { name, shared: request.body.shared }, app.clock.now());
      if (!row || !before) throw notFound(request.params.viewId);
      const changes = [name !== undefined && name !== before.name ? 'renamed' : null, row.shared !== before.shared ? (row.shared ? 'shared' : 'made_private') : null];
      audit(request, row, changes.filter(Boolean).join(',') || 'unchanged');
      return toView(request, row, userId);
    },
  );

  app.delete<{ Params: { viewId: string } }>(
    '/api/saved-views/:viewId',
    { preValidation: app.authenticate, schema: { params: { type: 'object', required: ['viewId'], properties: { viewId: VIEW_ID } } } },
    async (request, reply) => {
      const { userId } = who(request);
      const row = await deleteView(db, request.params.viewId, userId);
      if (!row) throw notFound(request.params.viewId);
      audit(request, row, 'deleted');
      return reply.code(204).send();
    },
  );
}
