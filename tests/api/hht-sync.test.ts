import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { TEST_DRIVERS, type TestDb } from '../support/db';
import { cloneSeededTestDb } from '../support/seeded';
import { buildTestApp } from '../support/app';
import { loginAs, type SignedIn } from '../support/login';
import { manualClock } from '../../src/server/clock';
import { HHT_SYNC_MESSAGES, type HhtRecord, type IssuedCredential, type SyncResponse } from '../../src/shared/hht-sync';
import { EXTRAS_USERS, insertExtrasUsers, istNoon } from './extras-users';

interface BeatRow {
  beat_id: number;
  run_id: number;
  device_id: string;
  coaches: string[];
}

describe.each(TEST_DRIVERS)('HHT sync API on %s', (driver) => {
  let t: TestDb & { today: string };
  let app: FastifyInstance;
  let su: SignedIn;
  let du: SignedIn;
  let beat: BeatRow;
  let otherBeat: BeatRow;
  let psgns: number[];
  let foreignPsgn: number;
  let token: string;

  const count = async (sql: string, params: unknown[] = []): Promise<number> =>
    Number((await t.db.query<{ n: number }>(sql, params)).rows[0]?.n);
  const sync = (auth: string | null, payload: object) =>
    app.inject({ method: 'POST', url: '/api/hht/sync', headers: auth ? { authorization: `Bearer ${auth}` } : {}, payload });
  const post = (s: SignedIn, url: string, payload: object) => app.inject({ method: 'POST', url, headers: s.headers(), payload });
  const issue = async (deviceId: string): Promise<string> => {
    const res = await post(su, '/api/hht/credentials/issue', { deviceId });
    expect(res.statusCode).toBe(200);
    return res.json<IssuedCredential>().token;
  };

  beforeAll(async () => {
    t = await cloneSeededTestDb(driver);
    app = await buildTestApp(t.db, { clock: manualClock(istNoon(t.today)) });
    await insertExtrasUsers(t.db);
    su = await loginAs(app, EXTRAS_USERS.su.userId);
    du = await loginAs(app, EXTRAS_USERS.du.userId);
    const beats = await t.db.query<BeatRow>(
      `SELECT b.beat_id, b.run_id, b.device_id, b.coaches FROM beats b JOIN devices d USING (device_id)
       WHERE d.status = 'IN_SERVICE' AND b.run_id IN (SELECT run_id FROM train_runs WHERE start_date = $1::date - 1)
       ORDER BY b.beat_id LIMIT 2`,
      [t.today],
    );
    [beat, otherBeat] = beats.rows as [BeatRow, BeatRow];
    expect(beat.device_id).not.toBe(otherBeat.device_id);
    psgns = (
      await t.db.query<{ id: number }>('SELECT psgn_id AS id FROM passengers WHERE run_id = $1 AND coach_id = ANY($2) ORDER BY psgn_id LIMIT 3', [beat.run_id, beat.coaches])
    ).rows.map((r) => Number(r.id));
    foreignPsgn = Number((await t.db.query<{ id: number }>('SELECT psgn_id AS id FROM passengers WHERE run_id <> $1 LIMIT 1', [beat.run_id])).rows[0]?.id);
    token = await issue(beat.device_id);
  });
  afterAll(async () => {
    await app?.close();
    await t?.drop();
  });

  const at = (min: number): string => new Date(istNoon(t.today).getTime() - min * 60_000).toISOString();
  const goodRecords = (prefix: string): HhtRecord[] => [
    { id: `${prefix}-1`, type: 'CHECK', beatId: beat.beat_id, eventType: 'O', psgnId: psgns[0] ?? 0, coachId: beat.coaches[0] ?? null, deviceTime: at(30) },
    { id: `${prefix}-2`, type: 'CHECK', beatId: beat.beat_id, eventType: 'NT', psgnId: psgns[1] ?? 0, deviceTime: at(29) },
    {
      id: `${prefix}-3`, type: 'EFT', beatId: beat.beat_id, eftNo: `EFTEST${prefix}`, psgnName: 'Test Passenger', fromStation: 'NDLS', toStation: 'BCT',
      reason: 'TICKETLESS', excessFare: 500, excessCharge: 250, total: 750, paymentMode: 'UPI', issuedAt: at(20),
      payments: [{ txnId: `UPITEST${prefix}`, amount: 750, mode: 'UPI', status: 'SUCCESS', at: at(19), posId: 'POS1' }],
    },
    { id: `${prefix}-4`, type: 'DEFICIENCY', beatId: beat.beat_id, coachId: beat.coaches[0] ?? 'B1', category: 'WATER', description: 'No water', stationCode: 'NDLS', reportedAt: at(10) },
  ];

  it('refuses a batch without a valid device credential', async () => {
    const none = await sync(null, { batchId: 'b0', records: goodRecords('n') });
    expect(none.statusCode).toBe(401);
    expect(none.json().message).toBe(HHT_SYNC_MESSAGES.noCredential);
    const wrong = await sync('x'.repeat(43), { batchId: 'b0', records: goodRecords('n') });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().message).toBe(HHT_SYNC_MESSAGES.badCredential);
  });

  it('stores a batch in one go and answers a replay the same, storing nothing twice', async () => {
    const events = await count('SELECT count(*)::int AS n FROM checking_events');
    const first = await sync(token, { batchId: 'batch-1', records: goodRecords('a') });
    expect(first.statusCode).toBe(200);
    const answer = first.json<SyncResponse>();
    expect(answer).toMatchObject({ batchId: 'batch-1', received: 4, stored: 4, duplicates: 0, replayed: false });
    expect(await count('SELECT count(*)::int AS n FROM checking_events')).toBe(events + 2);
    expect(await count("SELECT count(*)::int AS n FROM efts WHERE eft_no = 'EFTESTa' AND device_id = $1 AND run_id = $2", [beat.device_id, beat.run_id])).toBe(1);
    expect(await count("SELECT count(*)::int AS n FROM digital_payments WHERE txn_id = 'UPITESTa'")).toBe(1);
    expect(await count("SELECT count(*)::int AS n FROM coach_deficiencies WHERE description = 'No water' AND run_id = $1", [beat.run_id])).toBe(1);
    const p1 = (await t.db.query<{ mark: string }>('SELECT mark FROM passengers WHERE psgn_id = $1', [psgns[1]])).rows[0];
    expect(p1?.mark).toBe('NT');
    const synced = (await t.db.query<{ at: Date }>('SELECT last_sync_at AS at FROM devices WHERE device_id = $1', [beat.device_id])).rows[0];
    expect(new Date(String(synced?.at instanceof Date ? synced.at.toISOString() : synced?.at)).toISOString()).toBe(istNoon(t.today).toISOString());

    // The answer was lost: the terminal sends the same batch again.
    const replay = await sync(token, { batchId: 'batch-1', records: goodRecords('a') });
    expect(replay.statusCode).toBe(200);
    expect(replay.json<SyncResponse>()).toEqual({ ...answer, replayed: true });
    // Or it sends the same records in a new batch.
    const again = await sync(token, { batchId: 'batch-2', records: goodRecords('a') });
    expect(again.json<SyncResponse>()).toMatchObject({ received: 4, stored: 0, duplicates: 4 });
    expect(await count('SELECT count(*)::int AS n FROM checking_events')).toBe(events + 2);
    expect(await count("SELECT count(*)::int AS n FROM efts WHERE eft_no = 'EFTESTa'")).toBe(1);
  });

  it('refuses a batch with one bad record as a whole, naming the record and field', async () => {
    const events = await count('SELECT count(*)::int AS n FROM checking_events');
    const records = goodRecords('b');
    records[1] = { id: 'b-2', type: 'CHECK', beatId: beat.beat_id, eventType: 'O', psgnId: foreignPsgn, deviceTime: at(5) };
    const res = await sync(token, { batchId: 'batch-bad', records });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toEqual([{ field: 'records[1].psgnId', reason: "is not a passenger of the beat's train run" }]);
    expect(await count('SELECT count(*)::int AS n FROM checking_events')).toBe(events);
    expect(await count("SELECT count(*)::int AS n FROM efts WHERE eft_no = 'EFTESTb'")).toBe(0);
    expect(await count("SELECT count(*)::int AS n FROM hht_sync_batches WHERE batch_id = 'batch-bad'")).toBe(0);

    const shape = await sync(token, {
      batchId: 'batch-bad',
      records: [{ ...records[0], deviceTime: '2026-03-15 10:00' }, { id: 'x', type: 'SIGN_ON', beatId: otherBeat.beat_id, at: at(1) }],
    });
    expect(shape.statusCode).toBe(400);
    expect(shape.json().fields).toEqual([{ field: 'records[0].deviceTime', reason: expect.stringMatching(/^must be an ISO 8601 time with a zone/) }]);
    const foreign = await sync(token, { batchId: 'batch-bad', records: [{ id: 'x', type: 'SIGN_ON', beatId: otherBeat.beat_id, at: at(1) }] });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().fields[0].field).toBe('records[0].beatId');

    // Fixed, the same batch id goes through: the refused attempt stored nothing, not even its id.
    records[1] = { id: 'b-2', type: 'CHECK', beatId: beat.beat_id, eventType: 'O', psgnId: psgns[2] ?? 0, deviceTime: at(5) };
    expect((await sync(token, { batchId: 'batch-bad', records })).json<SyncResponse>().stored).toBe(4);
  });

  it('an allotment makes the berth the current status; a deficiency closes with its own later record', async () => {
    const waiting = (await t.db.query<{ id: number; status: string }>(
      `SELECT psgn_id AS id, current_status AS status FROM passengers WHERE run_id = $1 AND (current_status LIKE 'WL%' OR current_status LIKE 'RAC%')
        AND NOT EXISTS (SELECT 1 FROM reallocations r WHERE r.psgn_id = passengers.psgn_id) ORDER BY psgn_id LIMIT 1`,
      [beat.run_id],
    )).rows[0];
    if (!waiting) throw new Error('no waiting passenger on the run');
    const coach = beat.coaches[0] ?? 'B1';
    const alloted = await sync(token, { batchId: 'allot-1', records: [
      { id: 'al-1', type: 'ALLOTMENT', beatId: beat.beat_id, psgnId: waiting.id, coachId: coach, berthNo: 7, fromStation: 'NDLS', toStation: 'BCT', at: at(8) },
      { id: 'al-2', type: 'DEFICIENCY', beatId: beat.beat_id, coachId: coach, category: 'AC', description: 'AC not cooling', stationCode: 'NDLS', reportedAt: at(7), deficiencyId: 990001 },
    ] });
    expect(alloted.statusCode, alloted.body).toBe(200);
    const p = (await t.db.query<{ current_status: string; coach_id: string; berth_no: number; mark: string }>(
      'SELECT current_status, coach_id, berth_no, mark FROM passengers WHERE psgn_id = $1', [waiting.id],
    )).rows[0];
    expect(p).toMatchObject({ current_status: `CNF/${coach}/7`, coach_id: coach, berth_no: 7, mark: 'O' });
    const ra = (await t.db.query<{ prev_status: string }>('SELECT prev_status FROM reallocations WHERE psgn_id = $1', [waiting.id])).rows[0];
    expect(ra?.prev_status).toBe(waiting.status);
    const def = async () => (await t.db.query<{ status: string; closed_at: unknown }>('SELECT status, closed_at FROM coach_deficiencies WHERE deficiency_id = 990001')).rows[0];
    expect(await def()).toMatchObject({ status: 'OPEN', closed_at: null });

    // A closing before the report, or of another run's deficiency, is refused by name; the real one closes it.
    const bad = await sync(token, { batchId: 'close-bad', records: [
      { id: 'cl-0', type: 'DEFICIENCY_CLOSE', beatId: beat.beat_id, deficiencyId: 990001, closedAt: at(9) },
      { id: 'cl-9', type: 'DEFICIENCY_CLOSE', beatId: beat.beat_id, deficiencyId: 424242, closedAt: at(1) },
    ] });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields).toEqual([
      { field: 'records[0].closedAt', reason: 'is before the deficiency was reported' },
      { field: 'records[1].deficiencyId', reason: "is not a deficiency of the beat's train run" },
    ]);
    expect((await def())?.status).toBe('OPEN');
    const closed = await sync(token, { batchId: 'close-1', records: [{ id: 'cl-1', type: 'DEFICIENCY_CLOSE', beatId: beat.beat_id, deficiencyId: 990001, closedAt: at(2) }] });
    expect(closed.statusCode, closed.body).toBe(200);
    const after = await def();
    expect(after?.status).toBe('CLOSED');
    expect(new Date(String(after?.closed_at instanceof Date ? after.closed_at.toISOString() : after?.closed_at)).toISOString()).toBe(at(2));
  });

  it('lets device admins issue and revoke credentials; a revoked credential or a LOST device is refused', async () => {
    expect((await post(du, '/api/hht/credentials/issue', { deviceId: beat.device_id })).statusCode).toBe(403);
    const status = await post(du, '/api/hht/credentials/status', { deviceId: beat.device_id });
    expect(status.json()).toMatchObject({ active: true, issuedBy: EXTRAS_USERS.su.userId });

    const revoke = await post(su, '/api/hht/credentials/revoke', { deviceId: beat.device_id });
    expect(revoke.statusCode).toBe(200);
    const refused = await sync(token, { batchId: 'after-revoke', records: goodRecords('c') });
    expect(refused.statusCode).toBe(401);
    expect((await post(su, '/api/hht/credentials/revoke', { deviceId: beat.device_id })).statusCode).toBe(409);

    token = await issue(beat.device_id);
    expect((await sync(token, { batchId: 'after-reissue', records: goodRecords('c') })).statusCode).toBe(200);

    await t.db.query("UPDATE devices SET status = 'LOST' WHERE device_id = $1", [beat.device_id]);
    const lost = await sync(token, { batchId: 'lost', records: goodRecords('d') });
    expect(lost.statusCode).toBe(403);
    expect(lost.json().message).toBe(HHT_SYNC_MESSAGES.deviceRefused(beat.device_id, 'LOST'));
    await t.db.query("UPDATE devices SET status = 'IN_SERVICE' WHERE device_id = $1", [beat.device_id]);
  });
});
