import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

/**
 * Serves the built client and falls back to index.html for deep links (/layout/uikit/vacant_berths).
 * Unknown /api paths stay JSON 404s.
 */
export async function registerSpa(app: FastifyInstance, clientDir: string): Promise<void> {
  const indexFile = join(clientDir, 'index.html');
  const built = existsSync(indexFile);
  if (built) {
    await app.register(fastifyStatic, { root: clientDir, wildcard: false, index: false, maxAge: '1h' });
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
    return reply.type('text/html').header('cache-control', 'no-cache').send(indexHtml);
  });
}
