import { AUTH_LIMITS } from '../../shared/auth-contract';
import { iso, type AuthContext } from './context';

/**
 * Counts a wrong password for (account, client address); the 5th within 15 minutes locks that pair for 15
 * minutes. Returns whether this failure locked it. Keyed by address too, so nobody can lock an officer out of
 * their own desk by guessing from elsewhere (see docs/auth.md, "Lockout").
 */
export async function countPasswordFailure(ctx: AuthContext, userId: string, ip: string, t: Date): Promise<boolean> {
  const windowStart = iso(new Date(t.getTime() - AUTH_LIMITS.lockoutWindowMs));
  return ctx.db.transaction(async (tx) => {
    await tx.query('INSERT INTO auth_login_failures (user_id, failed_at, ip) VALUES ($1, $2, $3)', [userId, iso(t), ip]);
    const n = Number(
      (
        await tx.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM auth_login_failures WHERE user_id = $1 AND ip = $2 AND failed_at > $3',
          [userId, ip, windowStart],
        )
      ).rows[0]?.n ?? 0,
    );
    if (n < AUTH_LIMITS.lockoutFailures) return false;
    await tx.query(
      `INSERT INTO auth_lockouts (user_id, ip, locked_until) VALUES ($1, $2, $3)
       ON CONFLICT (user_id, ip) DO UPDATE SET locked_until = EXCLUDED.locked_until`,
      [userId, ip, iso(new Date(t.getTime() + AUTH_LIMITS.lockoutMs))],
    );
    await tx.query('DELETE FROM auth_login_failures WHERE user_id = $1 AND ip = $2', [userId, ip]);
    return true;
  });
}

/** Seconds left of this address's captcha lock (0 when not locked). */
export async function captchaLockedFor(ctx: AuthContext, ip: string, t: Date): Promise<number> {
  const row = (
    await ctx.db.query<{ locked_until: Date | string }>(
      'SELECT locked_until FROM auth_captcha_failures WHERE ip = $1 AND locked_until > $2',
      [ip, iso(t)],
    )
  ).rows[0];
  return row ? Math.ceil((new Date(row.locked_until).getTime() - t.getTime()) / 1000) : 0;
}

/**
 * Counts a wrong captcha answer of the address in one statement; the 5th within 15 minutes locks the address for
 * 30 s and resets the counter (spec section 4). Returns whether this answer locked it.
 */
export async function countCaptchaFailure(ctx: AuthContext, ip: string, t: Date): Promise<boolean> {
  const limit = AUTH_LIMITS.captchaFailuresBeforeLock;
  const row = (
    await ctx.db.query<{ failures: number; locked_until: Date | string | null }>(
      `INSERT INTO auth_captcha_failures AS f (ip, failures, last_failed_at, locked_until) VALUES ($1, 1, $4, NULL)
       ON CONFLICT (ip) DO UPDATE SET
         failures = CASE WHEN f.last_failed_at <= $5 THEN 1 WHEN f.failures + 1 >= $3 THEN 0 ELSE f.failures + 1 END,
         locked_until = CASE WHEN f.last_failed_at > $5 AND f.failures + 1 >= $3 THEN $2::timestamptz ELSE f.locked_until END,
         last_failed_at = EXCLUDED.last_failed_at
       RETURNING failures, locked_until`,
      [ip, iso(new Date(t.getTime() + AUTH_LIMITS.captchaLockSeconds * 1000)), limit, iso(t),
        iso(new Date(t.getTime() - AUTH_LIMITS.lockoutWindowMs))],
    )
  ).rows[0];
  return row !== undefined && row.failures === 0 && row.locked_until !== null && new Date(row.locked_until).getTime() > t.getTime();
}
