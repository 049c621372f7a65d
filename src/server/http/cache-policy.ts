import type { FastifyInstance } from 'fastify';

/** Vite names built files /assets/<name>-<hash>.<ext>: their content never changes under the same name. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Files without a hash in the name (theme CSS and fonts): cached, but checked with the server (ETag) each use. */
export const REVALIDATE = 'no-cache';
/** API answers hold personal data and index.html must always name the current assets. */
export const NO_STORE = 'no-store';

/** Every /api answer is `no-store` unless its route chose otherwise. Synchronous: it runs on every answer. */
export function registerApiNoStore(app: FastifyInstance): void {
  app.addHook('onSend', (request, reply, payload, done) => {
    if (request.url.startsWith('/api/') && reply.getHeader('cache-control') === undefined) {
      reply.header('cache-control', NO_STORE);
    }
    done(null, payload);
  });
}

/** Cache-Control for a static file of the built client, by its path relative to the client folder. */
export function staticCacheControl(relativePath: string): string {
  if (/^assets\//.test(relativePath)) return IMMUTABLE;
  if (/(^|\/)index\.html(\.br|\.gz)?$/.test(relativePath)) return NO_STORE;
  return REVALIDATE;
}
