import type { Queryable } from '../db';
import type { UserScope } from '../reports/scope';
import {
  DEVICE_LIMITS,
  type AssignableTte,
  type Device,
  type DeviceAuditEntry,
  type DeviceList,
  type DeviceSnapshot,
  type DeviceStatus,
  type DeviceTteCount,
  type DeviceUse,
  type MultipleDeviceCount,
  type MultipleDeviceInfo,
  type TteDeviceCount,
} from '../../shared/devices';
import { iso, isoOrNull, scopeSql } from './sql';

export const DEVICE_SCOPE = { zone: 'd.zone_code', division: 'd.div_code', lobby: 'd.lobby_code' } as const;
const TTE_SCOPE = { zone: 't.zone_code', division: 't.div_code', lobby: 't.lobby_code' } as const;
const BEAT_SCOPE = { zone: 'b.zone_code', division: 'b.div_code', lobby: 'b.lobby_code' } as const;

export interface DeviceRow {
  device_id: string;
  serial_no: string;
  imei: string;
  make: string;
  model: string;
  app_version: string;
  status: DeviceStatus;
  zone_code: string;
  div_code: string;
  lobby_code: string;
  assigned_tte_id: string | null;
  assigned_tte_name: string | null;
  registered_on: unknown;
  last_sync_at: unknown;
  remarks: string | null;
  version: number;
  updated_at: unknown;
  updated_by: string | null;
}

export const DEVICE_COLUMNS = `d.device_id, d.serial_no, d.imei, d.make, d.model, d.app_version, d.status, d.zone_code, d.div_code,
  d.lobby_code, d.assigned_tte_id, tt.name AS assigned_tte_name, d.registered_on, d.last_sync_at, d.remarks, d.version,
  d.updated_at, d.updated_by`;
export const DEVICE_FROM = 'devices d LEFT JOIN ttes tt ON tt.tte_id = d.assigned_tte_id';

export function toDevice(r: DeviceRow): Device {
  return {
    deviceId: r.device_id,
    serialNo: r.serial_no,
    imei: r.imei,
    make: r.make,
    model: r.model,
    appVersion: r.app_version,
    status: r.status,
    zoneCode: r.zone_code,
    divCode: r.div_code,
    lobbyCode: r.lobby_code,
    assignedTteId: r.assigned_tte_id,
    assignedTteName: r.assigned_tte_name,
    registeredOn: iso(r.registered_on).slice(0, 10),
    lastSyncAt: isoOrNull(r.last_sync_at),
    remarks: r.remarks,
    version: Number(r.version),
    updatedAt: iso(r.updated_at),
    updatedBy: r.updated_by,
  };
}

export function snapshot(d: Pick<Device, 'status' | 'assignedTteId' | 'remarks' | 'version'>): DeviceSnapshot {
  return { status: d.status, assignedTteId: d.assignedTteId, remarks: d.remarks, version: d.version };
}

export interface ListQuery {
  q?: string;
  status?: DeviceStatus;
  page: number;
  rowsPerPage: number;
}

/** Devices in scope, searched by id, serial, IMEI, model or assigned TTE, one page at a time. */
export async function listDevices(db: Queryable, scope: UserScope, query: ListQuery): Promise<DeviceList> {
  const where: string[] = [];
  const params: unknown[] = [];
  const s = scopeSql(scope, DEVICE_SCOPE, params.length + 1);
  where.push(s.sql);
  params.push(...s.params);
  if (query.q) {
    params.push(`%${query.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    const p = `$${params.length}`;
    where.push(`(d.device_id ILIKE ${p} OR d.serial_no ILIKE ${p} OR d.imei ILIKE ${p} OR d.model ILIKE ${p}
                 OR d.assigned_tte_id ILIKE ${p} OR tt.name ILIKE ${p} OR d.lobby_code ILIKE ${p})`);
  }
  if (query.status) {
    params.push(query.status);
    where.push(`d.status = $${params.length}`);
  }
  const whereSql = where.join(' AND ');
  const total = (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${DEVICE_FROM} WHERE ${whereSql}`, params)).rows[0]?.n ?? 0;
  const offset = (query.page - 1) * query.rowsPerPage;
  const rows = (
    await db.query<DeviceRow>(
      `SELECT ${DEVICE_COLUMNS} FROM ${DEVICE_FROM} WHERE ${whereSql} ORDER BY d.device_id LIMIT ${query.rowsPerPage} OFFSET ${offset}`,
      params,
    )
  ).rows;
  return { rows: rows.map(toDevice), total, page: query.page, rowsPerPage: query.rowsPerPage };
}

export async function findDevice(db: Queryable, deviceId: string, lock = false): Promise<DeviceRow | undefined> {
  const sql = lock
    ? `SELECT ${DEVICE_COLUMNS} FROM devices d LEFT JOIN ttes tt ON tt.tte_id = d.assigned_tte_id WHERE d.device_id = $1 FOR UPDATE OF d`
    : `SELECT ${DEVICE_COLUMNS} FROM ${DEVICE_FROM} WHERE d.device_id = $1`;
  return (await db.query<DeviceRow>(sql, [deviceId])).rows[0];
}

/** Which TTE used the device on which train and date (latest first). */
export async function deviceHistory(db: Queryable, deviceId: string): Promise<DeviceUse[]> {
  const { rows } = await db.query<{
    start_date: unknown; train_no: string; train_name: string; beat_no: number; from_station: string; to_station: string;
    tte_id: string; tte_name: string; sign_on_at: unknown; sign_off_at: unknown;
  }>(
    `SELECT r.start_date, r.train_no, tr.name AS train_name, b.beat_no, b.from_station, b.to_station, b.tte_id,
            t.name AS tte_name, b.sign_on_at, b.sign_off_at
       FROM beats b
       JOIN train_runs r ON r.run_id = b.run_id
       JOIN trains tr ON tr.train_no = r.train_no
       JOIN ttes t ON t.tte_id = b.tte_id
      WHERE b.device_id = $1
      ORDER BY r.start_date DESC, b.sign_on_at DESC NULLS LAST, b.beat_id DESC
      LIMIT ${DEVICE_LIMITS.historyMax}`,
    [deviceId],
  );
  return rows.map((r) => ({
    startDate: iso(r.start_date).slice(0, 10),
    trainNo: r.train_no,
    trainName: r.train_name,
    beatNo: Number(r.beat_no),
    fromStation: r.from_station,
    toStation: r.to_station,
    tteId: r.tte_id,
    tteName: r.tte_name,
    signOnAt: isoOrNull(r.sign_on_at),
    signOffAt: isoOrNull(r.sign_off_at),
  }));
}

export async function deviceAudit(db: Queryable, deviceId: string): Promise<DeviceAuditEntry[]> {
  const { rows } = await db.query<{
    audit_id: number; changed_at: unknown; changed_by: string; changed_by_level: string; before: DeviceSnapshot | string; after: DeviceSnapshot | string;
  }>(
    `SELECT audit_id, changed_at, changed_by, changed_by_level, before, after
       FROM device_audit WHERE device_id = $1 ORDER BY changed_at DESC, audit_id DESC`,
    [deviceId],
  );
  const json = (v: DeviceSnapshot | string): DeviceSnapshot => (typeof v === 'string' ? (JSON.parse(v) as DeviceSnapshot) : v);
  return rows.map((r) => ({
    auditId: Number(r.audit_id),
    changedAt: iso(r.changed_at),
    changedBy: r.changed_by,
    changedByLevel: r.changed_by_level,
    before: json(r.before),
    after: json(r.after),
  }));
}

/** TTEs of the device's division (the ones it may be assigned to). */
export async function assignableTtes(db: Queryable, divCode: string): Promise<AssignableTte[]> {
  const { rows } = await db.query<{ tte_id: string; name: string; lobby_code: string }>(
    'SELECT tte_id, name, lobby_code FROM ttes WHERE div_code = $1 ORDER BY lobby_code, name, tte_id',
    [divCode],
  );
  return rows.map((r) => ({ tteId: r.tte_id, name: r.name, lobbyCode: r.lobby_code }));
}

export async function devicesWithTteCount(db: Queryable, scope: UserScope): Promise<DeviceTteCount[]> {
  const s = scopeSql(scope, DEVICE_SCOPE, 1);
  const { rows } = await db.query<{
    device_id: string; serial_no: string; status: DeviceStatus; div_code: string; lobby_code: string; tte_count: number; last_used_on: unknown;
  }>(
    `SELECT d.device_id, d.serial_no, d.status, d.div_code, d.lobby_code,
            count(DISTINCT b.tte_id)::int AS tte_count, max(r.start_date) AS last_used_on
       FROM devices d
       LEFT JOIN beats b ON b.device_id = d.device_id
       LEFT JOIN train_runs r ON r.run_id = b.run_id
      WHERE ${s.sql}
      GROUP BY d.device_id, d.serial_no, d.status, d.div_code, d.lobby_code
      ORDER BY tte_count DESC, d.device_id`,
    s.params,
  );
  return rows.map((r) => ({
    deviceId: r.device_id,
    serialNo: r.serial_no,
    status: r.status,
    divCode: r.div_code,
    lobbyCode: r.lobby_code,
    tteCount: Number(r.tte_count),
    lastUsedOn: isoOrNull(r.last_used_on)?.slice(0, 10) ?? null,
  }));
}

export async function ttesWithDeviceCount(db: Queryable, scope: UserScope): Promise<TteDeviceCount[]> {
  const s = scopeSql(scope, TTE_SCOPE, 1);
  const { rows } = await db.query<{ tte_id: string; name: string; lobby_code: string; div_code: string; device_count: number }>(
    `SELECT t.tte_id, t.name, t.lobby_code, t.div_code, count(DISTINCT b.device_id)::int AS device_count
       FROM ttes t
       LEFT JOIN beats b ON b.tte_id = t.tte_id AND b.device_id IS NOT NULL
      WHERE ${s.sql}
      GROUP BY t.tte_id, t.name, t.lobby_code, t.div_code
      ORDER BY device_count DESC, t.tte_id`,
    s.params,
  );
  return rows.map((r) => ({ tteId: r.tte_id, tteName: r.name, lobbyCode: r.lobby_code, divCode: r.div_code, deviceCount: Number(r.device_count) }));
}

/** TTEs who used more than one HHT on runs of one start date. */
export async function multipleDeviceCount(db: Queryable, scope: UserScope, startDate: string): Promise<MultipleDeviceCount> {
  const s = scopeSql(scope, BEAT_SCOPE, 2);
  const { rows } = await db.query<{ tte_id: string; name: string; lobby_code: string; device_count: number }>(
    `SELECT b.tte_id, t.name, t.lobby_code, count(DISTINCT b.device_id)::int AS device_count
       FROM beats b
       JOIN train_runs r ON r.run_id = b.run_id
       JOIN ttes t ON t.tte_id = b.tte_id
      WHERE r.start_date = $1::date AND b.device_id IS NOT NULL AND ${s.sql}
      GROUP BY b.tte_id, t.name, t.lobby_code
     HAVING count(DISTINCT b.device_id) > 1
      ORDER BY device_count DESC, b.tte_id`,
    [startDate, ...s.params],
  );
  return {
    startDate,
    rows: rows.map((r) => ({ tteId: r.tte_id, tteName: r.name, lobbyCode: r.lobby_code, deviceCount: Number(r.device_count) })),
  };
}

export async function multipleDeviceInfo(db: Queryable, scope: UserScope, tteId: string, startDate: string): Promise<MultipleDeviceInfo> {
  const s = scopeSql(scope, BEAT_SCOPE, 3);
  const { rows } = await db.query<{
    device_id: string; serial_no: string; train_no: string; beat_no: number; from_station: string; to_station: string; sign_on_at: unknown; sign_off_at: unknown;
  }>(
    `SELECT b.device_id, d.serial_no, r.train_no, b.beat_no, b.from_station, b.to_station, b.sign_on_at, b.sign_off_at
       FROM beats b
       JOIN train_runs r ON r.run_id = b.run_id
       JOIN devices d ON d.device_id = b.device_id
      WHERE b.tte_id = $1 AND r.start_date = $2::date AND ${s.sql}
      ORDER BY b.sign_on_at NULLS LAST, b.beat_id`,
    [tteId, startDate, ...s.params],
  );
  return {
    tteId,
    startDate,
    rows: rows.map((r) => ({
      deviceId: r.device_id,
      serialNo: r.serial_no,
      trainNo: r.train_no,
      beatNo: Number(r.beat_no),
      fromStation: r.from_station,
      toStation: r.to_station,
      signOnAt: isoOrNull(r.sign_on_at),
      signOffAt: isoOrNull(r.sign_off_at),
    })),
  };
}
