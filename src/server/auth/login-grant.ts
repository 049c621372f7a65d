import type { FastifyReply, FastifyRequest } from 'fastify';
import { AUTH_LIMITS, LOGIN_GRANT_COOKIE } from '../../shared/auth-contract';
import { USER_COLUMNS, iso, type AuthContext, type UserRow } from './context';
import { randomToken, tokenHash } from './secrets';

/**
 * The login grant: proof that THIS client passed the password step. Its id goes to the browser in an HttpOnly
 * cookie (scoped to /api/) and only its hash is stored; the OTP calls must present it, so a third party who
 * only knows the user id cannot send, resend or guess (and so kill) the victim's OTP.
 */
export async function issueLoginGrant(ctx: AuthContext, reply: FastifyReply, userId: string, ip: string, t: Date): Promise<void> {
  const grantId = randomToken(24);
  const stale = iso(new Date(t.getTime() - AUTH_LIMITS.loginGrantTtlMs - AUTH_LIMITS.otpTtlMs));
  await ctx.db.query('DELETE FROM auth_login_grants WHERE user_id = $1 AND granted_at < $2', [userId, stale]);
  await ctx.db.query('INSERT INTO auth_login_grants (grant_hash, user_id, granted_at, ip) VALUES ($1, $2, $3, $4)', [
    tokenHash(grantId), userId, iso(t), ip,
  ]);
  reply.setCookie(LOGIN_GRANT_COOKIE, grantId, {
    path: '/api/',
    httpOnly: true,
    sameSite: 'strict',
    secure: ctx.config.production,
    maxAge: Math.floor((AUTH_LIMITS.loginGrantTtlMs + AUTH_LIMITS.otpTtlMs) / 1000),
  });
}

/** Hash of the grant cookie the request carries, if any. */
export function grantHashOf(request: FastifyRequest): string | null {
  const id = request.cookies[LOGIN_GRANT_COOKIE];
  return id && id.length <= 128 ? tokenHash(id) : null;
}

/** The active user this request's grant was issued to, if it is for userId and younger than 5 minutes. */
export async function grantedUser(ctx: AuthContext, request: FastifyRequest, userId: string): Promise<{ user: UserRow; grantHash: string } | null> {
  const grantHash = grantHashOf(request);
  if (!grantHash) return null;
  const since = iso(new Date(ctx.now().getTime() - AUTH_LIMITS.loginGrantTtlMs));
  const user = (
    await ctx.db.query<UserRow>(
      `SELECT ${USER_COLUMNS} FROM auth_login_grants g JOIN users u ON u.user_id = g.user_id
        WHERE g.grant_hash = $1 AND g.user_id = $2 AND g.granted_at > $3 AND u.active`,
      [grantHash, userId, since],
    )
  ).rows[0];
  return user ? { user, grantHash } : null;
}
