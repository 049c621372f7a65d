import type { FastifyInstance } from 'fastify';
import type { Db } from '../db';
import { hasReplicas, type ReplicaState } from '../db/replicas';
import { rollupRepairCount } from '../db/rollup-audit';

/** Without a session the health check says only whether the server and its database answer (issue 11). */
export interface PublicHealthBody {
  status: 'ok' | 'unavailable';
}

/** With a valid bearer token: which database, which migrations, and the data set size (planner estimates). */
export interface HealthBody extends PublicHealthBody {
  database: { driver: string; migrations: string[] };
  /** Row estimates from pg_class.reltuples (as of the last ANALYZE or autovacuum), never a full count. */
  dataset: { trainRuns: number; passengers: number; estimated: true };
  /** Read replicas (DATABASE_REPLICA_URLS) in configured order, as this server process sees them; no host names. */
  replicas?: { state: ReplicaState; lagMs: number | null }[];
  /** Repairs the rollup auditor has made (each a run and rollup that differed from its reference query). */
  rollups: { repairs: number };
}

export function healthRoutes(app: FastifyInstance, db: Db): void {
  app.get('/api/health', async (request, reply): Promise<PublicHealthBody | HealthBody | undefined> => {
    if (request.headers.authorization !== undefined) {
      // The same check as every protected route: a bad or expired token gets the usual 401/403.
      await app.authenticate(request, reply);
      if (reply.sent) return undefined;
    }
    try {
      await db.query('SELECT 1');
    } catch {
      return reply.code(503).send({ status: 'unavailable' } satisfies PublicHealthBody);
    }
    if (!request.sessionUser) return { status: 'ok' };
    const migrations = (await db.query<{ version: string }>('SELECT version FROM schema_migrations ORDER BY version'))
      .rows.map((r) => r.version);
    const est = (
      await db.query<{ relname: string; n: number }>(
        `SELECT relname, greatest(reltuples, 0)::float8 AS n FROM pg_class
          WHERE relkind IN ('r', 'p') AND relname IN ('train_runs', 'passengers') AND relnamespace = 'public'::regnamespace`,
      )
    ).rows;
    const estimate = (name: string): number => Math.round(Number(est.find((r) => r.relname === name)?.n ?? 0));
    return {
      status: 'ok',
      database: { driver: db.driver, migrations },
      dataset: { trainRuns: estimate('train_runs'), passengers: estimate('passengers'), estimated: true },
      rollups: { repairs: await rollupRepairCount(db) },
      ...(hasReplicas(db) ? { replicas: db.replicas.status().map((r) => ({ state: r.state, lagMs: r.lagMs })) } : {}),
    };
  });
}
