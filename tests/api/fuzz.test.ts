import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { TEST_DRIVERS, type TestDb } from '../support/db';
import { cloneSeededTestDb } from '../support/seeded';
import { testConfig } from '../support/app';
import { insertUser, loginAs, randomIp, type SignedIn } from '../support/login';
import { BAD_VALUES, fuzzBody, fuzzQuery, fuzzSyncBody, type FuzzContext } from '../support/fuzz-values';
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
/** Device batches fuzzed field by field with a valid device credential, on each driver. */
const SYNC_PER_DRIVER = Number(process.env.FUZZ_SYNC_REQUESTS ?? 5_000);
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

  /** Sends a request and records a 500 or a stack trace in `failures`. */
  const probe = async (req: InjectOptions, label: string, failures: string[], statuses: Map<number, number>): Promise<void> => {
    const res = await app.inject(req);
    statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
    if (res.statusCode === 500 || STACK.test(res.body)) {
      const payload = typeof req.payload === 'string' ? req.payload.slice(0, 300) : '';
      failures.push(`${label} ${res.statusCode} ${req.method} ${String(req.url).slice(0, 200)} ${payload} -> ${res.body.slice(0, 300)}`);
    }
  };

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

  it('every route with each value the database would refuse (dates, offsets, years, integers, surrogates): no 500', async () => {
    const failures: string[] = [];
    const statuses = new Map<number, number>();
    for (const target of targets) {
      for (const [k, value] of BAD_VALUES.entries()) {
        const headers: Record<string, string> = k % 3 === 2 ? { 'x-forwarded-for': randomIp() } : (k % 3 === 0 ? su : div).headers();
        const fields = target.fields.length > 0 ? target.fields : ['date', 'id'];
        const text = typeof value === 'string' ? value : JSON.stringify(value);
        let query = '';
        try {
          query = fields.map((n) => `${n}=${encodeURIComponent(text)}`).join('&');
        } catch {
          query = fields.map((n) => `${n}=%ED%A0%80`).join('&'); // a lone surrogate as its raw UTF-8 bytes
        }
        const req: InjectOptions = { method: target.method, url: target.method === 'GET' ? `${target.url}?${query}` : target.url, headers };
        if (target.method !== 'GET') {
          req.payload = JSON.stringify(Object.fromEntries(fields.map((n) => [n, value])));
          headers['content-type'] = 'application/json';
        }
        await probe(req, `${target.method} ${target.url} ${text.slice(0, 40)}`, failures, statuses);
      }
    }
    console.log(`fuzz ${driver}: ${targets.length} targets x ${BAD_VALUES.length} refused values, statuses ${JSON.stringify(Object.fromEntries(statuses))}`);
    expect(failures, failures.slice(0, 20).join('\n')).toEqual([]);
  }, 300_000);

  it(`${SYNC_PER_DRIVER} device batches fuzzed field by field with a valid device credential: no 500, no stack trace`, async () => {
    const beat = (await t.db.query<{ beat_id: number; run_id: number; device_id: string; coaches: string[] }>(
      `SELECT b.beat_id, b.run_id, b.device_id, b.coaches FROM beats b JOIN devices d USING (device_id)
       WHERE d.status = 'IN_SERVICE' AND b.run_id IN (SELECT run_id FROM train_runs WHERE start_date = $1::date - 1) ORDER BY b.beat_id LIMIT 1`,
      [t.today],
    )).rows[0];
    if (!beat) throw new Error('no beat of yesterday with a device in service');
    const coach = beat.coaches[0] ?? '';
    const psgn = Number((await t.db.query<{ id: number }>('SELECT psgn_id AS id FROM passengers WHERE run_id = $1 AND coach_id = $2 ORDER BY psgn_id LIMIT 1', [beat.run_id, coach])).rows[0]?.id);
    const vacancy = (await t.db.query<{ berth_no: number; from_station: string }>('SELECT berth_no, from_station FROM vacant_berths WHERE run_id = $1 AND coach_id = $2 LIMIT 1', [beat.run_id, coach])).rows[0];
    const tdr = (await t.db.query<{ tdr_id: string }>('SELECT tdr_id FROM tdrs WHERE run_id = $1 LIMIT 1', [beat.run_id])).rows[0]?.tdr_id;
    const issued = await app.inject({ method: 'POST', url: '/api/hht/credentials/issue', headers: su.headers(), payload: { deviceId: beat.device_id } });
    const token = issued.json<{ token: string }>().token;
    const noon = istNoon(t.today).getTime();
    const ago = (min: number): string => new Date(noon - min * 60_000).toISOString();
    let n = 0;
    /** One storable record of each type, with fresh ids. */
    const valid = (): Record<string, unknown>[] => {
      const k = ++n;
      const base = { beatId: beat.beat_id };
      const records: Record<string, unknown>[] = [
        { ...base, id: `c${k}`, type: 'CHECK', eventType: 'O', psgnId: psgn, coachId: coach, berthNo: 1, stationCode: 'NDLS', deviceTime: ago(30) },
        { ...base, id: `a${k}`, type: 'ALLOTMENT', psgnId: psgn, coachId: coach, berthNo: 2, fromStation: 'NDLS', toStation: 'BCT', at: ago(29) },
        { ...base, id: `s${k}`, type: 'SIGN_ON', at: ago(300) },
        { ...base, id: `w${k}`, type: 'TWR', twrStatus: 'SUBMITTED', at: ago(1) },
        { ...base, id: `e${k}`, type: 'EFT', eftNo: `FZ${driver}${k}`, psgnName: 'Fuzz P', coachId: coach, fromStation: 'NDLS', toStation: 'BCT', reason: 'TICKETLESS',
          excessFare: 300.5, excessCharge: 250, total: 550.5, paymentMode: 'UPI', issuedAt: ago(20),
          payments: [{ txnId: `FZT${driver}${k}`, amount: 550.5, mode: 'UPI', status: 'SUCCESS', at: ago(19), posId: 'POS1' }] },
        { ...base, id: `d${k}`, type: 'DEFICIENCY', coachId: coach, category: 'WATER', description: 'No water', stationCode: 'NDLS', reportedAt: ago(10), deficiencyId: 880_000_000 + k },
        { ...base, id: `x${k}`, type: 'DEFICIENCY_CLOSE', deficiencyId: 880_000_000 + k, closedAt: ago(5) },
        { ...base, id: `f${k}`, type: 'SIGN_OFF', at: ago(0) },
      ];
      if (vacancy) records.push({ ...base, id: `b${k}`, type: 'BERTH_RELEASE', coachId: coach, berthNo: vacancy.berth_no, fromStation: vacancy.from_station, at: ago(15) });
      if (tdr) records.push({ ...base, id: `t${k}`, type: 'TDR_REMARK', tdrId: tdr, remark: 'Seen on board' });
      return records;
    };
    // The unbroken batch is stored: the fuzzer starts from records that pass every rule.
    const first = await app.inject({ method: 'POST', url: '/api/hht/sync', headers: { authorization: `Bearer ${token}` }, payload: { batchId: 'fz-valid', records: valid() } });
    expect(first.statusCode, first.body).toBe(200);

    const rng = new Rng(`${SEED}:sync:${driver}`);
    const f: FuzzContext = { rng, plausible: [t.today, coach, psgn, beat.beat_id, 'NDLS', ago(1), 0, 1] };
    const failures: string[] = [];
    const statuses = new Map<number, number>();
    const started = performance.now();
    for (let i = 0; i < SYNC_PER_DRIVER; i++) {
      const { body, field } = fuzzSyncBody(f, valid);
      const req: InjectOptions = {
        method: 'POST', url: '/api/hht/sync', payload: JSON.stringify(body),
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      };
      await probe(req, `#${i} ${field}`, failures, statuses);
    }
    const seconds = (performance.now() - started) / 1000;
    console.log(`fuzz sync ${driver}: seed ${SEED}, ${SYNC_PER_DRIVER} batches in ${seconds.toFixed(1)} s, statuses ${JSON.stringify(Object.fromEntries(statuses))}`);
    expect(failures, failures.slice(0, 20).join('\n')).toEqual([]);
    expect([...statuses.keys()].filter((s) => s >= 500)).toEqual([]);
    // Both kinds of answer occur: the fuzzer refuses most batches and stores those its change left valid.
    expect(statuses.get(400) ?? 0).toBeGreaterThan(SYNC_PER_DRIVER / 2);
    expect(statuses.get(200) ?? 0).toBeGreaterThan(0);
  }, 300_000);
});
