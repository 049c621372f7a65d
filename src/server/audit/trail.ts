import type { Db } from '../db';
import { copyText, parseCopyLine } from '../db/copy-text';
import type { AuditEvent } from './actions';

/** The database role the trail is written as (migration 031): INSERT and SELECT on audit_trail, nothing else. */
export const AUDIT_ROLE = 'hht_audit';

/** Entries written per statement at most (a busy process queues a few thousand a second). */
const BATCH_ROWS = 5_000;
/** Entries held in memory at most while the database cannot take them; older ones are dropped (and counted). */
const MAX_QUEUED = 100_000;
/** Entries dropped at once when the queue is full (the oldest hundredth). */
const DROP_CHUNK = 1_000;

/**
 * An entry is queued as its line of COPY text (columns in COLUMNS' order, ending in a newline): one string per entry
 * until the flush, which costs the garbage collector far less than the event's objects, and is what PostgreSQL's COPY
 * takes as it is.
 */
const COLUMNS = ['at', 'action', 'user_id', 'user_level', 'report', 'ip', 'details'] as const;

export interface AuditTrailOptions {
  db: Db;
  /** Longest an entry waits before it is written, ms. */
  flushMs: number;
  /** Server clock (test hooks may move it). */
  now: () => Date;
  /** false: record() does nothing (HHT_AUDIT=off, to measure the trail's cost). */
  enabled: boolean;
  onError: (err: unknown) => void;
}


/**
 * The audit trail of one server process. record() only queues (no await on the request path); a timer writes the
 * queue every flushMs as the writer role (PostgreSQL: one COPY per batch; PGlite: one multi-row INSERT), and close()
 * writes what is left. A crash (kill -9,
 * power loss) loses at most the entries of the last flushMs; a database outage keeps up to MAX_QUEUED entries in
 * memory and retries them at each tick.
 */
/** The flush's statements (exported for the test that they never count as writes to report data). */
export const AUDIT_PARTITIONS_SQL = 'SELECT audit_ensure_partitions($1::date, $2::date)';
export const AUDIT_INSERT_SQL = `INSERT INTO audit_trail (at, action, user_id, user_level, report, ip, details)
         SELECT at, action, user_id, user_level, report, ip, details::json
           FROM unnest($1::timestamptz[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[])
             AS u(at, action, user_id, user_level, report, ip, details)`;

export class AuditTrail {
  private queue: string[] = [];
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> | undefined;
  /** Entries taken by the write under way and not yet written. */
  private inFlight = 0;
  /** Months ('YYYY-MM-01') whose partition this process has made sure of, and those of queued entries not yet. */
  private readonly months = new Set<string>();
  private newMonths = new Set<string>();
  /** The ISO text of the last second an entry was recorded in, up to its '.', and that second (ms since 1970). */
  private isoSecond = '';
  private isoSecondMs = NaN;
  /** Entries written since start, and dropped because the queue was full. */
  readonly counts = { written: 0, dropped: 0, failedFlushes: 0 };

  private readonly opts: AuditTrailOptions;

  constructor(opts: AuditTrailOptions) {
    this.opts = { ...opts };
  }

  get enabled(): boolean {
    return this.opts.enabled;
  }

  /** Turns recording on or off (the test hook of the cost bench: one server, the trail on and off in turn). */
  setEnabled(enabled: boolean): void {
    this.opts.enabled = enabled;
    if (enabled) this.start();
  }

  /** Entries waiting to be written, those of a write under way included. */
  get queued(): number {
    return this.queue.length + this.inFlight;
  }

  start(): void {
    if (!this.opts.enabled || this.timer) return;
    this.timer = setInterval(() => void this.flush(), this.opts.flushMs);
    this.timer.unref();
  }

  record(e: AuditEvent): void {
    if (!this.opts.enabled) return;
    if (this.queue.length >= MAX_QUEUED) this.dropOldest(DROP_CHUNK);
    this.queue.push(
      `${this.isoTime(e.at ?? this.opts.now())}\t${copyText(e.action)}\t${copyText(e.userId)}\t${copyText(e.userLevel)}\t${copyText(e.report)}\t${copyText(e.ip)}\t${copyText(JSON.stringify(e.details ?? {}))}\n`,
    );
  }

  /**
   * A time as toISOString writes it, the text up to the second made once a second: entries come a few thousand a
   * second, and toISOString was a tenth of an entry's cost. A new second also notes its month for the partitions.
   */
  private isoTime(d: Date): string {
    const t = d.getTime();
    const ms = ((t % 1000) + 1000) % 1000;
    if (t - ms !== this.isoSecondMs) {
      const iso = new Date(t - ms).toISOString(); // '…:SS.000Z'
      this.isoSecondMs = t - ms;
      this.isoSecond = iso.slice(0, -4);
      const month = `${iso.slice(0, 7)}-01`;
      if (!this.months.has(month)) this.newMonths.add(month);
    }
    return `${this.isoSecond}${ms < 10 ? '00' : ms < 100 ? '0' : ''}${ms}Z`;
  }

  /** Writes everything queued now (one flush at a time; a second caller waits for the first and goes again). */
  async flush(): Promise<void> {
    while (this.writing) await this.writing;
    if (this.queue.length === 0) return;
    this.writing = this.writeQueued().finally(() => {
      this.writing = undefined;
    });
    await this.writing;
  }

  /**
   * Takes the whole queue (entries recorded meanwhile start a new one) and writes it batch by batch; what a failed
   * write leaves goes back in front of the newer entries, for the next tick.
   */
  private async writeQueued(): Promise<void> {
    const pending = this.queue;
    const months = [...this.newMonths].sort();
    this.queue = [];
    this.newMonths = new Set();
    this.inFlight = pending.length;
    let from = 0;
    try {
      if (months.length > 0) {
        // As the owner: making partitions is no business of the writer role. Named audit_*, not hht_*: a call of an
        // hht_ function counts as a write to report data (db/write-generation.ts) and would empty the result cache.
        await this.opts.db.query(AUDIT_PARTITIONS_SQL, [months[0], months[months.length - 1]]);
        for (const m of months) this.months.add(m);
      }
      for (; from < pending.length; from += BATCH_ROWS) {
        const batch = pending.slice(from, from + BATCH_ROWS);
        await this.insert(batch);
        this.counts.written += batch.length;
        this.inFlight -= batch.length;
      }
    } catch (err) {
      this.counts.failedFlushes += 1;
      this.opts.onError(err);
      this.inFlight = 0;
      for (const m of months) if (!this.months.has(m)) this.newMonths.add(m);
      this.queue = from === 0 ? pending.concat(this.queue) : pending.slice(from).concat(this.queue);
      if (this.queue.length > MAX_QUEUED) this.dropOldest(this.queue.length - MAX_QUEUED);
    }
  }

  /** Drops the n oldest entries queued, counted (one splice for many: a full queue costs no shift per entry). */
  private dropOldest(n: number): void {
    const k = Math.min(n, this.queue.length);
    this.queue.splice(0, k);
    this.counts.dropped += k;
  }

  private async insert(batch: string[]): Promise<void> {
    const { db } = this.opts;
    await db.transaction(async (tx) => {
      await tx.query(`SET LOCAL ROLE ${AUDIT_ROLE}`);
      // PostgreSQL: COPY from the client, the cheapest append. PGlite's COPY reads its input as a server file, a
      // right the writer role must not have (the audit-trail test shows it refused), so there: one INSERT.
      if (db.driver === 'pg' && tx.copyFrom) {
        await tx.copyFrom('audit_trail', COLUMNS, batch.join(''));
      } else {
        const rows = batch.map((line) => parseCopyLine(line.slice(0, -1)));
        await tx.query(AUDIT_INSERT_SQL, COLUMNS.map((_, i) => rows.map((r) => r[i] ?? null)));
      }
    });
  }

  /** Stops the timer and writes what is queued (server shutdown). */
  async close(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.flush();
  }
}
