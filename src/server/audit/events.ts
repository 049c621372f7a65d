import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CacheAnswer } from '../reports/result-cache';
import type { AuditAction } from './actions';
import { requestActor, sentFilters, sentFiltersJson } from './plugin';
import { entryHead, type EntryHead } from './trail';

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
  const ip = request.ip;
  const sent = request.method === 'GET' ? request.query : request.body;
  const fields = { action: 'report_run', userId: user?.userId ?? null, userLevel: user?.userLevel ?? null, ip, report } as const;
  const makeHead = (): EntryHead => entryHead(fields, sentFiltersJson(sent, {}));
  // The request's text decides the filters; every other field of the head is named in `who`.
  const text = request.method === 'GET' ? request.url : sent === undefined ? '' : request.jsonText;
  const head =
    text === null ? makeHead() : audit.headFor(text, [fields.report, fields.userId, fields.userLevel, fields.ip, request.method], makeHead);
  const rows = answer.body.rowCount;
  // As JSON.stringify writes them: a count that is not a finite number is null.
  const rowsJson = typeof rows === 'number' && Number.isFinite(rows) ? String(rows) : 'null';
  audit.recordWithHead(head, `{"rows":${rowsJson},"ms":${Math.round(reply.elapsedTime)},"served":"${answer.served}"}`);
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
