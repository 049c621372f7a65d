import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { TEST_DRIVERS, type TestDb } from '../support/db';
import { cloneSeededTestDb } from '../support/seeded';
import { testConfig } from '../support/app';
import { insertUser, loginAs, randomIp, type SignedIn } from '../support/login';
import { fuzzBody, fuzzQuery, type FuzzContext } from '../support/fuzz-values';
import { buildApp } from '../../src/server/app';
import { manualClock } from '../../src/server/clock';
import { Rng } from '../../src/server/demo/prng';
import { istNoon } from './extras-users';

/**
 * API fuzz test: every route of the app, generated bad bodies and query strings, with and without a
 * valid token. Not one 500 and not one stack trace. Deterministic: FUZZ_SEED (default below) and the request
 * index name each failure, so `FUZZ_SEED=... npx vitest run --project api tests/api/fuzz.test.ts` replays it.
 */
const SEED = process.env.FUZZ_SEED ?? 'fuzz-2026-11';
/** At least 5,000 requests over the drivers that run. */
const PER_DRIVER = Math.ceil(5_000 / TEST_DRIVERS.length);
/** Routes the fuzzer leaves out, and why: the clock hook would expire every token of the run. */
const SKIP = new Set(['POST /api/test-hooks/clock']);
/** A stack trace or a source location in a body. */
const STACK = /\n\s+at |\bat [\w.<>]+ \(|node:internal|\.[jt]s:\d+:\d+/;

interface Target {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
  url: string;
  fields: string[];
}

const propsOf = (schema: unknown): string[] => {
  if (!schema || typeof schema !== 'object') return [];
  const p = (schema as { properties?: unknown }).properties;
  return p && typeof p === 'object' ? Object.keys(p) : [];
};

describe.each(TEST_DRIVERS)('API fuzz on %s', (driver) => {
  let t: TestDb & { today: string };
  let app: FastifyInstance;
  let su: SignedIn;
  let div: SignedIn;
  const targets: Target[] = [];

  beforeAll(async () => {
    t = await cloneSeededTestDb(driver);
    const unlimited = { captcha: 1_000_000, login: 1_000_000, otp: 1_000_000 };
    app = await buildApp({ config: testConfig(), db: t.db, clock: manualClock(istNoon(t.today)), auth: { suMobiles: [], rateLimits: unlimited } });
    await app.ready();
    await insertUser(t.db, { userId: 'FUZZSU', userLevel: 'SU' });
    await insertUser(t.db, { userId: 'FUZZDIV', userLevel: 'DA', rlyCode: 'NR', divCode: 'DLI' });
    su = await loginAs(app, 'FUZZSU');
    div = await loginAs(app, 'FUZZDIV');

    // Every route the app has; parametric ones expanded to every report endpoint/id plus a junk one.
    const reports = app.reports.all();
    for (const r of app.routeList) {
      if (r.method === 'HEAD' || r.method === 'OPTIONS' || SKIP.has(`${r.method} ${r.url}`)) continue;
      const method = r.method as Target['method'];
      const fields = [...propsOf(r.schema?.body), ...propsOf(r.schema?.querystring)];
      if (r.url === '/api/:endpoint') {
        for (const rep of reports) {
          for (const v of rep.views) if (v.method === method) targets.push({ method, url: `/api/${v.endpoint}`, fields: propsOf(rep.filterSchema) });
        }
        targets.push({ method, url: '/api/no-such-endpoint', fields: [] });
      } else if (/\/:(reportId|id)$/.test(r.url)) {
        for (const rep of reports) targets.push({ method, url: r.url.replace(/:\w+$/, rep.definition.id), fields: [...fields, ...propsOf(rep.filterSchema)] });
        targets.push({ method, url: r.url.replace(/:\w+$/, '%00'), fields });
      } else {
        targets.push({ method, url: r.url.replace(/:\w+/g, 'X%00Y'), fields });
      }
    }
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    await t?.drop();
  });

  it(`${PER_DRIVER} generated bad requests over every route: no 500, no stack trace`, async () => {
    expect(targets.length).toBeGreaterThan(30);
    const rng = new Rng(`${SEED}:${driver}`);
    const plausible = ['12952', '12001', t.today, '2025-03-10', 'DLI', 'NR', 'NDLS', 'SU', 'DA', 'IN_SERVICE', 'C', 1, 25, 'asc', 'csv', 'pdf', 'Other'];
    const f: FuzzContext = { rng, plausible };
    const failures: string[] = [];
    const statuses = new Map<number, number>();
    const routesHit = new Set<string>();
    expect(PER_DRIVER).toBeGreaterThan(targets.length);
    const order = rng.shuffle(targets);
    for (let i = 0; i < PER_DRIVER; i++) {
      // Every target once (in a seeded order), then at random: each route is hit however many routes there are.
      const target = i < order.length ? (order[i] as Target) : rng.pick(targets);
      const who = rng.weighted<SignedIn | null>([[su, 5], [div, 2], [null, 3]]);
      const headers: Record<string, string> = who ? who.headers() : { 'x-forwarded-for': randomIp() };
      const query = rng.chance(target.method === 'GET' ? 0.8 : 0.2) ? fuzzQuery(f, target.fields) : '';
      const req: InjectOptions = { method: target.method, url: query ? `${target.url}?${query}` : target.url, headers };
      if (target.method !== 'GET') {
        const body = fuzzBody(f, target.fields);
        if (body.kind === 'json') {
          req.payload = JSON.stringify(body.value);
          headers['content-type'] = 'application/json';
        } else {
          req.payload = body.text;
          if (body.contentType) headers['content-type'] = body.contentType;
        }
      }
      const res = await app.inject(req);
      statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
      routesHit.add(`${target.method} ${target.url}`);
      if (res.statusCode === 500 || STACK.test(res.body)) {
        const payload = typeof req.payload === 'string' ? req.payload.slice(0, 300) : '';
        failures.push(`#${i} ${res.statusCode} ${req.method} ${String(req.url).slice(0, 200)} ${payload} -> ${res.body.slice(0, 300)}`);
      }
    }
    console.log(`fuzz ${driver}: seed ${SEED}, ${PER_DRIVER} requests, ${routesHit.size}/${targets.length} targets, statuses ${JSON.stringify(Object.fromEntries(statuses))}`);
    expect(failures, failures.slice(0, 20).join('\n')).toEqual([]);
    expect([...statuses.keys()].filter((s) => s >= 500 && s !== 503)).toEqual([]);
    expect(routesHit.size).toBe(targets.length);
  }, 300_000);
});
