import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/server/app';
import { loadConfig, type Config } from '../../src/server/config';
import type { Clock } from '../../src/server/clock';
import type { Db } from '../../src/server/db';

/** Config for in-process tests: test hooks on, client dir as built (SPA fallback tolerates a missing build). */
export function testConfig(overrides: Partial<Config> = {}): Config {
  // Tests sign in from random X-Forwarded-For addresses so per-IP limits of one test do not hit another.
  return { ...loadConfig({ HHT_TEST_HOOKS: '1', HHT_DATA_DIR: '.tmp/unused', HHT_TRUST_PROXY: '1' }), ...overrides };
}

export async function buildTestApp(db: Db, opts: { clock?: Clock; config?: Partial<Config> } = {}): Promise<FastifyInstance> {
  const app = await buildApp({ config: testConfig(opts.config), db, ...(opts.clock ? { clock: opts.clock } : {}) });
  await app.ready();
  return app;
}
