import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CacheAnswer } from '../reports/result-cache';
import type { AuditAction } from './actions';
import { requestActor, sentFilters, sentFiltersJson } from './plugin';

/** A report call answered: who, which report, the filters as sent, the row count, the time to answer and how. */
export function auditReportRun(request: FastifyRequest, reply: FastifyReply, report: string, answer: CacheAnswer): void {
  const { audit } = request.server;
  // Before the details are built: with the trail off (HHT_AUDIT=off) a report call pays nothing for it.
  if (!audit.enabled) return;
  const user = request.sessionUser;
  audit.record({
    action: 'report_run',
    userId: user?.userId ?? null,
    userLevel: user?.userLevel ?? null,
    ip: request.ip,
    report,
    detailsJson: sentFiltersJson(request.method === 'GET' ? request.query : request.body, {
      rows: answer.body.rowCount ?? null,
      ms: Math.round(reply.elapsedTime),
      served: answer.served,
    }),
  });
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
