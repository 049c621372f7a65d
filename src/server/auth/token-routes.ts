import type { FastifyInstance, FastifyReply } from 'fastify';
import { HttpError } from '../plugins/errors';
import { AUTH_LIMITS, SERVER_MESSAGES, type TokenPair } from '../../shared/auth-contract';
import { bearer, checkXsrf, sessionInvalid, signedIn } from './authenticate';
import { iso, type AuthContext } from './context';
import { randomToken, tokenHash } from './secrets';
import { loadSession } from './sessions';

/** Refresh-token rotation (reuse revokes the session) and logout. */
export function tokenRoutes(app: FastifyInstance, ctx: AuthContext): void {
  const { db } = ctx;
  app.post('/api/refreshToken', async (request, reply): Promise<TokenPair | FastifyReply> => {
    const token = bearer(request);
    if (!token) throw new HttpError(403, SERVER_MESSAGES.noToken);
    checkXsrf(request);
    const t = ctx.now();
    const h = tokenHash(token);
    const used = (
      await db.query<{ session_id: string }>(
        'UPDATE auth_refresh_tokens SET used_at = $2 WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2 RETURNING session_id',
        [h, iso(t)],
      )
    ).rows[0];
    if (!used) {
      const old = (await db.query<{ session_id: string; used_at: string | null }>('SELECT session_id, used_at FROM auth_refresh_tokens WHERE token_hash = $1', [h])).rows[0];
      if (old && old.used_at !== null) {
        // A rotated-out token came back: someone holds a copy. End the session for everyone.
        await db.query(
          `UPDATE auth_sessions SET revoked_at = $2, revoke_reason = 'refresh_reuse' WHERE session_id = $1 AND revoked_at IS NULL`,
          [old.session_id, iso(t)],
        );
        ctx.sessionCache.forget(old.session_id);
        await ctx.sessionCache.fence(db);
        request.log.warn({ sessionId: old.session_id }, 'refresh token reuse: session revoked');
        return sessionInvalid(reply);
      }
      throw new HttpError(403, SERVER_MESSAGES.noToken);
    }
    const s = await loadSession(ctx, used.session_id, true);
    if (s.state === 'invalid') return sessionInvalid(reply);
    if (s.state === 'expired') throw new HttpError(403, SERVER_MESSAGES.noToken);
    const refreshToken = randomToken(32);
    await db.query('INSERT INTO auth_refresh_tokens (token_hash, session_id, created_at, expires_at) VALUES ($1, $2, $3, $4)', [
      tokenHash(refreshToken), used.session_id, iso(t), iso(new Date(t.getTime() + AUTH_LIMITS.refreshTokenTtlMs)),
    ]);
    return { accessToken: await ctx.tokens.sign(s.row.user_id, used.session_id, t), refreshToken };
  });

  app.post<{ Body: { userId: string } }>(
    '/api/logout',
    {
      preHandler: app.authenticate,
      schema: {
        body: {
          type: 'object', required: ['userId'], additionalProperties: false,
          properties: { userId: { type: 'string', minLength: 1, maxLength: AUTH_LIMITS.credentialMaxLength } },
        },
      },
    },
    async (request): Promise<{ code: number; message: string }> => {
      const u = signedIn(request);
      if (request.body.userId.trim().toUpperCase() !== u.userId) throw new HttpError(403, SERVER_MESSAGES.logoutMismatch);
      await db.query(`UPDATE auth_sessions SET revoked_at = $2, revoke_reason = 'logout' WHERE session_id = $1 AND revoked_at IS NULL`, [
        u.sessionId, iso(ctx.now()),
      ]);
      // Ends here at once, and the other processes have been told (database notification) before the user is answered.
      ctx.sessionCache.forget(u.sessionId);
      await ctx.sessionCache.fence(db);
      return { code: 1, message: SERVER_MESSAGES.loggedOut };
    },
  );
}
