import { hash } from 'node:crypto';
import type { Db, Listener } from '../db';
import { localWrites, watchTables } from '../db/write-generation';
import { compressBody, type Encoding } from '../http/compress';

/** Channel the database announces changes to data reports read on (migration 017). */
export const DATA_CHANNEL = 'hht_data';

/**
 * A finished answer: the JSON body, and its compressed forms made once, when first asked for, so a cache hit costs
 * neither SQL nor compression.
 */
export class ReportBody {
  private readonly encoded = new Map<Encoding, Promise<Buffer>>();
  /** Called with the size of each compressed form once made (memory accounting of the cache). */
  onEncoded: ((bytes: number) => void) | undefined;

  /** json: the body; rowCount: the rows the report's filter gives (the audit trail records it). */
  constructor(readonly json: Buffer, readonly rowCount?: number) {}

  encode(encoding: Encoding): Promise<Buffer> {
    let made = this.encoded.get(encoding);
    if (!made) {
      made = compressBody(this.json, encoding);
      this.encoded.set(encoding, made);
      made.then((b) => this.onEncoded?.(b.length), () => this.encoded.delete(encoding));
    }
    return made;
  }
}

/** What a computation gives: the body (text or its UTF-8 bytes), with the report's row count when known. */
export type ComputedBody = string | { text: string | Buffer; rowCount: number };

const toBody = (c: ComputedBody): ReportBody =>
  typeof c === 'string' ? new ReportBody(Buffer.from(c)) : new ReportBody(typeof c.text === 'string' ? Buffer.from(c.text) : c.text, c.rowCount);

/** An answer, and how it was had: from memory, from an identical computation under way, or computed now. */
export interface CacheAnswer {
  body: ReportBody;
  served: 'hit' | 'shared' | 'computed';
  /** A held answer's age: from when its query began, ms (a report answer says it, as the Age header). */
  ageMs?: number;
}

export interface ReportCacheOptions {
  /** Longest an answer is served again, ms; 0 turns the cache off. */
  ttlMs: number;
  /** Memory held answers may take (bodies, compressed forms, keys), bytes; the least recently used go first. */
  maxBytes: number;
  /** Largest body held (default: a sixteenth of maxBytes, so one big report cannot push out everything else). */
  maxEntryBytes?: number;
  /**
   * Report reads may go to a replica up to this far behind the primary (ms; 0 = strict read-your-writes or no
   * replica): an answer whose query began within this time of a change this process knew of is not held.
   */
  replicaLagMs?: number;
  /** Milliseconds clock (tests). */
  nowMs?: () => number;
}

interface Entry {
  body: ReportBody;
  /** Generation read before the answer's query began. */
  gen: number;
  /** When its query began (the TTL counts from then). */
  at: number;
  bytes: number;
}

export interface ReportCacheStats {
  /** Answers served from memory. */
  hits: number;
  /** Answers computed (their SQL ran), while the cache was on. */
  misses: number;
  /** Requests that waited for an identical computation already under way instead of running their own. */
  shared: number;
  /** Answers held after computing. */
  stored: number;
  /** Answers dropped to stay within the memory bound. */
  evicted: number;
  /** Answers not held: a change during their query, too large, or not listening. */
  refused: number;
}

function plain(v: unknown): boolean {
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return true;
  if (typeof v === 'number') return Number.isFinite(v);
  return Array.isArray(v) && v.every(plain);
}

/**
 * Finished report answers of this server process, shared by every user whose request comes to the same SQL, bound
 * values (the user's scope predicate and values are among them), ordering and paging: a key is made of exactly
 * those, so an answer is never given to a user whose scope would not produce it.
 *
 * Correctness rests on a generation number: the writes this process committed (db/write-generation.ts), plus the
 * notifications the database sends when any process or person changes a table reports read (migration 017). An
 * answer is held with the generation read BEFORE its query began and served only while the generation is the same,
 * so an answer computed across a write is never served after it. Nothing is served or held unless this process is
 * listening for those notifications (a lost connection may have missed some); a TTL bounds what no notification
 * covers (SQL reading now(), replica lag). Concurrent identical misses share one computation.
 */
export class ReportResultCache {
  private readonly entries = new Map<string, Entry>();
  private readonly flights = new Map<string, { gen: number; answer: Promise<ReportBody> }>();
  private bytes = 0;
  private listening = false;
  private listener: Listener | undefined;
  /** Notifications heard, connection losses and explicit invalidations: each moves the generation. */
  private moves = 0;
  private lastGen = -1;
  private lastChangeAt = -Infinity;
  private readonly ttlMs: number;
  private readonly maxBytes: number;
  private readonly maxEntryBytes: number;
  private readonly replicaLagMs: number;
  private readonly nowMs: () => number;
  readonly stats: ReportCacheStats = { hits: 0, misses: 0, shared: 0, stored: 0, evicted: 0, refused: 0 };

  constructor(opts: ReportCacheOptions) {
    this.ttlMs = opts.ttlMs;
    this.maxBytes = opts.maxBytes;
    this.maxEntryBytes = opts.maxEntryBytes ?? Math.floor(opts.maxBytes / 16);
    this.replicaLagMs = opts.replicaLagMs ?? 0;
    this.nowMs = opts.nowMs ?? Date.now;
  }

  /** Starts listening for data changes; with a TTL of 0 the cache stays off and opens no connection. */
  async start(db: Db): Promise<void> {
    if (this.ttlMs <= 0) return;
    // Writes of this process count when they name a table reports may read (sign-in and audit writes do not).
    // Without the report role (a database not migrated), every write counts.
    const tables = await db
      .query<{ name: string }>(
        `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace s ON s.oid = c.relnamespace
          WHERE s.nspname = current_schema() AND c.relkind IN ('r', 'p') AND NOT c.relispartition
            AND has_table_privilege('hht_report', c.oid, 'SELECT')`,
      )
      .catch(() => ({ rows: [] }));
    watchTables(tables.rows.map((r) => r.name));
    this.listener = await db.listen(DATA_CHANNEL, {
      message: () => this.invalidate(),
      state: (listening) => {
        this.invalidate();
        this.listening = listening;
      },
    });
  }

  async stop(): Promise<void> {
    this.listening = false;
    this.invalidate();
    await this.listener?.close();
  }

  /** Whether answers are served and held now (on, and listening for changes). */
  get active(): boolean {
    return this.ttlMs > 0 && this.listening;
  }

  /** Drops everything held (data changed, the clock moved, the listening connection came or went). */
  invalidate(): void {
    this.moves += 1;
    this.entries.clear();
    this.bytes = 0;
  }

  /**
   * The current generation: it moves with every write this process makes and every change the database announces.
   * The first reading is where counting starts, not a change.
   */
  generation(): number {
    const gen = this.moves + localWrites();
    if (gen !== this.lastGen) {
      if (this.lastGen !== -1) this.lastChangeAt = this.nowMs();
      this.lastGen = gen;
    }
    return gen;
  }

  /** Memory held now, bytes. */
  get heldBytes(): number {
    return this.bytes;
  }

  get size(): number {
    return this.entries.size;
  }

  /**
   * The key of what decides an answer, or undefined when a part is not plain JSON (such a request is not cached):
   * a digest, so long SQL texts are not kept twice.
   */
  static key(parts: readonly unknown[]): string | undefined {
    // Plain JSON values only (a Date or an object could serialise like a different value the driver binds differently).
    if (!parts.every((p) => p === undefined || plain(p))) return undefined;
    return hash('sha256', JSON.stringify(parts), 'base64url');
  }

  /**
   * The answer for a key: held, shared with an identical computation under way, or computed by `compute` (and held
   * if nothing changed meanwhile). Errors are never held: the waiters of a failed computation all get its error.
   * The key may be given as a function, called only while the cache is on (a digest of the SQL costs a few
   * per cent of an uncached call).
   */
  async get(keyOf: string | undefined | (() => string | undefined), compute: () => Promise<ComputedBody>): Promise<CacheAnswer> {
    const key = this.active ? (typeof keyOf === 'function' ? keyOf() : keyOf) : undefined;
    if (key === undefined) return { body: toBody(await compute()), served: 'computed' };
    const gen = this.generation();
    const held = this.entries.get(key);
    if (held) {
      this.entries.delete(key);
      if (held.gen === gen && this.nowMs() - held.at <= this.ttlMs) {
        this.entries.set(key, held); // most recently used last
        this.stats.hits += 1;
        return { body: held.body, served: 'hit', ageMs: Math.max(0, this.nowMs() - held.at) };
      }
      this.bytes -= held.bytes;
    }
    const flight = this.flights.get(key);
    if (flight && flight.gen === gen) {
      this.stats.shared += 1;
      return { body: await flight.answer, served: 'shared' };
    }
    this.stats.misses += 1;
    const startedAt = this.nowMs();
    const answer = compute().then((computed) => {
      const body = toBody(computed);
      this.hold(key, body, gen, startedAt);
      return body;
    });
    this.flights.set(key, { gen, answer });
    const done = (): void => {
      if (this.flights.get(key)?.answer === answer) this.flights.delete(key);
    };
    answer.then(done, done);
    return { body: await answer, served: 'computed' };
  }

  private hold(key: string, body: ReportBody, gen: number, startedAt: number): void {
    const bytes = body.json.length + key.length;
    const replicaMayLag = this.replicaLagMs > 0 && startedAt - this.lastChangeAt < this.replicaLagMs;
    if (!this.active || gen !== this.generation() || bytes > this.maxEntryBytes || replicaMayLag) {
      this.stats.refused += 1;
      return;
    }
    const old = this.entries.get(key);
    if (old) {
      this.entries.delete(key);
      this.bytes -= old.bytes;
    }
    const entry: Entry = { body, gen, at: startedAt, bytes }; // its age counts from when its query began
    this.entries.set(key, entry);
    this.bytes += bytes;
    this.stats.stored += 1;
    // Compressed forms made later count too, while the entry is still held.
    body.onEncoded = (extra) => {
      if (this.entries.get(key) !== entry) return;
      entry.bytes += extra;
      this.bytes += extra;
      this.evict(entry);
    };
    this.evict(entry);
  }

  /** Drops the least recently used answers until the held ones fit the bound; `keep` (just held) goes last. */
  private evict(keep: Entry): void {
    if (this.bytes <= this.maxBytes) return;
    for (const [key, e] of this.entries) {
      if (this.bytes <= this.maxBytes) return;
      if (e === keep) continue;
      this.entries.delete(key);
      this.bytes -= e.bytes;
      this.stats.evicted += 1;
    }
    if (this.bytes > this.maxBytes) {
      for (const [key, e] of this.entries) {
        if (e !== keep) continue;
        this.entries.delete(key);
        this.bytes -= e.bytes;
        this.stats.evicted += 1;
      }
    }
  }
}
