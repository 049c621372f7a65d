import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../db';
import type { Config } from '../config';
import { HttpError } from '../plugins/errors';
import type { ReportRegistry } from '../reports/registry';
import { requestLang, scopeOf } from '../routes/reports';
import { requestActor } from '../audit/plugin';
import { nextDue } from '../mail/schedule';
import { reportTitle, subscriptionPlan } from '../mail/attachment';
import { SEND_COLUMNS, SUBSCRIPTION_COLUMNS, sendItem, subscriptionItem, type SendRow, type SubscriptionRow } from '../mail/store';
import {
  SEND_TIME_PATTERN, SUBSCRIPTION_FORMATS, SUBSCRIPTION_FREQUENCIES, SUBSCRIPTION_MESSAGES, SUBSCRIPTION_TARGETS,
  type MailStatus, type SendItem, type SubscriptionInput, type SubscriptionItem,
} from '../../shared/subscriptions';

const idParams = { type: 'object', required: ['id'], properties: { id: { type: 'string', pattern: '^[0-9]{1,15}$' } } } as const;

const CREATE_BODY = {
  type: 'object',
  required: ['target', 'format', 'lang', 'frequency', 'time'],
  additionalProperties: false,
  properties: {
    target: { type: 'string', enum: [...SUBSCRIPTION_TARGETS] },
    reportId: { type: 'string', minLength: 1, maxLength: 100, pattern: '^[A-Za-z0-9_.-]+$' },
    tab: { type: 'string', minLength: 1, maxLength: 64 },
    filters: { type: 'object', maxProperties: 50 },
    columns: { type: 'array', maxItems: 200, items: { type: 'string', minLength: 1, maxLength: 64 } },
    sortBy: { type: 'string', minLength: 1, maxLength: 64 },
    sortDir: { type: 'string', enum: ['asc', 'desc'] },
    format: { type: 'string', enum: [...SUBSCRIPTION_FORMATS] },
    lang: { type: 'string', enum: ['en', 'hi'] },
    frequency: { type: 'string', enum: [...SUBSCRIPTION_FREQUENCIES] },
    weekday: { type: 'integer', minimum: 1, maximum: 7 },
    time: { type: 'string', pattern: SEND_TIME_PATTERN },
  },
} as const;

/** Everything a subscription's routes need. */
export interface SubscriptionRouteDeps {
  db: Db;
  config: Config;
  registry: ReportRegistry;
  suMobiles: readonly string[];
}

const bad = (field: string, reason: string): HttpError => new HttpError(400, `${field} ${reason}`, [{ field, reason }]);

/**
 * /api/subscriptions: the signed-in officer's own e-mail subscriptions (create, list, pause, delete, delivery history).
 * A subscription is checked when made as an export of the report would be now (filter, format, columns, level), so a
 * mistake is a 400 today rather than a failed mail tomorrow.
 */
export function subscriptionRoutes(app: FastifyInstance, deps: SubscriptionRouteDeps): void {
  const { db, config, registry, suMobiles } = deps;
  const userId = (request: FastifyRequest): string => {
    const u = request.sessionUser;
    if (!u) throw new HttpError(403, 'Session expired, Please login again');
    return u.userId;
  };
  /** The report's title (and tab) in the request's language. */
  const titleOf = (r: SubscriptionRow, request: FastifyRequest): string => {
    const lang = requestLang(request);
    if (r.target === 'dashboard') return lang === 'hi' ? 'डैशबोर्ड' : 'Dashboard';
    const report = r.report_id ? registry.get(r.report_id) : undefined;
    return report ? reportTitle(report, r.tab, lang) : (r.report_id ?? '');
  };
  const audit = (request: FastifyRequest, change: string, id: number, report: string | null): void =>
    request.server.audit.record({ action: 'subscription_changed', ...requestActor(request), report, details: { change, subscription: id } });
  const ownRow = async (request: FastifyRequest, id: string): Promise<SubscriptionRow> => {
    const r = await db.query<SubscriptionRow>(`SELECT ${SUBSCRIPTION_COLUMNS} FROM mail_subscriptions s WHERE s.id = $1 AND s.user_id = $2`, [id, userId(request)]);
    const row = r.rows[0];
    if (!row) throw new HttpError(404, SUBSCRIPTION_MESSAGES.notFound);
    return row;
  };
  const lastSends = async (ids: number[]): Promise<Map<number, SendRow>> => {
    if (ids.length === 0) return new Map();
    const r = await db.query<SendRow>(
      `SELECT DISTINCT ON (m.subscription_id) ${SEND_COLUMNS} FROM mail_sends m WHERE m.subscription_id = ANY($1::bigint[])
        ORDER BY m.subscription_id, m.due_at DESC, m.id DESC`,
      [ids],
    );
    return new Map(r.rows.map((s) => [Number(s.subscription_id), s]));
  };

  app.get('/api/subscriptions/status', { preHandler: app.authenticate }, async (request): Promise<MailStatus> => {
    const r = await db.query<{ email: string | null }>('SELECT email FROM users WHERE user_id = $1', [userId(request)]);
    return { enabled: Boolean(config.mail.smtpUrl), email: r.rows[0]?.email ?? null, maxMb: config.mail.maxBytes / 1024 / 1024 };
  });

  app.get('/api/subscriptions', { preHandler: app.authenticate }, async (request): Promise<SubscriptionItem[]> => {
    const r = await db.query<SubscriptionRow>(`SELECT ${SUBSCRIPTION_COLUMNS} FROM mail_subscriptions s WHERE s.user_id = $1 ORDER BY s.id`, [userId(request)]);
    const last = await lastSends(r.rows.map((s) => Number(s.id)));
    return r.rows.map((s) => subscriptionItem(s, titleOf(s, request), last.get(Number(s.id))));
  });

  app.post<{ Body: SubscriptionInput }>(
    '/api/subscriptions',
    { preHandler: app.authenticate, schema: { body: CREATE_BODY } },
    async (request, reply): Promise<SubscriptionItem> => {
      if (!config.mail.smtpUrl) throw new HttpError(503, SUBSCRIPTION_MESSAGES.off);
      const b = request.body;
      const user = request.sessionUser;
      if (!user) throw new HttpError(403, 'Session expired, Please login again');
      const email = (await db.query<{ email: string | null }>('SELECT email FROM users WHERE user_id = $1', [user.userId])).rows[0]?.email;
      if (!email) throw new HttpError(400, SUBSCRIPTION_MESSAGES.noEmail, [{ field: 'email', reason: 'is not set in your profile' }]);
      if (b.frequency === 'weekly' && b.weekday === undefined) throw bad('weekday', 'is required for a weekly subscription');
      if (b.frequency === 'daily' && b.weekday !== undefined) throw bad('weekday', 'is only for a weekly subscription');
      const now = app.clock.now();
      const row: Omit<SubscriptionRow, 'id' | 'next_due_at' | 'created_at' | 'paused'> = {
        user_id: user.userId,
        target: b.target,
        report_id: null,
        tab: null,
        filters: {},
        columns: null,
        sort_by: null,
        sort_dir: null,
        format: b.format,
        lang: b.lang,
        frequency: b.frequency,
        weekday: b.weekday ?? null,
        send_time: b.time,
      };
      if (b.target === 'dashboard') {
        if (b.format !== 'pdf') throw bad('format', 'must be pdf for the dashboard');
        if (b.reportId !== undefined) throw bad('reportId', 'is only for a report subscription');
        scopeOf(request, suMobiles);
      } else {
        if (!b.reportId) throw bad('reportId', 'is required for a report subscription');
        const report = registry.get(b.reportId);
        if (!report) throw new HttpError(404, `No report "${b.reportId}"`);
        Object.assign(row, {
          report_id: b.reportId, tab: b.tab ?? null, filters: b.filters ?? {}, columns: b.columns ?? null, sort_by: b.sortBy ?? null,
          sort_dir: b.sortBy ? (b.sortDir ?? 'asc') : null,
        });
        // As an export made now would be: format allowed, filter valid (relative dates resolved), columns, level.
        subscriptionPlan(report, { ...row, id: 0, paused: false, next_due_at: now, created_at: now }, scopeOf(request, suMobiles), '', now);
      }
      const due = nextDue({ frequency: row.frequency, weekday: row.weekday, time: row.send_time }, now);
      const inserted = await db.query<SubscriptionRow>(
        `INSERT INTO mail_subscriptions AS s (user_id, target, report_id, tab, filters, columns, sort_by, sort_dir, format, lang, frequency, weekday,
                                              send_time, next_due_at, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $15) RETURNING ${SUBSCRIPTION_COLUMNS}`,
        [row.user_id, row.target, row.report_id, row.tab, JSON.stringify(row.filters), row.columns, row.sort_by, row.sort_dir, row.format, row.lang,
          row.frequency, row.weekday, row.send_time, due, now],
      );
      const created = inserted.rows[0];
      if (!created) throw new Error('subscription insert returned no row');
      audit(request, 'created', Number(created.id), created.report_id);
      void reply.status(201);
      return subscriptionItem(created, titleOf(created, request), undefined);
    },
  );

  app.patch<{ Params: { id: string }; Body: { paused: boolean } }>(
    '/api/subscriptions/:id',
    {
      preHandler: app.authenticate,
      schema: { params: idParams, body: { type: 'object', required: ['paused'], additionalProperties: false, properties: { paused: { type: 'boolean' } } } },
    },
    async (request): Promise<SubscriptionItem> => {
      const old = await ownRow(request, request.params.id);
      const now = app.clock.now();
      // Resuming starts from the next send time after now: what fell due while paused is not mailed late.
      const due = nextDue({ frequency: old.frequency, weekday: old.weekday, time: old.send_time }, now);
      const r = await db.query<SubscriptionRow>(
        `UPDATE mail_subscriptions s SET paused = $2, next_due_at = CASE WHEN $2 THEN s.next_due_at ELSE $3 END, updated_at = $4
          WHERE s.id = $1 RETURNING ${SUBSCRIPTION_COLUMNS}`,
        [old.id, request.body.paused, due, now],
      );
      const row = r.rows[0];
      if (!row) throw new HttpError(404, SUBSCRIPTION_MESSAGES.notFound);
      audit(request, request.body.paused ? 'paused' : 'resumed', Number(row.id), row.report_id);
      return subscriptionItem(row, titleOf(row, request), (await lastSends([Number(row.id)])).get(Number(row.id)));
    },
  );

  app.delete<{ Params: { id: string } }>('/api/subscriptions/:id', { preHandler: app.authenticate, schema: { params: idParams } }, async (request): Promise<{ id: number; deleted: true }> => {
    const old = await ownRow(request, request.params.id);
    await db.query('DELETE FROM mail_subscriptions WHERE id = $1', [old.id]);
    audit(request, 'deleted', Number(old.id), old.report_id);
    return { id: Number(old.id), deleted: true };
  });

  app.get<{ Params: { id: string } }>('/api/subscriptions/:id/sends', { preHandler: app.authenticate, schema: { params: idParams } }, async (request): Promise<SendItem[]> => {
    const sub = await ownRow(request, request.params.id);
    const r = await db.query<SendRow>(`SELECT ${SEND_COLUMNS} FROM mail_sends m WHERE m.subscription_id = $1 ORDER BY m.due_at DESC, m.id DESC LIMIT 100`, [sub.id]);
    return r.rows.map(sendItem);
  });
}
