import type { Db } from '../db';
import { AUDIT_ACTIONS, type AuditEvent } from './actions';

/** The database role the trail is written as (migration 031): INSERT and SELECT on the trail, nothing else. */
export const AUDIT_ROLE = 'hht_audit';

/** Entries one stored batch (a row of audit_batches) holds at most; a full queue drops its oldest batch at once. */
const BATCH_ENTRIES = 1_000;
/** Entries held in memory at most while the database cannot take them; older ones are dropped (and counted). */
const MAX_QUEUED = 100_000;
/** Entry times kept as given: years 1970 to 9999. */
const MIN_TIME = 0;
const MAX_TIME = Date.UTC(10000, 0, 1);
/** Entry heads kept by keepHead at most (a few hundred bytes each). */
const HEADS_KEPT = 4_096;
/** A batch's first buffer, bytes (an entry of a report call is about 70, one stored whole about 200; the buffer doubles when full). */
const FIRST_BUFFER = 64 * 1024;
/** Buffers of written batches kept for the next ones: a new buffer per batch, grown once, cost an allocation and a copy. */
const SPARE_BUFFERS = 4;

/**
 * Entries waiting to be written, in the form they are stored (migrations 041 and 042): one batch is one row, its entries
 * a JSON array of [at, action, user_id, user_level, report, ip, details], or [at, head, figures] where the entry's
 * head (see EntryHead) is kept once in the batch's heads. The entries' text is written into a Buffer as they come, not
 * kept as strings: a string held until the next flush outlives the young generation and costs the garbage collector
 * twice more than building it (audit-cost bench profile); the Buffer's bytes are outside its heap.
 */
interface Batch {
  /** Its number in this process (batchesMade): a head knows by it whether it is in the batch being filled. */
  no: number;
  /** 'YYYY-MM-01' (UTC) of every entry in it: a batch lies in one month's partition. */
  month: string;
  buf: Buffer;
  /** Bytes used in buf: '[' then the entries, comma-separated. */
  bytes: number;
  /** Where the entry being written (startEntry to endEntry) has got to in buf. */
  end: number;
  n: number;
  firstMs: number;
  lastMs: number;
  users: Set<string>;
  /** The heads its entries refer to, in the order of their places. */
  heads: EntryHead[];
}

export interface AuditTrailOptions {
  db: Db;
  /** Longest an entry waits before it is written, ms. */
  flushMs: number;
  /** Server clock in ms since 1970 (test hooks may move it). */
  nowMs: () => number;
  /** false: record() does nothing (HHT_AUDIT=off, to measure the trail's cost). */
  enabled: boolean;
  onError: (err: unknown) => void;
}

/** The flush's statements (exported for the test that they never count as writes to report data). */
export const AUDIT_PARTITIONS_SQL = 'SELECT audit_ensure_partitions($1::date, $2::date)';
export const AUDIT_INSERT_SQL =
  'INSERT INTO audit_batches (at_first, at_last, n, users, entries, heads) VALUES ($1::timestamptz, $2::timestamptz, $3::int, $4::text[], ' +
  'convert_from($5::bytea, \'UTF8\')::json, convert_from($6::bytea, \'UTF8\')::json)';

function entriesIn(batches: readonly Batch[]): number {
  let n = 0;
  for (const b of batches) n += b.n;
  return n;
}

/** An error the database raises for the data itself (SQLSTATE classes 22 and 23): retrying cannot help. */
function isDataError(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (code.startsWith('22') || code.startsWith('23'));
}

/** \u0000 in JSON text (not an escaped backslash followed by 'u0000'). */
const NUL_ESCAPE = /(?<!\\)((?:\\\\)*)\\u0000/g;

/**
 * JSON text with each \u0000 made \ufffd: json keeps \u0000, but PostgreSQL's text cannot hold it, and reading such an
 * entry (->>) would fail the audit report.
 */
function withoutNulEscapes(json: string): string {
  return json.includes('\\u0000') ? json.replace(NUL_ESCAPE, '$1\\ufffd') : json;
}

/** Each action's name as a JSON string, made once. */
const QUOTED_ACTIONS: ReadonlyMap<string, string> = new Map(AUDIT_ACTIONS.map((a) => [a, JSON.stringify(a)]));

/** A text value as a JSON string, null as null. */
function jsonText(s: string | null | undefined): string {
  return s === null || s === undefined ? 'null' : JSON.stringify(s);
}

/** 'YYYY-MM-DDTHH:MM:SS.': an entry time's text up to its milliseconds (years 1970 to 9999 have four digits). */
const ISO_SECOND_BYTES = 20;

/** Writes text into buf at i as UTF-8; returns where it ends. ASCII byte by byte, anything else by Buffer.write. */
function writeText(buf: Buffer, i: number, text: string): number {
  const n = text.length;
  for (let k = 0; k < n; k += 1) {
    const c = text.charCodeAt(k);
    if (c > 0x7f) return i + buf.write(text, i); // written again from its start
    buf[i + k] = c;
  }
  return i + n;
}

/** A head kept by keepHead, with what it was kept for besides the request's text. */
interface KeptHead {
  report: string | null;
  userId: string | null;
  userLevel: string | null;
  ip: string | null;
  head: EntryHead;
}

/**
 * What a report call's entry shares with every other call of the same user, address, report and filters, made once
 * (kept by AuditTrail.keepHead) and written once into each batch whose entries use it; the entries then name it by its
 * place.
 */
export interface EntryHead {
  /** `[action,user,level,report,ip,details]` as JSON text, UTF-8. */
  bytes: Buffer;
  /** The user id as stored, for the batch's list of users. */
  userId: string | null;
  /** The batch (its number) the head was last written into, and its place among that batch's heads. */
  batchNo: number;
  place: number;
}

/** An entry's fields after its time, and its details, as JSON text, comma-separated (not bracketed). */
function entryFields(e: Omit<AuditEvent, 'at' | 'details' | 'detailsJson'>, details: string): string {
  const text = `${QUOTED_ACTIONS.get(e.action) ?? jsonText(e.action)},${jsonText(e.userId)},${jsonText(e.userLevel)},${jsonText(e.report)},${jsonText(e.ip)},${details}`;
  return withoutNulEscapes(text);
}

/** A user id as the batch lists it: NUL (which PostgreSQL's text cannot hold) made U+FFFD. */
function storedUserId(userId: string | null | undefined): string | null {
  if (!userId) return null;
  return userId.includes('\u0000') ? userId.replaceAll('\u0000', '\ufffd') : userId;
}

/**
 * The head of entries with these fields and these details (a JSON object's text, e.g. the filters as sent), to which
 * each entry's figures are added (AuditTrail.recordCall).
 */
export function entryHead(e: Omit<AuditEvent, 'at' | 'details' | 'detailsJson'>, details: string): EntryHead {
  return { bytes: Buffer.from(`[${entryFields(e, details)}]`), userId: storedUserId(e.userId), batchNo: -1, place: -1 };
}

/** Writes a whole number (0 or more) into buf at i as decimal digits; returns where it ends. */
function writeWhole(buf: Buffer, i: number, n: number): number {
  let end = i + 1;
  for (let v = n; v >= 10; v = Math.floor(v / 10)) end += 1;
  for (let k = end - 1, v = n; k >= i; k -= 1, v = Math.floor(v / 10)) buf[k] = 0x30 + (v % 10);
  return end;
}

/** `{"rows":`, `,"ms":`, `,"served":` as bytes: the parts of a call's figures that never change. */
const ROWS_KEY = Buffer.from('{"rows":');
const MS_KEY = Buffer.from(',"ms":');
const SERVED_KEY = Buffer.from(',"served":');

/** Writes ASCII bytes into buf at i; returns where they end. */
function writeBytes(buf: Buffer, i: number, bytes: Buffer): number {
  for (let k = 0; k < bytes.length; k += 1) buf[i + k] = bytes[k] as number;
  return i + bytes.length;
}

/** Writes a number as JSON (null when not finite) into buf at i; returns where it ends. */
function writeNumber(buf: Buffer, i: number, n: number | null | undefined): number {
  if (typeof n === 'number' && Number.isSafeInteger(n) && n >= 0) return writeWhole(buf, i, n);
  return writeText(buf, i, typeof n === 'number' && Number.isFinite(n) ? String(n) : 'null');
}

/**
 * Writes a string as JSON into buf at i; returns where it ends. Printable ASCII without quotes or backslashes as is,
 * anything else as JSON.stringify writes it, NUL made U+FFFD (see withoutNulEscapes).
 */
function writeJsonString(buf: Buffer, i: number, s: string): number {
  const n = s.length;
  buf[i] = 0x22; // "
  for (let k = 0; k < n; k += 1) {
    const c = s.charCodeAt(k);
    // Written again from its start, over what was written.
    if (c < 0x20 || c > 0x7e || c === 0x22 || c === 0x5c) return writeText(buf, i, withoutNulEscapes(JSON.stringify(s)));
    buf[i + 1 + k] = c;
  }
  buf[i + 1 + n] = 0x22;
  return i + n + 2;
}

/** Batches started by this process, by any trail: a batch's number (a head may be written by more than one trail). */
let batchesMade = 0;

/** A batch's heads as one JSON array, UTF-8; null when it has none. */
function headsJson(heads: readonly EntryHead[]): Buffer | null {
  if (heads.length === 0) return null;
  let bytes = 1;
  for (const h of heads) bytes += h.bytes.length + 1;
  const out = Buffer.allocUnsafe(bytes);
  out[0] = 0x5b; // [
  let i = 1;
  for (let k = 0; k < heads.length; k += 1) {
    if (k > 0) out[i++] = 0x2c; // ,
    i += (heads[k] as EntryHead).bytes.copy(out, i);
  }
  out[i] = 0x5d; // ]
  return out;
}

/**
 * The audit trail of one server process. record() only queues (no await on the request path); a timer writes the
 * queue every flushMs as the writer role, one INSERT per batch in one transaction, and close() writes what is left.
 * A crash (kill -9, power loss) loses at most the entries of the last flushMs; a database outage keeps up to
 * MAX_QUEUED entries in memory and retries them at each tick.
 */
export class AuditTrail {
  /** Oldest first; the last one is being filled. */
  private batches: Batch[] = [];
  private queuedEntries = 0;
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> | undefined;
  /** Entries taken by the write under way and not yet written. */
  private inFlight = 0;
  /** Months ('YYYY-MM-01') whose partition this process has made sure of. */
  private readonly months = new Set<string>();
  /**
   * The ISO text (as toISOString writes it) of the last second an entry was recorded in, up to its '.', as bytes; that
   * second (ms since 1970) and its month ('YYYY-MM-01'). Made once a second: toISOString was a tenth of an entry's cost.
   */
  private readonly isoSecond = Buffer.alloc(ISO_SECOND_BYTES);
  private isoSecondMs = NaN;
  private isoMonth = '';
  /**
   * Entries written since start, dropped because the queue was full, and refused by the database as data it cannot
   * store (a batch that would fail at every retry and hold back every entry behind it).
   */
  readonly counts = { written: 0, dropped: 0, refused: 0, failedFlushes: 0 };

  private readonly opts: AuditTrailOptions;
  /** Entry heads kept by keepHead, by the request text they were made for; headsKept counts them. */
  private readonly heads = new Map<string, KeptHead[]>();
  private headsKept = 0;
  /** Buffers of written batches, for the next ones (SPARE_BUFFERS at most). */
  private readonly spare: Buffer[] = [];

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
    return this.queuedEntries + this.inFlight;
  }

  start(): void {
    if (!this.opts.enabled || this.timer) return;
    this.timer = setInterval(() => void this.flush(), this.opts.flushMs);
    this.timer.unref();
  }

  record(e: AuditEvent): void {
    if (!this.opts.enabled) return;
    const fields = entryFields(e, e.detailsJson ?? JSON.stringify(e.details ?? {}));
    // Room for the comma, the fields (3 bytes per UTF-16 unit at most) and the bracket.
    const b = this.startEntry(this.entryTime(e.at), fields.length * 3 + 2);
    let i = b.end;
    b.buf[i++] = 0x2c; // ,
    i = writeText(b.buf, i, fields);
    b.buf[i++] = 0x5d; // ]
    const userId = storedUserId(e.userId);
    if (userId) b.users.add(userId);
    b.end = i;
    this.endEntry(b);
  }

  /**
   * An entry made of a kept head (see entryHead) and a call's figures: its row count (null when it has none), its time
   * to answer in ms and how it was served; stored as `{"rows":..,"ms":..,"served":".."}`, added to the head's details
   * when read. What a report call writes. The head goes into the batch with the first entry that uses it. The figures
   * are written as bytes, not made into a string first: the entry is written on the request path.
   */
  recordCall(head: EntryHead, rows: number | null | undefined, ms: number, served: string): void {
    if (!this.opts.enabled) return;
    // Room for the commas, the head's place (under BATCH_ENTRIES), the figures' keys, two numbers, served and brackets.
    const b = this.startEntry(this.entryTime(undefined), served.length * 6 + 90);
    if (head.batchNo !== b.no) {
      head.batchNo = b.no;
      head.place = b.heads.length;
      b.heads.push(head);
      if (head.userId) b.users.add(head.userId);
    }
    const buf = b.buf;
    let i = b.end;
    buf[i++] = 0x2c; // ,
    i = writeWhole(buf, i, head.place);
    buf[i++] = 0x2c;
    i = writeBytes(buf, i, ROWS_KEY);
    i = writeNumber(buf, i, rows);
    i = writeBytes(buf, i, MS_KEY);
    i = writeNumber(buf, i, ms);
    i = writeBytes(buf, i, SERVED_KEY);
    i = writeJsonString(buf, i, served);
    buf[i++] = 0x7d; // }
    buf[i++] = 0x5d; // ]
    b.end = i;
    this.endEntry(b);
  }

  /**
   * The head kept for calls whose request had this text (its URL or JSON body, which decide the action and the details)
   * and these other fields, if there is one. Looked up by the request's text, not a key joined from every field:
   * hashing one more string per call cost a third of what an entry cost (in-process measure).
   */
  findHead(text: string, report: string | null, userId: string | null, userLevel: string | null, ip: string | null): EntryHead | undefined {
    const kept = this.heads.get(text);
    if (kept === undefined) return undefined;
    for (const k of kept) {
      if (k.report === report && k.userId === userId && k.userLevel === userLevel && k.ip === ip) return k.head;
    }
    return undefined;
  }

  /**
   * Keeps a head for findHead to find with the same text and fields. At most HEADS_KEPT are kept, then all are dropped
   * and kept again as calls come.
   */
  keepHead(text: string, report: string | null, userId: string | null, userLevel: string | null, ip: string | null, head: EntryHead): void {
    let kept = this.heads.get(text);
    if (this.headsKept >= HEADS_KEPT) {
      this.heads.clear();
      this.headsKept = 0;
      kept = undefined;
    }
    if (kept === undefined) this.heads.set(text, (kept = []));
    kept.push({ report, userId, userLevel, ip, head });
    this.headsKept += 1;
  }

  /** The entry's time (ms since 1970): as given when PostgreSQL can store it, else the server's. */
  private entryTime(at: Date | undefined): number {
    const t = at ? at.getTime() : this.opts.nowMs();
    return t >= MIN_TIME && t < MAX_TIME ? t : this.opts.nowMs();
  }

  /**
   * Starts an entry of time t in the batch being filled (a new one when full or at a month's turn) with room for `most`
   * more bytes: writes `["<time>"` after a comma if it is not the first; returns the batch, whose `end` says where the
   * entry goes on. The caller writes on from there, sets `end` and calls endEntry; until then the entry is not in the
   * batch. Byte by byte: each Buffer write call crosses into C++, which cost more than the copy.
   */
  private startEntry(t: number, most: number): Batch {
    const ms = this.setSecond(t);
    if (this.queuedEntries >= MAX_QUEUED) this.dropOldest();
    let b = this.batches[this.batches.length - 1];
    if (!b || b.n >= BATCH_ENTRIES || b.month !== this.isoMonth) {
      batchesMade += 1;
      const buf = this.spare.pop() ?? Buffer.allocUnsafe(FIRST_BUFFER);
      b = { no: batchesMade, month: this.isoMonth, buf, bytes: 1, end: 1, n: 0, firstMs: t, lastMs: t, users: new Set(), heads: [] };
      b.buf[0] = 0x5b; // [
      this.batches.push(b);
    }
    // Room for a comma, the time and its quotes, what the caller writes and the batch's closing bracket.
    const need = b.bytes + ISO_SECOND_BYTES + 10 + most;
    if (need > b.buf.length) {
      const bigger = Buffer.allocUnsafe(Math.max(need, b.buf.length * 2));
      b.buf.copy(bigger, 0, 0, b.bytes);
      b.buf = bigger;
    }
    const buf = b.buf;
    let i = b.bytes;
    if (b.n > 0) buf[i++] = 0x2c; // ,
    buf[i++] = 0x5b; // [
    buf[i++] = 0x22; // "
    buf.set(this.isoSecond, i);
    i += ISO_SECOND_BYTES;
    buf[i++] = 0x30 + Math.floor(ms / 100);
    buf[i++] = 0x30 + (Math.floor(ms / 10) % 10);
    buf[i++] = 0x30 + (ms % 10);
    buf[i++] = 0x5a; // Z
    buf[i++] = 0x22;
    if (t < b.firstMs) b.firstMs = t;
    if (t > b.lastMs) b.lastMs = t;
    b.end = i;
    return b;
  }

  /** Ends the entry startEntry began in b, its bytes written up to b.end. */
  private endEntry(b: Batch): void {
    b.bytes = b.end;
    b.n += 1;
    this.queuedEntries += 1;
  }

  /** Makes isoSecond and isoMonth those of time t, if they are not yet; returns t's milliseconds within its second. */
  private setSecond(t: number): number {
    const ms = ((t % 1000) + 1000) % 1000;
    if (t - ms !== this.isoSecondMs) {
      const iso = new Date(t - ms).toISOString(); // 'YYYY-MM-DDTHH:MM:SS.000Z'
      this.isoSecondMs = t - ms;
      this.isoSecond.write(iso.slice(0, ISO_SECOND_BYTES), 0, 'latin1');
      this.isoMonth = `${iso.slice(0, 7)}-01`;
    }
    return ms;
  }

  /** Writes everything queued now (one flush at a time; a second caller waits for the first and goes again). */
  async flush(): Promise<void> {
    while (this.writing) await this.writing;
    if (this.batches.length === 0) return;
    this.writing = this.writeQueued().finally(() => {
      this.writing = undefined;
    });
    await this.writing;
  }

  /**
   * Takes every batch queued (entries recorded meanwhile start a new one) and writes them in one transaction. If the
   * database refuses one as data (SQLSTATE classes 22 and 23), the batches are written one by one and only the refused
   * ones are given up (counted, reported); any other failure (the database down) puts them all back in front of the
   * newer entries, for the next tick.
   */
  private async writeQueued(): Promise<void> {
    const pending = this.batches;
    this.batches = [];
    this.queuedEntries = 0;
    const total = entriesIn(pending);
    this.inFlight = total;
    let left = pending;
    let refused = 0;
    try {
      await this.ensurePartitions(pending);
      try {
        await this.insert(pending);
        left = [];
      } catch (err) {
        if (!isDataError(err)) throw err;
        for (const b of pending) {
          try {
            await this.insert([b]);
          } catch (one) {
            if (!isDataError(one)) throw one;
            refused += b.n;
            this.opts.onError(one);
          }
          left = left.slice(1);
        }
      }
    } catch (err) {
      this.counts.failedFlushes += 1;
      this.opts.onError(err);
      // Ahead of what came meanwhile; the batch being filled now stays the last one.
      this.batches = left.concat(this.batches);
      this.queuedEntries += entriesIn(left);
      while (this.queuedEntries > MAX_QUEUED) this.dropOldest();
    } finally {
      this.counts.refused += refused;
      this.counts.written += total - refused - entriesIn(left);
      this.inFlight = 0;
      // Those before `left` were written or refused: the database has had their bytes.
      for (const b of pending.slice(0, pending.length - left.length)) this.spareBuffer(b.buf);
    }
  }

  /** Keeps a written batch's buffer for a next batch, up to SPARE_BUFFERS. */
  private spareBuffer(buf: Buffer): void {
    if (this.spare.length < SPARE_BUFFERS) this.spare.push(buf);
  }

  /** The partitions of the batches' months this process has not made sure of yet. */
  private async ensurePartitions(batches: readonly Batch[]): Promise<void> {
    const months = [...new Set(batches.map((b) => b.month))].filter((m) => !this.months.has(m)).sort();
    if (months.length === 0) return;
    // As the owner: making partitions is no business of the writer role. Named audit_*, not hht_*: a call of an
    // hht_ function counts as a write to report data (db/write-generation.ts) and would empty the result cache.
    await this.opts.db.query(AUDIT_PARTITIONS_SQL, [months[0], months[months.length - 1]]);
    for (const m of months) this.months.add(m);
  }

  /** One transaction as the writer role, one INSERT per batch. */
  private async insert(batches: readonly Batch[]): Promise<void> {
    await this.opts.db.transaction(async (tx) => {
      await tx.query(`SET LOCAL ROLE ${AUDIT_ROLE}`);
      for (const b of batches) {
        b.buf[b.bytes] = 0x5d; // ]
        await tx.query(AUDIT_INSERT_SQL, [
          new Date(b.firstMs).toISOString(),
          new Date(b.lastMs).toISOString(),
          b.n,
          [...b.users],
          // The batch's bytes as they are (bytea, made text by the statement): decoding them into a string here and
          // encoding it again to send cost the server about 0.8 µs an entry.
          b.buf.subarray(0, b.bytes + 1),
          headsJson(b.heads),
        ]);
      }
    });
  }

  /** Drops the oldest batch queued (up to BATCH_ENTRIES entries), counted. */
  private dropOldest(): void {
    const b = this.batches.shift();
    if (!b) return;
    this.queuedEntries -= b.n;
    this.counts.dropped += b.n;
    this.spareBuffer(b.buf);
  }

  /** Stops the timer and writes what is queued (server shutdown). */
  async close(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.flush();
  }
}
