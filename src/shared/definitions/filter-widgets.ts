/** Filter widget names a uiSchema may use: RJSF's own plus ours (looked up in the client's widget registry). */
export const OUR_FILTER_WIDGETS = ['train', 'date', 'zone', 'division', 'lobby'] as const;
export const RJSF_WIDGETS = [
  'text', 'textarea', 'password', 'email', 'uri', 'select', 'radio', 'checkbox', 'checkboxes', 'updown', 'range',
  'hidden', 'color', 'file', 'alt-date', 'alt-datetime', 'datetime',
] as const;
export const FILTER_WIDGETS: readonly string[] = [...OUR_FILTER_WIDGETS, ...RJSF_WIDGETS];

/** '$today', '$today-7', '$today+1' -> ISO date relative to today ('YYYY-MM-DD'); other values unchanged. */
export function resolveDefault(value: unknown, today: string): unknown {
  if (typeof value !== 'string') return value;
  const m = /^\$today(?:([+-])(\d{1,3}))?$/.exec(value);
  if (!m) return value;
  const d = new Date(`${today}T00:00:00Z`);
  const offset = m[1] ? Number(m[2]) * (m[1] === '-' ? -1 : 1) : 0;
  d.setUTCDate(d.getUTCDate() + offset);
  return d.toISOString().slice(0, 10);
}

export function resolveDefaults(defaults: Record<string, unknown> | undefined, today: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(defaults ?? {})) out[k] = resolveDefault(v, today);
  return out;
}
