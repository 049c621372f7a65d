import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CacheAnswer } from '../reports/result-cache';
import type { AuditAction } from './actions';
import { requestActor, sentFilters, sentFiltersJson } from './plugin';
import { entryHead } from './trail';

/**
 * A report call answered: who, which report, the filters as sent, the row count, the time to answer and how. All but
 * the last three repeat when an officer (or a dashboard) runs the same report again, which is when the answer comes
 * from the result cache and costs least: that part of the entry (its head) is made once per user, address, report and
 * request text (the URL of a GET, the body of a POST) and kept by the trail, written once into each batch that uses it,
 * and each call writes only its figures.
 */
export function auditReportRun(request: FastifyRequest, reply: FastifyReply, report: string, answer: CacheAnswer): void {
  const { audit } = request.server;
  // Before anything is built: with the trail off (HHT_AUDIT=off) a report call pays nothing for it.
  if (!audit.enabled) return;
  const user = request.sessionUser;
  const userId = user?.userId ?? null;
  const userLevel = user?.userLevel ?? null;
  const ip = request.ip;
  const sent = request.method === 'GET' ? request.query : request.body;
  // The request's text decides the filters (and the method: a URL starts with '/', JSON text never does).
  const text = request.method === 'GET' ? request.url : sent === undefined ? '' : request.jsonText;
  let head = text === null ? undefined : audit.findHead(text, report, userId, userLevel, ip);
  if (head === undefined) {
    head = entryHead({ action: 'report_run', userId, userLevel, ip, report }, sentFiltersJson(sent, {}));
    if (text !== null) audit.keepHead(text, report, userId, userLevel, ip, head);
  }
  audit.recordCall(head, answer.body.rowCount, Math.round(reply.elapsedTime), answer.served);
}

/** An export finished (or was cut short by the client: `complete` false): format, rows, bytes sent. */
export function auditExport(
  request: FastifyRequest,
  report: string,
  figures: { format: string; rows: number; bytes: number; ms: number; complete: boolean },
): void {
  request.server.audit.record({ action: 'export', ...requestActor(request), report, details: sentFilters(request.body, figures) });
}

/** A sign-in event of a user id that may not be signed in yet (the password and OTP steps). */
export function auditSignIn(
  request: FastifyRequest,
  action: Extract<AuditAction, 'sign_in' | 'sign_in_failed' | 'lockout' | 'sign_out' | 'forced_logout'>,
  userId: string,
  details: Record<string, unknown> = {},
): void {
  request.server.audit.record({ action, ...requestActor(request), userId, details });
}

/** A device or its credential changed by the signed-in officer. */
export function auditDevice(
  request: FastifyRequest,
  action: Extract<AuditAction, 'credential_issued' | 'credential_revoked' | 'device_changed'>,
  details: Record<string, unknown>,
): void {
  request.server.audit.record({ action, ...requestActor(request), details });
}
