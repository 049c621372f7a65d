import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createTestDb, type TestDb } from '../support/db';
import { buildTestApp } from '../support/app';
import { ConfigError, loadConfig, type ServerLimits } from '../../src/server/config';

/** Resolves when the server closes the socket: what it sent and how long after `since` it closed. */
function whenClosed(socket: Socket, since: number): Promise<{ ms: number; received: string }> {
  let received = '';
  socket.on('data', (d: Buffer) => (received += d.toString()));
  return new Promise((resolve) => {
    socket.on('close', () => resolve({ ms: Date.now() - since, received }));
  });
}

function open(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const s = connect(port, '127.0.0.1', () => resolve(s));
    s.once('error', reject);
  });
}

// Socket limits do not depend on the database driver: PGlite only, real listening server.
describe('connection limits of the listening server', () => {
  let t: TestDb;
  let app: FastifyInstance;
  let port: number;
  const limits: ServerLimits = {
    requestTimeoutMs: 1_500,
    headersTimeoutMs: 1_000,
    keepAliveTimeoutMs: 400,
    idleTimeoutMs: 700,
    maxRequestsPerSocket: 3,
    maxConnections: 100,
  };
  beforeAll(async () => {
    t = await createTestDb('pglite');
    app = await buildTestApp(t.db, { config: { limits } });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const addr = app.server.address();
    port = typeof addr === 'object' && addr ? addr.port : 0;
  });
  afterAll(async () => {
    await app?.close();
    await t?.drop();
  });

  it('closes a socket that sends nothing once the idle/headers limit passes', async () => {
    const started = Date.now();
    const socket = await open(port);
    const { ms } = await whenClosed(socket, started);
    expect(ms).toBeGreaterThanOrEqual(600);
    expect(ms).toBeLessThan(5_000);
  });

  it('closes a kept-alive socket after the keep-alive timeout once its request is answered', async () => {
    const socket = await open(port);
    socket.write('GET /api/health HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\r\n');
    const answered = Date.now();
    const { ms, received } = await whenClosed(socket, answered);
    expect(received).toMatch(/^HTTP\/1\.1 200/);
    expect(received).toMatch(/keep-alive: timeout=0?\.?\d*/i);
    expect(ms).toBeGreaterThanOrEqual(300);
    expect(ms).toBeLessThan(3_000);
  });

  it('cuts a body trickled one byte at a time once the request timeout passes', async () => {
    const socket = await open(port);
    const started = Date.now();
    const closed = whenClosed(socket, started);
    socket.write('POST /api/loginInfo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n');
    // One byte every 200 ms keeps the socket busy (never idle), so only the whole-request limit can stop it.
    const trickle = setInterval(() => {
      if (!socket.destroyed) socket.write('{');
    }, 200);
    const { ms, received } = await closed;
    clearInterval(trickle);
    expect(ms).toBeGreaterThanOrEqual(1_400);
    expect(ms).toBeLessThan(6_000); // the body would need 40 s
    expect(received).toMatch(/^HTTP\/1\.1 408/);
  });

  it('closes a connection after its maximum number of requests', async () => {
    const socket = await open(port);
    const closed = whenClosed(socket, Date.now());
    for (let i = 0; i < 4; i += 1) socket.write('GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n');
    const { received } = await closed;
    const statuses = [...received.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((m) => m[1]);
    expect(statuses.slice(0, 3)).toEqual(['200', '200', '200']);
    expect(statuses.length).toBeLessThanOrEqual(4);
    expect(statuses[3] ?? '503').toBe('503');
  });
});

describe('limits configuration', () => {
  it('has safe defaults', () => {
    expect(loadConfig({}).limits).toEqual({
      requestTimeoutMs: 30_000, headersTimeoutMs: 10_000, keepAliveTimeoutMs: 10_000, idleTimeoutMs: 60_000,
      maxRequestsPerSocket: 10_000, maxConnections: 4_096,
    });
  });

  it('reads each variable and names a bad one', () => {
    const c = loadConfig({ HHT_REQUEST_TIMEOUT_MS: '5000', HHT_HEADERS_TIMEOUT_MS: '2000', HHT_KEEPALIVE_TIMEOUT_MS: '3000',
      HHT_IDLE_TIMEOUT_MS: '4000', HHT_MAX_REQUESTS_PER_SOCKET: '0', HHT_MAX_CONNECTIONS: '50', HHT_WORKERS: '3' });
    expect(c.limits).toEqual({ requestTimeoutMs: 5000, headersTimeoutMs: 2000, keepAliveTimeoutMs: 3000, idleTimeoutMs: 4000,
      maxRequestsPerSocket: 0, maxConnections: 50 });
    expect(c.workers).toBe(3);
    try {
      loadConfig({ HHT_IDLE_TIMEOUT_MS: 'soon', HHT_WORKERS: '0', HHT_HEADERS_TIMEOUT_MS: '60000' });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      expect((err as ConfigError).problems).toEqual([
        'HHT_WORKERS must be a whole number from 1 to 64, got "0"',
        'HHT_IDLE_TIMEOUT_MS must be a whole number from 100 to 3600000, got "soon"',
        'HHT_HEADERS_TIMEOUT_MS (60000) must not exceed HHT_REQUEST_TIMEOUT_MS (30000)',
      ]);
    }
  });
});
