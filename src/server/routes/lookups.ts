import type { FastifyInstance } from 'fastify';
import type { Db } from '../db';
import { scopeOf } from './reports';

export interface RailwayCodeItem {
  id: { rly_Code: string; div_Code: string; off_Code: string };
  rlyName: string;
  divName: string;
  offName: string;
}

/** GET /api/dropDownRailwayCode: zone -> division -> lobby items for the cascading filters, within the user's scope. */
export function lookupRoutes(app: FastifyInstance, deps: { db: Db; suMobiles: readonly string[] }): void {
  app.get('/api/dropDownRailwayCode', { preHandler: app.authenticate }, async (request): Promise<RailwayCodeItem[]> => {
    const scope = scopeOf(request, deps.suMobiles);
    const where =
      scope.kind === 'all' ? 'TRUE' : scope.kind === 'zone' ? 'l.zone_code = $1' : scope.kind === 'division' ? 'l.div_code = $1' : 'l.lobby_code = $1';
    const params = scope.kind === 'all' ? [] : [scope.code];
    const rows = await deps.db.query<{ rly: string; div: string; off: string; rly_name: string; div_name: string; off_name: string }>(
      `SELECT l.zone_code AS rly, l.div_code AS div, l.lobby_code AS off, z.name AS rly_name, d.name AS div_name, l.name AS off_name
         FROM lobbies l JOIN zones z ON z.zone_code = l.zone_code JOIN divisions d ON d.div_code = l.div_code
        WHERE ${where}
        ORDER BY l.zone_code, l.div_code, l.lobby_code`,
      params,
    );
    return rows.rows.map((r) => ({
      id: { rly_Code: r.rly, div_Code: r.div, off_Code: r.off },
      rlyName: r.rly_name,
      divName: r.div_name,
      offName: r.off_name,
    }));
  });
}
