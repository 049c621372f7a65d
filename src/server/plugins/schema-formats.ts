import type { Plugin } from 'ajv';

/**
 * A calendar date YYYY-MM-DD: ajv-formats' 'date' checks the day exists (no 2026-02-30), unlike a pattern; the
 * pattern keeps the year to 1900-2099 (PostgreSQL refuses year 0000, and no run lies outside).
 */
export const isoDateSchema = { type: 'string', format: 'date', pattern: '^(19|20)[0-9]{2}-' } as const;

/** dd/mm/yyyy (the spec's srcDate), a real calendar day. */
export const dmyDateSchema = { type: 'string', format: 'dmy-date' } as const;

export function isCalendarDate(year: number, month: number, day: number): boolean {
  const d = new Date(Date.UTC(year, month - 1, day));
  return d.getUTCFullYear() === year && d.getUTCMonth() === month - 1 && d.getUTCDate() === day;
}

/** Ajv plugin adding the portal's own formats to Fastify's validator (ajv-formats stays on for 'date'). */
export const portalFormats: Plugin<unknown> = (ajv) => {
  ajv.addFormat('dmy-date', {
    type: 'string',
    validate: (s: string) => {
      const m = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(s);
      return m !== null && Number(m[3]) >= 1900 && isCalendarDate(Number(m[3]), Number(m[2]), Number(m[1]));
    },
  });
  return ajv;
};
