import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../db';
import { HttpError } from '../plugins/errors';
import { scopeOf } from './reports';
import { findDevice } from '../devices/repo';
import { inScope } from '../devices/sql';
import { isDeviceAdmin } from '../devices/update';
import { DEVICE_MESSAGES } from '../../shared/devices';
import { HHT_SYNC_MESSAGES, type CredentialStatus, type IssuedCredential } from '../../shared/hht-sync';
import { credentialStatus, issueCredential, revokeCredential } from '../hht/credentials';
import { auditDevice } from '../audit/events';

const deviceId = { type: 'string', minLength: 1, maxLength: 32, pattern: '^\\s*[A-Za-z0-9_-]+\\s*$' } as const;
const body = { type: 'object', required: ['deviceId'], additionalProperties: false, properties: { deviceId } } as const;

/** Device credentials for the sync API, managed from the device pages: status (any officer in scope), issue and revoke (device admins). */
export function hhtCredentialRoutes(app: FastifyInstance, deps: { db: Db; suMobiles: readonly string[] }): void {
  const { db, suMobiles } = deps;
  const guard = app.authenticate;

  /** The device, in the user's scope (out of scope reads as not found), and whether the user may manage it. */
  const deviceFor = async (request: FastifyRequest<{ Body: { deviceId: string } }>, manage: boolean): Promise<string> => {
    const scope = scopeOf(request, suMobiles);
    const id = request.body.deviceId.trim().toUpperCase();
    const row = await findDevice(db, id);
    if (!row || !inScope(scope, row)) throw new HttpError(404, DEVICE_MESSAGES.notFound(id));
    const user = request.sessionUser;
    if (manage && (!user || !isDeviceAdmin(user))) throw new HttpError(403, DEVICE_MESSAGES.notAdmin);
    return id;
  };

  app.post<{ Body: { deviceId: string } }>('/api/hht/credentials/status', { preValidation: guard, schema: { body } }, async (request): Promise<CredentialStatus> =>
    credentialStatus(db, await deviceFor(request, false)),
  );

  app.post<{ Body: { deviceId: string } }>('/api/hht/credentials/issue', { preValidation: guard, schema: { body } }, async (request): Promise<IssuedCredential & { message: string }> => {
    const id = await deviceFor(request, true);
    const issued = await issueCredential(db, id, request.sessionUser?.userId ?? '', app.clock.now());
    auditDevice(request, 'credential_issued', { deviceId: id });
    return { ...issued, message: HHT_SYNC_MESSAGES.issued(id) };
  });

  app.post<{ Body: { deviceId: string } }>('/api/hht/credentials/revoke', { preValidation: guard, schema: { body } }, async (request): Promise<{ message: string }> => {
    const id = await deviceFor(request, true);
    if (!(await revokeCredential(db, id, request.sessionUser?.userId ?? '', app.clock.now()))) throw new HttpError(409, HHT_SYNC_MESSAGES.noActive(id));
    auditDevice(request, 'credential_revoked', { deviceId: id });
    return { message: HHT_SYNC_MESSAGES.revoked(id) };
  });
}
