import type { FastifyInstance } from 'fastify';
import type { Db } from '../db';

export interface HealthBody {
  status: 'ok';
  database: { driver: string; migrations: string[] };
  dataset: { trainRuns: number; passengers: number };
}

export function healthRoutes(app: FastifyInstance, db: Db): void {
  app.get('/api/health', async (): Promise<HealthBody> => {
    const migrations = (await db.query<{ version: string }>('SELECT version FROM schema_migrations ORDER BY version'))
      .rows.map((r) => r.version);
    const counts = (
      await db.query<{ runs: number; psgn: number }>(
        'SELECT (SELECT count(*) FROM train_runs) AS runs, (SELECT count(*) FROM passengers) AS psgn',
      )
    ).rows[0];
    return {
      status: 'ok',
      database: { driver: db.driver, migrations },
      dataset: { trainRuns: Number(counts?.runs ?? 0), passengers: Number(counts?.psgn ?? 0) },
    };
  });
}
