import type { FastifyInstance } from 'fastify';
import type { Db } from '../db';
import { HttpError } from '../plugins/errors';
import { allowedScope, trainsInScope } from '../auth/scope';

/** GET /api/getArrayOfTrainNo: the signed-in user's train numbers, scoped as TrainManningData (from the stored profile). */
export function trainRoutes(app: FastifyInstance, deps: { db: Db; suMobiles: readonly string[] }): void {
  app.get('/api/getArrayOfTrainNo', { preHandler: app.authenticate }, async (request): Promise<string[]> => {
    const user = request.sessionUser;
    if (!user) throw new HttpError(403, 'Session expired, Please login again');
    return trainsInScope(deps.db, allowedScope(user, deps.suMobiles));
  });
}
