import { mkdirSync } from 'node:fs';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import { REPORT_ROLE, textParsers, type Db, type Queryable } from './types';

/**
 * PGlite runs one statement at a time. We queue every call through one promise chain, so concurrent
 * requests wait their turn instead of failing, and a transaction keeps the queue until it ends.
 */
export async function openPglite(dataDir: string | null, image?: Blob): Promise<Db> {
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const pg = await PGlite.create(dataDir ?? 'memory://', { parsers: textParsers, ...(image ? { loadDataDir: image } : {}) });
  let tail: Promise<unknown> = Promise.resolve();
  const enqueue = <T>(work: () => Promise<T>): Promise<T> => {
    const run = tail.then(work, work);
    tail = run.catch(() => undefined);
    return run;
  };
  const wrapTx = (tx: Transaction): Queryable => ({
    query: async (sql, params) => {
      const r = await tx.query(sql, params ? [...params] : undefined);
      return { rows: r.rows as never[], fields: r.fields.map((f) => f.name) };
    },
    exec: async (sql) => {
      await tx.exec(sql);
    },
  });
  return {
    driver: 'pglite',
    query: (sql, params) =>
      enqueue(async () => {
        const r = await pg.query(sql, params ? [...params] : undefined);
        return { rows: r.rows as never[], fields: r.fields.map((f) => f.name) };
      }),
    exec: (sql) =>
      enqueue(async () => {
        await pg.exec(sql);
      }),
    transaction: (fn) => enqueue(() => pg.transaction((tx) => fn(wrapTx(tx)))),
    // PGlite cannot cancel a running statement; the executor answers the caller at the deadline instead.
    reportSession: (_timeoutMs, fn) =>
      enqueue(() =>
        pg.transaction(async (tx) => {
          await tx.exec(`SET LOCAL ROLE ${REPORT_ROLE}`);
          return fn(wrapTx(tx));
        }),
      ),
    close: () => enqueue(() => pg.close()),
    dumpImage: () => enqueue(() => pg.dumpDataDir('none')),
  };
}
