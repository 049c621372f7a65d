import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { TEST_DRIVERS, type TestDb } from '../support/db';
import { cloneSeededTestDb } from '../support/seeded';
import { buildTestApp } from '../support/app';
import { loginAs, type SignedIn } from '../support/login';
import { manualClock } from '../../src/server/clock';
import { ConfigError, loadConfig } from '../../src/server/config';
import type { ConsistResponse } from '../../src/shared/consist';
import { EXTRAS_USERS, insertExtrasUsers, istNoon } from './extras-users';

/** A stand-in for the external consist service: behaviour chosen per test. */
function fakeService(): { server: Server; url: Promise<string>; seen: { auth?: string; body?: unknown }[]; mode: { kind: 'ok' | 'fail' | 'slow' | 'garbage' } } {
  const seen: { auth?: string; body?: unknown }[] = [];
  const mode: { kind: 'ok' | 'fail' | 'slow' | 'garbage' } = { kind: 'ok' };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let data = '';
    req.on('data', (c: Buffer) => (data += c.toString()));
    req.on('end', () => {
      seen.push({ auth: req.headers.authorization, body: JSON.parse(data || '{}') });
      if (mode.kind === 'fail') return void res.writeHead(500).end('boom');
      if (mode.kind === 'garbage') return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"coaches": "lots"}');
      const send = () =>
        res.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({ coaches: [{ seq: 2, coachId: 'B1', class: '3A', capacity: 72 }, { seq: 1, coachId: 'A1', class: '2A', capacity: 54, extra: 'ignored' }] }),
        );
      if (mode.kind === 'slow') setTimeout(send, 1500);
      else send();
    });
  });
  const url = new Promise<string>((resolve) => server.listen(0, '127.0.0.1', () => {
    const a = server.address();
    resolve(`http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}/consist`);
  }));
  return { server, url, seen, mode };
}

describe.each(TEST_DRIVERS)('coach consist on %s', (driver) => {
  let t: TestDb & { today: string };
  let app: FastifyInstance;
  let remoteApp: FastifyInstance;
  let su: SignedIn;
  let div: SignedIn;
  let bct: SignedIn;
  let remoteSu: SignedIn;
  const fake = fakeService();

  beforeAll(async () => {
    t = await cloneSeededTestDb(driver);
    const clock = manualClock(istNoon(t.today));
    app = await buildTestApp(t.db, { clock });
    remoteApp = await buildTestApp(t.db, { clock, config: { consistUrl: await fake.url, consistToken: 'secret-token-1', consistTimeoutMs: 400 } });
    await insertExtrasUsers(t.db);
    su = await loginAs(app, EXTRAS_USERS.su.userId);
    div = await loginAs(app, EXTRAS_USERS.div.userId);
    bct = await loginAs(app, EXTRAS_USERS.bct.userId);
    remoteSu = await loginAs(remoteApp, EXTRAS_USERS.za.userId); // another user: one live session per user
  });
  afterAll(async () => {
    await app?.close();
    await remoteApp?.close();
    fake.server.close();
    await t?.drop();
  });

  const ask = (a: FastifyInstance, s: SignedIn, payload: object) => a.inject({ method: 'POST', url: '/api/coachConsist', headers: s.headers(), payload });
  const dliTrain = async () =>
    (await t.db.query<{ train_no: string }>("SELECT r.train_no FROM train_runs r JOIN trains t ON t.train_no = r.train_no WHERE t.div_code = 'DLI' AND r.start_date = $1::date LIMIT 1", [t.today])).rows[0]?.train_no ?? '';

  it('answers from run_coaches by default, in coach order, with trainEvent C', async () => {
    const trainNo = await dliTrain();
    const res = await ask(app, div, { trainNo: ` ${trainNo} `, startDate: t.today });
    expect(res.statusCode).toBe(200);
    const body = res.json<ConsistResponse>();
    expect(body).toMatchObject({ trainNo, startDate: t.today, trainEvent: 'C' });
    const expected = (await t.db.query<{ coach_id: string }>(
      'SELECT rc.coach_id FROM run_coaches rc JOIN train_runs r ON r.run_id = rc.run_id WHERE r.train_no = $1 AND r.start_date = $2::date ORDER BY rc.seq',
      [trainNo, t.today],
    )).rows.map((r) => r.coach_id);
    expect(body.coaches.map((c) => c.coachId)).toEqual(expected);
    expect(body.coaches[0]).toMatchObject({ seq: expect.any(Number), class: expect.any(String), capacity: expect.any(Number) });
  });

  it('refuses bad input (400), other areas trains and missing runs (404)', async () => {
    const trainNo = await dliTrain();
    const bad = await ask(app, su, { trainNo: '12A45', startDate: '2026-02-30x', trainEvent: 'CC' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields.map((f: { field: string }) => f.field).sort()).toEqual(['startDate', 'trainEvent', 'trainNo']);
    expect((await ask(app, bct, { trainNo, startDate: t.today })).statusCode).toBe(404);
    const none = await ask(app, su, { trainNo, startDate: '2020-01-01' });
    expect(none.statusCode).toBe(404);
    expect(none.json().message).toContain(trainNo);
  });

  it('calls the configured service with the body and the auth header', async () => {
    const trainNo = await dliTrain();
    fake.mode.kind = 'ok';
    const res = await ask(remoteApp, remoteSu, { trainNo, startDate: t.today, trainEvent: 'D' });
    expect(res.statusCode).toBe(200);
    expect(res.json<ConsistResponse>().coaches).toEqual([
      { seq: 1, coachId: 'A1', class: '2A', capacity: 54 },
      { seq: 2, coachId: 'B1', class: '3A', capacity: 72 },
    ]);
    expect(fake.seen.at(-1)).toEqual({ auth: 'Bearer secret-token-1', body: { trainNo, startDate: t.today, trainEvent: 'D' } });
  });

  it('answers 502 with a clear message when the service fails, times out or talks nonsense', async () => {
    const trainNo = await dliTrain();
    for (const [kind, text] of [['fail', 'HTTP 500'], ['slow', 'did not answer within 0.4 s'], ['garbage', 'readable coach list']] as const) {
      fake.mode.kind = kind;
      const res = await ask(remoteApp, remoteSu, { trainNo, startDate: t.today });
      expect(res.statusCode, kind).toBe(502);
      expect(res.json().message).toContain(text);
    }
  });

  it('validates the consist settings', () => {
    expect(() => loadConfig({ HHT_CONSIST_URL: 'ftp://consist' })).toThrow(ConfigError);
    expect(() => loadConfig({ HHT_CONSIST_TOKEN: 'abc' })).toThrow(/HHT_CONSIST_URL/);
    expect(() => loadConfig({ HHT_CONSIST_URL: 'https://consist.example/api', HHT_CONSIST_TIMEOUT_MS: '5s' })).toThrow(/HHT_CONSIST_TIMEOUT_MS/);
    expect(loadConfig({ HHT_CONSIST_URL: 'https://consist.example/api', HHT_CONSIST_TOKEN: 't0k' })).toMatchObject({
      consistUrl: 'https://consist.example/api', consistToken: 't0k', consistTimeoutMs: 5000,
    });
  });
});
