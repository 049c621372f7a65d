import type { FastifyInstance } from 'fastify';
import type { MenuDocument } from '../../shared/menu';
import type { MenuStore } from '../meta/menu-store';

/** GET /api/meta/menu: the side menu from menu.json (last good version), same for every user level. */
export function menuRoutes(app: FastifyInstance, store: MenuStore): void {
  app.get('/api/meta/menu', { preHandler: app.authenticate }, async (_request, reply): Promise<MenuDocument> => {
    void reply.header('cache-control', 'no-store');
    return store.getMenu();
  });
}
