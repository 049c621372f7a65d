import type { FastifyInstance } from 'fastify';
import type { Config } from '../config';
import type { Db } from '../db';
import { HttpError } from '../plugins/errors';
import { HHT_SYNC_LIMITS, HHT_SYNC_MESSAGES, type SyncResponse } from '../../shared/hht-sync';
import { hitRateLimit } from '../auth/rate-limit';
import { authenticateDevice } from '../hht/credentials';
import { BatchConflictError, ingestBatch, IngestError } from '../hht/ingest';
import type { Ingest } from '../hht/ingest-thread';
import { validateSyncRequest } from '../hht/validate';

/** Enough for a full batch of the largest records (an EFT with payments is under 1 KB). */
const SYNC_BODY_LIMIT = HHT_SYNC_LIMITS.batchMax * 1024;

/**
 * POST /api/hht/sync: a terminal's batch of records, authenticated by the device's own credential (not an
 * officer's session). The answer to a batch is the same however often it is sent.
 */
export function hhtSyncRoutes(
  app: FastifyInstance,
  deps: { db: Db; config: Pick<Config, 'deviceClockSkewS' | 'deviceAuthFailuresPerMin'>; ingest?: Ingest | undefined },
): void {
  const { db, config } = deps;
  // The sync thread when there is one (hht/ingest-thread.ts), else this thread.
  const ingest: Ingest = deps.ingest ?? ((batch) => ingestBatch(db, batch));
  app.post(
    '/api/hht/sync',
    {
      bodyLimit: SYNC_BODY_LIMIT,
      // validateSyncRequest refuses NUL and lone surrogates itself, naming the field as records[i].field.
      config: { checksBodyText: true },
      // The device's credential is checked before the body is read or parsed: a stranger learns nothing from a 400.
      // Only failures count towards the per-address limit: a valid credential is never refused by it (terminals on one
      // carrier's NAT share an address), and each guess costs one lookup by hash.
      onRequest: async (request, reply) => {
        try {
          request.hhtDeviceId = await authenticateDevice(db, request.headers.authorization);
        } catch (err) {
          if (err instanceof HttpError && err.statusCode === 401) {
            const r = await hitRateLimit(db, 'device-credential', request.ip, config.deviceAuthFailuresPerMin, app.clock.now());
            if (!r.allowed) {
              void reply.header('retry-after', String(r.retryAfter));
              throw new HttpError(429, HHT_SYNC_MESSAGES.tooManyFailures(r.retryAfter));
            }
          }
          throw err;
        }
      },
    },
    async (request): Promise<SyncResponse> => {
    const deviceId = request.hhtDeviceId;
    if (!deviceId) throw new HttpError(401, 'Device credential required');
    const checked = validateSyncRequest(request.body);
    if (!checked.ok) throw badBatch(checked.errors);
    try {
      return await ingest({ deviceId, ...checked.request, receivedAt: app.clock.now(), clockSkewS: config.deviceClockSkewS });
    } catch (err) {
      if (err instanceof IngestError) throw badBatch(err.fields);
      if (err instanceof BatchConflictError) throw new HttpError(409, err.message, [{ field: 'batchId', reason: `${err.batchId} was stored before with other records` }]);
      throw err;
    }
  },
  );
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The device a sync request authenticated as (set before its body is parsed). */
    hhtDeviceId?: string;
  }
}

function badBatch(fields: { field: string; reason: string }[]): HttpError {
  const shown = fields.slice(0, 50); // a batch of 5,000 bad records names the first ones, not a 1 MB answer
  return new HttpError(400, `Batch refused, nothing stored: ${shown.map((f) => `${f.field} ${f.reason}`).join('; ')}`, shown);
}
