import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { MenuDocument } from '../../shared/menu';
import type { MenuStore } from '../meta/menu-store';
import { parseAcceptLanguage } from '../../shared/definitions/localize';

/** Strong validator of the served menu: the same content gives the same tag in every server process. */
export function menuEtag(menu: MenuDocument): string {
  return `"${createHash('sha256').update(JSON.stringify(menu)).digest('base64url').slice(0, 27)}"`;
}

/**
 * GET /api/meta/menu: the side menu from menu.json (last good version, with unavailable marks), same for every
 * user level, in the language of the request's Accept-Language (hi or en). Open browsers poll it; with its ETag and
 * `no-cache` the browser revalidates (If-None-Match) and an unchanged menu costs a 304 without a body. The tag is
 * of the localized menu, so each language has its own, and `Vary: Accept-Language` keeps caches from mixing them.
 */
export function menuRoutes(app: FastifyInstance, store: MenuStore): void {
  app.get('/api/meta/menu', { preHandler: app.authenticate }, async (request, reply): Promise<MenuDocument | undefined> => {
    const menu = store.getMenu(parseAcceptLanguage(request.headers['accept-language']));
    const etag = menuEtag(menu);
    void reply.header('cache-control', 'private, no-cache').header('etag', etag).header('vary', 'Accept-Language');
    const asked = request.headers['if-none-match'];
    if (typeof asked === 'string' && asked.split(',').some((t) => t.trim().replace(/^W\//, '') === etag)) {
      return reply.status(304).send();
    }
    return menu;
  });
}
