import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { TEST_DRIVERS, type TestDb } from '../support/db';
import { cloneSeededTestDb } from '../support/seeded';
import { buildTestApp } from '../support/app';
import { loginAs, type SignedIn } from '../support/login';
import { manualClock } from '../../src/server/clock';
import { ConfigError, loadConfig } from '../../src/server/config';
import { ingestBatch } from '../../src/server/hht/ingest';
import { HHT_SYNC_MESSAGES, type IssuedCredential, type SyncResponse } from '../../src/shared/hht-sync';
import { EXTRAS_USERS, insertExtrasUsers, istNoon } from './extras-users';

interface BeatRow {
  beat_id: number;
  run_id: number;
  device_id: string;
  coaches: string[];
}

/** What a device record must mean (docs/hht-sync.md): refused by field with nothing stored, or stored. */
describe.each(TEST_DRIVERS)('HHT sync record rules on %s', (driver) => {
  let t: TestDb & { today: string };
  let app: FastifyInstance;
  let su: SignedIn;
  let beat: BeatRow;
  /** A coach of the beat's run that the beat does not work, and one of its passengers. */
  let otherCoach: string;
  let otherCoachPsgn: number;
  let ownPsgn: number;
  let capacity: number;
  let token: string;
  const clock = manualClock(new Date(0));
  let batchNo = 0;

  const sync = (payload: object, headers: Record<string, string> = {}) =>
    app.inject({ method: 'POST', url: '/api/hht/sync', headers: { authorization: `Bearer ${token}`, ...headers }, payload });
  const storedRows = async (): Promise<number> =>
    Number((await t.db.query<{ n: number }>(
      'SELECT (SELECT count(*) FROM hht_records) + (SELECT count(*) FROM hht_sync_batches) + (SELECT count(*) FROM checking_events) + (SELECT count(*) FROM efts) AS n',
    )).rows[0]?.n);
  /** Sends one record in a new batch; on a 400 checks that nothing at all was stored. */
  const one = async (record: object): Promise<LightMyRequestResponse> => {
    const before = await storedRows();
    const res = await sync({ batchId: `rules-${++batchNo}`, records: [{ id: `r-${batchNo}`, beatId: beat.beat_id, ...record }] });
    expect(res.statusCode, res.body).not.toBe(500);
    if (res.statusCode === 400) expect(await storedRows()).toBe(before);
    return res;
  };
  const fieldsOf = (res: LightMyRequestResponse): { field: string; reason: string }[] => res.json<{ fields: { field: string; reason: string }[] }>().fields;
  /** Now (the server's clock) less `min` minutes, ISO. */
  const ago = (min: number): string => new Date(clock.now().getTime() - min * 60_000).toISOString();

  beforeAll(async () => {
    t = await cloneSeededTestDb(driver);
    clock.set(istNoon(t.today));
    app = await buildTestApp(t.db, { clock, config: { deviceAuthFailuresPerMin: 5 } });
    await insertExtrasUsers(t.db);
    su = await loginAs(app, EXTRAS_USERS.su.userId);
    // A beat of yesterday's run that does not work every coach of the run.
    beat = (await t.db.query<BeatRow>(
      `SELECT b.beat_id, b.run_id, b.device_id, b.coaches FROM beats b JOIN devices d USING (device_id)
       WHERE d.status = 'IN_SERVICE' AND b.run_id IN (SELECT run_id FROM train_runs WHERE start_date = $1::date - 1)
         AND EXISTS (SELECT 1 FROM run_coaches c WHERE c.run_id = b.run_id AND NOT c.coach_id = ANY(b.coaches))
       ORDER BY b.beat_id LIMIT 1`,
      [t.today],
    )).rows[0] as BeatRow;
    const other = (await t.db.query<{ coach_id: string; psgn_id: number }>(
      `SELECT p.coach_id, p.psgn_id FROM passengers p WHERE p.run_id = $1 AND p.coach_id IS NOT NULL AND NOT p.coach_id = ANY($2) ORDER BY psgn_id LIMIT 1`,
      [beat.run_id, beat.coaches],
    )).rows[0];
    otherCoach = String(other?.coach_id);
    otherCoachPsgn = Number(other?.psgn_id);
    ownPsgn = Number((await t.db.query<{ id: number }>('SELECT psgn_id AS id FROM passengers WHERE run_id = $1 AND coach_id = $2 ORDER BY psgn_id LIMIT 1', [beat.run_id, beat.coaches[0]])).rows[0]?.id);
    capacity = Number((await t.db.query<{ c: number }>('SELECT capacity AS c FROM run_coaches WHERE run_id = $1 AND coach_id = $2', [beat.run_id, beat.coaches[0]])).rows[0]?.c);
    const res = await app.inject({ method: 'POST', url: '/api/hht/credentials/issue', headers: su.headers(), payload: { deviceId: beat.device_id } });
    token = res.json<IssuedCredential>().token;
  });
  afterAll(async () => {
    await app?.close();
    await t?.drop();
  });

  it('a CHECK names a coach of its beat: by coachId, newCoachId or the passenger it marks', async () => {
    const coach = beat.coaches[0] as string;
    const check = { type: 'CHECK', eventType: 'NT', deviceTime: ago(10) };
    const list = beat.coaches.join(', ');
    expect(fieldsOf(await one({ ...check, psgnId: otherCoachPsgn, coachId: otherCoach }))).toEqual([
      { field: 'records[0].coachId', reason: `is not a coach of beat ${beat.beat_id} (${list})` },
      { field: 'records[0].psgnId', reason: `is a passenger of coach ${otherCoach}, not of beat ${beat.beat_id} (${list})` },
    ]);
    // Naming an own coach does not make another coach's passenger one's own.
    expect(fieldsOf(await one({ ...check, psgnId: otherCoachPsgn, coachId: coach }))).toEqual([
      { field: 'records[0].psgnId', reason: `is a passenger of coach ${otherCoach}, not of beat ${beat.beat_id} (${list})` },
    ]);
    expect(fieldsOf(await one({ ...check, eventType: 'SHIFTED', psgnId: ownPsgn, coachId: coach, newCoachId: otherCoach, newBerthNo: 3 }))).toEqual([
      { field: 'records[0].newCoachId', reason: `is not a coach of beat ${beat.beat_id} (${list})` },
    ]);
    expect(fieldsOf(await one({ ...check, psgnId: ownPsgn, coachId: coach, berthNo: capacity + 1 }))).toEqual([
      { field: 'records[0].berthNo', reason: `is not a berth of coach ${coach} (1 to ${capacity})` },
    ]);
    expect((await one({ ...check, psgnId: ownPsgn, coachId: coach, berthNo: capacity })).statusCode).toBe(200);
  });

  it('a passenger shifted twice in one batch (a swap and its undoing) ends on the later shift by device time, whatever the records\' order', async () => {
    const coach = beat.coaches[0] as string;
    const berthOf = async (): Promise<number> =>
      Number((await t.db.query<{ b: number }>('SELECT berth_no AS b FROM passengers WHERE run_id = $1 AND psgn_id = $2', [beat.run_id, ownPsgn])).rows[0]?.b);
    const shift = (id: string, to: number, minAgo: number) =>
      ({ id, beatId: beat.beat_id, type: 'CHECK', eventType: 'SHIFTED', psgnId: ownPsgn, coachId: coach, newCoachId: coach, newBerthNo: to, deviceTime: ago(minAgo) });
    for (const [first, later] of [[capacity - 1, capacity - 2], [capacity - 2, capacity - 1]] as const) {
      const n = ++batchNo;
      // The later shift is sent first: the batch's order is not the order the TTE worked in.
      const res = await sync({ batchId: `shift-twice-${n}`, records: [shift(`shift-b-${n}`, later, 5), shift(`shift-a-${n}`, first, 15)] });
      expect(res.statusCode, res.body).toBe(200);
      expect(await berthOf()).toBe(later);
    }
  });

  it('a check made before another terminal moved the passenger is stored, though that move synced first; one made after is refused', async () => {
    // Two beats of one run (yesterday's), each with its device, working different coaches, and a passenger of the first.
    const pair = (await t.db.query<{ run_id: number; beat_id: number; device_id: string; coaches: string[]; mover_beat: number; mover_device: string; into: string }>(
      `SELECT a.run_id, a.beat_id, a.device_id, a.coaches, m.beat_id AS mover_beat, m.device_id AS mover_device, m.coaches[1] AS into
         FROM beats a JOIN beats m ON m.run_id = a.run_id AND m.beat_id <> a.beat_id AND NOT m.coaches && a.coaches
         JOIN devices d ON d.device_id = a.device_id AND d.status = 'IN_SERVICE'
        WHERE a.run_id IN (SELECT run_id FROM train_runs WHERE start_date = $1::date - 1) AND m.device_id IS NOT NULL
        ORDER BY a.beat_id LIMIT 1`,
      [t.today],
    )).rows[0];
    expect(pair, 'two beats of one run with devices and different coaches').toBeDefined();
    if (!pair) return;
    const psgn = Number((await t.db.query<{ id: number }>(
      'SELECT psgn_id AS id FROM passengers WHERE run_id = $1 AND coach_id = $2 ORDER BY psgn_id DESC LIMIT 1', [pair.run_id, pair.coaches[0]],
    )).rows[0]?.id);
    const issued = await app.inject({ method: 'POST', url: '/api/hht/credentials/issue', headers: su.headers(), payload: { deviceId: pair.device_id } });
    const own = issued.json<IssuedCredential>().token;
    // The other terminal allots the passenger a berth in its coach 30 minutes ago, and syncs it first.
    const allot = await ingestBatch(t.db, {
      deviceId: pair.mover_device, batchId: `move-${driver}`, receivedAt: clock.now(), syncTimes: [ago(1)],
      records: [{ id: `move-${driver}`, type: 'ALLOTMENT', beatId: Number(pair.mover_beat), psgnId: psgn, coachId: pair.into, berthNo: 1,
        fromStation: 'NDLS', toStation: 'BCT', at: ago(30) }],
    });
    expect(allot.stored).toBe(1);
    const mark = (id: string, deviceTime: string) => app.inject({
      method: 'POST', url: '/api/hht/sync', headers: { authorization: `Bearer ${own}` },
      payload: { batchId: id, records: [{ id, beatId: Number(pair.beat_id), type: 'CHECK', eventType: 'O', psgnId: psgn, deviceTime }] },
    });
    // Marked on the first beat 40 minutes ago, before the move: where the passenger was then.
    const before = await mark(`before-move-${driver}`, ago(40));
    expect(before.statusCode, before.body).toBe(200);
    // Marked 20 minutes ago, after the move: no longer a passenger of that beat.
    const after = await mark(`after-move-${driver}`, ago(20));
    expect(after.statusCode).toBe(400);
    expect(fieldsOf(after)).toEqual([
      { field: 'records[0].psgnId', reason: `is a passenger of coach ${pair.into}, not of beat ${pair.beat_id} (${pair.coaches.join(', ')})` },
    ]);
  });

  it('an ALLOTMENT, a BERTH_RELEASE, an EFT and a DEFICIENCY name coaches of the beat', async () => {
    const reason = `is not a coach of beat ${beat.beat_id} (${beat.coaches.join(', ')})`;
    const records = [
      { type: 'ALLOTMENT', psgnId: ownPsgn, coachId: otherCoach, berthNo: 5, fromStation: 'NDLS', toStation: 'BCT', at: ago(5) },
      { type: 'BERTH_RELEASE', coachId: otherCoach, berthNo: 5, fromStation: 'NDLS', at: ago(5) },
      { type: 'EFT', eftNo: `EFRULES${driver}`, psgnName: 'A B', coachId: otherCoach, fromStation: 'NDLS', toStation: 'BCT', reason: 'TICKETLESS',
        excessFare: 100, excessCharge: 250, total: 350, paymentMode: 'CASH', issuedAt: ago(5) },
      { type: 'DEFICIENCY', coachId: otherCoach, category: 'WATER', description: 'dry', stationCode: 'NDLS', reportedAt: ago(5) },
    ];
    for (const r of records) expect(fieldsOf(await one(r))).toContainEqual({ field: 'records[0].coachId', reason });
  });

  it('every time lies between the run\'s scheduled start less a day and the sync moment plus the clock tolerance', async () => {
    const coach = beat.coaches[0] as string;
    const check = { type: 'CHECK', eventType: 'O', psgnId: ownPsgn, coachId: coach };
    const early = await one({ ...check, deviceTime: '1970-01-01T00:00:00Z' });
    expect(fieldsOf(early)).toEqual([{ field: 'records[0].deviceTime', reason: expect.stringMatching(/^is before the run's scheduled start less a day \(/) }]);
    const late = await one({ ...check, deviceTime: '2099-01-01T00:00:00+05:30' });
    expect(fieldsOf(late)).toEqual([{ field: 'records[0].deviceTime', reason: expect.stringMatching(/^is after the moment of the sync plus 300 s of device clock tolerance \(/) }]);
    expect(fieldsOf(await one({ type: 'SIGN_OFF', at: '2099-01-01T00:00:00Z' }))[0]?.field).toBe('records[0].at');
    // Minutes ahead of the server: within the tolerance stored, beyond it refused.
    expect((await one({ ...check, deviceTime: ago(-4) })).statusCode).toBe(200);
    expect(fieldsOf(await one({ ...check, deviceTime: ago(-6) }))[0]?.field).toBe('records[0].deviceTime');
    expect(fieldsOf(await one({ type: 'DEFICIENCY', coachId: coach, category: 'AC', description: 'x', stationCode: 'NDLS', reportedAt: ago(1), closedAt: ago(-60) }))[0]?.field)
      .toBe('records[0].closedAt');
    // HHT_DEVICE_CLOCK_SKEW_S sets the tolerance: with 0, a minute ahead is refused.
    const strict = await buildTestApp(t.db, { clock, config: { deviceClockSkewS: 0 } });
    try {
      const ahead = await strict.inject({ method: 'POST', url: '/api/hht/sync', headers: { authorization: `Bearer ${token}` },
        payload: { batchId: 'strict-1', records: [{ id: 'strict-1', beatId: beat.beat_id, ...check, deviceTime: ago(-1) }] } });
      expect(fieldsOf(ahead)).toEqual([{ field: 'records[0].deviceTime', reason: expect.stringMatching(/^is after the moment of the sync plus 0 s of device clock tolerance/) }]);
    } finally {
      await strict.close();
    }
    // The last sync a report shows is never after now.
    const last = (await t.db.query<{ at: Date | string }>('SELECT max(device_time) AS at FROM checking_events WHERE beat_id = $1', [beat.beat_id])).rows[0];
    expect(new Date(last?.at ?? 0).getTime()).toBeLessThanOrEqual(clock.now().getTime() + 300_000);
  });

  it('an EFT adds up, its payments follow its issue, amounts have at most two decimals', async () => {
    let n = 0;
    const eft = (over: object) => ({
      type: 'EFT', eftNo: `EFAMT${driver}${++n}`, psgnName: 'A B', fromStation: 'NDLS', toStation: 'BCT', reason: 'TICKETLESS',
      excessFare: 300, excessCharge: 250, total: 550, paymentMode: 'UPI', issuedAt: ago(30), ...over,
    });
    const pay = (over: object) => ({ txnId: `TXAMT${driver}${++n}`, amount: 550, mode: 'UPI', status: 'SUCCESS', at: ago(29), posId: 'P1', ...over });
    expect(fieldsOf(await one(eft({ total: 750 })))).toEqual([{ field: 'records[0].total', reason: 'must be excessFare + excessCharge (550)' }]);
    expect(fieldsOf(await one(eft({ payments: [pay({}), pay({ at: ago(31) })] })))).toEqual([
      { field: 'records[0].payments[1].at', reason: "is before the EFT's issuedAt" },
    ]);
    for (const bad of [-1, 10.005, 1e-7]) {
      expect(fieldsOf(await one(eft({ excessCharge: bad })))).toContainEqual({
        field: 'records[0].excessCharge', reason: 'must be an amount in rupees from 0 to 99999999.99 with at most 2 decimals',
      });
    }
    // Decimals that binary floating point cannot hold exactly still add up.
    const ok = await one(eft({ excessFare: 0.29, excessCharge: 250.01, total: 250.3, payments: [pay({ amount: 250.3 })] }));
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it('values the database would refuse are refused first, by field (never a 500)', async () => {
    const coach = beat.coaches[0] as string;
    const check = { type: 'CHECK', eventType: 'O', psgnId: ownPsgn, coachId: coach };
    for (const time of ['2026-02-29T10:00:00Z', '2026-02-30T10:00:00Z', '2026-04-31T10:00:00+05:30', '2026-03-15T10:00:00+16:00',
      '2026-03-15T10:00:00-23:00', '0000-03-15T10:00:00Z', '2026-03-15T24:00:00Z', '2026-03-15T10:60:00Z', '2026-03-15T10:00:60Z']) {
      expect(fieldsOf(await one({ ...check, deviceTime: time })), time).toEqual([
        { field: 'records[0].deviceTime', reason: expect.stringMatching(/^must be an ISO 8601 time with a zone/) },
      ]);
    }
    for (const berthNo of [2 ** 31, 0, -1, 1.5]) {
      expect(fieldsOf(await one({ ...check, berthNo, deviceTime: ago(1) }))).toEqual([{ field: 'records[0].berthNo', reason: 'must be a berth number from 1 to 999' }]);
    }
    expect(fieldsOf(await one({ ...check, psgnId: 2 ** 63, deviceTime: ago(1) }))[0]?.field).toBe('records[0].psgnId');
    const surrogate = await one({ type: 'DEFICIENCY', coachId: coach, category: 'AC', description: 'bad \ud800 text', stationCode: 'NDLS', reportedAt: ago(1) });
    expect(fieldsOf(surrogate)).toEqual([{ field: 'records[0].description', reason: 'must not contain NUL characters or lone surrogates' }]);
  });

  it('a batch id used again with other records is a 409 naming the batch; the same records stay a replay', async () => {
    const coach = beat.coaches[0] as string;
    const record = { id: 'dup-1', type: 'CHECK', beatId: beat.beat_id, eventType: 'O', psgnId: ownPsgn, coachId: coach, deviceTime: ago(3) };
    const first = await sync({ batchId: 'dup-batch', records: [record] });
    expect(first.statusCode, first.body).toBe(200);
    // The same records, their fields in another order: a replay.
    const reordered = Object.fromEntries(Object.entries(record).reverse());
    const replay = await sync({ batchId: 'dup-batch', records: [reordered] });
    expect(replay.json<SyncResponse>()).toEqual({ ...first.json<SyncResponse>(), replayed: true });
    const before = await storedRows();
    const other = await sync({ batchId: 'dup-batch', records: [record, { ...record, id: 'dup-2', deviceTime: ago(2) }] });
    expect(other.statusCode).toBe(409);
    expect(other.json()).toMatchObject({ message: expect.stringContaining('dup-batch'), fields: [{ field: 'batchId', reason: 'dup-batch was stored before with other records' }] });
    expect(await storedRows()).toBe(before);
    // The live feed's own batches (planned sync times) may reuse a tag after an interrupted seed: still a replay.
    const feed = { deviceId: beat.device_id, batchId: 'feed:tag', receivedAt: clock.now() };
    const planned = (id: string) => ({ ...record, id, type: 'CHECK' as const, eventType: 'O' as const });
    await ingestBatch(t.db, { ...feed, records: [planned('feed-1')], syncTimes: [ago(1)] });
    expect(await ingestBatch(t.db, { ...feed, records: [planned('feed-2')], syncTimes: [ago(1)] })).toMatchObject({ replayed: true });
  });

  it('failed device credentials are limited per address (429 with Retry-After); a valid one from there still syncs', async () => {
    const ip = '10.77.1.9';
    const bad = (n: number) => app.inject({ method: 'POST', url: '/api/hht/sync', headers: { authorization: `Bearer ${'x'.repeat(42)}${n}`, 'x-forwarded-for': ip }, payload: {} });
    const statuses: number[] = [];
    let last: LightMyRequestResponse | undefined;
    for (let i = 0; i < 8; i++) {
      last = await bad(i);
      statuses.push(last.statusCode);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429, 429]);
    expect(Number(last?.headers['retry-after'])).toBeGreaterThan(0);
    expect(last?.json().message).toMatch(/^Too many invalid device credentials from this address/);
    expect(last?.json().message).toBe(HHT_SYNC_MESSAGES.tooManyFailures(Number(last?.headers['retry-after'])));
    const good = await sync({ batchId: 'good-after-guessing', records: [{ id: 'g-1', type: 'SIGN_ON', beatId: beat.beat_id, at: ago(600) }] }, { 'x-forwarded-for': ip });
    expect(good.statusCode, good.body).toBe(200);
    // Another address is not limited by this one's failures; the next minute the address may try again.
    expect((await app.inject({ method: 'POST', url: '/api/hht/sync', headers: { authorization: `Bearer ${'y'.repeat(43)}`, 'x-forwarded-for': '10.77.1.10' }, payload: {} })).statusCode).toBe(401);
    clock.advance(61_000);
    expect((await bad(99)).statusCode).toBe(401);
  });
});

describe('device settings', () => {
  it('HHT_DEVICE_CLOCK_SKEW_S and HHT_DEVICE_AUTH_FAILURES have defaults and are validated', () => {
    expect(loadConfig({})).toMatchObject({ deviceClockSkewS: 300, deviceAuthFailuresPerMin: 20 });
    expect(loadConfig({ HHT_DEVICE_CLOCK_SKEW_S: '0', HHT_DEVICE_AUTH_FAILURES: '5' })).toMatchObject({ deviceClockSkewS: 0, deviceAuthFailuresPerMin: 5 });
    try {
      loadConfig({ HHT_DEVICE_CLOCK_SKEW_S: '-5', HHT_DEVICE_AUTH_FAILURES: '0' });
      expect.unreachable();
    } catch (err) {
      expect((err as ConfigError).problems).toEqual([
        'HHT_DEVICE_CLOCK_SKEW_S must be a whole number from 0 to 86400, got "-5"',
        'HHT_DEVICE_AUTH_FAILURES must be a whole number from 1 to 100000, got "0"',
      ]);
    }
  });
});
