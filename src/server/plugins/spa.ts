import { existsSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { NO_STORE, staticCacheControl } from '../http/cache-policy';

/**
 * Serves the built client and falls back to index.html for deep links (/layout/uikit/vacant_berths).
 * Unknown /api paths stay JSON 404s. Files are sent as the .br/.gz made at build time (scripts/precompress.mjs)
 * when the browser accepts it; the app page itself is compressed per request by the compression hook.
 */
export async function registerSpa(app: FastifyInstance, clientDir: string): Promise<void> {
  const indexFile = join(clientDir, 'index.html');
  const built = existsSync(indexFile);
  if (built) {
    await app.register(fastifyStatic, {
      root: clientDir,
      wildcard: false,
      index: false,
      preCompressed: true,
      cacheControl: false, // set per file below: hashed assets forever, the rest revalidated
      setHeaders: (reply, path) => {
        const rel = relative(clientDir, path).split(sep).join('/');
        void reply.header('cache-control', staticCacheControl(rel.replace(/\.(br|gz)$/, '')));
      },
    });
  }
  const indexHtml = built ? readFileSync(indexFile, 'utf8') : null;
  app.setNotFoundHandler((request, reply) => {
    if (request.url.startsWith('/api/') || request.url === '/api' || request.method !== 'GET') {
      return reply.status(404).send({ error: 'Not Found', message: `No route ${request.method} ${request.url.split('?')[0]}` });
    }
    // A missing file (theme CSS, script, image) is a 404, not the app page: the browser must see the failure.
    if (/\.[A-Za-z0-9]{1,8}$/.test(request.url.split('?')[0] ?? '')) {
      return reply.status(404).type('text/plain').send('Not found');
    }
    if (!indexHtml) {
      return reply.status(503).type('text/plain').send('The client is not built yet: run npm run build (npm start does it).');
    }
    return reply.type('text/html; charset=utf-8').header('cache-control', NO_STORE).send(indexHtml);
  });
}
