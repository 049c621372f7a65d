import type { Queryable } from '../db';

export interface RateResult {
  allowed: boolean;
  /** Seconds until the current window ends. */
  retryAfter: number;
}

const WINDOW_MS = 60_000;

/**
 * Counts one hit of ip in bucket in the current fixed one-minute window, in the database (so all instances
 * share the count), and says whether it is within limit.
 */
export async function hitRateLimit(db: Queryable, bucket: string, ip: string, limit: number, now: Date): Promise<RateResult> {
  const start = Math.floor(now.getTime() / WINDOW_MS) * WINDOW_MS;
  const { rows } = await db.query<{ hits: number }>(
    `INSERT INTO auth_rate_counters (bucket, ip, window_start, hits) VALUES ($1, $2, $3, 1)
     ON CONFLICT (bucket, ip, window_start) DO UPDATE SET hits = auth_rate_counters.hits + 1
     RETURNING hits`,
    [bucket, ip, new Date(start).toISOString()],
  );
  const hits = Number(rows[0]?.hits ?? 0);
  return { allowed: hits <= limit, retryAfter: Math.max(1, Math.ceil((start + WINDOW_MS - now.getTime()) / 1000)) };
}
