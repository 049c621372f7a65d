import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createTestDb, TEST_DRIVERS, type TestDb } from '../support/db';
import { testConfig } from '../support/app';
import { insertUser, loginAs, type SignedIn, type TestUser } from '../support/login';
import { buildApp } from '../../src/server/app';
import { DEFAULT_RATE_LIMITS } from '../../src/server/auth/options';
import type { Db } from '../../src/server/db';

/** Two zones, three divisions, trains of each, and one beat of lobby NDLS on a WR train. */
async function insertNetwork(db: Db): Promise<void> {
  await db.exec(`
    INSERT INTO zones VALUES ('NR', 'Northern Railway'), ('WR', 'Western Railway');
    INSERT INTO divisions VALUES ('DLI', 'NR', 'Delhi'), ('FZR', 'NR', 'Firozpur'), ('BCT', 'WR', 'Mumbai Central');
    INSERT INTO stations VALUES ('NDLS', 'New Delhi', 'NR', 'DLI'), ('FZR', 'Firozpur Cantt', 'NR', 'FZR'),
      ('MMCT', 'Mumbai Central', 'WR', 'BCT');
    INSERT INTO lobbies VALUES ('NDLS', 'New Delhi lobby', 'NDLS', 'NR', 'DLI'), ('FZR', 'Firozpur lobby', 'FZR', 'NR', 'FZR'),
      ('MMCT', 'Mumbai Central lobby', 'MMCT', 'WR', 'BCT');
    INSERT INTO trains (train_no, name, train_type, src_station, dest_station, zone_code, div_code, run_days) VALUES
      ('12001', 'Shatabdi', 'SHATABDI', 'NDLS', 'FZR', 'NR', 'DLI', 'YYYYYYY'),
      ('12002', 'Shatabdi Back', 'SHATABDI', 'FZR', 'NDLS', 'NR', 'DLI', 'YYYYYYY'),
      ('14629', 'Satluj Exp', 'MAIL_EXP', 'FZR', 'NDLS', 'NR', 'FZR', 'YYYYYYY'),
      ('12951', 'Mumbai Rajdhani', 'RAJDHANI', 'MMCT', 'NDLS', 'WR', 'BCT', 'YYYYYYY'),
      ('12009', 'Mumbai Shatabdi', 'SHATABDI', 'MMCT', 'MMCT', 'WR', 'BCT', 'YYYYYYY');
    INSERT INTO train_runs (run_id, train_no, start_date, zone_code, div_code) VALUES (920012951, '12951', '2025-03-10', 'WR', 'BCT');
    INSERT INTO ttes VALUES ('T1', 'R Sharma', 'TTE', '9000000009', 'NDLS', 'NR', 'DLI');
    INSERT INTO beats (beat_id, run_id, beat_no, tte_id, zone_code, div_code, lobby_code, from_station, to_station, coaches,
                       sign_on_id, trip_id, twr_status)
      VALUES (9200129511, 920012951, 1, 'T1', 'NR', 'DLI', 'NDLS', 'NDLS', 'MMCT', ARRAY['B1'], 'SO1', 'TR1', 'EMPTY');
  `);
}

const ALL = ['12001', '12002', '12009', '12951', '14629'];
const USERS: TestUser[] = [
  { userId: 'SCSU', userLevel: 'SU' },
  { userId: 'SCZA', userLevel: 'ZA', rlyCode: 'NR' },
  { userId: 'SCZU', userLevel: 'ZU', rlyCode: 'WR' },
  { userId: 'SCDA', userLevel: 'DA', rlyCode: 'NR', divCode: 'DLI' },
  { userId: 'SCDU', userLevel: 'DU', rlyCode: 'NR', divCode: 'FZR' },
  { userId: 'SCLA', userLevel: 'LA', rlyCode: 'NR', divCode: 'DLI', lobbyCode: 'NDLS' },
  { userId: 'SCLU', userLevel: 'LU', rlyCode: 'WR', divCode: 'BCT', lobbyCode: 'MMCT' },
  { userId: 'SCMOB', userLevel: 'DA', rlyCode: 'NR', divCode: 'FZR', mobileNo: '9999900001' },
  { userId: 'SCPTS', userLevel: 'DA', rlyCode: 'NR', divCode: 'FZR', offCode: 'PTS' },
  { userId: 'SCCRB', userLevel: 'LA', rlyCode: 'NR', divCode: 'FZR', lobbyCode: 'FZR', offCode: 'CTCRB' },
  { userId: 'SCROHQ', userLevel: 'RO', rlyCode: 'NR', offCode: 'NRHQ', offType: 'HQ' },
  { userId: 'SCROZN', userLevel: 'RO', rlyCode: 'WR', offCode: 'WRZN', offType: 'ZN' },
  { userId: 'SCRODV', userLevel: 'RO', rlyCode: 'NR', offCode: 'DLIDV', offType: 'DV' },
];

describe.each(TEST_DRIVERS)('TrainManningData scope on %s', (driver) => {
  let t: TestDb;
  let app: FastifyInstance;
  const s: Record<string, SignedIn> = {};

  beforeAll(async () => {
    t = await createTestDb(driver);
    await insertNetwork(t.db);
    app = await buildApp({
      config: testConfig(), db: t.db,
      // The SU mobile list is configuration: here one number (production reads HHT_SU_MOBILES).
      auth: { suMobiles: ['9999900001', '9999900002'], rateLimits: DEFAULT_RATE_LIMITS },
    });
    await app.ready();
    for (const u of USERS) {
      await insertUser(t.db, u);
      s[u.userId] = await loginAs(app, u.userId);
    }
  });
  afterAll(async () => {
    await app?.close();
    await t?.drop();
  });

  const trains = async (userId: string, userLevel: string, code?: string | null) => {
    const who = s[userId];
    if (!who) throw new Error(userId);
    const res = await app.inject({
      method: 'POST', url: '/api/TrainManningData', headers: who.headers(),
      payload: code === undefined ? { userLevel } : { userLevel, code },
    });
    return { status: res.statusCode, list: res.statusCode === 200 ? res.json<{ train_no: string }[]>().map((r) => r.train_no) : res.json() };
  };

  it.each([
    ['SCSU', 'SU', undefined, ALL],
    ['SCSU', 'SU', '', ALL],
    ['SCZA', 'ZA', 'NR', ['12001', '12002', '14629']],
    ['SCZU', 'ZU', 'WR', ['12009', '12951']],
    ['SCDA', 'DA', 'DLI', ['12001', '12002']],
    ['SCDU', 'DU', 'FZR', ['14629']],
    // Lobby: trains of the lobby's division plus trains its TTEs worked a beat on.
    ['SCLA', 'LA', 'NDLS', ['12001', '12002', '12951']],
    ['SCLU', 'LU', 'MMCT', ['12009', '12951']],
    // SU overrides: configured mobile, office PTS or CTCRB, RO with office type HQ or ZN.
    ['SCMOB', 'DA', 'FZR', ALL],
    ['SCPTS', 'DA', 'FZR', ALL],
    ['SCCRB', 'SU', null, ALL],
    ['SCROHQ', 'SU', undefined, ALL],
    ['SCROZN', 'RO', 'WRZN', ALL],
    // RO of another office type: no trains (deny by default).
    ['SCRODV', 'RO', 'DLIDV', []],
  ])('%s asking %s/%s gets its trains', async (userId, level, code, expected) => {
    const r = await trains(userId, level, code);
    expect(r.status).toBe(200);
    expect(r.list).toEqual(expected);
  });

  it.each([
    ['narrower scopes are allowed: zone user asks a division of the zone', 'SCZA', 'DA', 'FZR', ['14629']],
    ['division user asks a lobby of the division', 'SCDA', 'LA', 'NDLS', ['12001', '12002', '12951']],
  ])('%s', async (_title, userId, level, code, expected) => {
    const r = await trains(userId, level, code);
    expect(r.status).toBe(200);
    expect(r.list).toEqual(expected);
  });

  it.each([
    ['SCZA', 'SU', undefined],
    ['SCZA', 'ZA', 'WR'],
    ['SCZA', 'DA', 'BCT'],
    ['SCDA', 'ZA', 'NR'],
    ['SCDA', 'DA', 'FZR'],
    ['SCDA', 'LA', 'FZR'],
    ['SCLA', 'DA', 'DLI'],
    ['SCLA', 'LA', 'MMCT'],
    ['SCRODV', 'SU', undefined],
    ['SCRODV', 'ZA', 'NR'],
  ])('%s asking %s/%s (wider than allowed) -> 403', async (userId, level, code) => {
    expect((await trains(userId, level, code)).status).toBe(403);
  });

  it('bad requests -> 400 naming the field', async () => {
    const a = await trains('SCDA', 'XX', 'DLI');
    expect(a.status).toBe(400);
    expect(JSON.stringify(a.list)).toContain('userLevel');
    const b = await trains('SCDA', 'DA');
    expect(b.status).toBe(400);
    expect(JSON.stringify(b.list)).toContain('code');
  });

  it('needs a session', async () => {
    const res = await app.inject({ method: 'POST', url: '/api/TrainManningData', payload: { userLevel: 'SU' } });
    expect(res.statusCode).toBe(403);
  });
});
