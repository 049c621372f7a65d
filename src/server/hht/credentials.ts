import { createHash, randomBytes } from 'node:crypto';
import type { Db, Queryable } from '../db';
import { HttpError } from '../plugins/errors';
import { HHT_SYNC_MESSAGES, type CredentialStatus, type IssuedCredential } from '../../shared/hht-sync';

const sha256 = (token: string): string => createHash('sha256').update(token).digest('hex');

/**
 * Issues a new credential for a device: 32 random bytes shown once, only the SHA-256 stored (a random token
 * needs no slow hash: it cannot be guessed from a dictionary). Issuing revokes the device's previous credential.
 */
export async function issueCredential(db: Db, deviceId: string, by: string, now: Date): Promise<IssuedCredential> {
  const token = randomBytes(32).toString('base64url');
  await db.transaction(async (tx) => {
    await revokeActive(tx, deviceId, by, now);
    await tx.query('INSERT INTO hht_credentials (device_id, token_sha256, issued_at, issued_by) VALUES ($1, $2, $3, $4)', [
      deviceId,
      sha256(token),
      now.toISOString(),
      by,
    ]);
  });
  return { deviceId, token, issuedAt: now.toISOString() };
}

async function revokeActive(tx: Queryable, deviceId: string, by: string, now: Date): Promise<number> {
  const { rows } = await tx.query(
    'UPDATE hht_credentials SET revoked_at = $2, revoked_by = $3 WHERE device_id = $1 AND revoked_at IS NULL RETURNING credential_id',
    [deviceId, now.toISOString(), by],
  );
  return rows.length;
}

/** Revokes the device's active credential; false when it had none. */
export async function revokeCredential(db: Db, deviceId: string, by: string, now: Date): Promise<boolean> {
  return (await revokeActive(db, deviceId, by, now)) > 0;
}

export async function credentialStatus(db: Queryable, deviceId: string): Promise<CredentialStatus> {
  const { rows } = await db.query<{ issued_at: Date | string; issued_by: string }>(
    'SELECT issued_at, issued_by FROM hht_credentials WHERE device_id = $1 AND revoked_at IS NULL ORDER BY credential_id DESC LIMIT 1',
    [deviceId],
  );
  const row = rows[0];
  return {
    deviceId,
    active: row !== undefined,
    issuedAt: row ? new Date(row.issued_at).toISOString() : null,
    issuedBy: row?.issued_by ?? null,
  };
}

/** Status of devices that may not sync, whatever their credential. */
const REFUSED_STATUSES = new Set(['LOST', 'WITHDRAWN']);

/** The device a bearer token belongs to: 401 without a valid, unrevoked credential; 403 for a LOST or WITHDRAWN device. */
export async function authenticateDevice(db: Queryable, authorization: string | undefined): Promise<string> {
  const m = /^Bearer ([A-Za-z0-9_-]{20,100})$/.exec(authorization ?? '');
  if (!m?.[1]) throw new HttpError(401, HHT_SYNC_MESSAGES.noCredential);
  const { rows } = await db.query<{ device_id: string; status: string }>(
    `SELECT c.device_id, d.status FROM hht_credentials c JOIN devices d USING (device_id)
     WHERE c.token_sha256 = $1 AND c.revoked_at IS NULL`,
    [sha256(m[1])],
  );
  const row = rows[0];
  if (!row) throw new HttpError(401, HHT_SYNC_MESSAGES.badCredential);
  if (REFUSED_STATUSES.has(row.status)) throw new HttpError(403, HHT_SYNC_MESSAGES.deviceRefused(row.device_id, row.status));
  return row.device_id;
}
