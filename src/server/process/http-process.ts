import cluster from 'node:cluster';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config';
import type { Db } from '../db';
import { buildApp } from '../app';
import { startBackgroundJobs } from './background-jobs';
import { fail, logLine } from './log-line';
import type { EarlyServer, RequestHandler } from './early-server';
import { startMetricsServer, type MetricsServer } from '../metrics/server';

export interface HttpProcessOptions {
  config: Config;
  db: Db;
  /** 1 for the single process and for worker #1, which also runs the background jobs. */
  index: number;
  /** A server already listening on the port (early-server.ts): the app takes it over instead of listening. */
  early?: EarlyServer;
}

/** Builds the app on an open, migrated database, listens, and stops gracefully on SIGTERM/SIGINT. */
export async function runHttpProcess({ config, db, index, early }: HttpProcessOptions): Promise<FastifyInstance> {
  let appHandler: RequestHandler | undefined;
  const app = await buildApp({
    config, db, logger: { level: process.env.LOG_LEVEL ?? 'info' },
    ...(early ? { serverFactory: (handler: RequestHandler) => ((appHandler = handler), early.server) } : {}),
  });
  const jobs = index === 1 ? startBackgroundJobs(db, config, logLine, app.log, app.clock) : undefined;

  let metrics: MetricsServer | undefined;
  let closing = false;
  const shutdown = async (signal: string): Promise<void> => {
    if (closing) return;
    closing = true;
    app.log.info(`${signal} received: finishing in-flight requests`);
    await jobs?.stop();
    await metrics?.close();
    // Stops accepting and waits for in-flight requests (and writes the audit trail's queue): Fastify does it for a
    // server it listened on itself; the early server it was given, it leaves open, so that one is closed here first.
    await early?.close();
    await app.close();
    await db.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  if (early) {
    await app.ready();
    if (!appHandler) throw new Error('the app did not take the early server');
    early.handOver(appHandler);
  } else {
    try {
      await app.listen({ port: config.port, host: config.host });
    } catch (err) {
      fail(`cannot listen on ${config.host}:${config.port} (${err instanceof Error ? err.message : String(err)})`);
    }
  }
  // One process: its own metrics server. Workers of HHT_WORKERS > 1: the primary serves theirs together.
  const metricsPort = config.ops.metricsPort;
  if (metricsPort !== undefined && !cluster.isWorker) metrics = await startMetricsOrFail(metricsPort, config.host, false);
  return app;
}

/** The metrics server on its port, or one clear line and exit (a port taken, a bad address). */
export async function startMetricsOrFail(port: number, host: string, clustered: boolean): Promise<MetricsServer> {
  try {
    const server = await startMetricsServer({ port, host, cluster: clustered });
    logLine(`metrics: GET http://${host}:${server.port}/metrics`);
    return server;
  } catch (err) {
    fail(`cannot listen on ${host}:${port} for metrics (HHT_METRICS_PORT) (${err instanceof Error ? err.message : String(err)})`);
  }
}
