import type { FastifyInstance } from 'fastify';
import type { Db } from '../db';
import type { Config } from '../config';
import { HttpError } from '../plugins/errors';
import { isoDateSchema } from '../plugins/schema-formats';
import { allowedScope, trainsInScope } from '../auth/scope';
import { localConsist, remoteConsist } from '../consist/service';
import type { ConsistRequest, ConsistResponse } from '../../shared/consist';

/**
 * POST /api/coachConsist {trainNo, startDate, trainEvent = 'C'}: the run's coach composition, from our own
 * run_coaches, or from the external consist service when HHT_CONSIST_URL is set. Only trains of the user's list.
 */
export function consistRoutes(app: FastifyInstance, deps: { db: Db; config: Config; suMobiles: readonly string[] }): void {
  const { db, config, suMobiles } = deps;
  app.post<{ Body: ConsistRequest }>(
    '/api/coachConsist',
    {
      preValidation: app.authenticate,
      schema: {
        body: {
          type: 'object',
          required: ['trainNo', 'startDate'],
          additionalProperties: false,
          properties: {
            trainNo: { type: 'string', pattern: '^\\s*[0-9]{5}\\s*$' },
            startDate: isoDateSchema,
            trainEvent: { type: 'string', pattern: '^[A-Z]$' },
          },
        },
      },
    },
    async (request): Promise<ConsistResponse> => {
      const user = request.sessionUser;
      if (!user) throw new HttpError(403, 'Session expired, Please login again');
      const q = { trainNo: request.body.trainNo.trim(), startDate: request.body.startDate, trainEvent: request.body.trainEvent ?? 'C' };
      const mine = await trainsInScope(db, allowedScope(user, suMobiles));
      if (!mine.includes(q.trainNo)) throw new HttpError(404, `Train ${q.trainNo} is not in your train list`);
      const url = config.consistUrl;
      if (url) return remoteConsist({ url, token: config.consistToken, timeoutMs: config.consistTimeoutMs }, q);
      return localConsist(db, q);
    },
  );
}
