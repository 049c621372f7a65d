/** What the audit trail records, one name per kind of event (the audit report's action filter lists them). */
export const AUDIT_ACTIONS = [
  'sign_in',
  'sign_in_failed',
  'lockout',
  'sign_out',
  'forced_logout',
  'report_run',
  'export',
  'credential_issued',
  'credential_revoked',
  'device_changed',
  'definition_loaded',
  'definition_changed',
  'definition_refused',
  'scope_refused',
  'subscription_changed',
  'mail_sent',
  'view_changed',
] as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** One event as the application hands it over; `at` is filled from the server clock when absent. */
export interface AuditEvent {
  action: AuditAction;
  at?: Date;
  userId?: string | null;
  userLevel?: string | null;
  report?: string | null;
  ip?: string | null;
  details?: Record<string, unknown>;
  /** The details already as JSON text (a report call's, made by sentFiltersJson); details is then not read. */
  detailsJson?: string;
}
