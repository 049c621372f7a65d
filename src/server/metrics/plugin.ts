import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../db';
import { addMetricSources, httpDuration, httpRequests, syncBatches, syncRecords, syncRefusals } from './metrics';

const SYNC_ROUTE = '/api/hht/sync';

/** Why a sync batch was refused, from its status code (the body says which field; the metric stays small). */
function syncRefusalReason(status: number): string {
  if (status === 400) return 'invalid';
  if (status === 401) return 'credential';
  if (status === 403) return 'device_refused';
  if (status === 413) return 'too_large';
  if (status === 429) return 'rate_limited';
  return 'other';
}

/** The type of each record of a sync batch's body, as sent. */
function recordTypes(request: FastifyRequest): string[] {
  const body = request.body as { records?: unknown } | undefined;
  if (!body || !Array.isArray(body.records)) return [];
  return body.records.map((r: unknown) => (r !== null && typeof r === 'object' && typeof (r as { type?: unknown }).type === 'string' ? (r as { type: string }).type : 'unknown'));
}

/**
 * Request count and latency per route pattern (an unknown path counts as "unmatched", so scanners cannot grow the
 * label set), and the device sync's batches, records and refusals, all from one onResponse hook; the app's sources
 * for the gauges read at scrape time.
 */
export function registerMetrics(app: FastifyInstance, deps: { db: Db; auditQueued: () => number; auditLost: () => { dropped: number; refused: number }; feedLive: boolean }): void {
  const remove = addMetricSources({ db: deps.db, now: () => app.clock.now(), auditQueued: deps.auditQueued, auditLost: deps.auditLost, feedLive: deps.feedLive });
  app.addHook('onClose', async () => {
    remove();
  });
  // Synchronous (done), as every per-request hook here: an async hook costs a promise and a microtask per answer.
  app.addHook('onResponse', (request, reply, done) => {
    countResponse(request, reply.statusCode, reply.elapsedTime);
    done();
  });
}

/** One answer counted: by route pattern and status, its time, and for the device sync its batch and records. */
function countResponse(request: FastifyRequest, status: number, elapsedMs: number): void {
  const route = request.routeOptions.url ?? 'unmatched';
  httpRequests.inc({ method: request.method, route, status: String(status) });
  httpDuration.observe({ method: request.method, route }, elapsedMs / 1000);
  if (route !== SYNC_ROUTE) return;
  if (status === 200) {
    syncBatches.inc({ outcome: 'accepted' });
    const byType = new Map<string, number>();
    for (const type of recordTypes(request)) byType.set(type, (byType.get(type) ?? 0) + 1);
    for (const [type, n] of byType) syncRecords.inc({ type }, n);
  } else {
    syncBatches.inc({ outcome: 'refused' });
    syncRefusals.inc({ reason: syncRefusalReason(status) });
  }
}
