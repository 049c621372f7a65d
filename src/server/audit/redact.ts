/**
 * Filter and detail keys that may hold a passenger's name or mobile number: removed, with everything under them,
 * before an entry is queued. Keys, not values, decide: a PNR and a mobile number are both ten digits. A filter that
 * named a passenger would be stored without that field (the audit report shows which fields were dropped).
 */
const PERSONAL_KEY = /name|mobile|phone|contact/i;

export const REDACTED_FIELDS_KEY = 'removedFields';

/** A copy of a JSON-like value without the personal keys; the names of the keys removed are listed beside it. */
export function withoutPersonalFields(value: unknown): { value: unknown; removed: string[] } {
  const removed: string[] = [];
  const walk = (v: unknown, depth: number): unknown => {
    if (depth > 8) return '[too deep]';
    if (Array.isArray(v)) return v.slice(0, 100).map((x) => walk(x, depth + 1));
    if (v !== null && typeof v === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) {
        if (PERSONAL_KEY.test(k)) {
          removed.push(k);
          continue;
        }
        out[k] = walk(x, depth + 1);
      }
      return out;
    }
    if (typeof v === 'string') return v.length > 200 ? `${v.slice(0, 200)}…` : v;
    return v;
  };
  return { value: walk(value, 0), removed };
}
