import cluster from 'node:cluster';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import type { Config, TrustProxy } from './config';
import type { Db } from './db';
import { isShiftable, shiftableClock, systemClock, type Clock } from './clock';
import { registerErrorHandler } from './plugins/errors';
import { registerInputGuard } from './plugins/input-guard';
import { portalFormats } from './plugins/schema-formats';
import { registerRouteList } from './plugins/route-list';
import { registerSpa } from './plugins/spa';
import { registerCompression } from './http/compress';
import { registerApiNoStore } from './http/cache-policy';
import { registerSecurityHeaders } from './http/security-headers';
import { registerRequestLog } from './http/request-log';
import { cutIdleSockets, serverLimitOptions } from './http/limits';
import { healthRoutes } from './routes/health';
import { reportRoutes } from './routes/reports';
import { exportRoutes } from './routes/export';
import { lookupRoutes } from './routes/lookups';
import { deviceRoutes } from './routes/devices';
import { hhtCredentialRoutes } from './routes/hht-credentials';
import { hhtSyncRoutes } from './routes/hht-sync';
import { IngestThread } from './hht/ingest-thread';
import { ingestBatch } from './hht/ingest';
import { feedbackRoutes } from './routes/feedback';
import { metaRoutes } from './routes/meta';
import { consistRoutes } from './routes/consist';
import { trainRoutes } from './routes/trains';
import { savedViewRoutes } from './routes/saved-views';
import { ReportRegistry } from './reports/registry';
import { ReportResultCache } from './reports/result-cache';
import { hasReplicas } from './db/replicas';
import { SqlChecker } from './reports/sql-check';
import { syncMenuAvailability } from './reports/menu-availability';
import { menuRoutes } from './routes/menu';
import { runningDetailsRoutes } from './routes/running-details';
import { createMenuStore, type MenuStore } from './meta/menu-store';
import './auth/session-user';
import { registerAuth } from './auth/plugin';
import { resolveSigningSecret } from './auth/signing-secret';
import { authOptionsFromEnv, type AuthOptions } from './auth/options';
import { registerAudit } from './audit/plugin';
import { registerJsonBody } from './http/json-body';
import { auditPortalFiles } from './audit/portal-files';
import { registerMetrics } from './metrics/plugin';
import { isLive } from './process/startup';
import { openApiRoute, registerOpenApi } from './openapi/plugin';
import { registerSubscriptions } from './subscriptions/plugin';

export interface AppDeps {
  config: Config;
  db: Db;
  clock?: Clock;
  logger?: boolean | { level: string; stream?: { write(line: string): void } };
  /** Sign-in settings (SU mobiles, rate limits, SMS adapter); read from the environment when absent. */
  auth?: AuthOptions;
  /** A server already listening (process/early-server.ts) that the app answers on, instead of one it makes. */
  serverFactory?: (handler: (req: IncomingMessage, res: ServerResponse) => void) => Server;
}

/** Builds the whole app: every plugin and route is registered here explicitly, in order. */
export async function buildApp({ config, db, clock = systemClock, logger = false, auth, serverFactory }: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    ...(serverFactory ? { serverFactory } : {}),
    logger,
    logController: new LogController({ disableRequestLogging: true }), // see http/request-log.ts
    bodyLimit: 1024 * 1024,
    trustProxy: fastifyTrust(config.trustProxy),
    ajv: { customOptions: { allErrors: true, coerceTypes: false, removeAdditional: false }, plugins: [portalFormats] },
    ...serverLimitOptions(config.limits),
  });
  app.server.maxConnections = config.limits.maxConnections;
  cutIdleSockets(app.server);
  await registerOpenApi(app); // first: it hears of every route added after it
  registerErrorHandler(app);
  registerRequestLog(app);
  registerJsonBody(app);
  registerInputGuard(app);
  registerRouteList(app);
  registerApiNoStore(app);
  registerCompression(app);
  if (config.testHooks && cluster.isWorker) {
    // Lets tests see which server process answered (HHT_WORKERS > 1); test hooks are refused in production.
    app.addHook('onSend', (_request, reply, payload, done) => {
      void reply.header('x-hht-pid', String(process.pid));
      done(null, payload);
    });
  }
  await app.register(fastifyCookie);
  registerSecurityHeaders(app, {
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
  // Test hooks move the whole server's clock (reports, sign-in, the live feed); never in production (config).
  app.decorate('clock', config.testHooks ? shiftableClock(clock) : clock);

  const audit = registerAudit(app, { db, config });
  registerMetrics(app, { db, auditQueued: () => audit.queued, auditLost: () => audit.counts, feedLive: isLive(config) });
  healthRoutes(app, db);
  const authOptions = auth ?? authOptionsFromEnv();
  const signingSecret = await resolveSigningSecret(config, db);
  await registerAuth(app, { config, db, options: authOptions, signingSecret });

  // Report definitions: loaded now, reloaded on change of reports/ or schemas/.
  const registry = new ReportRegistry(
    config.rootDir,
    { info: (m) => app.log.info(m), error: (m) => app.log.error(m) },
    { sqlCheck: new SqlChecker(db) },
  );
  await registry.load();
  registry.watch();
  app.addHook('onClose', async () => registry.close());
  app.decorate('reports', registry);
  // The menu store logs a refused menu.json; the audit trail hears of it through that logger.
  const menuRefused: { notify?: () => void } = {};
  const menuStore = createMenuStore({
    rootDir: config.rootDir,
    log: { info: (o, m) => app.log.info(o, m), error: (o, m) => { app.log.error(o, m); menuRefused.notify?.(); } },
  });
  app.decorate('menuStore', menuStore);
  app.addHook('onClose', async () => menuStore.close());
  menuRoutes(app, menuStore);
  registry.onLoad(() => syncMenuAvailability(menuStore, registry));
  menuStore.onReload(() => syncMenuAvailability(menuStore, registry));
  menuRefused.notify = auditPortalFiles({ rootDir: config.rootDir, registry, menuStore, audit });

  // Finished report answers, shared by users whose requests come to the same query (reports/result-cache.ts).
  const reportCache = new ReportResultCache({
    ttlMs: config.reportCache.ttlMs,
    maxBytes: config.reportCache.maxBytes,
    // How stale a replica read may be is the routing's own limit (strict routing, 0, reads only caught-up replicas).
    replicaLagMs: hasReplicas(db) ? db.replicas.maxLagMs : 0,
  });
  await reportCache.start(db);
  app.addHook('onClose', async () => reportCache.stop());
  app.decorate('reportCache', reportCache);
  // A clock move changes what "now" means to the data (the live feed releases records): nothing held survives it.
  if (isShiftable(app.clock)) app.clock.onAdvance(async () => reportCache.invalidate());

  const suMobiles = authOptions.suMobiles;
  runningDetailsRoutes(app, { db, suMobiles });
  lookupRoutes(app, { db, suMobiles });
  exportRoutes(app, { db, config, registry, suMobiles });
  await registerSubscriptions(app, { db, config, registry, suMobiles, signingSecret });
  metaRoutes(app, { rootDir: config.rootDir }); // dashboard.json, docs/release-notes.json (watched)
  deviceRoutes(app, { db, suMobiles });
  hhtCredentialRoutes(app, { db, suMobiles });
  // On PostgreSQL device batches are stored by a thread of their own, so officers' reads do not hold them up.
  const ingestThread = config.databaseUrl && db.driver === 'pg' ? await IngestThread.start(config.databaseUrl, (batch) => ingestBatch(db, batch)) : undefined;
  if (ingestThread) app.addHook('onClose', () => ingestThread.close());
  hhtSyncRoutes(app, { db, config, ingest: ingestThread?.ingest });
  feedbackRoutes(app, { db });
  consistRoutes(app, { db, config, suMobiles });
  trainRoutes(app, { db, suMobiles });
  savedViewRoutes(app, { db, registry, suMobiles });
  openApiRoute(app, { db, registry });
  reportRoutes(app, { db, config, registry, suMobiles, cache: reportCache }); // last: its /api/:endpoint routes catch what no static route took

  await registerSpa(app, config.clientDir);
  return app;
}

/**
 * The configured proxy trust as Fastify takes it (its types name no hop count): hop i is the i-th address from the
 * right, counting the socket's own as 0, so `n` proxies trust hops 0..n-1 and the client is the next one.
 */
function fastifyTrust(trust: TrustProxy): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trust === 'number') return (_address, hop) => hop < trust;
  return trust;
}

declare module 'fastify' {
  interface FastifyInstance {
    clock: Clock;
    reports: ReportRegistry;
    /** The side menu (menu.json), so the report engine can mark items unavailable. */
    menuStore: MenuStore;
    /** Finished report answers of this process (tests read its stats). */
    reportCache: ReportResultCache;
  }
}
