import type { Server, ServerOptions } from 'node:http';
import type { Socket } from 'node:net';
import type { ServerLimits } from '../config';

/**
 * Fastify and Node HTTP server options for the configured limits. Node's requestTimeout bounds the time to RECEIVE a
 * request (headers and body), not the response: a body trickled one byte at a time is cut, a long export that
 * streams its answer is not. The idle timeout closes sockets with no traffic either way.
 */
export function serverLimitOptions(limits: ServerLimits): {
  connectionTimeout: number;
  keepAliveTimeout: number;
  requestTimeout: number;
  maxRequestsPerSocket: number;
  http: ServerOptions;
} {
  // Node checks request and header deadlines on a timer (30 s by default): tighten it so that a short limit holds.
  const checkEvery = Math.max(100, Math.min(5_000, Math.floor(Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs) / 4)));
  return {
    connectionTimeout: limits.idleTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    maxRequestsPerSocket: limits.maxRequestsPerSocket,
    http: {
      requestTimeout: limits.requestTimeoutMs,
      headersTimeout: limits.headersTimeoutMs,
      connectionsCheckingInterval: checkEvery,
    },
  };
}

/**
 * Closes a socket once it has been idle for the idle timeout, whatever it was sent. Node's default only destroys
 * it, and the kernel then keeps trying to deliver what is queued to a reader that has stopped (a stalled download of
 * a large asset stays open from the client's side for minutes, holding the send buffer): with unsent bytes queued
 * the socket is reset instead, which frees both ends at once.
 */
export function cutIdleSockets(server: Server): void {
  server.on('timeout', (socket: Socket) => {
    if (socket.writableLength > 0) socket.resetAndDestroy();
    else socket.destroy();
  });
}
