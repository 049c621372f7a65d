import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createTestDb, type TestDb } from '../support/db';
import { buildTestApp } from '../support/app';

const FILE_BYTES = 32 * 1024 * 1024;

/**
 * A client that asks for a large file, takes the first bytes and then reads nothing for `stallMs`; then it reads
 * on. Resolves with the bytes it got in all.
 */
function stalledDownload(port: number, path: string, stallMs: number): Promise<{ bytes: number; ms: number }> {
  return new Promise((resolve, reject) => {
    let bytes = 0;
    let started = 0;
    const socket: Socket = connect(port, '127.0.0.1', () => {
      socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`);
      started = Date.now();
    });
    socket.on('data', (d: Buffer) => (bytes += d.length));
    socket.once('data', () => {
      socket.pause();
      setTimeout(() => socket.resume(), stallMs);
    });
    socket.on('error', () => undefined); // a reset is the expected end
    socket.on('close', () => resolve({ bytes, ms: Date.now() - started }));
    setTimeout(() => reject(new Error('socket still open after 20 s')), 20_000).unref();
  });
}

// Socket behaviour does not depend on the database driver: PGlite only, real listening server.
describe('slow readers of large assets', () => {
  let t: TestDb;
  let app: FastifyInstance;
  let port: number;
  let clientDir: string;
  beforeAll(async () => {
    clientDir = mkdtempSync(join(tmpdir(), 'hht-slow-'));
    mkdirSync(join(clientDir, 'assets'));
    writeFileSync(join(clientDir, 'index.html'), '<!doctype html><title>x</title>');
    writeFileSync(join(clientDir, 'assets', 'big-0123abcd.js'), Buffer.alloc(FILE_BYTES, 120));
    t = await createTestDb('pglite');
    app = await buildTestApp(t.db, {
      config: {
        clientDir,
        limits: { requestTimeoutMs: 5_000, headersTimeoutMs: 2_000, keepAliveTimeoutMs: 1_000, idleTimeoutMs: 800, maxRequestsPerSocket: 100, maxConnections: 100 },
      },
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const addr = app.server.address();
    port = typeof addr === 'object' && addr ? addr.port : 0;
  });
  afterAll(async () => {
    await app?.close();
    await t?.drop();
    rmSync(clientDir, { recursive: true, force: true });
  });

  it('closes a socket that takes no bytes for the idle timeout while a large file is sent', async () => {
    const stalled = stalledDownload(port, '/assets/big-0123abcd.js', 3_000);
    await new Promise((r) => setTimeout(r, 2_500));
    // The server holds nothing of it any more...
    const open = await new Promise<number>((res, rej) => app.server.getConnections((err, n) => (err ? rej(err) : res(n))));
    expect(open).toBe(0);
    // ...and neither does the kernel: reading on, the client gets only what had reached its own receive buffer,
    // not the megabytes a plain close leaves queued for delivery (which keep the connection open for minutes).
    const r = await stalled;
    expect(r.bytes).toBeLessThan(1024 * 1024);
    expect(r.ms).toBeLessThan(5_000);
  }, 30_000);
});
