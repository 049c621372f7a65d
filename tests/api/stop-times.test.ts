import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, TEST_DRIVERS, type TestDb } from '../support/db';
import { trainsFor } from '../../src/server/demo/reference/trains';

/** stop_departure() (migration 008): the scheduled departure of a timetable stop, whose day_no is its arrival's. */
describe.each(TEST_DRIVERS)('stop_departure on %s', (driver) => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb(driver);
  });
  afterAll(async () => {
    await t?.drop();
  });

  const departure = async (dayNo: number, arr: string | null, dep: string | null): Promise<string> =>
    (
      await t.db.query<{ at: string }>(
        `SELECT to_char(stop_departure('2026-11-20', $1, $2, $3) AT TIME ZONE 'Asia/Kolkata', 'YYYY-MM-DD HH24:MI') AS at`,
        [dayNo, arr, dep],
      )
    ).rows[0]?.at ?? '';

  it('departs on the arrival day, the next day when it departs after midnight, and arrives at the terminus', async () => {
    expect(await departure(1, null, '16:55')).toBe('2026-11-20 16:55'); // source
    expect(await departure(1, '21:10', '21:15')).toBe('2026-11-20 21:15');
    expect(await departure(1, '23:55', '00:10')).toBe('2026-11-21 00:10'); // arrives day 1, departs day 2
    expect(await departure(2, '00:20', '00:25')).toBe('2026-11-21 00:25');
    expect(await departure(2, '08:35', null)).toBe('2026-11-21 08:35'); // terminus: the arrival
  });

  it('agrees with the generator for every stop of the large timetable', async () => {
    // The generator times events from minutes after the source departure; the reports read the timetable.
    const start = Date.parse('2026-11-20T00:00:00+05:30');
    const stops = trainsFor('large').flatMap((train) =>
      train.stops.map((s, i) => ({
        stop: `${s.train_no}/${s.seq}`, day: s.day_no, arr: s.arr_time, dep: s.dep_time,
        at: new Date(start + (train.depClock + (s.dep_time === null ? train.arrMin[i] ?? 0 : train.depMin[i] ?? 0)) * 60_000).toISOString(),
      })),
    );
    expect(stops.some((s) => s.arr !== null && s.dep !== null && s.dep < s.arr), 'the timetable has a stop departing after midnight').toBe(true);
    const { rows } = await t.db.query<{ stop: string; at: string }>(
      `SELECT s.stop, to_char(stop_departure('2026-11-20', s.day, s.arr, s.dep) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.000"Z"') AS at
         FROM jsonb_to_recordset($1::jsonb) AS s(stop text, day int, arr text, dep text)`,
      [JSON.stringify(stops)],
    );
    const sql = new Map(rows.map((r) => [r.stop, r.at]));
    const wrong = stops.filter((s) => sql.get(s.stop) !== s.at).map((s) => `${s.stop}: ${sql.get(s.stop)} != ${s.at}`);
    expect(wrong).toEqual([]);
  });
});
