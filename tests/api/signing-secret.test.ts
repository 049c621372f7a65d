import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createTestDb, TEST_DRIVERS, type TestDb } from '../support/db';
import { buildTestApp } from '../support/app';
import { insertUser, loginAs } from '../support/login';
import { ConfigError, loadConfig, OLD_PUBLIC_JWT_SECRET } from '../../src/server/config';
import { AccessTokens } from '../../src/server/auth/tokens';
import { SECRET_FILE } from '../../src/server/auth/signing-secret';

describe.each(TEST_DRIVERS)('no public default signing key, on %s', (driver) => {
  let t: TestDb;
  let dataDir: string;
  let a: FastifyInstance;
  let b: FastifyInstance;

  beforeAll(async () => {
    t = await createTestDb(driver);
    dataDir = mkdtempSync(join(tmpdir(), 'hht-secret-'));
    // Two server processes on one database (or one data folder), neither with HHT_JWT_SECRET.
    const config = { jwtSecret: undefined, dataDir, databaseUrl: t.url };
    a = await buildTestApp(t.db, { config });
    b = await buildTestApp(t.db, { config });
    await insertUser(t.db, { userId: 'SECRETU', userLevel: 'SU' });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await t?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('generates one random secret on first start, kept where every instance finds it', async () => {
    if (driver === 'pglite') {
      const file = join(dataDir, SECRET_FILE);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      const secret = readFileSync(file, 'utf8').trim();
      expect(secret.length).toBeGreaterThanOrEqual(64);
      expect(secret).not.toBe(OLD_PUBLIC_JWT_SECRET);
    } else {
      const rows = (await t.db.query<{ value: string }>(`SELECT value FROM server_secrets WHERE name = 'jwt'`)).rows;
      expect(rows).toHaveLength(1);
      expect(rows[0]?.value.length).toBeGreaterThanOrEqual(64);
    }
    // A token of one instance is accepted by the other: they share the key.
    const s = await loginAs(a, 'SECRETU');
    expect((await b.inject({ method: 'GET', url: '/api/userprofile', headers: s.headers() })).statusCode).toBe(200);
  });

  it('a token signed with the old public default key is refused', async () => {
    const s = await loginAs(a, 'SECRETU');
    const sid = (await t.db.query<{ session_id: string }>('SELECT session_id FROM auth_sessions WHERE user_id = $1 AND revoked_at IS NULL', ['SECRETU'])).rows[0]?.session_id ?? '';
    const forged = await new AccessTokens(OLD_PUBLIC_JWT_SECRET).sign('SECRETU', sid, a.clock.now());
    const res = await a.inject({ method: 'GET', url: '/api/userprofile', headers: { ...s.headers(), authorization: `Bearer ${forged}` } });
    expect(res.statusCode).toBe(403);
  });

  it('the old public default is refused as HHT_JWT_SECRET', () => {
    expect(() => loadConfig({ HHT_JWT_SECRET: OLD_PUBLIC_JWT_SECRET })).toThrow(ConfigError);
  });
});
