import type { FastifyInstance } from 'fastify';
import { HttpError } from './errors';

/** A lone UTF-16 surrogate (JSON's \ud800 escape): PostgreSQL text and jsonb cannot hold one. */
const LONE_SURROGATE = /\p{Cs}/u;
const badText = (s: string): boolean => s.includes('\u0000') || LONE_SURROGATE.test(s);

/** The first place (field path) in a parsed value where a string or key holds a NUL character or a lone surrogate. */
export function findNul(value: unknown, path: string, depth = 0): string | null {
  if (typeof value === 'string') return badText(value) ? path : null;
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
    if (badText(key)) return here;
    const hit = findNul(v, here, depth + 1);
    if (hit !== null) return hit;
  }
  return null;
}

export const BAD_TEXT_REASON = 'must not contain NUL characters or lone surrogates';

/**
 * Refuses NUL characters and lone surrogates anywhere in the body, query string or path parameters with a 400 naming
 * the field: PostgreSQL cannot store U+0000 or half a surrogate pair in text or jsonb and would fail the query (a 500).
 * Runs for every route, after the token check (onRequest) and before schema validation. A route whose own validator
 * checks every string of its body (config `checksBodyText`, the device sync) names the field its own way instead.
 */
export function registerInputGuard(app: FastifyInstance): void {
  // Synchronous (done): it runs on every request.
  app.addHook('preValidation', (request, _reply, done) => {
    const ownCheck = (request.routeOptions.config as { checksBodyText?: boolean } | undefined)?.checksBodyText === true;
    for (const [part, value] of [['params', request.params], ['query', request.query], ['body', ownCheck ? null : request.body]] as const) {
      const field = findNul(value, '');
      if (field !== null) {
        const name = field || part;
        done(new HttpError(400, `Invalid ${name}: ${BAD_TEXT_REASON}`, [{ field: name, reason: BAD_TEXT_REASON }]));
        return;
      }
    }
    done();
  });
}
