/** Status column values -> badge severity. Words, not report names: the same word means the same everywhere. */
export type Severity = 'success' | 'warning' | 'danger' | 'info';

const WORDS: Record<Exclude<Severity, 'info'>, readonly string[]> = {
  success: ['yes', 'y', 'true', 'ok', 'active', 'released', 'manned', 'turned up', 'present', 'completed', 'complete', 'done', 'synced', 'paid', 'success', 'confirmed', 'cnf', 'online', 'running', 'approved', 'resolved', 'closed'],
  warning: ['pending', 'partial', 'waiting', 'rac', 'wl', 'delayed', 'late', 'in progress', 'open', 'not released', 'got down', 'shifted', 'unsold'],
  danger: ['no', 'n', 'false', 'cancelled', 'canceled', 'failed', 'not turned up', 'nt', 'unmanned', 'inactive', 'error', 'rejected', 'blocked', 'offline', 'missing', 'deficient'],
};

const lookup = new Map<string, Severity>();
for (const [sev, words] of Object.entries(WORDS) as [Severity, readonly string[]][]) for (const w of words) lookup.set(w, sev);

export function statusSeverity(value: unknown): Severity {
  if (typeof value === 'boolean') return value ? 'success' : 'danger';
  if (typeof value !== 'string' && typeof value !== 'number') return 'info';
  const key = String(value).trim().toLowerCase().replace(/[_-]+/g, ' ').replace(/\s+/g, ' ');
  return lookup.get(key) ?? 'info';
}
