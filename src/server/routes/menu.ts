import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { MenuDocument } from '../../shared/menu';
import type { MenuStore } from '../meta/menu-store';

/** Strong validator of the served menu: the same content gives the same tag in every server process. */
export function menuEtag(menu: MenuDocument): string {
  return `"${createHash('sha256').update(JSON.stringify(menu)).digest('base64url').slice(0, 27)}"`;
}

/**
 * GET /api/meta/menu: the side menu from menu.json (last good version, with unavailable marks), same for every
 * user level. Open browsers poll it; with its ETag and `no-cache` the browser revalidates (If-None-Match) and an
 * unchanged menu costs a 304 without a body.
 */
export function menuRoutes(app: FastifyInstance, store: MenuStore): void {
  app.get('/api/meta/menu', { preHandler: app.authenticate }, async (request, reply): Promise<MenuDocument | undefined> => {
    const menu = store.getMenu();
    const etag = menuEtag(menu);
    void reply.header('cache-control', 'private, no-cache').header('etag', etag);
    const asked = request.headers['if-none-match'];
    if (typeof asked === 'string' && asked.split(',').some((t) => t.trim().replace(/^W\//, '') === etag)) {
      return reply.status(304).send();
    }
    return menu;
  });
}
