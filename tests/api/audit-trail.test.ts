/**
 * The audit trail on both drivers: each audited action leaves exactly one entry with the right user and figures,
 * the writer role cannot change or remove an entry, retention drops whole months past the kept days, passenger
 * names and mobiles never reach it, and SU reads it as a report (others are refused, and that is recorded).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { TEST_DRIVERS, type TestDb } from '../support/db';
import { cloneSeededTestDb } from '../support/seeded';
import { buildTestApp } from '../support/app';
import { enc, loginAs, randomIp, type SignedIn } from '../support/login';
import { manualClock } from '../../src/server/clock';
import { EXTRAS_USERS, insertExtrasUsers, istNoon } from './extras-users';
import { AUDIT_INSERT_SQL, AUDIT_ROLE } from '../../src/server/audit/trail';
import { auditPartitions, maintainAuditTrail } from '../../src/server/audit/retention';
import { DEMO_PASSWORD } from '../../src/server/auth/demo-users';

interface Entry {
  action: string;
  user_id: string | null;
  user_level: string | null;
  report: string | null;
  details: Record<string, unknown>;
}

describe.each(TEST_DRIVERS)('audit trail on %s', (driver) => {
  let t: TestDb & { today: string };
  let app: FastifyInstance;
  let su: SignedIn;
  let du: SignedIn;
  let train: { train_no: string; names: string[]; mobiles: string[] };

  /** The entries written since `since` (seq), after the queue is flushed. */
  const entries = async (since: number, action?: string): Promise<Entry[]> => {
    await app.audit.flush();
    return (
      await t.db.query<Entry>(
        `SELECT action, user_id, user_level, report, details FROM audit_trail WHERE seq > $1 AND ($2::text IS NULL OR action = $2) ORDER BY seq`,
        [since, action ?? null],
      )
    ).rows;
  };
  const lastSeq = async (): Promise<number> => {
    await app.audit.flush();
    return Number((await t.db.query<{ s: number }>('SELECT coalesce(max(seq), 0)::bigint AS s FROM audit_trail')).rows[0]?.s);
  };
  const post = (s: SignedIn, url: string, payload: object) => app.inject({ method: 'POST', url, headers: s.headers(), payload });

  beforeAll(async () => {
    t = await cloneSeededTestDb(driver);
    app = await buildTestApp(t.db, { clock: manualClock(istNoon(t.today)) });
    await insertExtrasUsers(t.db);
    su = await loginAs(app, EXTRAS_USERS.su.userId);
    du = await loginAs(app, EXTRAS_USERS.du.userId);
    const run = (
      await t.db.query<{ train_no: string; run_id: number }>(
        `SELECT tr.train_no, tr.run_id FROM train_runs tr WHERE tr.start_date = $1::date AND tr.div_code = 'DLI'
          AND EXISTS (SELECT 1 FROM passengers p WHERE p.run_id = tr.run_id) ORDER BY tr.train_no LIMIT 1`,
        [t.today],
      )
    ).rows[0];
    if (!run) throw new Error('no DLI run with passengers today');
    const psgn = await t.db.query<{ name: string; mobile_no: string }>('SELECT name, mobile_no FROM passengers WHERE run_id = $1 ORDER BY psgn_id LIMIT 20', [run.run_id]);
    train = { train_no: run.train_no, names: psgn.rows.map((r) => r.name), mobiles: psgn.rows.map((r) => r.mobile_no) };
  });
  afterAll(async () => {
    await app?.close();
    await t?.drop();
  });

  it('records every portal file loaded at start with its SHA-256', async () => {
    const loaded = await entries(0, 'definition_loaded');
    const def = loaded.find((e) => e.details.file === 'reports/audit_trail.json');
    expect(def?.report).toBe('audit_trail');
    expect(def?.details.sha256).toBe(createHash('sha256').update(readFileSync('reports/audit_trail.json')).digest('hex'));
    expect(loaded.filter((e) => e.details.file === 'menu.json')).toHaveLength(1);
  });

  it('records a sign-in, a failed sign-in, a lockout, a forced logout and a sign-out, once each', async () => {
    const since = await lastSeq();
    const ip = randomIp();
    const wrongPassword = async (): Promise<number> => {
      const h = { 'x-forwarded-for': ip };
      const cap = await app.inject({ method: 'GET', url: '/api/captcha', headers: h });
      const { captchaId } = cap.json<{ captchaId: string }>();
      const answer = (await app.inject({ method: 'GET', url: `/api/test-hooks/captcha/${captchaId}` })).json<{ answer: string }>().answer;
      const xsrf = cap.cookies.find((c) => c.name === 'XSRF-TOKEN')?.value ?? '';
      const res = await app.inject({
        method: 'POST', url: '/api/loginInfo', headers: { ...h, cookie: `XSRF-TOKEN=${xsrf}` },
        payload: { userId: enc(EXTRAS_USERS.lu.userId), pwd: enc(`${DEMO_PASSWORD}x`), captchaId, captchaAnswer: answer },
      });
      return res.json<{ code: number }>().code;
    };
    for (let i = 0; i < 5; i += 1) await wrongPassword();
    const failed = await entries(since, 'sign_in_failed');
    expect(failed).toHaveLength(4);
    expect(failed.every((e) => e.user_id === EXTRAS_USERS.lu.userId && e.details.reason === 'wrong password')).toBe(true);
    const lockouts = await entries(since, 'lockout');
    expect(lockouts).toHaveLength(1);
    expect(lockouts[0]?.user_id).toBe(EXTRAS_USERS.lu.userId);

    const before = await lastSeq();
    const first = await loginAs(app, EXTRAS_USERS.la.userId);
    const second = await loginAs(app, EXTRAS_USERS.la.userId); // supersedes the first session
    const signIns = await entries(before, 'sign_in');
    expect(signIns.map((e) => e.user_id)).toEqual([EXTRAS_USERS.la.userId, EXTRAS_USERS.la.userId]);
    const forced = await entries(before, 'forced_logout');
    expect(forced).toHaveLength(1);
    expect(forced[0]).toMatchObject({ user_id: EXTRAS_USERS.la.userId, details: { reason: 'signed in elsewhere', sessions: 1 } });
    expect((await post(first, '/api/logout', { userId: EXTRAS_USERS.la.userId })).statusCode).toBe(401);
    expect((await post(second, '/api/logout', { userId: EXTRAS_USERS.la.userId })).statusCode).toBe(200);
    const out = await entries(before, 'sign_out');
    expect(out).toHaveLength(1);
    expect(out[0]).toMatchObject({ user_id: EXTRAS_USERS.la.userId, user_level: 'LA' });
  });

  it('records a report run with the filters as sent (never a passenger name or mobile), its row count and time', async () => {
    const since = await lastSeq();
    const sent = { trainNo: train.train_no, startDate: t.today, psgnName: train.names[0], mobileNo: train.mobiles[0] };
    const res = await post(du, '/api/getAllPassengersCombined', sent);
    expect(res.statusCode).toBe(200);
    const body = res.json<{ total: number; rows: { psgnName?: string }[] }>();
    expect(body.total).toBeGreaterThan(0);
    const runs = await entries(since, 'report_run');
    expect(runs).toHaveLength(1);
    const run = runs[0] as Entry;
    expect(run).toMatchObject({ user_id: EXTRAS_USERS.du.userId, user_level: 'DU', report: 'All_Passenger_Report' });
    expect(run.details.filters).toEqual({ trainNo: train.train_no, startDate: t.today });
    expect(run.details.removedFields).toEqual(['psgnName', 'mobileNo']);
    expect(run.details.rows).toBe(body.total);
    expect(typeof run.details.ms).toBe('number');
  });

  it('records an export with its format, rows and bytes', async () => {
    const since = await lastSeq();
    const res = await post(du, '/api/export/All_Passenger_Report?format=csv', { trainNo: train.train_no, startDate: t.today, mobile: train.mobiles[1] });
    expect(res.statusCode).toBe(200);
    const exports = await entries(since, 'export');
    expect(exports).toHaveLength(1);
    expect(exports[0]).toMatchObject({
      user_id: EXTRAS_USERS.du.userId,
      report: 'All_Passenger_Report',
      details: { format: 'csv', rows: Number(res.headers['x-total-rows']), bytes: res.rawPayload.length, complete: true },
    });
  });

  it('never lets a passenger name or mobile into the trail (searched for)', async () => {
    await app.audit.flush();
    const text = (await t.db.query<{ t: string }>(`SELECT coalesce(string_agg(a::text, ' '), '') AS t FROM audit_trail a`)).rows[0]?.t ?? '';
    expect(text).toContain(train.train_no);
    for (const v of [...train.names, ...train.mobiles]) expect(text).not.toContain(v);
  });

  it('records device credentials issued and revoked and a device change, by the officer who did it', async () => {
    const device = (
      await t.db.query<{ device_id: string; version: number }>(
        `SELECT device_id, version FROM devices WHERE div_code = 'DLI' AND status = 'IN_SERVICE' ORDER BY device_id LIMIT 1`,
      )
    ).rows[0];
    if (!device) throw new Error('no DLI device');
    const since = await lastSeq();
    expect((await post(su, '/api/hht/credentials/issue', { deviceId: device.device_id })).statusCode).toBe(200);
    expect((await post(su, '/api/hht/credentials/revoke', { deviceId: device.device_id })).statusCode).toBe(200);
    const upd = await post(su, '/api/UpdateDevice', { deviceId: device.device_id, version: Number(device.version), status: 'UNDER_REPAIR', assignedTteId: null, remarks: 'screen' });
    expect(upd.statusCode).toBe(200);
    const got = (await entries(since)).filter((e) => e.action !== 'report_run');
    expect(got.map((e) => e.action)).toEqual(['credential_issued', 'credential_revoked', 'device_changed']);
    expect(got.every((e) => e.user_id === EXTRAS_USERS.su.userId && e.details.deviceId === device.device_id)).toBe(true);
    expect(got[2]?.details).toMatchObject({ before: { status: 'IN_SERVICE' }, after: { status: 'UNDER_REPAIR' } });
  });

  it('shows SU the trail as a report filtered by user, and refuses (and records) anyone else', async () => {
    const since = await lastSeq();
    const refused = await post(du, '/api/audit-trail', { start_date: t.today, end_date: t.today });
    expect(refused.statusCode).toBe(403);
    const scoped = await entries(since, 'scope_refused');
    expect(scoped).toHaveLength(1);
    expect(scoped[0]).toMatchObject({ user_id: EXTRAS_USERS.du.userId, details: { route: '/api/:endpoint', path: '/api/audit-trail' } });

    const res = await post(su, '/api/audit-trail', { start_date: t.today, end_date: t.today, userId: 'xdu', action: 'report_run' });
    expect(res.statusCode).toBe(200);
    const rows = res.json<{ rows: { user_id: string; report: string; rows: number }[] }>().rows;
    expect(rows.length).toBe(1);
    expect(rows[0]).toMatchObject({ user_id: 'XDU', report: 'All_Passenger_Report' });
    const csv = await post(su, '/api/export/audit_trail?format=csv', { start_date: t.today, end_date: t.today, userId: 'XDU' });
    expect(csv.statusCode).toBe(200);
    expect(csv.body).toContain('All_Passenger_Report');
  });

  it('records each of repeated calls with its own user, figures and way of answering; filters of a GET and odd texts too', async () => {
    const since = await lastSeq();
    const sent = { trainNo: train.train_no, startDate: t.today, psgnName: train.names[0] };
    const text = JSON.stringify(sent);
    const postText = (s: SignedIn, payload: string) =>
      app.inject({ method: 'POST', url: '/api/getAllPassengersCombined', headers: { ...s.headers(), 'content-type': 'application/json' }, payload });
    const answers = [
      await postText(du, text),
      await postText(du, text),
      await postText(su, text),
      await postText(du, ` {\n "startDate" : "${t.today}", "trainNo":"${train.train_no}" } `),
      await app.inject({ method: 'GET', url: `/api/Total_Trains_Manned?srcDate=${t.today}`, headers: du.headers() }),
      await app.inject({ method: 'GET', url: `/api/Total_Trains_Manned?srcDate=${t.today}`, headers: du.headers() }),
    ];
    for (const a of answers) expect(a.statusCode).toBe(200);
    const total = answers[0]?.json<{ total: number }>().total;
    const runs = await entries(since, 'report_run');
    expect(runs.map((r) => [r.user_id, r.user_level, r.report, r.details.filters, r.details.removedFields ?? null, r.details.rows])).toEqual([
      [EXTRAS_USERS.du.userId, 'DU', 'All_Passenger_Report', { trainNo: train.train_no, startDate: t.today }, ['psgnName'], total],
      [EXTRAS_USERS.du.userId, 'DU', 'All_Passenger_Report', { trainNo: train.train_no, startDate: t.today }, ['psgnName'], total],
      [EXTRAS_USERS.su.userId, 'SU', 'All_Passenger_Report', { trainNo: train.train_no, startDate: t.today }, ['psgnName'], expect.any(Number)],
      [EXTRAS_USERS.du.userId, 'DU', 'All_Passenger_Report', { startDate: t.today, trainNo: train.train_no }, null, total],
      [EXTRAS_USERS.du.userId, 'DU', 'dash_trains_manned', { srcDate: t.today }, null, answers[4]?.json<{ total: number }>().total],
      [EXTRAS_USERS.du.userId, 'DU', 'dash_trains_manned', { srcDate: t.today }, null, answers[5]?.json<{ total: number }>().total],
    ]);
    for (const r of runs) expect(typeof r.details.ms).toBe('number');
    expect(runs.map((r) => r.details.served)).toEqual(answers.map((a) => (a.headers['x-hht-cache'] === 'hit' ? 'hit' : expect.stringMatching(/^(computed|shared)$/))));
    expect(JSON.stringify(runs)).not.toContain(train.names[0]);
  });

  it('refuses a JSON body that is not JSON or sets __proto__ with a 400 naming the body, and records no run', async () => {
    const since = await lastSeq();
    for (const payload of ['{"trainNo": ', '{"__proto__": {"polluted": true}, "trainNo": "1"}', '{"constructor": {"prototype": {"polluted": true}}}']) {
      const res = await app.inject({ method: 'POST', url: '/api/getAllPassengersCombined', headers: { ...du.headers(), 'content-type': 'application/json' }, payload });
      expect(res.statusCode, payload).toBe(400);
      expect(res.body).not.toMatch(/at .*\.js:\d+/);
    }
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
    expect(await entries(since, 'report_run')).toEqual([]);
  });

  it('tells anyone but SU that the trail is unavailable when the page asks for its definition, before any run', async () => {
    const other = await app.inject({ method: 'GET', url: '/api/meta/reports/audit_trail', headers: du.headers() });
    expect(other.statusCode).toBe(503);
    expect(other.json<{ message: string }>().message).toContain('not available at your user level');
    const own = await app.inject({ method: 'GET', url: '/api/meta/reports/audit_trail', headers: su.headers() });
    expect(own.statusCode).toBe(200);
    const shared = await app.inject({ method: 'GET', url: '/api/meta/reports/eft_report', headers: du.headers() });
    expect(shared.statusCode).toBe(200);
  });

  it('stores every character of an entry as given: tabs, newlines, backslashes, quotes, Hindi, NULLs', async () => {
    const since = await lastSeq();
    const odd = 'a\tb\nc\r\\N d\\e "q" \'s\' यात्री सूची \u0001';
    app.audit.record({ action: 'sign_in', userId: 'ODD\tUSER', report: null, ip: null, details: { note: odd, list: [odd, null, 1.5] } });
    const [e] = await entries(since, 'sign_in');
    expect(e).toEqual({ action: 'sign_in', user_id: 'ODD\tUSER', user_level: null, report: null, details: { note: odd, list: [odd, null, 1.5] } });
    // PostgreSQL's text cannot hold U+0000: it is kept as U+FFFD, and the audit report still reads the entry.
    const nulSince = await lastSeq();
    app.audit.record({ action: 'sign_in_failed', userId: 'NUL\u0000USER', details: { typed: 'a\u0000b' } });
    expect(await entries(nulSince, 'sign_in_failed')).toEqual([
      { action: 'sign_in_failed', user_id: 'NUL\uFFFDUSER', user_level: null, report: null, details: { typed: 'a\uFFFDb' } },
    ]);
    const report = await post(su, '/api/audit-trail', { start_date: t.today, end_date: t.today, action: 'sign_in_failed' });
    expect(report.statusCode).toBe(200);
    expect(report.json<{ rows: { user_id: string }[] }>().rows.map((r) => r.user_id)).toContain('NUL\uFFFDUSER');
  });

  it('writes as the writer role, which may add a batch to the trail and nothing else', async () => {
    const asWriter = (sql: string, params: unknown[]) =>
      t.db.transaction(async (tx) => {
        await tx.query(`SET LOCAL ROLE ${AUDIT_ROLE}`);
        return tx.query(sql, params);
      });
    const since = await lastSeq();
    const at = istNoon(t.today).toISOString();
    // The entries go as UTF-8 bytes, as the trail sends its batch's buffer.
    await asWriter(AUDIT_INSERT_SQL, [at, at, 1, ['WRITER'], Buffer.from(JSON.stringify([[at, 'sign_out', 'WRITER', null, null, null, {}]])), null]);
    expect(await entries(since, 'sign_out')).toEqual([{ action: 'sign_out', user_id: 'WRITER', user_level: null, report: null, details: {} }]);
    // Entries that name a head of their batch read as that head with their figures added to its details; a batch may
    // hold both forms.
    const heads = [['report_run', 'WRITER', 'SU', 'rA', '10.0.0.9', { filters: { trainNo: '12952' } }], ['report_run', 'WRITER', 'SU', 'rB', null, { filters: {} }]];
    const mixed = [[at, 1, { rows: 4 }], [at, 'sign_out', 'WRITER', null, null, null, { n: 1 }], [at, 0, { rows: 2, ms: 7 }], [at, 1, { rows: null }]];
    const sinceMixed = await lastSeq();
    await asWriter(AUDIT_INSERT_SQL, [at, at, 4, ['WRITER'], Buffer.from(JSON.stringify(mixed)), Buffer.from(JSON.stringify(heads))]);
    expect(await entries(sinceMixed)).toEqual([
      { action: 'report_run', user_id: 'WRITER', user_level: 'SU', report: 'rB', details: { filters: {}, rows: 4 } },
      { action: 'sign_out', user_id: 'WRITER', user_level: null, report: null, details: { n: 1 } },
      { action: 'report_run', user_id: 'WRITER', user_level: 'SU', report: 'rA', details: { filters: { trainNo: '12952' }, rows: 2, ms: 7 } },
      { action: 'report_run', user_id: 'WRITER', user_level: 'SU', report: 'rB', details: { filters: {}, rows: null } },
    ]);
    await expect(asWriter(`INSERT INTO users (user_id) VALUES ($1)`, ['NOTAUSER'])).rejects.toThrow(/permission denied/);
    // A batch must lie in one month (the report's date range relies on it) and hold what it says.
    await expect(asWriter(AUDIT_INSERT_SQL, ['2026-03-31T23:59:59Z', '2026-04-01T00:00:01Z', 1, [], Buffer.from('[]'), null])).rejects.toThrow(/check constraint/);
    await expect(asWriter(AUDIT_INSERT_SQL, [at, at, 1, [], Buffer.from('[not json'), null])).rejects.toThrow(/json/i);
    await expect(asWriter(AUDIT_INSERT_SQL, [at, at, 1, [], Buffer.from('[]'), Buffer.from('[not json')])).rejects.toThrow(/json/i);
    // Bytes that are not UTF-8 are refused as data (class 22), so the trail gives up that batch alone.
    await expect(asWriter(AUDIT_INSERT_SQL, [at, at, 1, [], Buffer.from([0x5b, 0x22, 0xff, 0x22, 0x5d]), null])).rejects.toMatchObject({ code: '22021' });
  });

  it('finds a day\'s entries by the batch and the entry times, one user\'s through the batches holding them', async () => {
    // One batch whose entries straddle the start of today (IST): only today's are today's.
    const startOfToday = new Date(`${t.today}T00:00:00+05:30`).getTime();
    for (const [user, offset] of [['EDGEA', -2_000], ['EDGEB', -1], ['EDGEC', 0], ['EDGED', 1_500]] as const) {
      app.audit.record({ action: 'sign_out', userId: user, at: new Date(startOfToday + offset) });
    }
    await app.audit.flush();
    const users = async (filter: object): Promise<string[]> => {
      const res = await post(su, '/api/audit-trail', { start_date: t.today, end_date: t.today, action: 'sign_out', ...filter });
      expect(res.statusCode).toBe(200);
      return res.json<{ rows: { user_id: string }[] }>().rows.map((r) => r.user_id).filter((u) => u.startsWith('EDGE'));
    };
    expect(await users({})).toEqual(['EDGED', 'EDGEC']);
    // The count (a batch wholly inside the range counted by n, the others entry by entry) is the entries', counted in
    // the view one by one, filtered or not.
    const twoDaysAgo = new Date(startOfToday - 86_400_000 - 3_600_000).toISOString().slice(0, 10);
    for (const filter of [{}, { action: 'sign_out' }, { userId: 'edged' }, { userId: 'xdu' }, { report: 'All_Passenger_Report' }, { start_date: twoDaysAgo }]) {
      const f = { start_date: t.today, end_date: t.today, ...filter } as { start_date: string; end_date: string; action?: string; userId?: string; report?: string };
      const res = await post(su, '/api/audit-trail', f);
      const counted = (await t.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM audit_trail
          WHERE at >= ($1::date)::timestamp AT TIME ZONE 'Asia/Kolkata' AND at < ($2::date + 1)::timestamp AT TIME ZONE 'Asia/Kolkata'
            AND ($3::text IS NULL OR user_id = upper($3)) AND ($4::text IS NULL OR action = $4) AND ($5::text IS NULL OR report = $5)`,
        [f.start_date, f.end_date, f.userId ?? null, f.action ?? null, f.report ?? null],
      )).rows[0]?.n;
      expect(counted, JSON.stringify(filter)).toBeGreaterThan(0);
      expect(res.json<{ total: number }>().total, JSON.stringify(filter)).toBe(counted);
    }
    expect(await users({ userId: 'edgeb' })).toEqual([]);
    expect(await users({ userId: 'edged' })).toEqual(['EDGED']);
    const yesterday = new Date(startOfToday - 3_600_000).toISOString().slice(0, 10);
    const res = await post(su, '/api/audit-trail', { start_date: yesterday, end_date: yesterday, action: 'sign_out', userId: 'edgea' });
    expect(res.json<{ rows: { user_id: string }[] }>().rows.map((r) => r.user_id)).toEqual(['EDGEA']);
  });

  it('lets the writer role add and read entries but never change or remove one', async () => {
    await app.audit.flush();
    const tryAs = (sql: string) =>
      t.db.transaction(async (tx) => {
        await tx.query(`SET LOCAL ROLE ${AUDIT_ROLE}`);
        return tx.query(sql);
      });
    await expect(tryAs(`UPDATE audit_batches SET users = '{X}'`)).rejects.toThrow(/permission denied/);
    await expect(tryAs(`DELETE FROM audit_batches WHERE 'XDU' = ANY (users)`)).rejects.toThrow(/permission denied/);
    await expect(tryAs('TRUNCATE audit_batches')).rejects.toThrow(/permission denied/);
    await expect(tryAs(`DELETE FROM audit_trail WHERE action = 'sign_in'`)).rejects.toThrow(/permission denied|cannot delete/);
    const part = (await auditPartitions(t.db))[0]?.name ?? '';
    await expect(tryAs(`DELETE FROM ${part}`)).rejects.toThrow(/permission denied/);
    expect((await tryAs('SELECT count(*)::int AS n FROM audit_trail')).rows[0]?.n).toBeGreaterThan(0);
    // The owner is stopped too, row by row.
    await expect(t.db.query(`UPDATE audit_batches SET users = '{X}'`)).rejects.toThrow(/append-only/);
    await expect(t.db.query(`DELETE FROM audit_batches WHERE 'XDU' = ANY (users)`)).rejects.toThrow(/append-only/);
  });

  it('keeps 180 days and drops each older month whole', async () => {
    const now = istNoon(t.today);
    const daysAgo = (n: number): Date => new Date(now.getTime() - n * 86_400_000);
    for (const n of [400, 250, 179, 1]) app.audit.record({ action: 'sign_in', userId: `RET${n}`, at: daysAgo(n) });
    await app.audit.flush();
    const kept = async (): Promise<string[]> =>
      (await t.db.query<{ u: string }>(`SELECT user_id AS u FROM audit_trail WHERE user_id LIKE 'RET%' ORDER BY at`)).rows.map((r) => r.u);
    expect(await kept()).toEqual(['RET400', 'RET250', 'RET179', 'RET1']);
    // On PostgreSQL every month's batches, entries and heads, are compressed with lz4 (PGlite has pglz only).
    const compression = await t.db.query<{ name: string; c: string }>(
      `SELECT c.relname || '.' || a.attname AS name, a.attcompression::text AS c FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
         JOIN pg_attribute a ON a.attrelid = c.oid AND a.attname IN ('entries', 'heads') WHERE i.inhparent = 'audit_batches'::regclass`,
    );
    expect(compression.rows.length).toBeGreaterThanOrEqual(8);
    for (const r of compression.rows) expect({ name: r.name, c: r.c }).toEqual({ name: r.name, c: driver === 'pg' ? 'l' : '' });
    const { dropped } = await maintainAuditTrail(t.db, now, 180);
    expect(dropped).toContain(daysAgo(400).toISOString().slice(0, 7));
    expect(dropped).toContain(daysAgo(250).toISOString().slice(0, 7));
    expect(dropped).not.toContain(daysAgo(179).toISOString().slice(0, 7));
    expect(await kept()).toEqual(['RET179', 'RET1']);
    const months = (await auditPartitions(t.db)).map((p) => p.month);
    const cutoffMonth = `${daysAgo(180).toISOString().slice(0, 7)}-01`;
    expect(months.every((m) => m >= cutoffMonth)).toBe(true);
  });
});
