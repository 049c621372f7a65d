import { mkdirSync } from 'node:fs';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import { mayWrite, noteLocalWrite, trackWrites } from './write-generation';
import { checkBatchSize, checkChannel, copyStatement, nextCursorName, REPORT_ROLE, textParsers, type Db, type IterateOptions, type Queryable } from './types';

/**
 * PGlite runs one statement at a time. We queue every call through one promise chain, so concurrent
 * requests wait their turn instead of failing, and a transaction keeps the queue until it ends.
 */
export interface PgliteOptions {
  /**
   * An export batch (LIMIT/OFFSET read) slower than this means the query cannot stop early (a sort or aggregate over
   * everything), so each further batch would cost as much: the rest is read from a held cursor instead (ms).
   */
  slowBatchMs?: number;
}

export async function openPglite(dataDir: string | null, image?: Blob, opts: PgliteOptions = {}): Promise<Db> {
  const slowBatchMs = opts.slowBatchMs ?? 250;
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
    // PGlite reads COPY's input from a Blob given with the statement, under the name /dev/blob.
    copyFrom: async (table, columns, lines) => {
      await tx.query(copyStatement(table, columns, "'/dev/blob'"), [], { blob: new Blob([lines]) });
    },
  });
  /**
   * PGlite has one session, so a transaction held for a whole export would stop everyone else (or take in their
   * statements). Each batch is a short transaction of its own (setup, then LIMIT/OFFSET), one queue entry, so other
   * users' statements run between batches, and a query that can stop early (index order, no sort of everything)
   * costs about one batch's rows per read. Rows written between batches may shift the pages: on PGlite an export is
   * not one snapshot (docs/decisions.md). A batch slower than slowBatchMs shows a query that cannot stop early; the
   * rest then comes from a cursor declared WITH HOLD (its commit runs the query once, the FETCHes are cheap).
   */
  async function* iterateBatched<T>(sql: string, params: readonly unknown[], opts: IterateOptions): AsyncGenerator<T[]> {
    const size = checkBatchSize(opts.batchSize);
    const inTx = <R>(work: (tx: Queryable) => Promise<R>): Promise<R> =>
      enqueue(() =>
        pg.transaction(async (tx) => {
          const q = wrapTx(tx);
          await opts.setup?.(q);
          return work(q);
        }),
      );
    if (opts.prepare) await inTx((q) => opts.prepare?.(q) ?? Promise.resolve());
    let offset = 0;
    for (;;) {
      const t0 = performance.now();
      const rows = await inTx(async (q) => (await q.query<T>(`SELECT * FROM (${sql}) q LIMIT ${size} OFFSET ${offset}`, [...params])).rows);
      offset += rows.length;
      if (rows.length > 0) yield rows;
      if (rows.length < size) return;
      if (performance.now() - t0 > slowBatchMs) break;
    }
    const name = nextCursorName();
    await inTx(async (q) => {
      await q.query(`DECLARE ${name} NO SCROLL CURSOR WITH HOLD FOR SELECT * FROM (${sql}) q OFFSET ${offset}`, [...params]);
    });
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
    // Writes are counted once they have ended (committed or not), for the report result cache (write-generation.ts).
    query: (sql, params) =>
      enqueue(async () => {
        try {
          const r = await pg.query(sql, params ? [...params] : undefined);
          return { rows: r.rows as never[], fields: r.fields.map((f) => f.name), types: r.fields.map((f) => f.dataTypeID) };
        } finally {
          if (mayWrite(sql)) noteLocalWrite();
        }
      }),
    exec: (sql) =>
      enqueue(async () => {
        try {
          await pg.exec(sql);
        } finally {
          if (mayWrite(sql)) noteLocalWrite();
        }
      }),
    transaction: (fn) =>
      enqueue(async () => {
        let tracked: ReturnType<typeof trackWrites> | undefined;
        try {
          return await pg.transaction((tx) => {
            tracked = trackWrites(wrapTx(tx));
            return fn(tracked.q);
          });
        } finally {
          if (tracked?.wrote()) noteLocalWrite();
        }
      }),
    // PGlite cannot cancel a running statement; the executor answers the caller at the deadline instead.
    reportSession: (_timeoutMs, fn) =>
      enqueue(() =>
        pg.transaction(async (tx) => {
          await tx.exec(`SET LOCAL ROLE ${REPORT_ROLE}`);
          return fn(wrapTx(tx));
        }),
      ),
    iterate: <T>(sql: string, params: readonly unknown[], opts: IterateOptions) => iterateBatched<T>(sql, params, opts),
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
