import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createTestDb, type TestDb } from '../support/db';
import { testConfig } from '../support/app';
import { buildApp } from '../../src/server/app';
import { HttpError } from '../../src/server/plugins/errors';

/** At the default level (info) a request that went well writes nothing; a failed (5xx) one writes one warn line. */
describe('request log', () => {
  let t: TestDb;
  let app: FastifyInstance;
  const lines: Record<string, unknown>[] = [];
  beforeAll(async () => {
    t = await createTestDb('pglite');
    app = await buildApp({ config: testConfig(), db: t.db, logger: { level: 'info', stream: { write: (l: string) => void lines.push(JSON.parse(l) as Record<string, unknown>) } } });
    app.get('/api/test-only/fails', async () => {
      throw new HttpError(503, 'down for the test');
    });
    await app.ready();
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    await t?.drop();
  });

  it('logs no line per request, and one line for a 5xx answer', async () => {
    lines.length = 0;
    for (let i = 0; i < 5; i += 1) expect((await app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    expect(lines.filter((l) => l.reqId !== undefined)).toEqual([]);
    expect((await app.inject({ method: 'GET', url: '/api/test-only/fails?x=1' })).statusCode).toBe(503);
    const logged = lines.filter((l) => l.msg === 'slow or failed request');
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ level: 40, method: 'GET', url: '/api/test-only/fails', status: 503 });
  });
});
