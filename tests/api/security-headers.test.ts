import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createTestDb, type TestDb } from '../support/db';
import { buildTestApp } from '../support/app';

/** Security headers (helmet's, computed once at start-up) on every kind of answer. */
describe('security headers', () => {
  let t: TestDb;
  let app: FastifyInstance;
  beforeAll(async () => {
    t = await createTestDb('pglite');
    app = await buildTestApp(t.db);
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    await t?.drop();
  });

  it('every answer carries the strict CSP and helmet\'s other headers: API, error, unknown path', async () => {
    const answers = [
      await app.inject({ method: 'GET', url: '/api/health' }),
      await app.inject({ method: 'GET', url: '/api/userprofile' }), // 403 without a token
      await app.inject({ method: 'POST', url: '/api/getVacantBerths', payload: '{bad' }),
      await app.inject({ method: 'GET', url: '/no/such/page' }),
    ];
    for (const res of answers) {
      const csp = String(res.headers['content-security-policy']).split(';').sort();
      expect(csp).toEqual([
        "base-uri 'self'", "connect-src 'self'", "default-src 'self'", "font-src 'self' data:", "form-action 'self'",
        "frame-ancestors 'none'", "img-src 'self' data:", "object-src 'none'", "script-src 'self'", "script-src-attr 'none'",
        "style-src 'self' 'unsafe-inline'",
      ]);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['cross-origin-opener-policy']).toBe('same-origin');
      expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
      expect(res.headers['x-powered-by']).toBeUndefined();
    }
  });
});
