import type { Db } from '../../db';
import { HttpError } from '../../plugins/errors';
import { asTimeoutError, prepareReportTx, TIMEOUT_MESSAGE } from '../executor';

type Row = Record<string, unknown>;

export interface ReportRowsRequest {
  /** The report's query with scope and values bound (executor's buildQuery) and its ORDER BY (orderClause). */
  sql: string;
  params: unknown[];
  order: string;
  /** Most rows the format may hold; a larger result is refused before any byte is sent. */
  cap: number;
  formatLabel: string;
  /** Offer CSV (the largest cap) in the refusal. */
  suggestCsv: boolean;
  batchSize: number;
  timeoutMs: number;
}

export interface ReportRows {
  /** Rows the filter matches, counted in the same snapshot the cursor reads. */
  total: number;
  rows: AsyncIterable<Row[]>;
  /** Closes the cursor (and frees its connection) if the rows were not read to the end; safe to call twice. */
  close(): Promise<void>;
}

/**
 * Opens the report's rows for an export and reads the first batch before answering, so a refusal (too many rows,
 * timeout, bad query) is still a clean 400/503 rather than a broken download.
 */
export async function openReportRows(db: Db, r: ReportRowsRequest): Promise<ReportRows> {
  let total = 0;
  const iterable = db.iterate<Row>(`SELECT * FROM (${r.sql}) q${r.order}`, r.params, {
      batchSize: r.batchSize,
      setup: (tx) => prepareReportTx(db, tx, r.timeoutMs),
      prepare: async (tx) => {
        total = (await tx.query<{ n: number }>(`SELECT count(*)::int AS n FROM (${r.sql}) q`, r.params)).rows[0]?.n ?? 0;
        if (total > r.cap) {
          throw new HttpError(
            400,
            `${total.toLocaleString('en-IN')} rows match; ${r.formatLabel} export is limited to ${r.cap.toLocaleString('en-IN')} rows. Narrow the filter${r.suggestCsv ? ' or export CSV' : ''}.`,
          );
        }
      },
    });
  const it = iterable[Symbol.asyncIterator]();
  const close = async (): Promise<void> => {
    await it.return?.(undefined);
  };

  // PGlite cannot cancel a statement: answer at the deadline and let the cursor close when its statement ends.
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new HttpError(503, TIMEOUT_MESSAGE)), r.timeoutMs + 250);
  });
  let first: IteratorResult<Row[]>;
  try {
    first = await Promise.race([it.next(), deadline]);
  } catch (err) {
    void close().catch(() => undefined);
    throw asTimeoutError(err);
  } finally {
    clearTimeout(timer);
  }

  async function* rows(): AsyncGenerator<Row[]> {
    if (first.done) return;
    yield first.value;
    for (;;) {
      const next = await it.next();
      if (next.done) return;
      yield next.value;
    }
  }
  return { total, rows: rows(), close };
}
