import type { FastifyInstance } from 'fastify';
import type { Db } from '../db';
import { istDate } from '../clock';
import { HttpError } from '../plugins/errors';
import { isoDateSchema } from '../plugins/schema-formats';
import { scopeOf } from './reports';
import {
  assignableTtes,
  deviceAudit,
  deviceHistory,
  devicesWithTteCount,
  findDevice,
  listDevices,
  multipleDeviceCount,
  multipleDeviceInfo,
  snapshot,
  toDevice,
  ttesWithDeviceCount,
} from '../devices/repo';
import { isDeviceAdmin, updateDevice } from '../devices/update';
import { auditDevice } from '../audit/events';
import { inScope } from '../devices/sql';
import {
  DEVICE_LIMITS,
  DEVICE_MESSAGES,
  DEVICE_STATUSES,
  type DeviceDetails,
  type DeviceList,
  type DeviceStatus,
  type DeviceTteCount,
  type MultipleDeviceCount,
  type MultipleDeviceInfo,
  type TteDeviceCount,
  type UpdateDeviceRequest,
  type UpdateDeviceResponse,
} from '../../shared/devices';

const deviceId = { type: 'string', minLength: 1, maxLength: 32, pattern: '^\\s*[A-Za-z0-9_-]+\\s*$' } as const;
const tteId = { type: 'string', minLength: 1, maxLength: 32, pattern: '^\\s*[A-Za-z0-9_-]+\\s*$' } as const;
const isoDate = isoDateSchema;
const positive = { type: 'string', pattern: '^[1-9][0-9]{0,5}$' } as const;

/** HHT device management (spec section 7): list, detail with history and audit, update, usage counts. */
export function deviceRoutes(app: FastifyInstance, deps: { db: Db; suMobiles: readonly string[] }): void {
  const { db, suMobiles } = deps;
  const guard = app.authenticate;
  const today = (): string => istDate(app.clock.now());

  app.get<{ Querystring: { q?: string; status?: DeviceStatus; page?: string; rowsPerPage?: string } }>(
    '/api/Device',
    {
      preValidation: guard,
      schema: {
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: {
            q: { type: 'string', maxLength: DEVICE_LIMITS.searchMax },
            status: { type: 'string', enum: [...DEVICE_STATUSES] },
            page: positive,
            rowsPerPage: positive,
          },
        },
      },
    },
    async (request): Promise<DeviceList> => {
      const scope = scopeOf(request, suMobiles);
      const { q, status, page, rowsPerPage } = request.query;
      const size = rowsPerPage ? Number(rowsPerPage) : 25;
      if (size > DEVICE_LIMITS.pageSizeMax) {
        throw new HttpError(400, `rowsPerPage must be at most ${DEVICE_LIMITS.pageSizeMax}`, [
          { field: 'rowsPerPage', reason: `must be at most ${DEVICE_LIMITS.pageSizeMax}` },
        ]);
      }
      const query: Parameters<typeof listDevices>[2] = { page: page ? Number(page) : 1, rowsPerPage: size };
      const search = q?.trim();
      if (search) query.q = search;
      if (status) query.status = status;
      return listDevices(db, scope, query);
    },
  );

  app.post<{ Body: { deviceId: string } }>(
    '/api/DeviceDetailsWithDeviceId',
    {
      preValidation: guard,
      schema: { body: { type: 'object', required: ['deviceId'], additionalProperties: false, properties: { deviceId } } },
    },
    async (request): Promise<DeviceDetails> => {
      const scope = scopeOf(request, suMobiles);
      const id = request.body.deviceId.trim().toUpperCase();
      const row = await findDevice(db, id);
      // Out of scope reads as not found: the user has no business knowing the device exists.
      if (!row || !inScope(scope, row)) throw new HttpError(404, DEVICE_MESSAGES.notFound(id));
      const user = request.sessionUser;
      const canEdit = user !== undefined && isDeviceAdmin(user);
      return {
        device: toDevice(row),
        history: await deviceHistory(db, id),
        audit: await deviceAudit(db, id),
        canEdit,
        assignableTtes: canEdit ? await assignableTtes(db, row.div_code) : [],
      };
    },
  );

  app.post<{ Body: UpdateDeviceRequest }>(
    '/api/UpdateDevice',
    {
      preValidation: guard,
      schema: {
        body: {
          type: 'object',
          required: ['deviceId', 'version', 'status', 'assignedTteId'],
          additionalProperties: false,
          properties: {
            deviceId,
            version: { type: 'integer', minimum: 1 },
            status: { type: 'string', enum: [...DEVICE_STATUSES] },
            assignedTteId: { anyOf: [tteId, { type: 'null' }, { type: 'string', maxLength: 0 }] },
            remarks: { type: ['string', 'null'], maxLength: DEVICE_LIMITS.remarksMax },
          },
        },
      },
    },
    async (request): Promise<UpdateDeviceResponse> => {
      const user = request.sessionUser;
      if (!user) throw new HttpError(403, 'Session expired, Please login again');
      if (!isDeviceAdmin(user)) throw new HttpError(403, DEVICE_MESSAGES.notAdmin);
      const scope = scopeOf(request, suMobiles);
      const body = { ...request.body, deviceId: request.body.deviceId.trim().toUpperCase() };
      const device = await updateDevice(db, user, scope, body, app.clock.now(), (before, after) =>
        auditDevice(request, 'device_changed', { deviceId: after.deviceId, before: snapshot(before), after: snapshot(after) }));
      return { message: DEVICE_MESSAGES.updated(device.deviceId), device };
    },
  );

  app.get('/api/DeviceWithTteCount', { preHandler: guard }, async (request): Promise<DeviceTteCount[]> =>
    devicesWithTteCount(db, scopeOf(request, suMobiles)),
  );

  app.get('/api/TteUserIdWithDeviceCount', { preHandler: guard }, async (request): Promise<TteDeviceCount[]> =>
    ttesWithDeviceCount(db, scopeOf(request, suMobiles)),
  );

  app.post<{ Body: { startDate?: string } | null }>(
    '/api/multipleDeviceCount',
    {
      preValidation: guard,
      schema: { body: { type: ['object', 'null'], additionalProperties: false, properties: { startDate: { anyOf: [isoDate, { type: 'null' }] } } } },
    },
    async (request): Promise<MultipleDeviceCount> =>
      multipleDeviceCount(db, scopeOf(request, suMobiles), request.body?.startDate ?? today()),
  );

  app.post<{ Body: { tteId: string; startDate: string } }>(
    '/api/multipleDeviceInfo',
    {
      preValidation: guard,
      schema: {
        body: { type: 'object', required: ['tteId', 'startDate'], additionalProperties: false, properties: { tteId, startDate: isoDate } },
      },
    },
    async (request): Promise<MultipleDeviceInfo> =>
      multipleDeviceInfo(db, scopeOf(request, suMobiles), request.body.tteId.trim().toUpperCase(), request.body.startDate),
  );
}
