/**
 * Freshness of report answers: the as-of is the latest synced record of the runs an answer covers (compared with the
 * raw rows), it moves when a terminal syncs, one train run lists its beats with their lag and stale mark under the
 * test clock, an answer held by the result cache says its age, and a dashboard card's answer carries it too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { TEST_DRIVERS, type TestDb } from '../support/db';
import { cloneSeededTestDb, SEED_TODAY } from '../support/seeded';
import { buildTestApp } from '../support/app';
import { loginAs, type SignedIn } from '../support/login';
import { manualClock } from '../../src/server/clock';
import { parseFreshness, type Freshness } from '../../src/shared/freshness';
import type { IssuedCredential } from '../../src/shared/hht-sync';
import { EXTRAS_USERS, insertExtrasUsers } from './extras-users';
import { recordingDb, type Statement } from '../support/recording-db';
import { reportOf } from '../support/report-rows';
import { parseFilter } from '../../src/server/reports/filter';
import { runView, runViewJson } from '../../src/server/reports/executor';
import { freshnessSide } from '../../src/server/reports/freshness';

const LIVE_AT = new Date(`${SEED_TODAY}T12:00:00+05:30`);
const TRAIN = '12002'; // a DLI train of the tiny data set running today, on its way at noon

describe.each(TEST_DRIVERS)('freshness of report answers on %s', (driver) => {
  let t: TestDb;
  let app: FastifyInstance;
  let su: SignedIn;
  let du: SignedIn;
  let bct: SignedIn;

  const now = (): Date => app.clock.now();
  const vacant = (s: SignedIn, filter: Record<string, unknown> = { trainNo: TRAIN, startDate: SEED_TODAY }) =>
    app.inject({ method: 'POST', url: '/api/getVacantBerths', headers: s.headers(), payload: filter });
  const freshnessOf = (body: unknown): Freshness => {
    const f = parseFreshness((body as { freshness?: unknown }).freshness);
    if (!f) throw new Error(`no freshness in ${JSON.stringify(body).slice(0, 300)}`);
    return f;
  };
  /** The definition over the raw rows: the latest sync_time of checking events and synced_at of EFTs. */
  const rawAsOf = async (where: (alias: string) => string, params: unknown[]): Promise<string | null> => {
    const row = (
      await t.db.query<{ at: Date | string | null }>(
        `SELECT greatest(
           (SELECT max(ce.sync_time) FROM checking_events ce JOIN train_runs tr ON tr.run_id = ce.run_id WHERE ${where('ce')}),
           (SELECT max(e.synced_at) FROM efts e JOIN train_runs tr ON tr.run_id = e.run_id WHERE ${where('e')})) AS at`,
        params,
      )
    ).rows[0];
    return row?.at ? new Date(row.at).toISOString() : null;
  };
  const signIn = async (): Promise<void> => {
    su = await loginAs(app, EXTRAS_USERS.su.userId);
    du = await loginAs(app, EXTRAS_USERS.du.userId);
    bct = await loginAs(app, EXTRAS_USERS.bct.userId);
  };
  /** Moves the server clock; access tokens of before have expired then, so everyone signs in again. */
  const moveClock = async (advanceMs: number): Promise<void> => {
    const res = await app.inject({ method: 'POST', url: '/api/test-hooks/clock', payload: { advanceMs } });
    expect(res.statusCode).toBe(200);
    await signIn();
  };

  beforeAll(async () => {
    t = await cloneSeededTestDb(driver, { liveAt: LIVE_AT });
    app = await buildTestApp(t.db, { clock: manualClock(LIVE_AT) });
    await insertExtrasUsers(t.db);
    await signIn();
  }, 600_000);
  afterAll(async () => {
    await app?.close();
    await t?.drop();
  });

  it("a train report's as-of is the latest synced record of its run, and each beat has its last sync, lag and stale mark", async () => {
    const res = await vacant(du);
    expect(res.statusCode).toBe(200);
    const f = freshnessOf(res.json());
    const expected = await rawAsOf((a) => `tr.train_no = $1 AND tr.start_date = $2 AND ${a}.div_code = 'DLI'`, [TRAIN, SEED_TODAY]);
    expect(expected).not.toBeNull();
    expect(f.asOf).toBe(expected);
    expect(f.computedAt).toBe(now().toISOString());
    expect(f.staleAfterMinutes).toBe(60);

    const beats = await t.db.query<{ beat_no: number; sign_on_at: Date | string | null; last: Date | string | null }>(
      `SELECT b.beat_no, b.sign_on_at, greatest((SELECT max(sync_time) FROM checking_events ce WHERE ce.beat_id = b.beat_id),
              (SELECT max(synced_at) FROM efts e WHERE e.beat_id = b.beat_id)) AS last
         FROM beats b JOIN train_runs tr ON tr.run_id = b.run_id WHERE tr.train_no = $1 AND tr.start_date = $2 ORDER BY b.beat_no`,
      [TRAIN, SEED_TODAY],
    );
    expect(f.beats?.map((b) => b.beatNo)).toEqual(beats.rows.map((b) => Number(b.beat_no)));
    for (const [i, raw] of beats.rows.entries()) {
      const b = f.beats?.[i];
      const last = raw.last ? new Date(raw.last) : null;
      expect(b?.lastSyncAt ?? null).toBe(last?.toISOString() ?? null);
      expect(b?.lagMinutes ?? null).toBe(last ? Math.round((now().getTime() - last.getTime()) / 60_000) : null);
      const since = last ?? (raw.sign_on_at ? new Date(raw.sign_on_at) : null);
      expect(b?.stale).toBe(since !== null && now().getTime() - since.getTime() > 60 * 60_000);
    }
    // The data set has both kinds at noon: a beat syncing, and one signed on hours ago that has synced nothing.
    expect(f.beats?.some((b) => b.stale)).toBe(true);
    expect(f.beats?.some((b) => !b.stale && b.lastSyncAt !== null)).toBe(true);
  });

  it('another division sees neither the beats nor the syncs of a train outside its scope', async () => {
    const f = freshnessOf((await vacant(bct)).json());
    expect(f.beats).toEqual([]);
    expect(f.asOf).toBeNull();
  });

  it('a beat that stops syncing is marked stale once the limit passes, and a real sync clears it and moves the as-of', async () => {
    const before = freshnessOf((await vacant(du)).json());
    const syncing = before.beats?.find((b) => !b.stale && b.lastSyncAt !== null);
    if (!syncing?.lastSyncAt || syncing.deviceId === null) throw new Error('no beat syncing at noon');
    // Past the limit from its last sync: stale.
    await moveClock(Date.parse(syncing.lastSyncAt) + 61 * 60_000 - now().getTime());
    const later = freshnessOf((await vacant(du)).json());
    expect(later.beats?.find((b) => b.beatNo === syncing.beatNo)).toMatchObject({ stale: true, lagMinutes: 61 });

    // The terminal syncs one checking record now.
    const issued = await app.inject({ method: 'POST', url: '/api/hht/credentials/issue', headers: su.headers(), payload: { deviceId: syncing.deviceId } });
    expect(issued.statusCode).toBe(200);
    const token = issued.json<IssuedCredential>().token;
    const beat = (
      await t.db.query<{ beat_id: string; run_id: string; coaches: string[] }>(
        `SELECT b.beat_id::text, b.run_id::text, b.coaches FROM beats b JOIN train_runs tr ON tr.run_id = b.run_id
          WHERE tr.train_no = $1 AND tr.start_date = $2 AND b.beat_no = $3`,
        [TRAIN, SEED_TODAY, syncing.beatNo],
      )
    ).rows[0];
    if (!beat) throw new Error('beat missing');
    const psgn = (
      await t.db.query<{ id: string }>('SELECT psgn_id::text AS id FROM passengers WHERE run_id = $1 AND coach_id = ANY($2) ORDER BY psgn_id LIMIT 1', [beat.run_id, beat.coaches])
    ).rows[0];
    const sync = await app.inject({
      method: 'POST',
      url: '/api/hht/sync',
      headers: { authorization: `Bearer ${token}` },
      payload: {
        batchId: 'freshness-1',
        records: [{ id: 'fr-1', type: 'CHECK', beatId: Number(beat.beat_id), eventType: 'O', psgnId: Number(psgn?.id), coachId: beat.coaches[0], deviceTime: new Date(now().getTime() - 5 * 60_000).toISOString() }],
      },
    });
    expect(sync.statusCode, sync.body).toBe(200);
    const receivedAt = sync.json<{ receivedAt: string }>().receivedAt;

    const after = freshnessOf((await vacant(du)).json());
    expect(after.asOf).toBe(new Date(receivedAt).toISOString());
    expect(after.asOf).toBe(await rawAsOf((a) => `tr.train_no = $1 AND tr.start_date = $2 AND ${a}.div_code = 'DLI'`, [TRAIN, SEED_TODAY]));
    expect(after.beats?.find((b) => b.beatNo === syncing.beatNo)).toMatchObject({ stale: false, lagMinutes: 0, lastSyncAt: new Date(receivedAt).toISOString() });
  });

  it('an answer served again from the result cache says how old it is (Age), with the freshness of when it was computed', async () => {
    const filter = { trainNo: TRAIN, startDate: SEED_TODAY, cls: '3A' };
    const first = await vacant(su, filter);
    expect(first.headers['x-hht-cache']).toBe('computed');
    expect(first.headers.age).toBeUndefined();
    await new Promise((r) => setTimeout(r, 1100));
    const again = await vacant(su, filter);
    expect(again.headers['x-hht-cache']).toBe('hit');
    expect(Number(again.headers.age)).toBeGreaterThanOrEqual(1);
    expect(freshnessOf(again.json())).toEqual(freshnessOf(first.json()));
  });

  it("a dashboard card's answer (one figure) carries the as-of of every run of its date in the user's scope", async () => {
    const res = await app.inject({ method: 'POST', url: '/api/psgn-count?aggregate=count', headers: du.headers(), payload: { srcDate: SEED_TODAY } });
    expect(res.statusCode).toBe(200);
    const f = freshnessOf(res.json());
    expect(f.beats).toBeUndefined();
    expect(f.asOf).toBe(await rawAsOf((a) => `tr.start_date = $1 AND ${a}.div_code = 'DLI'`, [SEED_TODAY]));
    const all = freshnessOf((await app.inject({ method: 'POST', url: '/api/psgn-count?aggregate=count', headers: su.headers(), payload: { srcDate: SEED_TODAY } })).json());
    expect(all.asOf).toBe(await rawAsOf(() => 'tr.start_date = $1', [SEED_TODAY]));
  });

  it('an uncached answer reads its rows and its freshness in one statement, from one snapshot', async () => {
    const seen: Statement[] = [];
    let recording = false;
    const counted = await buildTestApp(recordingDb(t.db, seen, () => recording), { clock: manualClock(now()), config: { reportCache: { ttlMs: 0, maxBytes: 1 << 20 } } });
    try {
      const user = await loginAs(counted, EXTRAS_USERS.du.userId);
      const call = () => counted.inject({ method: 'POST', url: '/api/getVacantBerths', headers: user.headers(), payload: { trainNo: TRAIN, startDate: SEED_TODAY } });
      expect((await call()).statusCode).toBe(200); // the first call of a view also learns its JSON select list
      recording = true;
      const res = await call();
      recording = false;
      expect(res.statusCode).toBe(200);
      expect(freshnessOf(res.json()).beats?.length).toBeGreaterThan(0);
      expect(seen).toHaveLength(1);
      expect(seen[0]?.sql).toMatch(/json_agg\(j\).*AS side/s);
    } finally {
      await counted.close();
      await signIn(); // the sign-in on the second app superseded this app's session of that user
    }
  });

  it('the freshness read as a statement of its own (the row path) is the one read with the rows', async () => {
    const scope = { kind: 'division', code: 'DLI' } as const;
    // One train run (its beats) and a day of the division (the as-of alone).
    for (const [id, filter] of [['vacant_berths', { trainNo: TRAIN, startDate: SEED_TODAY }], ['dash_psgn_count', { srcDate: SEED_TODAY }]] as const) {
      const report = reportOf(id);
      const view = report.views[0];
      if (!view) throw new Error(`${id}: no view`);
      const values = parseFilter(report, filter, SEED_TODAY);
      const withRows = freshnessSide(report, values, scope, now());
      const alone = freshnessSide(report, values, scope, now());
      const json = await runViewJson(t.db, view, values, scope, { timeoutMs: 30_000, side: withRows.side });
      const rows = await runView(t.db, view, values, scope, { timeoutMs: 30_000, side: alone.side });
      expect(json.total).toBe(rows.total);
      expect(withRows.got()?.asOf).toEqual(expect.any(String));
      expect(withRows.got()).toEqual(alone.got());
    }
  });

  it('a sync time with microseconds gives the millisecond the driver reads, not one rounded up', async () => {
    const runAsOf = () => rawAsOf((a) => `tr.train_no = $1 AND tr.start_date = $2 AND ${a}.div_code = 'DLI'`, [TRAIN, SEED_TODAY]);
    const before = await runAsOf();
    const event = (
      await t.db.query<{ event_id: string; run_id: string }>(
        `SELECT ce.event_id::text, ce.run_id::text FROM checking_events ce JOIN train_runs tr ON tr.run_id = ce.run_id
          WHERE tr.train_no = $1 AND tr.start_date = $2 AND ce.sync_time IS NOT NULL ORDER BY ce.sync_time DESC LIMIT 1`,
        [TRAIN, SEED_TODAY],
      )
    ).rows[0];
    if (!event || !before) throw new Error('no synced checking event on the run');
    // The run's latest sync moves to 2.999999 s after its whole second (the rollups follow the write, as for any).
    await t.db.query(
      "UPDATE checking_events SET sync_time = date_trunc('second', $3::timestamptz) + interval '2.999999 second' WHERE event_id = $1 AND run_id = $2",
      [event.event_id, event.run_id, before],
    );
    const expected = await runAsOf();
    expect(expected).toMatch(/\.999Z$/);
    // A filter no answer was held for, so the answer is computed after the write.
    const f = freshnessOf((await vacant(du, { trainNo: TRAIN, startDate: SEED_TODAY, cls: 'SL' })).json());
    expect(f.asOf).toBe(expected);
    expect(f.beats?.some((b) => b.lastSyncAt === expected)).toBe(true);
  });

  it('a report whose data terminals do not sync (the audit trail) gives no as-of', async () => {
    const res = await app.inject({ method: 'POST', url: '/api/audit-trail', headers: su.headers(), payload: {} });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ freshness?: unknown }>().freshness).toBeUndefined();
  });
});
