import type { FastifyInstance } from 'fastify';

/** A request slower than this is logged (warn) with its time, whatever the log level lets through otherwise. */
export const SLOW_REQUEST_MS = 1_000;

/**
 * Fastify's own request logging writes two lines per request at info (the default level): at thousands of requests
 * a second that is a large part of the server's work and of the log. It is off (LogController disableRequestLogging); instead
 * one line per answer that went wrong (5xx) or was slow. Access logs belong to the reverse proxy.
 */
export function registerRequestLog(app: FastifyInstance): void {
  app.addHook('onResponse', (request, reply, done) => {
    const ms = reply.elapsedTime;
    if (reply.statusCode >= 500 || ms >= SLOW_REQUEST_MS) {
      request.log.warn({ method: request.method, url: request.url.split('?')[0], status: reply.statusCode, ms: Math.round(ms) }, 'slow or failed request');
    }
    done();
  });
}
