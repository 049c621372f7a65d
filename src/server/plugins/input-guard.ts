import type { FastifyInstance } from 'fastify';
import { HttpError } from './errors';

/** The first place (field path) in a parsed value where a string or key holds a NUL character, if any. */
export function findNul(value: unknown, path: string, depth = 0): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path : null;
  if (value === null || typeof value !== 'object' || depth > 64) return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const hit = findNul(value[i], path ? `${path}.${i}` : String(i), depth + 1);
      if (hit !== null) return hit;
    }
    return null;
  }
  for (const [key, v] of Object.entries(value)) {
    const here = path ? `${path}.${key}` : key;
    if (key.includes('\u0000')) return here;
    const hit = findNul(v, here, depth + 1);
    if (hit !== null) return hit;
  }
  return null;
}

/**
 * Refuses NUL characters anywhere in the body, query string or path parameters with a 400 naming the field:
 * PostgreSQL cannot store U+0000 in text and would fail the query (a 500). Runs for every route, after the
 * token check (onRequest) and before schema validation.
 */
export function registerInputGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    for (const [part, value] of [['params', request.params], ['query', request.query], ['body', request.body]] as const) {
      const field = findNul(value, '');
      if (field !== null) {
        const name = field || part;
        throw new HttpError(400, `Invalid ${name}: must not contain NUL characters`, [{ field: name, reason: 'must not contain NUL characters' }]);
      }
    }
  });
}
