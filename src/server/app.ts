import Fastify, { type FastifyInstance } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import fastifyHelmet from '@fastify/helmet';
import type { Config } from './config';
import type { Db } from './db';
import { systemClock, type Clock } from './clock';
import { registerErrorHandler } from './plugins/errors';
import { registerSpa } from './plugins/spa';
import { healthRoutes } from './routes/health';
import { menuRoutes } from './routes/menu';
import { runningDetailsRoutes } from './routes/running-details';
import { createMenuStore, type MenuStore } from './meta/menu-store';
import './auth/session-user';

export interface AppDeps {
  config: Config;
  db: Db;
  clock?: Clock;
  logger?: boolean | { level: string };
}

/** Builds the whole app: every plugin and route is registered here explicitly, in order. */
export async function buildApp({ config, db, clock = systemClock, logger = false }: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    logger,
    bodyLimit: 1024 * 1024,
    trustProxy: true,
    ajv: { customOptions: { allErrors: true, coerceTypes: false, removeAdditional: false } },
  });
  registerErrorHandler(app);
  await app.register(fastifyCookie);
  await app.register(fastifyHelmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"], // PrimeReact and AG Grid set inline styles
        imgSrc: ["'self'", 'data:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        upgradeInsecureRequests: null,
      },
    },
  });
  app.decorate('clock', clock);

  healthRoutes(app, db);

  const menuStore = createMenuStore({ rootDir: config.rootDir, log: app.log });
  app.decorate('menuStore', menuStore);
  app.addHook('onClose', async () => menuStore.close());
  menuRoutes(app, menuStore);
  runningDetailsRoutes(app, db);

  await registerSpa(app, config.clientDir);
  return app;
}

declare module 'fastify' {
  interface FastifyInstance {
    clock: Clock;
    /** The side menu (menu.json), so the report engine can mark items unavailable. */
    menuStore: MenuStore;
  }
}
