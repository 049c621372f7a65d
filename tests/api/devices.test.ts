import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { TEST_DRIVERS, type TestDb } from '../support/db';
import { cloneSeededTestDb } from '../support/seeded';
import { buildTestApp } from '../support/app';
import { loginAs, type SignedIn } from '../support/login';
import { manualClock } from '../../src/server/clock';
import { DEVICE_MESSAGES, type Device, type DeviceDetails, type DeviceList } from '../../src/shared/devices';
import { EXTRAS_USERS, insertExtrasUsers, istNoon } from './extras-users';

describe.each(TEST_DRIVERS)('devices on %s', (driver) => {
  let t: TestDb & { today: string };
  let app: FastifyInstance;
  const who: Record<keyof typeof EXTRAS_USERS, SignedIn> = {} as Record<keyof typeof EXTRAS_USERS, SignedIn>;
  let dliDevice: string;
  let bbDevice: string;
  let dliTte: string;
  let otherDivTte: string;

  beforeAll(async () => {
    t = await cloneSeededTestDb(driver);
    app = await buildTestApp(t.db, { clock: manualClock(istNoon(t.today)) });
    await insertExtrasUsers(t.db);
    for (const k of Object.keys(EXTRAS_USERS) as (keyof typeof EXTRAS_USERS)[]) who[k] = await loginAs(app, EXTRAS_USERS[k].userId);
    const q = async (sql: string) => (await t.db.query<{ id: string }>(sql)).rows[0]?.id ?? '';
    dliDevice = await q(`SELECT device_id AS id FROM devices WHERE div_code = 'DLI' AND lobby_code = 'NDLS' AND status = 'IN_SERVICE' ORDER BY device_id LIMIT 1`);
    bbDevice = await q(`SELECT device_id AS id FROM devices WHERE div_code = 'BB' ORDER BY device_id LIMIT 1`);
    dliTte = await q(`SELECT tte_id AS id FROM ttes WHERE div_code = 'DLI' ORDER BY tte_id LIMIT 1`);
    otherDivTte = await q(`SELECT tte_id AS id FROM ttes WHERE div_code = 'UMB' ORDER BY tte_id LIMIT 1`);
    expect([dliDevice, bbDevice, dliTte, otherDivTte].every(Boolean)).toBe(true);
  });
  afterAll(async () => {
    await app?.close();
    await t?.drop();
  });

  const get = (s: SignedIn | null, url: string) => app.inject({ method: 'GET', url, headers: s?.headers() ?? {} });
  const post = (s: SignedIn | null, url: string, payload: object) => app.inject({ method: 'POST', url, headers: s?.headers() ?? {}, payload });
  const detail = async (s: SignedIn, deviceId: string) => (await post(s, '/api/DeviceDetailsWithDeviceId', { deviceId })).json<DeviceDetails>();
  const version = async (id: string) => Number((await t.db.query<{ version: number }>('SELECT version FROM devices WHERE device_id = $1', [id])).rows[0]?.version);
  const auditCount = async (id: string) =>
    Number((await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM device_audit WHERE device_id = $1', [id])).rows[0]?.n);

  it('refuses the device calls without a session', async () => {
    expect((await get(null, '/api/Device')).statusCode).toBe(403);
    expect((await post(null, '/api/UpdateDevice', { deviceId: dliDevice })).statusCode).toBe(403);
  });

  it('lists devices within the user scope, with search, status filter and paging', async () => {
    const all = (await get(who.su, '/api/Device?rowsPerPage=200')).json<DeviceList>();
    const total = Number((await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM devices')).rows[0]?.n);
    expect(all.total).toBe(total);
    expect(all.rows).toHaveLength(200);
    const div = (await get(who.div, '/api/Device?rowsPerPage=200')).json<DeviceList>();
    expect(div.total).toBeGreaterThan(0);
    expect(div.total).toBeLessThan(total);
    expect(div.rows.every((d) => d.divCode === 'DLI')).toBe(true);
    const lobby = (await get(who.la, '/api/Device?rowsPerPage=200')).json<DeviceList>();
    expect(lobby.rows.every((d) => d.lobbyCode === 'NDLS')).toBe(true);
    const zone = (await get(who.za, '/api/Device?rowsPerPage=200')).json<DeviceList>();
    expect(zone.rows.every((d) => d.zoneCode === 'NR')).toBe(true);

    const found = (await get(who.div, `/api/Device?q=${dliDevice.toLowerCase()}`)).json<DeviceList>();
    expect(found.rows.map((d) => d.deviceId)).toContain(dliDevice);
    expect((await get(who.div, `/api/Device?q=${bbDevice}`)).json<DeviceList>().total).toBe(0);
    expect((await get(who.su, '/api/Device?q=%25')).json<DeviceList>().total).toBe(0); // % is a literal, not a wildcard

    const lost = (await get(who.su, '/api/Device?status=LOST&rowsPerPage=200')).json<DeviceList>();
    expect(lost.total).toBeGreaterThan(0);
    expect(lost.rows.every((d) => d.status === 'LOST')).toBe(true);

    const p2 = (await get(who.su, '/api/Device?page=2&rowsPerPage=10')).json<DeviceList>();
    expect(p2.page).toBe(2);
    expect(p2.rows[0]?.deviceId).toBe(all.rows[10]?.deviceId);
  });

  it('answers bad list parameters with 400 naming them', async () => {
    const bad = await get(who.su, '/api/Device?status=BROKEN&page=0');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields.map((f: { field: string }) => f.field).sort()).toEqual(['page', 'status']);
    const big = await get(who.su, '/api/Device?rowsPerPage=5000');
    expect(big.statusCode).toBe(400);
    expect(big.json().fields[0].field).toBe('rowsPerPage');
  });

  it('shows detail with assignment history and hides devices outside the scope', async () => {
    const used = (await t.db.query<{ id: string; tte: string }>(
      `SELECT b.device_id AS id, b.tte_id AS tte FROM beats b WHERE b.div_code = 'DLI' AND b.device_id IS NOT NULL
         AND EXISTS (SELECT 1 FROM devices d WHERE d.device_id = b.device_id AND d.div_code = 'DLI') LIMIT 1`,
    )).rows[0];
    expect(used).toBeDefined();
    const d = await detail(who.div, used?.id ?? '');
    expect(d.device.deviceId).toBe(used?.id);
    expect(d.history.length).toBeGreaterThan(0);
    expect(d.history.map((h) => h.tteId)).toContain(used?.tte);
    expect(d.history[0]).toMatchObject({ trainNo: expect.stringMatching(/^\d{5}$/), startDate: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) });
    expect(d.canEdit).toBe(true);
    expect(d.assignableTtes.every((x) => x.tteId !== otherDivTte)).toBe(true);
    expect((await detail(who.du, used?.id ?? '')).canEdit).toBe(false);
    const outside = await post(who.div, '/api/DeviceDetailsWithDeviceId', { deviceId: bbDevice });
    expect(outside.statusCode).toBe(404);
    expect((await post(who.div, '/api/DeviceDetailsWithDeviceId', {})).json().fields[0].field).toBe('deviceId');
  });

  const update = (s: SignedIn, body: Record<string, unknown>) => post(s, '/api/UpdateDevice', body);

  it('refuses a division administrator a device outside DLI (403) and leaves it unchanged', async () => {
    const v = await version(bbDevice);
    const res = await update(who.div, { deviceId: bbDevice, version: v, status: 'UNDER_REPAIR', assignedTteId: null, remarks: 'not mine' });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe(DEVICE_MESSAGES.outOfScope);
    expect(await version(bbDevice)).toBe(v);
    expect(await auditCount(bbDevice)).toBe(0);
  });

  it('refuses DU, LU and ZU levels (403) even inside their scope', async () => {
    const v = await version(dliDevice);
    for (const s of [who.du, who.lu, who.zu]) {
      const res = await update(s, { deviceId: dliDevice, version: v, status: 'UNDER_REPAIR', assignedTteId: null });
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toBe(DEVICE_MESSAGES.notAdmin);
    }
    expect(await version(dliDevice)).toBe(v);
  });

  it('updates within scope, bumps the version and writes an audit row with before and after', async () => {
    const before = (await detail(who.div, dliDevice)).device;
    const res = await update(who.div, {
      deviceId: dliDevice, version: before.version, status: 'UNDER_REPAIR', assignedTteId: dliTte, remarks: '  Screen cracked, sent to vendor  ',
    });
    expect(res.statusCode).toBe(200);
    const after = res.json<{ device: Device }>().device;
    expect(after).toMatchObject({ status: 'UNDER_REPAIR', assignedTteId: dliTte, remarks: 'Screen cracked, sent to vendor', version: before.version + 1, updatedBy: 'XDIV' });
    const d = await detail(who.div, dliDevice);
    expect(d.audit).toHaveLength(1);
    expect(d.audit[0]).toMatchObject({
      changedBy: 'XDIV',
      changedByLevel: 'DA',
      before: { status: before.status, assignedTteId: before.assignedTteId, version: before.version },
      after: { status: 'UNDER_REPAIR', assignedTteId: dliTte, remarks: 'Screen cracked, sent to vendor', version: before.version + 1 },
    });
    expect(new Date(d.audit[0]?.changedAt ?? '').getTime()).toBe(app.clock.now().getTime());
  });

  it('refuses the second save of a stale record with 409 and the reload message', async () => {
    const v = await version(dliDevice);
    const first = await update(who.su, { deviceId: dliDevice, version: v, status: 'IN_SERVICE', assignedTteId: null });
    expect(first.statusCode).toBe(200);
    const second = await update(who.div, { deviceId: dliDevice, version: v, status: 'LOST', assignedTteId: null });
    expect(second.statusCode).toBe(409);
    expect(second.json().message).toBe(DEVICE_MESSAGES.conflict);
    expect((await detail(who.su, dliDevice)).device.status).toBe('IN_SERVICE');
  });

  it('validates the body: 400 naming fields, assigned TTE must exist and be of the device division', async () => {
    const v = await version(dliDevice);
    const bad = await update(who.su, { deviceId: dliDevice, version: 'x', status: 'BROKEN', assignedTteId: null, extra: 1 });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields.map((f: { field: string }) => f.field).sort()).toEqual(['extra', 'status', 'version']);
    const missing = await update(who.su, { deviceId: dliDevice, status: 'LOST' });
    expect(missing.json().fields.map((f: { field: string }) => f.field).sort()).toEqual(['assignedTteId', 'version']);
    const long = await update(who.su, { deviceId: dliDevice, version: v, status: 'LOST', assignedTteId: null, remarks: 'x'.repeat(501) });
    expect(long.json().fields[0].field).toBe('remarks');
    const ghost = await update(who.su, { deviceId: dliDevice, version: v, status: 'IN_SERVICE', assignedTteId: 'NOSUCH01' });
    expect(ghost.statusCode).toBe(400);
    expect(ghost.json().fields[0]).toMatchObject({ field: 'assignedTteId' });
    const foreign = await update(who.su, { deviceId: dliDevice, version: v, status: 'IN_SERVICE', assignedTteId: otherDivTte });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().fields[0].reason).toContain('DLI');
    const withdrawn = await update(who.su, { deviceId: dliDevice, version: v, status: 'WITHDRAWN', assignedTteId: dliTte });
    expect(withdrawn.statusCode).toBe(400);
    const unknown = await update(who.su, { deviceId: 'NOPE1', version: 1, status: 'LOST', assignedTteId: null });
    expect(unknown.statusCode).toBe(404);
    expect(await version(dliDevice)).toBe(v);
  });

  it('needs the XSRF header on an update', async () => {
    const v = await version(dliDevice);
    const { 'x-xsrf-token': _x, ...headers } = who.su.headers();
    const res = await app.inject({ method: 'POST', url: '/api/UpdateDevice', headers, payload: { deviceId: dliDevice, version: v, status: 'LOST', assignedTteId: null } });
    expect(res.statusCode).toBe(403);
    expect(await version(dliDevice)).toBe(v);
  });

  it('rolls the update back when the audit row cannot be written', async () => {
    const v = await version(dliDevice);
    const audits = await auditCount(dliDevice);
    await t.db.exec('ALTER TABLE device_audit ADD CONSTRAINT test_refuse_audit CHECK (changed_by <> \'XSU\') NOT VALID');
    try {
      const res = await update(who.su, { deviceId: dliDevice, version: v, status: 'LOST', assignedTteId: null });
      expect(res.statusCode).toBe(500);
      expect(res.body).not.toContain('test_refuse_audit');
    } finally {
      await t.db.exec('ALTER TABLE device_audit DROP CONSTRAINT test_refuse_audit');
    }
    expect(await version(dliDevice)).toBe(v);
    expect(await auditCount(dliDevice)).toBe(audits);
    expect((await detail(who.su, dliDevice)).device.status).not.toBe('LOST');
  });

  it('counts TTEs per device and devices per TTE within the scope', async () => {
    const perDevice = (await get(who.div, '/api/DeviceWithTteCount')).json<{ deviceId: string; divCode: string; tteCount: number }[]>();
    expect(perDevice.length).toBeGreaterThan(0);
    expect(perDevice.every((d) => d.divCode === 'DLI')).toBe(true);
    const expected = (await t.db.query<{ id: string; n: number }>(
      `SELECT b.device_id AS id, count(DISTINCT b.tte_id)::int AS n FROM beats b JOIN devices d ON d.device_id = b.device_id
        WHERE d.div_code = 'DLI' GROUP BY b.device_id ORDER BY n DESC, id LIMIT 1`,
    )).rows[0];
    expect(perDevice.find((d) => d.deviceId === expected?.id)?.tteCount).toBe(expected?.n);
    const perTte = (await get(who.div, '/api/TteUserIdWithDeviceCount')).json<{ tteId: string; divCode: string; deviceCount: number }[]>();
    expect(perTte.length).toBeGreaterThan(0);
    expect(perTte.every((x) => x.divCode === 'DLI')).toBe(true);
    expect(perTte.some((x) => x.deviceCount > 0)).toBe(true);
  });

  it('finds TTEs who used more than one device on a date, and their devices', async () => {
    const beats = (await t.db.query<{ beat_id: number; tte_id: string; device_id: string }>(
      `SELECT b.beat_id, b.tte_id, b.device_id FROM beats b JOIN train_runs r ON r.run_id = b.run_id
        WHERE r.start_date = $1::date AND b.div_code = 'DLI' AND b.device_id IS NOT NULL ORDER BY b.beat_id LIMIT 2`,
      [t.today],
    )).rows;
    expect(beats).toHaveLength(2);
    const [a, b] = beats as [typeof beats[number], typeof beats[number]];
    expect(a.device_id).not.toBe(b.device_id);
    await t.db.query('UPDATE beats SET tte_id = $1 WHERE beat_id = $2', [a.tte_id, b.beat_id]);
    const count = (await post(who.div, '/api/multipleDeviceCount', { startDate: t.today })).json<{ startDate: string; rows: { tteId: string; deviceCount: number }[] }>();
    expect(count.startDate).toBe(t.today);
    expect(count.rows).toContainEqual(expect.objectContaining({ tteId: a.tte_id, deviceCount: 2 }));
    const byDefault = (await post(who.div, '/api/multipleDeviceCount', {})).json<{ startDate: string }>();
    expect(byDefault.startDate).toBe(t.today);
    const other = (await post(who.bct, '/api/multipleDeviceCount', { startDate: t.today })).json<{ rows: { tteId: string }[] }>();
    expect(other.rows.map((r) => r.tteId)).not.toContain(a.tte_id);
    const info = (await post(who.div, '/api/multipleDeviceInfo', { tteId: a.tte_id, startDate: t.today })).json<{ rows: { deviceId: string }[] }>();
    expect(info.rows.map((r) => r.deviceId).sort()).toEqual([a.device_id, b.device_id].sort());
    const hidden = (await post(who.bct, '/api/multipleDeviceInfo', { tteId: a.tte_id, startDate: t.today })).json<{ rows: unknown[] }>();
    expect(hidden.rows).toHaveLength(0);
    const bad = await post(who.div, '/api/multipleDeviceInfo', { tteId: a.tte_id, startDate: '15/03/2026' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields[0].field).toBe('startDate');
  });
});
