import { mkdirSync } from 'node:fs';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import { checkBatchSize, checkChannel, nextCursorName, REPORT_ROLE, textParsers, type Db, type IterateOptions, type Queryable } from './types';

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
      return { rows: r.rows as never[], fields: r.fields.map((f) => f.name), types: r.fields.map((f) => f.dataTypeID) };
    },
    exec: async (sql) => {
      await tx.exec(sql);
    },
  });
  /**
   * PGlite has one session: a transaction left open across batches would hold the queue (every other user waits)
   * or take in their statements. So the cursor is declared WITH HOLD in a short transaction; its commit runs the
   * query once into a tuplestore (spilled to temporary files past work_mem), and each FETCH is then a queue entry
   * of its own, so other requests run between batches.
   */
  async function* iterateHeld<T>(sql: string, params: readonly unknown[], opts: IterateOptions): AsyncGenerator<T[]> {
    const size = checkBatchSize(opts.batchSize);
    const name = nextCursorName();
    await enqueue(() =>
      pg.transaction(async (tx) => {
        await opts.prepare?.(wrapTx(tx));
        await tx.query(`DECLARE ${name} NO SCROLL CURSOR WITH HOLD FOR ${sql}`, [...params]);
      }),
    );
    try {
      for (;;) {
        const rows = await enqueue(async () => (await pg.query(`FETCH FORWARD ${size} FROM ${name}`)).rows as T[]);
        if (rows.length > 0) yield rows;
        if (rows.length < size) break;
      }
    } finally {
      await enqueue(() => pg.exec(`CLOSE ${name}`)).catch(() => undefined);
    }
  }
  return {
    driver: 'pglite',
    query: (sql, params) =>
      enqueue(async () => {
        const r = await pg.query(sql, params ? [...params] : undefined);
        return { rows: r.rows as never[], fields: r.fields.map((f) => f.name), types: r.fields.map((f) => f.dataTypeID) };
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
    iterate: <T>(sql: string, params: readonly unknown[], opts: IterateOptions) => iterateHeld<T>(sql, params, opts),
    // One in-process session: it hears its own NOTIFYs, and there is no connection to lose.
    listen: async (channel, handlers) => {
      const stop = await enqueue(() => pg.listen(checkChannel(channel), (payload) => handlers.message(payload)));
      handlers.state(true);
      return { close: () => enqueue(() => stop()).catch(() => undefined) };
    },
    close: () => enqueue(() => pg.close()),
    dumpImage: () => enqueue(() => pg.dumpDataDir('none')),
  };
}
