import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createTestDb, TEST_DRIVERS, type TestDb } from '../support/db';
import { buildTestApp } from '../support/app';
import { insertUser, loginAs, type SignedIn } from '../support/login';
import { manualClock } from '../../src/server/clock';
import { parseRunningDetails, YET_TO_START } from '../../src/shared/running-details';

/** IST wall clock -> Date. */
const ist = (iso: string): Date => new Date(`${iso}+05:30`);

async function seedTrain(t: TestDb): Promise<void> {
  await t.db.exec(`
    INSERT INTO zones VALUES ('NR', 'Northern Railway'), ('WR', 'Western Railway');
    INSERT INTO divisions VALUES ('DLI', 'NR', 'Delhi'), ('BCT', 'WR', 'Mumbai Central');
    INSERT INTO stations VALUES
      ('NDLS', 'NEW DELHI', 'NR', 'DLI'), ('KOTA', 'KOTA JN', 'WR', 'BCT'),
      ('RTM', 'RATLAM JN', 'WR', 'BCT'), ('BRC', 'VADODARA JN', 'WR', 'BCT'), ('MMCT', 'MUMBAI CENTRAL', 'WR', 'BCT');
    INSERT INTO trains VALUES ('12952', 'MUMBAI RAJDHANI', 'RAJDHANI', 'NDLS', 'MMCT', 'WR', 'BCT', 'YYYYYYY', true);
    INSERT INTO train_stops VALUES
      ('12952', 1, 'NDLS', NULL, '16:55', 1, 0, 0),
      ('12952', 2, 'KOTA', '21:40', '21:50', 1, 465, 10),
      ('12952', 3, 'RTM', '00:50', '00:53', 2, 730, 3),
      ('12952', 4, 'BRC', '03:46', '03:56', 2, 991, 10),
      ('12952', 5, 'MMCT', '08:35', NULL, 2, 1386, 0);
    INSERT INTO trains VALUES ('12001', 'SHATABDI', 'SHATABDI', 'NDLS', 'KOTA', 'NR', 'DLI', 'YYYYYYY', true);
    INSERT INTO train_stops VALUES ('12001', 1, 'NDLS', NULL, '06:00', 1, 0, 0), ('12001', 2, 'KOTA', '11:00', NULL, 1, 465, 0);
    INSERT INTO train_runs (run_id, train_no, start_date, zone_code, div_code, delay_min)
      VALUES (900012952, '12952', '2025-03-10', 'WR', 'BCT', 30), (900012001, '12001', '2025-03-10', 'NR', 'DLI', 0);
  `);
}

describe.each(TEST_DRIVERS)('POST /api/running-details on %s', (driver) => {
  let t: TestDb;
  let app: FastifyInstance;
  const clock = manualClock(ist('2025-03-10T12:00:00'));
  // Sign in at the test's clock time: tokens live 15 minutes of that clock, which tests move by hours.
  const post = async (body: unknown) => {
    const user: SignedIn = await loginAs(app, 'TSTRIP');
    return app.inject({ method: 'POST', url: '/api/running-details', headers: user.headers(), payload: body as object });
  };
  const details = async (body: unknown) => {
    const res = await post(body);
    expect(res.statusCode).toBe(200);
    const parsed = parseRunningDetails(res.json());
    expect(parsed).not.toBeNull();
    return parsed!;
  };
  const highlighted = (d: { vStationList: { stationName: string; isHighlighted: boolean }[] }) =>
    d.vStationList.filter((s) => s.isHighlighted).map((s) => s.stationName);

  beforeAll(async () => {
    t = await createTestDb(driver);
    await seedTrain(t);
    app = await buildTestApp(t.db, { clock });
    await insertUser(t.db, { userId: 'TSTRIP', userLevel: 'DA', rlyCode: 'WR', divCode: 'BCT' });
    await insertUser(t.db, { userId: 'TSTRIPSU', userLevel: 'SU' });
  });
  afterAll(async () => {
    await app?.close();
    await t?.drop();
  });

  it('before departure: yet to start, first station highlighted, schedule as timetable', async () => {
    clock.set(ist('2025-03-10T16:50:00'));
    const d = await details({ trainNo: '12952', startDate: '2025-03-10' });
    expect(d.vStationList.map((s) => s.stationName)).toEqual([
      'NEW DELHI (NDLS)', 'KOTA JN (KOTA)', 'RATLAM JN (RTM)', 'VADODARA JN (BRC)', 'MUMBAI CENTRAL (MMCT)',
    ]);
    expect(d.vStationList[0]).toMatchObject({ STA: null, STD: '16:55', ETD: '16:55', isHighlighted: true });
    expect(d.trainCurrentPosition?.currentPosition).toBe(YET_TO_START);
    expect(d.trainCurrentPosition?.nextPTTStationName).toBe('NEW DELHI (NDLS)');
    expect(highlighted(d)).toEqual(['NEW DELHI (NDLS)']);
  });

  it('on the way: the delay builds up with distance and the last station reached is highlighted', async () => {
    // KOTA: 465/1386 of 30 min = 10 min late -> ETA 21:50, ETD 22:00.
    clock.set(ist('2025-03-10T21:55:00'));
    let d = await details({ trainNo: '12952', startDate: '2025-03-10' });
    expect(d.vStationList[1]).toMatchObject({ STA: '21:40', STD: '21:50', ETA: '21:50', ETD: '22:00' });
    expect(highlighted(d)).toEqual(['KOTA JN (KOTA)']);
    expect(d.trainCurrentPosition?.currentPosition).toMatch(/^Arrived at KOTA JN \(KOTA\) at 21:50, running 10 min late/);
    expect(d.trainCurrentPosition?.nextPTTStationName).toBe('RATLAM JN (RTM)');

    clock.set(ist('2025-03-11T02:00:00'));
    d = await details({ trainNo: '12952', startDate: '2025-03-10' });
    expect(highlighted(d)).toEqual(['RATLAM JN (RTM)']);
    expect(d.trainCurrentPosition).toMatchObject({
      lastStationName: 'RATLAM JN (RTM)',
      nextPTTStationName: 'VADODARA JN (BRC)',
    });
    expect(d.trainCurrentPosition?.currentPosition).toMatch(/^Departed from RATLAM JN \(RTM\) at 01:09/);
  });

  it('after arrival: finished, the last station highlighted with the whole delay', async () => {
    clock.set(ist('2025-03-11T09:05:00'));
    const d = await details({ trainNo: '12952', startDate: '2025-03-10' });
    expect(d.vStationList[4]).toMatchObject({ STA: '08:35', STD: null, ETA: '09:05', isHighlighted: true });
    expect(highlighted(d)).toEqual(['MUMBAI CENTRAL (MMCT)']);
    expect(d.trainCurrentPosition?.currentPosition).toContain('destination MUMBAI CENTRAL (MMCT)');
    expect(d.trainCurrentPosition?.nextPTTStationName).toBe('');
  });

  it('is empty when the train has no run that day', async () => {
    const d = await details({ trainNo: '12952', startDate: '2025-03-12' });
    expect(d).toEqual({ vStationList: [], trainCurrentPosition: null });
  });

  it('is scoped like the consist lookup: another division\'s train or an unknown one is 404, SU sees all', async () => {
    for (const trainNo of ['12001', '99999']) {
      const res = await post({ trainNo, startDate: '2025-03-10' });
      expect(res.statusCode).toBe(404);
      expect(res.json<{ message: string }>().message).toBe(`Train ${trainNo} is not in your train list`);
    }
    const su = await loginAs(app, 'TSTRIPSU');
    const res = await app.inject({ method: 'POST', url: '/api/running-details', headers: su.headers(), payload: { trainNo: '12001', startDate: '2025-03-10' } });
    expect(res.statusCode).toBe(200);
    expect(parseRunningDetails(res.json())?.vStationList).toHaveLength(2);
  });

  it.each([
    [{ trainNo: '1295', startDate: '2025-03-10' }, 'trainNo'],
    [{ trainNo: '12952' }, 'startDate'],
    [{ trainNo: '12952', startDate: '10/03/2025' }, 'startDate'],
    [{ trainNo: '12952', startDate: '2025-02-30' }, 'startDate'],
    [{ trainNo: 12952, startDate: '2025-03-10' }, 'trainNo'],
    [{ trainNo: '12952', startDate: '2025-03-10', extra: 1 }, 'extra'],
  ])('answers bad input %j with 400 naming %s', async (body, field) => {
    const res = await post(body);
    expect(res.statusCode).toBe(400);
    expect(res.json().fields.map((f: { field: string }) => f.field)).toContain(field);
  });
});
