import { randomUUID } from 'node:crypto';
import type { Db, Listener } from '../db';

/** Channel the database announces session and user changes on (migration 016). */
export const AUTH_CHANNEL = 'hht_auth';

export interface CachedSession {
  session_id: string;
  user_id: string;
}

export interface SessionCacheOptions {
  /** Most sessions held; the least recently used go first. */
  maxEntries?: number;
  /** A held session is read again after this long even without a notification (a backstop, ms). */
  ttlMs?: number;
  /** Milliseconds clock for the TTL (tests). */
  nowMs?: () => number;
}

/**
 * Valid sessions this server process has read, so an authenticated request needs no database round trip. Trusted
 * only while the process LISTENs on AUTH_CHANNEL: the database announces every change to a session or user row
 * when it commits (trigger of migration 016), and the entries concerned are dropped at once. If the listening
 * connection is lost, everything is dropped and nothing is held until it listens again (notifications may have
 * been missed). Only sessions found valid are held; expiry is checked by the caller on every request.
 */
export class SessionCache<T extends CachedSession> {
  private readonly entries = new Map<string, { row: T; at: number }>();
  private listening = false;
  private listener: Listener | undefined;
  private readonly maxEntries: number;
  private readonly ttlMs: number;
  private readonly nowMs: () => number;
  /** Notifications that dropped something (set() refuses a row read across one). */
  invalidations = 0;
  private readonly fences = new Map<string, () => void>();

  constructor(opts: SessionCacheOptions = {}) {
    this.maxEntries = opts.maxEntries ?? 10_000;
    this.ttlMs = opts.ttlMs ?? 5 * 60_000;
    this.nowMs = opts.nowMs ?? Date.now;
  }

  /** Starts listening; a database that cannot LISTEN leaves the cache off (every request reads the database). */
  async start(db: Db): Promise<void> {
    this.listener = await db.listen(AUTH_CHANNEL, {
      message: (payload) => this.onMessage(payload),
      state: (listening) => {
        this.entries.clear();
        this.listening = listening;
      },
    });
  }

  async stop(): Promise<void> {
    this.listening = false;
    this.entries.clear();
    await this.listener?.close();
  }

  get active(): boolean {
    return this.listening;
  }

  get(sessionId: string): T | undefined {
    if (!this.listening) return undefined;
    const e = this.entries.get(sessionId);
    if (!e) return undefined;
    this.entries.delete(sessionId);
    if (this.nowMs() - e.at > this.ttlMs) return undefined;
    this.entries.set(sessionId, e); // most recently used last
    return e.row;
  }

  /**
   * Holds a row read from the database. `since` is this.generation() taken BEFORE the read: a notification handled
   * while the read was under way may concern it, so the row is not held then.
   */
  set(row: T, since: number): void {
    if (!this.listening || since !== this.invalidations) return;
    this.entries.set(row.session_id, { row, at: this.nowMs() });
    if (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
  }

  /** Count of notifications so far: pass it to set() with the row read after taking it. */
  generation(): number {
    return this.invalidations;
  }

  /** Drops a session at once in this process (its own logout); the notification does the same everywhere. */
  forget(sessionId: string): void {
    this.entries.delete(sessionId);
  }

  /** Drops every session of a user held here (a new sign-in superseded them); the notification tells the others. */
  forgetUser(userId: string): void {
    for (const [sid, e] of this.entries) if (e.row.user_id === userId) this.entries.delete(sid);
  }

  /**
   * Waits until this process has heard every change committed before the call (at most timeoutMs): a marker is
   * announced and awaited, and each listener hears notifications in commit order. A route that revokes a session
   * calls it before answering, so by the time the user has the answer the other processes' listening connections
   * have been sent the change too, ahead of any request the user makes next.
   */
  async fence(db: Db, timeoutMs = 1_000): Promise<void> {
    if (!this.listening) return;
    const id = randomUUID();
    let timer: NodeJS.Timeout | undefined;
    const heard = new Promise<void>((resolve) => {
      this.fences.set(id, resolve);
      timer = setTimeout(resolve, timeoutMs);
    });
    try {
      await db.query('SELECT pg_notify($1, $2)', [AUTH_CHANNEL, `f:${id}`]);
      await heard;
    } finally {
      clearTimeout(timer);
      this.fences.delete(id);
    }
  }

  onMessage(payload: string): void {
    if (payload.startsWith('f:')) {
      this.fences.get(payload.slice(2))?.();
      return;
    }
    this.invalidations += 1;
    if (payload.startsWith('s:')) {
      this.entries.delete(payload.slice(2));
    } else if (payload.startsWith('u:')) {
      this.forgetUser(payload.slice(2));
    } else {
      this.entries.clear();
    }
  }
}
