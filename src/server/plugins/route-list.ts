import type { FastifyInstance, FastifySchema } from 'fastify';

export interface RouteEntry {
  method: string;
  url: string;
  schema?: FastifySchema;
}

/**
 * Records every route as it is added (app.routeList), so tests can walk all of them (the fuzz test, the
 * token-before-validation check) without a hand-kept list that would miss the next route.
 */
export function registerRouteList(app: FastifyInstance): void {
  const routes: RouteEntry[] = [];
  app.decorate('routeList', routes);
  app.addHook('onRoute', (route) => {
    for (const method of Array.isArray(route.method) ? route.method : [route.method]) routes.push({ method, url: route.url, ...(route.schema ? { schema: route.schema } : {}) });
  });
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route of the app, in registration order (HEAD twins included). */
    routeList: readonly RouteEntry[];
  }
}
