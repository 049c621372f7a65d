import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../db';
import type { Config } from '../config';
import type { AuditEvent } from './actions';
import { clockMs } from '../clock';
import { AuditTrail } from './trail';
import { unchangedJson, withoutPersonalFields, REDACTED_FIELDS_KEY } from './redact';

/** Who and from where, for an entry about a request: the signed-in officer (if any) and the client address. */
export function requestActor(request: FastifyRequest): Pick<AuditEvent, 'userId' | 'userLevel' | 'ip'> {
  const u = request.sessionUser;
  return { userId: u?.userId ?? null, userLevel: u?.userLevel ?? null, ip: request.ip };
}

/**
 * Filters as the client sent them, without passenger names and mobiles (and the names of the fields removed),
 * followed by the entry's own figures. Property by property, not by spreads: every report call makes one, and
 * spreading cost three times the rest of the entry (audit-write bench).
 */
export function sentFilters(body: unknown, figures?: Record<string, unknown>): Record<string, unknown> {
  const { value, removed } = withoutPersonalFields(body ?? {});
  const details: Record<string, unknown> = {
    filters: value !== null && typeof value === 'object' && !Array.isArray(value) ? value : { body: value },
  };
  if (removed.length > 0) details[REDACTED_FIELDS_KEY] = removed;
  if (figures) for (const k in figures) details[k] = figures[k];
  return details;
}

/**
 * JSON.stringify(sentFilters(body, figures)), made without copying the body when it holds nothing to remove (see
 * unchangedJson): what every report call writes, so its cheaper path matters (audit-cost bench profile).
 */
export function sentFiltersJson(body: unknown, figures: Record<string, string | number | boolean | null | undefined>): string {
  const filters = unchangedJson(body ?? {});
  if (filters === undefined) return JSON.stringify(sentFilters(body, figures));
  let out = `{"filters":${filters}`;
  for (const k in figures) {
    const v = figures[k];
    if (v !== undefined) out += `,${JSON.stringify(k)}:${JSON.stringify(v)}`;
  }
  return `${out}}`;
}

/**
 * The process's audit trail as app.audit (written off the request path, see trail.ts), closed (flushed) with the
 * app, and every request a signed-in user was refused (403) recorded as scope_refused.
 */
export function registerAudit(app: FastifyInstance, deps: { db: Db; config: Config }): AuditTrail {
  const { config } = deps;
  const trail = new AuditTrail({
    db: deps.db,
    flushMs: config.ops.auditFlushMs,
    nowMs: () => clockMs(app.clock),
    enabled: config.ops.audit,
    onError: (err) => app.log.error({ err }, 'audit trail: writing entries failed; they stay queued'),
  });
  trail.start();
  app.decorate('audit', trail);
  app.addHook('onClose', async () => trail.close());
  if (config.testHooks) {
    // Test hooks only (refused in production): the cost bench turns this process's trail on and off in turn.
    app.post<{ Body: { enabled: boolean } }>(
      '/api/test-hooks/audit',
      { schema: { body: { type: 'object', required: ['enabled'], additionalProperties: false, properties: { enabled: { type: 'boolean' } } } } },
      async (request) => {
        trail.setEnabled(request.body.enabled);
        return { enabled: trail.enabled, pid: process.pid };
      },
    );
  }
  // Synchronous (done): it runs on every answer.
  app.addHook('onResponse', (request, reply, done) => {
    if (reply.statusCode === 403 && request.sessionUser) {
      trail.record({
        action: 'scope_refused',
        ...requestActor(request),
        details: { method: request.method, route: request.routeOptions.url ?? null, path: request.url.split('?')[0] },
      });
    }
    done();
  });
  return trail;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The audit trail of this process (audit/trail.ts). */
    audit: AuditTrail;
  }
}
