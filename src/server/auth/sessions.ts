import type { TokenPair } from '../../shared/auth-contract';
import { AUTH_LIMITS } from '../../shared/auth-contract';
import { iso, type AuthContext } from './context';
import { USER_COLUMNS, type SessionRow } from './user-rows';
import { randomToken, tokenHash } from './secrets';

export type SessionState = { state: 'ok'; row: SessionRow } | { state: 'invalid' } | { state: 'expired' };

/** Creates a session (revoking the user's live ones: onSuperseded hears how many) and its first refresh token. */
export async function startSession(ctx: AuthContext, userId: string, onSuperseded?: (sessions: number) => void): Promise<TokenPair> {
  const t = ctx.now();
  const sessionId = randomToken(18);
  const refreshToken = randomToken(32);
  await ctx.db.transaction(async (tx) => {
    const superseded = await tx.query(
      `UPDATE auth_sessions SET revoked_at = $2, revoke_reason = 'superseded' WHERE user_id = $1 AND revoked_at IS NULL RETURNING session_id`,
      [userId, iso(t)],
    );
    if (superseded.rows.length > 0) onSuperseded?.(superseded.rows.length);
    await tx.query('INSERT INTO auth_sessions (session_id, user_id, created_at, expires_at) VALUES ($1, $2, $3, $4)', [
      sessionId, userId, iso(t), iso(new Date(t.getTime() + AUTH_LIMITS.sessionTtlMs)),
    ]);
    await tx.query('INSERT INTO auth_refresh_tokens (token_hash, session_id, created_at, expires_at) VALUES ($1, $2, $3, $4)', [
      tokenHash(refreshToken), sessionId, iso(t), iso(new Date(t.getTime() + AUTH_LIMITS.refreshTokenTtlMs)),
    ]);
  });
  // The older sessions end here at once, and the other processes have been told before the user is answered.
  ctx.sessionCache.forgetUser(userId);
  await ctx.sessionCache.fence(ctx.db);
  return { accessToken: await ctx.tokens.sign(userId, sessionId, t), refreshToken };
}

/**
 * The session and its user: invalid (revoked, unknown, user inactive) or expired or ok. A valid session this
 * process has read is held in ctx.sessionCache (dropped when the database announces a change to it or its user);
 * otherwise one statement. `fresh` always reads the database (token refresh, which has just written).
 */
export async function loadSession(ctx: AuthContext, sessionId: string, fresh = false): Promise<SessionState> {
  let row = fresh ? undefined : ctx.sessionCache.get(sessionId);
  if (!row) {
    const since = ctx.sessionCache.generation();
    row = (
      await ctx.db.query<SessionRow>(
        `SELECT s.session_id, s.revoked_at, s.expires_at, ${USER_COLUMNS}
           FROM auth_sessions s JOIN users u ON u.user_id = s.user_id WHERE s.session_id = $1`,
        [sessionId],
      )
    ).rows[0];
    if (!row || row.revoked_at !== null || !row.active) return { state: 'invalid' };
    ctx.sessionCache.set(row, since);
  }
  if (new Date(row.expires_at).getTime() <= ctx.now().getTime()) return { state: 'expired' };
  return { state: 'ok', row };
}
