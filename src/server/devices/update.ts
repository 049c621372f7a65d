import type { Db } from '../db';
import { HttpError } from '../plugins/errors';
import type { UserScope } from '../reports/scope';
import type { SessionUser } from '../auth/session-user';
import {
  DEVICE_ADMIN_LEVELS,
  DEVICE_MESSAGES,
  type Device,
  type UpdateDeviceRequest,
} from '../../shared/devices';
import { findDevice, snapshot, toDevice } from './repo';
import { inScope } from './sql';

/** Whether the user's level may change devices at all (ZA, DA, LA, SU). */
export function isDeviceAdmin(user: SessionUser): boolean {
  return DEVICE_ADMIN_LEVELS.includes(user.userLevel);
}

/**
 * Changes a device's status, assignment and remarks in one transaction: permission and scope, the assigned
 * TTE (must exist, same division), optimistic concurrency on version (stale -> 409), version + 1, audit row.
 * onChanged hears the device before and after, once the change is committed.
 */
export async function updateDevice(
  db: Db, user: SessionUser, scope: UserScope, req: UpdateDeviceRequest, now: Date, onChanged?: (before: Device, after: Device) => void,
): Promise<Device> {
  if (!isDeviceAdmin(user)) throw new HttpError(403, DEVICE_MESSAGES.notAdmin);
  const remarks = req.remarks?.trim() ? req.remarks.trim() : null;
  const tteId = req.assignedTteId?.trim() ? req.assignedTteId.trim().toUpperCase() : null;
  if (req.status === 'WITHDRAWN' && tteId) {
    throw new HttpError(400, 'A withdrawn device cannot be assigned to a TTE: clear the assignment', [
      { field: 'assignedTteId', reason: 'must be empty for a withdrawn device' },
    ]);
  }
  const changed = await db.transaction(async (tx) => {
    const current = await findDevice(tx, req.deviceId, true);
    if (!current || !inScope(scope, current)) {
      // Outside scope: say so only when the device exists (the user cannot read it anyway).
      if (current) throw new HttpError(403, DEVICE_MESSAGES.outOfScope);
      throw new HttpError(404, DEVICE_MESSAGES.notFound(req.deviceId));
    }
    if (Number(current.version) !== req.version) throw new HttpError(409, DEVICE_MESSAGES.conflict);
    if (tteId) {
      const tte = (await tx.query<{ div_code: string }>('SELECT div_code FROM ttes WHERE tte_id = $1', [tteId])).rows[0];
      if (!tte) throw new HttpError(400, `No TTE with id ${tteId}`, [{ field: 'assignedTteId', reason: `no TTE with id ${tteId}` }]);
      if (tte.div_code !== current.div_code) {
        throw new HttpError(400, `TTE ${tteId} works in division ${tte.div_code}; this device belongs to ${current.div_code}`, [
          { field: 'assignedTteId', reason: `must be a TTE of division ${current.div_code}` },
        ]);
      }
    }
    const before = toDevice(current);
    const updated = await tx.query(
      `UPDATE devices SET status = $3, assigned_tte_id = $4, remarks = $5, version = version + 1, updated_at = $6, updated_by = $7
        WHERE device_id = $1 AND version = $2
       RETURNING version`,
      [req.deviceId, req.version, req.status, tteId, remarks, now.toISOString(), user.userId],
    );
    // Nobody else's change may be overwritten: no row at the version the user opened -> refused.
    if (updated.rows.length === 0) throw new HttpError(409, DEVICE_MESSAGES.conflict);
    const after = await findDevice(tx, req.deviceId);
    if (!after) throw new HttpError(409, DEVICE_MESSAGES.conflict);
    const afterDevice = toDevice(after);
    await tx.query(
      `INSERT INTO device_audit (device_id, changed_at, changed_by, changed_by_level, before, after)
       VALUES ($1, $2, $3, $4, $5::jsonb, $6::jsonb)`,
      [req.deviceId, now.toISOString(), user.userId, user.userLevel, JSON.stringify(snapshot(before)), JSON.stringify(snapshot(afterDevice))],
    );
    return { before, after: afterDevice };
  });
  onChanged?.(changed.before, changed.after);
  return changed.after;
}
