import pg from 'pg';
import { textParsers, type Db, type Queryable } from './types';

const types = {
  getTypeParser: (oid: number, format?: string) => textParsers[oid] ?? pg.types.getTypeParser(oid, format as 'text'),
};

export async function openPg(connectionString: string): Promise<Db> {
  const pool = new pg.Pool({ connectionString, max: 10, types, connectionTimeoutMillis: 5000 });
  // Fail fast with a clear message when the server is unreachable, instead of on the first request.
  const client = await pool.connect();
  client.release();
  pool.on('error', () => undefined); // idle client errors are reported by the next query instead
  const asQueryable = (c: pg.Pool | pg.PoolClient): Queryable => ({
    query: async (sql, params) => ({ rows: (await c.query(sql, params ? [...params] : undefined)).rows }),
    exec: async (sql) => {
      await c.query(sql);
    },
  });
  return {
    driver: 'pg',
    ...asQueryable(pool),
    transaction: async (fn) => {
      const c = await pool.connect();
      try {
        await c.query('BEGIN');
        const result = await fn(asQueryable(c));
        await c.query('COMMIT');
        return result;
      } catch (err) {
        await c.query('ROLLBACK').catch(() => undefined);
        throw err;
      } finally {
        c.release();
      }
    },
    close: () => pool.end(),
  };
}
